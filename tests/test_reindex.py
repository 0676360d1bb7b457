"""`memchat memory reindex`: every memory re-embedded with another model, swapped in one transaction."""

import numpy as np
import pytest

from memchat.engine.fake import FakeEmbedder
from memchat.memory.items import MemoryStore
from memchat.memory.reindex import reindex
from memchat.memory.store import Database
from memchat.types import MemchatError, MemoryDraft


def _embedder(dim: int, name: str) -> FakeEmbedder:
    embedder = FakeEmbedder(dim)
    embedder.name = name
    return embedder


def _store_with_memories(path) -> tuple[Database, list[int]]:
    db = Database(path)
    store = MemoryStore(db, _embedder(64, "model-a"))
    ids = [store.add(MemoryDraft(kind="fact", content=text, attribute=attribute)).id
           for text, attribute in (("The user lives in Porto", "home_city"), ("The user plays the cello", ""),
                                   ("The user's dog is called Pixel", ""))]
    store.set_status(ids[1], "deleted")  # forgotten: restore needs its vector
    return db, ids


def test_another_model_is_refused_until_the_store_is_reindexed(tmp_path):
    db, ids = _store_with_memories(tmp_path / "m.db")
    with pytest.raises(MemchatError, match="reindex"):
        MemoryStore(db, _embedder(32, "model-b"))
    with pytest.raises(MemchatError, match="embedded with model-a"):  # same size, another model: not comparable
        MemoryStore(db, _embedder(64, "model-c"))

    report = reindex(db, _embedder(32, "model-b"))

    assert (report.memories, report.old_model, report.old_dim, report.new_model, report.new_dim) == (
        3, "model-a", 64, "model-b", 32)
    store = MemoryStore(db, _embedder(32, "model-b"))
    assert store.check_integrity() == []
    assert set(store.vectors(ids)) == set(ids)  # the forgotten one too
    query = _embedder(32, "model-b").embed(["dog Pixel"])[0]
    assert store.knn(query, 1)[0][0] == ids[2]
    with pytest.raises(MemchatError, match="reindex"):
        MemoryStore(db, _embedder(64, "model-a"))


def test_a_vector_comes_from_the_same_text_a_write_embeds(tmp_path):
    db, ids = _store_with_memories(tmp_path / "m.db")
    before = MemoryStore(db, _embedder(64, "model-a")).vectors(ids)
    reindex(db, _embedder(64, "model-a-again"))  # the same vectors under another name: its slot question included
    after = MemoryStore(db, _embedder(64, "model-a-again")).vectors(ids)
    for memory_id in ids:
        assert np.allclose(before[memory_id], after[memory_id], atol=1e-6)


def test_a_memory_written_meanwhile_is_embedded_before_the_swap(tmp_path):
    db, ids = _store_with_memories(tmp_path / "m.db")
    other = Database(tmp_path / "m.db")  # another memchat process, still on the old model
    writer = MemoryStore(other, _embedder(64, "model-a"))
    written: list[int] = []

    def progress(done: int, total: int) -> None:
        if not written:
            written.append(writer.add(MemoryDraft(kind="fact", content="The user started climbing")).id)

    report = reindex(db, _embedder(32, "model-b"), progress=progress)

    assert report.memories == 4
    store = MemoryStore(db, _embedder(32, "model-b"))
    assert set(store.vectors([*ids, *written])) == {*ids, *written}
    assert store.check_integrity() == []


def test_a_store_that_never_settles_is_left_as_it_was(tmp_path):
    db, ids = _store_with_memories(tmp_path / "m.db")
    writer = MemoryStore(Database(tmp_path / "m.db"), _embedder(64, "model-a"))

    def progress(done: int, total: int) -> None:
        writer.add(MemoryDraft(kind="fact", content=f"The user counted to {len(writer.list_items())}"))

    with pytest.raises(MemchatError, match="another memchat"):
        reindex(db, _embedder(32, "model-b"), progress=progress)
    store = MemoryStore(db, _embedder(64, "model-a"))  # the old vectors, whole
    assert store.check_integrity() == []


def test_a_wrong_sized_vector_stops_before_anything_changes(tmp_path):
    db, _ids = _store_with_memories(tmp_path / "m.db")
    broken = _embedder(48, "model-b")
    embed = broken.embed
    broken.embed = lambda texts: [v[:32] for v in embed(texts)]  # says 48, gives 32
    with pytest.raises(MemchatError, match="32-d vector, not 48-d"):
        reindex(db, broken)
    assert MemoryStore(db, _embedder(64, "model-a")).check_integrity() == []


def test_doctor_names_a_store_made_by_another_model_and_the_fix(tmp_path, capsys):
    from memchat.cli.main import main

    db, _ids = _store_with_memories(tmp_path / "m.db")
    db.close()
    assert main(["--db", str(tmp_path / "m.db"), "doctor"]) == 1
    out = capsys.readouterr().out
    assert "vectors       model-a (64-d)" in out
    assert "embedded with model-a, the settings embed with all-minilm-l6-v2" in out and "memory reindex" in out


def test_a_memchat_that_had_the_store_open_refuses_to_mix_models_after_another_reindexed_it(tmp_path):
    """Found in review: the running process searched with 384-d queries in an 896-d store (a reshape error), or,
    with a model of the same size, wrote its old model's vectors into the re-embedded store."""
    db, ids = _store_with_memories(tmp_path / "m.db")
    running = MemoryStore(Database(tmp_path / "m.db"), _embedder(64, "model-a"))
    running.knn(_embedder(64, "model-a").embed(["Porto"])[0], 1)  # has read the store

    reindex(db, _embedder(64, "model-b"))  # another memchat, same size, another model

    with pytest.raises(MemchatError, match="re-embedded this database with model-b"):
        running.knn(_embedder(64, "model-a").embed(["Porto"])[0], 1)
    with pytest.raises(MemchatError, match="restart memchat"):
        running.add(MemoryDraft(kind="fact", content="The user started climbing"))
    with pytest.raises(MemchatError, match="re-embedded"):
        running.edit(ids[0], "The user lives in Braga")
    assert MemoryStore(db, _embedder(64, "model-b")).check_integrity() == []
