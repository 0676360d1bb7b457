"""Memory evaluation (issues 7 and 8): personas imported into fresh databases, probes asked at
+1, +90 and +365 days, memchat beside plain retrieval over the raw user messages, same run.

    python benchmarks/eval_memory.py [--split dev|test|all] [--model-labels] [--verbose] [--json]
    python benchmarks/eval_memory.py --personas DIR     (held-out personas kept outside the repository)

Tune on the dev split only; the test split is reported, never tuned on. See
benchmarks/eval2/README.md for the data and how each probe is judged.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from memeval.data import CATEGORIES, Persona, load_persona, load_split  # noqa: E402
from memeval.report import SELECTED_TARGETS, check, table, write_path  # noqa: E402
from memeval.run import OFFSETS, PersonaRun, run_persona  # noqa: E402


def evaluate(personas: list[Persona], engine: Any, embedder: Any, *, labels: bool = True) -> dict[str, Any]:
    started = time.perf_counter()
    runs: list[PersonaRun] = [run_persona(p, engine, embedder, labels=labels) for p in personas]
    tab = table(runs)
    noise = sum(len(r.noise) for r in runs)
    return {
        "personas": [p.id for p in personas],
        "table": tab,
        "write_path": {"all": write_path(runs), "en": write_path(runs, "en"), "zh": write_path(runs, "zh")},
        "noise_stored": noise,
        "noise_examples": [t for r in runs for t in r.noise][:5],
        "missed": check(tab, noise),
        "failures": [
            {"id": r.probe.id, "offset": r.offset, "category": r.probe.category, "query": r.probe.query,
             "hit": r.verdict.hit, "selected": r.verdict.selected, "evidence": r.verdict.evidence}
            for run in runs for r in run.results
            if r.system == "memchat" and r.offset == OFFSETS[0] and not (r.verdict.hit and r.verdict.selected)
        ],
        "seconds": round(time.perf_counter() - started, 1),
    }


def _fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:5.2f}"


def print_report(name: str, result: dict[str, Any], held_out: bool = False) -> None:
    tab = result["table"]
    print(f"\n== {name}: {', '.join(result['personas'])} ({result['seconds']} s)")
    header = "category     " + "".join(f"| +{o}d hit  sel (base hit sel) " for o in OFFSETS)
    print(header)
    for category in (*CATEGORIES, "chinese", "overall"):
        if category == "noise":
            continue
        cells = []
        for offset in OFFSETS:
            mine = tab[str(offset)]["memchat"].get(category)
            base = tab[str(offset)]["baseline"].get(category)
            if not mine:
                cells.append(" " * 31)
                continue
            cells.append(f"| {_fmt(mine['hit'])} {_fmt(mine['selected'])} ({_fmt(base['hit'])} {_fmt(base['selected'])}) ")
        n = next((tab[str(o)]["memchat"][category]["n"] for o in OFFSETS if category in tab[str(o)]["memchat"]), 0)
        target = SELECTED_TARGETS.get(category, "")
        print(f"{category:12} " + "".join(cells) + f" n={n} {('target sel ≥ ' + str(target)) if target else ''}")
    dates = tab[str(OFFSETS[0])]["memchat"].get("temporal", {}).get("date")
    print(f"temporal probes whose selected memory shows the right date: {_fmt(dates)}")
    mine, base = tab[str(OFFSETS[0])]["memchat"]["overall"], tab[str(OFFSETS[0])]["baseline"]["overall"]
    print(f"overall hit@5 {mine['hit']} vs baseline {base['hit']}: {mine['hit'] / max(base['hit'], 1e-9):.2f}×")
    examples = "" if held_out else f" {result['noise_examples']}"  # held-out text stays unseen: counts only
    print(f"noise stored: {result['noise_stored']}{examples}")
    for language, rates in result["write_path"].items():
        print(f"write path [{language}]: " + ", ".join(f"{k} {_fmt(v)}" for k, v in rates.items()))
    print("targets: " + ("all met" if not result["missed"] else f"{len(result['missed'])} missed"))
    for line in result["missed"][:30]:
        print(f"  ✗ {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--model-labels", action="store_true",
                        help="let the chat model label importance (write.model_labels; off by default)")
    parser.add_argument("--verbose", action="store_true", help="list every probe that failed at +1 day")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--personas", type=Path, metavar="DIR",
                        help="evaluate every persona folder in DIR instead (held-out data kept outside the "
                             "repository); reported as the split 'held-out'")
    args = parser.parse_args(argv)

    from memchat.config import load_settings
    from memchat.pipeline.factory import load_engines

    engine, embedder = load_engines(load_settings(), progress=False)
    if args.personas:
        folders = sorted(p for p in args.personas.iterdir() if (p / "probes.jsonl").is_file())
        if not folders:
            parser.error(f"no persona folders (with probes.jsonl) in {args.personas}")
        splits, names = {"held-out": [load_persona(f) for f in folders]}, ["held-out"]
    else:
        splits = load_split()
        names = ["dev", "test"] if args.split == "all" else [args.split]
    results = {name: evaluate(splits[name], engine, embedder, labels=args.model_labels) for name in names}
    if args.json:
        if args.personas:  # figures only: no held-out probe, evidence or stored text
            results = {n: {k: v for k, v in r.items() if k not in ("failures", "noise_examples")} for n, r in results.items()}
        print(json.dumps(results, ensure_ascii=False, indent=1))
    else:
        for name, result in results.items():
            print_report(name, result, held_out=bool(args.personas))
            if args.verbose and args.personas:
                print("  (--verbose lists no held-out probe: held-out text is for nobody to read)")
            elif args.verbose:
                for failure in result["failures"]:
                    print(f"  · {failure['id']} [{failure['category']}] {failure['query']!r}: {failure['evidence']}")
    return 0 if all(not r["missed"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
