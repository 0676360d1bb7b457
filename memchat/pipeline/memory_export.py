"""`memchat export memories`: typed memories as JSONL (for tools, and to restore) or Markdown (to read).

JSONL: a header line `{"memchat": "memories", "version": 1, "scope": ...}`, then one memory per
line with every field a memory has — kind, content, subject/attribute key, importance,
confidence, status, pin, dates (ISO 8601, UTC, to the microsecond), expiry, the date it talks
about, its supersession link and episode (by id), and its source (session name, message id).
The file depends only on the memories: the same state exports to the same bytes, which is what
the round-trip test compares. Text is redacted (no secret leaves) and control characters are
escaped (JSON) or shown as pictures (Markdown), so printing the file never drives a terminal.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from memchat.memory.portable import PortableMemory
from memchat.memory.secrets import redact, redact_all
from memchat.terminal_text import printable, printable_json
from memchat.types import EPISODE, MEMORY_KINDS

FORMATS = ("jsonl", "md")
HEADER = {"memchat": "memories", "version": 1}


def iso(stamp: float | None) -> str | None:
    """A Unix time as ISO 8601 in UTC to the microsecond; parsing it back gives the same text again."""
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="microseconds")


def record(item: PortableMemory) -> dict[str, Any]:
    m = item.memory
    source = {"session": item.session, "message": item.message} if item.session or item.message else None
    return redact_all({  # type: ignore[return-value]
        "id": m.id, "kind": m.kind, "content": m.content, "subject": m.subject, "attribute": m.attribute,
        "importance": m.importance, "confidence": m.confidence, "status": m.status, "pinned": m.pinned,
        "created_at": iso(m.created_at), "updated_at": iso(m.updated_at), "last_access_at": iso(m.last_access_at),
        "access_count": m.access_count, "expires_at": iso(m.expires_at),
        "event_at": iso(m.event_at), "event_text": m.event_text, "event_grain": m.event_grain,
        "superseded_by": m.superseded_by, "origin_id": m.origin_id, "source": source,
    })


SCOPES = {
    "current": "active and pending memories (`--all` adds superseded, archived and forgotten ones, and episodes)",
    "all": "every memory, of every status, and episodes",
    "selection": "the memories listed in the memory browser",
}
"""What an export holds: without --all, with it, or a list picked in the TUI."""


def to_jsonl(items: Sequence[PortableMemory], *, scope: str) -> str:
    lines = [{**HEADER, "scope": scope}] + [record(i) for i in items]
    return "".join(printable_json(json.dumps(line, ensure_ascii=False)) + "\n" for line in lines)


def _day(stamp: float | None) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC") if stamp is not None else ""


def _describe(item: PortableMemory) -> str:
    m = item.memory
    facts = [m.kind, m.status] + (["pinned"] if m.pinned else [])
    if m.attribute:
        facts.append(f"key {m.subject}.{m.attribute}")
    facts += [f"importance {m.importance:.2f}", f"confidence {m.confidence:.2f}", f"said {_day(m.created_at)}"]
    if m.event_at is not None:
        facts.append(f"about {m.event_label}" + (f" (“{m.event_text}”)" if m.event_text else ""))
    if m.expires_at is not None:
        facts.append(f"expires {_day(m.expires_at)}")
    if item.session or item.message:
        facts.append(f"from session “{item.session or '?'}”" + (f", message #{item.message}" if item.message else ""))
    if m.superseded_by:
        facts.append(f"superseded by #{m.superseded_by}")
    if m.origin_id:
        facts.append(f"episode #{m.origin_id}")
    content = " ".join(redact(m.content).split())
    return f"- **#{m.id}** {printable(content, one_line=True)}  \n  " + printable(" · ".join(facts), one_line=True)


SECTIONS = {"preference": "Preferences", "fact": "Facts", "event": "Events", "relation": "Relations",
            EPISODE: "Episodes (what you said, as said)"}


def to_markdown(items: Sequence[PortableMemory], *, scope: str, exported_at: float) -> str:
    out = ["# memchat memories", "", f"Exported {_day(exported_at)}: {len(items)} — {SCOPES[scope]}.", ""]
    for kind in (*MEMORY_KINDS, EPISODE):
        group = [i for i in items if i.memory.kind == kind]
        if group:
            out += [f"## {SECTIONS[kind]} ({len(group)})", ""] + [_describe(i) for i in group] + [""]
    if not items:
        out += ["(no memories)", ""]
    return "\n".join(out)


def render(items: Sequence[PortableMemory], fmt: str, *, scope: str, exported_at: float) -> str:
    if fmt == "jsonl":
        return to_jsonl(items, scope=scope)
    return to_markdown(items, scope=scope, exported_at=exported_at)
