"""Writing exports: memories and session transcripts, to a named file or the data dir's exports folder.

An export is a person's life in a file: it is created 0600 (a file that existed is made
0600 too), written to a temporary name beside it and renamed into place, so a full disk or a
kill leaves the old file or no file, never half of one.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from memchat import paths
from memchat.memory import portable
from memchat.memory.sessions import SessionStore
from memchat.memory.store import Database
from memchat.pipeline import memory_export, session_export
from memchat.session_names import file_safe


def default_path(stem: str, fmt: str) -> Path:
    folder = paths.private_dir(paths.exports_dir())
    name = f"{file_safe(stem)}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, number = folder / f"{name}.{fmt}", 2
    while path.exists():  # two exports in one second: both kept
        path, number = folder / f"{name}-{number}.{fmt}", number + 1
    return path


def write_private(output: Path, text: str) -> Path:
    """Write `text` to `output` atomically, readable by its owner only."""
    output.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)  # created 0600
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, output)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    output.chmod(paths.PRIVATE_FILE)
    return output


def memories_text(db: Database, fmt: str, *, everything: bool = False, ids: Sequence[int] | None = None) -> str:
    items = portable.for_export(db, everything=everything, ids=ids)
    scope = "selection" if ids is not None else "all" if everything else "current"
    return memory_export.render(items, fmt, scope=scope, exported_at=time.time())


def export_memories(db: Database, fmt: str, *, everything: bool = False, ids: Sequence[int] | None = None,
                    output: Path | None = None) -> Path:
    """Write the memories (see `memory_export`); `ids` exports exactly those (the browser's list)."""
    text = memories_text(db, fmt, everything=everything, ids=ids)
    return write_private(output or default_path("memories", fmt), text)


def session_text(db: Database, name: str, fmt: str) -> str:
    session, messages = session_export.find(SessionStore(db), name)
    return session_export.render(session, messages, fmt)


def export_session(db: Database, name: str, fmt: str, output: Path | None = None) -> Path:
    text = session_text(db, name, fmt)
    return write_private(output or default_path(f"session-{name}", fmt), text)
