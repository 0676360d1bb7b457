"""The chat column: conversation, budget bar and input, and the turn that connects them.

A turn runs `Conversation.run_turn` in a thread worker. Its events come back
as `TurnEventArrived` messages (posted from the worker thread, and later from
the background extraction thread); this pane shows the reply and the budget,
and lets the message bubble on so the screen can update the inspector and the
status line. Esc cancels the worker; the conversation checks `should_stop`
between tokens, so the reply stops at once and keeps what came.

The message box stays editable while a turn runs: a message sent then is
queued (shown as a dim bubble) and sent when the turn's worker has ended, one
at a time, in order; ↑ in the empty box takes the last queued one back. A
failed turn puts its text and every queued message back into the box.

When the draft rests (`PromptInput.DraftSettled`) and no turn runs, the
conversation pre-warms the next prompt for it in the background, the draft itself
included, so sending it as it stands reads one token; the call returns at once and
a turn stops it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.worker import get_current_worker

from memchat.pipeline.conversation import Conversation
from memchat.types import (
    BudgetReport,
    MemchatError,
    PromptAssembled,
    ReplyRestarted,
    TokenStreamed,
    TurnEvent,
    TurnFinished,
)
from memchat.ui.budget_bar import BudgetBar
from memchat.ui.chat_view import AssistantMessage, ChatView, UserMessage
from memchat.ui.feedback import as_memchat_error, notify_error
from memchat.ui.prompt_input import PromptInput


class ChatPane(Vertical):
    @dataclass
    class TurnEventArrived(Message):
        """The pipeline reported progress of a turn (from a worker or the extraction thread)."""

        event: TurnEvent

    @dataclass
    class TurnFailed(Message):
        """A turn raised before its reply was complete; `text` goes back into the input."""

        text: str
        error: MemchatError

    class TurnEnded(Message):
        """The turn's worker thread has returned (after TurnFinished or TurnFailed): the next may start."""

    @dataclass
    class BudgetPreviewed(Message):
        """The budget of the next prompt, counted for `draft` (None if counting failed)."""

        draft: str
        report: BudgetReport | None

    streaming: reactive[bool] = reactive(False)
    """A reply is being generated."""
    busy: reactive[bool] = reactive(False)
    """A turn runs in the worker thread (from Enter until the thread returns): Enter queues."""
    queued: reactive[int] = reactive(0)
    """Messages sent while a turn ran, waiting for it to end."""

    def __init__(self, conversation: Conversation, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.conversation = conversation
        self.idle = threading.Event()
        """Set while no turn runs in a worker thread (quitting waits for it)."""
        self.idle.set()
        self._reply: AssistantMessage | None = None
        self._user: UserMessage | None = None
        self._queue: list[UserMessage] = []
        """Queued messages, oldest first."""
        self._counting = False
        """A preview is being counted; at most one runs at a time."""
        self._count_next: str | None = None
        """The draft to count when the running preview returns (the newest one asked for)."""

    def compose(self) -> ComposeResult:
        yield ChatView(id="chat")
        yield BudgetBar(id="budget")
        yield PromptInput(id="prompt")

    def on_mount(self) -> None:
        self.query_one(ChatView).show_history(self.conversation.history())
        self.refresh_budget()
        self._recount_when_loaded()

    @work(thread=True, group="loading")
    def _recount_when_loaded(self) -> None:
        """The bar starts with estimates ("~") while the model loads; recount exactly once it has."""
        try:
            self.conversation.services.engine.wait_until_loaded()
        except Exception as error:  # noqa: BLE001 - the failure shows on the first turn instead
            self.app.call_from_thread(notify_error, self, as_memchat_error(error))
            return
        self.app.call_from_thread(self.refresh_budget)

    def watch_busy(self, busy: bool) -> None:
        self.query_one(PromptInput).busy = busy

    def watch_queued(self, queued: int) -> None:
        self.query_one(PromptInput).queued = queued

    # ---- a turn --------------------------------------------------------------------
    @on(PromptInput.Sent)
    def _send(self, event: PromptInput.Sent) -> None:
        chat = self.query_one(ChatView)
        if self.busy:
            self._queue.append(chat.add_user(event.text, queued=True))
            self.queued = len(self._queue)
            return
        self._start(chat.add_user(event.text))

    def _start(self, user: UserMessage) -> None:
        self._count_next = None
        self._user = user
        self._reply = self.query_one(ChatView).start_reply(after=user)
        self.streaming = self.busy = True
        self.idle.clear()
        self._run_turn(user.text)

    @work(thread=True, exclusive=True, group="turn")
    def _run_turn(self, text: str) -> None:
        worker = get_current_worker()
        try:
            self.conversation.run_turn(text, emit=self._emit, should_stop=lambda: worker.is_cancelled)
        except Exception as error:  # noqa: BLE001 - every failure becomes a toast, never a traceback
            self.post_message(self.TurnFailed(text, as_memchat_error(error)))
        finally:
            self.idle.set()
            self.post_message(self.TurnEnded())

    def _emit(self, event: TurnEvent) -> None:
        self.post_message(self.TurnEventArrived(event))

    def on_chat_pane_turn_event_arrived(self, message: TurnEventArrived) -> None:
        event = message.event
        if not self.is_attached or (self._reply is not None and not self._reply.is_attached):
            return  # the app is closing: the turn records itself, there is nothing left to show it in
        if isinstance(event, PromptAssembled):
            bar = self.query_one(BudgetBar)
            bar.report, bar.title = event.budget, "last prompt"
            sent = event.budget.block("input")
            if sent is not None and sent.cut and self._user is not None:
                self._user.mark_cut(sent.cut)
        elif isinstance(event, TokenStreamed) and self._reply is not None:
            self._reply.append(event.text)
        elif isinstance(event, ReplyRestarted) and self._reply is not None:
            self._reply.restart()
        elif isinstance(event, TurnFinished):
            if self._reply is not None:
                self._reply.finish(event.reply, cancelled=event.cancelled)
            self._reply = self._user = None
            self.streaming = False

    def on_chat_pane_turn_failed(self, message: TurnFailed) -> None:
        """Nothing typed is lost: the failed message and every queued one go back into the box, in order."""
        queued = [user.text for user in self._queue]
        for widget in (self._user, self._reply, *self._queue):
            if widget is not None:
                widget.remove()
        self._reply = self._user = None
        self._queue.clear()
        self.queued = 0
        self.streaming = False
        self.query_one(PromptInput).restore("\n".join([message.text, *queued]))
        notify_error(self, message.error)

    def on_chat_pane_turn_ended(self, message: TurnEnded) -> None:
        self.busy = False
        if self._queue:
            user = self._queue.pop(0)
            self.queued = len(self._queue)
            user.unqueue()
            self._start(user)
        elif self.query_one(PromptInput).text:
            self.refresh_budget()  # a draft typed while the reply streamed has not been counted yet
            self.conversation.prewarm_draft(self.query_one(PromptInput).text)

    @on(PromptInput.UnqueueRequested)
    def _unqueue(self, event: PromptInput.UnqueueRequested) -> None:
        if not self._queue:
            return
        user = self._queue.pop()
        self.queued = len(self._queue)
        user.remove()
        self.query_one(PromptInput).restore(user.text)

    def unsent(self) -> str:
        """Every queued message, then what is in the box: what closing now would leave unsent."""
        texts = [user.text for user in self._queue]
        box = self.query_one(PromptInput).text
        return "\n".join([*texts, box] if box.strip() else texts)

    def cancel(self) -> None:
        """Stop the reply being generated; what came so far is kept."""
        self.workers.cancel_group(self, "turn")
        if self._reply is not None:
            self._reply.stopping()

    # ---- the budget of the next prompt ---------------------------------------------
    @on(PromptInput.DraftSettled)
    def _draft_settled(self, event: PromptInput.DraftSettled) -> None:
        self.refresh_budget()
        if not self.busy:
            self.conversation.prewarm_draft(event.text)

    def refresh_budget(self) -> None:
        """Re-count the next prompt for the current draft (not while a reply streams).

        A long draft takes a while to count (the tokenizer runs over all of it, and an
        over-long one is cut by binary search), so counts never overlap: one asked for
        while another runs waits, and only the newest draft is counted then.
        """
        if self.streaming:
            return
        draft = self.query_one(PromptInput).text
        if self._counting:
            self._count_next = draft
            return
        self._counting = True
        self._preview(draft)

    @work(thread=True, group="preview")
    def _preview(self, draft: str) -> None:
        report: BudgetReport | None = None
        try:
            report = self.conversation.preview(draft)
        except Exception as error:  # noqa: BLE001 - a failed preview only leaves the bar as it was
            self.app.log.warning(f"budget preview failed: {error}")
        self.post_message(self.BudgetPreviewed(draft, report))

    def on_chat_pane_budget_previewed(self, message: BudgetPreviewed) -> None:
        self._counting = False
        if self._count_next is not None:
            self._count_next = None
            self.refresh_budget()
            return
        if message.report is None or self.streaming or message.draft != self.query_one(PromptInput).text:
            return
        bar = self.query_one(BudgetBar)
        bar.report, bar.title = message.report, "next prompt"
