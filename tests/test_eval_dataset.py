"""Shape checks for the memory evaluation set in benchmarks/eval2/ (no memchat imports).

They keep the data honest — every expected string was said by the user, every probe has a
known category, dev and test personas do not overlap — they do not score any memory system.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "benchmarks" / "eval2"
SPLIT = json.loads((ROOT / "split.json").read_text(encoding="utf-8"))
PERSONAS = SPLIT["dev"] + SPLIT["test"]
CATEGORIES = {"single", "paraphrase", "update", "temporal", "two_fact", "never", "forget", "secret", "noise"}


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _user_text(persona: str) -> str:
    return "\n".join(m["content"] for m in _jsonl(ROOT / "personas" / persona / "transcript.jsonl")
                     if m["role"] == "user").lower()


def test_dev_and_test_are_disjoint_and_big_enough():
    assert not set(SPLIT["dev"]) & set(SPLIT["test"])
    assert len(PERSONAS) >= 8
    assert sum(len(_jsonl(ROOT / "personas" / p / "probes.jsonl")) for p in PERSONAS) >= 400
    styles = {p.split("_")[0] + ("_" + p.split("_")[1] if p.startswith("en") else "") for p in PERSONAS}
    assert styles == {"en_short", "en_chatty", "zh"}


@pytest.mark.parametrize("persona", PERSONAS)
def test_transcript_is_ordered_and_alternates(persona):
    lines = _jsonl(ROOT / "personas" / persona / "transcript.jsonl")
    times = [datetime.fromisoformat(m["ts"]) for m in lines]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert all(m["role"] in ("user", "assistant") for m in lines)
    assert (max(times) - min(times)).days >= 150, "probes ask about months of conversation"


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_probe_is_answerable_from_what_the_user_said(persona):
    said = _user_text(persona)
    probes = _jsonl(ROOT / "personas" / persona / "probes.jsonl")
    assert {p["category"] for p in probes} <= CATEGORIES
    assert Counter(p["category"] for p in probes)["never"] >= 5
    for probe in probes:
        for group in probe["expect"]:
            assert any(alt.lower() in said for alt in group), (probe["id"], group)
        if probe["category"] in ("update", "forget", "secret"):
            assert all(word.lower() in said for word in probe["reject"]), (probe["id"], probe["reject"])
        if probe["category"] == "temporal" and probe.get("date"):
            datetime.fromisoformat(probe["date"])


@pytest.mark.parametrize("persona", PERSONAS)
def test_gold_facts_match_what_was_said(persona):
    said = _user_text(persona)
    for fact in _jsonl(ROOT / "personas" / persona / "facts.jsonl"):
        assert fact["status"] in ("current", "superseded", "retired", "forgotten")
        assert fact["kind"] in ("fact", "preference", "event", "relation")
        for group in fact["match"]:
            assert any(alt.lower() in said for alt in group), (fact["id"], group)
