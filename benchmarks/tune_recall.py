"""Calibrate recall's gates and weights on the DEV split only (issue 7: tune on dev, report test).

    python benchmarks/tune_recall.py [--top 10]

Imports the dev personas once, records every probe's candidates with their signals, then
searches the gate settings (floor, high, min_lift, margin, middle_k) and the keyword and
recency weights by re-running the pure `select` — no model call per setting. The objective
is the mean selected-into-prompt rate over answerable probes plus the abstention rate on
never-mentioned probes (both matter: recalling nothing is as easy as recalling everything). Prints the best settings; copy them into RecallSettings.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from memeval.data import POSITIVE, load_split  # noqa: E402
from memeval.judge import Row, judge  # noqa: E402
from memeval.run import DAY, fresh_services  # noqa: E402

from memchat.config import RecallSettings, load_settings  # noqa: E402
from memchat.memory.recall import older_values, same_statements  # noqa: E402
from memchat.memory.scoring import relevance, score, select  # noqa: E402
from memchat.pipeline.factory import load_engines  # noqa: E402
from memchat.pipeline.importer import import_transcript  # noqa: E402
from memchat.prompt.assemble import recalled_room  # noqa: E402
from memchat.types import memory_line  # noqa: E402


def collect(engine, embedder):
    cases = []
    for persona in load_split()["dev"]:
        with tempfile.TemporaryDirectory() as tmp:
            services = fresh_services(engine, embedder, Path(tmp), labels=False)
            import_transcript(services, persona.transcript)
            room = recalled_room(services.limits.recalled, services.engine.count)
            for probe in persona.probes:
                if probe.category in ("noise", "secret"):
                    continue
                result = services.recaller.recall(probe.query, token_limit=room, count_tokens=engine.count,
                                                  touch=False, now=persona.last_ts + DAY)
                cases.append((probe, result.candidates, result.background, room))
            services.db.close()
    return cases


def evaluate(cases, settings: RecallSettings, count) -> tuple[float, float, dict[str, float]]:
    per: dict[str, list[bool]] = {}
    for probe, candidates, background, room in cases:
        rescored = []
        for c in candidates:
            read = "lexical-similarity" not in c.routes
            rel = relevance(c.signals, settings, read=read)
            rescored.append(replace(c, relevance=rel, score=score(c.signals, settings, read=read), selected=False))
        ranked = select(rescored, settings, room, count, background=background, duplicates=same_statements(rescored),
                        older=older_values(rescored))
        rows = [Row(c.memory.content, memory_line(c.memory), c.memory.status == "active", c.selected) for c in ranked]
        per.setdefault(probe.category, []).append(judge(probe, rows).selected)
    rates = {k: sum(v) / len(v) for k, v in per.items()}
    positive = sum(sum(per[c]) for c in POSITIVE if c in per) / sum(len(per[c]) for c in POSITIVE if c in per)
    return positive, rates.get("never", 1.0), rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=8)
    args = parser.parse_args()
    engine, embedder = load_engines(load_settings(), progress=False)
    cases = collect(engine, embedder)
    base = RecallSettings()
    results = []
    grid = itertools.product((0.44, 0.48, 0.52, 0.56, 0.6), (0.6, 0.65, 0.75), (0.1,), (0.25, 0.4),
                             (3, 5), (0.35, 0.5), (0.1,), (0.15,), (0.3,), (0.15, 0.25, 0.35))
    for floor, high, lift, margin, middle_k, w_kw, w_rec, w_slot, w_date, w_answer in grid:
        settings = replace(base, floor=floor, high=high, min_lift=lift, margin=margin, middle_k=middle_k,
                           w_keyword=w_kw, w_recency=w_rec, w_slot=w_slot, w_date=w_date, w_answer=w_answer)
        positive, never, rates = evaluate(cases, settings, engine.count)
        results.append((positive + never, positive, never, settings, rates))
    results.sort(key=lambda r: -r[0])
    now = evaluate(cases, base, engine.count)
    print(f"current defaults: positive {now[0]:.3f} never {now[1]:.3f} {now[2]}")
    for objective, positive, never, s, rates in results[: args.top]:
        print(f"positive {positive:.3f} never {never:.3f} floor={s.floor} high={s.high} min_lift={s.min_lift} "
              f"margin={s.margin} middle_k={s.middle_k} w_keyword={s.w_keyword} w_recency={s.w_recency} "
              f"w_slot={s.w_slot} w_date={s.w_date} w_answer={s.w_answer} "
              + " ".join(f"{k}={v:.2f}" for k, v in sorted(rates.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
