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
from memchat.session_names import session_name_problem
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
    """Every line of the JSONL file at `path`, validated; a MemchatError for anything else."""
    if not path.is_file():  # a FIFO or a device would block the read; a folder cannot be read
        problem = "no such file" if not path.exists() else "not a regular file"
        raise MemchatError(f"cannot import {path}: {problem}", "pass a JSONL file (one JSON object per line)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise MemchatError(f"cannot read {path}: {exc.strerror}", "check the path and its permissions") from exc
    return parse_lines(data, str(path))


def parse_lines(data: bytes, source: str = "the transcript") -> list[TranscriptLine]:
    """JSONL bytes as transcript lines. UTF-8 with or without a BOM; lines end at "\n" only, so a
    raw U+2028 inside a JSON string (valid JSON) stays in its message."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        number = data[: exc.start].count(b"\n") + 1
        raise _bad(number, f"not UTF-8 (byte 0x{data[exc.start]:02x})") from exc
    lines: list[TranscriptLine] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.strip():
            lines.append(_parse_line(number, raw))
    if not lines:
        raise MemchatError(f"{source} has no messages", "one JSON object per line")
    return lines


def _parse_line(number: int, raw: str) -> TranscriptLine:
    try:
        item = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise _bad(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
    except RecursionError as exc:
        raise _bad(number, "JSON nested too deeply") from exc
    if not isinstance(item, dict):
        raise _bad(number, "expected a JSON object")
    for key in ("session", "role", "content", "ts"):
        value = item.get(key)
        if not isinstance(value, str):
            raise _bad(number, f"'{key}' must be a string")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise _bad(number, f"'{key}' holds a lone surrogate (\\u{ord(value[exc.start]):04x}), not text") from exc
    if item["role"] not in ("user", "assistant"):
        raise _bad(number, f"role must be 'user' or 'assistant', not {item['role']!r}")
    problem = session_name_problem(item["session"])
    if problem:
        raise _bad(number, f"bad session name: {problem}")
    try:
        ts = datetime.fromisoformat(item["ts"]).timestamp()
    except (ValueError, OverflowError, OSError) as exc:
        raise _bad(number, f"'ts' is not an ISO date-time: {item['ts']!r}") from exc
    return TranscriptLine(number, item["session"], item["role"], item["content"], ts)


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
