"""Long-term memory items: rows, their FTS terms and their vectors, kept in step.

One write path: every insert or edit writes the row (FTS follows by trigger)
and its vector in the same transaction; a purge deletes the row and triggers
remove its FTS entry and vector. `check_integrity` proves nothing drifted.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import sqlite_vec

from memchat.engine.protocol import Embedder
from memchat.memory.people import named_relations
from memchat.memory.purge import PurgeReport, purge_rows
from memchat.memory.secrets import secret_kind
from memchat.memory.slots import embedding_text
from memchat.memory.store import Database, Row
from memchat.memory.terms import index_text, query_terms
from memchat.memory.timeexpr import first_time
from memchat.memory.vector_index import VectorIndex, bump_epoch, reindexed_meanwhile
from memchat.types import EPISODE, MEMORY_STATUSES, STORED_KINDS, MemchatError, Memory, MemoryDraft

_FIELDS = ["id", "kind", "content", "subject", "attribute", "importance", "confidence", "created_at", "updated_at", "last_access_at", "access_count", "source_session", "source_message", "status", "pinned", "expires_at", "superseded_by", "event_at", "event_text", "event_grain", "origin_id"]


_COLUMNS = ", ".join(_FIELDS)  # what a Memory holds: not the index terms, which only FTS reads


def _message_key(memory: Memory) -> tuple[object, ...]:
    """Which message a row came from: its message id, or when it has none the moment it was stored."""
    return (memory.source_message,) if memory.source_message is not None else ("at", memory.created_at)


def _memory(row: Row) -> Memory:
    values = {name: row[name] for name in _FIELDS}
    values["pinned"] = bool(values["pinned"])
    return Memory(**values)


def _refuse_secrets(content: str) -> None:
    kind = secret_kind(content)
    if kind:
        raise MemchatError(f"that text contains a secret ({kind}); memchat never stores secrets",
                           "leave the secret out, or keep it in a password manager")


def _clamp(value: float) -> float:
    return max(0.0, min(1.0, float(value)))


COMMON_ROWS = 1500
"""A word in more memories than this is common whatever the store's size: at 100k memories, a word in
5 % of them made FTS rank 5,000 rows (4.5 ms) for a top 40 that the vector route finds anyway."""
MAX_KEYWORD_TERMS = 512
"""Distinct words of one query sent to FTS: a pasted book (10⁵ words) would otherwise build an OR of
every word — slow, and over SQLite's limit of bound variables in the term lookups."""


def common_limit(total: int, share: float) -> int:
    """Memories a word may be in before it is too common to search for (see `MemoryStore.common_terms`)."""
    return max(200, min(int(total * share), COMMON_ROWS))


class MemoryStore:
    def __init__(self, db: Database, embedder: Embedder) -> None:
        self.db = db
        self.embedder = embedder
        self._ready: dict[str, list[float]] = {}
        self._people: tuple[tuple[int, int], dict[str, set[str]]] | None = None
        self._touched = 0  # rows changed by `touch` alone
        if not db.ensure_vectors(embedder.dim, embedder.name):  # same size, another model: not comparable either
            raise db.other_model(embedder.name, embedder.dim)
        self.index = VectorIndex(db, embedder.dim, embedder.name)

    # ---- embeddings -----------------------------------------------------------
    @contextmanager
    def prepared(self, texts: Iterable[str]) -> Iterator[None]:
        """Embed `texts` now, in one batch, so the writes that follow hold the write lock for SQL
        only — never across a model call (another memchat process may be waiting to write)."""
        missing = [t for t in dict.fromkeys(texts) if t and t not in self._ready]
        if missing:
            self._ready.update(zip(missing, self.embedder.embed(missing)))
        try:
            yield
        finally:
            for text in missing:
                self._ready.pop(text, None)

    def vector(self, text: str) -> list[float]:
        """`text`'s embedding: prepared, or computed now."""
        ready = self._ready.get(text)
        return ready if ready is not None else self.embedder.embed([text])[0]

    def _same_model(self) -> None:
        """Inside a write: the store's vectors still come from this process's embedder (another memchat may have
        re-embedded it with another model since this one opened it: a vector of this one would not compare)."""
        if self.db.meta("embed_model") != self.embedder.name:
            raise reindexed_meanwhile(self.db, self.embedder.name)

    @staticmethod
    def embedding_input(draft: MemoryDraft) -> str:
        """What `add` embeds for a draft (its slot's question with its normalised text)."""
        return embedding_text(draft.attribute, " ".join(draft.content.split()))

    # ---- writing ------------------------------------------------------------
    def add(self, draft: MemoryDraft, now: float | None = None, status: str = "active") -> Memory:
        if draft.kind not in STORED_KINDS:
            raise MemchatError(f"unknown memory kind {draft.kind!r}", f"use one of {', '.join(STORED_KINDS)}")
        content = " ".join(draft.content.split())
        if not content:
            raise MemchatError("a memory needs some text", "write one self-contained sentence")
        _refuse_secrets(content)
        now = time.time() if now is None else now
        vector = self.vector(embedding_text(draft.attribute, content))
        with self.db.transaction():
            self._same_model()
            self.db.execute(
                "INSERT INTO memories (kind, content, subject, attribute, importance, confidence, created_at, "
                "updated_at, last_access_at, source_session, source_message, status, pinned, expires_at, "
                "search_terms, event_at, event_text, event_grain, origin_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    draft.kind, content, draft.subject.lower(), draft.attribute.lower(), _clamp(draft.importance),
                    _clamp(draft.confidence), now, now, now, draft.source_session, draft.source_message, status,
                    int(draft.pinned), draft.expires_at, index_text(content), draft.event_at, draft.event_text,
                    draft.event_grain, draft.origin_id,
                ),
            )
            memory_id = self.db.last_insert_rowid()
            self.db.execute(
                "INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)",
                (memory_id, sqlite_vec.serialize_float32(vector)),
            )
        return self.require(memory_id)

    def edit(self, memory_id: int, content: str, now: float | None = None, said_at: float | None = None) -> Memory:
        """New text for a memory: re-embedded and re-indexed in one transaction. A date its old text said and the
        new one does not say any more follows the text: resolved again from what it says now, or dropped. The
        new text is taken as said at `said_at` (what is left of something told then), else now (an edit by hand:
        "moved to next Friday" is the Friday after today)."""
        memory = self.require(memory_id)
        content = " ".join(content.split())
        if not content:
            raise MemchatError("a memory needs some text", "to remove it use forget or purge")
        _refuse_secrets(content)
        vector = self.vector(embedding_text(memory.attribute, content))  # prepared, or computed now
        dated = (memory.event_at, memory.event_text, memory.event_grain)
        if memory.event_text and memory.event_text in memory.content and memory.event_text not in content:
            when = first_time(content, time.time() if said_at is None else said_at)
            dated = (when.at.timestamp(), when.expression, when.grain) if when else (None, "", "")
        with self.db.transaction():
            self._same_model()
            self.db.execute(
                "UPDATE memories SET content = ?, search_terms = ?, updated_at = ?, event_at = ?, event_text = ?, "
                "event_grain = ? WHERE id = ?",
                (content, index_text(content), time.time() if now is None else now, *dated, memory_id),
            )
            self.db.execute("DELETE FROM memories_vec WHERE rowid = ?", (memory_id,))
            bump_epoch(self.db)
            self.db.execute(
                "INSERT INTO memories_vec (rowid, embedding) VALUES (?, ?)",
                (memory_id, sqlite_vec.serialize_float32(vector)),
            )
        return self.require(memory_id)

    def set_status(self, memory_id: int, status: str, superseded_by: int | None = None) -> Memory:
        if status not in MEMORY_STATUSES:
            raise MemchatError(f"unknown status {status!r}", f"use one of {', '.join(MEMORY_STATUSES)}")
        self.require(memory_id)
        self.db.execute(
            "UPDATE memories SET status = ?, superseded_by = COALESCE(?, superseded_by), updated_at = ? WHERE id = ?",
            (status, superseded_by, time.time(), memory_id),
        )
        return self.require(memory_id)

    def update_scores(self, memory_id: int, importance: float, confidence: float) -> None:
        self.db.execute(
            "UPDATE memories SET importance = ?, confidence = ?, updated_at = ? WHERE id = ?",
            (_clamp(importance), _clamp(confidence), time.time(), memory_id),
        )

    def pin(self, memory_id: int, pinned: bool = True) -> Memory:
        self.require(memory_id)
        self.db.execute("UPDATE memories SET pinned = ? WHERE id = ?", (int(pinned), memory_id))
        return self.require(memory_id)

    def purge(self, memory_id: int, *, alone: bool = False) -> PurgeReport:
        """Hard delete (see `memory.purge`): the row, its FTS entry and vector, the episode it came from
        (or an episode's typed memories, unless `alone`), and their text in messages, snapshots, summary
        and notes."""
        memory = self.require(memory_id)
        related = []
        if memory.is_episode and alone:
            pass
        elif memory.is_episode:
            related = [_memory(r) for r in self.db.rows("SELECT * FROM memories WHERE origin_id = ?", (memory_id,))]
        elif memory.origin_id is not None and self.get(memory.origin_id) is not None:
            related = [self.require(memory.origin_id)]
        return purge_rows(self.db, memory, related)

    def touch(self, memory_ids: Iterable[int], now: float | None = None) -> None:
        ids = list(memory_ids)
        if ids:
            marks = ",".join("?" * len(ids))
            self._touched += self.db.execute_counted(  # a recall's bookkeeping: no cache of contents goes stale
                f"UPDATE memories SET last_access_at = ?, access_count = access_count + 1 WHERE id IN ({marks})",
                [time.time() if now is None else now, *ids],
            )

    # ---- reading ------------------------------------------------------------
    def get(self, memory_id: int) -> Memory | None:
        row = self.db.row("SELECT * FROM memories WHERE id = ?", (memory_id,))
        return _memory(row) if row else None

    def require(self, memory_id: int) -> Memory:
        found = self.get(memory_id)
        if found is None:
            raise MemchatError(f"no memory with id {memory_id}", "see `memchat memory list --all`")
        return found

    def latest_said(self, message_id: int | None = None) -> list[Memory]:
        """What "forget what I just said" means (episodes and typed memories, still active or pending): what
        message `message_id` stored, nothing if it stored nothing; without one, what the most recent message
        that stored anything stored (an import, whose messages are stored one after another)."""
        if message_id is not None:
            rows = self.db.rows("SELECT * FROM memories WHERE status IN ('active', 'pending') AND source_message = ?",
                                (message_id,))
        else:
            rows = self.db.rows("SELECT * FROM memories WHERE status IN ('active', 'pending') AND created_at = "
                                "(SELECT MAX(created_at) FROM memories WHERE status IN ('active', 'pending'))")
        return [_memory(r) for r in rows]

    def told_in_chat(self, session_id: int, until: float, told: tuple[int, int], gap: float = 1800,
                     most: int = 8) -> list[Memory]:
        """What "forget the first one" or "the last two things I told you" means: the active and pending rows of the
        chat's messages told last before `until`, in one run (each within `gap` seconds of the one before it, at most
        `most` messages), in the order they were told, and of them the `told` (start, count) — start counted from the
        end when negative. The run is read from when the messages were said, not from the clock."""
        rows = [_memory(r) for r in self.db.rows(
            "SELECT * FROM memories WHERE status IN ('active', 'pending') AND source_session = ? AND created_at <= ? "
            "ORDER BY created_at, id", (session_id, until))]
        said: dict[tuple[object, ...], float] = {}
        for memory in rows:
            said.setdefault(_message_key(memory), memory.created_at)
        messages = list(said)
        run = messages[-1:]
        for key in reversed(messages[:-1]):
            if len(run) >= most or said[run[0]] - said[key] > gap:
                break
            run.insert(0, key)
        start, count = told
        start = len(run) + start if start < 0 else start
        chosen = set(run[start:start + count]) if 0 <= start < len(run) else set()
        return [m for m in rows if _message_key(m) in chosen]

    def stored_by(self, message_ids: Sequence[int]) -> dict[int, list[tuple[int, str, str]]]:
        """What each of these messages stored, as (id, status, content) rows: compared before and after a forget
        request, it tells which messages the request took something from, wholly or in part."""
        if not message_ids:
            return {}
        marks = ",".join("?" * len(message_ids))
        stored: dict[int, list[tuple[int, str, str]]] = {}
        for r in self.db.rows(f"SELECT id, source_message, status, content FROM memories WHERE source_message IN ({marks}) "
                              "ORDER BY id", list(message_ids)):
            stored.setdefault(r["source_message"], []).append((r["id"], r["status"], r["content"]))
        return stored

    def many(self, memory_ids: Sequence[int]) -> dict[int, Memory]:
        if not memory_ids:
            return {}
        marks = ",".join("?" * len(memory_ids))
        return {r["id"]: _memory(r) for r in self.db.rows(f"SELECT {_COLUMNS} FROM memories WHERE id IN ({marks})",
                                                          list(memory_ids))}

    def list_items(
        self, *, statuses: Sequence[str] = ("active",), kind: str | None = None, limit: int = 10_000,
        episodes: bool = False,
    ) -> list[Memory]:
        """Typed memories of these statuses (and episodes too with `episodes=True`, or `kind="episode"`)."""
        marks = ",".join("?" * len(statuses))
        sql = f"SELECT * FROM memories WHERE status IN ({marks})"
        params: list[object] = list(statuses)
        if kind:
            sql += " AND kind = ?"
            params.append(kind)
        elif not episodes:
            sql += " AND kind != ?"
            params.append(EPISODE)
        sql += " ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?"
        return [_memory(r) for r in self.db.rows(sql, [*params, limit])]

    def pinned(self) -> list[Memory]:
        return [_memory(r) for r in self.db.rows("SELECT * FROM memories WHERE pinned = 1 AND status = 'active' ORDER BY id")]

    def by_key(self, subject: str, attribute: str, statuses: Sequence[str] = ("active", "pending")) -> list[Memory]:
        marks = ",".join("?" * len(statuses))
        rows = self.db.rows(
            f"SELECT * FROM memories WHERE subject = ? AND attribute = ? AND status IN ({marks}) ORDER BY id",
            [subject.lower(), attribute.lower(), *statuses],
        )
        return [_memory(r) for r in rows]

    def people(self, limit: int = 2_000) -> dict[str, set[str]]:
        """Who is who to the user, by relation concept (see `people.named_relations`), from the newest
        memories and episodes ("my lad Callum…" is often said only in passing); worked out again only
        after the store changed."""
        generation = self.db.generation(ignored=self._touched)
        if self._people is None or self._people[0] != generation:
            rows = self.db.rows("SELECT content FROM memories WHERE status = 'active' ORDER BY id DESC LIMIT ?", [limit])
            self._people = (generation, named_relations([r["content"] for r in rows]))
        return self._people[1]

    def by_attributes(self, attributes: Sequence[str], limit: int = 20,
                      statuses: Sequence[str] = ("active",)) -> list[int]:
        if not attributes:
            return []
        marks = ",".join("?" * len(attributes))
        rows = self.db.rows(
            f"SELECT id FROM memories WHERE status IN ({','.join('?' * len(statuses))}) AND attribute IN ({marks}) "
            "LIMIT ?", [*statuses, *attributes, limit]
        )
        return [r["id"] for r in rows]

    def history(self, memory_id: int) -> list[Memory]:
        """The supersession chain through `memory_id`, oldest first."""
        chain = [self.require(memory_id)]
        while True:
            row = self.db.row("SELECT * FROM memories WHERE superseded_by = ? AND kind != ?", (chain[0].id, EPISODE))
            if not row or any(m.id == row["id"] for m in chain):
                break
            chain.insert(0, _memory(row))
        while chain[-1].superseded_by and len(chain) < 1000:
            successor = self.get(chain[-1].superseded_by)
            if successor is None or any(m.id == successor.id for m in chain):
                break
            chain.append(successor)
        return chain

    def count(self, status: str = "active", *, episodes: bool = False) -> int:
        kinds = "" if episodes else f" AND kind != '{EPISODE}'"
        return int(self.db.scalar(f"SELECT COUNT(*) FROM memories WHERE status = ?{kinds}", (status,)))

    def replacing(self, memory_ids: Sequence[int]) -> set[int]:
        """The memories among `memory_ids` that replaced an earlier one (a superseded memory names them)."""
        ids = list(memory_ids)
        if not ids:
            return set()
        marks = ",".join("?" * len(ids))
        return {int(r["superseded_by"]) for r in self.db.rows(
            f"SELECT DISTINCT superseded_by FROM memories WHERE status = 'superseded' AND superseded_by IN ({marks})", ids)}

    def later_windows(self, episode: Memory) -> list[Memory]:
        """The active episodes a long message made after `episode`, in order: the windows that read on from it."""
        same = ("source_message = ?", episode.source_message) if episode.source_message is not None else \
            ("source_message IS NULL AND created_at = ?", episode.created_at)
        return [_memory(r) for r in self.db.rows(
            f"SELECT * FROM memories WHERE kind = ? AND status = 'active' AND id > ? AND {same[0]} ORDER BY id",
            (EPISODE, episode.id, same[1]))]

    def told_next(self, episode: Memory, messages: int = 3) -> list[Memory]:
        """The active episodes of the next few messages of `episode`'s session, in order: where a story told over
        several messages goes on ("My sister has a secret." / "She's seeing a married man.")."""
        if episode.source_session is None:
            return []
        rows = [_memory(r) for r in self.db.rows(
            "SELECT * FROM memories WHERE kind = ? AND status = 'active' AND source_session = ? AND created_at > ? "
            "ORDER BY created_at, id LIMIT ?", (EPISODE, episode.source_session, episode.created_at, messages * 4))]
        kept = sorted({(m.created_at, m.source_message) for m in rows}, key=lambda k: k[0])[:messages]
        return [m for m in rows if (m.created_at, m.source_message) in kept]

    def episodes_from(self, since: float, after_id: int, until: float, limit: int = 100) -> list[Memory]:
        """Active episodes told after the point (`since`, `after_id`) — later, or at the same moment with a higher
        id — and no later than `until`, oldest first: a page of what was said after a story."""
        return [_memory(r) for r in self.db.rows(
            "SELECT * FROM memories WHERE kind = ? AND status = 'active' AND created_at <= ? "
            "AND (created_at > ? OR (created_at = ? AND id > ?)) ORDER BY created_at, id LIMIT ?",
            (EPISODE, until, since, since, after_id, limit))]

    def distilled_from(self, episode_id: int) -> list[Memory]:
        """The active and pending typed memories distilled from an episode."""
        return [_memory(r) for r in self.db.rows(
            "SELECT * FROM memories WHERE origin_id = ? AND status IN ('active', 'pending') ORDER BY id", (episode_id,))]

    def went_with(self, memory_id: int, gone: Sequence[Memory]) -> None:
        """Record that `gone` (each with the status it had) was forgotten with `memory_id`, by hand."""
        for memory in gone:
            self.db.execute("INSERT INTO forgotten_with (memory_id, forgotten_by, previous_status) VALUES (?, ?, ?) "
                            "ON CONFLICT(memory_id) DO UPDATE SET forgotten_by = excluded.forgotten_by, "
                            "previous_status = excluded.previous_status", (memory.id, memory_id, memory.status))

    def taken_back(self, memory_id: int) -> list[tuple[int, str]]:
        """What was forgotten with `memory_id` (itself included), each with its status before; the record goes."""
        rows = self.db.rows("SELECT memory_id, previous_status FROM forgotten_with WHERE forgotten_by = ? "
                            "ORDER BY memory_id", (memory_id,))
        self.db.execute("DELETE FROM forgotten_with WHERE forgotten_by = ? OR memory_id = ?", (memory_id, memory_id))
        return [(r["memory_id"], r["previous_status"]) for r in rows]

    def set_origin(self, memory_id: int, origin_id: int) -> None:
        """Point a typed memory at the episode that told it (after a hand forget split that episode)."""
        self.db.execute("UPDATE memories SET origin_id = ? WHERE id = ?", (origin_id, memory_id))

    def retire_origin(self, memory: Memory, status: str, successor: int | None = None) -> int | None:
        """Retire the episode a typed memory was distilled from, so the old wording is not injected as
        current truth either. Returns the episode's id when one was retired.

        A superseded fact leaves its episode active: an episode often says more than the one fact (a
        name, a date, an event), and what the user said stays true as history. Recall treats it as the
        earlier value for questions about that fact (see `superseded_children`). A forgotten or deleted
        fact takes its episode with it."""
        if memory.origin_id is None or status == "superseded":
            return None
        episode = self.get(memory.origin_id)
        if episode is None or not episode.is_episode or episode.status != "active":
            return None
        self.db.execute(
            "UPDATE memories SET status = ?, superseded_by = COALESCE(?, superseded_by), updated_at = ? WHERE id = ?",
            (status, successor, time.time(), episode.id),
        )
        return episode.id

    def superseded_children(self, episode_ids: Sequence[int]) -> dict[int, list[Memory]]:
        """For each of these episodes, the typed memories distilled from it that have since been superseded."""
        if not episode_ids:
            return {}
        marks = ",".join("?" * len(episode_ids))
        rows = self.db.rows(f"SELECT * FROM memories WHERE origin_id IN ({marks}) AND status = 'superseded' "
                            "AND kind != ?", [*episode_ids, EPISODE])
        children: dict[int, list[Memory]] = {}
        for row in rows:
            children.setdefault(row["origin_id"], []).append(_memory(row))
        return children

    # ---- search routes ------------------------------------------------------
    def knn(self, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
        """(id, cosine similarity) of the k nearest vectors, any status (exact; see memory.vector_index)."""
        return self.index.nearest(vector, k)

    def knn_each(self, vectors: Sequence[Sequence[float]], k: int) -> list[list[tuple[int, float]]]:
        """`knn` for several query vectors at once (one pass over the vectors)."""
        return self.index.nearest_each(vectors, k)

    def term_frequencies(self, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(rows in the index, {term: rows containing it}) for IDF weights."""
        total = int(self.db.scalar("SELECT COUNT(*) FROM memories"))
        if not terms:
            return total, {}
        rows = self.db.rows(  # one JSON parameter, not one per term: a huge message has more terms than SQLite allows
            "SELECT term, doc FROM memories_fts_vocab WHERE term IN (SELECT value FROM json_each(?))",
            (json.dumps(list(dict.fromkeys(terms))),),
        )
        return total, {r["term"]: int(r["doc"]) for r in rows}

    def in_months(self, months: Sequence[tuple[int | None, int]], limit: int = 60) -> list[int]:
        """Active memories and episodes whose date (the one they talk about, else when they were said)
        falls in one of these (year or any year, month)."""
        if not months:
            return []
        clauses, params = [], []
        for year, month in months:
            clauses.append("(CAST(strftime('%m', day, 'unixepoch', 'localtime') AS INTEGER) = ?"
                           + (" AND CAST(strftime('%Y', day, 'unixepoch', 'localtime') AS INTEGER) = ?)" if year else ")"))
            params.extend([month, year] if year else [month])
        rows = self.db.rows(
            "WITH dated AS (SELECT id, COALESCE(event_at, created_at) AS day FROM memories WHERE status = 'active') "
            f"SELECT id FROM dated WHERE {' OR '.join(clauses)} ORDER BY day LIMIT ?", [*params, limit]
        )
        return [r["id"] for r in rows]

    def common_terms(self, terms: Sequence[str], share: float) -> set[str]:
        """Terms found in more than `share` of all memories (or in more than COMMON_ROWS of them): they
        rank nothing and cost a full scan — BM25 scores every row a term matches."""
        if not terms:
            return set()
        total = int(self.db.scalar("SELECT COUNT(*) FROM memories"))
        rows = self.db.rows(
            "SELECT term FROM memories_fts_vocab WHERE term IN (SELECT value FROM json_each(?)) AND doc > ?",
            (json.dumps(list(dict.fromkeys(terms))), common_limit(total, share)),
        )
        return {r["term"] for r in rows}

    def keyword(self, query: str, k: int, *, every: bool = False, common_share: float = 0.05,
                frequencies: tuple[int, dict[str, int]] | None = None) -> list[tuple[int, float]]:
        """(id, bm25 rank) of FTS matches (any term, or every term), best first; lower rank is better.

        With `every=False`, terms in more than `common_share` of the memories are left out of the
        query: they would match thousands of rows, all ranked low, at the cost of sorting them.
        `frequencies` (from `term_frequencies`, for these terms) saves looking them up again.
        """
        return self.keyword_terms(list(dict.fromkeys(query_terms(query)))[:MAX_KEYWORD_TERMS], k, every=every,
                                  common_share=common_share, frequencies=frequencies)

    def keyword_terms(self, terms: list[str], k: int, *, every: bool = False, common_share: float = 0.05,
                      frequencies: tuple[int, dict[str, int]] | None = None) -> list[tuple[int, float]]:
        """`keyword` for index terms already worked out (a concept's words: "笛子", "flute", "fiddle")."""
        if not every:
            if frequencies is None:
                common = self.common_terms(terms, common_share)
            else:
                total, counts = frequencies
                common = {t for t in terms if counts.get(t, 0) > common_limit(total, common_share)}
            terms = [t for t in terms if t not in common]
        if not terms:
            return []
        expression = (" AND " if every else " OR ").join(f'"{t}"' for t in terms)
        rows = self.db.rows(
            "WITH hits AS (SELECT rowid, bm25(memories_fts) AS rank FROM memories_fts "
            "WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?) SELECT rowid, rank FROM hits",
            (expression, k),
        )
        return [(r["rowid"], r["rank"]) for r in rows]

    def containing(self, text: str, limit: int = 200) -> list[Memory]:
        """Memories of any status whose content contains `text` (case-insensitive), newest first."""
        if not text.strip():
            return []
        rows = self.db.rows(
            "SELECT * FROM memories WHERE instr(lower(content), lower(?)) > 0 ORDER BY updated_at DESC LIMIT ?",
            (text.strip(), limit),
        )
        return [_memory(r) for r in rows]

    def vectors(self, memory_ids: Sequence[int]) -> dict[int, np.ndarray]:
        """Unit vectors of these memories, from the in-memory copy (see memory.vector_index)."""
        return self.index.vectors(memory_ids) if memory_ids else {}

    def check_integrity(self) -> list[str]:
        """Problems found between rows, FTS entries and vectors (empty when all is in step)."""
        problems: list[str] = []
        rows = self.db.scalar("SELECT COUNT(*) FROM memories")
        vectors = self.db.scalar("SELECT COUNT(*) FROM memories_vec")
        if rows != vectors:
            problems.append(f"{rows} memories but {vectors} vectors")
        orphans = self.db.scalar("SELECT COUNT(*) FROM memories_vec WHERE rowid NOT IN (SELECT id FROM memories)")
        if orphans:
            problems.append(f"{orphans} vectors without a memory")
        try:
            self.db.execute("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)")
        except Exception as exc:  # noqa: BLE001 - apsw raises CorruptError for a mismatch
            problems.append(f"FTS index out of step: {exc}")
        return problems
