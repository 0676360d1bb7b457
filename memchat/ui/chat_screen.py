"""The main screen: conversation, budget bar, input, and the memory inspector beside them.

A turn runs `Conversation.run_turn` in a thread worker. Its events reach this
screen as `TurnEventArrived` messages (posted from the worker thread, and later
from the background extraction thread), and the screen hands each to the
widget that shows it. Esc cancels the worker; the conversation checks
`should_stop` between tokens, so the reply stops at once and keeps what came.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Footer
from textual.worker import get_current_worker

from memchat.pipeline import export, snapshot
from memchat.pipeline.conversation import Conversation
from memchat.pipeline.services import Services
from memchat.types import (
    BudgetReport,
    MemchatError,
    MemoryWritten,
    PromptAssembled,
    RecallDone,
    TokenStreamed,
    TurnEvent,
    TurnFinished,
    TurnStarted,
)
from memchat.ui import keys
from memchat.ui.browser import BrowserScreen
from memchat.ui.budget_bar import BudgetBar
from memchat.ui.chat_view import AssistantMessage, ChatView, UserMessage
from memchat.ui.feedback import as_memchat_error, notify_error
from memchat.ui.inspector import Inspector, turn_from_snapshot
from memchat.ui.ledger_screen import LedgerScreen
from memchat.ui.memory_actions import ForgetLog, MemoryCommands
from memchat.ui.notes_screen import NotesScreen
from memchat.ui.prompt_input import PromptInput
from memchat.ui.status_line import StatusLine

WIDE_COLUMNS = 100
"""Below this terminal width the inspector collapses (F2 still opens it)."""
INSPECTOR_WIDTH, INSPECTOR_STEP, INSPECTOR_MIN, CHAT_MIN = 58, 8, 32, 30
VISIBLE_OUTCOMES = ("added", "merged", "superseded", "pending", "deleted")


class ChatScreen(MemoryCommands):
    BINDINGS = keys.bindings("chat")

    @dataclass
    class TurnEventArrived(Message):
        """The pipeline reported progress of a turn (from a worker or the extraction thread)."""

        event: TurnEvent

    @dataclass
    class TurnFailed(Message):
        """A turn raised before its reply was complete; `text` goes back into the input."""

        text: str
        error: MemchatError

    @dataclass
    class BudgetPreviewed(Message):
        """The budget of the next prompt, counted for `draft`."""

        draft: str
        report: BudgetReport

    streaming: reactive[bool] = reactive(False)
    """A reply is being generated."""
    inspector_open: reactive[bool] = reactive(True)
    """The inspector pane is shown."""
    inspector_width: reactive[int] = reactive(INSPECTOR_WIDTH)
    """Width of the inspector pane in cells."""

    def __init__(self, services: Services, conversation: Conversation, forget_log: ForgetLog) -> None:
        super().__init__()
        self.services = services
        self.conversation = conversation
        self.forget_log = forget_log
        self.idle = threading.Event()
        """Set while no turn runs in a worker thread (quitting waits for it)."""
        self.idle.set()
        self._turn = 0
        self._reply: AssistantMessage | None = None
        self._user: UserMessage | None = None
        self._wide: bool | None = None

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="main"):
            with Vertical(id="chat-column"):
                yield ChatView(id="chat")
                yield BudgetBar(id="budget")
                yield PromptInput(id="prompt")
            yield Inspector(id="inspector")
        yield Footer()

    def on_mount(self) -> None:
        status = self.query_one(StatusLine)
        status.model = self.services.engine.name
        status.n_ctx = self.services.engine.n_ctx
        status.session = self.conversation.session.name
        self.query_one(ChatView).show_history(self.conversation.history())
        self._show_last_turn()
        self._fit_inspector(self.app.size.width)
        self.query_one(PromptInput).focus()
        self.preview_budget("")

    def _show_last_turn(self) -> None:
        try:
            data = snapshot.load(self.services.db, self.conversation.session.id)
        except MemchatError:
            return
        turn, candidates, outcomes, failures = turn_from_snapshot(data, self.services.memories.many)
        self._turn = turn
        self.query_one(Inspector).show_candidates(turn, candidates)
        self.query_one(Inspector).show_writes(turn, outcomes, failures)

    # ---- layout ------------------------------------------------------------------
    def on_resize(self, event: Resize) -> None:
        self._fit_inspector(event.size.width)

    def _fit_inspector(self, width: int) -> None:
        wide = width >= WIDE_COLUMNS
        if wide != self._wide:
            self._wide = wide
            self.inspector_open = wide and self.services.settings.ui.inspector

    def watch_inspector_open(self, open_: bool) -> None:
        self.query_one(Inspector).display = open_

    def watch_inspector_width(self, width: int) -> None:
        self.query_one(Inspector).styles.width = width

    def watch_streaming(self, streaming: bool) -> None:
        self.query_one(PromptInput).busy = streaming
        self.query_one(StatusLine).streaming = streaming
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.streaming
        if action in ("narrow_inspector", "widen_inspector"):
            return self.inspector_open
        return True

    # ---- a turn --------------------------------------------------------------------
    @on(PromptInput.Sent)
    def send(self, event: PromptInput.Sent) -> None:
        self.workers.cancel_group(self, "preview")
        chat = self.query_one(ChatView)
        self._user = chat.add_user(event.text)
        self._reply = chat.start_reply()
        self.streaming = True
        self.idle.clear()
        self.run_turn(event.text)

    @work(thread=True, exclusive=True, group="turn")
    def run_turn(self, text: str) -> None:
        worker = get_current_worker()
        try:
            self.conversation.run_turn(text, emit=self._emit, should_stop=lambda: worker.is_cancelled)
        except Exception as error:  # noqa: BLE001 - every failure becomes a toast, never a traceback
            self.post_message(self.TurnFailed(text, as_memchat_error(error)))
        finally:
            self.idle.set()

    def _emit(self, event: TurnEvent) -> None:
        self.post_message(self.TurnEventArrived(event))

    def on_chat_screen_turn_event_arrived(self, message: TurnEventArrived) -> None:
        event = message.event
        if isinstance(event, TurnStarted):
            self._turn = event.turn
        elif isinstance(event, RecallDone):
            self.query_one(Inspector).show_candidates(self._turn, event.candidates)
        elif isinstance(event, PromptAssembled):
            bar = self.query_one(BudgetBar)
            bar.report, bar.title = event.budget, "last prompt"
        elif isinstance(event, TokenStreamed) and self._reply is not None:
            self._reply.append(event.text)
        elif isinstance(event, TurnFinished):
            self._finish(event)
        elif isinstance(event, MemoryWritten):
            self._written(event)

    def _finish(self, event: TurnFinished) -> None:
        if self._reply is not None:
            self._reply.finish(event.reply, cancelled=event.cancelled)
        self._reply = self._user = None
        self.streaming = False
        status = self.query_one(StatusLine)
        seconds = event.timings.generation_ms / 1000
        if event.tokens_out and seconds > 0:
            status.tokens_per_second = event.tokens_out / seconds
        status.extracting = True

    def _written(self, event: MemoryWritten) -> None:
        self.query_one(StatusLine).extracting = False
        self.query_one(Inspector).show_writes(event.turn, event.outcomes, event.failures)
        for failure in event.failures:
            self.notify(f"Memory extraction failed: {failure.error} (raw output in the inspector)",
                        severity="warning", markup=False)
        if not self.inspector_open:
            written = [f"{o.action} #{o.memory_id}: {o.content}" for o in event.outcomes if o.action in VISIBLE_OUTCOMES]
            if written:
                self.notify("\n".join(written), title="memory", markup=False)
        self.post_message(self.Changed(None, recount=False))

    def on_chat_screen_turn_failed(self, message: TurnFailed) -> None:
        for widget in (self._user, self._reply):
            if widget is not None:
                widget.remove()
        self._reply = self._user = None
        self.streaming = False
        self.query_one(PromptInput).restore(message.text)
        notify_error(self, message.error)

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "turn")

    # ---- the budget of the next prompt ---------------------------------------------
    @on(PromptInput.DraftSettled)
    def draft_settled(self, event: PromptInput.DraftSettled) -> None:
        if not self.streaming:
            self.preview_budget(event.text)

    @work(thread=True, exclusive=True, group="preview")
    def preview_budget(self, draft: str) -> None:
        worker = get_current_worker()
        try:
            report = self.conversation.preview(draft)
        except Exception as error:  # noqa: BLE001 - a failed preview only leaves the bar as it was
            self.app.log.warning(f"budget preview failed: {error}")
            return
        if not worker.is_cancelled:
            self.post_message(self.BudgetPreviewed(draft, report))

    def on_chat_screen_budget_previewed(self, message: BudgetPreviewed) -> None:
        if self.streaming or message.draft != self.query_one(PromptInput).text:
            return
        bar = self.query_one(BudgetBar)
        bar.report, bar.title = message.report, "next prompt"

    # ---- memories ------------------------------------------------------------------
    def selected_memory_id(self) -> int | None:
        return self.query_one(Inspector).selected_memory_id if self.inspector_open else None

    def reload_memories(self, recount: bool = True) -> None:
        inspector = self.query_one(Inspector)
        inspector.refresh_memories(self.services.memories.many(inspector.memory_ids))
        if recount and not self.streaming:
            self.preview_budget(self.query_one(PromptInput).text)

    # ---- keys ----------------------------------------------------------------------
    def action_toggle_inspector(self) -> None:
        self.inspector_open = not self.inspector_open

    def action_narrow_inspector(self) -> None:
        self.inspector_width = max(INSPECTOR_MIN, self.inspector_width - INSPECTOR_STEP)

    def action_widen_inspector(self) -> None:
        self.inspector_width = min(max(INSPECTOR_MIN, self.size.width - CHAT_MIN), self.inspector_width + INSPECTOR_STEP)

    @on(BudgetBar.LedgerRequested)
    def action_ledger(self) -> None:
        bar = self.query_one(BudgetBar)
        if bar.report is not None:
            self.app.push_screen(LedgerScreen(bar.report, bar.title))

    def action_browser(self) -> None:
        self.app.push_screen(BrowserScreen(self.services, self.forget_log))

    def action_notes(self) -> None:
        def edited(changed: bool | None) -> None:
            if changed and not self.streaming:
                self.preview_budget(self.query_one(PromptInput).text)

        self.app.push_screen(NotesScreen(self.services, self.conversation.session), edited)

    def action_export_md(self) -> None:
        self._export("md")

    def action_export_json(self) -> None:
        self._export("json")

    def _export(self, fmt: str) -> None:
        try:
            path = export.export(self.services.db, self.conversation.session.name, None, fmt, None)
        except MemchatError as error:
            notify_error(self, error)
            return
        self.notify(f"Snapshot of the last turn written to {path}", title="exported", timeout=10, markup=False)
