"""What an OpenAI-compatible server can tell about itself: models, context size, tokenisation.

Servers differ in what they offer beyond `/v1/chat/completions`:

| server                      | context size                     | tokenise                            |
|-----------------------------|----------------------------------|-------------------------------------|
| llama.cpp `llama-server`    | `/props` default_generation_settings.n_ctx | `POST /tokenize {"content"}` |
| `python -m llama_cpp.server`| (not said: config)               | `POST /extras/tokenize {"input"}`   |
| vLLM                        | `/v1/models` max_model_len       | `POST /tokenize {"model", "prompt"}`|
| Ollama, LM Studio           | (not said: config)               | none (estimates, shown as `~`)      |

`ChatFraming` is how many tokens a chat template adds around each message. Servers tokenise
text but (except llama-server) do not render their template for us, so it is measured: a few
one-token chat calls whose `usage.prompt_tokens` the server reports, solved for the cost of
the prompt's frame and of each role's, then checked on a mixed prompt. A prompt is then
counted as frame + Σ(role frame + content tokens): exact when the check holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from memchat.engine.http_client import HttpClient, ServerError
from memchat.types import ChatMessage, MemchatError

TOKENIZERS = ("llama-server", "llama-cpp-python", "vllm")


@dataclass(frozen=True)
class ServerInfo:
    kind: str
    """llama-server, llama-cpp-python, vllm or openai-compatible (what it looked like)."""
    models: tuple[str, ...]
    n_ctx: int | None
    """The context size the server says it runs with (None: it does not say)."""
    tokenizer: str | None
    """Which tokenise endpoint answers (one of TOKENIZERS), or None."""


def probe(client: HttpClient, model: str) -> ServerInfo:
    """Ask the server what it is. Raises only when the server cannot be reached or is no OpenAI server."""
    listing = client.request("GET", "/v1/models")
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list):
        raise MemchatError(f"{client.display}/v1/models did not list models", "check engine.base_url")
    cards = [card for card in data if isinstance(card, dict) and isinstance(card.get("id"), str)]
    models = tuple(card["id"] for card in cards)
    card = next((c for c in cards if c["id"] == model), cards[0] if cards else {})
    props = _optional(client, "GET", "/props")
    if isinstance(props, dict) and ("default_generation_settings" in props or "n_ctx" in props):
        settings = props.get("default_generation_settings") or {}
        n_ctx = _int(settings.get("n_ctx")) or _int(props.get("n_ctx"))
        return ServerInfo("llama-server", models, n_ctx, _tokenizer(client, model, ("llama-server",)))
    if isinstance(card.get("max_model_len"), int) or card.get("owned_by") == "vllm":
        return ServerInfo("vllm", models, _int(card.get("max_model_len")), _tokenizer(client, model, ("vllm",)))
    tokenizer = _tokenizer(client, model, ("llama-cpp-python",))
    return ServerInfo("llama-cpp-python" if tokenizer else "openai-compatible", models, None, tokenizer)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _optional(client: HttpClient, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """An endpoint some servers lack: None when it is missing or answers nonsense."""
    try:
        return client.request(method, path, body)
    except ServerError:
        return None
    except MemchatError:
        return None


def _tokenizer(client: HttpClient, model: str, candidates: Sequence[str]) -> str | None:
    for kind in candidates:
        try:
            tokens(client, kind, model, "hello world")
        except MemchatError:
            continue
        return kind
    return None


def tokens(client: HttpClient, kind: str, model: str, text: str) -> int:
    """How many tokens the server's tokenizer makes of `text` (no BOS where the endpoint allows)."""
    if kind == "llama-server":
        answer = client.request("POST", "/tokenize", {"content": text, "add_special": False})
    elif kind == "llama-cpp-python":
        answer = client.request("POST", "/extras/tokenize", {"input": text, "model": model or None})
    else:
        answer = client.request("POST", "/tokenize", {"model": model, "prompt": text, "add_special_tokens": False})
    if isinstance(answer, dict) and isinstance(answer.get("tokens"), list):
        return len(answer["tokens"])
    if isinstance(answer, dict) and isinstance(answer.get("count"), int):
        return answer["count"]
    raise MemchatError(f"the model server's tokenise answer is not a token list ({str(answer)[:60]!r})",
                       "check engine.base_url")


@dataclass(frozen=True)
class ChatFraming:
    """Tokens a chat template adds: `base` once per prompt (BOS, the assistant cue), `roles` per message."""

    base: int
    roles: dict[str, int]
    exact: bool
    """True when a check prompt counted this way matched the server's own count."""

    def count(self, messages: Sequence[ChatMessage], count: Callable[[str], int]) -> int:
        fallback = max(self.roles.values())
        return self.base + sum(self.roles.get(m.role, fallback) + count(m.content) for m in messages)


GUESS = ChatFraming(3, {"system": 5, "user": 5, "assistant": 5}, exact=False)
"""ChatML-like frames, for a server that does not report prompt sizes."""


def calibrate(prompt_tokens: Callable[[list[ChatMessage]], int | None], count: Callable[[str], int]) -> ChatFraming:
    """Measure the template's frames from the server's `usage.prompt_tokens` of a few tiny prompts."""
    s, u, a = (lambda text: ChatMessage("system", text)), (lambda text: ChatMessage("user", text)), \
        (lambda text: ChatMessage("assistant", text))
    head = [s("Be brief."), u("Hi there.")]
    probes = {
        "head": head,
        "user": [*head, u("And you?")],
        "assistant": [*head, a("Hello!"), u("And you?")],
        "system": [*head, s("Note: none."), u("And you?")],
    }
    sizes = {name: prompt_tokens(messages) for name, messages in probes.items()}
    if sizes["head"] is None or sizes["assistant"] is None:
        return GUESS
    head_size = sizes["head"]

    def added(name: str) -> int | None:
        size = sizes[name]
        return None if size is None else size - head_size - sum(count(m.content) for m in probes[name][len(head):])

    pair = added("assistant")
    assert pair is not None
    user = added("user")
    if user is None:  # a template that wants strict user/assistant turns: share the pair evenly
        roles = {"user": math.ceil(pair / 2), "assistant": math.ceil(pair / 2)}
    else:
        roles = {"user": user, "assistant": pair - user}
    system_pair = added("system")
    roles["system"] = system_pair - roles["user"] if system_pair is not None else max(roles.values())
    base = head_size - roles["system"] - roles["user"] - sum(count(m.content) for m in head)
    framing = ChatFraming(base, roles, exact=False)
    check = [s("You are memchat.\n[preference] tea, not coffee"), u("My name is Ana."), a("Nice to meet you, Ana."),
             u("Where do I live?"), a("You did not say."), s("Notes:\n- lives in Lisbon"), u("And now?")]
    measured = prompt_tokens(check)
    return ChatFraming(base, roles, exact=measured == framing.count(check, count))
