"""Import speed of a ChatGPT export with the default models (issue 12):

    python benchmarks/bench_import.py [--conversations 1000] [--messages 20] [--threads N] [--profile] [--json]

Builds a synthetic export (make_chatgpt_export.py: 1,000 conversations × 20 messages by
default) as a .zip in a temporary folder, imports it into a fresh database through
`memchat.pipeline.importer.import_file` with the real chat tokenizer and embedder (the same
path as `memchat import`), and prints messages/s, conversations/s and what the write path did.
Then runs the import again: every conversation is skipped (the resume path), and its time is
printed too. On a busy machine pass `--threads 1`: llama.cpp's threads wait for each other by
spinning, and with more threads than free cores one embedding can take 100× longer. `--profile` prints the 25 most expensive functions (cumulative) of the first run.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_chatgpt_export import make_export, write_export

from memchat.config import load_settings
from memchat.pipeline.factory import build_services, load_engines
from memchat.pipeline.import_report import ImportProgress
from memchat.pipeline.importer import import_file


def _every_thousand(started: float):
    """A progress callback printing a line to stderr every 1,000 messages (the rate as it goes)."""
    shown = [0]

    def report(event: ImportProgress) -> None:
        if event.done >= shown[0] + 1000 or (event.done == event.total and event.done > shown[0]):
            shown[0] = event.done
            seconds = time.perf_counter() - started
            print(f"  {event.done}/{event.total} messages, {seconds:.0f} s, {event.done / seconds:.1f} messages/s",
                  file=sys.stderr, flush=True)

    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        overrides: dict[str, object] = {"db": str(tmp / "bench.db")}
        if args.threads:
            overrides["model"] = {"n_threads": args.threads}
        settings = load_settings(tmp / "none.toml", overrides, environ={})
        engine, embedder = load_engines(settings, progress=False)
        services = build_services(settings, engine=engine, embedder=embedder)
        source = write_export(tmp / "chatgpt-export.zip", make_export(args.conversations, args.messages))

        profiler = cProfile.Profile() if args.profile else None
        started = time.perf_counter()
        if profiler:
            profiler.enable()
        report = import_file(services, source, on_progress=_every_thousand(started))
        if profiler:
            profiler.disable()
        seconds = time.perf_counter() - started

        again_started = time.perf_counter()
        again = import_file(services, source)
        again_seconds = time.perf_counter() - again_started

        result = {
            "conversations": report.conversations,
            "messages": report.messages,
            "user_messages": sum(1 for _ in services.db.rows("SELECT id FROM messages WHERE role = 'user'")),
            "seconds": round(seconds, 1),
            "messages_per_second": round(report.messages / seconds, 1),
            "conversations_per_second": round(report.conversations / seconds, 2),
            "memory": report.counts(),
            "memories_stored": services.db.scalar("SELECT COUNT(*) FROM memories"),
            "extraction_failures": report.failures,
            "pending_after": services.sessions.pending_count(),
            "rerun_skipped_conversations": again.already,
            "rerun_seconds": round(again_seconds, 2),
            "embedder": embedder.name,
            "threads": settings.model.n_threads,
        }
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print(f"imported {result['messages']} messages ({result['user_messages']} from the user) in "
                  f"{result['conversations']} conversations in {result['seconds']} s: "
                  f"{result['messages_per_second']} messages/s, {result['conversations_per_second']} conversations/s")
            print(f"memory: {result['memory']} ({result['memories_stored']} rows incl. episodes), "
                  f"extraction failures {result['extraction_failures']}, pending after {result['pending_after']}")
            print(f"re-run: {result['rerun_skipped_conversations']} conversations skipped in {result['rerun_seconds']} s")
            print(f"embedder {result['embedder']}, {result['threads']} threads")
        if profiler:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
