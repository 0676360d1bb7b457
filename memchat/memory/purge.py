"""Purge: a memory, and every copy of the words it was made of, gone from the file.

A soft forget hides a memory; a purge is for privacy, so nothing of it may stay on disk:
the row, its keyword-index entry (FTS5 `secure-delete`) and vector; the episode it came
from (or, purging an episode, the typed memories made from it); and its sentences wherever
they were copied — messages, turn snapshots, the rolling summary, cross-turn notes, each
replaced by a marker. `secure_delete` zeroes freed pages, and the WAL is checkpointed and
truncated afterwards, so the old pages do not linger there either. One transaction.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from memchat.memory.segment import split_sentences
from memchat.memory.store import Database
from memchat.types import Memory

MARKER = "[purged]"


@dataclass
class PurgeReport:
    memory_ids: list[int] = field(default_factory=list)
    messages: int = 0
    snapshots: int = 0
    notes: int = 0
    summaries: int = 0
    drafts: int = 0


_TEXT_COLUMNS = (("messages", "content", "messages"), ("notes", "text", "notes"), ("sessions", "summary", "summaries"),
                 ("turns", "snapshot", "snapshots"), ("drafts", "text", "drafts"))
"""Where text is copied to (table, column, PurgeReport field): a purge scrubs every one of them."""


def _scrub(db: Database, table: str, column: str, needles: list[str], marker: str) -> int:
    changed = 0
    for needle in needles:
        db.execute(f"UPDATE {table} SET {column} = replace({column}, ?, ?) WHERE instr({column}, ?) > 0",
                   (needle, marker, needle))
        changed += int(db.conn.changes())
    return changed


def scrub_sentences(db: Database, sentences: list[str]) -> PurgeReport:
    """Replace these sentences (as typed) by the marker wherever text was copied: what a message told of a topic it
    asked to forget in the same breath, which was never stored as a memory to purge."""
    texts = sorted({t for t in sentences if len(t) >= 8}, key=len, reverse=True)
    report = PurgeReport()
    if not texts:
        return report
    with db.transaction():
        for table, column, field_name in _TEXT_COLUMNS:
            if table != "turns":
                setattr(report, field_name, _scrub(db, table, column, texts, MARKER))
        report.snapshots = _scrub(db, "turns", "snapshot", [json.dumps(t, ensure_ascii=False)[1:-1] for t in texts],
                                  MARKER)
    db.checkpoint()
    return report


def purge_rows(db: Database, memory: Memory, related: list[Memory]) -> PurgeReport:
    """Delete `memory` and `related` (its episode, or the typed memories of an episode) and scrub their
    text everywhere it was copied. The caller chose `related`; this only writes."""
    gone = [memory, *related]
    texts = sorted({t for m in gone for t in [m.content, *split_sentences(m.content)] if len(t) >= 8},
                   key=len, reverse=True)  # whole texts before their sentences
    report = PurgeReport([m.id for m in gone])
    with db.transaction():
        for row in gone:
            db.execute("UPDATE memories SET superseded_by = NULL WHERE superseded_by = ?", (row.id,))
            db.execute("UPDATE memories SET origin_id = NULL WHERE origin_id = ?", (row.id,))
            db.execute("DELETE FROM memories WHERE id = ?", (row.id,))
        for table, column, field_name in _TEXT_COLUMNS:
            if table != "turns":  # snapshots hold the text JSON-escaped: below
                setattr(report, field_name, _scrub(db, table, column, texts, MARKER))
        escaped = [json.dumps(t, ensure_ascii=False)[1:-1] for t in texts]  # as they appear inside snapshot JSON
        report.snapshots = _scrub(db, "turns", "snapshot", escaped, f"{MARKER[:-1]} memory #{memory.id}]")
    db.checkpoint()
    return report



def scrub_phrase(db: Database, phrase: str) -> PurgeReport:
    """Replace `phrase` (any case) by the marker wherever text was copied — messages, notes, summaries,
    snapshots — for a purge by topic: the messages that named it, the forget request included."""
    report = PurgeReport()
    phrase = phrase.strip()
    if len(phrase) < 3:
        return report  # too short to name anything: it would scrub parts of other words
    pattern = re.compile(re.escape(phrase), re.IGNORECASE)
    with db.transaction():
        for table, column, field_name in _TEXT_COLUMNS:
            key = "id"
            rows = db.rows(f"SELECT {key}, {column} AS text FROM {table} WHERE instr(lower({column}), ?) > 0",
                           (phrase.lower(),))
            for row in rows:
                db.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = ?", (pattern.sub(MARKER, row["text"]),
                                                                                 row[key]))
            setattr(report, field_name, getattr(report, field_name) + len(rows))
    db.checkpoint()
    return report
