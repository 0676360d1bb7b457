"""`memchat memory …`: list, show, pin, forget, purge, edit, trace and re-embed memories from a script."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict

from memchat.cli import arg_types
from memchat.cli.output import show, show_json
from memchat.memory.purge import PurgeReport
from memchat.memory.reindex import reindex
from memchat.pipeline.factory import build_services, load_embedder, open_database
from memchat.terminal_text import printable
from memchat.types import MEMORY_KINDS, MEMORY_STATUSES, STORED_KINDS, Memory, MemoryDraft, format_day


def memory_dict(memory: Memory) -> dict[str, object]:
    return asdict(memory)


def _line(memory: Memory) -> str:
    pin = "📌" if memory.pinned else "  "
    when = f"  ⟨{memory.event_label}⟩" if memory.event_at is not None else ""
    said = f"{format_day(memory.created_at)} said: " if memory.is_episode else ""
    content = printable(f"{said}{memory.content}{when}", one_line=True)
    return f"#{memory.id:<5} {pin} {memory.kind:10} {memory.status:10} {memory.importance:.2f}  {content}"


def _emit(args: argparse.Namespace, memories: list[Memory]) -> None:
    if getattr(args, "json", False):
        show_json([memory_dict(m) for m in memories])
    else:
        for memory in memories:
            show(_line(memory))


def _reindex(args: argparse.Namespace) -> int:
    db = open_database(args.settings, create=False)  # a mistyped --db fails before a model is loaded
    try:
        embedder = load_embedder(args.settings, progress=not args.json)
    except BaseException:
        db.close()
        raise
    tty = sys.stderr.isatty() and not args.json

    def progress(done: int, total: int) -> None:
        print(f"\rre-embedding {done}/{total} memories", end="" if done < total else "\n", file=sys.stderr, flush=True)

    try:
        report = reindex(db, embedder, progress=progress if tty else None)
    finally:
        db.close()
    if args.json:
        show_json(asdict(report))
    else:
        show(f"re-embedded {report.memories} memories with {report.new_model} ({report.new_dim}-d; they were "
             f"{report.old_model or 'none'}, {report.old_dim}-d) in {report.seconds:.1f} s")
    return 0


def _purged(args: argparse.Namespace, reports: list[PurgeReport]) -> None:
    if getattr(args, "json", False):
        show_json([asdict(r) for r in reports])
        return
    for report in reports:
        rows = (f"purged #{', #'.join(map(str, report.memory_ids))} (rows, keyword index entries, vectors); "
                if report.memory_ids else "")  # the topic's own words, scrubbed from what said them
        show(f"{rows}scrubbed {report.messages} message(s), {report.snapshots} snapshot(s), {report.notes} note(s), "
             f"{report.summaries} summary(ies), {report.drafts} unsent draft(s)")


def cmd_memory(args: argparse.Namespace) -> int:
    if args.action == "reindex":  # before the store is opened: it refuses vectors of another model
        return _reindex(args)
    services = build_services(args.settings, progress=False, create=args.action == "add")
    store = services.memories
    action = args.action
    if action == "list":
        statuses = MEMORY_STATUSES if args.all else ("active", "pending")
        _emit(args, store.list_items(statuses=statuses, kind=args.kind, episodes=args.episodes))
    elif action == "show":
        memory = store.require(args.id)
        if args.json:
            show_json(memory_dict(memory))
        else:
            for key, value in memory_dict(memory).items():
                if key.endswith("_at") and isinstance(value, float):
                    value = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(value))
                show(f"{key:16} {value}")
    elif action in ("pin", "unpin"):
        _emit(args, [store.pin(args.id, action == "pin")])
    elif action == "forget":  # with the sentences that told it, so recall cannot put it back
        _emit(args, services.writer.forget_one(args.id))
    elif action == "restore":
        _emit(args, services.writer.restore_one(args.id))
    elif action == "accept":
        outcome = services.writer.accept(args.id)  # raises unless the memory is pending
        show_json(asdict(outcome)) if args.json else show(f"{outcome.action} #{outcome.memory_id}: {outcome.reason}")
    elif action == "purge":
        _purged(args, [store.purge(args.id)])
    elif action == "purge-topic":
        reports = services.writer.purge_topic(args.topic)
        if not reports and not args.json:
            show(f"nothing about {printable(args.topic, one_line=True)!r} to purge")
        _purged(args, reports)
    elif action == "edit":
        _emit(args, [store.edit(args.id, args.text)])
    elif action == "history":
        _emit(args, store.history(args.id))
    elif action == "add":
        draft = MemoryDraft(kind=args.kind or "fact", content=args.text, attribute=args.key or "", importance=args.importance,
                            confidence=1.0, correction=True, pinned=args.pin)
        outcome = services.writer.apply(draft)
        show_json(asdict(outcome)) if args.json else show(f"{outcome.action} #{outcome.memory_id}")
    return 0


def add_parser(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    memory = sub.add_parser("memory", parents=[parent], help="inspect and steer long-term memory")
    actions = memory.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = actions.add_parser("list", parents=[parent], help="active memories (all statuses with --all)")
    p.add_argument("--all", action="store_true")
    p.add_argument("--kind", choices=STORED_KINDS, help="one kind; 'episode' lists what you said, as said")
    p.add_argument("--episodes", action="store_true", help="list episodes (your own words) beside typed memories")
    p.add_argument("--json", action="store_true")
    for name, text in (("show", "all fields of one memory"), ("pin", "always put it in the prompt"),
                       ("unpin", "stop pinning it"), ("forget", "soft delete (restore undoes it)"),
                       ("restore", "make a forgotten or archived memory active again"),
                       ("accept", "confirm a pending memory: it supersedes what it contradicts"),
                       ("purge", "hard delete: row, keyword index and vector"), ("history", "its supersession chain")):
        p = actions.add_parser(name, parents=[parent], help=text)
        p.add_argument("id", type=arg_types.memory_id)
        p.add_argument("--json", action="store_true")
    p = actions.add_parser("purge-topic", parents=[parent],
                           help="hard delete everything about a topic, forgotten memories included, and scrub "
                                "the messages that said it")
    p.add_argument("topic")
    p.add_argument("--json", action="store_true")
    p = actions.add_parser("edit", parents=[parent], help="new text (re-embedded and re-indexed)")
    p.add_argument("id", type=arg_types.memory_id)
    p.add_argument("text")
    p.add_argument("--json", action="store_true")
    p = actions.add_parser("reindex", parents=[parent],
                           help="re-embed every memory with the configured embedding model (after changing it)")
    p.add_argument("--json", action="store_true")
    p = actions.add_parser("add", parents=[parent], help="add a memory by hand")
    p.add_argument("text")
    p.add_argument("--kind", choices=MEMORY_KINDS)
    p.add_argument("--key", help="attribute key for conflict detection, e.g. home_city")
    p.add_argument("--importance", type=arg_types.fraction, default=0.7)
    p.add_argument("--pin", action="store_true")
    p.add_argument("--json", action="store_true")
    memory.set_defaults(func=cmd_memory)
