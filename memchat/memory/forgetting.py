"""Forgetting: expiry, decay of never-recalled items, and a capacity limit.

All soft (status → archived); pinned memories and episodes (what the user said, the floor under
recall) are never touched. A hard purge
(`MemoryStore.purge`) is separate and explicit. Runs after each turn's
extraction and costs three indexed UPDATEs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from memchat.config import ForgetSettings
from memchat.memory.store import Database

DAY = 86_400.0


@dataclass
class ForgetReport:
    expired: int = 0
    decayed: int = 0
    over_capacity: int = 0

    @property
    def total(self) -> int:
        return self.expired + self.decayed + self.over_capacity


def run_forgetting(db: Database, settings: ForgetSettings, now: float | None = None) -> ForgetReport:
    now = time.time() if now is None else now
    report = ForgetReport()
    with db.transaction():
        db.execute(
            "UPDATE memories SET status = 'archived', updated_at = ? "
            "WHERE status = 'active' AND pinned = 0 AND kind != 'episode' AND expires_at IS NOT NULL AND expires_at <= ?",
            (now, now),
        )
        report.expired = db.conn.changes()
        db.execute(
            "UPDATE memories SET status = 'archived', updated_at = ? "
            "WHERE status = 'active' AND pinned = 0 AND kind != 'episode' AND access_count = 0 AND importance < ? "
            "AND last_access_at < ?",
            (now, settings.decay_importance, now - settings.decay_days * DAY),
        )
        report.decayed = db.conn.changes()
        active = int(db.scalar("SELECT COUNT(*) FROM memories WHERE status = 'active' AND kind != 'episode'"))
        excess = active - settings.capacity
        if excess > 0:
            db.execute(
                "UPDATE memories SET status = 'archived', updated_at = ? WHERE id IN ("
                " SELECT id FROM memories WHERE status = 'active' AND pinned = 0 AND kind != 'episode'"
                " ORDER BY importance * (1 + access_count) ASC, last_access_at ASC LIMIT ?)",
                (now, excess),
            )
            report.over_capacity = db.conn.changes()
    return report
