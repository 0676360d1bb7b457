"""Chat-shaped commands: the TUI, `ask`, `sessions`, `recall`, `snapshot` (and `import`/`export`, from
`transfer_cmds`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

from memchat.cli import arg_types, transfer_cmds
from memchat.cli.output import show, show_json
from memchat.pipeline import export
from memchat.pipeline.factory import build_services, open_conversation, open_database
from memchat.pipeline.snapshot import candidate_dict
from memchat.prompt.assemble import recalled_room
from memchat.terminal_text import printable
from memchat.types import (
    FORGET_NOT_KEPT,
    FORGET_OFFER,
    FORGET_UNMATCHED,
    PURGE_OFFER,
    MemchatError,
    MemoryWritten,
    ReplyRestarted,
    TokenStreamed,
    TurnEvent,
    WriteOutcome,
)


def cmd_tui(args: argparse.Namespace) -> int:
    from memchat.ui.app import run_app

    return run_app(args.settings, session=getattr(args, "session", None), resume=getattr(args, "resume", False))


def cmd_ask(args: argparse.Namespace) -> int:
    text = args.text if args.text != "-" else arg_types.read_stdin()
    if not text.strip():
        raise MemchatError("empty message", 'pass the message as an argument, or "-" to read it from stdin')
    services = build_services(args.settings, progress=not args.json)
    conversation = open_conversation(services, args.session, resume=False)
    stream = not args.json and sys.stdout.isatty()

    written: list[WriteOutcome] = []

    def emit(event: TurnEvent) -> None:
        if stream and isinstance(event, TokenStreamed):
            show(event.text, end="", flush=True)
        elif stream and isinstance(event, ReplyRestarted):  # the text above is discarded: say so, then the new one
            show(f"\n[memchat: that reply {event.reason}; answering again]", file=sys.stderr, flush=True)
        elif isinstance(event, MemoryWritten):
            written.extend(event.outcomes)

    started = time.perf_counter()
    try:
        finished = conversation.run_turn(text, emit)
    except BaseException:
        services.sessions.discard_if_empty(conversation.session.id)
        raise
    seconds = time.perf_counter() - started
    conversation.wait()
    if args.json:
        show_json({
            "reply": finished.reply,
            "session": conversation.session.name,
            "turn": finished.turn,
            "tokens_in": finished.tokens_in,
            "tokens_out": finished.tokens_out,
            "seconds": round(seconds, 3),
            "recalled": [c.memory.id for c in (conversation.last_recall.selected if conversation.last_recall else [])],
            "memory": [asdict(o) for o in written],
        })
        return 0
    show() if stream else show(finished.reply)
    offers = [o for o in written if o.reason == FORGET_OFFER]
    for outcome in written:
        if outcome.reason == FORGET_NOT_KEPT:
            show(f"memchat: not kept: what this message said of {outcome.content!r}", file=sys.stderr)
    for outcome in written:  # what memory did with this message, on stderr so the reply stays clean
        if outcome.action not in ("skipped",) or "secret" in outcome.reason or outcome.reason == PURGE_OFFER:
            ident = f" #{outcome.memory_id}" if outcome.memory_id else ""
            show(f"memchat: memory {outcome.action}{ident}: {outcome.content} ({outcome.reason})", file=sys.stderr)
    if offers:  # nothing was forgotten: say so, with what came close
        show("memchat: nothing matched the forget request, so nothing was forgotten. Closest memories "
             "(`memchat memory forget ID` forgets one):", file=sys.stderr)
        for offer in offers:
            show(f"memchat:   #{offer.memory_id}: {offer.content}", file=sys.stderr)
    elif any(o.reason == FORGET_UNMATCHED for o in written) and not any(o.action == "deleted" for o in written):
        show("memchat: nothing matched the forget request, and nothing stored is close to it.", file=sys.stderr)
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    db = open_database(args.settings, create=False)
    from memchat.memory.sessions import SessionStore

    rows = SessionStore(db).all()
    if args.json:
        show_json([{"name": s.name, "messages": s.message_count, "updated_at": s.updated_at} for s in rows])
        return 0
    for session in rows:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(session.updated_at))
        show(f"{printable(session.name, one_line=True):32} {session.message_count:5} messages  {stamp}")
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    services = build_services(args.settings, progress=not args.json, create=False)
    result = services.recaller.recall(
        args.query,
        token_limit=recalled_room(services.limits.recalled, services.engine.count),
        count_tokens=services.engine.count,
        touch=False,
    )
    candidates = result.candidates[: args.k] if args.k else result.candidates
    if args.json:
        show_json({"query": args.query, "candidates": [candidate_dict(c) for c in candidates]})
        return 0
    if not candidates:
        print("no candidates")
    for c in candidates:
        mark = "✔" if c.selected else " "
        s = c.signals
        show(f"{mark} #{c.memory.id:<5} {c.score:.3f}  sim {s.similarity:.2f} kw {s.keyword:.2f} rec {s.recency:.2f} "
             f"imp {s.importance:.2f} pin {s.pinned:.0f}  "
             f"{printable(c.memory.content, one_line=True)}  ({c.reason})")
    return 0


def cmd_snapshot(args: argparse.Namespace) -> int:
    output = _snapshot_output(args.output) if args.output else None
    db = open_database(args.settings, create=False)
    created = output is not None and not output.exists()
    try:
        path = export.export(db, args.session, args.turn, args.format, output)
    except OSError as exc:  # a full disk or a path that cannot be written: no half-written file left behind
        if created and output is not None:
            output.unlink(missing_ok=True)
        where = output or "the snapshot folder"
        raise MemchatError(f"cannot write the snapshot to {where}: {exc.strerror or exc}",
                           "free some space or pass -o with a path you may write to") from exc
    show(str(path))
    return 0


def _snapshot_output(value: str) -> Path:
    """-o's file: a folder, a device or a FIFO is refused before anything is written."""
    output = Path(value).expanduser()
    if output.is_dir():
        raise MemchatError(f"{output} is a folder", f"pass a file name, e.g. -o {output / 'turn.json'}")
    if output.exists() and not output.is_file():
        raise MemchatError(f"{output} is not a regular file", "pass -o with the path of a file to write")
    parent = output.parent
    if parent.exists() and not os.access(parent, os.W_OK):
        raise MemchatError(f"cannot write in {parent}", "pass -o with a path in a folder you may write to")
    return output


def add_parsers(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("chat", parents=[parent], help="open the chat (same as no command)")
    p.add_argument("--session", metavar="NAME", type=arg_types.session_name)
    p.add_argument("--resume", action="store_true")
    p.set_defaults(func=cmd_tui)

    p = sub.add_parser("ask", parents=[parent], help="one full turn from a script; the reply goes to stdout")
    p.add_argument("text", help="the message ('-' reads stdin)")
    p.add_argument("--session", metavar="NAME", type=arg_types.session_name,
                   help="session to continue or create (default: a new one)")
    p.add_argument("--json", action="store_true", help="print a JSON object: reply, session, tokens_in, tokens_out, seconds")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("sessions", parents=[parent], help="list sessions, most recent first")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sessions)

    transfer_cmds.add_import_parser(sub, parent)

    p = sub.add_parser("recall", parents=[parent], help="show the recall candidate table for a query")
    p.add_argument("query")
    p.add_argument("--k", type=arg_types.count, default=0, help="show at most N candidates")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_recall)

    p = sub.add_parser("snapshot", parents=[parent], help="export one turn's debug snapshot")
    p.add_argument("--session", metavar="NAME", help="default: the most recent session")
    p.add_argument("--turn", type=arg_types.positive, help="default: the latest turn")
    p.add_argument("--format", choices=export.FORMATS, default="json")
    p.add_argument("-o", "--output", metavar="FILE", help="default: a file in the data dir (path printed)")
    p.set_defaults(func=cmd_snapshot)

    transfer_cmds.add_export_parser(sub, parent)


__all__ = ["MemchatError", "add_parsers"]
