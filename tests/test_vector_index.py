"""The in-memory vector copy answers exactly what sqlite-vec answers, and follows every change."""

import numpy as np
import pytest
import sqlite_vec
from helpers import fake_services

from memchat.memory.vector_index import VectorIndex
from memchat.types import MemoryDraft


def _sqlite_vec_knn(db, vector, k):
    rows = db.rows("SELECT rowid, distance FROM memories_vec WHERE embedding MATCH ? AND k = ?",
                   (sqlite_vec.serialize_float32(list(vector)), k))
    return [(r["rowid"], 1.0 - r["distance"]) for r in rows]


def _add(services, text):
    return services.memories.add(MemoryDraft(kind="fact", content=text))


TEXTS = [f"The user {verb} {thing} on {day}." for verb in ("likes", "hates", "buys", "cooks")
         for thing in ("tea", "coffee", "rice", "fish", "bread") for day in ("Monday", "Friday", "weekends")]


def test_nearest_is_the_same_answer_as_sqlite_vec(tmp_path):
    services = fake_services(tmp_path)
    for text in TEXTS:
        _add(services, text)
    for query in ("tea on Monday", "who cooks fish", "bread weekends", "nothing shared"):
        vector = services.embedder.embed([query])[0]
        ours = services.memories.knn(vector, 10)
        theirs = _sqlite_vec_knn(services.db, vector, 10)
        assert np.allclose([s for _, s in ours], [s for _, s in theirs], atol=1e-5)
        cutoff = theirs[-1][1] + 1e-5  # at the k-th score ties may fall either way; above it, the same ids
        assert {i for i, s in ours if s > cutoff} == {i for i, s in theirs if s > cutoff}


def test_the_copy_follows_adds_purges_and_edits_made_through_another_connection(tmp_path):
    services, other = fake_services(tmp_path), fake_services(tmp_path)
    tea = _add(services, "The user drinks green tea.")
    vector = services.embedder.embed(["green tea"])[0]
    assert services.memories.knn(vector, 1)[0][0] == tea.id
    coffee = _add(other, "The user drinks green coffee with green tea.")  # another process adds
    assert {i for i, _ in services.memories.knn(vector, 5)} == {tea.id, coffee.id}
    other.memories.purge(tea.id)  # …purges
    assert [i for i, _ in services.memories.knn(vector, 5)] == [coffee.id]
    other.memories.edit(coffee.id, "The user rides a red bicycle.")  # …and edits
    bicycle = services.embedder.embed(["red bicycle"])[0]
    assert services.memories.knn(bicycle, 1) == [(coffee.id, pytest.approx(_sqlite_vec_knn(other.db, bicycle, 1)[0][1]))]
    assert services.memories.knn(bicycle, 1)[0][1] > 0.5  # the new text's vector, not green coffee's


def test_an_empty_store_and_a_zero_query_find_nothing(tmp_path):
    services = fake_services(tmp_path)
    index = VectorIndex(services.db, services.embedder.dim)
    assert index.nearest([1.0] * services.embedder.dim, 5) == []
    _add(services, "The user likes tea.")
    assert index.nearest([0.0] * services.embedder.dim, 5) == []
    assert len(index.nearest(services.embedder.embed(["tea"])[0], 5)) == 1


def test_the_copy_grows_without_losing_rows(tmp_path):
    services = fake_services(tmp_path)
    index = VectorIndex(services.db, services.embedder.dim)
    ids = []
    for n in range(150):  # past the first room of 64 rows, twice
        ids.append(_add(services, f"The user owns item number {n} called thing{n}.").id)
        if n % 37 == 0:
            index.nearest(services.embedder.embed(["item"])[0], 1)
    found = index.nearest(services.embedder.embed(["thing149"])[0], 150)
    assert len(index) == 150 and sorted(i for i, _ in found) == ids


def test_stored_vectors_come_from_the_copy_and_match_sqlite_vec(tmp_path):
    services = fake_services(tmp_path)
    ids = [_add(services, text).id for text in TEXTS[:5]]
    services.memories.purge(ids[1])
    found = services.memories.vectors([ids[0], ids[1], ids[4], 999])
    assert set(found) == {ids[0], ids[4]}  # a purged id and an unknown one have none
    for memory_id, vector in found.items():
        blob = services.db.scalar("SELECT embedding FROM memories_vec WHERE rowid = ?", (memory_id,))
        stored = np.frombuffer(blob, dtype=np.float32)
        assert np.allclose(vector, stored / np.linalg.norm(stored), atol=1e-6)


def test_several_queries_in_one_pass_find_what_each_finds_alone(tmp_path):
    services = fake_services(tmp_path)
    for text in TEXTS:
        _add(services, text)
    queries = [services.embedder.embed([q])[0] for q in ("tea on Monday", "who cooks fish", "bread weekends")]
    queries.append([0.0] * services.embedder.dim)  # a zero vector finds nothing, in a batch too
    each = services.memories.knn_each(queries, 7)
    assert each[:3] == [services.memories.knn(q, 7) for q in queries[:3]] and each[3] == []


def _clustered(rng, count, dim, centroids):
    """Unit vectors around topic centroids, off-center like real sentence embeddings (a shared mean)."""
    topics = rng.integers(0, len(centroids), count)
    rows = centroids[topics] + rng.normal(scale=1.2, size=(count, dim)).astype(np.float32) + 2.0
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _synthetic_index(tmp_path, monkeypatch, rows):
    services = fake_services(tmp_path)
    index = VectorIndex(services.db, rows.shape[1])
    monkeypatch.setattr(index, "_sync", lambda: None)  # rows come from the test, not the database
    index._append(np.arange(1, len(rows) + 1, dtype=np.int64), rows)
    return index


def _exact(rows, query, k):
    similarities = rows @ (query / np.linalg.norm(query))
    return [int(i) + 1 for i in np.argsort(-similarities)[:k]]


def test_a_large_store_is_prefiltered_by_sign_bits_and_still_finds_the_exact_top_ten(tmp_path, monkeypatch):
    import memchat.memory.vector_index as vector_index
    rng = np.random.default_rng(3)
    dim = 96
    centroids = rng.normal(size=(12, dim)).astype(np.float32)
    rows = _clustered(rng, 30_000, dim, centroids)
    index = _synthetic_index(tmp_path, monkeypatch, rows)
    queries = _clustered(rng, 60, dim, centroids)
    scanned = []
    monkeypatch.setattr(vector_index, "_products", lambda m, q: scanned.append(len(m)) or m @ q.T)
    agree = []
    for query in queries:
        found = index.nearest(query, 40)
        assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
        assert all(abs(s - float(rows[i - 1] @ query)) < 1e-5 for i, s in found)  # exact similarities
        agree.append(len({i for i, _ in found[:10]} & set(_exact(rows, query, 10))) / 10)
    assert scanned == []  # the full product never ran
    assert np.mean(agree) >= 0.99


def test_rows_added_after_the_bits_were_made_are_found_and_a_doubled_store_is_recoded(tmp_path, monkeypatch):
    import memchat.memory.vector_index as vector_index
    monkeypatch.setattr(vector_index, "PREFILTER_MIN", 2_000)
    monkeypatch.setattr(vector_index, "PREFILTER_POOL", 300)
    rng = np.random.default_rng(5)
    dim = 64
    centroids = rng.normal(size=(6, dim)).astype(np.float32)
    rows = _clustered(rng, 2_500, dim, centroids)
    index = _synthetic_index(tmp_path, monkeypatch, rows)
    assert index.nearest(rows[7], 1)[0] == (8, pytest.approx(1.0))
    first_center = index._center.copy()
    more = _clustered(rng, 3_000, dim, centroids + 1.0)  # the store's mean moves
    index._append(np.arange(2_501, 5_501, dtype=np.int64), more)
    assert index.nearest(more[-1], 1)[0] == (5_500, pytest.approx(1.0))  # coded on the next search
    assert index._coded == 5_500 and not np.allclose(index._center, first_center)  # doubled: a fresh center
    assert index.nearest(rows[0], 1)[0] == (1, pytest.approx(1.0))  # and the old rows' bits were recoded with it
