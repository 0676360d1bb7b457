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
    5: {"memories", "memories_fts"},
    6: {"memories_fts"},
    7: {"messages"},
    8: {"meta"},
    9: {"imported_conversations", "memory_sources"},
    10: {"drafts"},
    11: {"memories_fts"},
    12: {"forgotten_with"},
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


def test_messages_stored_before_the_queue_existed_count_as_extracted():
    raw = _Raw()
    for migration in MIGRATIONS[:6]:
        migration(raw)
    raw.execute("INSERT INTO sessions (name, created_at, updated_at) VALUES ('s', 0, 0)")
    raw.execute("INSERT INTO messages (session_id, role, content, created_at) VALUES (1, 'user', 'old', 0)")
    MIGRATIONS[6](raw)
    assert list(raw.execute("SELECT extracted FROM messages")) == [(1,)]


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


def test_the_episode_rebuild_keeps_ids_index_vectors_and_the_id_high_water_mark(tmp_path):
    """m005 rebuilds `memories` (SQLite cannot alter a CHECK): nothing stored may change or drift."""
    import sqlite_vec

    from memchat.memory import migrations

    path = tmp_path / "old.db"
    db = Database(path)  # fully migrated; roll the memories table back to its v4 shape by hand
    db.close()
    raw = apsw.Connection(str(path))
    raw.enable_load_extension(True)
    raw.load_extension(sqlite_vec.loadable_path())
    raw.execute("DROP INDEX messages_pending_extraction; ALTER TABLE messages DROP COLUMN extracted")
    raw.execute("DROP TABLE memories; DELETE FROM _migrations WHERE version >= 5; DROP TABLE memories_fts;"
                "DROP TABLE memories_fts_vocab; DELETE FROM sqlite_sequence")
    class _Conn:
        def execute(self, sql, params=()):
            return raw.execute(sql, params)
    for migration in (migrations.m002_memories, migrations.m004_recall_indexes):
        if migration is migrations.m004_recall_indexes:
            raw.execute("CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row')")
        else:
            migration(_Conn())
    raw.execute("CREATE VIRTUAL TABLE memories_vec USING vec0(embedding float[2] distance_metric=cosine)")
    raw.execute("CREATE TRIGGER memories_vec_delete AFTER DELETE ON memories BEGIN "
                "DELETE FROM memories_vec WHERE rowid = old.id; END")
    raw.execute("INSERT INTO meta (key, value) VALUES ('embed_dim', '2'), ('embed_model', 'm') "
                "ON CONFLICT(key) DO NOTHING")
    for memory_id, text in ((1, "lives in lisbon"), (2, "dog pixel"), (3, "purged later")):
        raw.execute("INSERT INTO memories (id, kind, content, created_at, updated_at, last_access_at, search_terms) "
                    "VALUES (?, 'fact', ?, 0, 0, 0, ?)", (memory_id, text, text))
        raw.execute("INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)",
                    (memory_id, sqlite_vec.serialize_float32([1.0, float(memory_id)])))
    raw.execute("UPDATE memories SET status = 'superseded', superseded_by = 2 WHERE id = 1")
    raw.execute("DELETE FROM memories WHERE id = 3")
    raw.close()

    db = Database(path)
    assert db.schema_version == len(MIGRATIONS)
    assert [r["id"] for r in db.rows("SELECT id FROM memories ORDER BY id")] == [1, 2]
    assert db.scalar("SELECT superseded_by FROM memories WHERE id = 1") == 2
    assert db.scalar("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'pixel'") == 2
    db.execute("INSERT INTO memories (kind, content, created_at, updated_at, last_access_at, search_terms) "
               "VALUES ('episode', 'I said so', 0, 0, 0, 'said')")
    assert db.scalar("SELECT MAX(id) FROM memories") == 4, "a purged id must never be reused"
    db.execute("DELETE FROM memories WHERE id = 1")
    assert db.scalar("SELECT COUNT(*) FROM memories_vec WHERE rowid = 1") == 0, "the vector trigger is back"
    assert not db.rows("PRAGMA foreign_key_check") and db.scalar("PRAGMA foreign_keys") == 1


def test_chinese_beside_digits_is_indexed_again_so_its_words_can_be_found():
    """Before m011 "9号去了医院" was one index token: neither 医院 nor 9 could find it."""
    raw = _Raw()
    for migration in MIGRATIONS[:10]:
        migration(raw)
    rows = ((1, "我9号去了医院", "9号去了医院"), (2, "I live in Leeds", "i live in leed"),
            (3, "用户买了iphone15手机", "用户 户买 买了 用 户 买 iphone15手机"))
    for memory_id, content, terms in rows:
        raw.execute("INSERT INTO memories (id, kind, content, created_at, updated_at, last_access_at, search_terms) "
                    "VALUES (?, 'fact', ?, 0, 0, 0, ?)", (memory_id, content, terms))
    MIGRATIONS[10](raw)
    found = [r[0] for r in raw.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH '医院' ORDER BY rowid")]
    assert found == [1]
    assert [r[0] for r in raw.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH '手机'")] == [3]
    assert list(raw.execute("SELECT search_terms FROM memories WHERE id = 2")) == [("i live in leed",)]
