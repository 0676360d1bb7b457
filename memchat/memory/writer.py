"""The write path: from a user message to added, merged, superseded or deleted memories.

Order of decisions for each message: a forget request deletes what matches;
chit-chat is skipped; per sentence, secrets are skipped (never stored, even
when asked), questions are not statements, and durable first-person
statements become drafts, labelled by the model when one is available.
Each draft is then reconciled with what is stored under the same
subject/attribute key:
- the same statement again → merged (confidence and importance kept at max);
- a different statement → the newer supersedes the older (old row kept,
  `superseded_by` linking to the new one), unless it is a low-confidence
  contradiction of a high-confidence item, which is kept as `pending`;
- an explicit correction always supersedes.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from memchat.engine.protocol import ChatEngine
from memchat.memory.distill import MULTI_VALUED, draft_from_sentence
from memchat.memory.episodes import EpisodeWindow, episode_windows, window_of
from memchat.memory.extract import label_with_model
from memchat.memory.items import MemoryStore
from memchat.memory.rules import (
    clauses,
    contains_secret,
    forget_topic,
    is_correction,
    is_hedged,
    is_chit_chat,
    is_durable_statement,
    is_question,
    sentences,
    topic_parts,
)
from memchat.memory.scoring import DAY, keyword_overlap
from memchat.memory.timeexpr import first_time
from memchat.types import EPISODE, ExtractionFailure, MemchatError, Memory, MemoryDraft, WriteOutcome

DUPLICATE_SIMILARITY = 0.9
FORGET_SIMILARITY = 0.6
PENDING_GAP = 0.3


class MemoryWriter:
    def __init__(self, memories: MemoryStore, engine: ChatEngine | None = None, *, event_ttl_days: float = 0.0) -> None:
        self.memories = memories
        self.engine = engine
        self.event_ttl_days = event_ttl_days

    def process(
        self, text: str, *, session_id: int | None, message_id: int | None, now: float | None = None
    ) -> tuple[list[WriteOutcome], list[ExtractionFailure]]:
        now = time.time() if now is None else now
        topic = forget_topic(text)
        if topic:
            return self.forget(topic), []
        if is_chit_chat(text):
            return [WriteOutcome("skipped", text, "chit-chat")], []
        outcomes: list[WriteOutcome] = []
        windows = episode_windows(text, now)
        episode_ids = [self._add_episode(w, session_id, message_id, now) for w in windows]
        chosen: list[str] = []
        drafts: list[MemoryDraft] = []
        for sentence in sentences(text):
            secret = contains_secret(sentence)
            if secret:
                outcomes.append(WriteOutcome("skipped", "[redacted]", f"secret ({secret}) is never stored"))
                continue
            correction = is_correction(sentence)  # "Actually I switched jobs, I now work at X": both parts
            hedged = is_hedged(sentence)
            window = window_of(windows, sentence)
            for clause in clauses(sentence):
                if is_chit_chat(clause) or is_question(clause) or not is_durable_statement(clause):
                    continue
                chosen.append(clause)
                draft = draft_from_sentence(
                    clause, session_id=session_id, message_id=message_id, correction=correction, hedged=hedged
                )
                when = first_time(clause, now) or (windows[window].time if window is not None else None)
                drafts.append(replace(
                    draft,
                    origin_id=episode_ids[window] if window is not None else None,
                    event_at=when.at.timestamp() if when else None,
                    event_text=when.expression if when else "",
                    event_grain=when.grain if when else "",
                ))
        failures: list[ExtractionFailure] = []
        if drafts and self.engine is not None:
            labels = label_with_model(self.engine.utility(), chosen, drafts)
            drafts = labels.drafts
            if labels.failure:
                failures.append(labels.failure)
        for draft in drafts:
            outcomes.append(self.apply(draft, now))
        return outcomes, failures

    def _add_episode(self, window: EpisodeWindow, session_id: int | None, message_id: int | None, now: float) -> int:
        draft = MemoryDraft(
            kind=EPISODE, content=window.text, importance=0.5, confidence=1.0,
            source_session=session_id, source_message=message_id,
            event_at=window.time.at.timestamp() if window.time else None,
            event_text=window.time.expression if window.time else "",
            event_grain=window.time.grain if window.time else "",
        )
        return self.memories.add(draft, now).id

    # ---- reconciliation ---------------------------------------------------
    def apply(self, draft: MemoryDraft, now: float | None = None) -> WriteOutcome:
        now = time.time() if now is None else now
        if draft.kind == "event" and draft.expires_at is None and not draft.pinned and self.event_ttl_days > 0:
            draft = replace(draft, expires_at=now + self.event_ttl_days * DAY)
        vector = np.asarray(self.memories.embedder.embed([draft.content])[0], dtype=np.float32)
        duplicate = self._duplicate(vector, draft)
        if duplicate is not None:
            self.memories.update_scores(
                duplicate.id, max(duplicate.importance, draft.importance), max(duplicate.confidence, draft.confidence)
            )
            return WriteOutcome("merged", draft.content, f"same as #{duplicate.id}", duplicate.id)
        rivals = [] if not draft.attribute or draft.attribute in MULTI_VALUED else self.memories.by_key(
            draft.subject, draft.attribute, statuses=("active",)
        )
        if not rivals:
            added = self.memories.add(draft, now)
            return WriteOutcome("added", added.content, f"new {added.kind}", added.id)
        newer = [m for m in rivals if m.created_at > now]
        if newer:  # an old statement arriving late (an imported transcript): history, not news
            successor = min(newer, key=lambda m: m.created_at)
            kept = self.memories.add(draft, now, status="superseded")
            self.memories.set_status(kept.id, "superseded", superseded_by=successor.id)
            return WriteOutcome("added", kept.content, f"kept as history: #{successor.id} is newer", kept.id)
        if any(m.pinned for m in rivals):
            draft = replace(draft, pinned=True)  # a pin belongs to the fact, not to one wording of it
        strongest = max(rivals, key=lambda m: m.confidence)
        if not draft.correction and strongest.confidence - draft.confidence >= PENDING_GAP:
            pending = self.memories.add(draft, now, status="pending")
            return WriteOutcome(
                "pending", pending.content, f"low-confidence contradiction of #{strongest.id}", pending.id, strongest.id
            )
        added = self.memories.add(draft, now)
        for old in rivals:
            self.memories.set_status(old.id, "superseded", superseded_by=added.id)
            if old.origin_id != added.origin_id:  # "I moved from Lisbon to Porto" states both
                self.memories.retire_origin(old, "superseded", added.id)
        why = "correction" if draft.correction else "newer statement"
        return WriteOutcome("superseded", added.content, f"{why} replaces #{rivals[-1].id}", added.id, rivals[-1].id)

    def accept(self, memory_id: int) -> WriteOutcome:
        """The user confirms a pending memory: it becomes active and supersedes its rivals."""
        memory = self.memories.require(memory_id)
        if memory.status != "pending":
            raise MemchatError(f"#{memory_id} is {memory.status}, not pending", "only pending memories can be accepted")
        rivals = [m for m in self.memories.by_key(memory.subject, memory.attribute, statuses=("active",))]
        self.memories.set_status(memory_id, "active")
        for old in rivals:
            self.memories.set_status(old.id, "superseded", superseded_by=memory_id)
            if old.origin_id != memory.origin_id:
                self.memories.retire_origin(old, "superseded", memory_id)
        replaced = rivals[-1].id if rivals else None
        return WriteOutcome("superseded" if rivals else "added", memory.content, "accepted by the user", memory_id, replaced)

    def _duplicate(self, vector: np.ndarray, draft: MemoryDraft) -> Memory | None:
        """An active memory saying the same thing: close in meaning *and* in words.

        Requiring word overlap too keeps texts the embedder cannot read (all
        [UNK] tokens, so all alike) from being merged into each other.
        """
        semantic = self.memories.embedder.coverage(draft.content) >= 0.6
        for memory_id, similarity in self.memories.knn(vector.tolist(), 5):
            if semantic and similarity < DUPLICATE_SIMILARITY:
                break
            memory = self.memories.get(memory_id)
            if not memory or memory.status != "active" or memory.kind != draft.kind:
                continue
            overlap = keyword_overlap(draft.content, memory.content)
            if overlap >= (0.6 if semantic else 0.85):
                return memory
        return None

    # ---- forgetting on request ----------------------------------------------
    def forget(self, topic: str) -> list[WriteOutcome]:
        """Soft-delete the memories matching `topic` — current, pending and superseded wordings alike; say which."""
        matches = self.matching(topic)
        outcomes = []
        said = 0
        for memory in matches:
            self.memories.set_status(memory.id, "deleted")
            if memory.is_episode:
                said += 1
                continue
            self.memories.retire_origin(memory, "deleted")
            outcomes.append(WriteOutcome("deleted", memory.content, f"forget request: {topic}", memory.id))
        if said:
            outcomes.append(WriteOutcome("deleted", f"{said} of your own messages about {topic}",
                                         "forget request: what you said is hidden too"))
        if not outcomes:
            outcomes.append(WriteOutcome("skipped", topic, "forget request matched no memory"))
        return outcomes

    def matching(self, topic: str) -> list[Memory]:
        """Memories about `topic` that are not already gone: containing all its words, or (when the
        embedder reads it) close in meaning. Superseded ones count: forgetting must not leave an
        old wording of the same fact behind."""
        semantic = self.memories.embedder.coverage(topic) >= 0.6
        close: set[int] = set()
        if semantic:
            vector = self.memories.embedder.embed([topic])[0]
            close = {i for i, sim in self.memories.knn(vector, 10) if sim >= FORGET_SIMILARITY}
        worded = {i for part in topic_parts(topic) for i, _ in self.memories.keyword(part, 50, every=True)}
        found = self.memories.many(sorted(close | worded))
        return [m for m in found.values() if m.status in ("active", "pending", "superseded")]
