"""Which conversations of other assistants' exports are already sessions here.

A row is written in the same transaction as the conversation's session and messages: it
exists exactly when the whole conversation was stored, so an import run again (after a kill,
or on a newer export of the same account) skips what is done and stores the rest.
"""

from __future__ import annotations

import time

from memchat.memory.secrets import redact
from memchat.memory.store import Database


class ImportLog:
    def __init__(self, db: Database) -> None:
        self.db = db

    def imported(self, source: str) -> set[str]:
        """Ids of the conversations of `source` (chatgpt, claude) imported so far."""
        rows = self.db.rows("SELECT conversation_id FROM imported_conversations WHERE source = ?", (source,))
        return {r["conversation_id"] for r in rows}

    def has(self, source: str, conversation_id: str) -> bool:
        return bool(self.db.scalar("SELECT 1 FROM imported_conversations WHERE source = ? AND conversation_id = ?",
                                   (source, conversation_id)))

    def record(self, source: str, conversation_id: str, session_id: int | None, title: str, messages: int,
               now: float | None = None) -> None:
        """Call inside the transaction that stores the conversation."""
        self.db.execute(
            "INSERT INTO imported_conversations (source, conversation_id, session_id, title, messages, imported_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (source, conversation_id, session_id, redact(title), messages, time.time() if now is None else now),
        )
