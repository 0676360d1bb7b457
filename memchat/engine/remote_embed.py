"""Embeddings from the server's /v1/embeddings (engine.embeddings = "remote").

Off by default: memory then depends on the server (down server, no recall or writes), and a
different embedding model means re-embedding every memory (`memchat memory reindex`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from memchat.engine.http_client import HttpClient
from memchat.engine.openai_compat import short_model
from memchat.types import MemchatError


class RemoteEmbedder:
    """Embeddings from the server's /v1/embeddings (engine.embeddings = "remote"), L2-normalised."""

    def __init__(self, base_url: str, *, model: str = "", api_key_env: str = "", timeout: float = 120.0,
                 connect_timeout: float = 5.0) -> None:
        self._client = HttpClient(base_url, timeout=timeout, connect_timeout=connect_timeout, api_key_env=api_key_env)
        self._model = model
        self.name = f"remote:{short_model(model) or 'server'}"
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        """The server's vector size, asked on first use."""
        if self._dim is None:
            self._dim = len(self.embed(["dimension probe"])[0])
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = value

    def coverage(self, text: str) -> float:
        return 1.0  # the server's tokenizer is not at hand; the similarity gate judges on its own

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        body: dict[str, Any] = {"input": [text or " " for text in texts]}
        if self._model:
            body["model"] = self._model
        answer = self._client.request("POST", "/v1/embeddings", body)
        data = answer.get("data") if isinstance(answer, dict) else None
        try:
            rows = sorted(data, key=lambda row: row.get("index", 0))  # type: ignore[arg-type]
            matrix = np.asarray([row["embedding"] for row in rows], dtype=np.float32)
        except (TypeError, KeyError, ValueError, AttributeError) as exc:
            raise MemchatError("the model server's /v1/embeddings answer is not a list of vectors",
                               "serve an embedding model there, or set engine.embeddings = \"local\"") from exc
        if matrix.ndim != 2 or len(matrix) != len(texts) or not np.isfinite(matrix).all():
            raise MemchatError(f"the model server returned {len(matrix)} embeddings for {len(texts)} texts",
                               "serve an embedding model there, or set engine.embeddings = \"local\"")
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return (matrix / np.where(norms == 0, 1.0, norms)).tolist()
