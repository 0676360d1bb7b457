"""What the CLI writes to a terminal: stored text goes through `terminal_text`, so an escape
sequence in a message or a memory is shown (␛[2J), never obeyed; errors are one line and a fix."""

from __future__ import annotations

import errno
import json
import sys
from typing import Any, TextIO

import apsw

from memchat.memory.store import damaged
from memchat.terminal_text import printable, printable_json
from memchat.types import MemchatError


def show(text: str = "", *, end: str = "\n", file: TextIO | None = None, flush: bool = False) -> None:
    print(printable(text), end=end, file=file or sys.stdout, flush=flush)


def show_json(data: Any) -> None:
    print(printable_json(json.dumps(data, ensure_ascii=False)))


def report_error(error: MemchatError) -> None:
    print(f"memchat: error: {printable(error.message, one_line=True)}", file=sys.stderr)
    if error.hint:
        print(f"  fix: {printable(error.hint, one_line=True)}", file=sys.stderr)


def from_sqlite(exc: apsw.Error, db_path: object) -> MemchatError:
    """A SQLite failure that reached the command line, as something a person can act on."""
    if isinstance(exc, (apsw.CorruptError, apsw.NotADBError)):
        return damaged(str(db_path))
    if isinstance(exc, (apsw.ReadOnlyError, apsw.CantOpenError)):
        return MemchatError(f"cannot write the database {db_path}: it is read-only ({exc})",
                            "fix the file's and its folder's permissions (or chattr -i), or pass --db")
    if isinstance(exc, apsw.FullError):
        return MemchatError(f"the disk holding {db_path} is full", "free some space and try again; nothing was lost")
    if isinstance(exc, apsw.BusyError):
        return MemchatError(f"the database {db_path} is busy (another memchat is writing)", "try again in a moment")
    if isinstance(exc, apsw.IOError):
        return MemchatError(f"the disk failed while reading or writing {db_path} ({exc})",
                            "check the disk (dmesg), then run `memchat doctor`")
    return MemchatError(f"SQLite failed on {db_path}: {exc}", "run `memchat doctor`; report it if it persists")


def from_os(exc: OSError) -> MemchatError:
    where = f" {exc.filename}" if exc.filename else ""
    hint = {errno.ENOSPC: "free some space and try again", errno.EACCES: "pick a path you may write to",
            errno.EROFS: "pick a path on a writable disk", errno.EISDIR: "pass a file path, not a folder"}
    return MemchatError(f"cannot use{where}: {exc.strerror or exc}", hint.get(exc.errno or 0, "check the path"))
