"""The paired embedder: the GGUF model and a multilingual one side by side (model.second_embed)."""

import numpy as np
import pytest

from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder
from memchat.engine.paired_embed import PairedEmbedder, second_embedder
from memchat.types import MemchatError


class _PartlyReading(FakeEmbedder):
    """Reads only ASCII, as all-MiniLM-L6-v2 reads no Chinese."""

    def coverage(self, text: str) -> float:
        return sum(c.isascii() for c in text) / max(1, len(text))


def _cos(a, b) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_the_paired_cosine_is_the_shares_of_the_two_cosines():
    first, second = _PartlyReading(64), FakeEmbedder(32)
    paired = PairedEmbedder(first, second, 0.7)
    one, other = "the user plays the cello on mondays", "cello rehearsal is on monday evenings"
    expected = 0.7 * _cos(*first.embed([one, other])) + 0.3 * _cos(*second.embed([one, other]))
    assert _cos(*paired.embed([one, other])) == pytest.approx(expected, abs=1e-6)
    assert paired.dim == 96 and len(paired.embed([one])[0]) == 96


def test_a_text_the_first_model_cannot_read_is_read_by_the_second_alone():
    first, second = _PartlyReading(64), FakeEmbedder(32)
    paired = PairedEmbedder(first, second, 0.7)
    one, other = "我每天跑步", "我每天游泳"
    assert _cos(*paired.embed([one, other])) == pytest.approx(_cos(*second.embed([one, other])), abs=1e-6)
    assert paired.coverage(one) == 1.0  # recall reads it by meaning, not by its words alone


def test_threads_sharing_the_paired_embedder_each_get_their_own_vectors():
    """Found in review: between embedding and reading its kept vectors a call let go of the lock, and another
    thread's call could push them out (KeyError)."""
    import threading
    import time

    inside, most = [0], [0]

    class Slow(FakeEmbedder):
        def embed(self, texts):
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            time.sleep(0.002)  # the other thread runs meanwhile
            inside[0] -= 1
            return super().embed(texts)

    paired = PairedEmbedder(Slow(16), FakeEmbedder(8), 0.5)
    alone = PairedEmbedder(FakeEmbedder(16), FakeEmbedder(8), 0.5)
    failures: list[BaseException] = []

    def work(prefix: str) -> None:
        try:
            for round_ in range(20):
                texts = [f"{prefix} text {round_} {i}" for i in range(40)]
                assert paired.embed(texts) == alone.embed(texts)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(name,)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert most[0] == 1  # one call at a time: a call's kept vectors cannot be pushed out before it reads them


def test_a_share_that_leaves_one_model_out_is_refused():
    with pytest.raises(MemchatError, match="between 0 and 1"):
        PairedEmbedder(FakeEmbedder(8), FakeEmbedder(8), 1.0)
    with pytest.raises(MemchatError, match="out of range"):
        load_settings(environ={"MEMCHAT_MODEL_FIRST_SHARE": "0"})
    with pytest.raises(MemchatError, match="second_embed"):
        load_settings(environ={"MEMCHAT_MODEL_SECOND_EMBED": "bert"})


def test_the_real_second_model_reads_chinese_by_meaning():
    use = second_embedder("use-m3")
    question, answer, unrelated = use.embed(["我平时做什么运动？", "我每天早上沿着运河跑五公里", "我姐姐在重庆当护士"])
    assert len(question) == 512
    assert _cos(question, answer) > _cos(question, unrelated) + 0.1


@pytest.mark.real
def test_switching_on_the_second_model_takes_a_reindex_and_then_recall_reads_chinese(tmp_path, real_model_paths,
                                                                                      capsys, monkeypatch):
    import json

    from memchat.cli.main import main

    db = str(tmp_path / "m.db")
    flags = ["--db", db, "--embed-model", str(real_model_paths["embed"])]
    assert main(["memory", "add", "我每天早上沿着运河跑五公里", *flags]) == 0
    assert main(["memory", "add", "My sister Clara lives in Porto", *flags]) == 0
    capsys.readouterr()
    monkeypatch.setenv("MEMCHAT_MODEL_SECOND_EMBED", "use-m3")
    assert main(["memory", "list", *flags]) != 0
    assert "memory reindex" in capsys.readouterr().err

    assert main(["memory", "reindex", "--json", *flags]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["memories"] == 2 and report["new_dim"] == 384 + 512 and report["old_dim"] == 384

    assert main(["recall", "我平时做什么运动？", "--json", *flags]) == 0
    candidates = json.loads(capsys.readouterr().out)["candidates"]
    assert candidates[0]["content"].startswith("我每天早上")
    running, other = candidates[0]["signals"]["similarity"], candidates[1]["signals"]["similarity"]
    assert running > other + 0.2  # by meaning: the English embedder alone gives both 0 (its words are [UNK])
