"""The store keeps rows, FTS entries and vectors in step through every write."""

import random

import pytest

from memchat.engine.fake import FakeEmbedder
from memchat.memory.items import MemoryStore
from memchat.memory.store import Database
from memchat.types import MemchatError, MemoryDraft


@pytest.fixture
def store(tmp_path):
    return MemoryStore(Database(tmp_path / "m.db"), FakeEmbedder())


def draft(text, attribute="", kind="fact"):
    return MemoryDraft(kind=kind, content=text, attribute=attribute)


def test_add_indexes_text_and_vector(store):
    memory = store.add(draft("The user lives in Lisbon.", "home_city"))
    assert [i for i, _ in store.keyword("Lisbon", 5)] == [memory.id]
    nearest, similarity = store.knn(store.embedder.embed(["lives in Lisbon"])[0], 1)[0]
    assert nearest == memory.id and similarity > 0.5


def test_chinese_keyword_search_matches_two_character_words(store):
    cilantro = store.add(draft("用户不吃香菜。", "diet", "preference"))
    store.add(draft("用户住在上海。", "home_city"))
    assert [i for i, _ in store.keyword("香菜", 5)] == [cilantro.id]
    assert [i for i, _ in store.keyword("我吃香菜吗", 5)][0] == cilantro.id


def test_edit_reembeds_and_reindexes(store):
    memory = store.add(draft("The user drinks green tea."))
    store.edit(memory.id, "The user drinks black coffee.")
    assert store.keyword("tea", 5) == []
    assert [i for i, _ in store.keyword("coffee", 5)] == [memory.id]
    assert store.knn(store.embedder.embed(["black coffee"])[0], 1)[0][0] == memory.id
    assert store.check_integrity() == []


def test_an_edit_that_changes_the_date_said_changes_the_date_stored(store):
    from datetime import datetime

    from memchat.memory.timeexpr import first_time

    said = datetime(2026, 4, 27, 10, 0).timestamp()  # a Monday
    when = first_time("The user's op is on Friday.", said)
    memory = store.add(MemoryDraft(kind="event", content="The user's op is on Friday.", event_at=when.at.timestamp(),
                                   event_text=when.expression, event_grain=when.grain), now=said)
    moved = store.edit(memory.id, "The user's op is on Thursday.", said_at=said)  # what is left of a telling
    assert (moved.event_text, datetime.fromtimestamp(moved.event_at).date().isoformat()) == ("on Thursday", "2026-04-30")
    edited = store.edit(memory.id, "The user's op is on Friday.")  # by hand: the Friday after the edit
    assert edited.event_at == first_time("The user's op is on Friday.", edited.updated_at).at.timestamp()
    undated = store.edit(memory.id, "The user's op went well.")
    assert (undated.event_at, undated.event_text, undated.event_grain) == (None, "", "")
    kept = store.add(MemoryDraft(kind="event", content="It was amazing.", event_at=said, event_text="last week",
                                 event_grain="week"), now=said)  # a date from the sentence it leans on stays
    assert store.edit(kept.id, "It was wonderful.").event_text == "last week"


def test_purge_removes_row_fts_entry_and_vector(store):
    memory = store.add(draft("The user owns a red bicycle."))
    store.purge(memory.id)
    assert store.get(memory.id) is None
    assert store.keyword("bicycle", 5) == []
    assert store.db.scalar("SELECT COUNT(*) FROM memories_vec") == 0
    assert store.check_integrity() == []


def test_random_writes_never_drift(store):
    rng = random.Random(7)
    ids = []
    for step in range(200):
        op = rng.random()
        if op < 0.5 or not ids:
            ids.append(store.add(draft(f"fact number {step} about topic {rng.randint(0, 20)}")).id)
        elif op < 0.7:
            store.edit(rng.choice(ids), f"edited fact {step}")
        elif op < 0.85:
            victim = ids.pop(rng.randrange(len(ids)))
            store.purge(victim)
        else:
            store.set_status(rng.choice(ids), rng.choice(["deleted", "archived", "active"]))
    assert store.check_integrity() == []
    assert store.db.scalar("SELECT COUNT(*) FROM memories") == len(ids)


def test_integrity_check_detects_drift(store):
    memory = store.add(draft("The user plays chess."))
    store.db.execute("DELETE FROM memories_vec WHERE rowid = ?", (memory.id,))
    assert store.check_integrity()


def test_history_follows_the_supersession_chain(store):
    first = store.add(draft("The user lives in Lisbon.", "home_city"))
    second = store.add(draft("The user lives in Porto.", "home_city"))
    third = store.add(draft("The user lives in Braga.", "home_city"))
    store.set_status(first.id, "superseded", superseded_by=second.id)
    store.set_status(second.id, "superseded", superseded_by=third.id)
    assert [m.id for m in store.history(second.id)] == [first.id, second.id, third.id]


def test_bad_input_is_a_clear_error(store):
    with pytest.raises(MemchatError, match="kind"):
        store.add(MemoryDraft(kind="opinion", content="x"))
    with pytest.raises(MemchatError, match="some text"):
        store.add(draft("   "))
    with pytest.raises(MemchatError, match="no memory with id"):
        store.pin(999)


def test_a_change_from_another_thread_survives_a_rolled_back_transaction(store):
    import threading

    memory = store.add(draft("The user likes tea."))
    inside, done = threading.Event(), threading.Event()

    def background_write_that_fails():
        try:
            with store.db.transaction():
                store.db.execute("UPDATE memories SET importance = 0.99 WHERE id = ?", (memory.id,))
                inside.set()
                done.wait(5)
                raise RuntimeError("extraction failed")
        except RuntimeError:
            pass

    worker = threading.Thread(target=background_write_that_fails)
    worker.start()
    inside.wait(5)
    pinner = threading.Thread(target=lambda: store.pin(memory.id))
    pinner.start()
    done.set()
    worker.join(5)
    pinner.join(15)
    again = store.require(memory.id)
    assert again.pinned
    assert again.importance == 0.5
