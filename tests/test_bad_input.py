"""Bad input ends in one line saying what is wrong and what to do (exit code 2), or is handled —
never a traceback, a hang or a changed file. One test per input class of issue 9, then fuzzing."""

from __future__ import annotations

import errno
import gc
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memchat.cli.main import main
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.memory.sessions import SessionStore
from memchat.memory.store import Database
from memchat.pipeline import factory
from memchat.pipeline.importer import parse_lines
from memchat.session_names import check_session_name, file_safe
from memchat.terminal_text import printable, printable_json
from memchat.types import MemchatError

LINE = '{{"session": "{session}", "role": "user", "content": "{content}", "ts": "2024-03-01T10:00:00"}}\n'


@pytest.fixture(autouse=True)
def fake_engines(monkeypatch):
    """Every command builds its services with the scripted fake engine, not the real model."""
    monkeypatch.setattr(factory, "load_engines",
                        lambda settings, **_: (FakeEngine(("Sure.",) * 50, n_ctx=settings.model.n_ctx), FakeEmbedder()))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """`memchat argv` in process: (exit code, stdout, stderr). argparse's own errors exit 2 too."""
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str, says: str) -> str:
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert "Traceback" not in err and "error:" in err and says in err, err
    return err


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path, capsys) -> Path:
    """A memchat database with a session, a turn and a memory."""
    path = tmp_path / "m.db"
    assert run(capsys, "--db", str(path), "memory", "add", "I like green tea")[0] == 0
    assert run(capsys, "--db", str(path), "ask", "--session", "s1", "hello there")[0] == 0
    database = Database(path)
    database.checkpoint()
    database.close()
    return path


# ---- damaged, foreign, newer and empty files ------------------------------------------------
def test_truncated_database_is_named_and_repaired_into_a_new_file(db, tmp_path, capsys):
    broken = tmp_path / "broken.db"
    shutil.copyfile(db, broken)
    os.truncate(broken, int(broken.stat().st_size * 0.9))
    before = digest(broken)
    refused(capsys, "--db", str(broken), "memory", "list", says="doctor --repair")
    code, out, err = run(capsys, "--db", str(broken), "doctor", "--repair")
    assert code == 0, err
    assert digest(broken) == before  # the original is never touched
    new = Path(out.split("new database: ", 1)[1].split()[0])
    assert new.exists() and new != broken and "memchat --db" in out
    code, out, _ = run(capsys, "--db", str(new), "sessions")
    assert code == 0 and "s1" in out


def test_corrupt_pages_are_a_clear_error(db, tmp_path, capsys):
    broken = tmp_path / "garbage.db"
    data = bytearray(db.read_bytes())
    data[4096:] = bytes((b * 31 + 7) % 256 for b in data[4096:])
    broken.write_bytes(bytes(data))
    refused(capsys, "--db", str(broken), "sessions", says="damaged")
    code, out, _ = run(capsys, "--db", str(broken), "doctor")
    assert code == 1 and "doctor --repair" in out


def test_repair_of_nothing_readable_leaves_no_file(tmp_path, capsys):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000)
    refused(capsys, "--db", str(junk), "doctor", "--repair", says="nothing could be read")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.db"]


@pytest.mark.parametrize("tables", [["CREATE TABLE sessions (x)", "CREATE TABLE t (a)"], ["CREATE TABLE t (a)"]])
def test_another_apps_sqlite_file_is_refused_before_any_change(tmp_path, capsys, tables):
    foreign = tmp_path / "other.db"
    conn = sqlite3.connect(foreign)
    for sql in tables:
        conn.execute(sql)
    conn.commit()
    conn.close()
    before = digest(foreign)
    for argv in (["sessions"], ["memory", "add", "I like tea"], ["doctor"]):
        run(capsys, "--db", str(foreign), *argv)
    refused(capsys, "--db", str(foreign), "memory", "list", says="another application's SQLite file")
    assert digest(foreign) == before and not Path(f"{foreign}-wal").exists()


@pytest.mark.parametrize("bump", ["PRAGMA user_version = 999", "INSERT INTO _migrations VALUES (99, 'future', 0)"])
def test_a_newer_schema_is_refused_before_any_change(db, capsys, bump):
    conn = sqlite3.connect(db)
    conn.execute(bump)
    conn.commit()
    conn.close()  # checkpointed: what is on disk now is what must stay
    before = digest(db)
    refused(capsys, "--db", str(db), "memory", "add", "I like tea", says="newer than this memchat knows")
    assert digest(db) == before


def test_an_empty_file_is_initialised_only_by_commands_that_create(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.touch()
    refused(capsys, "--db", str(empty), "sessions", says="empty file")
    refused(capsys, "--db", str(empty), "memory", "list", says="empty file")
    assert empty.stat().st_size == 0
    assert run(capsys, "--db", str(empty), "memory", "add", "I like tea")[0] == 0
    assert empty.stat().st_size > 0


def test_a_folder_or_a_fifo_as_database_is_refused(tmp_path, capsys):
    refused(capsys, "--db", str(tmp_path), "memory", "add", "x y z", says="not a regular file")
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    refused(capsys, "--db", str(fifo), "memory", "add", "x y z", says="not a regular file")


def _opens_for_writing(path: Path) -> bool:
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
    except OSError:
        return False
    return True


def test_an_immutable_database_reads_and_refuses_writes_in_one_line(db, capsys):
    if subprocess.run(["chattr", "+i", str(db)], check=False, capture_output=True).returncode != 0:
        pytest.skip("chattr +i needs root on a filesystem that supports it")
    try:
        if _opens_for_writing(db):  # CI's filesystem took the flag and still let writes through
            pytest.skip("this filesystem accepts chattr +i but does not enforce it")
        # No earlier connection to this file may be left open in this process: SQLite would hand the new
        # connection the read-write descriptor it left behind, and the write would go through (it did
        # on a CI run). A user's command runs in a fresh process.
        gc.collect()
        assert run(capsys, "--db", str(db), "memory", "list")[0] == 0
        gc.collect()
        refused(capsys, "--db", str(db), "memory", "pin", "1", says="read-only")
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)


# ---- text that is not text -----------------------------------------------------------------
def test_argv_that_is_not_utf8_is_refused(db, capsys):
    not_utf8 = os.fsdecode(b"caf\xe9 latte")  # how Python hands such bytes over: a lone surrogate
    refused(capsys, "--db", str(db), "memory", "add", not_utf8, says="not valid UTF-8")


def test_stdin_that_is_not_utf8_is_refused(db, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"caf\xe9\n")))
    refused(capsys, "--db", str(db), "ask", "-", says="stdin is not UTF-8")


@pytest.mark.parametrize(("line", "says"), [
    (LINE.format(session="s", content="a\\ud800b"), "lone surrogate"),
    ("[" * 100_000 + "\n", "nested too deeply"),
    (LINE.format(session="../../x", content="hi"), "path separator"),
    ('{"session": "s", "role": "user", "content": "x", "ts": "0001-01-01T00:00:00"}\n', "ISO date-time"),
    ("\xff\n", ""),
])
def test_jsonl_that_cannot_be_imported_is_one_clear_line(tmp_path, capsys, line, says):
    path = tmp_path / "t.jsonl"
    path.write_bytes(line.encode("utf-8", "surrogatepass") if line != "\xff\n" else b"\xff\n")
    err = refused(capsys, "--db", str(tmp_path / "m.db"), "import", str(path), says=says or "not UTF-8")
    assert "line 1" in err


def test_jsonl_with_a_bom_and_a_raw_line_separator_is_accepted(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + LINE.format(session="s", content="one\u2028two").encode()
                     + LINE.format(session="s", content="three\u0085four").encode())
    assert run(capsys, "--db", str(tmp_path / "m.db"), "import", str(path))[0] == 0
    contents = [m.content for m in SessionStore(Database(tmp_path / "m.db")).messages(1)]
    assert contents == ["one\u2028two", "three\u0085four"]


def test_a_fifo_is_refused_not_read(tmp_path, capsys):
    fifo = tmp_path / "t.jsonl"
    os.mkfifo(fifo)
    refused(capsys, "--db", str(tmp_path / "m.db"), "import", str(fifo), says="not a regular file")
    refused(capsys, "--db", str(tmp_path / "m.db"), "import", str(tmp_path), says="not a regular file")


def test_a_100k_character_message_is_imported_whole(tmp_path, capsys):
    words = " ".join(f"word{i}" for i in range(15_000))[:100_000]
    path = tmp_path / "big.jsonl"
    path.write_text(LINE.format(session="big", content=words) + LINE.format(session="big", content="I live in Oslo."))
    code, _, err = run(capsys, "--db", str(tmp_path / "m.db"), "import", str(path))
    assert code == 0, err
    stored = SessionStore(Database(tmp_path / "m.db")).messages(1)
    assert len(stored[0].content) == 100_000 and stored[1].content == "I live in Oslo."


@pytest.mark.slow
def test_a_million_character_ask_is_answered(db, capsys, monkeypatch):
    words = " ".join(f"w{i * 7919 % 10**9}" for i in range(110_000))  # far more distinct words than SQL variables
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(words.encode())))
    code, out, err = run(capsys, "--db", str(db), "ask", "-")
    assert code == 0 and "Sure." in out, err


# ---- numbers, names and paths --------------------------------------------------------------
@pytest.mark.parametrize("ident", ["100000000000000000000", "-5", "0", "abc", "1e3"])
def test_absurd_memory_ids_are_refused(db, capsys, ident):
    refused(capsys, "--db", str(db), "memory", "show", "--", ident, says="argument id")


@pytest.mark.parametrize(("argv", "says"), [
    (["--n-ctx", "0"], "model.n_ctx = 0 is out of range: allowed 512 to 131072"),
    (["--n-ctx", "1000000000"], "model.n_ctx = 1000000000 is out of range"),
    (["--threads", "0"], "model.n_threads"),
    (["--db", ""], "--db: needs a path"),
])
def test_bad_global_options_are_refused(db, capsys, argv, says):
    if "--db" not in argv:
        argv = ["--db", str(db), *argv]
    refused(capsys, *argv, "ask", "hello", says=says)


@pytest.mark.parametrize(("variable", "value"), [("MEMCHAT_MODEL_TOP_P", "nan"), ("MEMCHAT_RECALL_HALF_LIFE_DAYS", "0"),
                                                 ("MEMCHAT_MODEL_N_CTX", "inf"), ("MEMCHAT_RECALL_KNN_K", "-1")])
def test_numeric_settings_outside_their_range_name_the_setting(db, capsys, monkeypatch, variable, value):
    monkeypatch.setenv(variable, value)
    setting = variable.removeprefix("MEMCHAT_").lower().replace("_", ".", 1)
    refused(capsys, "--db", str(db), "sessions", says=setting)


def test_every_numeric_setting_has_a_range_that_holds_its_default():
    from memchat.config import RANGES, Settings, _numeric_settings

    numeric = _numeric_settings(Settings())
    assert sorted(numeric) == sorted(RANGES), "add the new setting's allowed range to config.RANGES"
    for name, value in numeric.items():
        low, high = RANGES[name]
        assert low <= value <= high, name


def test_config_that_is_a_folder_is_refused(db, tmp_path, capsys):
    refused(capsys, "--db", str(db), "--config", str(tmp_path), "sessions", says="not a regular file")


@pytest.mark.parametrize("name", ["../../x", "a/b", "a\\b", "..", "tab\there", "esc\x1b[2J", "x" * 101, " padded", ""])
def test_bad_session_names_are_refused(db, capsys, name):
    refused(capsys, "--db", str(db), "ask", "--session", name, "hello", says="session name")
    with pytest.raises(MemchatError, match="bad session name"):
        check_session_name(name)


def test_a_stored_session_name_never_leads_a_snapshot_outside_its_folder(tmp_path, capsys):
    from memchat import paths

    path = tmp_path / "m.db"
    run(capsys, "--db", str(path), "ask", "hello")
    database = Database(path)
    database.execute("UPDATE sessions SET name = '../../escaped'")  # stored before names were checked
    code, out, err = run(capsys, "--db", str(path), "snapshot")
    assert code == 0, err
    written = Path(out.strip())
    assert written.parent == paths.snapshots_dir() and "escaped-turn1" in written.name
    assert file_safe("..") == "session" and "/" not in file_safe("../..") and file_safe("a\x1bb") == "a_b"


def test_snapshot_output_that_cannot_be_written_is_refused(db, tmp_path, capsys, monkeypatch):
    refused(capsys, "--db", str(db), "snapshot", "-o", str(tmp_path), says="is a folder")
    refused(capsys, "--db", str(db), "snapshot", "-o", "/dev/full", says="not a regular file")
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    refused(capsys, "--db", str(db), "snapshot", "-o", str(blocker / "x.json"), says="cannot")
    target = tmp_path / "out.json"

    def full_disk(self, *args, **kwargs):
        Path.write_bytes(self, b"{")  # a partial write, then the device fills up
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    refused(capsys, "--db", str(db), "snapshot", "-o", str(target), says="No space left")
    assert not target.exists()  # no half-written snapshot left behind


# ---- terminal escapes ----------------------------------------------------------------------
HOSTILE = "tea \x1b]0;pwned\x07 \x1b[2J \x1b]52;c;ZXZpbA==\x07 \x9b31m [bold]x[/bold] \r over"


def test_printable_shows_control_characters_and_keeps_layout():
    shown = printable(HOSTILE + "\nnext\tline")
    assert not any(ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) <= 0x9F for c in shown)
    assert "␛]0;pwned␇" in shown and "\\x9b" in shown and "[bold]x[/bold]" in shown and "\nnext\tline" in shown
    assert printable("a\nb\tc", one_line=True) == "a⏎b c"
    assert printable("\ud800") == "\ufffd"
    assert json.loads(printable_json(json.dumps({"t": HOSTILE + "\x7f\ud800"}, ensure_ascii=False)))["t"] == \
        HOSTILE + "\x7f\ud800"


def test_cli_output_never_carries_raw_escapes(tmp_path, capsys):
    path = tmp_path / "m.db"
    code, _, err = run(capsys, "--db", str(path), "memory", "add", f"I like {HOSTILE}")
    assert code == 0, err
    transcript = tmp_path / "t.jsonl"
    transcript.write_text(LINE.format(session="s", content="I live in \\u001b[2JOslo."))
    run(capsys, "--db", str(path), "import", str(transcript))
    for argv in (["memory", "list"], ["memory", "show", "1"], ["memory", "list", "--json"], ["sessions"],
                 ["recall", "tea"], ["recall", "tea", "--json"], ["memory", "show", "1", "--json"]):
        code, out, err = run(capsys, "--db", str(path), *argv)
        assert code == 0, err
        assert "\x1b" not in out and "\x9b" not in out and "\r" not in out, argv
    assert "␛]0;pwned" in run(capsys, "--db", str(path), "memory", "show", "1")[1]
    assert "\x1b]0;pwned\x07" in json.loads(run(capsys, "--db", str(path), "memory", "show", "1", "--json")[1])["content"]


async def test_the_tui_shows_stored_escapes_as_pictures(tmp_path, monkeypatch):
    from memchat.config import load_settings
    from memchat.pipeline.factory import build_services, open_conversation
    from memchat.ui.app import MemchatApp
    from memchat.ui.chat_view import AssistantMessage, UserMessage

    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    settings = load_settings(overrides={"db": str(tmp_path / "t.db")})
    services = build_services(settings, engine=FakeEngine((f"reply {HOSTILE}",)), embedder=FakeEmbedder())
    conversation = open_conversation(services, "s")
    conversation.run_turn(f"hi {HOSTILE}", lambda event: None)
    conversation.wait()
    services.db.close()
    app = MemchatApp.from_settings(settings, engine=FakeEngine(), embedder=FakeEmbedder(), session="s")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        widgets = [*app.screen.query(UserMessage), *app.screen.query(AssistantMessage)]
        assert len(widgets) == 2
        for widget in widgets:
            parts = [widget, *widget.query("*")]
            rendered = "".join(seg.text for part in parts for y in range(part.size.height) for seg in part.render_line(y))
            assert "\x1b" not in rendered and "\x9b" not in rendered
            assert "␛" in rendered


# ---- fuzzing -------------------------------------------------------------------------------
FUZZ: dict[str, int] = {}


def test_jsonl_parser_fuzz_gives_lines_or_a_memchat_error():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    json_values = st.recursive(
        st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
        max_leaves=12,
    )
    lines = st.fixed_dictionaries(
        {"session": st.text(max_size=12), "role": st.sampled_from(["user", "assistant", "system", ""]),
         "content": st.text(), "ts": st.sampled_from(["2024-01-01T10:00:00", "yesterday", "9999-12-31T23:59:59+14:00"])},
        optional={"extra": json_values},
    ).map(json.dumps) | json_values.map(json.dumps) | st.text()
    lines |= st.fixed_dictionaries(  # well-formed lines, so the accepting path is fuzzed too
        {"session": st.sampled_from(["s", "trip 2024", "会话"]), "role": st.sampled_from(["user", "assistant"]),
         "content": st.text(), "ts": st.just("2024-01-01T10:00:00")}).map(lambda d: json.dumps(d, ensure_ascii=False))
    documents = st.lists(lines, max_size=6).map(lambda ls: "\n".join(ls).encode("utf-8", "surrogatepass")) | st.binary()

    @settings(max_examples=1000, deadline=None, derandomize=True)
    @given(documents)
    def check(data: bytes) -> None:
        try:
            parsed = parse_lines(data)
        except MemchatError as error:
            assert error.message and error.hint
            FUZZ["importer refused"] = FUZZ.get("importer refused", 0) + 1
        else:
            assert parsed and all(line.role in ("user", "assistant") for line in parsed)
            FUZZ["importer parsed"] = FUZZ.get("importer parsed", 0) + 1

    check()
    print(f"\nfuzzed importer inputs: {FUZZ}")


@pytest.mark.slow
def test_cli_fuzz_never_raises_past_main(tmp_path, capsys, monkeypatch):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memchat.cli import chat_cmds

    monkeypatch.chdir(tmp_path)  # `snapshot -o <fuzzed name>` writes where it is told: never into the checkout
    opened: list[str] = []  # an option that swallows the command name leaves none: that opens the TUI
    monkeypatch.setattr(chat_cmds, "cmd_tui", lambda args: opened.append(args.settings.db) or 0)
    path = tmp_path / "fuzz.db"
    run(capsys, "--db", str(path), "ask", "--session", "s", "I live in Oslo and like tea.")
    hostile = st.text(max_size=40) | st.sampled_from(["", "-", "--", "0", "-1", "10" * 15, "nan", "../x", "\x1b[2J",
                                                      str(tmp_path), "/dev/full", "/dev/null", "s", "1"])
    commands = st.sampled_from([
        ["sessions"], ["sessions", "--json"], ["memory", "list"], ["memory", "list", "--all", "--json"],
        ["memory", "show"], ["memory", "pin"], ["memory", "forget"], ["memory", "restore"], ["memory", "history"],
        ["memory", "edit"], ["memory", "add"], ["memory", "accept"], ["recall"], ["recall", "--k"],
        ["snapshot", "--turn"], ["snapshot", "--session"], ["snapshot", "-o"], ["snapshot", "--format"],
        ["ask"], ["ask", "--session"], ["import"], ["doctor"], ["memory", "add", "--importance"],
        ["export", "memories", "-o"], ["export", "memories", "--format"], ["export", "session"],
        ["export", "session", "s", "-o"],
    ])
    options = st.sampled_from([[], ["--n-ctx"], ["--threads"], ["--config"], ["--model"], ["--theme"]])

    @settings(max_examples=1000, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(commands, st.lists(hostile, max_size=3), options, st.lists(hostile, min_size=1, max_size=1))
    def check(command: list[str], values: list[str], option: list[str], option_values: list[str]) -> None:
        argv = ["--db", str(path), *option, *option_values[: len(option)], *command, *values]
        code, _, err = run(capsys, *argv)  # anything but SystemExit or a return code escapes and fails the test
        assert code in (0, 1, 2), (argv, code, err)
        assert "Traceback" not in err
        FUZZ[f"cli exit {code}"] = FUZZ.get(f"cli exit {code}", 0) + 1

    check()
    print(f"\nfuzzed CLI inputs: {FUZZ} (the TUI would have opened {len(opened)} times)")
