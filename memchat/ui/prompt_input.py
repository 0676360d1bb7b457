"""The multi-line message box: Enter sends, Ctrl+J starts a new line.

It tells its parent three things: a message was sent, the draft has settled
(no typing for `SETTLE_SECONDS`), which is when the budget bar re-counts the
next prompt, and the user wants the last queued message back. The box stays
editable while a reply streams: Enter then queues the message (the parent sends
it when the turn ends) and ↑ in an empty box takes the last queued one back.

Typed characters are inserted in batches: a terminal without bracketed paste
delivers a paste as thousands of key presses, and TextArea re-wraps the whole
line on every edit, so one edit per key makes a 20,000-character paste take
minutes. Keys already queued are gathered into one edit; a person typing still
sees each key at once, since nothing else is waiting behind it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import TextArea

from memchat.ui import keys

SETTLE_SECONDS = 0.3
IDLE_PLACEHOLDER = "Message memchat — Enter sends, Ctrl+J new line, F1 help"
BUSY_PLACEHOLDER = "memchat is replying… type ahead: Enter queues, Esc stops the reply"
QUEUED_PLACEHOLDER = "{n} queued — ↑ takes the last one back · Enter queues another · Esc stops the reply"
OWN_KEYS = ("send", "queue", "newline", "unqueue")
"""Actions run in `_on_key`, in order with the typed text (a binding could overtake keys still being inserted)."""


class PromptInput(TextArea):
    BINDINGS: ClassVar[list[BindingType]] = [*keys.bindings("input"), Binding("up", "cursor_up", show=False)]
    """TextArea's own ↑ stays behind Edit queued, which takes the key only when there is a queue."""

    @dataclass
    class Sent(Message):
        """The user pressed Enter on a non-empty draft."""

        text: str

    @dataclass
    class DraftSettled(Message):
        """The user stopped typing; `text` is the draft as it now stands."""

        text: str

    class UnqueueRequested(Message):
        """The user wants the last queued message back in the box (↑ in an empty box)."""

    busy: reactive[bool] = reactive(False)
    """A turn is running: Enter queues the message instead of sending it now."""
    queued: reactive[int] = reactive(0)
    """How many sent messages wait for the running turn to end."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(soft_wrap=True, tab_behavior="focus", show_line_numbers=False, id=id,
                         highlight_cursor_line=False, placeholder=IDLE_PLACEHOLDER)
        self._typed: list[str] = []
        """Printable keys received but not yet inserted (see `_insert_typed`)."""
        self._settle_timer: Timer | None = None
        self._last_change = 0.0

    def watch_busy(self, busy: bool) -> None:
        self.set_class(busy, "-busy")
        self._show_state()

    def watch_queued(self) -> None:
        self._show_state()

    def _show_state(self) -> None:
        if self.queued:
            self.placeholder = QUEUED_PLACEHOLDER.format(n=self.queued)
        else:
            self.placeholder = BUSY_PLACEHOLDER if self.busy else IDLE_PLACEHOLDER
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is Send when idle and Queue while a turn runs; ↑ takes a queued message back only
        from an empty box (elsewhere it moves the cursor); New line leaves the footer while a turn
        runs (room for Stop reply at 80 columns) but still works."""
        if action == "send":
            return not self.busy
        if action == "queue":
            return self.busy
        if action == "newline":
            return not self.busy
        if action == "unqueue":
            return bool(self.queued) and not self.text
        return True

    # ---- keys ---------------------------------------------------------------
    async def _on_key(self, event: events.Key) -> None:
        """Typed text, and the send and newline keys, handled in order (a priority binding could overtake them).

        Without `prevent_default` the key goes on to TextArea's own handler, which inserts it.
        """
        if event.key.startswith("alt+") and event.is_printable:
            await self._escape_then_type()
        if event.is_printable and not self.read_only:
            event.stop()
            event.prevent_default()
            if not self._typed:
                self.call_later(self._insert_typed)
            self._typed.append(event.character or "")
            return
        self._insert_typed()
        action = self._own_action(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)

    async def _escape_then_type(self) -> None:
        """Esc and the next key, arriving together, reach us as Alt+key (tmux does this with keys typed
        within its escape-time of Esc): run what Esc does (stop the reply); the character is typed as usual."""
        escape = self.screen.active_bindings.get("escape")
        if escape is not None and escape.enabled:
            await self.app.run_action(escape.binding.action, escape.node)

    def _own_action(self, key: str) -> str | None:
        """The action of OWN_KEYS that `key` triggers now (New line is hidden, not off, while a turn runs)."""
        active = self.screen.active_bindings.get(key)
        if active is not None and active.node is self and active.binding.action in OWN_KEYS:
            return active.binding.action
        if self.busy and key in self._newline_keys():
            return "newline"
        return None

    def _newline_keys(self) -> list[str]:
        remap = getattr(self.app, "remap", {})
        return [k for spec in keys.KEYMAP if spec.action == "newline" for k in keys.effective_keys(spec, remap)]

    def _insert_typed(self) -> None:
        """Insert the keys gathered so far as one edit, replacing the selection as typing does."""
        if not self._typed:
            return
        text = "".join(self._typed)
        self._typed.clear()
        if not self.read_only:
            start, end = self.selection
            self.move_cursor(self.replace(text, start, end, maintain_selection_offset=False).end_location)

    async def _on_paste(self, event: events.Paste) -> None:
        self._insert_typed()  # keys typed before the paste go before it

    def action_send(self) -> None:
        """Send the draft; while a turn runs the parent queues it (the `queue` binding)."""
        self._insert_typed()
        text = self.text
        if not text.strip():
            self.app.bell()
            return
        with self.prevent(TextArea.Changed):
            self.clear()
        self._stop_settle_timer()
        self.post_message(self.Sent(text))

    def action_queue(self) -> None:
        self.action_send()

    def action_newline(self) -> None:
        self.insert("\n")

    def action_unqueue(self) -> None:
        self.post_message(self.UnqueueRequested())

    def restore(self, text: str) -> None:
        """Put back a message that was not sent (its turn failed, or it was taken out of the queue)
        before whatever has been typed since, so nothing typed is lost; someone typing keeps typing
        where they were, else the cursor goes to the end of the restored text."""
        self._insert_typed()
        draft = self.text
        if not draft.strip():
            self.load_text(text)
            self.move_cursor(self.document.end)
            return
        row, column = self.cursor_location
        self.load_text(f"{text}\n{draft}")
        self.move_cursor((row + text.count("\n") + 1, column))

    def replay(self, typed: str) -> None:
        """Keys typed before the UI was up (see `terminal.TypeAhead`): "\r" sends what came before it."""
        *sent, draft = typed.split("\r")
        for text in sent:
            self.insert(text)
            if self.text.strip():
                self.action_send()
        self.insert(draft)

    # ---- draft settling ----------------------------------------------------
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """Note the time only: restarting a timer on every key is itself costly during a long paste."""
        if event.text_area is not self:
            return
        if self.queued:  # ↑ takes a queued message back only from an empty box
            self.refresh_bindings()
        self._last_change = time.monotonic()
        if self._settle_timer is None:
            self._settle_timer = self.set_timer(SETTLE_SECONDS, self._settle)

    def _settle(self) -> None:
        quiet = time.monotonic() - self._last_change
        if quiet < SETTLE_SECONDS:
            self._settle_timer = self.set_timer(SETTLE_SECONDS - quiet, self._settle)
            return
        self._settle_timer = None
        self.post_message(self.DraftSettled(self.text))

    def _stop_settle_timer(self) -> None:
        if self._settle_timer is not None:
            self._settle_timer.stop()
            self._settle_timer = None
