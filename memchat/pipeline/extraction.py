"""The extraction queue: every user message has its memories extracted exactly once.

A user message is stored as pending (`messages.extracted = 0`). Extracting it
writes its episodes and memories and marks it done in one transaction, so a
process killed at any moment leaves it either done or still pending — and the
next start (the TUI, `memchat ask`, `memchat import`) extracts what is pending.
Two processes may reach the same message: the one whose transaction marks it
first writes; the other writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from memchat.memory.rules import forget_request
from memchat.memory.topic_match import about
from memchat.pipeline.services import Services
from memchat.types import ExtractionFailure, Message, WriteOutcome

Extracted = tuple[list[WriteOutcome], list[ExtractionFailure]]


def extract(services: Services, message: Message, text: str | None = None) -> Extracted:
    """Extract one pending message; `text` is its live text when the turn still has it (the stored
    copy has secrets replaced). A failure is recorded and the message counted done: it is shown,
    never retried forever."""
    sessions = services.sessions
    try:
        outcomes, failures = services.writer.process(
            message.content if text is None else text, session_id=message.session_id, message_id=message.id,
            now=message.created_at, previous=sessions.previous_content(message),
            claim=lambda: sessions.claim_extraction(message.id),
        )
    except Exception as exc:  # noqa: BLE001 - a failed extraction must be visible, never fatal
        with services.db.transaction():
            sessions.claim_extraction(message.id)
        outcomes, failures = [], [ExtractionFailure(raw_output="", error=f"{type(exc).__name__}: {exc}")]
    for failure in failures:
        sessions.add_extraction_failure(message.session_id, message.id, failure.raw_output, failure.error)
    if any(o.action == "deleted" for o in outcomes) and (request := forget_request(message.content)) and request.topic:
        topic = request.topic  # the notes any chat kept of what went, imported chats too ("It's about Grandma's place…")
        told = [" ".join(r["content"].split()) for r in services.db.rows(  # what forgetting took, as it was said
            "SELECT content FROM memories WHERE kind = 'episode' AND status = 'deleted'")]

        def tells(note: str) -> bool:
            return about(topic, note) or any(" ".join(note.split()) in text for text in told)

        with services.db.transaction():
            outcomes += [WriteOutcome("deleted", note, f"note retired: forget request: {topic}")
                         for note in sessions.forget_notes(None, topic, tells)]
    return outcomes, failures


def drain(
    services: Services,
    *,
    session_id: int | None = None,
    on_extracted: Callable[[Message, Extracted], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
) -> int:
    """Extract every pending message (of one session, or all), oldest first; returns how many."""
    done = 0
    seen: set[int] = set()
    while not should_stop():
        batch = [m for m in services.sessions.pending_extraction(session_id, limit=50) if m.id not in seen]
        if not batch:
            break
        for message in batch:
            if should_stop():
                break
            seen.add(message.id)
            result = extract(services, message)
            done += 1
            if on_extracted is not None:
                on_extracted(message, result)
    return done
