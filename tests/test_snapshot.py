"""A turn's snapshot round-trips: recorded in the database, exported, parsed, equal to the turn."""

import json

import pytest
from helpers import fake_conversation

from memchat.cli.main import main
from memchat.pipeline.export import export, to_markdown
from memchat.pipeline.snapshot import load
from memchat.types import MemchatError, PromptAssembled, RecallDone


def test_export_json_round_trips_the_turn(tmp_path):
    conv = fake_conversation(tmp_path, ("Noted!", "Pixel, of course."))
    conv.run_turn("My dog is called Pixel.")
    conv.wait()
    events = []
    finished = conv.run_turn("What is my dog called?", events.append)
    conv.wait()
    assembled = next(e for e in events if isinstance(e, PromptAssembled))
    recalled = next(e for e in events if isinstance(e, RecallDone))

    path = export(conv.services.db, "test", None, "json", tmp_path / "snap.json")
    data = json.loads(path.read_text())
    assert data["turn"] == finished.turn == 2
    assert data["messages"] == [{"role": m.role, "content": m.content} for m in assembled.messages]
    assert data["budget"]["prompt_tokens"] == assembled.budget.prompt_tokens == finished.tokens_in
    assert [b["name"] for b in data["budget"]["blocks"]] == [b.name for b in assembled.budget.blocks]
    assert [c["id"] for c in data["candidates"]] == [c.memory.id for c in recalled.candidates]
    assert data["candidates"][0]["signals"].keys() == {"similarity", "keyword", "date", "slot", "recency", "importance", "pinned"}
    assert data["reply"] == "Pixel, of course." and data["tokens"]["out"] == finished.tokens_out
    assert data["model"]["name"] == "fake-engine" and len(data["model"]["sha256"]) == 64
    assert data["sampling"]["seed"] == 42
    assert set(data["timings_ms"]) >= {"recall_ms", "assemble_ms", "first_token_ms", "generation_ms", "extraction_ms"}

    first = json.loads(export(conv.services.db, "test", 1, "json", tmp_path / "one.json").read_text())
    assert first["memory_writes"][0]["action"] == "added"


def test_markdown_is_for_people(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("From now on answer in French.")
    conv.wait()
    text = to_markdown(json.loads(export(conv.services.db, None, None, "json", tmp_path / "s.json").read_text()))
    for heading in ("## Budget", "## Recall candidates", "## Memory writes", "## Notes", "## Messages sent to the model"):
        assert heading in text
    assert "From now on answer in French." in text


def test_cli_snapshot_writes_to_the_data_dir_and_prints_the_path(tmp_path, capsys):
    conv = fake_conversation(tmp_path)
    conv.run_turn("hello")
    conv.wait()
    assert main(["snapshot", "--db", str(tmp_path / "memchat.db"), "--format", "md"]) == 0
    written = capsys.readouterr().out.strip()
    assert written.endswith(".md") and "snapshots" in written
    assert "# memchat turn 1" in open(written, encoding="utf-8").read()


def test_unknown_turn_is_a_clear_error(tmp_path):
    conv = fake_conversation(tmp_path)
    conv.run_turn("hello")
    with pytest.raises(MemchatError, match="no recorded turn 9"):
        export(conv.services.db, "test", 9, "json", None)


def test_purge_scrubs_the_memory_from_recorded_snapshots_and_ids_are_never_reused(tmp_path):
    conv = fake_conversation(tmp_path, ("ok", "It is Pixel."))
    conv.run_turn("My dog is called Pixel.")
    conv.wait()
    conv.run_turn("What is my dog called?")
    conv.wait()
    memory = conv.services.memories.list_items()[0]
    assert conv.services.memories.purge(memory.id).snapshots >= 1
    for row in conv.services.db.rows("SELECT snapshot FROM turns"):
        assert memory.content not in row["snapshot"]
    assert f"[purged memory #{memory.id}]" in json.dumps(load(conv.services.db, conv.session.id, 2), ensure_ascii=False)
    conv.run_turn("My cat is called Miso.")
    conv.wait()
    assert min(m.id for m in conv.services.memories.list_items()) > memory.id


def test_the_model_name_and_hash_are_recorded_as_they_are():
    from memchat.pipeline.snapshot import _redacted

    record = {"model": {"name": "smollm2-135m-instruct", "sha256": "9f3c" * 16, "embedder": "all-minilm-l6-v2"},
              "messages": [{"role": "user", "content": "my password is hunter2hunter2"}], "reply": "ok",
              "summary": "api key sk-ant-api03-" + "a" * 40}
    clean = _redacted(record)
    assert clean["model"] == record["model"]  # memchat wrote these: not secrets, however random a hash looks
    assert "hunter2hunter2" not in str(clean["messages"]) and "sk-ant" not in clean["summary"]


def test_an_export_shows_the_names_memchat_gave_and_its_candidate_table_lines_up(tmp_path):
    """Found by a user trial (round 26): a default session name and the model's name and hash were exported as
    "[secret: key]" (long tokens of letters and digits), and the candidate table had ten headings over twelve cells."""
    from helpers import fake_services

    from memchat.pipeline.factory import open_conversation

    services = fake_services(tmp_path, ("Noted!", "Pixel."))
    services.engine.name = "smollm2-135m-instruct"
    conv = open_conversation(services, "chat-20261204-183516")
    conv.run_turn("My dog is called Pixel.")
    conv.wait()
    conv.run_turn("What is my dog called?")
    conv.wait()
    text = to_markdown(load(services.db, conv.session.id, None))
    assert "# memchat turn 2 of session chat-20261204-183516" in text
    assert "- model: `smollm2-135m-instruct` (sha256 `" in text and "[secret" not in text
    table = text.split("## Recall candidates")[1].split("## Memory writes")[0].strip().splitlines()
    cells = [line.count(" | ") for line in table if line.startswith("| ")]
    assert len(cells) >= 2 and len(set(cells)) == 1  # the heading and every row: the same number of cells
    assert "| date | slot |" in table[0]
