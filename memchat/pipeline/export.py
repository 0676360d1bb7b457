"""Turn snapshots out of the database: JSON for tools, Markdown for people."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from memchat import paths
from memchat.memory.sessions import SessionStore
from memchat.memory.store import Database
from memchat.pipeline import snapshot
from memchat.session_names import file_safe
from memchat.types import MemchatError

FORMATS = ("json", "md")
SIGNAL_HEADINGS = {"similarity": "sim", "keyword": "kw", "recency": "rec", "importance": "imp", "pinned": "pin"}
"""Short column headings of the recall signals (the others keep their names: date, slot)."""


def to_json(data: dict[str, Any]) -> str:
    return json.dumps(snapshot.said_redacted(data), ensure_ascii=False, indent=2)


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


def to_markdown(data: dict[str, Any]) -> str:
    data = snapshot.said_redacted(data)  # a snapshot recorded before redaction existed
    out = [f"# memchat turn {data['turn']} of session {data['session']}", ""]
    model = data["model"]
    out += [
        f"- model: `{model.get('name')}` (sha256 `{model.get('sha256', '')[:16]}…`, n_ctx {model.get('n_ctx')})",
        f"- embedder: `{model.get('embedder')}`",
        f"- sampling: {', '.join(f'{k}={v}' for k, v in data['sampling'].items())}",
        f"- tokens: {data['tokens']['in']} in, {data['tokens']['out']} out" + (" (cancelled)" if data["cancelled"] else ""),
        "- timings (ms): " + ", ".join(f"{k.removesuffix('_ms')} {v}" for k, v in data["timings_ms"].items()),
        "",
        "## Budget",
        "",
    ]
    budget = data["budget"]
    out += [f"{budget['prompt_tokens']} of {budget['n_ctx'] - budget['reserved_output']} prompt tokens "
            f"(n_ctx {budget['n_ctx']}, {budget['reserved_output']} reserved for the reply)", ""]
    out += _table(["block", "tokens", "limit", "cut"], [[b["name"], b["tokens"], b["limit"], b["cut"]] for b in budget["blocks"]])
    out += ["", "## Recall candidates", ""]
    signals = list(data["candidates"][0]["signals"]) if data["candidates"] else []  # every candidate has the same
    rows = [
        [c["id"], "yes" if c["selected"] else "no", c["score"], *(c["signals"].get(s, "") for s in signals),
         c["reason"], c["content"]]
        for c in data["candidates"]
    ]
    header = ["id", "sel", "score", *(SIGNAL_HEADINGS.get(s, s) for s in signals), "reason", "content"]
    out += _table(header, rows) if rows else ["(none)"]
    out += ["", "## Memory writes", ""]
    writes = [[w["action"], w["memory_id"] or "", w["reason"], w["content"]] for w in data["memory_writes"]]
    out += _table(["action", "id", "reason", "content"], writes) if writes else ["(none)"]
    for failure in data["extraction_failures"]:
        out += ["", f"**Extraction failure:** {failure['error']}", "", "```", failure["raw_output"], "```"]
    out += ["", "## Rolling summary", "", data["summary"] or "(empty)", "", "## Notes", ""]
    out += [f"- {n}" for n in data["notes"]] or ["(none)"]
    out += ["", "## Messages sent to the model", ""]
    for message in data["messages"]:
        out += [f"### {message['role']}", "", "```text", message["content"], "```", ""]
    out += ["## Reply", "", data["reply"], ""]
    return "\n".join(out)


def export(db: Database, session_name: str | None, turn: int | None, fmt: str, output: Path | None) -> Path:
    """Write one turn's snapshot; returns the file written."""
    if fmt not in FORMATS:
        raise MemchatError(f"unknown snapshot format {fmt!r}", "use --format json or --format md")
    sessions = SessionStore(db)
    session = sessions.by_name(session_name) if session_name else sessions.latest()
    if session is None:
        raise MemchatError(f"no session {session_name!r}" if session_name else "no sessions yet", "see `memchat sessions`")
    data = snapshot.load(db, session.id, turn)
    text = to_json(data) if fmt == "json" else to_markdown(data)
    if output is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = file_safe(session.name)  # a name stored before names were checked may hold "../"
        output = paths.ensure_dir(paths.snapshots_dir()) / f"{name}-turn{data['turn']}-{stamp}.{fmt}"
    if output.parent == paths.snapshots_dir():
        paths.private_dir(output.parent)
    else:
        output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    output.chmod(paths.PRIVATE_FILE)  # a turn quotes a person's life: theirs alone, wherever it is written
    return output
