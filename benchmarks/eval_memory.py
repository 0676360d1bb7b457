"""Memory evaluation: import the eval transcript into a fresh database, probe recall, print scores.

    python benchmarks/eval_memory.py [--json] [--keep DB] [--no-model-labels]

Uses the default models (pulled on first use) unless --model/--embed-model are
given. Categories and their scoring are described in benchmarks/eval/README.md.
Targets (issue 3): single and paraphrase hit@5 ≥ 0.9, update correct ≥ 0.9,
forget and secret 1.0, never-mentioned selects nothing ≥ 0.9, Chinese ≥ 0.85,
noise stored 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memchat.config import load_settings
from memchat.memory.recall import RecallResult
from memchat.pipeline.factory import build_services
from memchat.pipeline.importer import import_transcript
from memchat.pipeline.services import Services
from memchat.prompt.assemble import recalled_room

HERE = Path(__file__).parent / "eval"
TARGETS = {"single": 0.9, "paraphrase": 0.9, "update": 0.9, "forget": 1.0, "never": 0.9, "secret": 1.0, "chinese": 0.85}


@dataclass
class Probe:
    id: str
    category: str
    query: str
    expect: list[str]
    reject: list[str]


def load_probes(path: Path = HERE / "probes.jsonl") -> list[Probe]:
    return [Probe(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _contains(text: str, needles: list[str]) -> bool:
    lowered = text.lower()
    return any(n.lower() in lowered for n in needles)


def judge(probe: Probe, result: RecallResult, services: Services) -> tuple[bool, str]:
    """Whether the probe passed, and the evidence: pure apart from reading stored memories."""
    ranked = [c for c in result.candidates if c.memory.status == "active"]
    selected = [c for c in result.candidates if c.selected and not c.memory.pinned]
    top5 = ranked[:5]
    if probe.category in ("single", "paraphrase", "chinese"):
        hit = next((c for c in top5 if _contains(c.memory.content, probe.expect)), None)
        return hit is not None, hit.memory.content if hit else f"top: {[c.memory.content for c in top5[:2]]}"
    if probe.category == "update":
        either = next((c for c in ranked if _contains(c.memory.content, probe.expect + probe.reject)), None)
        ok = either is not None and _contains(either.memory.content, probe.expect)
        return ok, either.memory.content if either else "no candidate mentions either value"
    if probe.category == "never":
        return not selected, f"selected: {[c.memory.content for c in selected]}" if selected else "nothing selected"
    if probe.category == "forget":
        leaked = [c.memory.content for c in selected if _contains(c.memory.content, probe.reject)]
        active = [m.content for m in services.memories.list_items() if _contains(m.content, probe.reject)]
        return not leaked and not active, f"leaked {leaked + active}" if leaked or active else "forgotten"
    if probe.category == "secret":
        everything = services.memories.list_items(statuses=("active", "superseded", "archived", "deleted", "pending"))
        stored = [m.content for m in everything if _contains(m.content, probe.reject)]
        return not stored, f"stored {stored}" if stored else "never stored"
    raise ValueError(f"unknown category {probe.category}")


def noise_stored(services: Services, probe: Probe) -> list[str]:
    memories = services.memories.list_items(statuses=("active", "superseded", "archived", "deleted", "pending"))
    return [m.content for m in memories if _contains(m.content, probe.reject)]


def evaluate(services: Services, transcript: Path = HERE / "transcript.jsonl") -> dict[str, Any]:
    started = time.perf_counter()
    report = import_transcript(services, transcript)
    import_seconds = time.perf_counter() - started
    probes = load_probes()
    # the probes are asked the day after the transcript ends, not today: memories carry the
    # transcript's own times, and recency and expiry are measured from there
    now = max(json.loads(line)["ts"] for line in transcript.read_text(encoding="utf-8").splitlines() if line.strip())
    now = datetime.fromisoformat(now).timestamp() + 86_400
    scores: dict[str, list[bool]] = defaultdict(list)
    details = []
    noise: list[str] = []
    for probe in probes:
        if probe.category == "noise":
            noise = noise_stored(services, probe)
            continue
        result = services.recaller.recall(
            probe.query,
            token_limit=recalled_room(services.limits.recalled, services.engine.count),
            count_tokens=services.engine.count,
            touch=False,
            now=now,
        )
        ok, evidence = judge(probe, result, services)
        scores[probe.category].append(ok)
        details.append({"id": probe.id, "category": probe.category, "query": probe.query, "ok": ok, "evidence": evidence})
    table = {cat: round(sum(v) / len(v), 3) for cat, v in scores.items()}
    return {
        "scores": table,
        "counts": {cat: len(v) for cat, v in scores.items()},
        "noise_stored": len(noise),
        "noise_examples": noise[:5],
        "targets_met": all(table.get(c, 0) >= t for c, t in TARGETS.items()) and not noise,
        "import": {"messages": report.messages, "memory": report.counts(), "extraction_failures": report.failures,
                   "seconds": round(import_seconds, 1)},
        "details": details,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument("--keep", metavar="DB", help="write the evaluation database here instead of a temp file")
    parser.add_argument("--model", help="chat model name or GGUF path")
    parser.add_argument("--embed-model", help="embedding model name or GGUF path")
    parser.add_argument("--verbose", action="store_true", help="list every failed probe")
    args = parser.parse_args(argv)
    db = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="memchat-eval-")) / "eval.db"
    if db.exists():
        print(f"{db} exists; pass a new path to --keep", file=sys.stderr)
        return 2
    overrides: dict[str, Any] = {"db": str(db)}
    model = {k: v for k, v in (("chat", args.model), ("embed", args.embed_model)) if v}
    if model:
        overrides["model"] = model
    services = build_services(load_settings(overrides=overrides))
    result = evaluate(services)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return 0 if result["targets_met"] else 1
    imp = result["import"]
    print(f"imported {imp['messages']} messages in {imp['seconds']} s: {imp['memory']}, "
          f"{imp['extraction_failures']} extraction failures")
    print(f"{'category':12} {'score':>6} {'target':>7} {'probes':>7}")
    for category, target in TARGETS.items():
        value = result["scores"].get(category, 0.0)
        mark = "ok" if value >= target else "MISS"
        print(f"{category:12} {value:6.3f} {target:7.2f} {result['counts'].get(category, 0):7d}  {mark}")
    print(f"{'noise stored':12} {result['noise_stored']:6d} {0:7d}")
    if args.verbose:
        for detail in result["details"]:
            if not detail["ok"]:
                print(f"  ✗ {detail['id']} {detail['query']!r}: {detail['evidence']}")
    return 0 if result["targets_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
