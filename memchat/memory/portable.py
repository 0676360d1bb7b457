"""Memories as plain records, out of the database (export) and back into an empty one (restore).

A restored memory keeps its id, so its supersession link (`superseded_by`) and its episode
(`origin_id`) point where they pointed; its vector is computed again from its text, as `add`
would; its keyword entry follows by trigger. The session and message it came from belong to
the database it was exported from: they are kept in `memory_sources` (never as ids that could
name another message here), and exported again from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlite_vec

from memchat.memory.items import _memory
from memchat.memory.store import Database
from memchat.memory.terms import index_text
from memchat.memory.vector_index import bump_epoch
from memchat.types import EPISODE, MemchatError, Memory

CURRENT_STATUSES = ("active", "pending")
"""What an export holds without --all: what memchat holds true now, and what waits for a yes."""


@dataclass(frozen=True)
class PortableMemory:
    memory: Memory
    session: str | None
    """The name of the session it came from (in the database it was exported from)."""
    message: int | None
    """The id of the message it came from, there."""


def for_export(db: Database, *, everything: bool = False, ids: Sequence[int] | None = None) -> list[PortableMemory]:
    """Typed memories of the current statuses, or (`everything`) every memory and episode of any
    status; or exactly `ids`. In id order, so an export of the same state is the same file."""
    sql = ("SELECT m.*, s.name AS from_session, ms.session AS kept_session, ms.message AS kept_message "
           "FROM memories m LEFT JOIN sessions s ON s.id = m.source_session "
           "LEFT JOIN memory_sources ms ON ms.memory_id = m.id")
    params: list[object] = []
    if ids is not None:
        sql += " WHERE m.id IN (SELECT value FROM json_each(?))"
        params.append("[" + ",".join(str(int(i)) for i in ids) + "]")
    elif not everything:
        sql += f" WHERE m.status IN ({','.join('?' * len(CURRENT_STATUSES))}) AND m.kind != ?"
        params += [*CURRENT_STATUSES, EPISODE]
    rows = db.rows(sql + " ORDER BY m.id", params)
    return [PortableMemory(_memory(r), r["from_session"] or r["kept_session"],
                           r["source_message"] if r["source_message"] is not None else r["kept_message"])
            for r in rows]


def restore(db: Database, records: Sequence[PortableMemory], vectors: Sequence[Sequence[float]]) -> int:
    """Write `records` with their ids and `vectors` into a database without memories, in one
    transaction (all or nothing). Links to ids not among them are cleared."""
    known = {r.memory.id for r in records}
    with db.transaction():
        if db.scalar("SELECT 1 FROM memories LIMIT 1"):
            raise MemchatError("this database already holds memories: a memories export is restored into an "
                               "empty one (ids and links are kept)",
                               "pass --db with a new file, e.g. memchat --db restored.db import FILE")
        for record, vector in zip(records, vectors, strict=True):
            m = record.memory
            db.execute(
                "INSERT INTO memories (id, kind, content, subject, attribute, importance, confidence, created_at, "
                "updated_at, last_access_at, access_count, status, pinned, expires_at, search_terms, event_at, "
                "event_text, event_grain, origin_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (m.id, m.kind, m.content, m.subject, m.attribute, m.importance, m.confidence, m.created_at,
                 m.updated_at, m.last_access_at, m.access_count, m.status, int(m.pinned), m.expires_at,
                 index_text(m.content), m.event_at, m.event_text, m.event_grain,
                 m.origin_id if m.origin_id in known else None),
            )
            db.execute("INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)",
                       (m.id, sqlite_vec.serialize_float32(list(vector))))
            if record.session is not None or record.message is not None:
                db.execute("INSERT INTO memory_sources (memory_id, session, message) VALUES (?, ?, ?)",
                           (m.id, record.session, record.message))
        for record in records:  # links last: a memory may name a successor written after it
            if record.memory.superseded_by in known:
                db.execute("UPDATE memories SET superseded_by = ? WHERE id = ?",
                           (record.memory.superseded_by, record.memory.id))
        bump_epoch(db)  # ids below the in-memory index's high-water mark: make every copy reload
    return len(records)
