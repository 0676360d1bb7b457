"""`memchat import`: a JSONL transcript through the same write path as live chat.

The whole file is validated first; a malformed line is an error naming its
line number and nothing is imported. Then messages are stored in order with
their own timestamps, and user messages update notes and long-term memory
exactly as a live turn would. Each message is committed as it is stored and
queued for extraction (see `pipeline.extraction`), so an import killed half-way
keeps what it stored; running it again skips the messages already there
(same session, role, time and text) and extracts what was left pending. No
transaction is held across a model call: a chat can use the database meanwhile.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memchat.memory.rules import notes_from
from memchat.pipeline import extraction
from memchat.pipeline.services import Services
from memchat.types import MemchatError, WriteOutcome


@dataclass(frozen=True)
class TranscriptLine:
    number: int
    session: str
    role: str
    content: str
    ts: float


@dataclass
class ImportReport:
    messages: int = 0
    skipped: int = 0
    """Lines already imported by an earlier run (resumed or repeated)."""
    sessions: set[str] = field(default_factory=set)
    outcomes: list[WriteOutcome] = field(default_factory=list)
    failures: int = 0

    def counts(self) -> dict[str, int]:
        tally: dict[str, int] = {}
        for outcome in self.outcomes:
            tally[outcome.action] = tally.get(outcome.action, 0) + 1
        return tally


def _bad(number: int, problem: str) -> MemchatError:
    return MemchatError(f"line {number}: {problem}", "fix that line; nothing was imported")


def parse_transcript(path: Path) -> list[TranscriptLine]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MemchatError(f"cannot read {path}: {exc}", "pass a UTF-8 JSONL file") from exc
    lines: list[TranscriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise _bad(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
        if not isinstance(item, dict):
            raise _bad(number, "expected a JSON object")
        for key in ("session", "role", "content", "ts"):
            if not isinstance(item.get(key), str):
                raise _bad(number, f"'{key}' must be a string")
        if item["role"] not in ("user", "assistant"):
            raise _bad(number, f"role must be 'user' or 'assistant', not {item['role']!r}")
        try:
            ts = datetime.fromisoformat(item["ts"]).timestamp()
        except ValueError as exc:
            raise _bad(number, f"'ts' is not an ISO date-time: {item['ts']!r}") from exc
        lines.append(TranscriptLine(number, item["session"], item["role"], item["content"], ts))
    if not lines:
        raise MemchatError(f"{path} has no messages", "one JSON object per line")
    return lines


def import_transcript(services: Services, path: Path) -> ImportReport:
    lines = parse_transcript(path)
    report = ImportReport()
    sessions = services.sessions
    extraction.drain(services)  # what an earlier, interrupted import (or chat) left pending
    for line in lines:
        session = sessions.open(line.session, now=line.ts)
        report.sessions.add(line.session)
        if sessions.find_message(session.id, line.role, line.content, line.ts) is not None:
            report.skipped += 1
            continue
        tokens = services.engine.count(line.content)
        with services.db.transaction():
            message = sessions.add_message(session.id, line.role, line.content, tokens=tokens, now=line.ts)
            if line.role == "user":
                for note in notes_from(line.content):
                    sessions.add_note(session.id, note, now=line.ts)
        report.messages += 1
        if line.role == "user":
            outcomes, failures = extraction.extract(services, message, line.content)
            report.outcomes.extend(outcomes)
            report.failures += len(failures)
    return report
