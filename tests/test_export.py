"""Exports (issue 12, part 4), with the scripted fake engine: memories as JSONL and Markdown, a
session as Markdown and as the transcript JSONL `memchat import` reads, private files, secrets
and control characters handled; memories JSONL → empty database → JSONL again is identical."""

from __future__ import annotations

import json
import stat
from datetime import datetime

import pytest
from helpers import fake_services

from memchat.cli.main import main
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.pipeline import exports, factory
from memchat.pipeline.importer import import_file
from memchat.types import MemchatError, MemoryDraft

LINES = [
    {"session": "life", "role": "user", "content": "I live in Lisbon.", "ts": "2026-01-05T09:00:00+00:00"},
    {"session": "life", "role": "assistant", "content": "Nice city!", "ts": "2026-01-05T09:00:05+00:00"},
    {"session": "life", "role": "user", "content": "My dog is called Pixel. Last Friday we went hiking.",
     "ts": "2026-01-12T10:00:00+00:00"},
    {"session": "life", "role": "user", "content": "I moved to Porto.", "ts": "2026-02-01T10:00:00+00:00"},
    {"session": "life", "role": "assistant", "content": "Porto \x1b[2J is great.", "ts": "2026-02-01T10:00:03+00:00"},
    {"session": "life", "role": "user", "content": "My password is hunter2-Secret!99", "ts": "2026-02-02T10:00:00+00:00"},
]


@pytest.fixture
def lived(tmp_path):
    """A database with history: a supersession, a pin, a forgotten memory, episodes, a secret said."""
    services = fake_services(tmp_path)
    source = tmp_path / "t.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    import_file(services, source)
    dog = next(m for m in services.memories.list_items() if "Pixel" in m.content)
    services.memories.pin(dog.id)
    added = services.writer.apply(MemoryDraft(kind="preference", content="I like green tea.", attribute="drink"))
    services.memories.set_status(added.memory_id, "deleted")
    return services


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_memories_jsonl_holds_every_field_and_only_current_ones_without_all(lived):
    current = records(exports.memories_text(lived.db, "jsonl"))
    assert current[0] == {"memchat": "memories", "version": 1, "scope": "current"}
    assert {r["status"] for r in current[1:]} <= {"active", "pending"}
    assert all(r["kind"] != "episode" for r in current[1:])
    porto = next(r for r in current[1:] if "Porto" in r["content"])
    assert porto["source"] == {"session": "life", "message": 4}
    assert porto["created_at"] == "2026-02-01T10:00:00.000000+00:00"
    assert set(porto) >= {"id", "kind", "content", "subject", "attribute", "importance", "confidence", "status",
                          "pinned", "updated_at", "last_access_at", "expires_at", "event_at", "superseded_by",
                          "origin_id"}
    assert any(r["pinned"] for r in current[1:])

    everything = records(exports.memories_text(lived.db, "jsonl", everything=True))[1:]
    assert {r["status"] for r in everything} >= {"active", "superseded", "deleted"}
    lisbon = next(r for r in everything if "Lisbon" in r["content"] and r["kind"] != "episode")
    assert lisbon["status"] == "superseded" and lisbon["superseded_by"] == porto["id"]
    assert any(r["kind"] == "episode" for r in everything)
    assert not any("hunter2" in json.dumps(r) for r in everything)


def test_memories_markdown_is_readable_and_safe(lived):
    lived.memories.add(MemoryDraft(kind="fact", content="My bike is \x1b]52;c;aGk=\x07 red."))
    text = exports.memories_text(lived.db, "md", everything=True)
    assert text.startswith("# memchat memories")
    assert "## Facts" in text and "## Episodes" in text
    assert "pinned" in text and "superseded by #" in text and "from session “life”" in text
    assert "\x1b" not in text and "\x07" not in text and "␛" in text


def test_session_exports_md_and_the_transcript_jsonl_import_reads(lived, tmp_path):
    md = exports.session_text(lived.db, "life", "md")
    assert md.startswith("# life") and "### You ·" in md and "### Assistant ·" in md
    assert "\x1b" not in md and "hunter2" not in md

    path = exports.export_session(lived.db, "life", "jsonl", tmp_path / "out" / "life.jsonl")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = records(path.read_text())
    assert [(l["role"], datetime.fromisoformat(l["ts"]).timestamp()) for l in lines] == [
        (l["role"], datetime.fromisoformat(l["ts"]).timestamp()) for l in LINES]
    assert "\\u001b" in path.read_text() and "hunter2" not in path.read_text()

    again = import_file(lived, path)  # where it already is: nothing twice
    assert (again.messages, again.skipped) == (0, len(LINES))
    fresh = fake_services(tmp_path / "fresh")
    import_file(fresh, path)
    assert exports.session_text(fresh.db, "life", "jsonl") == path.read_text()


def test_unknown_session_is_a_clear_error(lived):
    with pytest.raises(MemchatError, match="no session called 'nope'"):
        exports.session_text(lived.db, "nope", "md")


def test_memories_round_trip_through_an_empty_database(lived, tmp_path):
    first = exports.export_memories(lived.db, "jsonl", everything=True, output=tmp_path / "m.jsonl")
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    fresh = fake_services(tmp_path / "fresh")
    report = import_file(fresh, first)
    assert report.kind == "memories" and report.restored == len(first.read_text().splitlines()) - 1
    second = exports.export_memories(fresh.db, "jsonl", everything=True, output=tmp_path / "m2.jsonl")
    assert second.read_text() == first.read_text()  # nothing lost: ids, links, dates, pins, sources

    assert fresh.memories.check_integrity() == []  # a vector and a keyword entry for every row
    before, after = lived.memories.list_items(statuses=("active",)), fresh.memories.list_items(statuses=("active",))
    assert [(m.id, m.content, m.pinned) for m in before] == [(m.id, m.content, m.pinned) for m in after]
    porto = next(m for m in after if "Porto" in m.content)
    assert fresh.recaller.recall("Where do I live now?", token_limit=500, count_tokens=len, touch=False).selected[
        0].memory.id == porto.id or porto.id in {i for i, _ in fresh.memories.keyword("Porto", 5)}
    assert [m.id for m in fresh.memories.history(porto.id)] == [m.id for m in lived.memories.history(porto.id)]
    new = fresh.memories.add(MemoryDraft(kind="fact", content="I play chess."))
    assert new.id > max(m.id for m in after)  # new ids never collide with the restored ones

    with pytest.raises(MemchatError, match="already holds memories"):
        import_file(fresh, first)


def test_a_bad_memories_line_names_it_and_restores_nothing(lived, tmp_path):
    path = exports.export_memories(lived.db, "jsonl", everything=True, output=tmp_path / "m.jsonl")
    lines = path.read_text().splitlines()
    broken = json.loads(lines[2])
    broken["status"] = "gone"
    path.write_text("\n".join([*lines[:2], json.dumps(broken), *lines[3:]]) + "\n")
    fresh = fake_services(tmp_path / "fresh")
    with pytest.raises(MemchatError, match="line 3: 'status' must be one of"):
        import_file(fresh, path)
    assert fresh.db.scalar("SELECT COUNT(*) FROM memories") == 0


# ---- the command line ---------------------------------------------------------------------------
@pytest.fixture
def fake_engines(monkeypatch):
    monkeypatch.setattr(factory, "load_engines",
                        lambda settings, **_: (FakeEngine(("Sure.",) * 50, n_ctx=settings.model.n_ctx), FakeEmbedder()))


def test_cli_export_and_import_commands(tmp_path, capsys, fake_engines, monkeypatch):
    db = str(tmp_path / "m.db")
    source = tmp_path / "t.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in LINES), encoding="utf-8")
    assert main(["--db", db, "import", str(source), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["format"] == "transcript" and summary["messages"] == len(LINES) and "messages_per_second" in summary

    assert main(["--db", db, "export", "memories", "--format", "md"]) == 0
    written = capsys.readouterr().out.strip()
    assert "/exports/memories-" in written and written.endswith(".md")
    assert main(["--db", db, "export", "memories", "--all", "-o", str(tmp_path / "all.jsonl")]) == 0
    capsys.readouterr()
    assert main(["--db", db, "export", "session", "life", "--format", "jsonl", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == len(LINES) and "\x1b" not in out

    assert main(["--db", str(tmp_path / "restored.db"), "import", str(tmp_path / "all.jsonl")]) == 0
    assert "restored" in capsys.readouterr().out
    assert main(["--db", db, "export", "session", "missing"]) == 2
    assert "no session called" in capsys.readouterr().err


def test_redacting_an_export_of_redacted_text_changes_nothing():
    from memchat.memory.secrets import redact

    once = redact("My password is hunter2-Secret!99, my card 4111 1111 1111 1111.")
    assert "hunter2" not in once and "4111" not in once
    assert redact(once) == once  # exports redact stored (already redacted) text again


def test_doctor_repair_keeps_what_was_imported_and_where_restored_memories_came_from(lived, tmp_path):
    from memchat.memory.recover import recover
    from memchat.memory.store import Database

    backup = exports.export_memories(lived.db, "jsonl", everything=True, output=tmp_path / "m.jsonl")
    fresh = fake_services(tmp_path / "fresh")
    import_file(fresh, backup)
    fresh.db.execute("INSERT INTO imported_conversations (source, conversation_id, session_id, title, messages, "
                     "imported_at) VALUES ('chatgpt', 'c1', NULL, 't', 0, 0)")
    fresh.db.checkpoint()
    report = recover(tmp_path / "fresh" / "memchat.db", tmp_path / "repaired.db")
    repaired = Database(report.path)
    assert repaired.scalar("SELECT COUNT(*) FROM imported_conversations") == 1
    assert repaired.scalar("SELECT COUNT(*) FROM memory_sources") == fresh.db.scalar("SELECT COUNT(*) FROM memory_sources")
    assert repaired.rows("PRAGMA foreign_key_check") == []
