"""One conversation, one turn at a time: recall → assemble → stream → persist → extract → forget → compact.

Events (memchat.types.TurnEvent) go to an `emit` callback as they happen, so
the UI can redraw and the CLI can print. Memory extraction runs on a background
thread after the reply has streamed, so it never delays the reply; `wait()`
joins it (`memchat ask` and tests do). The same thread then folds into the
rolling summary what the next turn would have to evict, so eviction rarely
delays a reply. Cross-turn notes are caught before the
prompt is assembled, so the very reply to "from now on …" already honours it.
After that work, and while the user types (`prewarm_draft`), the next prompt's
start is evaluated in the background (`prewarm.Prewarmer`); a turn stops it first.
"""

from __future__ import annotations

import shlex
import threading
import time
from collections.abc import Callable

from memchat.memory.faithful import drop_topic
from memchat.memory.forget_offer import closest
from memchat.memory.forgetting import run_forgetting
from memchat.memory.recall import RecallResult
from memchat.memory.rules import forget_request, notes_from
from memchat.memory.secrets import redact
from memchat.memory.segment import split_sentences
from memchat.memory.topic_match import about
from memchat.pipeline import extraction, snapshot
from memchat.pipeline.prewarm import Prewarmer
from memchat.pipeline.reply_guard import ReplyGuard, loops_back
from memchat.pipeline.services import Services
from memchat.prompt.assemble import Assembly, PromptParts, assemble, recalled_room
from memchat.types import (
    FORGET_NOT_KEPT,
    FORGET_OFFER,
    PURGE_OFFER,
    BudgetReport,
    ChatMessage,
    ExtractionFailure,
    MemchatError,
    Memory,
    MemoryWritten,
    Message,
    PromptAssembled,
    RecallDone,
    ReplyRestarted,
    Session,
    Timings,
    TokenStreamed,
    TurnEvent,
    TurnFinished,
    TurnStarted,
    WriteOutcome,
)

Emit = Callable[[TurnEvent], None]

FOLD_SLACK = 4
"""A fold frees 1/FOLD_SLACK of the prompt beyond what the next turn needs."""


def _ignore(_: TurnEvent) -> None:
    return None


class Conversation:
    def __init__(self, services: Services, session: Session) -> None:
        self.services = services
        self.session = session
        self.last_recall: RecallResult | None = None
        self._extraction: threading.Thread | None = None
        self.prewarm_after_turns = False
        """Pre-warm the next prompt after each turn (the TUI: a next turn is likely; not `memchat ask`)."""
        self._prewarmer = Prewarmer(services.engine, self._warm_plan, self.wait)

    # ---- state --------------------------------------------------------------
    @property
    def summary(self) -> str:
        return self.services.sessions.get(self.session.id).summary

    @property
    def notes(self) -> list[str]:
        return [n.text for n in self.services.sessions.notes(self.session.id)]

    def history(self) -> list[Message]:
        return self.services.sessions.messages(self.session.id)

    def _parts(self, user_input: str, recalled: RecallResult | None, *, as_now: bool = False) -> PromptParts:
        """`as_now`: the recalled memories as the store holds them now (a preview after a forget, a pin or an
        edit by key: the forgotten one is gone from the bar, the pinned one counted once, the edited one anew)."""
        services = self.services
        chosen = [c.memory for c in recalled.selected] if recalled else []
        if as_now and chosen:
            stored = services.memories.many([m.id for m in chosen])
            chosen = [stored[m.id] for m in chosen if m.id in stored and stored[m.id].status not in ("deleted", "archived")]
        chosen = [m for m in chosen if not m.pinned]
        return PromptParts(
            system=services.settings.system_prompt,
            notes=self.notes,
            pinned=services.memories.pinned(),
            summary=self.summary,
            window=services.sessions.window(self.session.id),
            recalled=chosen,
            user_input=user_input,
        )

    def preview(self, draft: str) -> BudgetReport:
        """The budget of the next prompt if `draft` were sent now (recall from the last turn)."""
        return self._assemble(self._parts(draft, self.last_recall, as_now=True)).report

    def _assemble(self, parts: PromptParts) -> Assembly:
        engine = self.services.engine
        return assemble(parts, self.services.limits, engine.count, engine.count_messages, exact=engine.exact)

    # ---- one turn -------------------------------------------------------------
    def run_turn(self, text: str, emit: Emit = _ignore, should_stop: Callable[[], bool] = lambda: False) -> TurnFinished:
        if not text.strip():
            raise MemchatError("empty message", "type something first")
        prewarmer = self._prewarmer
        prewarmer.hold()  # until the turn returns: no pre-warm starts, a running one stops at its next step
        try:
            self.wait()
            prewarmer.join()
            return self._turn(text, emit, should_stop)
        finally:
            prewarmer.release()

    def _turn(self, text: str, emit: Emit, should_stop: Callable[[], bool]) -> TurnFinished:
        services = self.services
        services.engine.wait_until_loaded()  # what is sent is counted by the model's own tokenizer
        timings = Timings()
        sessions, session_id = services.sessions, self.session.id
        unanswered = sessions.unanswered(session_id)
        if unanswered is not None and unanswered.content.strip() == text.strip():
            user_message, notes = unanswered, []  # sent again after a turn that died mid-reply: not twice
        else:
            notes = [sessions.add_note(session_id, note).id for note in notes_from(text)]
            user_message = sessions.add_message(session_id, "user", text, tokens=services.engine.count(text))
            unanswered = None
        turn = sessions.turn_count(session_id)
        emit(TurnStarted(turn, text))
        forgotten, heard = self._forget_first(text, user_message)
        streamed: list[str] = []
        try:
            started = time.perf_counter()
            limits = services.limits
            recall = services.recaller.recall(
                text, token_limit=recalled_room(limits.recalled, services.engine.count), count_tokens=services.engine.count
            )
            self.last_recall = recall
            timings.recall_ms = (time.perf_counter() - started) * 1000
            emit(RecallDone(recall.candidates))

            started = time.perf_counter()
            assembly = self._assemble_with_eviction(text, recall, user_message)
            timings.assemble_ms = (time.perf_counter() - started) * 1000
            emit(PromptAssembled(assembly.messages, assembly.report))

            reply, cancelled, tokens_out = self._stream(assembly, emit, should_stop, timings, streamed)
            if cancelled and not reply:
                raise MemchatError("stopped before the reply began", "your message is back: edit it or send it again")
        except BaseException:
            if not "".join(streamed).strip() and unanswered is None:
                sessions.withdraw(user_message.id, notes)  # nothing came back: the turn never happened
            raise
        sessions.add_message(session_id, "assistant", reply, tokens=tokens_out, cancelled=cancelled)
        finished = TurnFinished(turn, reply, cancelled, assembly.report.prompt_tokens, tokens_out, timings)
        record = snapshot.build_snapshot(
            session=self.session.name, turn=turn, messages=assembly.messages, budget=assembly.report,
            candidates=recall.candidates, summary=self.summary, notes=self.notes,
            model={"name": services.engine.name, "sha256": services.engine.file_sha256, "n_ctx": services.engine.n_ctx,
                   "embedder": services.embedder.name},
            sampling=services.sampling.as_dict(), reply=reply, cancelled=cancelled,
            tokens_in=assembly.report.prompt_tokens, tokens_out=tokens_out, timings=timings,
        )
        snapshot.save(services.db, session_id, turn, record)
        emit(finished)
        self._extraction = threading.Thread(
            target=self._extract, args=(heard, user_message, turn, record, emit, forgotten), name="memchat-extract",
            daemon=True,
        )
        self._extraction.start()
        return finished

    def _assemble_with_eviction(self, text: str, recall: RecallResult, user_message: Message) -> Assembly:
        """Assemble; if old messages still overflow the window, fold them into the rolling summary first."""
        parts = self._parts(text, recall)
        parts.window = [m for m in parts.window if m.id != user_message.id]
        assembly = self._assemble(parts)
        if assembly.overflow:
            self._fold(parts, assembly.overflow)
            assembly = self._assemble(parts)
        return assembly

    def _fold(self, parts: PromptParts, overflow: list[Message]) -> None:
        """Fold `overflow` into the rolling summary (old summary first) and drop it from the window."""
        services = self.services
        summary = services.summariser.update(parts.summary, overflow, services.limits.summary)
        with services.db.transaction():
            services.sessions.set_summary(self.session.id, summary)
            services.sessions.evict([m.id for m in overflow])
        evicted = {m.id for m in overflow}
        parts.summary = summary
        parts.window = [m for m in parts.window if m.id not in evicted]

    def _compact_ahead(self) -> None:
        """After a reply: fold now what the next turn would have to evict, so that reply never waits for it.

        The next turn needs room for its recalled memories and a typical message; if the window
        would not leave that much, its oldest messages are summarised here, in the background —
        and then a quarter of the prompt more, so that folds (which change the summary, early in
        the prompt, and so the KV cache of everything after it) come every few turns, not every turn.
        """
        services = self.services
        limits = services.limits
        parts = self._parts("", None)
        headroom = limits.recalled + min(limits.input, 256)
        engine = services.engine
        if not assemble(parts, limits, engine.count, engine.count_messages, headroom=headroom).overflow:
            return
        headroom += limits.available // FOLD_SLACK
        overflow = assemble(parts, limits, engine.count, engine.count_messages, headroom=headroom).overflow
        if overflow:
            self._fold(parts, overflow)

    def _reply_guard(self, assembly: Assembly) -> ReplyGuard:
        """This turn's guard: the session's earlier replies, and what the prompt quotes (memories, notes, input)."""
        services = self.services
        earlier = [m.content for m in self.history() if m.role == "assistant"]
        recalled = [c.memory.content for c in self.last_recall.selected] if self.last_recall else []
        quoted = [*recalled, *(m.content for m in services.memories.pinned()), *self.notes, assembly.input_text]
        return ReplyGuard(earlier, quoted, services.sampling, enabled=services.settings.model.reply_guard)

    # ---- pre-warm ---------------------------------------------------------------
    def prewarm_draft(self, draft: str) -> None:
        """The user paused typing `draft`: in the background, recall on it (reading only) and evaluate the
        next prompt through its recalled memories and the draft itself, so sending it as it stands reads
        only the assistant cue (an edited draft: from its first changed token). Returns at once."""
        if self.services.settings.model.prewarm:
            self._prewarmer.draft(draft)

    def _warm_plan(self, draft: str | None) -> list[ChatMessage]:
        """The next prompt's start as the next turn will send it: through its notes after a reply; with a
        draft, the whole prompt sending it would make (the notes it would add, the memories recall picks
        for it, the draft as the message) but the assistant cue. Writes nothing."""
        if draft is None:
            assembly = self._assemble(self._parts("", None))
            return assembly.messages[:assembly.noted]
        services = self.services
        count = services.engine.count
        recall = services.recaller.recall(draft, token_limit=recalled_room(services.limits.recalled, count),
                                          count_tokens=count, touch=False)
        parts = self._parts(draft, recall)
        parts.notes = [*parts.notes, *(redact(note) for note in notes_from(draft))]
        return self._assemble(parts).messages

    def settle(self) -> None:
        """Wait for all of the last turn's background work, pre-warm included (benchmarks, tests)."""
        self.wait()
        self._prewarmer.join()

    def stop_prewarm(self) -> None:
        """Let the last turn's background work finish and stop a pre-warm (within one small step)."""
        self._prewarmer.hold()
        self.wait()
        self._prewarmer.join()
        self._prewarmer.release()

    def _stream(self, assembly: Assembly, emit: Emit, should_stop: Callable[[], bool],
                timings: Timings, pieces: list[str]) -> tuple[str, bool, int]:
        """Stream the reply. The reply guard may discard an attempt that repeats an earlier reply or echoes
        a memory and stream another (ReplyRestarted first); the old text stays until the new one begins."""
        engine = self.services.engine
        started = time.perf_counter()
        first = 0.0
        max_tokens = self.services.limits.reserved_output
        guard = self._reply_guard(assembly)
        decodeds: list[str] = []  # each attempt's generated text, a cut loop's dropped part included
        for attempt, (messages, sampling) in enumerate(guard.attempts(assembly.messages)):
            fresh: list[str] = []
            decoded = ""
            copied = False
            for piece in engine.stream(messages, max_tokens=max_tokens, sampling=sampling, should_stop=should_stop):
                if not first:
                    first = time.perf_counter()
                if attempt and not fresh:
                    pieces.clear()
                    emit(ReplyRestarted(attempt, guard.last.reason))
                fresh.append(piece)
                pieces.append(piece)
                emit(TokenStreamed(piece))
                so_far = "".join(fresh)
                decoded = so_far
                if guard.copying(so_far):
                    copied = True
                    break
                looped = loops_back(so_far)
                if looped is not None:  # the reply says again what it said: it ends where the loop began
                    fresh = [so_far[:looped].rstrip()]
                    break
            decodeds.append(decoded)
            if attempt == 0:  # what the turn's own prompt cost (a retry's prompt differs on purpose)
                timings.prompt_reused, timings.prompt_evaluated = engine.prompt_cache()
            if should_stop():
                reply = "".join(fresh).strip() or guard.final
                break
            guard.review("".join(fresh).strip(), copied=copied)
        else:
            reply = guard.final
        done = time.perf_counter()
        timings.first_token_ms = ((first or done) - started) * 1000
        timings.generation_ms = (done - started) * 1000
        kept = engine.count(reply)  # counted, not the streamed pieces: one piece may hold several tokens
        timings.generated_tokens = sum(kept if text.strip() == reply else engine.count(text) for text in decodeds)
        return reply, should_stop(), kept

    def _forget_first(self, text: str, message: Message) -> tuple[list[WriteOutcome] | None, str]:
        """A "forget …" request acts before recall, so this very reply cannot use what it forgets. Returns what it
        did (None: the message holds no request) and what else the message says, to be extracted as any message."""
        request = forget_request(text)
        if request is None:
            return None, text
        topic = request.topic
        heard, not_kept = self.services.writer.besides_request(text, request)
        previous = self.services.sessions.previous_user_message(message)
        said = [m.id for m in self.services.sessions.window(self.session.id) if m.role == "user" and m.id != message.id]
        stored_before = self.services.memories.stored_by(said) if topic else {}
        outcomes = not_kept + self.services.writer.forget(
            topic, latest=request.latest, previous=previous.id if previous else -1, story=request.story,
            last_time=request.last_time, told=self.services.writer.told_by_order(request, self.session.id,
                                                                                 message.created_at), kept=not_kept)
        for note in self.services.sessions.forget_notes(None, topic, lambda note: about(topic, note)):  # every chat's
            outcomes.append(WriteOutcome("deleted", note, f"note retired: forget request: {topic}"))
        if topic and not not_kept and not any(o.action == "deleted" for o in outcomes):  # the user picks from what is close
            outcomes += [WriteOutcome("skipped", m.content, FORGET_OFFER, m.id)
                         for m in closest(self.services.recaller, topic)]
        gone = [o.content for o in outcomes if o.action == "deleted" and o.memory_id]
        sessions = self.services.sessions
        with self.services.db.transaction():  # the rolling summaries say it no more either
            for session in sessions.all():
                kept = drop_topic(session.summary, topic, gone)
                if kept != session.summary:
                    sessions.set_summary(session.id, kept)
        # forgetting is soft: offer the hard delete of exactly what went (the last thing said about the brother,
        # not everything about him)
        deleted = sorted({o.memory_id for o in outcomes if o.action == "deleted" and o.memory_id})
        db = f"--db {shlex.quote(str(self.services.settings.db_path))}"  # this file, whatever the default is
        if (request.latest or request.told is not None) and deleted:
            # nor is what went read again with the window: the model would repeat it
            said = {m.source_message for m in self.services.memories.many(deleted).values() if m.source_message}
            window = {m.id for m in sessions.window(self.session.id)}
            sessions.drop_exchanges(sorted(i for i in said if i in window and i != message.id))
            outcomes.append(WriteOutcome("skipped", "; ".join(f"memchat memory purge {i} {db}" for i in deleted),
                                         PURGE_OFFER))
        elif topic and any(o.action == "deleted" for o in outcomes):
            stored_after = self.services.memories.stored_by(said)
            taken = [i for i in said if stored_after.get(i) != stored_before.get(i)]
            sessions.drop_exchanges(taken)  # what this request took back, wholly or in part ("My neighbour Doris… /
            # I've noticed wine bottles in her bin": the first sentence is kept in memory), is not read again with
            # the chat: the window holds the message as it was typed; nor a later reply that told it again (a small
            # model repeats itself: "…Kyle's case. He was arrested for possession…" two turns on)
            sessions.evict([m.id for m in sessions.window(self.session.id) if m.role == "assistant"
                            and any(about(topic, sentence) for sentence in split_sentences(m.content))])
            outcomes.append(WriteOutcome(
                "skipped", f"memchat memory purge-topic {shlex.quote(topic)} {db}", PURGE_OFFER))
        elif not_kept:  # never stored as memory, but the message as typed is in the transcript
            outcomes.append(WriteOutcome(
                "skipped", f"memchat memory purge-topic {shlex.quote(topic)} {db}", PURGE_OFFER))
        return outcomes, heard

    def forget_picked(self, topic: str, memory_ids: list[int]) -> list[Memory]:
        """What the user picked from the memories offered for a forget request that matched nothing goes as the
        request would have taken it: each memory with the sentences that told it (see `MemoryWriter.forget_one`),
        the exchanges that said them out of the chat window, their names out of the rolling summaries."""
        services, sessions = self.services, self.services.sessions
        picked = [m for m in services.memories.many(memory_ids).values() if m.status != "deleted"]
        gone = [m for memory in picked if services.memories.require(memory.id).status != "deleted"  # an earlier
                for m in services.writer.forget_one(memory.id)]  # pick may have taken it (the clause of one sentence)
        said = {m.source_message for m in gone if m.source_message is not None}
        window = {m.id for m in sessions.window(self.session.id)}
        with services.db.transaction():
            sessions.drop_exchanges(sorted(said & window))
            for session in sessions.all():
                kept = drop_topic(session.summary, topic, [m.content for m in gone])
                if kept != session.summary:
                    sessions.set_summary(session.id, kept)
        return gone

    def _extract(self, text: str, user_message: Message, turn: int, record: dict, emit: Emit,
                 forgotten: list[WriteOutcome] | None) -> None:
        """Extract what the message says (`text`: besides a forget request, which acted before recall)."""
        services = self.services
        started = time.perf_counter()
        failures: list[ExtractionFailure] = []
        if forgotten is not None and not text.strip():  # the request was all it said
            outcomes = forgotten
            with services.db.transaction():
                services.sessions.claim_extraction(user_message.id)
        else:  # "…forget the salary figure. Also my sister moved to York": the move is heard as in any message
            outcomes, failures = extraction.extract(services, user_message, text)
            outcomes = (forgotten or []) + outcomes
        if any(o.reason == FORGET_NOT_KEPT for o in outcomes):  # the message itself told what it asks to forget: it
            services.sessions.drop_exchanges([user_message.id])  # is not read again with the chat (its other news
            # is in memory), nor is the reply to it
        run_forgetting(services.db, services.settings.forget)
        elapsed = (time.perf_counter() - started) * 1000
        snapshot.save(services.db, self.session.id, turn, snapshot.add_writes(record, outcomes, failures, elapsed))
        emit(MemoryWritten(turn, outcomes, failures))
        extraction.drain(services, session_id=self.session.id)  # turns of this session a killed run left behind
        try:
            self._compact_ahead()
            if self.prewarm_after_turns and services.settings.model.prewarm:
                self._prewarmer.after_reply()
        except Exception as exc:  # noqa: BLE001 - the next turn folds synchronously instead
            services.sessions.add_extraction_failure(
                self.session.id, user_message.id, "", f"rolling summary: {type(exc).__name__}: {exc}"
            )

    def wait(self, timeout: float | None = None) -> None:
        """Block until the last turn's memory extraction has finished."""
        if self._extraction is not None:
            self._extraction.join(timeout)

    # ---- the extraction queue ---------------------------------------------------
    @property
    def extracting(self) -> bool:
        """Memories are being written in the background (quitting now leaves them for the next start)."""
        return self._extraction is not None and self._extraction.is_alive()

    def pending_extraction(self) -> int:
        """User messages (of every session) whose memories are not written yet."""
        return self.services.sessions.pending_count()

    def unanswered(self) -> Message | None:
        """This session's last message, when it is the user's and got no reply (memchat was killed mid-turn)."""
        return self.services.sessions.unanswered(self.session.id)

    def keep_draft(self, text: str) -> None:
        """What the user typed or queued but did not get to send before memchat closed (blank clears it)."""
        self.services.sessions.save_draft(self.session.id, text)

    def take_draft(self) -> tuple[str, str] | None:
        """(text, session name) kept by `keep_draft` at the last close, this session's first; handed back once."""
        return self.services.sessions.take_draft(self.session.id)

    def resume_pending(self, progress: Callable[[int], None] = lambda _: None) -> bool:
        """Extract, in the background, what a process that stopped early left pending; `progress` gets
        the number still pending after each message (0 at the end). False when nothing is pending."""
        if not self.pending_extraction():
            return False

        def report(*_: object) -> None:
            try:
                progress(self.pending_extraction())
            except Exception:  # noqa: BLE001 - a display closing must not stop the work it displays
                return

        def run() -> None:
            extraction.drain(self.services, on_extracted=report)
            report()

        self.wait()
        self._extraction = threading.Thread(target=run, name="memchat-resume-extraction", daemon=True)
        self._extraction.start()
        return True
