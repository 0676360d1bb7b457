"""Where a memory came from: its session's transcript, scrolled to the source message."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from memchat.terminal_text import printable
from memchat.types import Message, Session
from memchat.ui import keys


class TranscriptScreen(ModalScreen[None]):
    """The transcript of `session` with `source_id` highlighted and in view."""

    BINDINGS = keys.bindings("viewer")

    def __init__(self, session: Session, messages: list[Message], source_id: int) -> None:
        super().__init__(classes="dialog-screen")
        self.session = session
        self.messages = messages
        self.source_id = source_id

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(printable(f"Session {self.session.name} — source message #{self.source_id}", one_line=True),
                        classes="dialog-title",
                        markup=False)
            with VerticalScroll(id="transcript"):
                for message in self.messages:
                    line = Static(printable(message.content), markup=False, id=f"message-{message.id}",
                                  classes=f"transcript-{message.role}")
                    line.border_title = f"#{message.id} {message.role}"
                    line.set_class(message.id == self.source_id, "-source")
                    yield line
            yield Static("Esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        source = self.query(f"#message-{self.source_id}")
        if source:
            self.call_after_refresh(source.first().scroll_visible, animate=False, top=True)

    def action_close(self) -> None:
        self.dismiss(None)
