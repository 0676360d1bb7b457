"""Other assistants' conversations into sessions, through the same write path as live chat.

Invariants:
- a conversation is stored whole or not at all: its session, messages, notes and its row in
  `imported_conversations` are one short transaction (token counts are taken before it: no
  model call holds the write lock);
- its user messages are queued in that transaction (`extracted = 0`) and extracted after it,
  so a kill leaves them pending, and the next run (or the next start of memchat) extracts them;
- a conversation with a row in `imported_conversations` is never stored again: a re-run skips
  what is done and goes on with the rest.
Conversations are imported oldest first, so a later statement supersedes an earlier one as it
did in the person's life.
"""

from __future__ import annotations

from memchat.memory.import_log import ImportLog
from memchat.memory.rules import notes_from
from memchat.memory.secrets import redact
from memchat.pipeline import extraction
from memchat.pipeline.import_formats import ImportedConversation, session_name_for
from memchat.pipeline.import_report import ImportProgress, ImportReport, ProgressCallback, no_progress
from memchat.pipeline.services import Services
from memchat.types import Message


def import_conversations(services: Services, conversations: list[ImportedConversation], report: ImportReport,
                         on_progress: ProgressCallback = no_progress) -> ImportReport:
    log = ImportLog(services.db)
    report.resumed += extraction.drain(services)  # what an interrupted run stored but did not extract
    imported = {source: log.imported(source) for source in {c.source for c in conversations}}
    todo: list[ImportedConversation] = []
    for conversation in conversations:
        if conversation.conversation_id in imported[conversation.source]:
            report.already += 1
            continue
        imported[conversation.source].add(conversation.conversation_id)  # listed twice in one file: once
        todo.append(conversation)
    todo.sort(key=lambda c: (c.created_at, c.conversation_id))
    progress = ImportProgress(0, sum(len(c.messages) for c in todo))
    on_progress(progress)
    for conversation in todo:
        stored = _store(services, log, conversation)
        if stored is None:  # another memchat process imported it meanwhile
            report.already += 1
            progress = ImportProgress(progress.done + len(conversation.messages), progress.total)
            on_progress(progress)
            continue
        report.left_out.update(conversation.left_out)
        if not stored:
            report.empty += 1
            continue
        session = services.sessions.get(stored[0][0].session_id)
        report.conversations += 1
        report.sessions.add(session.name)
        report.messages += len(stored)
        done = progress.done
        for message, text in stored:
            done += 1
            if message.role == "user":
                outcomes, failures = extraction.extract(services, message, text)
                report.outcomes.extend(outcomes)
                report.heard(text, outcomes)
                report.failures += len(failures)
                on_progress(ImportProgress(done, progress.total, session.name))
        progress = ImportProgress(done, progress.total, session.name)
        on_progress(progress)
    return report


def _store(services: Services, log: ImportLog, conversation: ImportedConversation) -> list[tuple[Message, str]] | None:
    """Store one conversation in one transaction: its messages with their live text (for extraction),
    [] for a conversation with nothing to import, None when it was already imported."""
    sessions = services.sessions
    tokens = [services.engine.count(m.text) for m in conversation.messages]  # before the write lock
    name = session_name_for(redact(conversation.title), conversation.conversation_id)
    with services.db.transaction():
        if log.has(conversation.source, conversation.conversation_id):
            return None
        stored: list[tuple[Message, str]] = []
        session_id = None
        if conversation.messages:
            session_id = sessions.create(name, now=conversation.created_at or conversation.messages[0].ts).id
            for message, count in zip(conversation.messages, tokens):
                row = sessions.add_message(session_id, message.role, message.text, tokens=count, now=message.ts)
                if message.role == "user":
                    for note in notes_from(message.text):
                        sessions.add_note(session_id, note, now=message.ts)
                stored.append((row, message.text))
        log.record(conversation.source, conversation.conversation_id, session_id, conversation.title,
                   len(conversation.messages))
    return stored
