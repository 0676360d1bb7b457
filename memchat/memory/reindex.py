"""Re-embedding every memory with another embedding model (`memchat memory reindex`).

A store's vectors are only comparable with a query embedded by the same model, so the store records
which model made them (meta `embed_model`, `embed_dim`) and refuses another. Reindexing embeds every
row again — forgotten and superseded ones too, so a restore or the history finds them — and swaps
the vector table in one transaction: an interrupted reindex leaves the old vectors in place, whole.

The embedding runs before the transaction (the write lock is never held across a model call); if
another memchat process wrote memories meanwhile, the rows it changed are embedded again and the
swap retried, a few times, before giving up with a clear error. A memchat that has the store open
with the old model refuses its next search or write (`vector_index.reindexed_meanwhile`) rather than
mixing vectors of two models.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlite_vec

from memchat.engine.protocol import Embedder
from memchat.memory.slots import embedding_text
from memchat.memory.store import Database
from memchat.memory.vector_index import bump_epoch
from memchat.types import MemchatError

BATCH = 64
ATTEMPTS = 3


@dataclass(frozen=True)
class ReindexReport:
    memories: int
    old_model: str
    old_dim: int
    new_model: str
    new_dim: int
    seconds: float


def reindex(db: Database, embedder: Embedder, *, progress: Callable[[int, int], None] | None = None) -> ReindexReport:
    """Embed every memory with `embedder` and make its vectors the store's; see the module docstring."""
    started = time.perf_counter()
    old_model, old_dim = db.meta("embed_model") or "", int(db.meta("embed_dim") or 0)
    dim = int(embedder.dim)
    vectors: dict[int, tuple[str, bytes]] = {}  # id → (the text embedded, its vector as sqlite-vec stores it)
    for _attempt in range(ATTEMPTS):
        texts = _texts(db)
        todo = [(i, t) for i, t in texts.items() if vectors.get(i, ("", b""))[0] != t]
        for start in range(0, len(todo), BATCH):
            chunk = todo[start:start + BATCH]
            for (memory_id, text), vector in zip(chunk, embedder.embed([t for _, t in chunk]), strict=True):
                if len(vector) != dim:
                    raise MemchatError(f"{embedder.name} gave a {len(vector)}-d vector, not {dim}-d",
                                       "check the embedding model; the store was left as it was")
                vectors[memory_id] = (text, sqlite_vec.serialize_float32(vector))  # 4 bytes a number, not a float
            if progress is not None:
                progress(min(start + BATCH, len(todo)), len(todo))
        with db.transaction():
            if _texts(db) != texts:
                continue  # another process wrote meanwhile: embed what changed, then try again
            _swap(db, dim, embedder.name, {i: vectors[i][1] for i in texts})
        return ReindexReport(len(texts), old_model, old_dim, embedder.name, dim,
                             round(time.perf_counter() - started, 2))
    raise MemchatError("memories kept changing while they were re-embedded (another memchat is writing to this "
                       "database)", "close the other memchat and run `memchat memory reindex` again")


def _texts(db: Database) -> dict[int, str]:
    """What each memory is embedded as (its slot's question and its sentence, see `slots.embedding_text`)."""
    return {row["id"]: embedding_text(row["attribute"] or "", row["content"])
            for row in db.rows("SELECT id, attribute, content FROM memories ORDER BY id")}


def _swap(db: Database, dim: int, model: str, vectors: dict[int, bytes]) -> None:
    """The new vector table in place of the old, inside the caller's transaction."""
    db.create_vectors(dim, model)
    for memory_id, vector in vectors.items():
        db.execute("INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)", (memory_id, vector))
    bump_epoch(db)
