"""What `memchat import` reads, and how it tells one file from another. Pure: bytes in, data out.

Four formats, told apart by their content (never by the file name):
- memchat's JSONL transcript (one `{"session", "role", "content", "ts"}` per line);
- memchat's memories export (JSONL opening with a `{"memchat": "memories"}` header);
- ChatGPT's data export: `conversations.json`, or the export's `.zip` (read in memory, never
  extracted to disk);
- Claude's data export: `conversations.json`.
Another assistant's conversations come out as `ImportedConversation`s; what was left out of
each (system and tool nodes, hidden and empty messages, images and files) is counted, not lost
silently.
"""

from __future__ import annotations

import json
import re
import unicodedata
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memchat.session_names import MAX_SESSION_NAME, session_name_problem
from memchat.types import MemchatError

TRANSCRIPT, MEMORIES, CHATGPT, CLAUDE = "transcript", "memories", "chatgpt", "claude"
EXPORT_FILE = "conversations.json"
FORMATS_HINT = ("memchat imports a JSONL transcript, a memchat memories export, ChatGPT's conversations.json "
                "(or its export .zip) and Claude's conversations.json")


@dataclass(frozen=True)
class ImportedMessage:
    role: str
    """user or assistant."""
    text: str
    ts: float


@dataclass
class ImportedConversation:
    """One conversation of another assistant's export, as it will become a session."""

    source: str
    conversation_id: str
    title: str
    created_at: float
    messages: list[ImportedMessage]
    left_out: Counter[str] = field(default_factory=Counter)
    """Why nodes, messages or parts were not imported (reason → how many)."""

    @property
    def label(self) -> str:
        """How an error names it: its title and id."""
        return f"conversation “{self.title}” ({self.conversation_id})"


def conversation_label(index: int, item: Any, title_key: str, id_keys: tuple[str, ...]) -> str:
    """A conversation named in an error before it is parsed: its number, title and id as far as they exist."""
    if not isinstance(item, dict):
        return f"conversation {index + 1}"
    title = item.get(title_key)
    ident = next((item[k] for k in id_keys if isinstance(item.get(k), str)), None)
    shown = f"conversation {index + 1}"
    if isinstance(title, str) and title.strip():
        shown += f" “{_one_line(title)[:60]}”"
    return shown + (f" ({ident})" if ident else "")


class BadConversation(MemchatError):
    """One conversation of an export cannot be read; the others may still be."""


@dataclass(frozen=True)
class Loaded:
    kind: str
    payload: Any
    """The raw bytes for the JSONL kinds; the list of conversation objects for ChatGPT and Claude."""
    source: str
    """How to name the file in messages ("export.zip:conversations.json")."""


def read_source(path: Path) -> tuple[bytes, str]:
    """The bytes to import from `path`: the file itself, or `conversations.json` inside a zip."""
    if not path.is_file():  # a FIFO or a device would block the read; a folder cannot be read
        problem = "no such file" if not path.exists() else "not a regular file"
        raise MemchatError(f"cannot import {path}: {problem}", FORMATS_HINT)
    try:
        if zipfile.is_zipfile(path):
            return _from_zip(path)
        return path.read_bytes(), str(path)
    except OSError as exc:
        raise MemchatError(f"cannot read {path}: {exc.strerror or exc}", "check the path and its permissions") from exc


def _from_zip(path: Path) -> tuple[bytes, str]:
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if Path(n).name == EXPORT_FILE and not n.startswith("__MACOSX")]
            if not names:
                raise MemchatError(f"{path} holds no {EXPORT_FILE}",
                                   "pass the .zip of a ChatGPT data export (Settings → Data controls → Export)")
            inner = min(names, key=lambda n: (n.count("/"), n))
            return archive.read(inner), f"{path}:{inner}"
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as exc:
        raise MemchatError(f"{path} is a damaged or unsupported zip ({exc})", "download the export again") from exc


def load(data: bytes, source: str) -> Loaded:
    """Which format `data` is in, with what the matching reader needs."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        number = data[: exc.start].count(b"\n") + 1
        raise MemchatError(f"{source}: line {number}: not UTF-8 (byte 0x{data[exc.start]:02x})", FORMATS_HINT) from exc
    start = text.lstrip()[:1]
    if start == "[":
        if "\n" in text.strip() and _maybe_json(text) is None:  # JSONL whose first line is a list: line by line
            return Loaded(TRANSCRIPT, data, source)
        items = _json(text, source)
        return Loaded(_export_kind(items, source), items, source)
    if start == "{":
        first = text.lstrip().split("\n", 1)[0]
        head = _maybe_json(first)
        if isinstance(head, dict) and head.get("memchat") == "memories":
            return Loaded(MEMORIES, data, source)
        if isinstance(head, dict) and {"session", "role"} <= head.keys():
            return Loaded(TRANSCRIPT, data, source)
        whole = head if head is not None and first.strip() == text.strip() else _maybe_json(text)
        if isinstance(whole, dict) and "mapping" in whole:  # one conversation on its own
            return Loaded(CHATGPT, [whole], source)
        if isinstance(head, dict):  # JSONL of some other shape: the transcript reader names what is missing
            return Loaded(TRANSCRIPT, data, source)
    if not text.strip():
        raise MemchatError(f"{source} is empty", FORMATS_HINT)
    raise MemchatError(f"{source} is not a format memchat can import", FORMATS_HINT)


def _json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MemchatError(f"{source}: line {exc.lineno}: not valid JSON ({exc.msg} at column {exc.colno})",
                           "the export looks truncated or edited: download it again") from exc
    except RecursionError as exc:
        raise MemchatError(f"{source}: line 1: JSON nested too deeply", FORMATS_HINT) from exc


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None


def _export_kind(items: list[Any], source: str) -> str:
    if not items:
        raise MemchatError(f"{source} holds no conversations", "nothing to import")
    first = next((i for i in items if isinstance(i, dict)), None)
    if first is not None and "mapping" in first:
        return CHATGPT
    if first is not None and "chat_messages" in first:
        return CLAUDE
    raise MemchatError(f"{source} is a JSON list, but not of ChatGPT or Claude conversations", FORMATS_HINT)


# ---- shared helpers of the readers ------------------------------------------------------------
def _one_line(text: str) -> str:
    return " ".join(text.split())


def iso_time(value: Any) -> float | None:
    """Seconds since the epoch from an ISO date-time ("2024-03-01T12:00:00.123Z"), else None."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.strip()).timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def epoch_time(value: Any) -> float | None:
    """Seconds since the epoch from a number, else None (NaN and absurd values too)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if 0 <= value < 1e11 else None


def clean_text(value: str) -> str:
    """Text as stored: lone surrogates (a broken export) replaced, NUL removed."""
    return value.encode("utf-8", "replace").decode("utf-8").replace("\x00", "")


_ID_CHARS = re.compile(r"[^0-9A-Za-z]")


def session_name_for(title: str, conversation_id: str) -> str:
    """A valid session name from a conversation's title and the start of its id ("Trip to Porto (6f3a2b)"):
    the title on one line, without path separators or control characters, cut to fit."""
    short = _ID_CHARS.sub("", conversation_id)[:6] or "import"
    room = MAX_SESSION_NAME - len(short) - 3
    cleaned = "".join(" " if unicodedata.category(c)[0] in "CZ" else "-" if c in "/\\" else c for c in title)
    cleaned = _one_line(cleaned)[:room].strip() or "Untitled"
    name = f"{cleaned} ({short})"
    return name if session_name_problem(name) is None else f"imported ({short})"

