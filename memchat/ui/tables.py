"""Tables that never scroll sideways: their flexible columns share the width the others leave.

A DataTable wider than its pane grows a horizontal scrollbar; in a dialog on an
80×24 terminal that scrollbar sits under the last row, far from any text, and
its thumb's partial-block ends (▊ ▌ ▉) look like stray glyphs. `FittedTable`
keeps its rows and, whenever its size changes, lays them out again: fixed
columns at their natural width, flexible columns sharing the rest by weight
(a column that needs less than its share gives the rest to the others), each
cell clipped by *cell* width (a Chinese character is two cells) with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import DataTable

MIN_FLEX_WIDTH = 6
Cell = str | Text


def share_widths(natural: Mapping[str, int], weights: Mapping[str, float], room: int) -> dict[str, int]:
    """Split `room` cells between the flexible columns: none gets more than it needs, the rest by weight."""
    widths: dict[str, int] = {}
    left = dict(natural)
    while left:
        total = sum(weights[name] for name in left)
        free = room - sum(widths.values())
        fits = {name: need for name, need in left.items() if need <= free * weights[name] / total}
        if not fits:
            for name in left:
                widths[name] = max(MIN_FLEX_WIDTH, int(free * weights[name] / total))
            break
        widths.update(fits)
        for name in fits:
            del left[name]
    return widths


def _plain(cell: Cell) -> str:
    return cell if isinstance(cell, str) else cell.plain


def clip(cell: Cell, width: int) -> Text:
    """`cell` in at most `width` cells, an ellipsis marking a cut."""
    text = Text(cell) if isinstance(cell, str) else cell.copy()
    text.truncate(width, overflow="ellipsis")
    return text


class FittedTable(DataTable[Cell]):
    """A DataTable whose `flex` columns (name → weight) share the free width; refilled on resize."""

    def __init__(self, *, flex: Mapping[str, float], **kwargs: Any) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", True)
        super().__init__(**kwargs)
        self.flex = dict(flex)
        self._column_names: tuple[str, ...] = ()
        self._rows_by_key: dict[str, Sequence[Cell]] = {}

    def set_rows(self, columns: Sequence[str], rows: Mapping[str, Sequence[Cell]], *, keep_cursor: bool = True) -> None:
        """Show `rows` (key → one cell per column); the highlighted row stays highlighted if it is still there."""
        self._column_names = tuple(columns)
        self._rows_by_key = dict(rows)
        self._fill(keep_cursor)

    def on_resize(self) -> None:
        self._fill(keep_cursor=True)

    def natural_widths(self) -> dict[str, int]:
        """Each column's widest cell (its heading included)."""
        return {
            name: max([cell_len(name)] + [cell_len(_plain(row[index])) for row in self._rows_by_key.values()])
            for index, name in enumerate(self._column_names)
        }

    def flex_widths(self) -> dict[str, int]:
        """The width each flexible column gets now."""
        padding = 2 * self.cell_padding
        natural = self.natural_widths()
        fixed = sum(padding + width for name, width in natural.items() if name not in self.flex)
        flexible = [name for name in self._column_names if name in self.flex]
        header = 1 if self.show_header else 0
        scrollbar = self.styles.scrollbar_size_vertical if len(self._rows_by_key) > self.size.height - header else 0
        room = self.size.width - fixed - padding * len(flexible) - scrollbar
        return share_widths({name: natural[name] for name in flexible}, self.flex, max(room, 0))

    def _fill(self, keep_cursor: bool) -> None:
        if not self._column_names:
            return
        cursor = self.cursor_row
        kept = None
        if keep_cursor and self.row_count and 0 <= cursor < self.row_count:
            kept = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        widths = self.flex_widths()
        natural = self.natural_widths()
        self.clear(columns=True)
        for name in self._column_names:  # every width is set, not left to auto-sizing: a table refilled in one
            self.add_column(name, key=name, width=widths.get(name, natural[name]))  # frame kept its header's ("#1" for #10)
        flex_at = {index: widths[name] for index, name in enumerate(self._column_names) if name in widths}
        for key, cells in self._rows_by_key.items():
            self.add_row(*[clip(cell, flex_at[i]) if i in flex_at else cell for i, cell in enumerate(cells)], key=key)
        if kept is not None and kept in self._rows_by_key:
            self.move_cursor(row=self.get_row_index(kept))
        elif self.row_count:
            self.move_cursor(row=min(max(cursor, 0), self.row_count - 1))
