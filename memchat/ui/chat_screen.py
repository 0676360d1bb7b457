"""The main screen: status line, the chat pane, and the memory inspector beside it.

The chat pane runs turns; their events bubble up here, where recall results
and memory writes go to the inspector and progress to the status line. The
screen also owns the layout (the inspector collapses below `WIDE_COLUMNS`),
the screen-wide keys, and — through `MemoryScreen` — the memory keys of the
inspector. The message box has the focus whenever an overlay closes, and
letters typed on the inspector that are no memory key go there too. Keys
typed while memchat started (`type_ahead`, see `terminal.TypeAhead`) are
replayed into it once it is mounted.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import Footer

from memchat.pipeline import export, snapshot
from memchat.pipeline.conversation import Conversation
from memchat.pipeline.services import Services
from memchat.terminal_text import printable
from memchat.types import (
    FORGET_NOT_KEPT,
    FORGET_OFFER,
    FORGET_UNMATCHED,
    PURGE_OFFER,
    MemchatError,
    MemoryWritten,
    RecallDone,
    TurnFinished,
    TurnStarted,
)
from memchat.ui import keys
from memchat.ui.browser import BrowserScreen
from memchat.ui.budget_bar import BudgetBar
from memchat.ui.chat_pane import ChatPane
from memchat.ui.dialogs import ForgetOfferDialog
from memchat.ui.feedback import notify_error
from memchat.ui.inspector import Inspector, turn_from_snapshot
from memchat.ui.ledger_screen import LedgerScreen
from memchat.ui.memory_actions import ForgetLog, MemoryScreen
from memchat.ui.notes_screen import NotesScreen
from memchat.ui.prompt_input import PromptInput
from memchat.ui.status_line import StatusLine

WIDE_COLUMNS = 100
"""Below this terminal width the inspector collapses (F2 still opens it)."""
INSPECTOR_WIDTH, INSPECTOR_STEP, INSPECTOR_MIN, CHAT_MIN = 58, 8, 32, 30
INSPECTOR_SHARE = 0.5
"""Until resized with Alt+←/→ the inspector takes this share of a wide terminal (at least INSPECTOR_WIDTH):
at 160 columns, room for a reason and a readable part of each memory."""
VISIBLE_OUTCOMES = ("added", "merged", "superseded", "pending", "deleted")


class ChatScreen(MemoryScreen):
    BINDINGS = keys.bindings("chat")

    inspector_open: reactive[bool] = reactive(True)
    """The inspector pane is shown."""
    inspector_width: reactive[int] = reactive(0)
    """Width of the inspector pane in cells; 0 until the user resizes it (then it follows the terminal)."""

    def __init__(self, services: Services, conversation: Conversation, forget_log: ForgetLog) -> None:
        super().__init__()
        self.services = services
        self.conversation = conversation
        self.forget_log = forget_log
        self.pane = ChatPane(conversation, id="chat-column")
        self._turn = 0
        self._wide: bool | None = None
        self.type_ahead = ""
        """Keys typed before the app took the terminal ("\r" is Enter), replayed into the message box."""

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="main"):
            yield self.pane
            yield Inspector(id="inspector")
        yield Footer()

    def on_screen_resume(self) -> None:
        """Back from an overlay the message box has the focus, not a table where letters are memory keys —
        unless a memory key on the table opened it (edit, purge, add, source): then the table keeps it."""
        if not self.opened_by_memory_key:
            self.set_focus(self.query_one(PromptInput))  # at once: keys typed right after Esc follow it
        self.opened_by_memory_key = False

    def type_elsewhere(self, character: str) -> bool:
        prompt = self.query_one(PromptInput)
        self.set_focus(prompt)
        prompt.insert(character)
        return True

    def on_mount(self) -> None:
        status = self.query_one(StatusLine)
        status.model = self.services.engine.name
        status.n_ctx = self.services.engine.n_ctx
        status.session = self.conversation.session.name
        self.watch(self.pane, "streaming", self._streaming_changed)
        self.watch(self.pane, "queued", self._queued_changed)
        self._show_last_turn()
        self._fit_width(self.app.size.width)
        if self.type_ahead:
            self.query_one(PromptInput).replay(self.type_ahead)
            self.type_ahead = ""
        self._resume_interrupted_work()

    def _resume_interrupted_work(self) -> None:
        """What a memchat that stopped early left: messages whose memories were never written
        (extracted now, in the background) and a last message that got no reply (offered again)."""
        status = self.query_one(StatusLine)

        def show(left: int) -> None:
            status.pending = left
            if not left:
                self._changed(None, recount=False)

        def progress(left: int) -> None:  # from the extraction thread; the app may be closing
            if self.app.is_running:
                self.app.call_from_thread(show, left)

        if self.conversation.resume_pending(progress):
            status.pending = self.conversation.pending_extraction()
        draft = self.conversation.take_draft()
        if draft is not None:
            text, where = draft
            self.query_one(PromptInput).restore(text)
            elsewhere = "" if where == self.conversation.session.name else f" (in session {where})"
            self.notify(f"What you had typed or queued when memchat closed{elsewhere} is back in the box.",
                        title="unsent", markup=False)
        unanswered = self.conversation.unanswered()
        if unanswered is not None:  # before the draft: it was sent first
            self.query_one(PromptInput).restore(unanswered.content)
            self.notify("Your last message got no reply (memchat stopped during it). "
                        "It is back in the box: press Enter to send it again.", title="no reply", markup=False)

    def _show_last_turn(self) -> None:
        try:
            data = snapshot.load(self.services.db, self.conversation.session.id)
        except MemchatError:
            return
        self._turn, candidates, outcomes, failures = turn_from_snapshot(data, self.services.memories.many)
        self.query_one(Inspector).show_candidates(self._turn, candidates)
        self.query_one(Inspector).show_writes(self._turn, outcomes, failures)

    # ---- layout ------------------------------------------------------------------
    def on_resize(self, event: Resize) -> None:
        self._fit_width(event.size.width)
        self._apply_inspector_width()

    def _fit_width(self, width: int) -> None:
        """Narrow: no inspector, and a compact footer so Quit and Help still show at 80 columns."""
        wide = width >= WIDE_COLUMNS
        if wide != self._wide:
            self._wide = wide
            self.inspector_open = wide and self.services.settings.ui.inspector
            footer = self.query_one(Footer)
            footer.compact = not wide
            footer.show_command_palette = wide

    def watch_inspector_open(self, open_: bool) -> None:
        self.query_one(Inspector).display = open_
        self.refresh_bindings()

    def watch_inspector_width(self) -> None:
        self._apply_inspector_width()

    def _wanted_inspector_width(self) -> int:
        return self.inspector_width or max(INSPECTOR_WIDTH, int(self.app.size.width * INSPECTOR_SHARE))

    def _apply_inspector_width(self) -> None:
        """The chosen width, but never more than the screen leaves beside the chat (F2 on a narrow terminal)."""
        room = self.app.size.width - CHAT_MIN - 1
        self.query_one(Inspector).styles.width = max(INSPECTOR_MIN, min(self._wanted_inspector_width(), room))

    def _streaming_changed(self, streaming: bool) -> None:
        self.query_one(StatusLine).streaming = streaming
        self.refresh_bindings()

    def _queued_changed(self, queued: int) -> None:
        self.query_one(StatusLine).queued = queued

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.pane.streaming
        if action in ("narrow_inspector", "widen_inspector"):
            return self.inspector_open
        return True

    # ---- turn events (bubbling up from the chat pane) -------------------------------
    def on_chat_pane_turn_event_arrived(self, message: ChatPane.TurnEventArrived) -> None:
        event = message.event
        if isinstance(event, TurnStarted):
            self._turn = event.turn
        elif isinstance(event, RecallDone):
            self.query_one(Inspector).show_candidates(self._turn, event.candidates)
        elif isinstance(event, TurnFinished):
            status = self.query_one(StatusLine)
            decoding = (event.timings.generation_ms - event.timings.first_token_ms) / 1000
            generated = event.timings.generated_tokens or event.tokens_out  # a cut loop kept fewer than it decoded
            if generated > 1 and decoding > 0:
                status.tokens_per_second = (generated - 1) / decoding
            status.prompt_cache = (event.timings.prompt_reused, event.timings.prompt_evaluated)
            status.extracting = True
        elif isinstance(event, MemoryWritten):
            self._written(event)

    def _written(self, event: MemoryWritten) -> None:
        self.query_one(StatusLine).extracting = False
        self.query_one(Inspector).show_writes(event.turn, event.outcomes, event.failures)
        for failure in event.failures:
            self.notify(printable(f"Memory extraction failed: {failure.error} (raw output in the inspector)"),
                        severity="warning", markup=False)
        offers = [(o.memory_id, o.content) for o in event.outcomes if o.reason == FORGET_OFFER and o.memory_id]
        unmatched = next((o.content for o in event.outcomes if o.reason == FORGET_UNMATCHED), None)
        if any(o.action == "deleted" for o in event.outcomes):
            unmatched = None  # a note about it went
        for topic in [o.content for o in event.outcomes if o.reason == FORGET_NOT_KEPT]:
            self.notify(printable(f"Not kept: what this message said of “{topic}”."), title="forget", markup=False)
        if unmatched is not None and offers:
            self._offer_forget(unmatched, offers)
        elif unmatched is not None:
            self.notify(printable(f"Nothing matched “{unmatched}”, and nothing stored is close to it: nothing was "
                                  "forgotten. F3 lists every memory."), title="forget", severity="warning",
                        markup=False)
        if not self.inspector_open:
            written = [f"{o.action} #{o.memory_id}: {o.content}" for o in event.outcomes if o.action in VISIBLE_OUTCOMES]
            written += [f"{o.reason}: {o.content}" for o in event.outcomes if o.reason == PURGE_OFFER]
            if written:
                self.notify(printable("\n".join(written)), title="memory", markup=False)
        self._changed(None, recount=False)

    def _offer_forget(self, topic: str, offers: list[tuple[int, str]]) -> None:
        """A forget request matched nothing by its words: the user picks from the closest memories."""
        def save(ids: list[int]) -> str:
            self.conversation.forget_picked(topic, ids)
            return f"Forgot {', '.join(f'#{i}' for i in ids)} — press u to undo."

        def saved(ids: list[int] | None) -> None:
            for memory_id in ids or []:
                self.forget_log.push(memory_id, "active")  # only active memories are offered
            if ids:
                self._changed(None)

        self.app.push_screen(ForgetOfferDialog(topic, offers, save), saved)

    # ---- memories ------------------------------------------------------------------
    def selected_memory_id(self) -> int | None:
        return self.query_one(Inspector).selected_memory_id if self.inspector_open else None

    def reload_memories(self, recount: bool = True) -> None:
        inspector = self.query_one(Inspector)
        inspector.refresh_memories(self.services.memories.many(inspector.memory_ids))
        if recount:
            self.pane.refresh_budget()

    # ---- keys ----------------------------------------------------------------------
    def action_cancel(self) -> None:
        self.pane.cancel()

    def action_toggle_inspector(self) -> None:
        self.inspector_open = not self.inspector_open

    def action_narrow_inspector(self) -> None:
        self.inspector_width = max(INSPECTOR_MIN, self._wanted_inspector_width() - INSPECTOR_STEP)

    def action_widen_inspector(self) -> None:
        self.inspector_width = min(max(INSPECTOR_MIN, self.size.width - CHAT_MIN),
                                   self._wanted_inspector_width() + INSPECTOR_STEP)

    @on(BudgetBar.LedgerRequested)
    def action_ledger(self) -> None:
        bar = self.query_one(BudgetBar)
        if bar.report is not None:
            self.app.push_screen(LedgerScreen(bar.report, bar.title))

    def action_browser(self) -> None:
        self.app.push_screen(BrowserScreen(self.services, self.forget_log))

    def action_notes(self) -> None:
        def edited(changed: bool | None) -> None:
            if changed:
                self.pane.refresh_budget()

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
