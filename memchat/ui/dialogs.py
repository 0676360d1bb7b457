"""Small modal dialogs: confirm, edit a text, add a memory by hand.

Each returns its answer through `dismiss` (None when cancelled), so callers
push it with a callback and never poll.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Label, Select, Static, TextArea

from memchat.types import MEMORY_KINDS, MemoryDraft
from memchat.ui import keys

HAND_IMPORTANCE = 0.7
"""Importance of a memory added by hand: the user chose to keep it."""


class ConfirmDialog(ModalScreen[bool]):
    """Yes or no; Cancel has the focus so Enter alone never destroys anything."""

    BINDINGS = keys.bindings("confirm")

    def __init__(self, title: str, message: str, confirm_label: str = "Confirm") -> None:
        super().__init__(classes="dialog-screen")
        self._title, self._message, self._confirm_label = title, message, confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield Static(self._message, markup=False, classes="dialog-body")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._confirm_label, variant="error", id="confirm")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_close(self) -> None:
        self.dismiss(False)


class TextDialog(ModalScreen[str | None]):
    """Edit one text (a memory, the summary, a note); returns the new text, or None if cancelled."""

    BINDINGS = keys.bindings("dialog")

    def __init__(self, title: str, text: str = "", hint: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self._title, self._text, self._hint = title, text, hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title")
            yield TextArea(self._text, soft_wrap=True, id="dialog-text")
            with Horizontal(classes="dialog-buttons"):
                yield Static(self._hint or "Ctrl+S saves · Esc cancels", classes="dialog-hint")
                yield Button("Save", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    @on(Button.Pressed, "#cancel")
    def action_close(self) -> None:
        self.dismiss(None)


class AddMemoryDialog(ModalScreen[MemoryDraft | None]):
    """Write a memory by hand: one sentence and its kind, optionally pinned."""

    BINDINGS = keys.bindings("dialog")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Add a memory", classes="dialog-title")
            yield TextArea(soft_wrap=True, id="dialog-text",
                           placeholder="One self-contained sentence, e.g. The user is allergic to peanuts.")
            with Horizontal(classes="dialog-row"):
                yield Select([(kind, kind) for kind in MEMORY_KINDS], value="fact", allow_blank=False, id="kind")
                yield Checkbox("pin it", id="pinned")
            with Horizontal(classes="dialog-buttons"):
                yield Static("Ctrl+S saves · Esc cancels", classes="dialog-hint")
                yield Button("Add", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        text = self.query_one(TextArea).text.strip()
        if not text:
            self.notify("Write the memory first.", severity="warning")
            return
        self.dismiss(MemoryDraft(
            kind=str(self.query_one("#kind", Select).value),
            content=text,
            importance=HAND_IMPORTANCE,
            confidence=1.0,
            pinned=self.query_one("#pinned", Checkbox).value,
            correction=True,
        ))

    @on(Button.Pressed, "#cancel")
    def action_close(self) -> None:
        self.dismiss(None)
