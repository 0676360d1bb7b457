"""Plain data shared by every layer.

Nothing here does I/O or imports anything outside the standard library, so the
engine, the memory store, the prompt assembler, the pipeline and the UI can all
speak the same language without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

Role = Literal["system", "user", "assistant"]
MemoryKind = Literal["preference", "fact", "event", "relation", "episode"]
MemoryStatus = Literal["active", "superseded", "archived", "deleted", "pending"]

MEMORY_KINDS: tuple[str, ...] = ("preference", "fact", "event", "relation")
"""The typed kinds a person or the model can give a memory."""
EPISODE = "episode"
"""What the user said, kept as said (one sentence window of a message): stored and recalled beside
typed memories, never labelled by the model."""
STORED_KINDS: tuple[str, ...] = (*MEMORY_KINDS, EPISODE)
MEMORY_STATUSES: tuple[str, ...] = ("active", "superseded", "archived", "deleted", "pending")


class MemchatError(Exception):
    """An error a user can act on: one line saying what is wrong, one saying what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


@dataclass(frozen=True)
class ChatMessage:
    """One message as the model sees it."""

    role: Role
    content: str


@dataclass
class Message:
    """One stored message of a session."""

    id: int
    session_id: int
    role: Role
    content: str
    created_at: float
    tokens: int = 0
    cancelled: bool = False
    in_window: bool = True


@dataclass
class Session:
    id: int
    name: str
    created_at: float
    updated_at: float
    summary: str = ""
    message_count: int = 0


@dataclass
class Note:
    """A cross-turn note: a standing instruction, correction or preference caught by rules."""

    id: int
    session_id: int
    text: str
    created_at: float


@dataclass
class Memory:
    """A distilled long-term memory item (DESIGN.md §1.3)."""

    id: int
    kind: str
    content: str
    subject: str
    attribute: str
    importance: float
    confidence: float
    created_at: float
    updated_at: float
    last_access_at: float
    access_count: int = 0
    source_session: int | None = None
    source_message: int | None = None
    status: str = "active"
    pinned: bool = False
    expires_at: float | None = None
    superseded_by: int | None = None
    event_at: float | None = None
    """The absolute day (or month, year: see `event_grain`) a time expression in it resolved to."""
    event_text: str = ""
    """That expression as the user said it ("last Friday", "下个月")."""
    event_grain: str = ""
    origin_id: int | None = None
    """For a typed memory: the episode it was distilled from (retired with it)."""

    @property
    def key(self) -> str:
        return f"{self.subject}.{self.attribute}"

    @property
    def is_episode(self) -> bool:
        return self.kind == EPISODE

    @property
    def event_label(self) -> str:
        return format_day(self.event_at, self.event_grain) if self.event_at is not None else ""


@dataclass(frozen=True)
class Signals:
    """The per-signal inputs of a recall score, each in [0, 1]."""

    similarity: float = 0.0
    keyword: float = 0.0
    recency: float = 0.0
    importance: float = 0.0
    pinned: float = 0.0
    date: float = 0.0
    """1 when the memory's date falls in a month the query names ("what did I do in June?"); 0.5 when
    the query asks "when…" and the memory carries a date."""
    slot: float = 0.0
    """1 when an open question asks for the slot the memory fills ("where do I live?" → home), 0.5 when a
    closed one touches it ("do I play the guitar?" → hobby); only 1 counts in relevance."""

    def as_dict(self) -> dict[str, float]:
        return {
            "similarity": round(self.similarity, 4),
            "keyword": round(self.keyword, 4),
            "date": round(self.date, 4),
            "slot": round(self.slot, 4),
            "recency": round(self.recency, 4),
            "importance": round(self.importance, 4),
            "pinned": round(self.pinned, 4),
        }


@dataclass
class Candidate:
    """A memory considered for this turn, with why it was or was not selected."""

    memory: Memory
    signals: Signals
    score: float
    routes: tuple[str, ...] = ()
    selected: bool = False
    reason: str = ""
    relevance: float = 0.0
    """What decides selection (similarity, keyword, date); `score` adds what only orders."""
    group: int = 0
    """Which part of a compound question it answers best (0: the whole question)."""
    mismatch: str = ""
    """Why the memory cannot answer whatever its relevance: a near miss ("near miss: about dog, not cat") or a
    question about something never mentioned ("never mentioned: cat")."""


@dataclass
class BlockUsage:
    """One block of the assembled prompt in the budget ledger."""

    name: str
    tokens: int
    limit: int
    cut: str = ""


@dataclass
class BudgetReport:
    """How the context window of one prompt is spent."""

    n_ctx: int
    reserved_output: int
    blocks: list[BlockUsage] = field(default_factory=list)
    prompt_tokens: int = 0
    exact: bool = True

    @property
    def available(self) -> int:
        return self.n_ctx - self.reserved_output

    def block(self, name: str) -> BlockUsage | None:
        return next((b for b in self.blocks if b.name == name), None)


@dataclass
class WriteOutcome:
    """What the write path did with one candidate memory."""

    action: Literal["added", "merged", "superseded", "pending", "deleted", "skipped"]
    content: str
    reason: str = ""
    memory_id: int | None = None
    replaced_id: int | None = None


PURGE_OFFER = "forgotten, but still on disk (and in the messages that said it): this command removes every copy"
"""The reason of the outcome a forget request adds: its content is the purge command to run."""
FORGET_UNMATCHED = "forget request matched no memory"
"""The reason of the outcome a forget request that found nothing to forget adds (its content: the topic)."""
FORGET_NOT_KEPT = "forget request: what this message itself said of it was not kept"
"""The reason of the outcome a forget request adds when its own message told what it asks to forget (content: the
topic): that was never stored, so the request did not go unheard."""
FORGET_OFFER = "the forget request matched nothing by its words; this memory is close to it"
"""The reason of the outcomes a forget request that matched nothing adds: each is a memory the user may pick."""


@dataclass
class ExtractionFailure:
    raw_output: str
    error: str


@dataclass
class Timings:
    recall_ms: float = 0.0
    assemble_ms: float = 0.0
    first_token_ms: float = 0.0
    generation_ms: float = 0.0
    extraction_ms: float = 0.0
    prompt_reused: int = 0
    """Prompt tokens found in llama.cpp's KV cache (not evaluated again)."""
    prompt_evaluated: int = 0
    """Prompt tokens evaluated for this reply."""
    generated_tokens: int = 0
    """Tokens the model generated for the reply, every attempt and what a cut loop dropped included: with
    generation_ms, the decoding speed (the reply itself may keep fewer)."""


# ---- Turn events: what the pipeline tells whoever drives it (UI, CLI) ----


@dataclass
class TurnStarted:
    turn: int
    user_text: str


@dataclass
class RecallDone:
    candidates: list[Candidate]


@dataclass
class PromptAssembled:
    messages: list[ChatMessage]
    budget: BudgetReport


@dataclass
class TokenStreamed:
    text: str


@dataclass
class ReplyRestarted:
    """The reply streamed so far is discarded (it repeated an earlier reply or echoed a memory) and a
    new attempt streams from here: whoever shows the streamed text clears it."""

    attempt: int
    reason: str


@dataclass
class TurnFinished:
    turn: int
    reply: str
    cancelled: bool
    tokens_in: int
    tokens_out: int
    timings: Timings


@dataclass
class MemoryWritten:
    turn: int
    outcomes: list[WriteOutcome]
    failures: list[ExtractionFailure]


TurnEvent = (
    TurnStarted | RecallDone | PromptAssembled | TokenStreamed | ReplyRestarted | TurnFinished | MemoryWritten
)


@dataclass
class MemoryDraft:
    """A memory about to be written: what the write path decides before the store assigns an id."""

    kind: str
    content: str
    subject: str = "user"
    attribute: str = ""
    importance: float = 0.5
    confidence: float = 0.8
    source_session: int | None = None
    source_message: int | None = None
    expires_at: float | None = None
    pinned: bool = False
    correction: bool = False
    """The user explicitly corrected an earlier statement: it always wins a conflict."""
    event_at: float | None = None
    event_text: str = ""
    event_grain: str = ""
    origin_id: int | None = None
    change: bool = False
    """Switch language ("switched to", "instead", "换成"): replaces a value of a many-valued slot."""
    retirement: bool = False
    """Retirement language ("sold", "quit", "no longer", "不再"): the value it names is over."""


def format_day(ts: float, grain: str = "day") -> str:
    """A date as a prompt or the inspector shows it: 2026-03-13, 2026-03 or 2026 by its grain."""
    moment = datetime.fromtimestamp(ts)
    return moment.strftime({"year": "%Y", "month": "%Y-%m"}.get(grain, "%Y-%m-%d"))


ASKED_OF_THE_PAST = "what was, asked of the past"
"""Recall's reason for a superseded memory selected for a question about the past ("What does my ex do?")."""


def memory_line(memory: Memory) -> str:
    """How a memory is quoted in a prompt: labelled by kind (an episode by when it was said), with the
    date it talks about, fenced as data."""
    when = f" (about {memory.event_label})" if memory.event_at is not None else ""
    if memory.is_episode:
        return f'- [{format_day(memory.created_at)}, the user said{when}] "{memory.content}"'
    earlier = ", no longer current" if memory.status == "superseded" else ""  # recalled for a question about the past
    return f'- [{memory.kind}{earlier}{when}] "{memory.content}"'
