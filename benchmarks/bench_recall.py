"""Recall latency at scale, measured against an exact NumPy scan and a bare sqlite-vec KNN in the same run.

    python benchmarks/bench_recall.py [--sizes 10000 100000] [--queries 200]

Fills a fresh database per size with synthetic memories: template sentences, each stored with the
real embedding of its sentence plus a little noise (cosine ≈ 0.85 to it, like a paraphrase), so
that the real query embeddings find the memories that talk about their subject, as in a real
store. (Until round 10 the vectors were random points around random centroids, which no query
was near: the "nearest" of such a store is noise, and an approximate index cannot find noise.
`--unrelated` still builds that store, as a stress case.) Then times, for the same query vectors:
- NumPy: an exact brute-force scan (one float32 matrix product + top-k) of the same vectors;
- bare sqlite-vec KNN: `SELECT rowid, distance FROM memories_vec WHERE embedding MATCH ? AND k = ?`
  (what memchat's KNN was before the in-memory index);
- recall without embedding: the full hybrid recall (KNN + FTS + attributes + pinned, scoring, selection),
  the query's vectors (its parts' too) already computed;
- recall with embedding: the same plus embedding the query text with the real embedding model (none kept);
and recall@10 of memchat's KNN against the exact NumPy answer.
Ratios are printed from this one run (machines are noisy: compare within a run only).
Targets (issue 11): recall ≤ 1.5× NumPy at 100k with recall@10 ≥ 0.99; p50 ≤ 25 ms at 10k with the embedding.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import sqlite_vec

import memchat  # noqa: F401, I001 (first: NumPy's threads must wait as they do in memchat; see its __init__)
from memchat.config import RecallSettings
from memchat.engine.llama import LlamaEmbedder
from memchat.memory.items import MemoryStore
from memchat.memory.query import sub_queries
from memchat.memory.recall import Recaller
from memchat.memory.store import Database
from memchat.memory.terms import index_text
from memchat.pipeline.factory import resolve_model

SUBJECTS = ["coffee", "tea", "hiking", "jazz", "python", "garden", "cycling", "Lisbon", "Tokyo", "chess", "piano",
            "sushi", "football", "novels", "yoga", "cats", "dogs", "painting", "skiing", "baking"]
TEMPLATES = ["The user enjoys {s} on {d}.", "The user's friend {n} talked about {s}.", "The user bought {s} gear in {m}.",
             "The user wants to learn more about {s}.", "The user had a long chat about {s} with {n}."]
NAMES = ["Ana", "Rui", "Mei", "Tom", "Ines", "Kai", "Lena", "Omar"]
DAYS = ["Monday", "Tuesday", "Friday", "weekends", "holidays"]
MONTHS = ["March", "May", "June", "October", "December"]
ASKED = ["What do I like to drink in the morning?", "Which sports do I do?", "Where did I travel last year?",
         "What music do I listen to?", "Do I have any pets?"]
QUERIES = ASKED + [frame.format(s=s, n=n) for s, n in zip(SUBJECTS, NAMES * 3) for frame in (
    "What did I tell you about {s}?", "Did {n} and I ever talk about {s}?", "When did I last do anything with {s}?")]
"""Distinct questions (65): a per-text cache in recall must not turn repeats into a faster benchmark."""


NOISE = 0.03
"""Per-dimension noise added to a template sentence's embedding: cosine ≈ 0.85 to it at 384 dimensions."""


def fill(db: Database, count: int, dim: int, rng: random.Random,
         embed: Callable[[list[str]], list[list[float]]] | None = None) -> None:
    """`count` memories; with `embed`, each vector is its sentence's embedding plus noise, else a random
    point near its subject's random centroid (no query embedding is near those)."""
    nprng = np.random.default_rng(rng.randint(0, 2**31))
    centroids = nprng.normal(size=(len(SUBJECTS), dim)).astype(np.float32)
    bases: dict[str, np.ndarray] = {}
    now = time.time()
    batch = 5000
    for start in range(0, count, batch):
        rows, vectors = [], []
        for i in range(start, min(count, start + batch)):
            topic = rng.randrange(len(SUBJECTS))
            sentence = rng.choice(TEMPLATES).format(s=SUBJECTS[topic], d=rng.choice(DAYS), n=rng.choice(NAMES),
                                                    m=rng.choice(MONTHS))
            text = sentence + f" (note {i})"
            age = rng.random() * 365 * 86400
            rows.append(("fact", text, "user", SUBJECTS[topic].lower(), rng.random(), 0.8, now - age, now - age,
                         now - age, index_text(text)))
            if embed is not None:
                if sentence not in bases:
                    bases[sentence] = np.asarray(embed([sentence])[0], dtype=np.float32)
                vector = bases[sentence] + nprng.normal(scale=NOISE, size=dim).astype(np.float32)
            else:
                vector = centroids[topic] + nprng.normal(scale=1.2, size=dim).astype(np.float32)
            vectors.append(vector / np.linalg.norm(vector))
        with db.transaction():
            first = int(db.scalar("SELECT COALESCE(MAX(id), 0) FROM memories")) + 1
            db.conn.executemany(
                "INSERT INTO memories (kind, content, subject, attribute, importance, confidence, created_at, "
                "updated_at, last_access_at, search_terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            db.conn.executemany("INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)",
                                [(first + j, sqlite_vec.serialize_float32(v.tolist())) for j, v in enumerate(vectors)])


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(size: int, queries: int, embedder: LlamaEmbedder, workdir: Path,
            unrelated: bool = False) -> dict[str, float]:
    rng = random.Random(size)
    db = Database(workdir / f"bench-{size}{'-unrelated' if unrelated else ''}.db")
    store = MemoryStore(db, embedder)
    started = time.perf_counter()
    fill(db, size, embedder.dim, rng, None if unrelated else embedder.embed)
    fill_s = time.perf_counter() - started
    settings = RecallSettings()
    recaller = Recaller(store, settings)
    texts = [QUERIES[i % len(QUERIES)] for i in range(queries)]
    query_vectors = embedder.embed(texts)
    count = lambda text: len(text) // 4

    def run(fn: object, prepare: object = None) -> list[float]:
        samples = []
        for index in range(queries):
            if prepare is not None:
                prepare(index)  # type: ignore[operator]
            t0 = time.perf_counter()
            fn(index)  # type: ignore[operator]
            samples.append((time.perf_counter() - t0) * 1000)
        return samples

    stored = db.rows("SELECT rowid, embedding FROM memories_vec")
    ids = np.asarray([r["rowid"] for r in stored], dtype=np.int64)
    matrix = np.frombuffer(b"".join(r["embedding"] for r in stored), dtype=np.float32).reshape(len(ids), -1)
    matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    k = settings.knn_k

    def exact(i: int) -> list[int]:
        similarities = matrix @ np.asarray(query_vectors[i], dtype=np.float32)
        top = np.argpartition(-similarities, k - 1)[:k]
        return ids[top[np.argsort(-similarities[top])]].tolist()

    agree = [len(set(exact(i)[:10]) & {m for m, _ in store.knn(query_vectors[i], 10)}) / 10 for i in range(queries)]

    def bare(i: int) -> None:
        db.rows("SELECT rowid, distance FROM memories_vec WHERE embedding MATCH ? AND k = ?",
                (sqlite_vec.serialize_float32(query_vectors[i]), settings.knn_k))

    def embedded(i: int) -> None:  # "recall" leaves out every query embedding, a compound question's parts too
        embedder.embed([texts[i], *sub_queries(texts[i])])

    def recall_vec(i: int) -> None:
        recaller.recall(texts[i], token_limit=400, count_tokens=count, vector=query_vectors[i], touch=False)

    def recall_text(i: int) -> None:
        recaller.recall(texts[i], token_limit=400, count_tokens=count, touch=False)

    for fn in (exact, bare, recall_vec, recall_text):  # warm the page cache, the index and the model once
        fn(0)
    # interleave them so drift in machine load hits them alike
    results: dict[str, list[float]] = {"numpy": [], "bare": [], "recall": [], "recall+embed": []}
    for _ in range(3):
        results["numpy"] += run(exact)
        results["bare"] += run(bare)
        results["recall"] += run(recall_vec, embedded)
        results["recall+embed"] += run(recall_text, lambda _: embedder.forget_recent())
    db.close()
    out = {"fill_s": fill_s, "recall_at_10": statistics.mean(agree)}
    for name, samples in results.items():
        out[f"{name}_p50"] = statistics.median(samples)
        out[f"{name}_p95"] = percentile(samples, 0.95)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--unrelated", action="store_true",
                        help="stress case: stored vectors no query is near (random points around random centroids)")
    args = parser.parse_args(argv)
    path, _ = resolve_model("all-minilm-l6-v2", progress=True)
    embedder = LlamaEmbedder(path, n_threads=args.threads)
    with tempfile.TemporaryDirectory(prefix="memchat-bench-") as tmp:
        print(f"{'size':>8} {'fill s':>7} {'numpy p50':>10} {'sqlite-vec p50':>15} {'recall p50':>11} {'p95':>7} "
              f"{'+embed p50':>11} {'p95':>7} {'recall/numpy':>13} {'recall@10':>10}")
        for size in args.sizes:
            r = measure(size, args.queries, embedder, Path(tmp), unrelated=args.unrelated)
            print(f"{size:>8} {r['fill_s']:7.1f} {r['numpy_p50']:10.2f} {r['bare_p50']:15.2f} {r['recall_p50']:11.2f} "
                  f"{r['recall_p95']:7.2f} {r['recall+embed_p50']:11.2f} {r['recall+embed_p95']:7.2f} "
                  f"{r['recall_p50'] / r['numpy_p50']:12.2f}× {r['recall_at_10']:10.3f}")
    print("times in ms; targets: +embed p50 ≤ 25 ms at 10k; recall ≤ 1.5× numpy at 100k with recall@10 ≥ 0.99")
    return 0


if __name__ == "__main__":
    sys.exit(main())
