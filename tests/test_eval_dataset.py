"""Shape checks for the memory evaluation set in benchmarks/eval/.

Pure Python: no memchat imports. These tests keep the dataset honest (every probe
is answerable or deliberately unanswerable), they do not score any memory system.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest

EVAL_DIR = Path(__file__).resolve().parent.parent / "benchmarks" / "eval"
TRANSCRIPT = EVAL_DIR / "transcript.jsonl"
PROBES = EVAL_DIR / "probes.jsonl"

MIN_COUNTS = {
    "single": 10,
    "paraphrase": 10,
    "update": 6,
    "forget": 3,
    "never": 10,
    "secret": 4,
    "chinese": 8,
    "noise": 1,
}
MIN_SESSIONS = 40
MIN_NOISE_TURNS = 40

STOPWORDS = {
    "about", "also", "been", "could", "does", "each", "from", "have", "into", "just",
    "like", "many", "more", "most", "much", "only", "over", "really", "should", "some",
    "such", "than", "that", "their", "them", "then", "there", "these", "they", "this",
    "those", "very", "were", "what", "when", "where", "which", "while", "whom", "whose",
    "will", "with", "would", "your", "yours", "mine", "anything", "something",
}


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            assert line.strip(), f"{path.name}:{n} is blank"
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:  # pragma: no cover - failure path
                pytest.fail(f"{path.name}:{n} does not parse: {exc}")
    return rows


@pytest.fixture(scope="module")
def transcript() -> list[dict]:
    return _read_jsonl(TRANSCRIPT)


@pytest.fixture(scope="module")
def probes() -> list[dict]:
    return _read_jsonl(PROBES)


@pytest.fixture(scope="module")
def user_lines(transcript) -> list[str]:
    """Lower-cased user messages in file order."""
    return [r["content"].lower() for r in transcript if r["role"] == "user"]


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4} - STOPWORDS


def _first_index(lines: list[str], needles: list[str]) -> int | None:
    for i, line in enumerate(lines):
        if any(n in line for n in needles):
            return i
    return None


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


# --------------------------------------------------------------------------- transcript


def test_transcript_rows_have_the_expected_shape(transcript):
    assert transcript
    for r in transcript:
        assert set(r) == {"session", "role", "content", "ts"}, r
        assert re.fullmatch(r"s\d{2,}", r["session"]), r
        assert r["role"] in {"user", "assistant"}, r
        assert isinstance(r["content"], str) and r["content"].strip(), r
        datetime.fromisoformat(r["ts"])


def test_sessions_are_contiguous_numbered_and_sized(transcript):
    order: list[str] = []
    for r in transcript:
        if not order or order[-1] != r["session"]:
            assert r["session"] not in order, f"session {r['session']} is split"
            order.append(r["session"])
    assert len(order) >= MIN_SESSIONS
    assert order == [f"s{i:02d}" for i in range(1, len(order) + 1)]
    sizes = Counter(r["session"] for r in transcript)
    for sess, size in sizes.items():
        assert 2 <= size <= 8, f"{sess} has {size} messages"
    for sess in order:
        roles = [r["role"] for r in transcript if r["session"] == sess]
        assert "user" in roles and "assistant" in roles, sess


def test_timestamps_strictly_increase(transcript):
    stamps = [datetime.fromisoformat(r["ts"]) for r in transcript]
    for a, b in zip(stamps, stamps[1:]):
        assert b > a, f"{b} does not follow {a}"
    span = stamps[-1] - stamps[0]
    assert 45 <= span.days <= 75, "the transcript should cover about two months"


# --------------------------------------------------------------------------- probes


def test_probe_rows_have_the_expected_shape(probes):
    ids = [p["id"] for p in probes]
    assert len(ids) == len(set(ids)), "probe ids must be unique"
    for p in probes:
        assert set(p) == {"id", "category", "query", "expect", "reject"}, p
        assert p["category"] in MIN_COUNTS, p
        assert isinstance(p["query"], str)
        for key in ("expect", "reject"):
            assert isinstance(p[key], list), p
            for s in p[key]:
                assert isinstance(s, str) and s and s == s.lower(), (p["id"], s)
        if p["category"] == "noise":
            assert p["query"] == "" and p["expect"] == [] and p["reject"], p
        else:
            assert p["query"].strip(), p
        if p["category"] in {"never", "forget", "secret"}:
            assert p["expect"] == [], p
        if p["category"] in {"forget", "secret", "update"}:
            assert p["reject"], p
        if p["category"] in {"single", "paraphrase", "update", "chinese"}:
            assert p["expect"], p


def test_category_minimums(probes):
    counts = Counter(p["category"] for p in probes)
    for cat, minimum in MIN_COUNTS.items():
        assert counts[cat] >= minimum, f"{cat}: {counts[cat]} < {minimum}"


def test_positive_probes_are_answerable_from_user_lines(probes, user_lines):
    for p in probes:
        if p["category"] in {"single", "paraphrase", "update", "chinese"}:
            assert _first_index(user_lines, p["expect"]) is not None, p["id"]


def test_chinese_probes_are_chinese(probes):
    han = re.compile(r"[\u4e00-\u9fff]")
    for p in probes:
        if p["category"] == "chinese":
            assert han.search(p["query"]), p["id"]
            assert any(han.search(e) for e in p["expect"]), p["id"]


def test_updates_state_old_value_before_new_value(probes, user_lines):
    for p in probes:
        if p["category"] != "update":
            continue
        old = _first_index(user_lines, p["reject"])
        new = _first_index(user_lines, p["expect"])
        assert old is not None, f"{p['id']}: old value never stated"
        assert new is not None, f"{p['id']}: new value never stated"
        assert old < new, f"{p['id']}: new value stated before the old one"
        # the update statement itself should not repeat the old value,
        # so "reject in the top hit" is unambiguous
        for line in user_lines[new:]:
            if any(e in line for e in p["expect"]):
                assert not any(r in line for r in p["reject"]), (p["id"], line)


def test_paraphrases_share_no_content_word_with_their_statement(probes, user_lines):
    for p in probes:
        if p["category"] != "paraphrase":
            continue
        q_words = _content_words(p["query"])
        sources = [ln for ln in user_lines if any(e in ln for e in p["expect"])]
        assert sources, p["id"]
        for line in sources:
            shared = q_words & _content_words(line)
            assert not shared, f"{p['id']} shares {shared} with {line!r}"


def test_forgotten_facts_were_stated_before_the_forget_request(probes, user_lines):
    forget_re = re.compile(r"\bforget\b|忘掉|忘记")
    requests = [i for i, ln in enumerate(user_lines) if forget_re.search(ln)]
    assert len(requests) >= MIN_COUNTS["forget"]
    for p in probes:
        if p["category"] != "forget":
            continue
        first = _first_index(user_lines, p["reject"])
        assert first is not None, f"{p['id']}: forgotten fact never stated"
        assert any(r > first for r in requests), f"{p['id']}: no later forget request"


def test_secrets_appear_in_the_transcript(probes, transcript):
    raw = "\n".join(r["content"].lower() for r in transcript if r["role"] == "user")
    squashed = re.sub(r"[ \-]", "", raw)
    for p in probes:
        if p["category"] != "secret":
            continue
        assert any(s in raw for s in p["reject"]), p["id"]
        for s in p["reject"]:
            assert s in raw or s in squashed, (p["id"], s)
            digits = re.sub(r"[ \-]", "", s)
            if digits.isdigit() and len(digits) == 16:
                assert _luhn_ok(digits), f"{p['id']}: card number fails Luhn"
    # secrets must never leak into assistant replies either
    assistant = "\n".join(r["content"].lower() for r in transcript if r["role"] == "assistant")
    for p in probes:
        if p["category"] == "secret":
            for s in p["reject"]:
                assert s not in assistant, (p["id"], s)


def test_never_probes_ask_about_unmentioned_things(probes):
    for p in probes:
        if p["category"] == "never":
            assert p["expect"] == [] and p["reject"] == [], p["id"]


def test_noise_phrases_are_present_and_plentiful(probes, user_lines):
    noise = [p for p in probes if p["category"] == "noise"]
    phrases = [s for p in noise for s in p["reject"]]
    for s in phrases:
        assert any(s in ln for ln in user_lines), f"noise phrase {s!r} never said"
    noisy = [ln for ln in user_lines if any(s in ln for s in phrases)]
    assert len(noisy) >= MIN_NOISE_TURNS, len(noisy)


def test_noise_phrases_do_not_occur_in_fact_statements(probes, user_lines):
    phrases = [s for p in probes if p["category"] == "noise" for s in p["reject"]]
    needles = [e for p in probes for e in p["expect"]]
    needles += [r for p in probes if p["category"] in {"update", "forget", "secret"}
                for r in p["reject"]]
    for ln in user_lines:
        if any(n in ln for n in needles):
            hit = [s for s in phrases if s in ln]
            assert not hit, f"fact line {ln!r} contains noise phrase(s) {hit}"
