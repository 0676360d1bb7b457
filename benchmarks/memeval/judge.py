"""Judging one probe against a ranked list of rows — memchat's candidates or the baseline's. Pure.

A row is what a retrieval put in front of the model (or considered): its text, the line the
prompt would show (with dates), whether it is current (active) and whether it was selected.
- hit@5: every expected group occurs in one of the five best current rows;
- selected: every expected group occurs in a selected row;
- update: additionally the old value must not rank above the new one (hit) nor be selected on
  its own as current truth (selected);
- never: nothing selected (abstention); forget: nothing about the topic selected or still active;
- secret: judged on the stored rows, not the ranking (see `stored_secret`).
"""

from __future__ import annotations

from dataclasses import dataclass

from memeval.data import Probe


@dataclass(frozen=True)
class Row:
    text: str
    line: str
    active: bool
    selected: bool


@dataclass(frozen=True)
class Verdict:
    hit: bool
    selected: bool
    date_ok: bool | None = None
    evidence: str = ""


def contains(text: str, group: tuple[str, ...]) -> bool:
    lowered = text.lower()
    return any(alt in lowered for alt in group)


def _first(rows: list[Row], group: tuple[str, ...]) -> int | None:
    return next((i for i, row in enumerate(rows) if contains(row.text, group)), None)


def _date_shown(rows: list[Row], probe: Probe) -> bool | None:
    if not probe.date or not probe.expect:
        return None
    wanted = (probe.date, probe.date[:7])  # the day, or its month for "in March"-grain memories
    return any(contains(r.text, probe.expect[0]) and any(w in r.line for w in wanted) for r in rows if r.selected)


def judge(probe: Probe, rows: list[Row]) -> Verdict:
    current = [r for r in rows if r.active]
    top5 = current[:5]
    chosen = [r for r in rows if r.selected]
    if probe.category == "never":
        return Verdict(hit=not chosen, selected=not chosen, evidence="; ".join(r.text[:60] for r in chosen[:3]))
    if probe.category == "forget":
        leaked = [r for r in chosen if any(contains(r.text, (w,)) for w in probe.reject)]
        return Verdict(hit=not leaked, selected=not leaked, evidence="; ".join(r.text[:60] for r in leaked[:3]))
    hit = all(_first(top5, group) is not None for group in probe.expect)
    selected = all(_first(chosen, group) is not None for group in probe.expect)
    if probe.category == "update" and probe.reject and probe.expect:
        new = _first(current, probe.expect[0])
        stale = [i for i, r in enumerate(current) if contains(r.text, probe.reject) and not contains(r.text, probe.expect[0])]
        hit = hit and (not stale or new is not None and new < stale[0])
        selected = selected and not any(
            contains(r.text, probe.reject) and not contains(r.text, probe.expect[0]) for r in chosen
        )
    evidence = "" if selected else "top: " + " | ".join(r.text[:70] for r in current[:3])
    return Verdict(hit, selected, _date_shown(rows, probe), evidence)


def stored_secret(probe: Probe, stored_texts: list[str]) -> bool:
    """True when a secret of the probe was stored anywhere (a failure)."""
    return any(contains(text, probe.reject) for text in stored_texts)


def stored_noise(probe: Probe, stored_texts: list[str]) -> list[str]:
    """Stored rows that are nothing but one of the chit-chat phrases."""
    phrases = {p.strip(" .!?").lower() for p in probe.reject}
    return [t for t in stored_texts if t.strip(" .!?").lower() in phrases]
