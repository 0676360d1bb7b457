import apsw
import pytest

from memchat.memory.migrations import MIGRATIONS
from memchat.memory.store import Database
from memchat.types import MemchatError


def test_blank_database_gets_every_migration_once(tmp_path):
    db = Database(tmp_path / "a.db")
    assert db.schema_version == len(MIGRATIONS)
    names = [r["name"] for r in db.rows("SELECT name FROM _migrations ORDER BY version")]
    assert names == [m.__name__ for m in MIGRATIONS]
    db.close()
    again = Database(tmp_path / "a.db")
    assert again.scalar("SELECT COUNT(*) FROM _migrations") == len(MIGRATIONS)


EXPECTED_TABLES = {
    1: {"sessions", "messages", "notes"},
    2: {"memories", "memories_fts"},
    3: {"turns", "meta"},
    4: {"memories_fts_vocab"},
}


class _Raw:
    """The minimal database surface a migration uses, on a bare apsw connection."""

    def __init__(self) -> None:
        import sqlite_vec

        self.conn = apsw.Connection(":memory:")
        self.conn.enable_load_extension(True)
        self.conn.load_extension(sqlite_vec.loadable_path())

    def execute(self, sql, params=()):
        return self.conn.execute(sql, params)


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS) + 1))
def test_each_migration_applies_in_order_on_a_blank_database(version):
    raw = _Raw()
    for migration in MIGRATIONS[:version]:
        migration(raw)
    tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert EXPECTED_TABLES[version] <= tables


def test_wal_mode_and_extensions(tmp_path):
    db = Database(tmp_path / "w.db")
    assert db.scalar("PRAGMA journal_mode") == "wal"
    assert db.versions()["sqlite_vec"].startswith("v")
    assert db.versions()["fts5"] == "yes"


def test_database_from_a_newer_version_is_refused_and_untouched(tmp_path):
    path = tmp_path / "new.db"
    db = Database(path)
    db.execute("INSERT INTO _migrations (version, name, applied_at) VALUES (99, 'm099_future', 0)")
    db.close()
    before = path.read_bytes()
    with pytest.raises(MemchatError, match="newer than this memchat"):
        Database(path)
    assert path.read_bytes() == before


def test_not_a_database_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(MemchatError, match="not a memchat database"):
        Database(path)


def test_vector_dimension_mismatch_is_explained(tmp_path):
    db = Database(tmp_path / "v.db")
    assert db.ensure_vectors(8, "model-a")
    with pytest.raises(MemchatError, match="re-embed|reindex"):
        db.ensure_vectors(16, "model-b")
    assert isinstance(db.conn, apsw.Connection)
