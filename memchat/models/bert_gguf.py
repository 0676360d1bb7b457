"""Convert a BERT sentence-embedding checkpoint (e.g. all-MiniLM-L6-v2) to a llama.cpp GGUF.

llama.cpp's `bert` architecture wants its own conventions, which this module encodes:
- WordPiece vocabulary in "phantom space" form: a word-initial token `dog` is stored
  as `▁dog`, a continuation `##s` as `s`, control tokens (`[CLS]`…) unchanged;
  llama.cpp prepends `▁` to each word and then matches greedily, which reproduces
  Hugging Face's `##` longest-match rule.
- Lower-casing and accent stripping are flags (`tokenizer.ggml.normalizer.*`), off
  unless written, so an uncased model must say so.
- 2-D weights in F16; norms, biases, position and token-type embeddings in F32.
- Mean pooling and non-causal attention come from the GGUF, not from the caller.

The output is byte-for-byte deterministic for a given input and `gguf` version.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import gguf
import numpy as np

from memchat.models.checkpoint import Checkpoint, load_checkpoint
from memchat.types import MemchatError

_LAYER_PARTS = {
    "attention.self.query": "attn_q",
    "attention.self.key": "attn_k",
    "attention.self.value": "attn_v",
    "attention.output.dense": "attn_output",
    "attention.output.LayerNorm": "attn_output_norm",
    "intermediate.dense": "ffn_up",
    "output.dense": "ffn_down",
    "output.LayerNorm": "layer_output_norm",
}
_EMBEDDING_PARTS = {
    "embeddings.word_embeddings": "token_embd",
    "embeddings.token_type_embeddings": "token_types",
    "embeddings.position_embeddings": "position_embd",
    "embeddings.LayerNorm": "token_embd_norm",
}
_UNUSED = re.compile(r"^(embeddings\.position_ids|pooler\..*)$")
_LAYER = re.compile(r"^encoder\.layer\.(\d+)\.(.+)\.(weight|bias)$")
_F32_ALWAYS = ("token_types", "position_embd")
_SPECIALS = {"cls": "[CLS]", "sep": "[SEP]", "unk": "[UNK]", "pad": "[PAD]", "mask": "[MASK]"}


def gguf_tensor_name(hf_name: str) -> str | None:
    """llama.cpp's name for a Hugging Face BERT tensor; None for tensors llama.cpp does not use."""
    name = hf_name.removeprefix("bert.")
    if _UNUSED.match(name):
        return None
    base, _, kind = name.rpartition(".")
    if base in _EMBEDDING_PARTS and kind in ("weight", "bias"):
        return f"{_EMBEDDING_PARTS[base]}.{kind}"
    match = _LAYER.match(name)
    if match and match.group(2) in _LAYER_PARTS:
        return f"blk.{match.group(1)}.{_LAYER_PARTS[match.group(2)]}.{match.group(3)}"
    raise MemchatError(f"unexpected tensor {hf_name} in the checkpoint", "only plain BERT encoders can be converted")


def phantom_vocab(tokenizer: dict[str, Any]) -> tuple[list[str], list[int]]:
    """Tokens in id order rewritten to llama.cpp's WordPiece spelling, with their token types."""
    model = tokenizer.get("model", {})
    if model.get("type") != "WordPiece":
        raise MemchatError("tokenizer.json is not a WordPiece tokenizer", "only BERT WordPiece models convert")
    prefix = model.get("continuing_subword_prefix", "##")
    by_id = {index: token for token, index in model["vocab"].items()}
    if sorted(by_id) != list(range(len(by_id))):
        raise MemchatError("tokenizer.json vocabulary ids are not contiguous", "the tokenizer file is corrupt")
    control = {t["content"] for t in tokenizer.get("added_tokens", []) if t.get("special")}
    tokens: list[str] = []
    types: list[int] = []
    for index in range(len(by_id)):
        token = by_id[index]
        if token in control:
            tokens.append(token)
            types.append(gguf.TokenType.CONTROL)
        else:
            tokens.append(token[len(prefix) :] if token.startswith(prefix) else "\u2581" + token)
            types.append(gguf.TokenType.NORMAL)
    return tokens, types


def _special_ids(ckpt: Checkpoint) -> dict[str, int]:
    vocab = ckpt.tokenizer["model"]["vocab"]
    ids = {}
    for role, fallback in _SPECIALS.items():
        token = ckpt.special_tokens.get(f"{role}_token", fallback)
        if isinstance(token, dict):
            token = token.get("content", fallback)
        if token not in vocab:
            raise MemchatError(f"tokenizer has no {role} token {token!r}", "only BERT WordPiece models convert")
        ids[role] = vocab[token]
    return ids


def _write_metadata(writer: gguf.GGUFWriter, ckpt: Checkpoint, name: str) -> None:
    cfg = ckpt.config
    if cfg.get("model_type") != "bert" or cfg.get("position_embedding_type", "absolute") != "absolute":
        raise MemchatError("the checkpoint is not a plain BERT model", "only BERT with absolute positions converts")
    if ckpt.pooling and not ckpt.pooling.get("pooling_mode_mean_tokens"):
        raise MemchatError("the checkpoint does not use mean pooling", "only mean-pooled models convert")
    writer.add_name(name)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    writer.add_context_length(int(cfg["max_position_embeddings"]))
    writer.add_embedding_length(int(cfg["hidden_size"]))
    writer.add_block_count(int(cfg["num_hidden_layers"]))
    writer.add_feed_forward_length(int(cfg["intermediate_size"]))
    writer.add_head_count(int(cfg["num_attention_heads"]))
    writer.add_layer_norm_eps(float(cfg["layer_norm_eps"]))
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN)

    tokens, types = phantom_vocab(ckpt.tokenizer)
    normalizer = ckpt.tokenizer.get("normalizer") or {}
    lowercase = bool(normalizer.get("lowercase", False))
    strip_accents = normalizer.get("strip_accents")
    writer.add_tokenizer_model("bert")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_type_count(int(cfg.get("type_vocab_size", 2)))
    writer.add_bool("tokenizer.ggml.normalizer.lowercase", lowercase)
    writer.add_bool("tokenizer.ggml.normalizer.strip_accents", lowercase if strip_accents is None else strip_accents)
    ids = _special_ids(ckpt)
    writer.add_bos_token_id(ids["cls"])  # llama.cpp prepends BOS; for BERT that is [CLS]
    writer.add_sep_token_id(ids["sep"])
    writer.add_unk_token_id(ids["unk"])
    writer.add_pad_token_id(ids["pad"])
    writer.add_mask_token_id(ids["mask"])
    writer.add_add_bos_token(True)
    writer.add_add_sep_token(True)
    writer.add_add_eos_token(False)


def _write_tensors(writer: gguf.GGUFWriter, tensors: dict[str, np.ndarray]) -> None:
    for hf_name in sorted(tensors):
        name = gguf_tensor_name(hf_name)
        if name is None:
            continue
        data = np.ascontiguousarray(tensors[hf_name], dtype=np.float32)
        keep_f32 = data.ndim == 1 or name.endswith("_norm.weight") or name.split(".")[0] in _F32_ALWAYS
        writer.add_tensor(name, data if keep_f32 else data.astype(np.float16))


def convert_checkpoint(ckpt: Checkpoint, out: Path, name: str) -> None:
    """Write `ckpt` as a bert GGUF at `out` (the caller moves it into place)."""
    writer = gguf.GGUFWriter(out, "bert")
    try:
        _write_metadata(writer, ckpt, name)
        _write_tensors(writer, ckpt.tensors)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
    finally:
        writer.close()


def convert(source: Path, out: Path, name: str) -> None:
    """Convert a checkpoint folder or zip at `source` into a GGUF at `out`."""
    convert_checkpoint(load_checkpoint(source), out, name)
