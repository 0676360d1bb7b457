"""A turn's full debug snapshot: recorded per turn in the database, exported as JSON or Markdown.

Everything needed to understand a reply after the fact: the exact messages
sent, the budget ledger, every recall candidate with its signals and reason,
the summary and notes as they were, what was written to memory, the model and
its file hash, sampler settings and seed, token counts and timings.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from typing import Any

from memchat.memory.secrets import conversation_before, redact, redact_all, redact_messages
from memchat.memory.store import Database
from memchat.types import (
    BudgetReport,
    Candidate,
    ChatMessage,
    ExtractionFailure,
    MemchatError,
    Timings,
    WriteOutcome,
    format_day,
)

FORMAT_VERSION = 1


def candidate_dict(candidate: Candidate) -> dict[str, Any]:
    memory = candidate.memory
    return {
        "id": memory.id,
        "content": memory.content,
        "kind": memory.kind,
        "status": memory.status,
        "said_on": format_day(memory.created_at) if memory.created_at else None,
        "about_date": memory.event_label or None,
        "relevance": round(candidate.relevance, 4),
        "score": round(candidate.score, 4),
        "selected": candidate.selected,
        "reason": candidate.reason,
        "routes": list(candidate.routes),
        "signals": candidate.signals.as_dict(),
    }


def budget_dict(report: BudgetReport) -> dict[str, Any]:
    return {
        "n_ctx": report.n_ctx,
        "reserved_output": report.reserved_output,
        "prompt_tokens": report.prompt_tokens,
        "exact": report.exact,
        "blocks": [asdict(b) for b in report.blocks],
    }


def build_snapshot(
    *,
    session: str,
    turn: int,
    messages: list[ChatMessage],
    budget: BudgetReport,
    candidates: list[Candidate],
    summary: str,
    notes: list[str],
    model: dict[str, Any],
    sampling: dict[str, Any],
    reply: str,
    cancelled: bool,
    tokens_in: int,
    tokens_out: int,
    timings: Timings,
) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "session": session,
        "turn": turn,
        "created_at": time.time(),
        "model": model,
        "sampling": sampling,
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "budget": budget_dict(budget),
        "candidates": [candidate_dict(c) for c in candidates],
        "summary": summary,
        "notes": notes,
        "reply": reply,
        "cancelled": cancelled,
        "tokens": {"in": tokens_in, "out": tokens_out},
        "timings_ms": {k: round(v, 2) for k, v in asdict(timings).items()},
        "memory_writes": [],
        "extraction_failures": [],
    }


def add_writes(snapshot: dict[str, Any], outcomes: list[WriteOutcome], failures: list[ExtractionFailure],
               extraction_ms: float) -> dict[str, Any]:
    snapshot["memory_writes"] = [asdict(o) for o in outcomes]
    snapshot["extraction_failures"] = [asdict(f) for f in failures]
    snapshot["timings_ms"]["extraction_ms"] = round(extraction_ms, 2)
    return snapshot


_SETUP = ("model", "sampling", "format", "created_at", "turn")
"""Fields memchat itself fills (model names and hashes, sampler numbers): no one typed them, and a
model name or sha256 is not a secret however random it looks."""


def said_redacted(data: dict[str, Any]) -> dict[str, Any]:
    """Every string of a snapshot redacted but the fields memchat filled itself (`_SETUP`): what an export runs
    again over a stored snapshot (one recorded before redaction existed)."""
    clean = dict(redact_all({k: v for k, v in data.items() if k not in _SETUP}))  # type: ignore[call-overload]
    clean.update({k: data[k] for k in _SETUP if k in data})
    return clean


def _redacted(snapshot: dict[str, Any]) -> dict[str, Any]:
    """Secrets out, before the snapshot is written: messages in order (a bare "It's 4471." after a
    question about a PIN is the PIN), then every other string."""
    messages = snapshot.get("messages", [])
    said = {k: v for k, v in snapshot.items() if k not in ("messages", *_SETUP)}
    clean = dict(redact_all(said))  # type: ignore[call-overload]
    clean.update({k: snapshot[k] for k in _SETUP if k in snapshot})
    clean["messages"] = redact_messages(messages)
    if messages:
        clean["reply"] = redact(str(snapshot.get("reply", "")), conversation_before(messages, len(messages)))
    return clean


def save(db: Database, session_id: int, turn: int, snapshot: dict[str, Any]) -> None:
    db.execute(
        "INSERT INTO turns (session_id, turn, created_at, snapshot) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(session_id, turn) DO UPDATE SET snapshot = excluded.snapshot",
        (session_id, turn, snapshot["created_at"], json.dumps(_redacted(snapshot), ensure_ascii=False)),
    )


def load(db: Database, session_id: int, turn: int | None = None) -> dict[str, Any]:
    if turn is None:
        row = db.row("SELECT snapshot FROM turns WHERE session_id = ? ORDER BY turn DESC LIMIT 1", (session_id,))
    else:
        row = db.row("SELECT snapshot FROM turns WHERE session_id = ? AND turn = ?", (session_id, turn))
    if not row:
        raise MemchatError(
            f"no recorded turn {turn if turn is not None else '(latest)'} in this session",
            "chat first, or pick another --turn / --session",
        )
    return json.loads(row["snapshot"])
