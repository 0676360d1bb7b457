"""`memchat import`: a JSONL transcript through the same write path as live chat.

The whole file is validated first; a malformed line is an error naming its
line number and nothing is imported. Then messages are stored in order with
their own timestamps, user messages update notes and long-term memory exactly
as a live turn would, and everything is committed in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memchat.memory.rules import notes_from
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
    with services.db.transaction():
        for line in lines:
            session = sessions.open(line.session, now=line.ts)
            message = sessions.add_message(
                session.id, line.role, line.content, tokens=services.engine.count(line.content), now=line.ts
            )
            report.messages += 1
            report.sessions.add(line.session)
            if line.role != "user":
                continue
            for note in notes_from(line.content):
                sessions.add_note(session.id, note, now=line.ts)
            outcomes, failures = services.writer.process(
                line.content, session_id=session.id, message_id=message.id, now=line.ts,
                previous=sessions.previous_content(message),
            )
            report.outcomes.extend(outcomes)
            report.failures += len(failures)
            for failure in failures:
                sessions.add_extraction_failure(session.id, message.id, failure.raw_output, failure.error, line.ts)
    return report
