"""The incremental rolling summary of a session's evicted messages: faithful to what it folds.

The new summary is made from the old summary first, then only the messages being evicted now —
never by re-reading the whole session — and only when eviction happens.

It is extractive by default: one line per evicted user message, made of that message's own
sentences ("User: …", questions as "User asked: …", a long paste by its opening), so every name,
number and place in it was said by the user. The assistant's replies are not folded: a small
model's replies are where invented facts come from. When it outgrows its budget, whole lines go —
questions and pastes before statements, oldest first — so it always ends on a complete sentence.

With `generative=True` the model writes the summary instead, and the code checks it
(`faithful.untraceable`, `faithful.ends_complete`); a generated summary that fails falls back to
the extractive one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memchat.engine.protocol import ChatEngine, Sampling, truncate_text
from memchat.memory.faithful import ends_complete, forgotten_sentences, sentences, untraceable, without
from memchat.memory.items import MemoryStore
from memchat.memory.rules import forget_request, is_chit_chat, is_question
from memchat.types import ChatMessage, Message

_UPDATE = (
    "You keep a running summary of a conversation between a user and an assistant. "
    "Write the updated summary: keep every fact, preference, decision and open question from the old summary "
    "and add what the new messages say. Plain sentences, third person, at most {words} words. "
    "Reply with the summary only."
)
_SAMPLING = Sampling(temperature=0.0, top_p=1.0, repeat_penalty=1.15, seed=0)
MESSAGE_CLIP = 400
LONG_MESSAGE = 800
"""Characters above which a message is folded as a paste: its opening only."""
LINE_TOKENS = 80
"""Most tokens one message's line may take."""

STATEMENT, QUESTION, PASTE = "User: ", "User asked: ", "User pasted a long text that begins: "
_DROP_ORDER = (QUESTION, PASTE, STATEMENT)
"""Which lines go first when the summary outgrows its budget (oldest first within each kind)."""


def _clip_sentences(parts: Sequence[str], limit: int, count: Callable[[str], int]) -> str:
    """As many whole sentences as fit; a first sentence too long alone is cut at a word and ends with "…"."""
    kept: list[str] = []
    for part in parts:
        if count(" ".join([*kept, part])) > limit:
            break
        kept.append(part)
    if kept:
        return " ".join(kept)
    if not parts:
        return ""
    cut, _ = truncate_text(parts[0], max(1, limit - 1), count)
    cut = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return cut.rstrip(" ,;:") + "…"


def _never(_: str) -> bool:
    return False


def fold_line(
    message: Message, count: Callable[[str], int], limit: int = LINE_TOKENS, forgotten: Callable[[str], bool] = _never
) -> str:
    """One user message as a summary line in the user's own words ("" for chit-chat, forget requests,
    replies); sentences `forgotten` says a forget request took back are left out."""
    if message.role != "user" or is_chit_chat(message.content) or forget_request(message.content) is not None:
        return ""
    text = " ".join(message.content.split())
    if len(text) > LONG_MESSAGE:
        return PASTE + _clip_sentences(without(sentences(text)[:2], forgotten), limit // 2, count)
    said = [s for s in without(sentences(text), forgotten) if not is_chit_chat(s)]
    statements = [s for s in said if not is_question(s)]
    if statements:
        return STATEMENT + _clip_sentences(statements, limit, count)
    if said:
        return QUESTION + _clip_sentences(said, limit, count)
    return ""


def compact(lines: Sequence[str], limit: int, count: Callable[[str], int]) -> str:
    """`lines` within `limit` tokens, dropping whole lines in `_DROP_ORDER`, oldest first."""
    kept = [line for line in lines if line.strip()]
    for kind in _DROP_ORDER:
        while count("\n".join(kept)) > limit:
            victim = next((i for i, line in enumerate(kept) if line.startswith(kind)), None)
            if victim is None:
                break
            kept.pop(victim)
    while kept and count("\n".join(kept)) > limit:  # lines in another form (an older summary)
        kept.pop(0)
    return "\n".join(kept)


def fold_extractive(
    old_summary: str, evicted: Sequence[Message], limit: int, count: Callable[[str], int],
    forgotten: Callable[[str], bool] = _never,
) -> str:
    """Old summary first, then one line per evicted user message, within `limit` tokens."""
    lines = [line for line in old_summary.splitlines() if line.strip()]
    for message in evicted:
        line = fold_line(message, count, min(LINE_TOKENS, limit), forgotten)
        if line and line not in lines:
            lines.append(line)
    return compact(lines, limit, count)


class RollingSummary:
    def __init__(self, engine: ChatEngine, memories: MemoryStore | None = None, *, generative: bool = False) -> None:
        self.engine = engine
        self.memories = memories
        """Where deleted memories are looked up, so a forgotten topic is not folded back in."""
        self.generative = generative

    def _forgotten(self) -> Callable[[str], bool]:
        if self.memories is None:
            return _never
        deleted = self.memories.list_items(statuses=("deleted",), episodes=True)
        return forgotten_sentences([m.content for m in deleted if not m.is_episode],
                                   [m.content for m in deleted if m.is_episode])

    def _generate(self, system: str, user: str, max_tokens: int) -> str:
        messages = [ChatMessage("system", system), ChatMessage("user", user)]
        worker = self.engine.utility()  # keeps the chat context's KV cache for the conversation
        return "".join(worker.stream(messages, max_tokens=max_tokens, sampling=_SAMPLING)).strip()

    def update(self, old_summary: str, evicted: Sequence[Message], limit: int) -> str:
        """The summary after folding in `evicted`, within `limit` tokens."""
        if not evicted:
            return old_summary
        extractive = fold_extractive(old_summary, evicted, limit, self.engine.count, self._forgotten())
        if not self.generative:
            return extractive
        generated = clip_to_sentences(self._written(old_summary, evicted, limit), limit, self.engine.count)
        sources = [old_summary, *(m.content for m in evicted)]
        if not generated or not ends_complete(generated) or untraceable(generated, sources):
            return extractive
        return generated

    def _written(self, old_summary: str, evicted: Sequence[Message], limit: int) -> str:
        lines = []
        for message in evicted:
            text, cut = truncate_text(message.content, MESSAGE_CLIP, self.engine.count)
            lines.append(f"{message.role}: {text}{' …' if cut else ''}")
        user = f"Old summary:\n{old_summary or '(none yet)'}\n\nNew messages:\n" + "\n".join(lines)
        return self._generate(_UPDATE.format(words=max(20, int(limit * 0.6))), user, max_tokens=limit + 32)


def clip_to_sentences(text: str, limit: int, count: Callable[[str], int]) -> str:
    """Keep the newest whole sentences that fit in `limit` tokens; never a cut-off sentence."""
    pieces = [p for p in sentences(text) if ends_complete(p)]
    kept: list[str] = []
    for piece in reversed(pieces):
        if count(" ".join([piece, *kept])) > limit:
            break
        kept.insert(0, piece)
    return " ".join(kept)
