"""Importing other assistants' exports (issue 12, part 3), with the scripted fake engine.

ChatGPT: the current branch of each message tree, titles, times, what is left out; the export
.zip read in memory. Claude: text blocks, senders, times. Format detection and clear errors.
One transaction per conversation (a failure leaves none of it), resume after an interruption
without duplicates, re-runs skip what is done.
"""

from __future__ import annotations

import itertools
import json
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import fake_services

from memchat.pipeline import extraction
from memchat.pipeline.import_formats import session_name_for
from memchat.pipeline.importer import import_file
from memchat.types import MemchatError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from make_chatgpt_export import make_export, write_export

T0 = 1_700_000_000.0


def node(node_id, parent, role=None, parts=None, *, ts=None, content_type="text", recipient="all", hidden=False,
         children=()):
    message = None
    if role is not None:
        message = {"id": node_id, "author": {"role": role}, "create_time": ts,
                   "content": {"content_type": content_type, "parts": parts},
                   "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {},
                   "recipient": recipient}
    return node_id, {"id": node_id, "message": message, "parent": parent, "children": list(children)}


def chatgpt_conversation(conversation_id="c0ffee11-aaaa", title="Moving to Porto", current="a2"):
    """root → system → u1 → (a1 old | a1b regenerated) ; u1 → a1b → u2-edited (current) vs u2 (old) …"""
    nodes = dict([
        node("root", None, children=["sys"]),
        node("sys", "root", "system", [""], ts=T0, hidden=True, children=["u1"]),
        node("u1", "sys", "user", ["I live in Lisbon."], ts=T0 + 10, children=["a1", "a1b"]),
        node("a1", "u1", "assistant", ["first attempt, replaced"], ts=T0 + 11),
        node("a1b", "u1", "assistant", ["Lisbon is lovely."], ts=T0 + 12, children=["u2", "u2e"]),
        node("u2", "a1b", "user", ["I moved to Braga."], ts=T0 + 20, children=["a2old"]),
        node("a2old", "u2", "assistant", ["old branch"], ts=T0 + 21),
        node("u2e", "a1b", "user", [{"content_type": "image_asset_pointer", "asset_pointer": "file://x"},
                                    "I moved to Porto last month."], ts=T0 + 30, content_type="multimodal_text",
             children=["call"]),
        node("call", "u2e", "assistant", ["search('porto')"], ts=T0 + 31, content_type="code", recipient="browser",
             children=["tool"]),
        node("tool", "call", "tool", ["results"], ts=T0 + 32, content_type="execution_output", children=["empty"]),
        node("empty", "tool", "assistant", [""], ts=T0 + 33, children=["a2"]),
        node("a2", "empty", "assistant", ["Porto suits you."], ts=None),
    ])
    return {"title": title, "create_time": T0, "update_time": T0 + 40, "mapping": nodes, "current_node": current,
            "conversation_id": conversation_id, "id": conversation_id}


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def messages_of(services, session_name):
    session = services.sessions.by_name(session_name)
    assert session is not None, [s.name for s in services.sessions.all()]
    return [(m.role, m.content, m.created_at) for m in services.sessions.messages(session.id)]


# ---- ChatGPT ------------------------------------------------------------------------------------
def test_chatgpt_follows_the_current_branch_and_leaves_out_what_was_not_talk(tmp_path):
    services = fake_services(tmp_path)
    report = import_file(services, write_json(tmp_path / "conversations.json", [chatgpt_conversation()]))
    assert report.kind == "chatgpt" and report.conversations == 1
    assert messages_of(services, "Moving to Porto (c0ffee)") == [
        ("user", "I live in Lisbon.", T0 + 10),
        ("assistant", "Lisbon is lovely.", T0 + 12),  # the regenerated reply, not the first attempt
        ("user", "I moved to Porto last month.", T0 + 30),  # the edited message, not the old branch's
        ("assistant", "Porto suits you.", T0 + 30),  # no time of its own: the one before it
    ]
    assert report.left_out == {"system or tool message": 2, "image_asset_pointer part": 1, "call to a tool": 1,
                               "empty message": 1}
    porto = next(m for m in services.memories.list_items() if "Porto" in m.content and m.attribute == "home")
    assert porto.created_at == T0 + 30  # the message's own time, through the live write path
    lisbon = next(m for m in services.memories.list_items(statuses=("superseded",)) if "Lisbon" in m.content)
    assert lisbon.superseded_by == porto.id


def test_chatgpt_export_zip_is_read_in_memory(tmp_path):
    services = fake_services(tmp_path)
    archive = tmp_path / "export.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("chat.html", "<html></html>")
        z.writestr("conversations.json", json.dumps([chatgpt_conversation()]))
    report = import_file(services, archive)
    assert report.conversations == 1 and report.messages == 4
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".json") == []  # nothing extracted to disk


def test_hidden_messages_voice_transcripts_and_missing_titles(tmp_path):
    services = fake_services(tmp_path)
    nodes = dict([
        node("r", None, children=["ci"]),
        node("ci", "r", "user", ["Always answer in French."], ts=T0, content_type="user_editable_context",
             hidden=True, children=["v"]),
        node("v", "ci", "user", [{"content_type": "audio_transcription", "text": "My cat is called Miso."},
                                 {"content_type": "audio_asset_pointer"}], ts=T0 + 5,
             content_type="multimodal_text"),
    ])
    conversation = {"title": None, "create_time": None, "mapping": nodes, "current_node": "v", "id": "9f8e7d6c"}
    report = import_file(services, write_json(tmp_path / "c.json", [conversation]))
    assert messages_of(services, "Untitled (9f8e7d)") == [("user", "My cat is called Miso.", T0 + 5)]
    assert report.left_out == {"hidden message": 1, "audio_asset_pointer part": 1}


def test_session_names_from_titles_are_valid_short_and_unique(tmp_path):
    assert session_name_for("Plans / ideas\n\tfor 2026", "abc-123-def") == "Plans - ideas for 2026 (abc123)"
    long = session_name_for("x" * 300, "0123456789")
    assert len(long) <= 100 and long.endswith("(012345)")
    services = fake_services(tmp_path)
    services.sessions.create("Moving to Porto (c0ffee)")  # a session of that name already exists
    import_file(services, write_json(tmp_path / "c.json", [chatgpt_conversation()]))
    assert services.sessions.by_name("Moving to Porto (c0ffee)-2") is not None


def test_a_broken_conversation_is_named_and_nothing_is_imported(tmp_path):
    services = fake_services(tmp_path)
    broken = chatgpt_conversation("dead-beef", "Broken one")
    del broken["mapping"]["a1b"]  # the current branch runs through a node that is not there
    source = write_json(tmp_path / "c.json", [chatgpt_conversation(), broken])
    with pytest.raises(MemchatError, match=r"conversation 2 “Broken one” \(dead-beef\): node 'a1b' is missing") as err:
        import_file(services, source)
    assert "nothing was imported" in err.value.hint and "--skip-bad" in err.value.hint
    assert services.db.scalar("SELECT COUNT(*) FROM messages") == 0 and services.sessions.all() == []

    report = import_file(services, source, skip_bad=True)  # the readable ones, and the others listed
    assert report.conversations == 1 and len(report.bad) == 1 and "Broken one" in report.bad[0]


@pytest.mark.parametrize(("content", "says"), [
    (b"", "is empty"),
    (b"hello there", "not a format memchat can import"),
    (b"[]", "holds no conversations"),
    (b'[{"foo": 1}]', "not of ChatGPT or Claude conversations"),
    (b'[{"mapping": {}, "id": "x"', "line 1: not valid JSON"),
])
def test_files_that_are_no_known_format_are_one_clear_error(tmp_path, content, says):
    services = fake_services(tmp_path)
    path = tmp_path / "conversations.json"
    path.write_bytes(content)
    with pytest.raises(MemchatError, match=says):
        import_file(services, path)


def test_a_zip_without_conversations_is_refused(tmp_path):
    archive = tmp_path / "x.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("other.txt", "hi")
    with pytest.raises(MemchatError, match="holds no conversations.json"):
        import_file(fake_services(tmp_path), archive)


# ---- Claude -------------------------------------------------------------------------------------
def claude_conversation(uuid="5a6b7c8d-1111", name="Dog names"):
    return {
        "uuid": uuid, "name": name, "created_at": "2024-03-01T12:00:00.000000Z", "updated_at": "2024-03-01T13:00:00Z",
        "chat_messages": [
            {"uuid": "m1", "sender": "human", "text": "My dog is called Pixel.", "content": [
                {"type": "text", "text": "My dog is called Pixel."}], "created_at": "2024-03-01T12:00:05Z",
             "attachments": [{"file_name": "a.txt", "extracted_content": "x"}], "files": []},
            {"uuid": "m2", "sender": "assistant", "text": "", "content": [
                {"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "Pixel is a great name."},
                {"type": "tool_use", "name": "search", "input": {}}], "created_at": "2024-03-01T12:00:09Z"},
            {"uuid": "m3", "sender": "human", "text": "I work as a nurse.", "created_at": "2024-03-01T12:01:00Z"},
            {"uuid": "m4", "sender": "assistant", "text": "", "content": [], "created_at": "2024-03-01T12:01:02Z"},
        ],
    }


def test_claude_export_text_blocks_senders_and_times(tmp_path):
    services = fake_services(tmp_path)
    report = import_file(services, write_json(tmp_path / "conversations.json", [claude_conversation()]))
    assert report.kind == "claude" and report.conversations == 1
    at = 1_709_294_400.0  # 2024-03-01T12:00:00Z
    assert messages_of(services, "Dog names (5a6b7c)") == [
        ("user", "My dog is called Pixel.", at + 5),
        ("assistant", "Pixel is a great name.", at + 9),
        ("user", "I work as a nurse.", at + 60),
    ]
    assert report.left_out == {"attachments": 1, "thinking block": 1, "tool_use block": 1, "empty message": 1}
    assert any("Pixel" in m.content for m in services.memories.list_items())  # through the write path


def test_claude_branches_follow_the_current_leaf(tmp_path):
    services = fake_services(tmp_path)
    root = "00000000-0000-4000-8000-000000000000"
    conversation = {"uuid": "b1", "name": "Edits", "created_at": "2024-03-01T12:00:00Z",
                    "current_leaf_message_uuid": "a2", "chat_messages": [
                        {"uuid": "u1", "parent_message_uuid": root, "sender": "human", "text": "I live in Oslo.",
                         "created_at": "2024-03-01T12:00:01Z"},
                        {"uuid": "a1", "parent_message_uuid": "u1", "sender": "assistant", "text": "Nice.",
                         "created_at": "2024-03-01T12:00:02Z"},
                        {"uuid": "a2", "parent_message_uuid": "u1", "sender": "assistant", "text": "Oslo, great.",
                         "created_at": "2024-03-01T12:00:03Z"},
                    ]}
    import_file(services, write_json(tmp_path / "c.json", [conversation]))
    assert [c for _, c, _ in messages_of(services, "Edits (b1)")] == ["I live in Oslo.", "Oslo, great."]


# ---- one transaction per conversation, resume, re-runs ----------------------------------------------
def test_a_failure_mid_conversation_leaves_none_of_it_and_a_rerun_imports_it(tmp_path, monkeypatch):
    services = fake_services(tmp_path)
    source = write_export(tmp_path / "export.zip", make_export(3, 6, seed=3))
    real_add, calls = services.sessions.add_message, []

    def disk_fails_in_the_second_conversation(*args, **kwargs):
        calls.append(1)
        if len(calls) == 9:
            raise OSError("disk I/O error")
        return real_add(*args, **kwargs)

    monkeypatch.setattr(services.sessions, "add_message", disk_fails_in_the_second_conversation)
    with pytest.raises(OSError):
        import_file(services, source)
    assert services.db.scalar("SELECT COUNT(*) FROM messages") == 6  # the first conversation, whole
    assert len(services.sessions.all()) == 1
    assert services.db.scalar("SELECT COUNT(*) FROM imported_conversations") == 1
    monkeypatch.setattr(services.sessions, "add_message", real_add)
    report = import_file(services, source)
    assert (report.already, report.conversations, report.messages) == (1, 2, 12)
    assert services.db.scalar("SELECT COUNT(*) FROM messages") == 18


def test_an_import_interrupted_mid_extraction_resumes_without_duplicates(tmp_path, monkeypatch):
    services = fake_services(tmp_path)
    source = write_export(tmp_path / "conversations.json", make_export(4, 10, seed=5))
    real_extract, calls = extraction.extract, []

    def killed_after_seven(*args, **kwargs):
        calls.append(1)
        if len(calls) > 7:
            raise KeyboardInterrupt  # Ctrl+C (or a kill) while the second conversation is being extracted
        return real_extract(*args, **kwargs)

    monkeypatch.setattr(extraction, "extract", killed_after_seven)
    with pytest.raises(KeyboardInterrupt):
        import_file(services, source)
    assert services.db.scalar("SELECT COUNT(*) FROM messages") == 20  # two whole conversations
    assert services.sessions.pending_count() == 3  # the rest of the second one, queued
    monkeypatch.setattr(extraction, "extract", real_extract)
    report = import_file(services, source)
    assert (report.already, report.conversations, report.resumed) == (2, 2, 3)
    rows = services.db.rows("SELECT session_id, role, content, created_at, COUNT(*) AS n FROM messages "
                            "GROUP BY session_id, role, content, created_at")
    assert sum(r["n"] for r in rows) == 40 and all(r["n"] == 1 for r in rows)  # every message once
    assert services.sessions.pending_count() == 0
    assert services.db.scalar("SELECT COUNT(DISTINCT source_message) FROM memories") <= 20

    again = import_file(services, source)
    assert (again.already, again.conversations, again.messages) == (4, 0, 0)


def test_progress_counts_every_message_of_the_run(tmp_path):
    services = fake_services(tmp_path)
    seen = []
    import_file(services, write_export(tmp_path / "e.json", make_export(3, 4)), on_progress=seen.append)
    assert seen[0].done == 0 and seen[0].total == 12
    assert seen[-1].done == seen[-1].total == 12
    assert all(a.done <= b.done for a, b in itertools.pairwise(seen))
