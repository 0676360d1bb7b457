"""Background pre-warm: evaluate the start of the next prompt on the chat context before it is sent.

Two moments call for it. After a reply (once its memories are written and the
window folded) the next prompt is known up to its cross-turn notes. While the
user types, recall on the draft settles the recalled-memories block too, and the
draft is evaluated as the message: the turn that sends it as it stands reads only
the assistant cue, whatever the context's length. Each call starts a job that
supersedes the one before; a job is planned when it runs (after the last turn's
background work), from the newest draft, so a draft typed during extraction is
not lost to the after-reply job that follows it.

Invariants: at most one job evaluates at a time (each joins its predecessor);
a job stops within one engine step when it is superseded or a turn is coming
(`hold`), so typing or sending never waits for one; while held no job starts;
a plan only reads (recall without touching, no snapshot, no fold): a job that
dies leaves nothing unsaved.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from memchat.engine.protocol import ChatEngine
from memchat.types import ChatMessage

Plan = Callable[[str | None], Sequence[ChatMessage]]
"""The messages to warm for a draft, the whole prompt sending it would make (None: no draft, after a reply:
the prompt's start); read-only."""


class Prewarmer:
    def __init__(self, engine: ChatEngine, plan: Plan, settled: Callable[[], None]) -> None:
        self._engine = engine
        self._plan = plan
        self._settled = settled
        """Waits for the last turn's background work (extraction, fold): what the plan reads."""
        self._lock = threading.Lock()
        self._held = False
        self._turn_coming = threading.Event()
        self._generation = 0
        self._job: threading.Thread | None = None
        self._draft: str | None = None
        self._wanted = False
        """An after-reply pre-warm was asked for while held."""
        self.jobs_run = 0
        """Jobs that reached the engine (tests)."""

    # ---- starting ----------------------------------------------------------------
    def after_reply(self) -> None:
        """The last turn's work is done: warm the next prompt (through the draft's recall, if one is typed).
        Asked while held (the turn has not returned yet), it starts on `release`."""
        with self._lock:
            if self._held:
                self._wanted = True
                return
        self._start()

    def draft(self, text: str) -> None:
        """The draft in the input box has rested: warm through its recalled memories. An empty draft
        changes nothing (what is warm stays warm)."""
        if not text.strip():
            return
        with self._lock:
            if self._held:
                return
            self._draft = text
        self._start()

    def _start(self) -> None:
        with self._lock:
            if self._held:
                return
            self._generation += 1
            job = threading.Thread(target=self._run, args=(self._generation, self._job), name="memchat-prewarm",
                                   daemon=True)
            self._job = job
            job.start()

    def _run(self, generation: int, previous: threading.Thread | None) -> None:
        def superseded() -> bool:
            return self._turn_coming.is_set() or generation != self._generation

        try:
            if previous is not None:
                previous.join()  # it stops at its next step: `generation` is newer
            self._settled()
            if superseded():
                return
            draft = self._draft
            messages = self._plan(draft)
            if messages and not superseded():
                self.jobs_run += 1
                self._engine.prewarm(messages, should_stop=superseded, whole=draft is not None)
        except Exception:  # noqa: BLE001 - a pre-warm is an optimisation: the next turn reads its prompt itself
            return

    # ---- a turn is coming ------------------------------------------------------------
    def hold(self) -> None:
        """A turn (or quitting) comes: no job starts, a running one stops at its next step, the draft is used up."""
        with self._lock:
            self._held = True
            self._draft = None
            self._turn_coming.set()

    def join(self) -> None:
        """Wait for the last job (and so every earlier one) to end; drop an after-reply asked for meanwhile."""
        job = self._job
        if job is not None:
            job.join()
        with self._lock:
            self._wanted = False

    def release(self) -> None:
        """The turn is over: pre-warms may start again, the after-reply one first if it was asked for."""
        with self._lock:
            self._held = False
            self._turn_coming.clear()
            wanted, self._wanted = self._wanted, False
        if wanted:
            self._start()
