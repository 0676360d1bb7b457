"""Aggregate probe results into the tables and check the targets of issues 7 and 8. Pure."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from memeval.data import POSITIVE
from memeval.run import OFFSETS, PersonaRun
from memeval.writepath import WritePathScores

SELECTED_TARGETS = {"single": 0.85, "paraphrase": 0.85, "update": 0.85, "temporal": 0.85, "two_fact": 0.70}
TARGETS = {"forget": 1.0, "secret": 1.0, "never": 0.9, "chinese": 0.85, "baseline_ratio": 1.3, "offset_drift": 0.03}


def _rate(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def table(runs: list[PersonaRun]) -> dict[str, Any]:
    """{offset: {system: {category: {"hit": r, "selected": r, "n": n}}}} plus "chinese" and "overall"."""
    cells: dict[tuple[int, str, str], dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for run in runs:
        zh = run.persona.language == "zh"
        for result in run.results:
            keys = [result.probe.category] + (["chinese"] if zh and result.probe.category in POSITIVE else [])
            keys += ["overall"] if result.probe.category in POSITIVE else []
            for key in keys:
                cell = cells[(result.offset, result.system, key)]
                cell["hit"].append(result.verdict.hit)
                cell["selected"].append(result.verdict.selected)
                if result.verdict.date_ok is not None:
                    cell["date"].append(result.verdict.date_ok)
    out: dict[str, Any] = {}
    for (offset, system, key), cell in cells.items():
        out.setdefault(str(offset), {}).setdefault(system, {})[key] = {
            "hit": _rate(cell["hit"]), "selected": _rate(cell["selected"]), "date": _rate(cell["date"]),
            "n": len(cell["hit"]),
        }
    return out


def write_path(runs: list[PersonaRun], language: str | None = None) -> dict[str, Any]:
    total = WritePathScores()
    seconds, messages = 0.0, 0
    for run in runs:
        if language and run.persona.language != language:
            continue
        if run.write_path:
            total.add(run.write_path)
        seconds += run.import_seconds
        messages += len(run.persona.user_messages)
    rates = total.rates()
    rates["user_messages_per_s"] = round(messages / seconds, 1) if seconds else None
    return rates


def check(tab: dict[str, Any], noise: int) -> list[str]:
    """The targets missed, as readable lines (empty when every target holds)."""
    missed = []
    first = tab[str(OFFSETS[0])]["memchat"]
    for offset in OFFSETS:
        mine, base = tab[str(offset)]["memchat"], tab[str(offset)]["baseline"]
        for category, target in SELECTED_TARGETS.items():
            value = mine.get(category, {}).get("selected") or 0.0
            if value < target:
                missed.append(f"+{offset}d {category} selected {value} < {target}")
        for category in POSITIVE:
            if (mine.get(category, {}).get("hit") or 0) < (base.get(category, {}).get("hit") or 0):
                missed.append(f"+{offset}d {category} hit@5 below the baseline")
        ratio = (mine["overall"]["hit"] or 0) / max(base["overall"]["hit"] or 1e-9, 1e-9)
        if ratio < TARGETS["baseline_ratio"]:
            missed.append(f"+{offset}d overall hit@5 {ratio:.2f}× the baseline < {TARGETS['baseline_ratio']}×")
        for category in ("forget", "secret", "never"):
            value = mine.get(category, {}).get("selected") or 0.0
            if value < TARGETS[category]:
                missed.append(f"+{offset}d {category} {value} < {TARGETS[category]}")
        chinese = mine.get("chinese", {}).get("selected")
        if chinese is not None and chinese < TARGETS["chinese"]:
            missed.append(f"+{offset}d chinese selected {chinese} < {TARGETS['chinese']}")
        for category, cell in mine.items():
            drift = abs((cell["selected"] or 0) - (first[category]["selected"] or 0))
            if drift > TARGETS["offset_drift"]:
                missed.append(f"+{offset}d {category} drifts {drift:.3f} from +{OFFSETS[0]}d")
    if noise:
        missed.append(f"{noise} chit-chat messages stored")
    return missed
