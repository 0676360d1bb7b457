"""Every key of the UI, generated from `keys.KEYMAP` with the user's remapping applied, under a
heading for where it works (two columns, so the table fits an 80-column terminal)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from memchat.ui import keys
from memchat.ui.tables import Cell, FittedTable


def key_rows(remap: Mapping[str, str], display: Callable[[str], str]) -> list[tuple[str, str, str]]:
    """(keys, what, where) for every binding, in table order."""
    return [
        (" / ".join(display(k) for k in keys.effective_keys(spec, remap)), spec.description,
         keys.GROUP_TITLES.get(spec.group, spec.group))
        for spec in keys.KEYMAP
    ]


class HelpScreen(ModalScreen[None]):
    BINDINGS = keys.bindings("viewer")

    def __init__(self, remap: Mapping[str, str]) -> None:
        super().__init__(classes="dialog-screen")
        self.remap = dict(remap)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("memchat keys", classes="dialog-title")
            yield FittedTable(flex={"action": 1.0}, id="help-keys")
            yield Static("Ctrl+P: command palette, memchat's actions by name · Tab / Shift+Tab move between "
                         "panes · the mouse works everywhere · remap with [ui.keys] in config.toml, "
                         "e.g. pin = \"ctrl+p\" · Esc closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        table = self.query_one(FittedTable)
        rows: dict[str, list[Cell]] = {}
        heading = None
        for index, (shown, what, where) in enumerate(key_rows(self.remap, self._display)):
            if where != heading:
                heading = where
                rows[f"where-{index}"] = ["", Text(where, style="bold")]
            rows[f"key-{index}"] = [shown, Text(what)]
        table.set_rows(("key", "action"), rows)
        table.focus()

    def _display(self, key: str) -> str:
        return self.app.get_key_display(Binding(key, ""))

    def action_close(self) -> None:
        self.dismiss(None)
