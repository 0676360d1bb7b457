"""The real app, driven in tmux the way a person drives it: keys in, screen text out.

`python -m memchat` runs with the real default models in a detached tmux session
(its own tmux server, 160×45), in a hermetic MEMCHAT_HOME whose models dir links
to the already-pulled default models, with a config that keeps replies short.
The test types three messages, waits for each reply and its memory extraction,
pins and forgets memories from the inspector, exports a Markdown snapshot with
F6 and quits with Ctrl+Q, checking the screen at each step and the database and
the snapshot file afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.real, pytest.mark.slow, pytest.mark.timeout(420)]

WIDTH, HEIGHT = 160, 45
POLL = 0.2
READY = "Message memchat"  # the input box's placeholder (memchat/ui/prompt_input.py)
REPLYING, EXTRACTING = "● replying", "⟳ extracting"  # status line (memchat/ui/status_line.py)
INSPECTOR_SEP = "▏"  # the inspector's left border (vkey), between the chat column and the inspector
TOAST_EDGE = "▌"  # left edge of a Textual toast
CONFIG = "[budget]\nreserved_output = 96\n"  # short replies: the 135M model rambles up to the reply budget

if shutil.which("tmux") is None:
    pytest.skip("tmux is not installed (apt-get install tmux)", allow_module_level=True)


class Tmux:
    """One detached tmux session on a private server (so no user config or other session interferes)."""

    def __init__(self, socket: str, name: str) -> None:
        self.socket, self.name = socket, name

    def tmux(self, *args: str, check: bool = True) -> str:
        # An explicit env: with env=None the child gets the C-level environment, where readline (imported
        # under pytest) may have put COLUMNS=80 LINES=24 — the pane would inherit them and Textual trusts them.
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        result = subprocess.run(["tmux", "-L", self.socket, "-f", os.devnull, *args],
                                check=False, capture_output=True, text=True, timeout=30, env=env)
        if check and result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def start(self, command: str, cwd: Path) -> None:
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(WIDTH), "-y", str(HEIGHT), "-c", str(cwd), command)

    def kill(self) -> None:
        socket = self.tmux("display-message", "-p", "#{socket_path}", check=False).strip()
        self.tmux("kill-session", "-t", self.name, check=False)
        self.tmux("kill-server", check=False)
        if socket:
            Path(socket).unlink(missing_ok=True)  # tmux leaves its socket file behind

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name, check=False)

    def lines(self) -> list[str]:
        return self.screen().splitlines()

    def keys(self, *keys: str) -> None:
        """Named keys (Enter, Tab, Down, F6, C-q, M-Right…), one at a time as a person presses them."""
        for key in keys:
            self.tmux("send-keys", "-t", self.name, key)
            time.sleep(0.15)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", text)
        time.sleep(0.3)

    def wait_for(self, text: str | re.Pattern[str] | None = None, timeout: float = 60.0,
                 until=None, what: str = "") -> str:
        """Poll the screen every POLL seconds until `text` (a string or regex) is on it and/or `until(screen)`."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            found = text is None or (text.search(shown) if isinstance(text, re.Pattern) else text in shown)
            if found and (until is None or until(shown)):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what or text!r}; screen:\n{shown}")
            time.sleep(POLL)


def status_line(shown: str) -> str:
    return shown.splitlines()[0] if shown else ""


def inspector(shown: str) -> list[str]:
    """The inspector's column of the screen (right of its border), line by line."""
    return [line.split(INSPECTOR_SEP, 1)[1] for line in shown.splitlines() if INSPECTOR_SEP in line]


def toasts(shown: str) -> str:
    """The text of the toasts in the bottom-right corner, wrapped lines joined back together."""
    return "".join(line.rsplit(TOAST_EDGE, 1)[1].strip() for line in shown.splitlines() if TOAST_EDGE in line)


def recall_rows(shown: str) -> list[tuple[int, str]]:
    """(memory id, row text) of each row of the inspector's recall table, top to bottom."""
    rows, in_table = [], False
    for line in inspector(shown):
        if line.strip().startswith("id ") and "score" in line:
            in_table = True
        elif in_table:
            match = re.match(r"\s*#(\d+)\s", line)
            if not match:
                break
            rows.append((int(match.group(1)), line))
    return rows


def full_size(shown: str) -> bool:
    """The first screen as it should be: status line on top and the inspector open (160 ≥ 100 columns)."""
    return status_line(shown).strip().startswith("memchat") and "Recall — no turn yet" in shown


def startup_diagnosis(term: Tmux) -> str:
    """Where memchat's stdout/stderr point (Linux): /dev/null means the UI's output is being thrown away."""
    pane = term.tmux("display-message", "-p", "-t", term.name, "#{pane_pid}", check=False).strip()
    children = Path(f"/proc/{pane}/task/{pane}/children")
    try:
        pid = children.read_text().split()[0]
        fds = {fd: os.readlink(f"/proc/{pid}/fd/{fd}") for fd in (1, 2)}
    except (OSError, IndexError):
        return "(could not inspect the memchat process)"
    hint = ""
    if "/dev/null" in fds.values():
        hint = (" — Textual writes the UI to fd 2, so nothing reaches the terminal. llama-cpp-python's "
                "suppress_stdout_stderr (Llama(verbose=False)) dup2()s /dev/null over fds 1/2 during a load and "
                "restores what it saved; two loads at once (the chat model on its background thread, the embedder "
                "on the main one) can save and 'restore' /dev/null, and a load overlapping Textual's start makes "
                "it measure 80×24 and lose its first frames")
    else:
        hint = (" (if the screen above is laid out for 80 columns, Textual measured the terminal while a model "
                "load had fd 1 on /dev/null: see llama-cpp-python's suppress_stdout_stderr)")
    return f"memchat (pid {pid}) fd 1 → {fds[1]}, fd 2 → {fds[2]}{hint}"


@pytest.fixture
def tmux_home(tmp_path: Path, real_model_paths: dict[str, Path]) -> Path:
    """A MEMCHAT_HOME with the pulled default models (and their records) symlinked, and a config."""
    home = tmp_path / "home"
    models_dir = home / "data" / "models"
    models_dir.mkdir(parents=True)
    for path in real_model_paths.values():
        for file in (path, path.with_name(path.name + ".json")):
            if file.exists():
                (models_dir / file.name).symlink_to(file)
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text(CONFIG)
    return home


def test_a_person_chats_pins_forgets_exports_and_quits(tmp_path: Path, tmux_home: Path) -> None:
    db = tmp_path / "tmux.db"
    env = {"MEMCHAT_HOME": str(tmux_home), "MEMCHAT_DB": str(db)}
    memchat = f"{shlex.quote(sys.executable)} -m memchat --db {shlex.quote(str(db))} --session tmux"
    command = f"env {' '.join(f'{k}={shlex.quote(v)}' for k, v in env.items())} {memchat}; echo EXITED:$?; sleep 600"
    term = Tmux(f"memchat-test-{os.getpid()}", "memchat")
    started = time.monotonic()
    try:
        # 1. start: the input box, the status line and the (open, since 160 ≥ 100 columns) inspector
        term.start(command, tmp_path)
        try:
            term.wait_for(READY, timeout=60, what="the first screen at full size", until=full_size)
        except AssertionError as error:
            raise AssertionError(f"{error}\n{startup_diagnosis(term)}") from None
        assert "session tmux" in status_line(term.screen())

        # 2. three turns; each is over when the status line is idle and the inspector shows its writes
        def chat(turn: int, text: str) -> str:
            term.type(text)
            term.keys("Enter")
            return term.wait_for(
                f"Written to memory — turn {turn}", timeout=120, what=f"turn {turn} ({text!r}) to finish",
                until=lambda s: REPLYING not in status_line(s) and EXTRACTING not in status_line(s)
                and READY in s,
            )

        chat(1, "Hi! I live in Lisbon and my dog is called Pixel.")
        chat(2, "I'm allergic to peanuts.")
        shown = chat(3, "What is my dog called?")
        assert "What is my dog called?" in shown
        assert "Recall — turn 3:" in shown
        # widen the inspector (Alt+→) until the content column of the recall table is on screen
        term.keys(*["M-Right"] * 10)
        shown = term.wait_for(until=lambda s: any("Pixel" in row for _, row in recall_rows(s)), timeout=10,
                              what="a recall row containing 'Pixel' in the widened inspector")
        rows = recall_rows(shown)
        pixel = next(i for i, (_, row) in enumerate(rows) if "Pixel" in row)
        pixel_id = rows[pixel][0]
        assert "✔" in rows[pixel][1], f"the Pixel memory was recalled but not selected:\n{shown}"
        assert len(rows) >= 2, f"need a second recall row to forget:\n{shown}"

        # 3. Tab to the recall table, pin the Pixel row, forget another row
        term.keys("Tab")
        term.wait_for("p Pin", timeout=10, what="the memory keys in the footer (recall table focused)")
        term.keys(*["Down"] * pixel)
        term.wait_for(f"#{pixel_id} [", timeout=10, what=f"the detail of #{pixel_id} under the cursor")
        term.keys("p")
        shown = term.wait_for(f"Pinned #{pixel_id}.", timeout=10, what="the pin toast",
                              until=lambda s: any(mid == pixel_id and "●" in row for mid, row in recall_rows(s)))
        other = 0 if pixel else 1
        other_id = recall_rows(shown)[other][0]
        term.keys(*(["Up"] * (pixel - other) if pixel > other else ["Down"] * (other - pixel)))
        term.wait_for(f"#{other_id} [", timeout=10, what=f"the detail of #{other_id} under the cursor")
        term.keys("f")
        term.wait_for(f"Forgot #{other_id}", timeout=10, what="the forget toast",
                      until=lambda s: any(mid == other_id and "[deleted]" in row for mid, row in recall_rows(s)))

        # ...and the database agrees, at once (the app is still running)
        listed = subprocess.run([sys.executable, "-m", "memchat", "memory", "list", "--all", "--episodes", "--json",
                                 "--db", str(db)],
                                check=False, capture_output=True, text=True, env={**os.environ, **env}, timeout=120)
        assert listed.returncode == 0, listed.stderr
        memories = {m["id"]: m for m in json.loads(listed.stdout)}
        assert [m["id"] for m in memories.values() if m["pinned"]] == [pixel_id]
        assert "Pixel" in memories[pixel_id]["content"] and memories[pixel_id]["status"] == "active"
        assert [m["id"] for m in memories.values() if m["status"] == "deleted"] == [other_id]

        # 4. F6 exports the last turn as Markdown; the toast names the file
        snapshots = tmux_home / "data" / "snapshots"
        term.keys("F6")
        shown = term.wait_for("Snapshot of the last turn written to", timeout=15, what="the export toast")
        written = sorted(snapshots.glob("*.md"), key=lambda p: p.stat().st_mtime)
        assert written, f"no Markdown snapshot in {snapshots}"
        path = written[-1]
        named = re.search(re.escape(str(snapshots)) + r"/\S+?\.md", toasts(shown))
        if named:
            path = Path(named.group(0))
        assert path.parent == snapshots and path.exists()
        text = path.read_text()
        assert "## Recall candidates" in text and "Pixel" in text
        assert "What is my dog called?" in text

        # 5. Ctrl+Q quits; the shell prints the exit code
        term.keys("C-q")
        term.wait_for("EXITED:", timeout=60, what="memchat to exit")
        assert "EXITED:0" in term.screen(), term.screen()
    finally:
        term.kill()
        print(f"tmux scenario took {time.monotonic() - started:.1f}s")


PASTE = " ".join(f"Paragraph {n}: the committee reviewed the harbour budget for district {n}, noted that the ferry "
                 f"schedule changed in spring, and asked Dr Almeida to report again in week {n + 2}."
                 for n in range(1, 90))  # ~16k characters: more than the input budget, many sentences to extract


def _rows(db: Path, sql: str) -> list[tuple]:
    import apsw

    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


def test_a_long_paste_an_early_stop_and_a_quit_while_memories_are_saved(tmp_path: Path, tmux_home: Path) -> None:
    db = tmp_path / "tmux.db"
    env = {"MEMCHAT_HOME": str(tmux_home), "MEMCHAT_DB": str(db)}
    memchat = f"{shlex.quote(sys.executable)} -m memchat --db {shlex.quote(str(db))} --session tmux"
    command = (f"env {' '.join(f'{k}={shlex.quote(v)}' for k, v in env.items())} {memchat}; echo EXITED:$?; "
               f"env {' '.join(f'{k}={shlex.quote(v)}' for k, v in env.items())} {memchat}; echo AGAIN:$?; sleep 600")
    term = Tmux(f"memchat-test2-{os.getpid()}", "memchat")
    paste = tmp_path / "paste.txt"
    paste.write_text(PASTE)
    idle = lambda s: REPLYING not in status_line(s) and READY in s  # noqa: E731
    try:
        term.start(command, tmp_path)
        term.wait_for(READY, timeout=60, what="the first screen", until=full_size)

        # 1. a long paste (bracketed, as a terminal pastes): stored whole, cut for the prompt, the turn goes on
        term.type("Hi! I live in Lisbon. Please look at this: ")
        term.tmux("load-buffer", str(paste))
        term.tmux("paste-buffer", "-p", "-t", term.name)
        time.sleep(0.5)
        term.keys("Enter")
        term.wait_for("Written to memory — turn 1", timeout=180, what="the paste's turn to finish", until=idle)
        stored = _rows(db, "SELECT content FROM messages WHERE role = 'user'")
        assert len(stored) == 1 and PASTE[-200:] in stored[0][0]  # the full text stays in the transcript

        # 2. Esc before the first token: nothing stored, the text is back in the box
        term.type("What did the committee decide?")
        term.keys("Enter", "Escape")
        shown = term.wait_for(until=lambda s: REPLYING not in status_line(s) and "What did the committee decide?" in s,
                              timeout=60, what="the stopped turn to settle")
        time.sleep(1.0)  # the turn's worker records itself
        replies = [r[0] for r in _rows(db, "SELECT content FROM messages WHERE role = 'assistant'")]
        assert all(reply.strip() for reply in replies), replies  # never an empty reply to send the model later
        early = "stopped before the reply began" in toasts(shown)
        if early:  # Esc won the race against the first token (it usually does: the prompt is ~1k tokens)
            assert len(_rows(db, "SELECT id FROM messages WHERE role = 'user'")) == 1
        print(f"Esc before the first token: {'yes' if early else 'no, the first token came first'}")
        term.keys("C-u")  # clear the box (whichever way the race went)

        # 3. a second paste, then Ctrl+Q while its memories are being written: the screen says so,
        #    a second Ctrl+Q quits at once, and the next start finishes the work
        term.tmux("load-buffer", str(paste))
        term.tmux("paste-buffer", "-p", "-t", term.name)
        time.sleep(0.5)
        term.keys("Enter")
        term.wait_for(EXTRACTING, timeout=180, what="the second paste's extraction",
                      until=lambda s: REPLYING not in status_line(s))
        term.keys("C-q")
        saving = term.wait_for(until=lambda s: "saving memories" in s or "EXITED:" in s, timeout=30,
                               what="the saving notice (or the exit, if saving was quicker)")
        if "EXITED:" not in saving:
            term.keys("C-q")
        print(f"quit while saving memories: {'yes' if 'EXITED:' not in saving else 'no, saving was quicker'}")
        term.wait_for("EXITED:", timeout=60, what="memchat to exit")
        assert "EXITED:0" in term.screen(), term.screen()
        term.wait_for(READY, timeout=60, what="the second start")
        # the queue is finished when the database says so: the screen's "pending extraction" may not have
        # appeared yet when the first screen is up, so its absence proves nothing
        term.wait_for(until=lambda s: _rows(db, "SELECT COUNT(*) FROM messages WHERE extracted = 0") == [(0,)],
                      timeout=120, what="the pending extraction to finish")
        assert "pending extraction" not in term.wait_for(until=lambda s: "pending extraction" not in s, timeout=30)
        assert len(_rows(db, "SELECT id FROM messages WHERE role = 'user'")) >= 2
        term.keys("C-q")
        term.wait_for("AGAIN:", timeout=60, what="the second run to exit")
        assert "AGAIN:0" in term.screen(), term.screen()
    finally:
        term.kill()
