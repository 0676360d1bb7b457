"""Settings: defaults < TOML file < `MEMCHAT_*` environment < CLI flags.

Every field is documented where it is declared; `memchat doctor` and the README
list them. Environment variables are named `MEMCHAT_<SECTION>_<FIELD>` in upper
case (for example `MEMCHAT_RECALL_HALF_LIFE_DAYS=7`), plus two shortcuts:
`MEMCHAT_DB` and `MEMCHAT_THEME`.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from memchat import paths
from memchat.types import MemchatError


def _physical_cores() -> int:
    """Physical cores: llama.cpp runs best with one thread per physical core."""
    try:
        cores: set[tuple[str, str]] = set()
        phys = core = ""
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("physical id"):
                    phys = line.split(":")[1].strip()
                elif line.startswith("core id"):
                    core = line.split(":")[1].strip()
                    cores.add((phys, core))
        if cores:
            return len(cores)
    except OSError:
        pass
    return max(1, os.cpu_count() or 1)


@dataclass
class ModelSettings:
    chat: str = "smollm2-135m-instruct"
    """Name (from models.txt) or path of the chat GGUF."""
    embed: str = "all-minilm-l6-v2"
    """Name (from models.txt) or path of the embedding GGUF."""
    second_embed: str = ""
    """A second, multilingual embedder read beside the GGUF one ("use-m3"; "" for none): see
    memchat/engine/paired_embed.py. Changing it means `memchat memory reindex`."""
    first_share: float = 0.7
    """The GGUF embedder's share of the paired similarity (the second model has the rest)."""
    n_ctx: int = 4096
    """Context window in tokens."""
    n_threads: int = field(default_factory=_physical_cores)
    """CPU threads for llama.cpp; defaults to the number of physical cores."""
    temperature: float = 0.3
    """Sampling temperature of chat replies."""
    top_p: float = 0.9
    repeat_penalty: float = 1.1
    seed: int = 42
    """Sampler seed, recorded in every turn snapshot."""
    reply_guard: bool = True
    """Regenerate a reply that repeats an earlier reply of the session or only echoes a memory back
    (another seed, warmer sampler, a penalty on copying); small models fall into both."""
    prewarm: bool = True
    """After a reply, evaluate the start of the next prompt (everything but the next message, its
    notes and recalled memories) in the background, so the next reply starts after reading only those."""


@dataclass
class BudgetSettings:
    """Token shares of the prompt. Values ≤ 1 are fractions of n_ctx, larger ones token counts."""

    reserved_output: float = 512
    """Tokens kept free for the reply."""
    system: float = 0.08
    notes: float = 0.05
    pinned: float = 0.08
    summary: float = 0.10
    recalled: float = 0.12
    input: float = 0.25
    """The rest (after the blocks above) goes to the recent window."""
    message_share: float = 0.4
    """At most this share of the recent window for any one message: a longer one keeps its head and
    tail with the middle elided in the prompt (the transcript keeps it whole)."""


@dataclass
class RecallSettings:
    """relevance = similarity + w_keyword·keyword + w_date·date + w_answer·answers decides what is selected;
    score = relevance + w_slot·slot + w_recency·recency + w_importance·importance + w_pinned·pinned orders it."""

    w_similarity: float = 1.0
    """Kept for old config files: similarity always counts fully in relevance."""
    w_keyword: float = 0.35
    """Weight of the IDF-weighted share of the query's words found in the memory."""
    w_date: float = 0.3
    """Weight of a date match: the memory's date falls in a month the query names."""
    w_slot: float = 0.15
    """Orders only: the question asks, in generic words, for what the memory is about ("where do I
    live?" → home), about the same person. On the dev split it lifts hit@5 (0.78 → 0.82); counted in
    relevance it let near misses in ("my cat?" when there is a dog), so it does not gate."""
    w_answer: float = 0.25
    """Relevance of a typed memory that fills the slot an *open* question asks for ("Where do I live?" —
    "The user moved to Astana"), about the same person. A closed question ("Do I play the guitar?")
    names its own answer and gets none of it; a memory about another thing of the same kind
    ("my cat?" — a dog) is rejected as a near miss whatever its relevance."""
    w_answer_unread: float = 0.55
    """w_answer for a question the embedder cannot read (below `min_coverage`: Chinese with the default
    English embedder), where similarity is only the words again and the slot asked is all the meaning
    recall has: above the floor, the answer alone is enough. On dev (three Chinese personas): Chinese
    selected 0.58 at 0.25, 0.61 at 0.55 and at 0.7; never-mentioned abstention unchanged (0.80)."""
    w_recency: float = 0.1
    """Orders only: the later of two relevant statements first (relative to the newest candidate)."""
    w_importance: float = 0.04
    """Orders only."""
    w_pinned: float = 0.05
    half_life_days: float = 30.0
    """Recency halves for every this many days a candidate is older than the newest one."""
    high: float = 0.65
    """Everything this relevant (and passing the gates below) is selected."""
    floor: float = 0.52
    """Nothing less relevant than this is selected."""
    min_lift: float = 0.1
    """A selected memory is at least this much more relevant than the query's background
    (the median similarity of its nearest neighbours)."""
    margin: float = 0.4
    """A selected memory is at most this much less relevant than the best match."""
    middle_k: int = 3
    """How many from the band between floor and high are taken."""
    min_similarity: float = 0.35
    """Kept for old config files (the background gate replaced it)."""
    min_coverage: float = 0.6
    """Below this share of known tokens (e.g. Chinese for an English-only embedder) similarity falls back to keyword overlap."""
    knn_k: int = 40
    """Vector neighbours fetched per query."""
    keyword_k: int = 40
    """FTS matches fetched per query."""


@dataclass
class ForgetSettings:
    capacity: int = 20000
    """Active memories kept; beyond it the lowest importance × usage are archived."""
    decay_days: float = 180.0
    """Never-recalled, unpinned memories older than this with low importance are archived."""
    decay_importance: float = 0.4
    """Only memories less important than this decay."""
    event_ttl_days: float = 0.0
    """Typed events (trips, plans, appointments) expire this many days after they were told; 0 (the
    default) keeps them, so "when did I…?" gets the same answer a day or a year later. Episodes never
    expire."""


@dataclass
class WriteSettings:
    model_labels: bool = False
    """Let the chat model label each new memory's importance through a JSON-schema grammar. Off by
    default: on the evaluation it changed no figure and cut import speed from ~50 to under 1 message/s
    with the default 135M model; worth trying with a larger model."""


@dataclass
class UISettings:
    theme: str = "memchat-dark"
    """Theme name from themes/ (memchat-dark, memchat-light)."""
    inspector: bool = True
    """Show the memory inspector on start (hidden automatically below 100 columns)."""
    keys: dict[str, str] = field(default_factory=dict)
    """Remapped keys, action name → key, e.g. {pin = "ctrl+p"}."""


@dataclass
class EngineSettings:
    """Where replies come from: the local llama.cpp model, or a model on an OpenAI-compatible server."""

    kind: str = "local"
    """"local" (llama.cpp in this process, model.chat) or "openai" (a server: llama-server, llama_cpp.server,
    Ollama's /v1, vLLM, LM Studio)."""
    base_url: str = "http://127.0.0.1:8080/v1"
    """The server's address, with or without the trailing /v1."""
    model: str = ""
    """The served model's name (empty: the first the server lists; Ollama needs it, e.g. "llama3.2")."""
    api_key_env: str = ""
    """The NAME of the environment variable holding the API key (e.g. "OPENAI_API_KEY"); the key itself
    is never written to settings, the database, snapshots, exports or logs."""
    timeout: float = 120.0
    """Seconds to wait for the server's next byte (a first token after a long prompt counts too)."""
    connect_timeout: float = 5.0
    """Seconds to wait for the server to accept a connection."""
    n_ctx: int = 0
    """Context window in tokens; 0 takes the server's (llama-server, vLLM say it) or assumes 2048."""
    embeddings: str = "local"
    """"local" (model.embed, in this process: memory never depends on the server) or "remote" (the
    server's /v1/embeddings)."""
    embed_model: str = ""
    """The server's embedding model when embeddings = "remote" (empty: engine.model)."""


SECOND_EMBEDDERS = ("use-m3",)
"""Second embedders memchat can pair with the GGUF one (memchat/engine/paired_embed.py)."""
ENGINE_CHOICES = {"engine.kind": ("local", "openai"), "engine.embeddings": ("local", "remote")}


@dataclass
class Settings:
    model: ModelSettings = field(default_factory=ModelSettings)
    engine: EngineSettings = field(default_factory=EngineSettings)
    budget: BudgetSettings = field(default_factory=BudgetSettings)
    recall: RecallSettings = field(default_factory=RecallSettings)
    forget: ForgetSettings = field(default_factory=ForgetSettings)
    write: WriteSettings = field(default_factory=WriteSettings)
    ui: UISettings = field(default_factory=UISettings)
    db: str = ""
    """SQLite file; empty means the data dir's memchat.db."""
    system_prompt: str = (
        "You are memchat, a helpful assistant running locally. Answer briefly and honestly. "
        "Use the user's notes and memories when they are relevant."
    )

    @property
    def db_path(self) -> Path:
        return Path(self.db).expanduser() if self.db else paths.default_db()


def _coerce(value: Any, current: Any, where: str) -> Any:
    try:
        if isinstance(current, bool):
            if isinstance(value, str):
                return value.strip().lower() in {"1", "true", "yes", "on"}
            return bool(value)
        if isinstance(current, int) and not isinstance(current, bool):
            return int(value)
        if isinstance(current, float):
            return float(value)
        if isinstance(current, dict):
            if not isinstance(value, dict):
                raise TypeError("expected a table")
            return {str(k): str(v) for k, v in value.items()}
        return str(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise MemchatError(f"bad setting {where}={value!r}: {exc}", "fix the config file or variable") from exc


def _unknown(obj: Any, data: dict[str, Any], prefix: str) -> list[str]:
    """Every key of `data` that names no setting, at any depth."""
    known = {f.name for f in fields(obj)}
    found = [f"{prefix}{key}" for key in data if key not in known]
    for key, value in data.items():
        if key in known and is_dataclass(getattr(obj, key)) and isinstance(value, dict):
            found += _unknown(getattr(obj, key), value, f"{prefix}{key}.")
    return found


def _merge(obj: Any, data: dict[str, Any], prefix: str) -> Any:
    unknown = _unknown(obj, data, prefix) if not prefix else []
    if unknown:
        raise MemchatError(
            f"unknown setting{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}",
            "`memchat doctor --settings` lists every setting",
        )
    changes: dict[str, Any] = {}
    for key, value in data.items():
        current = getattr(obj, key)
        if is_dataclass(current):
            if not isinstance(value, dict):
                raise MemchatError(f"setting {prefix}{key} must be a table", "use [section] in config.toml")
            changes[key] = _merge(current, value, f"{prefix}{key}.")
        else:
            changes[key] = _coerce(value, current, prefix + key)
    return replace(obj, **changes)


def _from_env(settings: Settings, environ: dict[str, str]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for section in fields(settings):
        value = getattr(settings, section.name)
        if is_dataclass(value):
            for f in fields(value):
                name = f"MEMCHAT_{section.name}_{f.name}".upper()
                if name in environ:
                    data.setdefault(section.name, {})[f.name] = environ[name]
        else:
            name = f"MEMCHAT_{section.name}".upper()
            if name in environ:
                data[section.name] = environ[name]
    if "MEMCHAT_THEME" in environ:
        data.setdefault("ui", {})["theme"] = environ["MEMCHAT_THEME"]
    return data


def load_settings(
    config_file: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Build Settings from the layers, lowest first. `overrides` holds CLI flags."""
    settings = Settings()
    path = config_file or paths.config_file()
    if path.exists():
        settings = _merge(settings, _read_toml(path), "")
    settings = _merge(settings, _from_env(settings, dict(os.environ if environ is None else environ)), "")
    if overrides:
        settings = _merge(settings, overrides, "")
    check_ranges(settings)
    return settings


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():  # a folder, or a FIFO that would block the read
        raise MemchatError(f"config {path} is not a regular file", "pass --config with a TOML file")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MemchatError(f"cannot read config {path}: {exc.strerror}", "fix its permissions or pass --config") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise MemchatError(f"cannot parse {path}: {exc}", "fix the TOML syntax or move the file away") from exc


RANGES: dict[str, tuple[float, float]] = {
    # setting                  lowest, highest (both allowed)
    "model.n_ctx":             (512, 131_072),  # below, the fixed blocks leave no room; above, the KV cache eats GBs
    "model.n_threads":         (1, 1024),
    "model.temperature":       (0.0, 5.0),
    "model.top_p":             (0.0, 1.0),
    "model.repeat_penalty":    (0.1, 10.0),
    "model.first_share":       (0.05, 0.95),  # either model alone is a different embedder, not a share
    "model.seed":              (-1, 2**32 - 1),  # llama.cpp's seed is unsigned 32-bit; -1 picks one at random
    "engine.timeout":          (1.0, 86_400),
    "engine.connect_timeout":  (0.1, 600),
    "engine.n_ctx":            (0, 1_048_576),  # 0: as the server says
    "budget.reserved_output":  (0.0, 131_072),
    "budget.system":           (0.0, 131_072),
    "budget.notes":            (0.0, 131_072),
    "budget.pinned":           (0.0, 131_072),
    "budget.summary":          (0.0, 131_072),
    "budget.recalled":         (0.0, 131_072),
    "budget.input":            (0.0, 131_072),
    "budget.message_share":    (0.05, 1.0),
    "recall.w_similarity":     (0.0, 10.0),
    "recall.w_keyword":        (0.0, 10.0),
    "recall.w_date":           (0.0, 10.0),
    "recall.w_slot":           (0.0, 10.0),
    "recall.w_answer":         (0.0, 10.0),
    "recall.w_answer_unread":  (0.0, 10.0),
    "recall.w_recency":        (0.0, 10.0),
    "recall.w_importance":     (0.0, 10.0),
    "recall.w_pinned":         (0.0, 10.0),
    "recall.half_life_days":   (0.01, 36_500),  # recency divides by it
    "recall.high":             (0.0, 10.0),
    "recall.floor":            (0.0, 10.0),
    "recall.min_lift":         (-1.0, 10.0),
    "recall.margin":           (0.0, 10.0),
    "recall.middle_k":         (0, 1000),
    "recall.min_similarity":   (-1.0, 1.0),
    "recall.min_coverage":     (0.0, 1.0),
    "recall.knn_k":            (1, 4096),  # sqlite-vec's KNN limit
    "recall.keyword_k":        (1, 10_000),
    "forget.capacity":         (1, 100_000_000),
    "forget.decay_days":       (1.0, 36_500),
    "forget.decay_importance": (0.0, 1.0),
    "forget.event_ttl_days":   (0.0, 36_500),
}
"""Allowed values of every numeric setting: a value outside (or NaN) is an error naming the setting,
never a hang (n_ctx 0 looped in prompt assembly) or gigabytes of KV cache (n_ctx 10⁹)."""


def _numeric_settings(settings: Settings) -> dict[str, float]:
    found: dict[str, float] = {}
    for section in fields(settings):
        value = getattr(settings, section.name)
        if is_dataclass(value):
            for f in fields(value):
                number = getattr(value, f.name)
                if isinstance(number, (int, float)) and not isinstance(number, bool):
                    found[f"{section.name}.{f.name}"] = number
    return found


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def check_ranges(settings: Settings) -> None:
    """Raise a MemchatError naming the first numeric setting outside its allowed range."""
    for name, value in _numeric_settings(settings).items():
        low, high = RANGES.get(name, (float("-inf"), float("inf")))
        if not low <= value <= high:  # also catches NaN
            env = "MEMCHAT_" + name.replace(".", "_").upper()
            flag = {"model.n_ctx": " or --n-ctx", "model.n_threads": " or --threads"}.get(name, "")
            raise MemchatError(f"setting {name} = {value} is out of range: allowed {_plain(low)} to {_plain(high)}",
                               f"fix it in config.toml, {env}{flag}")
    for name, allowed in ENGINE_CHOICES.items():
        value = getattr(settings.engine, name.split(".")[1])
        if value not in allowed:
            raise MemchatError(f"setting {name} = {value!r} is not one of {', '.join(allowed)}",
                               f"fix it in config.toml or MEMCHAT_{name.replace('.', '_').upper()}")
    if 0 < settings.engine.n_ctx < 512:
        raise MemchatError(f"setting engine.n_ctx = {settings.engine.n_ctx} is out of range: 0 (the server's) "
                           "or 512 and up", "fix it in config.toml or MEMCHAT_ENGINE_N_CTX")
    if settings.model.second_embed not in ("", *SECOND_EMBEDDERS):
        raise MemchatError(f"setting model.second_embed = {settings.model.second_embed!r} is not one of "
                           f"{', '.join(SECOND_EMBEDDERS)} or \"\"", "fix it in config.toml or MEMCHAT_MODEL_SECOND_EMBED")
    if settings.recall.floor > settings.recall.high:
        raise MemchatError(f"setting recall.floor ({settings.recall.floor}) is above recall.high "
                           f"({settings.recall.high})", "the floor must not exceed high")


def resolve_share(share: float, n_ctx: int) -> int:
    """A budget share as tokens: ≤ 1 is a fraction of n_ctx, otherwise a count."""
    return int(share * n_ctx) if share <= 1 else int(share)
