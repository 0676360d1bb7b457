"""The session's rolling summary and cross-turn notes, readable and editable.

Both go into every prompt, so the user may correct them: the summary is
replaced as a whole, a note is edited in place, and saving a note empty
removes it. Dismissing says whether anything changed, so the chat screen can
re-count the budget.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from memchat.pipeline.services import Services
from memchat.terminal_text import printable
from memchat.types import MemchatError, Session
from memchat.ui import keys
from memchat.ui.dialogs import TextDialog
from memchat.ui.tables import FittedTable


class NotesScreen(ModalScreen[bool]):
    BINDINGS = keys.bindings("notes")

    def __init__(self, services: Services, session: Session) -> None:
        super().__init__(classes="dialog-screen")
        self.services = services
        self.session = session
        self.changed = False
        self._notes: dict[int, str] = {}
        """The notes shown, whole (the table may clip them)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(printable(f"Session {self.session.name} — rolling summary", one_line=True),
                        classes="dialog-title", markup=False)
            with VerticalScroll(id="summary-box"):
                yield Static(id="summary", markup=False)
            yield Label("Cross-turn notes", classes="dialog-title")
            table = FittedTable(flex={"note": 1.0}, id="notes")  # a long note is clipped, never scrolled sideways
            table.add_column("id", key="id")
            table.add_column("note", key="note")
            yield table
            yield Static("s edit summary · e/Enter edit note (empty removes it) · n add note · Esc close",
                         classes="dialog-hint")

    def on_mount(self) -> None:
        self.reload()
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        sessions = self.services.sessions
        summary = sessions.get(self.session.id).summary
        self.query_one("#summary", Static).update(printable(summary) or "(empty — the summary starts when old messages "
                                                            "leave the window)")
        table = self.query_one(FittedTable)
        notes = sessions.notes(self.session.id)
        self._notes = {note.id: printable(note.text) for note in notes}
        table.set_rows(("id", "note"), {str(note.id): [f"#{note.id}", Text(self._notes[note.id])] for note in notes},
                       keep_cursor=False)  # Text: a "[" is not markup

    def _selected_note(self) -> tuple[int, str] | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        note_id = int(key.value or 0)
        return note_id, self._notes.get(note_id, "")

    def _saved(self) -> None:
        self.changed = True
        self.reload()

    # ---- keys ---------------------------------------------------------------------
    def _edit(self, dialog: TextDialog) -> None:
        self.app.push_screen(dialog, lambda text: self._saved() if text is not None else None)

    def action_edit_summary(self) -> None:
        def save(text: str) -> str:
            self.services.sessions.set_summary(self.session.id, text.strip())
            return "Summary saved."

        current = self.services.sessions.get(self.session.id).summary
        self._edit(TextDialog("Edit the rolling summary", current, save=save))

    def action_edit_note(self) -> None:
        selected = self._selected_note()
        if selected is None:
            self.notify("No notes yet — n adds one.", severity="warning")
            return
        note_id, text = selected

        def save(new_text: str) -> str:
            self.services.sessions.edit_note(note_id, new_text)
            return "Note saved." if new_text.strip() else "Note removed."

        self._edit(TextDialog(f"Edit note #{note_id}", text,
                              "Ctrl+S saves (empty removes the note) · Esc cancels", save))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the selected row) edits the note, as `e` does."""
        self.action_edit_note()

    def action_add_note(self) -> None:
        def save(text: str) -> str:
            if not text.strip():
                raise MemchatError("the note is empty", "write the instruction, or Esc to cancel")
            self.services.sessions.add_note(self.session.id, text.strip())
            return "Note added."

        self._edit(TextDialog("Add a note (a standing instruction for this session)", save=save))

    def action_close(self) -> None:
        self.dismiss(self.changed)
