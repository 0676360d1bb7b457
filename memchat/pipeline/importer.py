"""`memchat import FILE`: what it reads, told by its content, through the same write path as live chat.

- A JSONL transcript: the whole file is validated first; a malformed line is an error naming
  its line number and nothing is imported. Then messages are stored in order with their own
  timestamps, and user messages update notes and long-term memory exactly as a live turn would.
  Each message is committed as it is stored and queued for extraction (see
  `pipeline.extraction`), so an import killed half-way keeps what it stored; running it again
  skips the messages already there (same session, role, time and text) and extracts what was
  left pending.
- ChatGPT's and Claude's exports (`pipeline.import_formats`): every conversation is read
  before anything is stored (a broken one is an error naming it, unless `skip_bad`), then each
  becomes a session in one transaction (`pipeline.conversation_import`).
- memchat's memories export: restored into an empty database (`pipeline.memory_restore`).
No transaction is held across a model call: a chat can use the database meanwhile.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memchat.memory.forget_offer import closest
from memchat.memory.rules import notes_from
from memchat.pipeline import chatgpt_export, claude_export, extraction, import_formats, memory_restore
from memchat.pipeline.conversation_import import import_conversations
from memchat.pipeline.import_formats import BadConversation, ImportedConversation
from memchat.pipeline.import_report import ImportProgress, ImportReport, ProgressCallback, no_progress
from memchat.pipeline.services import Services
from memchat.session_names import session_name_problem
from memchat.types import MemchatError

__all__ = ["ImportProgress", "ImportReport", "import_file", "import_transcript", "parse_lines", "parse_transcript"]


@dataclass(frozen=True)
class TranscriptLine:
    number: int
    session: str
    role: str
    content: str
    ts: float


def _bad(number: int, problem: str) -> MemchatError:
    return MemchatError(f"line {number}: {problem}", "fix that line; nothing was imported")


def parse_transcript(path: Path) -> list[TranscriptLine]:
    """Every line of the JSONL file at `path`, validated; a MemchatError for anything else."""
    data, source = import_formats.read_source(path)
    return parse_lines(data, source)


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


READERS: dict[str, Callable[[Any, int], ImportedConversation]] = {
    import_formats.CHATGPT: chatgpt_export.read_conversation,
    import_formats.CLAUDE: claude_export.read_conversation,
}


def import_file(services: Services, path: Path, *, skip_bad: bool = False,
                on_progress: ProgressCallback = no_progress) -> ImportReport:
    """Import whatever `path` holds (see the module docstring)."""
    data, source = import_formats.read_source(path)
    loaded = import_formats.load(data, source)
    report = ImportReport(kind=loaded.kind)
    if loaded.kind == import_formats.TRANSCRIPT:
        return _with_forget_offers(services, import_lines(services, parse_lines(data, source), report, on_progress))
    if loaded.kind == import_formats.MEMORIES:
        report.restored = memory_restore.restore(services, memory_restore.parse(data, source), on_progress)
        return report
    read = READERS[loaded.kind]
    conversations: list[ImportedConversation] = []
    for index, item in enumerate(loaded.payload):
        try:
            conversations.append(read(item, index))
        except BadConversation as error:
            if not skip_bad:
                raise BadConversation(f"{source}: {error.message}",
                                      f"{error.hint}; nothing was imported (--skip-bad imports the others)") from error
            report.bad.append(error.message)
    return _with_forget_offers(services, import_conversations(services, conversations, report, on_progress))


def _with_forget_offers(services: Services, report: ImportReport) -> ImportReport:
    """A forget request in the imported chats that matched nothing forgot nothing: the report says so, with the
    memories closest to what it named (an import cannot ask; the user can forget one by its id)."""
    for topic in report.unmatched_forgets:
        report.forget_offers[topic] = closest(services.recaller, topic)
    return report


def import_transcript(services: Services, path: Path) -> ImportReport:
    return import_lines(services, parse_transcript(path), ImportReport())


def import_lines(services: Services, lines: list[TranscriptLine], report: ImportReport,
                 on_progress: ProgressCallback = no_progress) -> ImportReport:
    sessions = services.sessions
    extraction.drain(services)  # what an earlier, interrupted import (or chat) left pending
    for done, line in enumerate(lines, start=1):
        on_progress(ImportProgress(done - 1, len(lines), line.session))
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
            report.heard(line.content, outcomes)
            report.failures += len(failures)
    on_progress(ImportProgress(len(lines), len(lines)))
    return report
