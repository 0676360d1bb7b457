"""Every key of the UI, generated from `keys.KEYMAP` with the user's remapping applied."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from memchat.ui import keys


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
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            yield Static("Tab / Shift+Tab move between panes · the mouse works everywhere · "
                         "remap with [ui.keys] in config.toml, e.g. pin = \"ctrl+p\" · Esc closes",
                         classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for column in ("key", "action", "where"):
            table.add_column(column, key=column)
        for row in key_rows(self.remap, lambda key: self.app.get_key_display(Binding(key, ""))):
            table.add_row(*row)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
