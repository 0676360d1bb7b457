"""The memory inspector: what recall considered for the last turn, and what the turn wrote.

Every candidate is listed, selected or not, with its score and the reason for
the decision; below, each write outcome and any extraction failure with the
model's raw output. The pane is narrow, so the reason (in its short form,
e.g. "below floor") and the content share the room the other columns leave,
the content taking what a short reason leaves (clipped by cell width, never scrolling
sideways: see `tables.FittedTable`), and the detail line under each table shows
its highlighted row whole — reason, content and the score breakdown. Rows are
keyed by memory id and redrawn from the memories' current state after a pin,
forget or edit; a memory no longer active (superseded, forgotten, purged) is
not ticked as selected, whatever recall decided at the time. The memory keys
(pin, forget, …) are bound here and handled by the screen, which asks
`selected_memory_id` what they apply to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Label, Static

from memchat.terminal_text import printable
from memchat.types import ASKED_OF_THE_PAST, Candidate, ExtractionFailure, Memory, Signals, WriteOutcome, format_day
from memchat.ui import keys
from memchat.ui.tables import FittedTable

CANDIDATE_COLUMNS = ("id", "✔", "pin", "score", "reason", "content")
"""The score breakdown (similarity, keyword, recency, importance) is in the detail line of the highlighted row."""
WRITE_COLUMNS = ("action", "id", "reason", "content")
FLEX = {"reason": 1.0, "content": 1.0}
"""The reason and the content share the free width; a short reason leaves the rest to the content."""
PINNED_MARK = "●"
SELECTED_MARK = "✔"


def _num(value: float) -> str:
    return f"{value:.2f}"


def short_reason(reason: str) -> str:
    """A reason without its figures ("below floor (0.29 < 0.52)" → "below floor"); the detail line has them."""
    return reason.split(" (", 1)[0]


def shown_selected(candidate: Candidate, purged: bool = False) -> bool:
    """Ticked as selected: recall chose it and it is still active (not superseded, forgotten or purged since) — or,
    superseded, it was chosen as what was for a question about the past."""
    still = candidate.memory.status == "active" or (candidate.memory.status == "superseded"
                                                    and candidate.reason.startswith(ASKED_OF_THE_PAST))
    return candidate.selected and not purged and still


def memory_text(memory: Memory | None) -> Text:
    """A memory's content, marked when it is no longer active."""
    if memory is None:
        return Text("[purged]", style="dim strike")
    when = Text()
    if memory.is_episode and memory.created_at:
        when.append(f"{format_day(memory.created_at)} said: ", style="italic")
    about = Text(f" ⟨{memory.event_label}⟩", style="italic") if memory.event_at is not None else Text()
    content = printable(memory.content)
    if memory.status == "active":
        return Text.assemble(when, content, about)
    return Text.assemble((f"[{memory.status}] ", "italic"), when, (content, "dim"), about)


def turn_from_snapshot(
    data: dict[str, Any], lookup: Callable[[list[int]], Mapping[int, Memory]]
) -> tuple[int, list[Candidate], list[WriteOutcome], list[ExtractionFailure]]:
    """A recorded turn (pipeline.snapshot) as inspector rows; memories in their current state."""
    rows = data.get("candidates", [])
    current = lookup([row["id"] for row in rows])
    candidates = []
    for row in rows:
        memory = current.get(row["id"]) or Memory(
            id=row["id"], kind=row["kind"], content=row["content"], subject="", attribute="", importance=0.0,
            confidence=0.0, created_at=0.0, updated_at=0.0, last_access_at=0.0, status="purged",
        )
        candidates.append(Candidate(memory, Signals(**row["signals"]), row["score"], tuple(row["routes"]),
                                    row["selected"], row["reason"]))
    outcomes = [WriteOutcome(**w) for w in data.get("memory_writes", [])]
    failures = [ExtractionFailure(**f) for f in data.get("extraction_failures", [])]
    return int(data.get("turn", 0)), candidates, outcomes, failures


class Inspector(Vertical):
    BINDINGS = keys.bindings("memory")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._candidates: dict[int, Candidate] = {}
        self._purged: set[int] = set()
        """Candidates purged since the turn: shown as such."""
        self._writes: list[WriteOutcome] = []

    def compose(self) -> ComposeResult:
        yield Label("Recall — no turn yet", id="recall-title", classes="pane-title")
        candidates = FittedTable(flex=FLEX, id="candidates")
        for name in CANDIDATE_COLUMNS:
            candidates.add_column(name, key=name)
        yield candidates
        yield Static("Memories recall considered for the last message appear here.", id="candidate-detail")
        yield Label("Written to memory", id="writes-title", classes="pane-title")
        writes = FittedTable(flex=FLEX, id="writes")
        for name in WRITE_COLUMNS:
            writes.add_column(name, key=name)
        yield writes
        yield Static("", id="write-detail", markup=False)
        yield Static("", id="failures", markup=False)

    # ---- what the screen tells it ---------------------------------------------
    def show_candidates(self, turn: int, candidates: Sequence[Candidate]) -> None:
        # best first, the selected above the rest (recall's own order weighs for the budget first what fills the
        # slot a question asks, however low it scores)
        candidates = sorted(candidates, key=lambda c: (not c.selected, -c.score))
        self._candidates = {c.memory.id: c for c in candidates}
        self._purged.clear()
        chosen = sum(c.selected for c in candidates)
        self.query_one("#recall-title", Label).update(
            f"Recall — turn {turn}: {chosen} of {len(candidates)} selected"
        )
        self._draw_candidates(cursor_row=0)
        self._show_detail(candidates[0] if candidates else None)

    def show_writes(self, turn: int, outcomes: Sequence[WriteOutcome], failures: Sequence[ExtractionFailure]) -> None:
        nothing = "" if outcomes or failures else ": no typed fact (a statement is still searchable as said)"
        self.query_one("#writes-title", Label).update(f"Written to memory — turn {turn}{nothing}")
        self._writes = list(outcomes)
        self._draw_writes(cursor_row=0)
        self._show_write(outcomes[0] if outcomes else None)
        failure_box = self.query_one("#failures", Static)
        failure_box.display = bool(failures)
        failure_box.update(
            printable("\n\n".join(f"Extraction failed: {f.error}\nraw model output:\n{f.raw_output or '(empty)'}"
                                  for f in failures))
        )

    def refresh_memories(self, current: Mapping[int, Memory]) -> None:
        """Redraw the candidate rows from the memories' current state (absent = purged)."""
        for memory_id, candidate in self._candidates.items():
            memory = current.get(memory_id)
            if memory is None:
                self._purged.add(memory_id)
            else:
                candidate.memory = memory
        self._draw_candidates(cursor_row=self.query_one("#candidates", DataTable).cursor_row)

    # ---- what the screen asks ---------------------------------------------------
    @property
    def memory_ids(self) -> list[int]:
        return list(self._candidates)

    @property
    def selected_memory_id(self) -> int | None:
        """The memory under the cursor of the focused table (the candidates by default)."""
        writes = self.query_one("#writes", DataTable)
        if writes.has_focus and writes.row_count:
            return self._writes[writes.cursor_row].memory_id
        table = self.query_one("#candidates", DataTable)
        if not table.row_count:
            return None
        return int(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or 0)

    def pin_cell(self, memory_id: int) -> str:
        return str(self.query_one("#candidates", DataTable).get_cell(str(memory_id), "pin"))

    # ---- internals ------------------------------------------------------------
    def _draw_candidates(self, cursor_row: int) -> None:
        table = self.query_one("#candidates", FittedTable)
        table.set_rows(CANDIDATE_COLUMNS, {
            str(memory_id): [
                f"#{memory_id}", SELECTED_MARK if shown_selected(c, memory_id in self._purged) else "",
                PINNED_MARK if c.memory.pinned else "", _num(c.score), Text(short_reason(c.reason)),
                memory_text(None if memory_id in self._purged else c.memory),
            ]
            for memory_id, c in self._candidates.items()
        }, keep_cursor=False)
        if table.row_count:
            table.move_cursor(row=min(cursor_row, table.row_count - 1))

    def _draw_writes(self, cursor_row: int) -> None:
        table = self.query_one("#writes", FittedTable)
        table.set_rows(WRITE_COLUMNS, {
            f"w{index}": [
                Text(o.action, style="bold" if o.action != "skipped" else "dim"),
                f"#{o.memory_id}" if o.memory_id else "", Text(short_reason(o.reason)), Text(printable(o.content)),
            ]
            for index, o in enumerate(self._writes)
        }, keep_cursor=False)
        if table.row_count:
            table.move_cursor(row=min(cursor_row, table.row_count - 1))

    def _show_detail(self, candidate: Candidate | None) -> None:
        detail = self.query_one("#candidate-detail", Static)
        if candidate is None:
            detail.update("Nothing in memory matched this message.")
            return
        memory, s = candidate.memory, candidate.signals
        verdict = "selected" if candidate.selected else "not selected"
        if candidate.selected and not shown_selected(candidate):
            verdict = f"was selected for this turn, now {memory.status}"
        detail.update(Text.assemble(
            (f"#{memory.id} [{memory.kind}] ", "bold"), memory_text(memory),
            f"\n{verdict}: {candidate.reason or '—'}",
            f"\nscore {candidate.score:.3f} ← sim {s.similarity:.2f} · kw {s.keyword:.2f} · rec {s.recency:.2f}"
            f" · imp {s.importance:.2f} · pin {s.pinned:.0f}   via {', '.join(candidate.routes) or '—'}",
        ))

    def _show_write(self, outcome: WriteOutcome | None) -> None:
        detail = self.query_one("#write-detail", Static)
        detail.display = outcome is not None
        if outcome is not None:
            memory = f" #{outcome.memory_id}" if outcome.memory_id else ""
            detail.update(Text.assemble((f"{outcome.action}{memory}: ", "bold"), printable(outcome.content),
                                        f"\n{outcome.reason or '—'}"))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key.value is None:
            return
        if event.data_table.id == "candidates":
            self._show_detail(self._candidates.get(int(event.row_key.value)))
        elif event.data_table.id == "writes" and event.cursor_row < len(self._writes):
            self._show_write(self._writes[event.cursor_row])
