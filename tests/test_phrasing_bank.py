"""The rule detectors on the phrasing bank (benchmarks/eval2/phrasing_bank.jsonl, dev data written
apart from the rules): forget requests, secrets, chit-chat — and their look-alikes that must pass."""

import json
from collections import defaultdict
from pathlib import Path

import pytest

from memchat.memory.episodes import kept_sentences
from memchat.memory.rules import forget_topic
from memchat.memory.secrets import redact, secret_kind

BANK = Path(__file__).resolve().parent.parent / "benchmarks" / "eval2" / "phrasing_bank.jsonl"
ROWS = [json.loads(line) for line in BANK.read_text(encoding="utf-8").splitlines() if line.strip()]


def _passes(row: dict) -> bool:
    kind, text = row["kind"], row["text"]
    if kind == "forget":
        return forget_topic(text) is not None
    if kind == "not_forget":
        return forget_topic(text) is None
    if kind == "secret":
        return row["secret"] not in redact(text)
    if kind == "not_secret":
        return secret_kind(text) is None
    if kind == "chit_chat":
        return not kept_sentences(text)
    if kind == "statement":
        return bool(kept_sentences(text))
    raise ValueError(kind)


def _rates() -> dict[tuple[str, str], tuple[float, list[str]]]:
    groups: dict[tuple[str, str], list[tuple[bool, str]]] = defaultdict(list)
    for row in ROWS:
        groups[(row["kind"], row["lang"])].append((_passes(row), row["text"]))
    return {key: (sum(ok for ok, _ in rows) / len(rows), [t for ok, t in rows if not ok]) for key, rows in groups.items()}


RATES = _rates()


@pytest.mark.parametrize("key", sorted(RATES), ids=lambda k: f"{k[0]}-{k[1]}")
def test_detector_holds_on_the_phrasing_bank(key):
    rate, misses = RATES[key]
    floor = 1.0 if key[0] == "secret" else 0.95  # a secret that slips through is on disk for good
    assert rate >= floor, misses[:10]


def test_the_bank_covers_every_kind_in_both_languages():
    assert {k for k, _ in RATES} == {"forget", "not_forget", "secret", "not_secret", "chit_chat", "statement"}
    assert {lang for _, lang in RATES} == {"en", "zh"}
