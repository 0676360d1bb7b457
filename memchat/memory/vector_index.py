"""Exact nearest neighbours from an in-memory copy of the stored vectors.

sqlite-vec is the store of record; its brute-force `MATCH` scans every chunk
from SQLite pages on each query (~100 ms at 100k memories here). This module
keeps the same vectors, unit-normalised, in one float32 matrix and answers a
query with one matrix-vector product — the same exact answer, at NumPy's speed.

The copy follows the database without re-reading it: memory ids only grow
(AUTOINCREMENT, and writers are serialised), so new rows are those above the
last id loaded; anything that changes or removes a vector (a purge, an edit)
bumps `meta.vectors_epoch` in the same transaction, and a changed epoch reloads
the whole matrix. Both checks are one small query, so another process's writes
are seen on the next search.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from memchat.memory.store import Database

_CHUNK = 500  # ids per `rowid IN (…)` lookup


_BLOCK = 2048
"""Rows per block when several queries share a pass: small enough to stay in cache for the next query,
large enough that OpenBLAS still splits the product over its threads (it stops below ~2k rows)."""


def _products(matrix: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """queries × rows cosine products. For several queries, a block at a time: OpenBLAS's product with a
    thin second matrix (3 columns) is slower than three matrix-vector products (17 ms vs 15 at 100k
    rows); blocks read the matrix from memory once (9 ms for three)."""
    if len(queries) == 1:
        return (matrix @ queries[0])[None, :]
    out = np.empty((len(queries), len(matrix)), dtype=np.float32)
    for start in range(0, len(matrix), _BLOCK):
        block = matrix[start:start + _BLOCK]
        for row, query in enumerate(queries):
            np.dot(block, query, out=out[row, start:start + len(block)])
    return out


def bump_epoch(db: Database) -> None:
    """Tell every copy that a stored vector changed or went (call inside the changing transaction)."""
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_epoch'")


class VectorIndex:
    def __init__(self, db: Database, dim: int) -> None:
        self.db = db
        self.dim = dim
        self._ids = np.empty(0, dtype=np.int64)
        self._matrix = np.empty((0, dim), dtype=np.float32)  # rows [0, len) are the vectors; the rest is room
        self._count = 0
        self._epoch: str | None = None
        self._last_id = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    def nearest(self, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
        """(id, cosine similarity) of the k nearest stored vectors, nearest first, any status."""
        return self.nearest_each([vector], k)[0]

    def nearest_each(self, vectors: Sequence[Sequence[float]], k: int) -> list[list[tuple[int, float]]]:
        """`nearest` for several queries (a question and its parts), reading the matrix once."""
        queries = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), self.dim)
        norms = np.linalg.norm(queries, axis=1)
        with self._lock:
            self._sync()
            if not self._count or k <= 0 or not len(queries):
                return [[] for _ in vectors]
            similarities = _products(self._matrix[:self._count], queries / np.where(norms == 0.0, 1.0, norms)[:, None])
            ids = self._ids[:self._count]
        k = min(k, self._count)
        found = []
        for column, norm in zip(similarities, norms):
            if norm == 0.0:
                found.append([])
                continue
            top = np.argpartition(-column, k - 1)[:k]
            top = top[np.argsort(-column[top], kind="stable")]
            found.append([(int(ids[i]), float(column[i])) for i in top])
        return found

    def vectors(self, memory_ids: Sequence[int]) -> dict[int, np.ndarray]:
        """The stored (unit) vectors of these memories, those that have one; no SQLite lookup: sqlite-vec
        finds a rowid by scanning its chunks (~20 ms for a few ids at 100k rows)."""
        with self._lock:
            self._sync()
            ids = self._ids[:self._count]  # ascending: ids only grow, and a reload reads them in order
            if not len(ids):
                return {}
            wanted = np.asarray(list(memory_ids), dtype=np.int64)
            rows = np.minimum(np.searchsorted(ids, wanted), len(ids) - 1)
            return {int(m): self._matrix[r].copy() for m, r in zip(wanted, rows) if ids[r] == m}

    # ---- following the database ------------------------------------------------
    def _sync(self) -> None:
        state = self.db.row(
            "SELECT (SELECT value FROM meta WHERE key = 'vectors_epoch') AS epoch, "
            "(SELECT seq FROM sqlite_sequence WHERE name = 'memories') AS last_id"
        ) or {}
        epoch, last_id = state.get("epoch"), int(state.get("last_id") or 0)
        if epoch != self._epoch:
            self._count = 0
            self._epoch, self._last_id = epoch, 0
        if last_id > self._last_id:
            self._load_after(self._last_id, last_id)
            self._last_id = last_id

    def _load_after(self, first: int, last: int) -> None:
        new_ids = [r["id"] for r in self.db.rows("SELECT id FROM memories WHERE id > ? AND id <= ? ORDER BY id",
                                                 (first, last))]
        ids: list[int] = []
        blobs: list[bytes] = []
        for start in range(0, len(new_ids), _CHUNK):
            chunk = new_ids[start:start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for row in self.db.rows(f"SELECT rowid, embedding FROM memories_vec WHERE rowid IN ({marks})", chunk):
                ids.append(row["rowid"])
                blobs.append(row["embedding"])
        if not ids:
            return
        matrix = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), self.dim)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        self._append(np.asarray(ids, dtype=np.int64), matrix / np.where(norms == 0.0, 1.0, norms))

    def _append(self, ids: np.ndarray, matrix: np.ndarray) -> None:
        """Add rows, doubling the room when full (a turn adds a few rows to a matrix that may hold 100k)."""
        needed = self._count + len(ids)
        if needed > len(self._ids):
            room = max(needed, 2 * len(self._ids), 64)
            grown_ids = np.empty(room, dtype=np.int64)
            grown = np.empty((room, self.dim), dtype=np.float32)
            grown_ids[:self._count] = self._ids[:self._count]
            grown[:self._count] = self._matrix[:self._count]
            self._ids, self._matrix = grown_ids, grown
        self._ids[self._count:needed] = ids
        self._matrix[self._count:needed] = matrix
        self._count = needed
