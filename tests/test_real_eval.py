"""The memory evaluation (benchmarks/eval_memory.py) on its TEST split, with the real default models.

The split's personas were written before any tuning and never tuned on. What is asserted:
- the behaviour the design promises outright: the same question a day, 90 days or a year after the
  conversation gets the same memories; forgotten topics and secrets stay out; chit-chat is not stored;
  memchat's candidates are at least as good as plain retrieval over the raw messages in every category;
- regression floors under the figures measured when this test was written (README, "Evaluation"),
  a few points below them so that kernel noise between CPUs and thread counts cannot flip them.
Issue 7's selection targets (≥ 0.85) are not met by the default models yet; see the README.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from eval_memory import evaluate  # noqa: E402
from memeval.data import POSITIVE, load_split  # noqa: E402
from memeval.run import OFFSETS  # noqa: E402

pytestmark = [pytest.mark.real, pytest.mark.slow]

FLOORS = {  # measured on the test split without model labels (README, "Evaluation", round 11), minus a margin
    "hit@5 overall": 0.80,   # measured 0.86
    "selected overall": 0.62,  # measured 0.68
    "single selected": 0.80,  # measured 0.87
    "update selected": 0.50,  # measured 0.57
    "chinese selected": 0.62,  # measured 0.69
    "never": 0.80,           # measured 0.88
    "temporal selected": 0.90,  # measured 0.97
    "fact recall": 0.73,     # measured 0.78
    "precision": 0.80,       # measured 0.86
    "forget": 0.85,          # measured 0.92
}


@pytest.fixture(scope="module")
def result(real_engines):
    engine, embedder = real_engines
    return evaluate(load_split()["test"], engine, embedder, labels=False)


def test_the_answer_does_not_depend_on_when_the_question_is_asked(result):
    first = result["table"][str(OFFSETS[0])]["memchat"]
    for offset in OFFSETS[1:]:
        later = result["table"][str(offset)]["memchat"]
        for category, cell in first.items():
            assert abs(later[category]["selected"] - cell["selected"]) <= 0.03, (offset, category)
            assert abs(later[category]["hit"] - cell["hit"]) <= 0.03, (offset, category)


def test_memchat_finds_at_least_what_plain_retrieval_finds(result):
    for offset in OFFSETS:
        mine, base = result["table"][str(offset)]["memchat"], result["table"][str(offset)]["baseline"]
        for category in POSITIVE:
            assert mine[category]["hit"] >= base[category]["hit"] - 0.03, (offset, category)
        assert mine["overall"]["hit"] >= 1.05 * base["overall"]["hit"], offset
        assert mine["overall"]["hit"] >= FLOORS["hit@5 overall"]
        assert mine["overall"]["selected"] >= FLOORS["selected overall"]
        assert mine["single"]["selected"] >= FLOORS["single selected"]
        assert mine["update"]["selected"] >= FLOORS["update selected"]
        assert mine["chinese"]["selected"] >= FLOORS["chinese selected"]


def test_unrelated_questions_recall_nothing_and_events_keep_their_dates(result):
    mine = result["table"][str(OFFSETS[0])]["memchat"]
    assert mine["never"]["selected"] >= FLOORS["never"]
    assert mine["temporal"]["selected"] >= FLOORS["temporal selected"]


def test_write_path_keeps_facts_and_little_else(result):
    rates = result["write_path"]["all"]
    assert rates["fact_recall"] >= FLOORS["fact recall"], rates
    assert rates["precision"] >= FLOORS["precision"], rates
    # import speed is a benchmark figure (eval_memory.py, bench_import.py), not asserted: a busy machine is no bug


def test_forgotten_topics_secrets_and_chit_chat_stay_out(result):
    mine = result["table"][str(OFFSETS[0])]["memchat"]
    assert mine["secret"]["selected"] == 1.0, [f for f in result["failures"] if f["category"] == "secret"]
    # issue 7's target is 1.0; measured 0.75 (a forget request naming a topic in other words than
    # the statement used, e.g. "my salary" for "they're paying 9,500 a month", is not reached yet)
    assert mine["forget"]["selected"] >= FLOORS["forget"], [f for f in result["failures"] if f["category"] == "forget"]
    assert result["noise_stored"] <= 2, result["noise_examples"]
