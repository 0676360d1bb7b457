"""Moving history in and out: `memchat import FILE` and `memchat export memories|session`.

A long import draws a progress bar (messages/s, ETA) on stderr when stderr is a terminal, and
ends with a summary; `--json` prints the summary as JSON instead. Exports go to a file
(`-o FILE`, or the data dir's exports folder; the path is printed) or to stdout with `-o -`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from memchat.cli.output import show, show_json
from memchat.pipeline import exports, memory_export, session_export
from memchat.pipeline.factory import build_services, open_database
from memchat.pipeline.import_report import ImportProgress, ImportReport, ProgressCallback, no_progress
from memchat.pipeline.importer import import_file
from memchat.terminal_text import printable
from memchat.types import MemchatError


class RateColumn(ProgressColumn):
    """Messages per second, averaged over the bar's recent samples."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text(f"{speed:,.1f} msg/s" if speed else "– msg/s", style="progress.data.speed")


class ImportBar:
    """A rich progress bar on stderr, fed by the importer's progress callback."""

    def __init__(self) -> None:
        self.progress = Progress(
            TextColumn("[bold]importing[/]"), BarColumn(), MofNCompleteColumn(), RateColumn(),
            TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[current]}", markup=False),
            console=Console(stderr=True), transient=False, speed_estimate_period=60,
        )
        self.task = self.progress.add_task("import", total=None, current="")

    def __enter__(self) -> ProgressCallback:
        self.progress.start()
        return self.update

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def update(self, event: ImportProgress) -> None:
        current = printable(event.current, one_line=True)[:40]
        self.progress.update(self.task, total=event.total or None, completed=event.done, current=current)


def cmd_import(args: argparse.Namespace) -> int:
    services = build_services(args.settings, progress=not args.json)
    started = time.perf_counter()
    bar = ImportBar() if not args.json and sys.stderr.isatty() else None
    if bar is None:
        report = import_file(services, Path(args.file), skip_bad=args.skip_bad, on_progress=no_progress)
    else:
        with bar as on_progress:
            report = import_file(services, Path(args.file), skip_bad=args.skip_bad, on_progress=on_progress)
    seconds = time.perf_counter() - started
    result = {**report.summary(), "seconds": round(seconds, 2),
              "messages_per_second": round(report.messages / seconds, 1) if seconds > 0 else 0.0}
    if args.json:
        show_json(result)
    else:
        for line in summary_lines(report, seconds):
            show(line)
    return 0


def summary_lines(report: ImportReport, seconds: float) -> list[str]:
    """The end-of-import summary a person reads."""
    if report.kind == "memories":
        return [f"restored {report.restored} memories (ids, links and embeddings rebuilt) in {seconds:.1f}s"]
    counts = report.counts()
    memory = ", ".join(f"{counts[k]} {k}" for k in ("added", "superseded", "merged", "pending", "deleted", "skipped")
                       if counts.get(k)) or "nothing new"
    rate = f" ({report.messages / seconds:,.1f} messages/s)" if seconds > 0 and report.messages else ""
    lines = [f"imported {report.messages} messages into {len(report.sessions)} sessions in {seconds:.1f}s{rate}",
             f"memory: {memory}; extraction failures: {report.failures}"]
    if report.kind != "transcript":
        lines.append(f"conversations: {report.conversations} imported, {report.already} already imported (skipped), "
                     f"{report.empty} empty, {len(report.bad)} unreadable")
    if report.skipped:
        lines.append(f"{report.skipped} lines were already imported (skipped)")
    if report.resumed:
        lines.append(f"{report.resumed} messages left pending by an interrupted run were extracted first")
    if report.left_out:
        lines.append("left out: " + ", ".join(f"{n} {why}" for why, n in report.left_out.most_common()))
    lines += [f"not imported: {bad}" for bad in report.bad]
    for topic in report.unmatched_forgets:  # what the user asked to forget must not stay without a word
        offers = report.forget_offers.get(topic, [])
        lines.append(f"a forget request matched nothing, so nothing was forgotten: {topic!r}"
                     + (" — closest memories (`memchat memory forget ID` forgets one):" if offers else
                        " — and nothing stored is close to it"))
        lines += [f"  #{m.id}: {m.content}" for m in offers]
    return lines


def cmd_export(args: argparse.Namespace) -> int:
    db = open_database(args.settings, create=False)
    if args.what == "memories":
        text = exports.memories_text(db, args.format, everything=args.all)
        stem = "memories-all" if args.all else "memories"
    else:
        text = exports.session_text(db, args.name, args.format)
        stem = f"session-{args.name}"
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    output = Path(args.output).expanduser() if args.output else exports.default_path(stem, args.format)
    if output.is_dir():
        output = output / exports.default_path(stem, args.format).name
    if output.exists() and not output.is_file():  # /dev/null, a FIFO: never replaced by a file
        raise MemchatError(f"{output} is not a regular file", "pass -o with a file path, or '-o -' for stdout")
    show(str(exports.write_private(output, text)))
    return 0


def add_import_parser(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("import", parents=[parent],
                       help="import a JSONL transcript, a ChatGPT or Claude export, or a memories export")
    p.add_argument("file", help="transcript .jsonl, ChatGPT conversations.json or export .zip, Claude "
                                "conversations.json, or a `memchat export memories --format jsonl` file")
    p.add_argument("--skip-bad", action="store_true",
                   help="import the readable conversations of an export and list the others (default: stop)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_import)


def add_export_parser(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("export", parents=[parent], help="write memories or a session's transcript to a file")
    what = p.add_subparsers(dest="what", metavar="WHAT", required=True)
    m = what.add_parser("memories", parents=[parent], help="typed memories (active and pending; --all: everything)")
    m.add_argument("--all", action="store_true",
                   help="also superseded, archived and forgotten memories, and episodes (a full backup)")
    m.add_argument("--format", choices=memory_export.FORMATS, default="jsonl")
    s = what.add_parser("session", parents=[parent], help="one session's transcript")
    s.add_argument("name", help="the session's name (see `memchat sessions`)")
    s.add_argument("--format", choices=session_export.FORMATS, default="md")
    for q in (m, s):
        q.add_argument("-o", "--output", metavar="FILE",
                       help="file to write ('-' for stdout; default: the data dir's exports folder)")
    p.set_defaults(func=cmd_export)
