"""The memory evaluation set on the real default models must meet issue 3's targets."""

import sys
from pathlib import Path

import pytest

from memchat.config import load_settings
from memchat.pipeline.factory import build_services

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import eval_memory

pytestmark = [pytest.mark.real, pytest.mark.slow]


def test_evaluation_targets_are_met(tmp_path, real_engines):
    engine, embedder = real_engines
    settings = load_settings(tmp_path / "none.toml", {"db": str(tmp_path / "eval.db")}, environ={})
    result = eval_memory.evaluate(build_services(settings, engine=engine, embedder=embedder))
    failed = [d for d in result["details"] if not d["ok"]]
    for category, target in eval_memory.TARGETS.items():
        assert result["scores"][category] >= target, (category, failed)
    assert result["noise_stored"] == 0, result["noise_examples"]
    assert result["import"]["extraction_failures"] <= 5
