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

A large store (PREFILTER_MIN rows and more) is searched in two steps: a Hamming
distance over one sign bit per dimension (of the vector minus the store's mean,
so the bits split the data evenly) picks a pool of a few thousand rows, and the
exact cosine product ranks that pool. The bits are 48 bytes a row at 384
dimensions and stored one column of 64-bit words per bit group, so a query
reads each group once — about 0.4 ms at 100k rows against 4.5 ms for the full
product. The pool (`PREFILTER_POOL`, at least 25 per neighbour asked) is wide
enough that the exact top-10 is found 0.99+ of the time (bench_recall measures
it); sqlite-vec stays the store of record.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from memchat.memory.store import Database
from memchat.types import MemchatError

_CHUNK = 500  # ids per `rowid IN (…)` lookup


PREFILTER_MIN = 20_000
"""Below this many rows the exact product is under a millisecond: no pre-filter."""
PREFILTER_POOL = 4_000
"""Rows the bit pre-filter passes to the exact product (more, where a query asks for more neighbours)."""
_POOL_PER_NEIGHBOUR = 25

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


def sign_words(vectors: np.ndarray, center: np.ndarray) -> np.ndarray:
    """One bit per dimension (above the center or not), packed into 64-bit words: rows × words."""
    packed = np.packbits(vectors > center, axis=1)
    words = -(-packed.shape[1] // 8)
    padded = np.zeros((len(packed), words * 8), dtype=np.uint8)
    padded[:, :packed.shape[1]] = packed
    return padded.view(np.uint64)


def hamming(columns: np.ndarray, query_words: np.ndarray) -> np.ndarray:
    """Bits differing between each row (stored as `columns`: words × rows) and the query's words."""
    distance = np.zeros(columns.shape[1], dtype=np.uint16)
    scratch = np.empty(columns.shape[1], dtype=np.uint64)
    for column, word in zip(columns, query_words):
        np.bitwise_xor(column, word, out=scratch)
        distance += np.bitwise_count(scratch)
    return distance


def nearest_by_distance(distance: np.ndarray, pool: int, bits: int) -> np.ndarray:
    """Rows whose distance is at most the pool-th smallest (ties included): counting the few possible
    distances is cheaper than partially sorting every row."""
    counts = np.cumsum(np.bincount(distance, minlength=bits + 1))
    limit = int(np.searchsorted(counts, pool))
    return np.flatnonzero(distance <= limit)


def reindexed_meanwhile(db: Database, model: str) -> MemchatError:
    """The error for a store another memchat re-embedded with another model while this one had it open."""
    return MemchatError(f"another memchat re-embedded this database with {db.meta('embed_model')} while this one "
                        f"was using {model}", "restart memchat (with the settings that embed with the new model)")


def bump_epoch(db: Database) -> None:
    """Tell every copy that a stored vector changed or went (call inside the changing transaction)."""
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vectors_epoch'")


class VectorIndex:
    def __init__(self, db: Database, dim: int, model: str | None = None) -> None:
        self.db = db
        self.dim = dim
        self.model = model  # the embedder queries come from: another process's reindex changes the store's
        self._ids = np.empty(0, dtype=np.int64)
        self._matrix = np.empty((0, dim), dtype=np.float32)  # rows [0, len) are the vectors; the rest is room
        self._count = 0
        self._columns = np.empty((0, 0), dtype=np.uint64)  # sign words, words × rows [0, _coded)
        self._coded = 0
        self._center: np.ndarray | None = None
        self._centered_at = 0  # rows when the center was taken: re-taken once the store has doubled
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
        queries = queries / np.where(norms == 0.0, 1.0, norms)[:, None]
        with self._lock:
            self._sync()
            if not self._count or k <= 0 or not len(queries):
                return [[] for _ in vectors]
            k = min(k, self._count)
            pool = max(PREFILTER_POOL, _POOL_PER_NEIGHBOUR * k)
            if self._count >= PREFILTER_MIN and 2 * pool < self._count:
                return [self._prefiltered(query, k, pool) if norm else [] for query, norm in zip(queries, norms)]
            similarities = _products(self._matrix[:self._count], queries)
            ids = self._ids[:self._count]
        found = []
        for column, norm in zip(similarities, norms):
            found.append(_top(ids, np.arange(len(ids)), column, k) if norm else [])
        return found

    def _prefiltered(self, query: np.ndarray, k: int, pool: int) -> list[tuple[int, float]]:
        """The k nearest among the pool of rows nearest by sign bits, ranked by the exact product."""
        self._code()
        assert self._center is not None
        rows = nearest_by_distance(hamming(self._columns[:, :self._count], sign_words(query[None, :], self._center)[0]),
                                   pool, self.dim)
        return _top(self._ids, rows, self._matrix[rows] @ query, k)

    def _code(self) -> None:
        """Sign words for rows added since the last search; all of them again with a fresh center once the
        store has doubled since the center was taken (the mean drifts as a store fills)."""
        if self._center is None or self._count >= 2 * self._centered_at:
            self._center = self._matrix[:self._count].mean(axis=0)
            self._centered_at, self._coded = self._count, 0
        if self._coded == self._count:
            return
        fresh = np.ascontiguousarray(sign_words(self._matrix[self._coded:self._count], self._center).T)
        if self._columns.shape[1] < self._count:
            grown = np.empty((fresh.shape[0], len(self._ids)), dtype=np.uint64)
            if self._coded:
                grown[:, :self._coded] = self._columns[:, :self._coded]
            self._columns = grown
        self._columns[:, self._coded:self._count] = fresh
        self._coded = self._count

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
            if self.model is not None and self.db.meta("embed_model") != self.model:
                raise reindexed_meanwhile(self.db, self.model)
            self._count = self._coded = 0
            self._center = None
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


def _top(ids: np.ndarray, rows: np.ndarray, similarities: np.ndarray, k: int) -> list[tuple[int, float]]:
    """(id, similarity) of the k best of `rows` (whose similarities are given in the same order), best first."""
    k = min(k, len(rows))
    best = np.argpartition(-similarities, k - 1)[:k]
    best = best[np.argsort(-similarities[best], kind="stable")]
    return [(int(ids[rows[i]]), float(similarities[i])) for i in best]
