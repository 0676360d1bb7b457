"""The token-budget bar: how the next (or last) prompt spends the context window.

One segmented bar against n_ctx — system, notes, pinned, summary, window,
recalled, input, format (chat-template overhead), the output reserved for the
reply, and what is free — with the exact count (`~` when the count is an
estimate) and a legend, abbreviated and then wrapped when the pane is narrow.
A block that had to be cut is marked ✂. Clicking the bar asks for the budget
ledger. Colours come from the theme's `budget-*`
variables through component classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from memchat.types import BudgetReport

SEGMENTS = ("system", "notes", "pinned", "summary", "window", "recalled", "input", "format", "reserved", "free")
LABELS = {"reserved": "reply", "format": "format"}
SHORT_LABELS = {"system": "sys", "pinned": "pin", "summary": "sum", "window": "win", "recalled": "recall",
                "input": "in", "format": "fmt", "reserved": "reply"}
"""Legend labels when the full ones do not fit on one line."""
CUT_MARK = "✂"


@dataclass(frozen=True)
class Segment:
    name: str
    tokens: int
    cut: str = ""

    @property
    def label(self) -> str:
        return LABELS.get(self.name, self.name)


def segments(report: BudgetReport) -> list[Segment]:
    """The report as bar segments in prompt order, then reserved output and free space."""
    found = [Segment(b.name, b.tokens, b.cut) for b in report.blocks if b.name in SEGMENTS]
    found.sort(key=lambda s: SEGMENTS.index(s.name))
    free = max(0, report.n_ctx - report.prompt_tokens - report.reserved_output)
    return [*found, Segment("reserved", report.reserved_output), Segment("free", free)]


def cell_widths(tokens: list[int], width: int) -> list[int]:
    """Split `width` cells in proportion to `tokens` (largest remainder); any non-zero share gets a cell."""
    total = sum(tokens)
    if width <= 0 or total <= 0:
        return [0] * len(tokens)
    exact = [t * width / total for t in tokens]
    cells = [int(x) for x in exact]
    for index in sorted(range(len(tokens)), key=lambda i: exact[i] - cells[i], reverse=True):
        if sum(cells) >= width:
            break
        cells[index] += 1
    for index, count in enumerate(tokens):
        if count and not cells[index]:
            donor = max(range(len(cells)), key=lambda i: cells[i])
            if cells[donor] > 1:
                cells[donor] -= 1
                cells[index] = 1
    return cells


def segment_text(segment: Segment, cells: int) -> str:
    """What fits inside a segment: the cut mark first, then the label if there is room."""
    mark = CUT_MARK if segment.cut else ""
    label = segment.label if cells >= len(mark) + len(segment.label) + 2 else ""
    text = f"{mark}{label}"
    return (f" {text}" if cells > len(text) else text).ljust(cells)[:cells]


LEGEND_GAP = "  "


def entry_cells(text: str) -> str:
    """A legend entry as drawn: swatch, text, gap."""
    return f"■ {text}{LEGEND_GAP}"


def legend_lines(parts: list[Segment], width: int) -> list[list[tuple[Segment, str]]]:
    """The legend — (segment, its text) for every non-empty segment — laid out in lines of at most `width`.

    One line with full labels if it fits, else with short ones, else short ones over several lines
    (the bar grows a line rather than hide a count).
    """
    shown = [p for p in parts if p.tokens or p.cut]

    def entries(short: bool) -> list[tuple[Segment, str]]:
        labels = [SHORT_LABELS.get(p.name, p.label) if short else p.label for p in shown]
        return [(p, f"{label} {p.tokens:,}{' ' + CUT_MARK if p.cut else ''}") for p, label in zip(shown, labels)]

    for short in (False, True):
        line = entries(short)
        if sum(len(entry_cells(text)) for _, text in line) - len(LEGEND_GAP) <= width:
            return [line]
    lines: list[list[tuple[Segment, str]]] = [[]]
    used = 0
    for entry in entries(True):
        cells = len(entry_cells(entry[1]))
        if lines[-1] and used + cells - len(LEGEND_GAP) > width:
            lines.append([])
            used = 0
        lines[-1].append(entry)
        used += cells
    return lines


def total_label(report: BudgetReport) -> str:
    approx = "" if report.exact else "~"
    return f"{approx}{report.prompt_tokens:,} / {report.n_ctx:,}"


class BudgetBar(Widget):
    COMPONENT_CLASSES: ClassVar[set[str]] = {f"budget-bar--{name}" for name in SEGMENTS}

    class LedgerRequested(Message):
        """The user clicked the bar to see the whole ledger."""

    report: reactive[BudgetReport | None] = reactive(None, layout=True)
    """The budget shown; None until the first count arrives."""
    title: reactive[str] = reactive("next prompt")
    """Which prompt the report describes: "next prompt" (a preview) or "last prompt" (really sent)."""

    def on_mount(self) -> None:
        self.tooltip = "Token budget of the prompt — click (or F4) for the ledger"

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.LedgerRequested())

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"budget-bar--{name}", partial=True)

    def render(self) -> Text:
        report = self.report
        if report is None:
            return Text(f"{self.title}: counting tokens…")
        parts = segments(report)
        head = f"{self.title} "
        tail = f" {total_label(report)}"
        width = max(0, self.size.width - len(head) - len(tail))
        bar = Text(head, style="bold")
        for part, cells in zip(parts, cell_widths([p.tokens for p in parts], width)):
            if cells:
                bar.append(segment_text(part, cells), style=self._style(part.name))
        bar.append(tail, style="bold")
        lines = [bar]
        for entries in legend_lines(parts, self.size.width):
            legend = Text()
            for part, text in entries:
                legend.append("■ ", style=Style(color=self._style(part.name).bgcolor))
                legend.append(text + LEGEND_GAP)
            legend.rstrip()
            lines.append(legend)
        return Text("\n", no_wrap=True, overflow="ellipsis").join(lines)
