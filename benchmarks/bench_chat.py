"""Conversation quality (issue 10): a scripted 30-turn everyday session through memchat's real
pipeline and default models, run twice in one process — reply guard off (before) and on (after).

    python benchmarks/bench_chat.py [--n-ctx 2048] [--verbose] [--json]

Reported per run:
- identical: share of replies word-for-word equal to an earlier reply of the session;
- near-duplicate: share ≥ 0.9 similar to an earlier reply (the guard's own word-level ratio);
- on topic: share of general-knowledge questions whose reply names a key term of the answer
  (behaviour, not wording: greedy output differs between CPUs);
- memory answers: share of questions about what the user said whose reply names the fact;
- summary traceability: share of the rolling summary's names/numbers/places found in the session's
  messages — at the end, right after a forget request, and after a purge; plus whether the
  forgotten and purged names are gone from it. The session holds a long paste, so it is folded too.

The context is 2048 tokens and 192 are reserved per reply by default, so that 30 turns overflow
the window (the summary works) and a run takes minutes, not a quarter of an hour, on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memchat.config import load_settings
from memchat.memory.faithful import traceability, untraceable
from memchat.pipeline.factory import build_services, load_engines, open_conversation
from memchat.pipeline.reply_guard import NEAR_DUPLICATE, similarity, words
from memchat.types import ReplyRestarted, TurnEvent

PASTE = " ".join(
    f"Section {n}. The quarterly report lists revenue, staffing and the clinic's supply orders for region {n}. "
    "Most figures were unchanged from the previous quarter, and the board asked for a shorter format. "
    for n in range(1, 60)
)

# (kind, message, key terms a fitting reply names — a regular expression, lower case)
SCRIPT: list[tuple[str, str, str]] = [
    ("talk", "Hi there!", ""),
    ("fact", "My name is Marta and I live in Porto.", ""),
    ("fact", "I work as a pharmacist at a small clinic.", ""),
    ("general", "What is the capital of Japan?", r"tokyo"),
    ("fact", "My son Leo is nine and he plays the violin.", ""),
    ("memory", "What's my son's name?", r"\bleo\b"),
    ("general", "How many legs does a spider have?", r"\b8\b|eight"),
    ("talk", "thanks, that's helpful", ""),
    ("fact", "My brother Rui lives in Lisbon and my sister Ines is a nurse.", ""),
    ("memory", "Where do I live?", r"porto"),
    ("general", "Who wrote Romeo and Juliet?", r"shakespeare"),
    ("fact", "I have a dog called Bolt. He loves running on the beach.", ""),
    ("paste", "Can you look at this report for me? " + PASTE, ""),
    ("general", "What planet is known as the Red Planet?", r"mars"),
    ("memory", "What do I do for work?", r"pharmac"),
    ("talk", "ok cool", ""),
    ("fact", "I'm vegetarian, so no meat for me.", ""),
    ("general", "What is the largest ocean on Earth?", r"pacific"),
    ("memory", "What instrument does Leo play?", r"violin"),
    ("forget", "Please forget about my dog Bolt.", ""),
    ("general", "What is the boiling point of water in Celsius?", r"\b100\b|hundred"),
    ("talk", "How are you today?", ""),
    ("talk", "Can you suggest a dinner for me tonight?", ""),
    ("general", "What gas do plants take in from the air?", r"carbon|co2|co₂"),
    ("fact", "Next month we are going to Madrid for a wedding.", ""),
    ("general", "How many days are there in a week?", r"\b7\b|seven"),
    ("memory", "What is my sister's name?", r"\bines\b"),
    ("general", "What is the freezing point of water in Fahrenheit?", r"\b32\b|thirty-two"),
    ("talk", "That's all for now, thank you!", ""),
    ("general", "What is the chemical symbol for gold?", r"\bau\b"),
]
FORGOTTEN_NAME = "Bolt"
PURGED_NAME = "Rui"


@dataclass
class Run:
    guard: bool
    replies: list[str] = field(default_factory=list)
    restarts: int = 0
    seconds: float = 0.0
    traces: dict[str, float] = field(default_factory=dict)
    leaks: dict[str, bool] = field(default_factory=dict)
    untraced: list[str] = field(default_factory=list)
    summary: str = ""

    def share(self, predicate: Any) -> float:
        hits = [predicate(i, r) for i, r in enumerate(self.replies)]
        return sum(hits) / len(hits) if hits else 0.0

    def identical(self) -> float:
        return self.share(lambda i, r: any(words(r) == words(e) for e in self.replies[:i]))

    def near(self) -> float:
        return self.share(lambda i, r: any(similarity(r, e) >= NEAR_DUPLICATE for e in self.replies[:i]))

    def answered(self, kind: str) -> float:
        asked = [(r, s[2]) for r, s in zip(self.replies, SCRIPT, strict=True) if s[0] == kind]
        return sum(bool(re.search(key, r.lower())) for r, key in asked) / len(asked)


def run_session(engine: Any, embedder: Any, args: argparse.Namespace, guard: bool) -> Run:
    folder = Path(tempfile.mkdtemp(prefix="bench-chat-"))
    overrides = {"db": str(folder / "chat.db"), "model": {"n_ctx": args.n_ctx, "reply_guard": guard},
                 "budget": {"reserved_output": args.reply_tokens}}
    verbose = args.verbose
    services = build_services(load_settings(folder / "none.toml", overrides, environ={}), engine=engine,
                              embedder=embedder)
    conversation = open_conversation(services, "bench")
    run = Run(guard)

    def emit(event: TurnEvent) -> None:
        if isinstance(event, ReplyRestarted):
            run.restarts += 1

    def sources() -> list[str]:
        return [m.content for m in conversation.history()]

    started = time.perf_counter()
    for number, (kind, text, _) in enumerate(SCRIPT, start=1):
        finished = conversation.run_turn(text, emit)
        conversation.wait()
        run.replies.append(finished.reply)
        if verbose:
            print(f"  {number:2} {kind:7} {text[:60]!r}\n             → {finished.reply[:110]!r}"
                  f"  [summary: {len(conversation.summary.splitlines())} lines]")
        if kind == "forget":
            run.traces["after forget"] = traceability(conversation.summary, sources())
            run.leaks["forgotten name in summary"] = FORGOTTEN_NAME in conversation.summary
    run.seconds = time.perf_counter() - started
    run.traces["end of session"] = traceability(conversation.summary, sources())
    run.untraced = untraceable(conversation.summary, sources())
    run.leaks["forgotten name in summary (end)"] = FORGOTTEN_NAME in conversation.summary
    run.summary = conversation.summary
    for memory in services.memories.list_items(episodes=True):
        if PURGED_NAME in memory.content and services.memories.get(memory.id) is not None:
            services.memories.purge(memory.id)
    run.traces["after purge"] = traceability(conversation.summary, sources())
    run.leaks["purged sentence in summary"] = f"brother {PURGED_NAME}" in conversation.summary
    return run


def report(runs: list[Run]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for run in runs:
        out["after (guard on)" if run.guard else "before (guard off)"] = {
            "identical": round(run.identical(), 3),
            "near_duplicate": round(run.near(), 3),
            "general_on_topic": round(run.answered("general"), 3),
            "memory_answered": round(run.answered("memory"), 3),
            "regenerations": run.restarts,
            "summary_traceability": {k: round(v, 3) for k, v in run.traces.items()},
            "untraceable_entities": run.untraced,
            "leaks": run.leaks,
            "seconds": round(run.seconds, 1),
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-ctx", type=int, default=2048)
    parser.add_argument("--reply-tokens", type=int, default=192, help="tokens reserved for each reply")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = load_settings(Path("/nonexistent/none.toml"), {"model": {"n_ctx": args.n_ctx}})
    engine, embedder = load_engines(settings, progress=False)
    runs = []
    for guard in (False, True):
        if args.verbose:
            print(f"== reply guard {'on' if guard else 'off'}")
        runs.append(run_session(engine, embedder, args, guard))
    result = report(runs)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0
    print(f"{'':28}{'before (guard off)':>20}{'after (guard on)':>20}")
    before, after = result.values()
    for key in ("identical", "near_duplicate", "general_on_topic", "memory_answered", "regenerations", "seconds"):
        print(f"{key:28}{before[key]:>20}{after[key]:>20}")
    for key in after["summary_traceability"]:
        print(f"{'traceability ' + key:28}{before['summary_traceability'][key]:>20}{after['summary_traceability'][key]:>20}")
    for key in after["leaks"]:
        print(f"{key:34}{before['leaks'][key]!s:>14}{after['leaks'][key]!s:>20}")
    print("untraceable (after):", after["untraceable_entities"] or "none")
    print("summary (after, before the purge):\n" + "\n".join("  " + line for line in runs[-1].summary.splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
