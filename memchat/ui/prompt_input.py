"""The multi-line message box: Enter sends, Ctrl+J starts a new line.

It tells its parent two things: a message was sent, and the draft has settled
(no typing for `SETTLE_SECONDS`), which is when the budget bar re-counts the
next prompt. While a reply streams the box is read-only and says so.
"""

from __future__ import annotations

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
        self._settle_timer: Timer | None = None
        self._settled_text = ""

    def watch_busy(self, busy: bool) -> None:
        self.read_only = busy
        self.set_class(busy, "-busy")
        self.placeholder = BUSY_PLACEHOLDER if busy else IDLE_PLACEHOLDER

    # ---- keys ---------------------------------------------------------------
    async def _on_key(self, event: events.Key) -> None:
        """Send and newline keys, handled in order with typed text (a priority binding could overtake it).

        Without `prevent_default` the key goes on to TextArea's own handler, which inserts it.
        """
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.node is self and active.binding.action in ("send", "newline"):
            event.stop()
            event.prevent_default()
            await self.run_action(active.binding.action)

    def action_send(self) -> None:
        text = self.text
        if self.busy or not text.strip():
            self.app.bell()
            return
        with self.prevent(TextArea.Changed):
            self.clear()
        self._stop_settle_timer()
        self._settled_text = ""
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
        if event.text_area is not self:
            return
        self._stop_settle_timer()
        if self.text != self._settled_text:
            self._settle_timer = self.set_timer(SETTLE_SECONDS, self._settle)

    def _settle(self) -> None:
        self._settle_timer = None
        self._settled_text = self.text
        self.post_message(self.DraftSettled(self.text))

    def _stop_settle_timer(self) -> None:
        if self._settle_timer is not None:
            self._settle_timer.stop()
            self._settle_timer = None
