"""kill -9 in the middle of a ChatGPT import, again and again, then a run to the end (issue 12), with
real processes and the real default models: the file stays intact, every conversation is stored
whole or not at all at every moment, nothing committed is lost, the last run leaves nothing
pending and no message twice."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest

from memchat.pipeline.chatgpt_export import read_conversation

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from make_chatgpt_export import make_export, write_export

pytestmark = [pytest.mark.real, pytest.mark.slow]
CONVERSATIONS = 150


def _read(db: Path, sql: str) -> list[tuple]:
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


def _committed(db: Path) -> tuple[set[int], set[int]]:
    if not db.exists():
        return set(), set()
    return {r[0] for r in _read(db, "SELECT id FROM messages")}, {r[0] for r in _read(db, "SELECT id FROM memories")}


def _whole_or_nothing(db: Path) -> bool:
    """Every imported conversation has all its messages; no session holds a part of one."""
    logged = _read(db, "SELECT session_id, messages FROM imported_conversations WHERE session_id IS NOT NULL")
    stored = dict(_read(db, "SELECT session_id, COUNT(*) FROM messages GROUP BY session_id"))
    return set(stored) == {s for s, _ in logged} and all(stored[s] == n for s, n in logged)


def _imported(db: Path) -> int:
    """Conversations committed so far; 0 while the file or its schema does not exist yet."""
    try:
        return _read(db, "SELECT COUNT(*) FROM imported_conversations")[0][0]
    except (apsw.Error, OSError):
        return 0


def _kill_once_it_moves(process: subprocess.Popen, db: Path, rng: random.Random) -> bool:
    """Kill the import a moment after it commits a new conversation, so the kill lands mid-import however
    fast this machine imports. False when the process finished first."""
    start = _imported(db)
    deadline = time.monotonic() + 120
    while process.poll() is None and _imported(db) <= start and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(rng.uniform(0.0, 0.4))
    if process.poll() is not None:
        return False
    process.kill()
    process.wait()
    return True


def test_kill_minus_9_mid_chatgpt_import_then_rerun_loses_nothing_and_duplicates_nothing(tmp_path, real_model_paths):
    db = tmp_path / "shared.db"
    export = make_export(CONVERSATIONS, 10, seed=11)
    expected = {c["conversation_id"]: len(read_conversation(c, i).messages) for i, c in enumerate(export)}
    source = write_export(tmp_path / "chatgpt-export.zip", export)
    env = {**os.environ, "MEMCHAT_DB": str(db), "MEMCHAT_MODEL_N_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "memchat", "--model", str(real_model_paths["chat"]),
               "--embed-model", str(real_model_paths["embed"]), "import", str(source)]
    rng = random.Random(12)
    kills, broken, torn, lost = 0, 0, 0, 0
    for _ in range(5):
        before = _committed(db)
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not _kill_once_it_moves(process, db, rng):
            break  # finished before the kill: nothing left to interrupt
        kills += 1
        if not db.exists():
            continue
        broken += _read(db, "PRAGMA integrity_check") != [("ok",)]
        torn += not _whole_or_nothing(db)
        after = _committed(db)
        lost += len(before[0] - after[0]) + len(before[1] - after[1])
    partial = _read(db, "SELECT COUNT(*) FROM imported_conversations")[0][0] if db.exists() else 0

    finished = subprocess.run([*command, "--json"], env=env, capture_output=True, text=True, timeout=900, check=False)
    assert finished.returncode == 0, finished.stderr
    duplicates = _read(db, "SELECT COUNT(*) FROM (SELECT 1 FROM messages GROUP BY session_id, role, content, "
                           "created_at HAVING COUNT(*) > 1)")[0][0]
    logged = dict(_read(db, "SELECT conversation_id, messages FROM imported_conversations"))
    pending = _read(db, "SELECT COUNT(*) FROM messages WHERE extracted = 0")[0][0]
    total = _read(db, "SELECT COUNT(*) FROM messages")[0][0]
    print(f"\nimport kill -9: {kills} kills, {partial}/{CONVERSATIONS} conversations stored before the last run, "
          f"integrity broken {broken}, torn conversations {torn}, committed rows lost {lost}; after the re-run "
          f"{len(logged)}/{CONVERSATIONS} conversations, {total}/{sum(expected.values())} messages, "
          f"duplicates {duplicates}, pending {pending}")
    assert kills >= 3 and 0 < partial < CONVERSATIONS  # the kills landed mid-import
    assert broken == 0 and torn == 0 and lost == 0
    assert logged == expected and total == sum(expected.values()) and duplicates == 0
    assert _whole_or_nothing(db) and pending == 0
