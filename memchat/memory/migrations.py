"""Numbered schema migrations, applied in order and recorded in `_migrations`.

Invariants the schema keeps by itself (triggers, not memory of the caller):
- every row of `memories` has exactly one row in `memories_fts` with its
  `search_terms`, updated and deleted with it;
- deleting a row of `memories` deletes its vector from `memories_vec`.
The vector table's dimension depends on the embedding model, so it is created
by `Database.ensure_vectors`, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Migration = Callable[[Any], None]


def m001_sessions(db: Any) -> None:
    db.execute(
        """
        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            summary TEXT NOT NULL DEFAULT '',
            summary_updated_at REAL
        );
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
            content TEXT NOT NULL,
            created_at REAL NOT NULL,
            tokens INTEGER NOT NULL DEFAULT 0,
            cancelled INTEGER NOT NULL DEFAULT 0,
            in_window INTEGER NOT NULL DEFAULT 1
        );
        CREATE INDEX messages_by_session ON messages(session_id, id);
        CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            text TEXT NOT NULL,
            created_at REAL NOT NULL,
            active INTEGER NOT NULL DEFAULT 1
        );
        """
    )


def m002_memories(db: Any) -> None:
    db.execute(
        """
        CREATE TABLE memories (
            id INTEGER PRIMARY KEY AUTOINCREMENT,  -- a purged id is never reused: snapshots name ids
            kind TEXT NOT NULL CHECK (kind IN ('preference', 'fact', 'event', 'relation')),
            content TEXT NOT NULL,
            subject TEXT NOT NULL DEFAULT 'user',
            attribute TEXT NOT NULL DEFAULT '',
            importance REAL NOT NULL DEFAULT 0.5,
            confidence REAL NOT NULL DEFAULT 0.8,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            last_access_at REAL NOT NULL,
            access_count INTEGER NOT NULL DEFAULT 0,
            source_session INTEGER,
            source_message INTEGER,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'superseded', 'archived', 'deleted', 'pending')),
            pinned INTEGER NOT NULL DEFAULT 0,
            expires_at REAL,
            superseded_by INTEGER REFERENCES memories(id),
            search_terms TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX memories_by_key ON memories(subject, attribute, status);
        CREATE INDEX memories_by_status ON memories(status, pinned);
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            search_terms, content='memories', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
            INSERT INTO memories_fts(rowid, search_terms) VALUES (new.id, new.search_terms);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, search_terms) VALUES ('delete', old.id, old.search_terms);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF search_terms ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, search_terms) VALUES ('delete', old.id, old.search_terms);
            INSERT INTO memories_fts(rowid, search_terms) VALUES (new.id, new.search_terms);
        END;
        """
    )


def m003_turns(db: Any) -> None:
    db.execute(
        """
        CREATE TABLE turns (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            turn INTEGER NOT NULL,
            created_at REAL NOT NULL,
            snapshot TEXT NOT NULL,
            UNIQUE (session_id, turn)
        );
        CREATE TABLE extraction_failures (
            id INTEGER PRIMARY KEY,
            session_id INTEGER,
            message_id INTEGER,
            raw_output TEXT NOT NULL,
            error TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """
    )


def m004_recall_indexes(db: Any) -> None:
    """The attribute route looks items up by attribute; the keyword route asks how common a term is."""
    db.execute(
        """
        CREATE INDEX memories_by_attribute ON memories(attribute, status);
        CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');
        """
    )


MIGRATIONS: list[Migration] = [m001_sessions, m002_memories, m003_turns, m004_recall_indexes]
