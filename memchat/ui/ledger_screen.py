"""The budget ledger: every block of a prompt with its tokens, its limit, and what was cut and why."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from memchat.types import BudgetReport
from memchat.ui import keys
from memchat.ui.budget_bar import CUT_MARK, segments, total_label
from memchat.ui.tables import Cell, FittedTable

COLUMNS = ("block", "tokens", "limit", "of n_ctx", "cut", "what it is")

EXPLAINED: dict[str, str] = {
    "system": "the system prompt",
    "notes": "corrections and standing instructions",
    "pinned": "pinned memories, always sent",
    "summary": "summary of the messages that left the window",
    "window": "recent messages; the oldest fold into the summary",
    "recalled": "memories recalled for this message",
    "input": "the message itself",
    "format": "chat template: role markers, separators",
    "reserved": "kept free for the reply",
    "free": "unused context",
}


def _share(tokens: int, n_ctx: int) -> str:
    return f"{100 * tokens / n_ctx:.1f}%" if n_ctx else "—"


class LedgerScreen(ModalScreen[None]):
    BINDINGS = keys.bindings("ledger")

    def __init__(self, report: BudgetReport, title: str = "next prompt") -> None:
        super().__init__(classes="dialog-screen")
        self.report = report
        self.title_text = title

    def compose(self) -> ComposeResult:
        report = self.report
        exact = "exact counts from the model's tokenizer" if report.exact else "estimated counts (~)"
        with Vertical(classes="dialog wide ledger"):
            yield Label(f"Budget ledger — {self.title_text}", classes="dialog-title")
            yield Static(
                f"{total_label(report)} tokens of context: prompt {report.prompt_tokens:,} of "
                f"{report.available:,} available, {report.reserved_output:,} reserved for the reply; {exact}.",
                classes="dialog-body",
            )
            yield FittedTable(flex={"cut": 1.0, "what it is": 1.0}, id="ledger")
            yield Static("Esc or F4 closes", classes="dialog-hint")

    def on_mount(self) -> None:
        table = self.query_one(FittedTable)
        n_ctx = self.report.n_ctx
        rows: dict[str, list[Cell]] = {}
        for part in segments(self.report):
            usage = self.report.block(part.name)
            limit = f"{usage.limit:,}" if usage and usage.limit else "—"
            cut = Text(f"{CUT_MARK} {part.cut}", style="bold") if part.cut else Text("—", style="dim")
            rows[part.name] = [part.label, f"{part.tokens:,}", limit, _share(part.tokens, n_ctx), cut,
                               EXPLAINED.get(part.name, "")]
        total = self.report.prompt_tokens + self.report.reserved_output
        rows["total"] = [Text("total", style="bold"), f"{total:,}", f"{n_ctx:,}", _share(total, n_ctx), "",
                         "prompt + reply"]
        table.set_rows(COLUMNS, rows)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
