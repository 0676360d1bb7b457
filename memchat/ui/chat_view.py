"""The conversation pane: user messages as plain text, replies as Markdown streamed in.

Tokens arrive far faster than Markdown can be re-rendered, so a reply buffers
them and flushes at most `FLUSH_HZ` times a second. A stopped reply keeps what
was streamed and says "(stopped)".
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Markdown, Static

from memchat.terminal_text import printable
from memchat.types import Message
from memchat.ui.budget_bar import CUT_MARK

FLUSH_HZ = 15
HISTORY_SHOWN = 200
"""Older messages of a resumed session stay in the database, not on screen."""


QUEUED_TITLE, QUEUED_SUBTITLE = "you · queued", "sent when the reply ends · ↑ in the empty box takes it back"


class UserMessage(Static):
    """What the user sent, shown verbatim (no markup, no Markdown); dim while it waits in the queue."""

    def __init__(self, text: str, *, evicted: bool = False, queued: bool = False) -> None:
        super().__init__(printable(text), markup=False, classes="-evicted" if evicted else "-queued" if queued else "")
        self.text = text
        self.cut = ""
        """Why the model saw only part of the message (the budget's cut reason), or "" if it saw all of it."""
        self.border_title = QUEUED_TITLE if queued else "you"
        self.border_subtitle = QUEUED_SUBTITLE if queued else ""

    @property
    def queued(self) -> bool:
        return self.has_class("-queued")

    def unqueue(self) -> None:
        """Its turn has come: shown as an ordinary sent message."""
        self.remove_class("-queued")
        self.border_title, self.border_subtitle = "you", ""

    def mark_cut(self, reason: str) -> None:
        """The message did not fit the context: say so under it, so it does not look sent whole."""
        self.cut = reason
        self.add_class("-cut")
        self.border_subtitle = f"{CUT_MARK} cut to fit"
        self.update(Text.assemble(printable(self.text), (f"\n{CUT_MARK} {reason} to fit the context — the rest was not sent",
                                              "dim italic")))


class AssistantMessage(Vertical):
    """One reply: a Markdown body fed in throttled batches, and a status line."""

    def __init__(self, text: str = "", *, cancelled: bool = False, evicted: bool = False) -> None:
        super().__init__(classes="-evicted" if evicted else "")
        self._initial = text
        self._pending: list[str] = []
        self._flusher: Timer | None = None
        self.cancelled = cancelled
        self._started = False
        """Text has arrived (or the reply ended): on_mount, if it runs late, must not say "thinking…"."""
        self.border_title = "memchat"

    def compose(self) -> ComposeResult:
        yield Markdown(printable(self._initial))
        yield Static("", classes="reply-status")

    def on_mount(self) -> None:
        waiting = not self._initial and not self.cancelled and not self._started
        self.set_class(waiting, "-waiting")
        self.set_class(self.cancelled, "-stopped")
        self._status("thinking…" if waiting else "(stopped)" if self.cancelled else "")

    def _status(self, text: str) -> None:
        status = self.query_one(".reply-status", Static)
        status.update(text)
        status.display = bool(text)

    @property
    def source(self) -> str:
        """The reply's Markdown as shown so far, including anything not yet flushed."""
        return self.query_one(Markdown).source + "".join(self._pending)

    def append(self, text: str) -> None:
        self._started = True
        self._pending.append(printable(text))
        if self._flusher is None:
            self.remove_class("-waiting")
            self._status("")
            self._flusher = self.set_interval(1 / FLUSH_HZ, self._flush)

    def _flush(self) -> None:
        if self._pending:
            chunk = "".join(self._pending)
            self._pending.clear()
            self.query_one(Markdown).append(chunk)

    def restart(self) -> None:
        """The reply so far was discarded (a repeat, regenerated): clear it for the new attempt's text."""
        self._pending.clear()
        self.query_one(Markdown).update("")

    def stopping(self) -> None:
        """Esc was pressed: the engine stops at its next token."""
        self._status("stopping…")

    def finish(self, reply: str, *, cancelled: bool) -> None:
        """The reply ended: show its final text; a stopped one is marked."""
        self._started = True
        if self._flusher is not None:
            self._flusher.stop()
            self._flusher = None
        self._pending.clear()
        self.cancelled = cancelled
        self.remove_class("-waiting")
        self.set_class(cancelled, "-stopped")
        self.query_one(Markdown).update(printable(reply))
        self._status("(stopped)" if cancelled else "")
        if not self.is_mounted:  # finished before on_mount ran: show the final text once mounted
            self._initial = reply


class ChatView(VerticalScroll):
    """The scrolling list of messages; stays pinned to the bottom while replies stream."""

    def on_mount(self) -> None:
        self.anchor()

    def show_history(self, messages: Sequence[Message]) -> None:
        shown = list(messages)[-HISTORY_SHOWN:]
        widgets: list[Static | AssistantMessage] = []
        if len(messages) > len(shown):
            widgets.append(Static(f"… {len(messages) - len(shown)} earlier messages not shown", classes="chat-note"))
        for message in shown:
            if message.role == "user":
                widgets.append(UserMessage(message.content, evicted=not message.in_window))
            elif message.role == "assistant":
                widgets.append(AssistantMessage(message.content, cancelled=message.cancelled,
                                                evicted=not message.in_window))
        if widgets:
            self.mount_all(widgets)

    def add_user(self, text: str, *, queued: bool = False) -> UserMessage:
        message = UserMessage(text, queued=queued)
        if self.is_attached:  # not when the app is closing: a turn's late events find the view gone
            self.mount(message)
            self.anchor()
        return message

    def start_reply(self, after: UserMessage | None = None) -> AssistantMessage:
        """A new reply under `after` (before any message queued behind it), else at the end."""
        reply = AssistantMessage()
        if self.is_attached and (after is None or after.is_attached):
            self.mount(reply, after=after)
            self.anchor()
        return reply

    @property
    def replies(self) -> list[AssistantMessage]:
        return list(self.query(AssistantMessage))
