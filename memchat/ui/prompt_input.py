"""The multi-line message box: Enter sends, Ctrl+J starts a new line.

It tells its parent two things: a message was sent, and the draft has settled
(no typing for `SETTLE_SECONDS`), which is when the budget bar re-counts the
next prompt. While a reply streams the box is read-only and says so.

Typed characters are inserted in batches: a terminal without bracketed paste
delivers a paste as thousands of key presses, and TextArea re-wraps the whole
line on every edit, so one edit per key makes a 20,000-character paste take
minutes. Keys already queued are gathered into one edit; a person typing still
sees each key at once, since nothing else is waiting behind it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import TextArea

from memchat.ui import keys

SETTLE_SECONDS = 0.3
IDLE_PLACEHOLDER = "Message memchat — Enter sends, Ctrl+J new line, F1 help"
BUSY_PLACEHOLDER = "memchat is replying… Esc stops it"


class PromptInput(TextArea):
    BINDINGS = keys.bindings("input")

    @dataclass
    class Sent(Message):
        """The user pressed Enter on a non-empty draft."""

        text: str

    @dataclass
    class DraftSettled(Message):
        """The user stopped typing; `text` is the draft as it now stands."""

        text: str

    busy: reactive[bool] = reactive(False)
    """A reply is streaming: the box is read-only until it ends."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(soft_wrap=True, tab_behavior="focus", show_line_numbers=False, id=id,
                         highlight_cursor_line=False, placeholder=IDLE_PLACEHOLDER)
        self._typed: list[str] = []
        """Printable keys received but not yet inserted (see `_insert_typed`)."""
        self._settle_timer: Timer | None = None
        self._last_change = 0.0

    def watch_busy(self, busy: bool) -> None:
        self.read_only = busy
        self.set_class(busy, "-busy")
        self.placeholder = BUSY_PLACEHOLDER if busy else IDLE_PLACEHOLDER
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Send and New line leave the footer while a reply streams (room for Stop reply at 80 columns)."""
        return not (self.busy and action in ("send", "newline"))

    # ---- keys ---------------------------------------------------------------
    async def _on_key(self, event: events.Key) -> None:
        """Typed text, and the send and newline keys, handled in order (a priority binding could overtake them).

        Without `prevent_default` the key goes on to TextArea's own handler, which inserts it.
        """
        if event.is_printable and not self.read_only:
            event.stop()
            event.prevent_default()
            if not self._typed:
                self.call_later(self._insert_typed)
            self._typed.append(event.character or "")
            return
        self._insert_typed()
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.node is self and active.binding.action in ("send", "newline"):
            event.stop()
            event.prevent_default()
            await self.run_action(active.binding.action)

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
        self._insert_typed()
        text = self.text
        if self.busy or not text.strip():
            self.app.bell()
            return
        with self.prevent(TextArea.Changed):
            self.clear()
        self._stop_settle_timer()
        self.post_message(self.Sent(text))

    def action_newline(self) -> None:
        if not self.busy:
            self.insert("\n")

    def restore(self, text: str) -> None:
        """Put back a draft whose turn failed, cursor at its end."""
        self.load_text(text)
        self.move_cursor(self.document.end)

    # ---- draft settling ----------------------------------------------------
    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """Note the time only: restarting a timer on every key is itself costly during a long paste."""
        if event.text_area is not self:
            return
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
