"""Sessions, their messages, rolling summary and cross-turn notes, as stored rows.

A message is written the moment it exists: the user's before the model is
called, the assistant's when the reply ends (or is cancelled). So a crash loses
at most the reply being streamed. `in_window` is 0 once a message has been
folded into the session's rolling summary.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from memchat.memory.secrets import redact
from memchat.memory.store import Database, Row
from memchat.memory.terms import query_terms, search_terms
from memchat.types import MemchatError, Message, Note, Session


def _session(row: Row) -> Session:
    return Session(
        id=row["id"],
        name=row["name"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        summary=row["summary"],
        message_count=row.get("message_count") or 0,
    )


def _message(row: Row) -> Message:
    return Message(
        id=row["id"],
        session_id=row["session_id"],
        role=row["role"],
        content=row["content"],
        created_at=row["created_at"],
        tokens=row["tokens"],
        cancelled=bool(row["cancelled"]),
        in_window=bool(row["in_window"]),
    )


class SessionStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- sessions -------------------------------------------------------
    def create(self, name: str | None = None, now: float | None = None) -> Session:
        """A new session; a taken name gets a suffix (`-2`, `-3`…). The check and the insert are one
        write transaction, so two processes starting in the same second get different names."""
        now = time.time() if now is None else now
        name = name or time.strftime("chat-%Y%m%d-%H%M%S", time.localtime(now))
        base, suffix = name, 2
        with self.db.transaction():
            while self.db.scalar("SELECT 1 FROM sessions WHERE name = ?", (name,)):
                name, suffix = f"{base}-{suffix}", suffix + 1
            self.db.execute("INSERT INTO sessions (name, created_at, updated_at) VALUES (?, ?, ?)", (name, now, now))
        return self.by_name(name)  # type: ignore[return-value]

    def by_name(self, name: str) -> Session | None:
        row = self.db.row("SELECT * FROM sessions WHERE name = ?", (name,))
        return _session(row) if row else None

    def get(self, session_id: int) -> Session:
        row = self.db.row("SELECT * FROM sessions WHERE id = ?", (session_id,))
        if not row:
            raise MemchatError(f"no session with id {session_id}", "see `memchat sessions`")
        return _session(row)

    def open(self, name: str, now: float | None = None) -> Session:
        """The session called `name`, created if there is none (found again under the write lock, so
        two processes opening a new name at once share one session)."""
        found = self.by_name(name)
        if found is not None:
            return found
        with self.db.transaction():
            return self.by_name(name) or self.create(name, now)

    def latest(self) -> Session | None:
        """The most recently active session that has messages (an empty one is nothing to resume)."""
        row = self.db.row(
            "SELECT * FROM sessions s WHERE EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.id) "
            "ORDER BY updated_at DESC, id DESC LIMIT 1"
        )
        return _session(row) if row else None

    def discard_if_empty(self, session_id: int) -> bool:
        """Delete a session nobody wrote in (opened and closed, or its only turn failed) and left no draft in."""
        with self.db.transaction():
            if self.db.scalar("SELECT 1 FROM messages WHERE session_id = ? UNION ALL "
                              "SELECT 1 FROM drafts WHERE session_id = ?", (session_id, session_id)):
                return False
            self.db.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
            return True

    def all(self) -> list[Session]:
        rows = self.db.rows(
            "SELECT s.*, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS message_count "
            "FROM sessions s ORDER BY updated_at DESC, id DESC"
        )
        return [_session(r) for r in rows]

    def set_summary(self, session_id: int, summary: str, now: float | None = None) -> None:
        self.db.execute(
            "UPDATE sessions SET summary = ?, summary_updated_at = ? WHERE id = ?",
            (redact(summary), time.time() if now is None else now, session_id),
        )

    # ---- messages -------------------------------------------------------
    def add_message(
        self, session_id: int, role: str, content: str, *, tokens: int = 0, cancelled: bool = False,
        now: float | None = None,
    ) -> Message:
        now = time.time() if now is None else now
        content = self._stored_form(session_id, content)
        with self.db.transaction():
            self.db.execute(
                "INSERT INTO messages (session_id, role, content, created_at, tokens, cancelled, extracted) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session_id, role, content, now, tokens, int(cancelled), int(role != "user")),
            )
            message_id = self.db.last_insert_rowid()
            self.db.execute("UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id))
        return self.message(message_id)

    def _stored_form(self, session_id: int, content: str) -> str:
        """`content` as it would be stored next in the session: secrets replaced (the current turn
        keeps them in memory only), judged with the two messages before it as context."""
        recent = self.db.rows("SELECT content FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT 2", (session_id,))
        return redact(content, "\n".join(r["content"] for r in recent))

    def find_message(self, session_id: int, role: str, content: str, created_at: float) -> Message | None:
        """The stored message with this role, text and time, if there is one (an import run again)."""
        rows = self.db.rows(
            "SELECT * FROM messages WHERE session_id = ? AND role = ? AND created_at = ?", (session_id, role, created_at)
        )
        if not rows:
            return None
        stored = {content, self._stored_form(session_id, content)}
        return next((_message(r) for r in rows if r["content"] in stored), None)

    def previous_content(self, message: Message) -> str:
        """The text of the two messages before `message` in its session (the user's question and the
        reply to it), for context-aware redaction."""
        rows = self.db.rows("SELECT content FROM messages WHERE session_id = ? AND id < ? ORDER BY id DESC LIMIT 2",
                            (message.session_id, message.id))
        return "\n".join(r["content"] for r in rows)

    def previous_user_message(self, message: Message) -> Message | None:
        """The user's message before `message` in its session: what "forget what I just said" is about."""
        row = self.db.row("SELECT * FROM messages WHERE session_id = ? AND id < ? AND role = 'user' ORDER BY id DESC "
                          "LIMIT 1", (message.session_id, message.id))
        return _message(row) if row else None

    def message(self, message_id: int) -> Message:
        row = self.db.row("SELECT * FROM messages WHERE id = ?", (message_id,))
        if not row:
            raise MemchatError(f"no message with id {message_id}", "")
        return _message(row)

    def messages(self, session_id: int) -> list[Message]:
        return [_message(r) for r in self.db.rows("SELECT * FROM messages WHERE session_id = ? ORDER BY id", (session_id,))]

    def withdraw(self, message_id: int, note_ids: list[int]) -> None:
        """Remove a user message (and the notes it created) whose turn failed before any reply."""
        with self.db.transaction():
            self.db.execute("DELETE FROM messages WHERE id = ?", (message_id,))
            for note_id in note_ids:
                self.db.execute("DELETE FROM notes WHERE id = ?", (note_id,))

    def window(self, session_id: int) -> list[Message]:
        rows = self.db.rows(
            "SELECT * FROM messages WHERE session_id = ? AND in_window = 1 ORDER BY id", (session_id,)
        )
        return [_message(r) for r in rows]

    def drop_exchanges(self, message_ids: list[int]) -> None:
        """Take these user messages and the replies to them out of the window, without folding them into
        the summary: the user asked to forget what they said."""
        for message_id in message_ids:
            after = self.db.row("SELECT next.id, next.role FROM messages AS said JOIN messages AS next "
                                "ON next.session_id = said.session_id AND next.id > said.id WHERE said.id = ? "
                                "ORDER BY next.id LIMIT 1", (message_id,))
            self.evict([message_id, *([after["id"]] if after and after["role"] == "assistant" else [])])

    def evict(self, message_ids: list[int]) -> None:
        if message_ids:
            marks = ",".join("?" * len(message_ids))
            self.db.execute(f"UPDATE messages SET in_window = 0 WHERE id IN ({marks})", message_ids)

    def turn_count(self, session_id: int) -> int:
        return int(self.db.scalar("SELECT COUNT(*) FROM messages WHERE session_id = ? AND role = 'user'", (session_id,)))

    # ---- the extraction queue -------------------------------------------------
    def pending_extraction(self, session_id: int | None = None, limit: int = 100) -> list[Message]:
        """User messages whose memories were never extracted (the process stopped first), oldest first."""
        if session_id is None:
            rows = self.db.rows("SELECT * FROM messages WHERE extracted = 0 ORDER BY id LIMIT ?", (limit,))
        else:
            rows = self.db.rows("SELECT * FROM messages WHERE extracted = 0 AND session_id = ? ORDER BY id LIMIT ?",
                                (session_id, limit))
        return [_message(r) for r in rows]

    def pending_count(self) -> int:
        return int(self.db.scalar("SELECT COUNT(*) FROM messages WHERE extracted = 0"))

    def claim_extraction(self, message_id: int) -> bool:
        """Mark a message extracted; False when it already was (another process got there first).
        Called inside the transaction that writes its memories, so both happen or neither."""
        self.db.execute("UPDATE messages SET extracted = 1 WHERE id = ? AND extracted = 0", (message_id,))
        return bool(self.db.conn.changes())

    def unanswered(self, session_id: int) -> Message | None:
        """The session's last message when it is the user's: its turn ended without a reply
        (the process was killed mid-reply)."""
        row = self.db.row("SELECT * FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT 1", (session_id,))
        return _message(row) if row and row["role"] == "user" else None

    # ---- drafts ------------------------------------------------------------
    def save_draft(self, session_id: int, text: str, now: float | None = None) -> None:
        """Keep what was typed but not sent (redacted: a secret typed in the box is not written either);
        a blank text clears the session's draft."""
        with self.db.transaction():
            if not text.strip():
                self.db.execute("DELETE FROM drafts WHERE session_id = ?", (session_id,))
                return
            self.db.execute(
                "INSERT INTO drafts (session_id, text, saved_at) VALUES (?, ?, ?) "
                "ON CONFLICT(session_id) DO UPDATE SET text = excluded.text, saved_at = excluded.saved_at",
                (session_id, redact(text), time.time() if now is None else now),
            )

    def take_draft(self, session_id: int) -> tuple[str, str] | None:
        """(text, session name) of the draft to hand back at start, removed as it is: this session's,
        else the newest one left in any session (a plain `memchat` opens a new session, and what was
        left unsent belongs in front of the person whichever session it was typed in)."""
        with self.db.transaction():
            row = self.db.row(
                "SELECT d.id, d.text, s.name FROM drafts d JOIN sessions s ON s.id = d.session_id "
                "ORDER BY d.session_id = ? DESC, d.saved_at DESC LIMIT 1", (session_id,))
            if row is None:
                return None
            self.db.execute("DELETE FROM drafts WHERE id = ?", (row["id"],))
        return str(row["text"]), str(row["name"])

    # ---- extraction failures ----------------------------------------------
    def add_extraction_failure(
        self, session_id: int | None, message_id: int | None, raw_output: str, error: str, now: float | None = None
    ) -> None:
        """Model output that did not validate, kept with the raw text so it is never silently lost."""
        self.db.execute(
            "INSERT INTO extraction_failures (session_id, message_id, raw_output, error, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (session_id, message_id, raw_output, error, time.time() if now is None else now),
        )

    # ---- notes ----------------------------------------------------------
    def add_note(self, session_id: int, text: str, now: float | None = None) -> Note:
        now = time.time() if now is None else now
        text = redact(text)
        with self.db.transaction():
            self.db.execute("INSERT INTO notes (session_id, text, created_at) VALUES (?, ?, ?)", (session_id, text, now))
            note_id = self.db.last_insert_rowid()
        return Note(note_id, session_id, text, now)

    def notes(self, session_id: int) -> list[Note]:
        rows = self.db.rows(
            "SELECT * FROM notes WHERE session_id = ? AND active = 1 ORDER BY id", (session_id,)
        )
        return [Note(r["id"], r["session_id"], r["text"], r["created_at"]) for r in rows]

    def forget_notes(self, session_id: int | None, topic: str, about: Callable[[str], bool] | None = None) -> list[str]:
        """Retire the notes of a session (of every session when `session_id` is None) that mention every word of
        `topic`, or that `about` says tell it; returns their texts."""
        wanted = set(query_terms(topic))
        if not wanted:
            return []
        notes = self.notes(session_id) if session_id is not None else [
            Note(r["id"], r["session_id"], r["text"], r["created_at"])
            for r in self.db.rows("SELECT * FROM notes WHERE active = 1 ORDER BY id")]
        gone = [n for n in notes if wanted <= set(search_terms(n.text)) or about is not None and about(n.text)]
        for note in gone:
            self.db.execute("UPDATE notes SET active = 0 WHERE id = ?", (note.id,))
        return [n.text for n in gone]

    def edit_note(self, note_id: int, text: str) -> None:
        if text.strip():
            self.db.execute("UPDATE notes SET text = ? WHERE id = ?", (redact(text.strip()), note_id))
        else:
            self.db.execute("UPDATE notes SET active = 0 WHERE id = ?", (note_id,))
