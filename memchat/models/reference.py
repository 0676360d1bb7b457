"""A plain NumPy forward pass of a BERT sentence encoder, the yardstick for the GGUF.

It runs the original float32 safetensors weights (not the converted file) through
embeddings → N post-norm encoder layers → mean pooling over the attention mask,
with exact (erf) GELU as Hugging Face does. If llama.cpp's embedding of the
converted GGUF agrees with this to cosine ≥ 0.999, the conversion is right: names,
layouts, vocabulary and hyperparameters all have to line up for that to happen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memchat.models.checkpoint import Checkpoint


def _erf(x: np.ndarray) -> np.ndarray:
    """erf via Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): numpy has no erf of its own."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    result: np.ndarray = sign * (1.0 - poly * np.exp(-a * a))
    return result


def gelu(x: np.ndarray) -> np.ndarray:
    result: np.ndarray = 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0)))
    return result


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    result: np.ndarray = (x - mean) / np.sqrt(var + eps) * weight + bias
    return result


class ReferenceBert:
    """Mean-pooled sentence embeddings computed in float64 from the checkpoint's weights."""

    def __init__(self, ckpt: Checkpoint) -> None:
        self.w = {k.removeprefix("bert."): np.asarray(v, dtype=np.float64) for k, v in ckpt.tensors.items()}
        cfg = ckpt.config
        self.layers = int(cfg["num_hidden_layers"])
        self.heads = int(cfg["num_attention_heads"])
        self.eps = float(cfg["layer_norm_eps"])

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return layer_norm(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def _attention(self, x: np.ndarray, mask: np.ndarray, prefix: str) -> np.ndarray:
        batch, seq, width = x.shape
        head = width // self.heads

        def split(t: np.ndarray) -> np.ndarray:
            return t.reshape(batch, seq, self.heads, head).transpose(0, 2, 1, 3)

        q = split(self._linear(x, f"{prefix}.self.query"))
        k = split(self._linear(x, f"{prefix}.self.key"))
        v = split(self._linear(x, f"{prefix}.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(head)
        scores = scores + np.where(mask[:, None, None, :], 0.0, -1e9)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        probs = scores / scores.sum(axis=-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, width)
        return self._linear(context, f"{prefix}.output.dense")

    def hidden_states(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last-layer token states for a padded batch of ids (`mask` marks real tokens)."""
        positions = np.arange(ids.shape[1])
        x = (
            self.w["embeddings.word_embeddings.weight"][ids]
            + self.w["embeddings.position_embeddings.weight"][positions][None]
            + self.w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        for index in range(self.layers):
            prefix = f"encoder.layer.{index}"
            x = self._norm(x + self._attention(x, mask, f"{prefix}.attention"), f"{prefix}.attention.output.LayerNorm")
            hidden = gelu(self._linear(x, f"{prefix}.intermediate.dense"))
            x = self._norm(x + self._linear(hidden, f"{prefix}.output.dense"), f"{prefix}.output.LayerNorm")
        return x

    def embed(self, batch: Sequence[Sequence[int]]) -> np.ndarray:
        """Mean-pooled (not normalised) embeddings, one row per id sequence."""
        length = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=bool)
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = True
        states = self.hidden_states(ids, mask)
        weights = mask[..., None].astype(np.float64)
        pooled: np.ndarray = (states * weights).sum(axis=1) / weights.sum(axis=1)
        return pooled
