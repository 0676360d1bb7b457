import json
from datetime import datetime

import pytest
from helpers import fake_services

from memchat.pipeline.importer import import_transcript
from memchat.types import MemchatError


def write(path, lines):
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) if isinstance(x, dict) else x for x in lines) + "\n")
    return path


LINES = [
    {"session": "s1", "role": "user", "content": "I live in Lisbon.", "ts": "2026-01-05T09:00:00"},
    {"session": "s1", "role": "assistant", "content": "Nice city!", "ts": "2026-01-05T09:00:05"},
    {"session": "s2", "role": "user", "content": "thanks!", "ts": "2026-01-06T09:00:00"},
    {"session": "s2", "role": "user", "content": "I moved to Porto. From now on answer briefly.", "ts": "2026-02-01T10:00:00"},
]


def test_import_runs_the_live_write_path_with_the_transcript_times(tmp_path):
    services = fake_services(tmp_path)
    report = import_transcript(services, write(tmp_path / "t.jsonl", LINES))
    assert report.messages == 4 and report.sessions == {"s1", "s2"}
    assert report.counts() == {"added": 3, "skipped": 1, "superseded": 1}  # the move is also an event
    porto = next(m for m in services.memories.list_items() if "Porto" in m.content and m.attribute == "home")
    assert porto.created_at == datetime.fromisoformat("2026-02-01T10:00:00").timestamp()
    lisbon = next(m for m in services.memories.list_items(statuses=("superseded",)))
    assert lisbon.superseded_by == porto.id
    s2 = services.sessions.by_name("s2")
    assert [n.text for n in services.sessions.notes(s2.id)] == ["From now on answer briefly."]


@pytest.mark.parametrize(
    ("bad", "message"),
    [("{not json", "line 3: not valid JSON"),
     ({"session": "s1", "role": "bot", "content": "x", "ts": "2026-01-05T09:00:00"}, "line 3: role"),
     ({"session": "s1", "role": "user", "content": "x", "ts": "yesterday"}, "line 3: 'ts'"),
     ({"session": "s1", "role": "user", "ts": "2026-01-05T09:00:00"}, "line 3: 'content'")],
)
def test_a_malformed_line_imports_nothing(tmp_path, bad, message):
    services = fake_services(tmp_path)
    with pytest.raises(MemchatError, match=message):
        import_transcript(services, write(tmp_path / "t.jsonl", [*LINES[:2], bad, LINES[3]]))
    assert services.db.scalar("SELECT COUNT(*) FROM messages") == 0
    assert services.memories.count() == 0


def test_a_forget_request_in_imported_chats_that_matched_nothing_is_reported_with_what_is_close(tmp_path):
    from memchat.cli.transfer_cmds import summary_lines
    from memchat.pipeline.importer import import_file

    services = fake_services(tmp_path)
    report = import_file(services, write(tmp_path / "t.jsonl", [
        {"session": "a", "role": "user", "content": "My sister Clara just got engaged to a guy called Pete.",
         "ts": "2026-03-01T10:00:00"},
        {"session": "b", "role": "user", "content": "Please forget what I told you about Clara's wedding plans.",
         "ts": "2026-03-05T10:00:00"},
        {"session": "b", "role": "user", "content": "Forget that I live in Lisbon.", "ts": "2026-03-05T10:01:00"},
    ]))
    assert report.unmatched_forgets == ["Clara's wedding plans", "I live in Lisbon"]  # never said: nothing to forget
    offers = report.forget_offers["Clara's wedding plans"]
    assert offers and any("engaged" in m.content for m in offers)
    assert any("engaged" in m.content for m in services.memories.list_items())  # nothing went by itself
    lines = summary_lines(report, 1.0)
    assert any("matched nothing, so nothing was forgotten: \"Clara's wedding plans\"" in line for line in lines)
    assert any(line.startswith("  #") and "engaged" in line for line in lines)
    assert report.summary()["unmatched_forget_requests"][0]["topic"] == "Clara's wedding plans"
