"""What an import did, and how far it has got (for a progress bar drawn by the caller)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memchat.memory.rules import forget_request
from memchat.types import FORGET_UNMATCHED, Memory, WriteOutcome


@dataclass(frozen=True)
class ImportProgress:
    done: int
    """Messages stored and extracted so far in this run."""
    total: int
    """Messages this run will import (conversations already imported not counted)."""
    current: str = ""
    """The conversation (session) being imported."""


ProgressCallback = Callable[[ImportProgress], None]


def no_progress(_: ImportProgress) -> None:
    return None


@dataclass
class ImportReport:
    kind: str = "transcript"
    """The format read: transcript, chatgpt, claude or memories."""
    messages: int = 0
    skipped: int = 0
    """Transcript lines already imported by an earlier run (resumed or repeated)."""
    sessions: set[str] = field(default_factory=set)
    outcomes: list[WriteOutcome] = field(default_factory=list)
    failures: int = 0
    """Extraction failures (recorded and shown in the inspector, never silently dropped)."""
    conversations: int = 0
    """Conversations imported by this run."""
    already: int = 0
    """Conversations skipped because an earlier run imported them."""
    empty: int = 0
    """Conversations with no visible message (recorded, no session made)."""
    bad: list[str] = field(default_factory=list)
    """Conversations that could not be read, left out with --skip-bad (each named, with why)."""
    left_out: Counter[str] = field(default_factory=Counter)
    """Nodes, messages and parts not imported, by reason (system and tool nodes, images…)."""
    resumed: int = 0
    """Messages an interrupted earlier run stored but had not extracted, extracted now."""
    restored: int = 0
    """Memories restored from a memories export."""
    unmatched_forgets: list[str] = field(default_factory=list)
    """Topics of forget requests in the imported chats that matched nothing, so forgot nothing."""
    forget_offers: dict[str, list[Memory]] = field(default_factory=dict)
    """For each of those topics, the memories closest to it once the import is done, for the user to look at."""

    def heard(self, text: str, outcomes: list[WriteOutcome]) -> None:
        """Note a forget request of the user's that matched nothing (`text`: what they said)."""
        if any(o.reason == FORGET_UNMATCHED for o in outcomes) and not any(o.action == "deleted" for o in outcomes):
            request = forget_request(text)
            if request is not None and request.topic and request.topic not in self.unmatched_forgets:
                self.unmatched_forgets.append(request.topic)

    def counts(self) -> dict[str, int]:
        tally: dict[str, int] = {}
        for outcome in self.outcomes:
            tally[outcome.action] = tally.get(outcome.action, 0) + 1
        return tally

    def summary(self) -> dict[str, Any]:
        """The report as plain data (`--json`)."""
        return {
            "format": self.kind,
            "sessions": len(self.sessions),
            "messages": self.messages,
            "memory": self.counts(),
            "extraction_failures": self.failures,
            "conversations": self.conversations,
            "already_imported": self.already,
            "empty_conversations": self.empty,
            "unreadable_conversations": self.bad,
            "left_out": dict(sorted(self.left_out.items())),
            "resumed_extractions": self.resumed,
            "skipped_lines": self.skipped,
            "memories_restored": self.restored,
            "unmatched_forget_requests": [
                {"topic": topic, "closest": [{"id": m.id, "content": m.content} for m in self.forget_offers.get(topic, [])]}
                for topic in self.unmatched_forgets
            ],
        }
