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

from memchat.memory.terms import has_cjk, index_text

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


def _first(row: Any) -> Any:
    """The first column of a row, whether the connection traces rows as dicts or tuples."""
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


_MEMORY_COLUMNS = (
    "id, kind, content, subject, attribute, importance, confidence, created_at, updated_at, last_access_at, "
    "access_count, source_session, source_message, status, pinned, expires_at, superseded_by, search_terms"
)


def m005_episodes_and_dates(db: Any) -> None:
    """Episodes (what the user said, kept as said) live beside typed memories, in the same
    table, FTS and vector indexes; every row may carry the absolute date it talks about.

    SQLite cannot alter a CHECK constraint, so the table is rebuilt (ids, and the
    AUTOINCREMENT high-water mark, kept). Runs with foreign keys off (see `Database.migrate`).
    """
    seq = [_first(r) for r in db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'memories'").fetchall()]
    db.execute(
        f"""
        CREATE TABLE memories_v5 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL CHECK (kind IN ('preference', 'fact', 'event', 'relation', 'episode')),
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
            search_terms TEXT NOT NULL DEFAULT '',
            event_at REAL,          -- the absolute day a time expression resolved to (Unix seconds)
            event_text TEXT NOT NULL DEFAULT '',  -- the expression as said ("last Friday")
            event_grain TEXT NOT NULL DEFAULT '', -- day, month or year: how precise event_at is
            origin_id INTEGER       -- a typed memory's episode: retired with it
        );
        INSERT INTO memories_v5 ({_MEMORY_COLUMNS}) SELECT {_MEMORY_COLUMNS} FROM memories;
        DROP TABLE memories;
        ALTER TABLE memories_v5 RENAME TO memories;
        CREATE INDEX memories_by_key ON memories(subject, attribute, status);
        CREATE INDEX memories_by_status ON memories(status, pinned);
        CREATE INDEX memories_by_attribute ON memories(attribute, status);
        CREATE INDEX memories_by_kind ON memories(kind, status);
        CREATE INDEX memories_by_origin ON memories(origin_id);
        CREATE INDEX memories_by_source ON memories(source_message);
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
    if seq:
        db.execute(
            "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'memories'", (seq[0],)
        )
        if not db.execute("SELECT 1 FROM sqlite_sequence WHERE name = 'memories'").fetchall():
            db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('memories', ?)", (seq[0],))
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'memories_vec'").fetchall():
        db.execute(
            "CREATE TRIGGER memories_vec_delete AFTER DELETE ON memories BEGIN "
            "DELETE FROM memories_vec WHERE rowid = old.id; END"
        )


m005_episodes_and_dates.foreign_keys_off = True  # type: ignore[attr-defined]


def m006_fts_secure_delete(db: Any) -> None:
    """Deleting from the keyword index removes the terms from its segments at once (SQLite ≥ 3.42),
    instead of leaving them until a merge: a purged word must not stay in the file."""
    db.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1)")


def m007_extraction_queue(db: Any) -> None:
    """A user message is stored with `extracted = 0` and marked 1 in the same transaction as the
    memories drawn from it: a crash between the two leaves it queued, and the next start
    extracts it. Messages stored before this migration were extracted by the old thread (or lost
    with it); they count as done."""
    db.execute(
        """
        ALTER TABLE messages ADD COLUMN extracted INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX messages_pending_extraction ON messages(id) WHERE extracted = 0;
        """
    )


def m008_vectors_epoch(db: Any) -> None:
    """In-memory copies of the vectors (memory.vector_index) reload when this number changes:
    a deleted row takes its vector with it; an edit bumps it too (in MemoryStore.edit)."""
    db.execute(
        """
        INSERT INTO meta (key, value) VALUES ('vectors_epoch', '0') ON CONFLICT(key) DO NOTHING;
        CREATE TRIGGER memories_vectors_epoch AFTER DELETE ON memories BEGIN
            UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_epoch';
        END;
        """
    )


def m009_imports(db: Any) -> None:
    """`imported_conversations`: one row per conversation of another assistant's export (ChatGPT,
    Claude) imported as a session, written in the transaction that stores its messages, so a re-run
    skips exactly what is complete. `memory_sources`: where a memory restored from an export came
    from in the database it was exported from (its session and message are not in this one)."""
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS imported_conversations (
            source TEXT NOT NULL,           -- chatgpt, claude
            conversation_id TEXT NOT NULL,
            session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
            title TEXT NOT NULL DEFAULT '',
            messages INTEGER NOT NULL DEFAULT 0,
            imported_at REAL NOT NULL,
            PRIMARY KEY (source, conversation_id)
        );
        CREATE TABLE IF NOT EXISTS memory_sources (
            memory_id INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
            session TEXT,
            message INTEGER
        );
        """
    )


def m010_drafts(db: Any) -> None:
    """`drafts`: what the user had typed or queued but not sent when memchat closed, one row per
    session, put back in the box at the next start (redacted like every stored text)."""
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS drafts (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
            text TEXT NOT NULL,
            saved_at REAL NOT NULL
        );
        """
    )


def m011_cjk_beside_digits(db: Any) -> None:
    """Index terms were one token where CJK met a digit or a Latin letter ("9号去了医院", "iphone15手机"), so
    "医院" could not find that memory; such rows get their terms again (the FTS trigger re-indexes them)."""
    rows = list(db.execute("SELECT id, content, search_terms FROM memories"))
    for memory_id, content, terms in rows:
        if has_cjk(content) and (fresh := index_text(content)) != terms:
            db.execute("UPDATE memories SET search_terms = ? WHERE id = ?", (fresh, memory_id))


def m012_forgotten_with(db: Any) -> None:
    """`forgotten_with`: what went with a memory forgotten by hand (its words' own episode row, the typed memories
    drawn from a forgotten episode), each with the status it had, so restoring that memory brings back exactly
    those — not what was forgotten on its own before or after."""
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS forgotten_with (
            memory_id INTEGER PRIMARY KEY REFERENCES memories(id) ON DELETE CASCADE,
            forgotten_by INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            previous_status TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS forgotten_with_by ON forgotten_with (forgotten_by);
        """
    )


MIGRATIONS: list[Migration] = [
    m001_sessions, m002_memories, m003_turns, m004_recall_indexes, m005_episodes_and_dates, m006_fts_secure_delete,
    m007_extraction_queue, m008_vectors_epoch, m009_imports, m010_drafts, m011_cjk_beside_digits,
    m012_forgotten_with,
]
