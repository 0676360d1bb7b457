"""No lost work: the extraction queue, one-transaction writes, short write locks, resumable imports.

Fast tests on a real SQLite file (sqlite-vec loaded) with the scripted engine; the kill -9 and
many-process tests with the real engine are in test_reliability.py.
"""

import json
import threading
import time

import pytest
from helpers import fake_conversation, fake_services

from memchat.memory import store as store_module
from memchat.memory.items import MemoryStore
from memchat.memory.store import Database
from memchat.pipeline import extraction
from memchat.pipeline.importer import import_transcript
from memchat.types import MemchatError


def _stored_user_message(services, text, session="s"):
    """A user message as a turn killed right after storing it leaves it: pending extraction."""
    session_id = services.sessions.open(session).id
    return services.sessions.add_message(session_id, "user", text)


def _typed(services):
    return [m for m in services.memories.list_items(statuses=("active",)) if not m.is_episode]


# ---- the queue ---------------------------------------------------------------------------
def test_a_stored_user_message_waits_in_the_queue_until_it_is_extracted(tmp_path):
    services = fake_services(tmp_path)
    message = _stored_user_message(services, "My sister Ana lives in Porto.")
    assert [m.id for m in services.sessions.pending_extraction()] == [message.id]
    assert extraction.drain(services) == 1
    assert services.sessions.pending_count() == 0
    assert any("Porto" in m.content for m in _typed(services))
    assert extraction.drain(services) == 0  # done means done: not extracted twice


def test_assistant_messages_are_never_queued(tmp_path):
    services = fake_services(tmp_path)
    session_id = services.sessions.open("s").id
    services.sessions.add_message(session_id, "assistant", "I live in Lisbon.")
    assert services.sessions.pending_count() == 0


def test_two_processes_reaching_one_message_write_its_memories_once(tmp_path):
    services = fake_services(tmp_path)
    message = _stored_user_message(services, "I work as a pharmacist in Leeds.")
    extraction.extract(services, message)
    before = services.memories.count(episodes=True) + services.memories.count()
    outcomes, failures = extraction.extract(services, message)  # the second one loses the claim
    assert (outcomes, failures) == ([], [])
    assert services.memories.count(episodes=True) + services.memories.count() == before


def test_a_write_that_fails_half_way_leaves_nothing_and_the_message_still_queued(tmp_path, monkeypatch):
    services = fake_services(tmp_path)
    message = _stored_user_message(services, "My dog is called Pixel. I work as a nurse.")
    real_add, calls = MemoryStore.add, []

    def add_then_fail(self, draft, now=None, status="active"):
        calls.append(draft.content)
        if len(calls) == 3:
            raise OSError("disk full")
        return real_add(self, draft, now, status)

    monkeypatch.setattr(MemoryStore, "add", add_then_fail)
    with pytest.raises(OSError):
        services.writer.process(message.content, session_id=message.session_id, message_id=message.id,
                                claim=lambda: services.sessions.claim_extraction(message.id))
    assert len(calls) == 3
    assert services.memories.count(episodes=True) == 0 and services.memories.count() == 0
    assert services.sessions.pending_count() == 1  # the mark rolled back with the rows
    monkeypatch.setattr(MemoryStore, "add", real_add)
    assert extraction.drain(services) == 1
    assert {"Pixel", "nurse"} <= {w for m in _typed(services) for w in m.content.replace(".", "").split()}


def test_a_failing_extraction_is_recorded_and_not_retried_forever(tmp_path, monkeypatch):
    services = fake_services(tmp_path)
    _stored_user_message(services, "I moved to Porto last year.")

    def broken(*args, **kwargs):
        raise ValueError("rules crashed")

    monkeypatch.setattr(services.writer, "process", broken)
    assert extraction.drain(services) == 1
    assert services.sessions.pending_count() == 0
    errors = services.db.rows("SELECT error FROM extraction_failures")
    assert errors and "rules crashed" in errors[0]["error"]


def test_a_supersession_is_one_transaction(tmp_path, monkeypatch):
    services = fake_services(tmp_path)
    services.writer.process("I live in Lisbon.", session_id=None, message_id=None)
    old = [m for m in _typed(services) if "Lisbon" in m.content]
    assert old
    real = MemoryStore.set_status

    def fail_on_retire(self, memory_id, status, superseded_by=None):
        if status == "superseded":
            raise OSError("crash between the two writes")
        return real(self, memory_id, status, superseded_by)

    monkeypatch.setattr(MemoryStore, "set_status", fail_on_retire)
    with pytest.raises(OSError):
        services.writer.process("Actually I moved, I live in Porto now.", session_id=None, message_id=None)
    active = _typed(services)
    assert [m.id for m in active if "Lisbon" in m.content] == [old[0].id]
    assert not [m for m in active if "Porto" in m.content]  # the new fact went with the failed retirement


# ---- a turn --------------------------------------------------------------------------------
def test_a_turn_extracts_its_own_message_and_leaves_the_queue_empty(tmp_path):
    conversation = fake_conversation(tmp_path, ("Noted.",))
    conversation.run_turn("My brother Rui is a chef.")
    conversation.wait()
    assert conversation.pending_extraction() == 0
    assert any("Rui" in m.content for m in _typed(conversation.services))


def test_the_next_turn_extracts_what_a_killed_turn_left_in_its_session(tmp_path):
    conversation = fake_conversation(tmp_path, ("Noted.",))
    _stored_user_message(conversation.services, "I play the cello.", session="test")
    conversation.services.sessions.add_message(conversation.session.id, "assistant", "Lovely.")
    conversation.run_turn("What a day.")
    conversation.wait()
    assert conversation.pending_extraction() == 0
    assert any("cello" in m.content for m in _typed(conversation.services))


def test_resume_pending_reports_progress_down_to_zero(tmp_path):
    conversation = fake_conversation(tmp_path)
    for text in ("I live in Porto.", "My cat is called Miso.", "I work as a vet."):
        _stored_user_message(conversation.services, text, session="other")
    seen: list[int] = []
    assert conversation.resume_pending(seen.append)
    conversation.wait()
    assert seen[-1] == 0 and seen[0] == 2
    assert not conversation.resume_pending(seen.append)  # nothing left


def test_a_reply_stopped_before_its_first_token_stores_nothing(tmp_path):
    conversation = fake_conversation(tmp_path, ("A reply that never starts.",))
    with pytest.raises(MemchatError, match="stopped before the reply began"):
        conversation.run_turn("Tell me about Mars.", should_stop=lambda: True)
    assert conversation.history() == []  # no empty reply to send the model later, no orphan question


def test_a_message_that_got_no_reply_is_offered_again_and_not_stored_twice(tmp_path):
    conversation = fake_conversation(tmp_path, ("Mars is the fourth planet.",))
    killed = _stored_user_message(conversation.services, "Tell me about Mars.", session="test")
    assert conversation.unanswered().id == killed.id
    conversation.run_turn("Tell me about Mars.")
    conversation.wait()
    roles = [(m.role, m.content) for m in conversation.history()]
    assert roles == [("user", "Tell me about Mars."), ("assistant", "Mars is the fourth planet.")]
    assert conversation.unanswered() is None


# ---- many writers ----------------------------------------------------------------------------
def test_a_second_writer_waits_for_the_first_instead_of_failing(tmp_path):
    path = tmp_path / "shared.db"
    first, second = Database(path), Database(path)
    holding = threading.Event()

    def hold_the_lock():
        with first.transaction():
            first.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
            holding.set()
            time.sleep(0.6)

    thread = threading.Thread(target=hold_the_lock)
    thread.start()
    holding.wait()
    started = time.monotonic()
    with second.transaction():
        second.execute("INSERT INTO meta (key, value) VALUES ('b', '2')")
    thread.join()
    assert time.monotonic() - started >= 0.3  # it waited for the lock…
    assert {r["key"] for r in second.rows("SELECT key FROM meta WHERE key IN ('a', 'b')")} == {"a", "b"}  # …and both landed


def test_a_writer_that_cannot_get_the_lock_gets_a_clear_error(tmp_path, monkeypatch):
    path = tmp_path / "shared.db"
    first, second = Database(path), Database(path)
    second.conn.set_busy_timeout(50)
    monkeypatch.setattr(store_module, "BUSY_WAIT", 0.3)
    with first.transaction():
        first.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        with pytest.raises(MemchatError, match="busy"):
            with second.transaction():
                second.execute("INSERT INTO meta (key, value) VALUES ('b', '2')")
    assert second.scalar("SELECT value FROM meta WHERE key = 'b'") is None


def test_sessions_created_at_the_same_second_by_two_processes_get_different_names(tmp_path):
    path = tmp_path / "shared.db"
    services = [fake_services(tmp_path) for _ in range(2)]
    assert services[0].db.path == services[1].db.path == str(path.parent / "memchat.db")
    made: list[str] = []
    barrier = threading.Barrier(2)

    def create(s):
        barrier.wait()
        made.append(s.sessions.create(now=1_700_000_000).name)

    threads = [threading.Thread(target=create, args=(s,)) for s in services]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(made)) == 2


# ---- imports --------------------------------------------------------------------------------
def _transcript(path, lines):
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")


LINES = [
    {"session": "trip", "role": "user", "content": f"Day {i}: I visited museum number {i} in Porto.",
     "ts": f"2026-03-{i + 1:02d}T10:00:00"}
    for i in range(12)
] + [{"session": "trip", "role": "assistant", "content": "Sounds lovely.", "ts": "2026-03-20T10:00:01"}]


def test_an_import_interrupted_half_way_resumes_without_duplicates(tmp_path, monkeypatch):
    services = fake_services(tmp_path)
    source = tmp_path / "t.jsonl"
    _transcript(source, LINES)
    real_extract, calls = extraction.extract, []

    def killed_after_five(*args, **kwargs):
        calls.append(1)
        if len(calls) > 5:
            raise KeyboardInterrupt  # the person pressed Ctrl+C (or the machine died) mid-import
        return real_extract(*args, **kwargs)

    monkeypatch.setattr(extraction, "extract", killed_after_five)
    with pytest.raises(KeyboardInterrupt):
        import_transcript(services, source)
    stored = services.db.scalar("SELECT COUNT(*) FROM messages")
    assert stored == 6 and services.sessions.pending_count() == 1  # kept what it stored; one was mid-extraction
    monkeypatch.setattr(extraction, "extract", real_extract)
    report = import_transcript(services, source)
    assert report.skipped == 6 and report.messages == len(LINES) - 6
    contents = [r["content"] for r in services.db.rows("SELECT content FROM messages ORDER BY id")]
    assert sorted(contents) == sorted(line["content"] for line in LINES)
    assert services.sessions.pending_count() == 0
    again = import_transcript(services, source)
    assert (again.messages, again.skipped) == (0, len(LINES))
