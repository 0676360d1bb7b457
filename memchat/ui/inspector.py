"""The memory inspector: what recall considered for the last turn, and what the turn wrote.

Every candidate is listed, selected or not, with its score breakdown and the
reason for the decision; below, each write outcome and any extraction failure
with the model's raw output. Rows are keyed by memory id so the screen can
refresh them in place after a pin, forget or edit. The memory keys (pin,
forget, …) are bound here and handled by the screen, which asks
`selected_memory_id` what they apply to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Label, Static

from memchat.types import Candidate, ExtractionFailure, Memory, Signals, WriteOutcome
from memchat.ui import keys

CANDIDATE_COLUMNS = ("id", "✔", "score", "sim", "kw", "rec", "imp", "pin", "reason", "content")
WRITE_COLUMNS = ("action", "id", "reason", "content")
PINNED_MARK = "●"


def _num(value: float) -> str:
    return f"{value:.2f}"


def memory_text(memory: Memory | None) -> Text:
    """A memory's content, marked when it is no longer active."""
    if memory is None:
        return Text("[purged]", style="dim strike")
    if memory.status == "active":
        return Text(memory.content)
    return Text.assemble((f"[{memory.status}] ", "italic"), (memory.content, "dim"))


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
        self._write_ids: list[int | None] = []

    def compose(self) -> ComposeResult:
        yield Label("Recall — no turn yet", id="recall-title", classes="pane-title")
        candidates: DataTable[str | Text] = DataTable(id="candidates", cursor_type="row", zebra_stripes=True)
        for name in CANDIDATE_COLUMNS:
            candidates.add_column(name, key=name)
        yield candidates
        yield Static("Memories recall considered for the last message appear here.", id="candidate-detail")
        yield Label("Written to memory", id="writes-title", classes="pane-title")
        writes: DataTable[str | Text] = DataTable(id="writes", cursor_type="row", zebra_stripes=True)
        for name in WRITE_COLUMNS:
            writes.add_column(name, key=name)
        yield writes
        yield Static("", id="failures", markup=False)

    # ---- what the screen tells it ---------------------------------------------
    def show_candidates(self, turn: int, candidates: Sequence[Candidate]) -> None:
        self._candidates = {c.memory.id: c for c in candidates}
        chosen = sum(c.selected for c in candidates)
        self.query_one("#recall-title", Label).update(
            f"Recall — turn {turn}: {chosen} of {len(candidates)} selected"
        )
        table = self.query_one("#candidates", DataTable)
        table.clear()
        for candidate in candidates:
            table.add_row(*self._candidate_cells(candidate), key=str(candidate.memory.id))
        self._show_detail(candidates[0] if candidates else None)

    def show_writes(self, turn: int, outcomes: Sequence[WriteOutcome], failures: Sequence[ExtractionFailure]) -> None:
        nothing = "" if outcomes or failures else ": nothing worth keeping"
        self.query_one("#writes-title", Label).update(f"Written to memory — turn {turn}{nothing}")
        table = self.query_one("#writes", DataTable)
        table.clear()
        self._write_ids = [o.memory_id for o in outcomes]
        for index, outcome in enumerate(outcomes):
            table.add_row(
                Text(outcome.action, style="bold" if outcome.action != "skipped" else "dim"),
                f"#{outcome.memory_id}" if outcome.memory_id else "",
                outcome.reason,
                outcome.content,
                key=f"w{index}",
            )
        failure_box = self.query_one("#failures", Static)
        failure_box.display = bool(failures)
        failure_box.update(
            "\n\n".join(f"Extraction failed: {f.error}\nraw model output:\n{f.raw_output or '(empty)'}" for f in failures)
        )

    def refresh_memories(self, current: Mapping[int, Memory]) -> None:
        """Redraw the candidate rows from the memories' current state (absent = purged)."""
        table = self.query_one("#candidates", DataTable)
        for memory_id, candidate in self._candidates.items():
            memory = current.get(memory_id)
            if memory is not None:
                candidate.memory = memory
            table.update_cell(str(memory_id), "pin", PINNED_MARK if memory and memory.pinned else "")
            table.update_cell(str(memory_id), "content", memory_text(memory))

    # ---- what the screen asks ---------------------------------------------------
    @property
    def memory_ids(self) -> list[int]:
        return list(self._candidates)

    @property
    def selected_memory_id(self) -> int | None:
        """The memory under the cursor of the focused table (the candidates by default)."""
        writes = self.query_one("#writes", DataTable)
        if writes.has_focus and writes.row_count:
            return self._write_ids[writes.cursor_row]
        table = self.query_one("#candidates", DataTable)
        if not table.row_count:
            return None
        return int(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or 0)

    def pin_cell(self, memory_id: int) -> str:
        return str(self.query_one("#candidates", DataTable).get_cell(str(memory_id), "pin"))

    # ---- internals ------------------------------------------------------------
    def _candidate_cells(self, candidate: Candidate) -> list[str | Text]:
        s, memory = candidate.signals, candidate.memory
        return [
            f"#{memory.id}",
            "✔" if candidate.selected else "",
            _num(candidate.score),
            _num(s.similarity),
            _num(s.keyword),
            _num(s.recency),
            _num(s.importance),
            PINNED_MARK if memory.pinned else "",
            candidate.reason,
            memory_text(memory),
        ]

    def _show_detail(self, candidate: Candidate | None) -> None:
        detail = self.query_one("#candidate-detail", Static)
        if candidate is None:
            detail.update("Nothing in memory matched this message.")
            return
        memory, s = candidate.memory, candidate.signals
        verdict = "selected" if candidate.selected else "not selected"
        detail.update(Text.assemble(
            (f"#{memory.id} [{memory.kind}] ", "bold"), memory_text(memory),
            f"\n{verdict}: {candidate.reason or '—'}",
            f"\nscore {candidate.score:.3f} ← sim {s.similarity:.2f} · kw {s.keyword:.2f} · rec {s.recency:.2f}"
            f" · imp {s.importance:.2f} · pin {s.pinned:.0f}   via {', '.join(candidate.routes) or '—'}",
        ))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "candidates" and event.row_key.value is not None:
            self._show_detail(self._candidates.get(int(event.row_key.value)))
