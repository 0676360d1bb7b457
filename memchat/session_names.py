"""What a session may be called.

A session's name is typed on the command line, read from imported transcripts,
shown in listings and used in the file names of its exported snapshots, so it
must be short, printable and free of path separators (`../../x` once wrote a
snapshot outside the data directory). Standard library only.
"""

from __future__ import annotations

import unicodedata

from memchat.types import MemchatError

MAX_SESSION_NAME = 100
"""Characters; a name is a label, not a message."""


def session_name_problem(name: str) -> str | None:
    """Why `name` cannot name a session, or None when it can."""
    if not name.strip():
        return "it is empty"
    if len(name) > MAX_SESSION_NAME:
        return f"it is {len(name)} characters long (at most {MAX_SESSION_NAME})"
    if name != name.strip():
        return "it starts or ends with a space"
    if name in (".", ".."):
        return "it names a folder"
    for char in name:
        if char in "/\\":
            return "it contains a path separator (/ or \\)"
        if unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"):
            return f"it contains the control character U+{ord(char):04X}"
    return None


def check_session_name(name: str) -> str:
    """`name`, or a MemchatError saying what is wrong with it."""
    problem = session_name_problem(name)
    if problem:
        shown = name[:40].encode("unicode_escape").decode("ascii")
        raise MemchatError(f"bad session name '{shown}': {problem}",
                           f"use letters, digits, spaces, '-' or '_' (at most {MAX_SESSION_NAME} characters)")
    return name


def file_safe(name: str) -> str:
    """`name` as one file-name component: a session stored before names were checked may hold
    anything, and its snapshot must still land inside the snapshot folder."""
    safe = "".join("_" if char in "/\\" or unicodedata.category(char)[0] == "C" else char for char in name)
    safe = safe.strip().lstrip(".")[:MAX_SESSION_NAME]
    return safe or "session"
