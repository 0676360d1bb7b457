"""Small modal dialogs: confirm, edit a text, add a memory by hand, pick what a forget request meant.

Each returns its answer through `dismiss` (None when cancelled), so callers
push it with a callback and never poll. A dialog given a `save` function runs
it itself, off the UI thread (memory edits are re-embedded), and closes only
when it succeeded: a failed save shows its error in the dialog and keeps what
was typed.

Ctrl+S is an ordinary (not a priority) binding, so it reaches the screen after
the text area has handled every key typed before it: saving right after typing
saves what was typed. In the text box Ctrl+A selects all and Ctrl+L clears
(both undoable with Ctrl+Z); Home goes to the start of the line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Label, Select, SelectionList, Static, TextArea

from memchat.types import MEMORY_KINDS, MemchatError, MemoryDraft
from memchat.ui import keys
from memchat.ui.feedback import as_memchat_error

EDIT_KEYS = "Ctrl+A selects all · Ctrl+L clears"
SAVE_HINT = "Ctrl+S saves · Esc cancels"
HAND_IMPORTANCE = 0.7
"""Importance of a memory added by hand: the user chose to keep it."""

T = TypeVar("T")
Save = Callable[[T], str]
"""Stores a dialog's value and returns what to tell the user; raises to keep the dialog open."""


class EditorArea(TextArea):
    """A dialog's text box: Select all and Clear on keys people try first (see `keys`, group "editor")."""

    BINDINGS = keys.bindings("editor")

    def action_clear(self) -> None:
        """Empty the box as one edit, so Ctrl+Z brings the text back."""
        self.replace("", (0, 0), self.document.end)


class ConfirmDialog(ModalScreen[bool]):
    """Yes or no; Cancel has the focus so Enter alone never destroys anything."""

    BINDINGS = keys.bindings("confirm")

    def __init__(self, title: str, message: str, confirm_label: str = "Confirm") -> None:
        super().__init__(classes="dialog-screen")
        self._title, self._message, self._confirm_label = title, message, confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
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


class SavingDialog(ModalScreen[T | None], Generic[T]):
    """A dialog whose value is stored by its `save` function before it closes (or returned as is without one)."""

    BINDINGS = keys.bindings("dialog")

    def __init__(self, save: Save[T] | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self._save = save
        self._saving = False

    def status_line(self) -> Static:
        """Where the dialog says it is saving, or why it could not."""
        return Static("", id="dialog-status", markup=False)

    def value(self) -> T | None:
        """What the dialog holds now, or None after telling the user why it cannot be saved."""
        raise NotImplementedError

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        if self._saving:
            return
        value = self.value()
        if value is None:
            return
        if self._save is None:
            self.dismiss(value)
            return
        self._saving = True
        self._status("saving…")
        self._run_save(self._save, value)

    @work(thread=True, exclusive=True, group="dialog-save")
    def _run_save(self, save: Save[T], value: T) -> None:
        try:
            done = save(value)
        except Exception as error:  # noqa: BLE001 - shown in the dialog, which keeps the text
            self.app.call_from_thread(self._failed, as_memchat_error(error))
            return
        self.app.call_from_thread(self._saved, value, done)

    def _saved(self, value: T, done: str) -> None:
        if done:
            self.notify(done, markup=False)
        self.dismiss(value)

    def _failed(self, error: MemchatError) -> None:
        self._saving = False
        self._status(str(error), error=True)

    def _status(self, text: str, *, error: bool = False) -> None:
        line = self.query_one("#dialog-status", Static)
        line.update(text)
        line.display = bool(text)
        line.set_class(error, "-error")

    @on(Button.Pressed, "#cancel")
    def action_close(self) -> None:
        if not self._saving:  # a save under way finishes first, so the views learn of it
            self.dismiss(None)


class TextDialog(SavingDialog[str]):
    """Edit one text (a memory, the summary, a note); returns the saved text, or None if cancelled."""

    def __init__(self, title: str, text: str = "", hint: str = "", save: Save[str] | None = None) -> None:
        super().__init__(save)
        self._title, self._text, self._hint = title, text, hint

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self._title, classes="dialog-title", markup=False)
            yield EditorArea(self._text, soft_wrap=True, id="dialog-text")
            yield self.status_line()
            with Horizontal(classes="dialog-buttons"):
                yield Static(f"{self._hint or SAVE_HINT} · {EDIT_KEYS}", classes="dialog-hint", markup=False)
                yield Button("Save", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    def value(self) -> str:
        return self.query_one(TextArea).text


class AddMemoryDialog(SavingDialog[MemoryDraft]):
    """Write a memory by hand: one sentence and its kind, optionally pinned."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Add a memory", classes="dialog-title")
            yield EditorArea(soft_wrap=True, id="dialog-text",
                           placeholder="One self-contained sentence, e.g. The user is allergic to peanuts.")
            with Horizontal(classes="dialog-row"):
                yield Select([(kind, kind) for kind in MEMORY_KINDS], value="fact", allow_blank=False, id="kind")
                yield Checkbox("pin it", id="pinned")
            yield self.status_line()
            with Horizontal(classes="dialog-buttons"):
                yield Static(f"{SAVE_HINT} · {EDIT_KEYS}", classes="dialog-hint", markup=False)
                yield Button("Add", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def value(self) -> MemoryDraft | None:
        text = self.query_one(TextArea).text.strip()
        if not text:
            self._status("Write the memory first.", error=True)
            return None
        return MemoryDraft(
            kind=str(self.query_one("#kind", Select).value),
            content=text,
            importance=HAND_IMPORTANCE,
            confidence=1.0,
            pinned=self.query_one("#pinned", Checkbox).value,
            correction=True,
        )


class ForgetOfferDialog(SavingDialog[list[int]]):
    """A forget request matched nothing by its words: tick the close memories to forget, or keep them all.

    Nothing is ticked at first, so Esc or an unthinking Ctrl+S forgets nothing."""

    def __init__(self, topic: str, offers: list[tuple[int, str]], save: Save[list[int]]) -> None:
        super().__init__(save)
        self._topic, self._offers = topic, offers

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog offer"):
            yield Label(f"Nothing matched “{self._topic}”", classes="dialog-title", markup=False)
            yield Static("So nothing was forgotten. These memories are the closest to it: tick the ones you "
                         "meant (Space), then Ctrl+S forgets them (with the sentences that said them; u undoes).",
                         classes="dialog-body", markup=False)
            yield SelectionList[int](*[(Text(f"#{i} {content}"), i) for i, content in self._offers],
                                     id="forget-offers")
            yield self.status_line()
            with Horizontal(classes="dialog-buttons"):
                yield Static("Space ticks · Ctrl+S forgets the ticked · Esc keeps everything",
                             classes="dialog-hint", markup=False)
                yield Button("Forget ticked", variant="error", id="save")
                yield Button("Keep all", id="cancel")

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def value(self) -> list[int] | None:
        ticked = list(self.query_one(SelectionList).selected)
        if not ticked:
            self._status("Nothing ticked: Space ticks a memory, Esc keeps them all.", error=True)
            return None
        return ticked
