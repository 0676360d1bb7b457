"""`memchat export session NAME`: a session's transcript, as Markdown to read or as JSONL to import.

The JSONL is the transcript format `memchat import` reads (`{"session", "role", "content", "ts"}`,
times in ISO 8601 with their UTC offset, to the microsecond), so a session exported and imported
again — here or into another database — is the same messages at the same times; importing it
where it already is stores nothing twice. Messages are stored redacted and redacted again here;
control characters are escaped (JSON) or shown as pictures (Markdown).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from memchat.memory.secrets import redact
from memchat.memory.sessions import SessionStore
from memchat.terminal_text import printable, printable_json
from memchat.types import MemchatError, Message, Session

FORMATS = ("md", "jsonl")


def find(sessions: SessionStore, name: str) -> tuple[Session, list[Message]]:
    session = sessions.by_name(name)
    if session is None:
        raise MemchatError(f"no session called {printable(name, one_line=True)!r}",
                           "see `memchat sessions` for the names")
    return session, [m for m in sessions.messages(session.id) if m.role in ("user", "assistant")]


def to_jsonl(session: Session, messages: list[Message]) -> str:
    lines = [{"session": session.name, "role": m.role, "content": redact(m.content),
              "ts": datetime.fromtimestamp(m.created_at, UTC).isoformat(timespec="microseconds")}
             for m in messages]
    return "".join(printable_json(json.dumps(line, ensure_ascii=False)) + "\n" for line in lines)


def _when(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).astimezone().strftime("%Y-%m-%d %H:%M")


def to_markdown(session: Session, messages: list[Message]) -> str:
    title = printable(session.name, one_line=True)
    span = f"{_when(messages[0].created_at)} – {_when(messages[-1].created_at)}" if messages else "no messages"
    out = [f"# {title}", "", f"{len(messages)} messages, {span}", ""]
    for message in messages:
        who = "You" if message.role == "user" else "Assistant"
        stopped = " (stopped)" if message.cancelled else ""
        out += [f"### {who} · {_when(message.created_at)}{stopped}", "", printable(redact(message.content)).rstrip(), ""]
    if session.summary:
        out += ["---", "", "**Rolling summary:** " + printable(redact(session.summary)), ""]
    return "\n".join(out)


def render(session: Session, messages: list[Message], fmt: str) -> str:
    return to_jsonl(session, messages) if fmt == "jsonl" else to_markdown(session, messages)
