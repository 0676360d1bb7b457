"""Salvage a damaged database into a new file, row by row (`memchat doctor --repair`).

The damaged file is never written: it and its WAL are copied into a temporary
folder and read from there. A fresh memchat database is made at a new path and
every row of memchat's tables that SQLite can still read is copied into it. Like
SQLite's `.recover`, a row on an unreadable page is skipped and the rest kept:
a table is scanned in rowid order, and where the scan breaks, the rows after
the break are fetched one rowid at a time. Keyword-index entries follow the
memories through their triggers; vectors are copied where readable.

Invariant of the result: it passes `PRAGMA integrity_check` and
`foreign_key_check` (a message whose session was lost gets a `recovered-<id>`
session; a link to a lost memory is cleared).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import apsw

from memchat.memory.store import Database, Row
from memchat.types import MemchatError

TABLES = ("sessions", "messages", "notes", "memories", "turns", "extraction_failures", "meta", "imported_conversations",
          "memory_sources", "forgotten_with")
"""Parents before children. `_migrations` is not copied: the new file has its own, current schema."""
VECTOR_META = ("embed_dim", "embed_model")
MAX_POINT_LOOKUPS = 5_000_000
"""Rowids tried one by one after a broken scan, per table."""


@dataclass
class RecoveryReport:
    path: Path
    copied: dict[str, int] = field(default_factory=dict)
    unreadable: dict[str, int] = field(default_factory=dict)
    """Per table: scans that broke, or rowids that could not be read."""
    vectors: int = 0
    without_vector: int = 0

    @property
    def rows(self) -> int:
        return sum(self.copied.values())


def recovered_path(original: Path) -> Path:
    """A new file beside the original (never an existing one)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = original.with_name(f"{original.stem}.recovered-{stamp}.db")
    number = 2
    while candidate.exists():
        candidate = original.with_name(f"{original.stem}.recovered-{stamp}-{number}.db")
        number += 1
    return candidate


def _readable(db: Database, table: str, report: RecoveryReport) -> Iterator[Row]:
    """Every row of `table` SQLite can read, in rowid order."""
    last = 0
    try:
        for row in db.execute(f"SELECT rowid AS _rowid_, * FROM {table} ORDER BY rowid"):
            last = row["_rowid_"]
            yield row
        return
    except apsw.Error:
        report.unreadable[table] = report.unreadable.get(table, 0) + 1
    highest = _highest_rowid(db, table, last)
    for rowid in range(last + 1, min(highest, last + MAX_POINT_LOOKUPS) + 1):
        try:
            found = db.row(f"SELECT rowid AS _rowid_, * FROM {table} WHERE rowid = ?", (rowid,))
        except apsw.Error:
            report.unreadable[table] = report.unreadable.get(table, 0) + 1
            continue
        if found is not None:
            yield found


def _highest_rowid(db: Database, table: str, last: int) -> int:
    for sql, params in ((f"SELECT MAX(rowid) FROM {table}", ()),
                        ("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))):
        try:
            value = db.scalar(sql, params)
        except apsw.Error:
            continue
        if value is not None:
            return int(value)
    return last + 100_000


def _columns(db: Database, table: str) -> list[str]:
    try:
        return [r["name"] for r in db.rows(f"PRAGMA table_info({table})")]
    except apsw.Error:
        return []


def _copy_table(source: Database, target: Database, table: str, report: RecoveryReport) -> None:
    shared = [c for c in _columns(source, table) if c in set(_columns(target, table))]
    if not shared:
        return
    insert = f"INSERT OR IGNORE INTO {table} ({', '.join(shared)}) VALUES ({', '.join('?' * len(shared))})"
    copied = 0
    for row in _readable(source, table, report):
        if table == "meta" and row.get("key") in VECTOR_META:
            continue
        target.execute(insert, [row.get(c) for c in shared])
        copied += 1
    report.copied[table] = copied


def _copy_vectors(source: Database, target: Database, report: RecoveryReport) -> None:
    try:
        dim, model = (source.scalar("SELECT value FROM meta WHERE key = ?", (k,)) for k in VECTOR_META)
    except apsw.Error:
        dim = model = None
    if dim is not None and model is not None:
        target.ensure_vectors(int(dim), str(model))
        kept = {r["id"] for r in target.rows("SELECT id FROM memories")}
        for row in _readable(source, "memories_vec", report):
            if row["_rowid_"] in kept:
                target.execute("INSERT OR IGNORE INTO memories_vec (rowid, embedding) VALUES (?, ?)",
                               (row["_rowid_"], row["embedding"]))
                report.vectors += 1
    report.without_vector = report.copied.get("memories", 0) - report.vectors


def _mend_references(target: Database) -> None:
    """Children of lost rows: messages, notes and turns get a stand-in session; links to lost
    memories are cleared."""
    orphans = target.rows(
        "SELECT DISTINCT session_id AS id FROM (SELECT session_id FROM messages UNION SELECT session_id FROM notes "
        "UNION SELECT session_id FROM turns) WHERE session_id NOT IN (SELECT id FROM sessions)"
    )
    now = time.time()
    for orphan in orphans:
        target.execute("INSERT INTO sessions (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)",
                       (orphan["id"], f"recovered-{orphan['id']}", now, now))
    for column in ("superseded_by", "origin_id"):
        target.execute(f"UPDATE memories SET {column} = NULL WHERE {column} IS NOT NULL "
                       f"AND {column} NOT IN (SELECT id FROM memories)")
    target.execute("DELETE FROM memory_sources WHERE memory_id NOT IN (SELECT id FROM memories)")
    target.execute("DELETE FROM forgotten_with WHERE memory_id NOT IN (SELECT id FROM memories) "
                   "OR forgotten_by NOT IN (SELECT id FROM memories)")
    target.execute("UPDATE imported_conversations SET session_id = NULL WHERE session_id NOT IN (SELECT id FROM sessions)")


def recover(original: Path, destination: Path | None = None) -> RecoveryReport:
    """Copy what can be read of `original` into a new memchat database; `original` is untouched."""
    if not original.is_file():
        raise MemchatError(f"no database file at {original}", "pass --db with the damaged file")
    destination = destination or recovered_path(original)
    if destination.exists():
        raise MemchatError(f"{destination} already exists", "pick another destination; nothing was changed")
    report = RecoveryReport(destination)
    with tempfile.TemporaryDirectory(prefix="memchat-recover-") as scratch:
        copy = Path(scratch) / "damaged.db"
        shutil.copyfile(original, copy)
        wal = Path(f"{original}-wal")
        if wal.is_file():
            shutil.copyfile(wal, Path(f"{copy}-wal"))
        source = Database(copy, salvage=True)
        source.execute("PRAGMA writable_schema=ON")  # as `.recover` does: a truncated file's pages past its end read as gone, not as an error
        target = Database(destination)
        try:
            target.execute("PRAGMA foreign_keys=OFF")  # rows arrive before the rows they point at
            with target.transaction():
                for table in TABLES:
                    _copy_table(source, target, table, report)
                _copy_vectors(source, target, report)
                _mend_references(target)
            target.execute("PRAGMA foreign_keys=ON")
        finally:
            source.close()
            target.close()
    if report.rows == 0:
        destination.unlink(missing_ok=True)
        for suffix in ("-wal", "-shm"):
            Path(f"{destination}{suffix}").unlink(missing_ok=True)
        raise MemchatError(f"nothing could be read from {original}",
                           "restore it from a backup; the file was left as it was")
    return report
