"""The memory browser: every memory, searchable, filterable and sortable, with its full record.

With a query the list comes from hybrid recall (`touch=False`, so browsing
never changes recency) — the candidates with a keyword match or enough
similarity — plus plain substring matches, so forgotten and archived items,
which recall skips, can still be found; without one it is
`memories.list`. The detail panel shows every field and the supersession
history. The memory keys work on the highlighted row.

The list is sorted most recent first until a search gives scores: typing a
query switches to best match first (unless another order was picked), and
clearing it switches back, so the sort box and the title always say what the
order is. The content column takes the width the others leave. F6/F7 export what is
listed (Markdown/JSONL) to the data dir's exports folder.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.events import Resize
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Input, Label, Select, Static
from textual.worker import get_current_worker

from memchat.pipeline import exports
from memchat.pipeline.services import Services
from memchat.terminal_text import printable
from memchat.types import MEMORY_KINDS, MEMORY_STATUSES, MemchatError, Memory
from memchat.ui import keys
from memchat.ui.feedback import notify_error
from memchat.ui.inspector import PINNED_MARK, memory_text
from memchat.ui.memory_actions import ForgetLog, MemoryScreen
from memchat.ui.tables import FittedTable

SORTS = ("score", "recency", "importance")
ORDER_TITLES = {"score": "best match first", "recency": "most recent first", "importance": "most important first"}
COLUMNS = ("id", "pin", "kind", "status", "imp", "score", "content", "updated")
SEARCH_SETTLE_SECONDS = 0.3
NARROW_COLUMNS = 110
SHORT_ROWS = 30
"""Below these sizes the detail panel goes under the list and the filters lose their borders."""
UNLIMITED_TOKENS = 1 << 30


def _when(stamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp else "—"


def sort_memories(memories: list[Memory], scores: dict[int, float], order: str) -> list[Memory]:
    """In `order`; "score" without scores (no search yet) falls back to newest first."""
    if order == "importance":
        return sorted(memories, key=lambda m: (-m.importance, -m.id))
    if order == "score" and scores:
        return sorted(memories, key=lambda m: (-scores.get(m.id, 0.0), -m.id))
    return sorted(memories, key=lambda m: (-max(m.updated_at, m.last_access_at), -m.id))


class MemoryList(FittedTable):
    """The browser's table; the memory keys are bound here so typing in the search box stays typing."""

    BINDINGS = keys.bindings("memory")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(flex={"content": 1.0}, id=id)


class BrowserScreen(MemoryScreen):
    BINDINGS = keys.bindings("browser")

    @dataclass
    class SearchFinished(Message):
        """Hybrid search for `query` returned these memories and their scores."""

        query: str
        memories: list[Memory]
        scores: dict[int, float]

    def __init__(self, services: Services, forget_log: ForgetLog) -> None:
        super().__init__()
        self.services = services
        self.forget_log = forget_log
        self._settle: Timer | None = None
        self._sort_chosen = False
        """The user picked the order: a search does not change it to best match."""
        self._sort_set = "recency"
        """The order last set here (not by the user); a Changed event with it is no choice."""

    def compose(self) -> ComposeResult:
        yield Label("Memories", id="browser-title", classes="pane-title", markup=False)
        with Horizontal(id="browser-filters"):
            yield Input(placeholder="search by meaning and keywords (/)", id="search")
            yield Select([("all kinds", "")] + [(k, k) for k in MEMORY_KINDS], value="", allow_blank=False,
                         id="kind")
            yield Select([("all statuses", "")] + [(s, s) for s in MEMORY_STATUSES], value="active",
                         allow_blank=False, id="status")
            yield Select([(f"by {s}", s) for s in SORTS], value="recency", allow_blank=False, id="sort")
        with Horizontal(id="browser-body"):
            yield MemoryList(id="memories")
            with VerticalScroll(id="memory-detail"):
                yield Static("", id="detail")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(MemoryList)
        for column in COLUMNS:
            table.add_column(column, key=column)
        self.reload_memories()
        table.focus()

    def on_resize(self, event: Resize) -> None:
        narrow = event.size.width < NARROW_COLUMNS or event.size.height < SHORT_ROWS
        self.set_class(narrow, "-narrow")
        self.query_one("#search", Input).compact = narrow
        footer = self.query_one(Footer)
        footer.compact, footer.show_command_palette = narrow, not narrow
        for select in self.query(Select):
            select.compact = narrow

    # ---- filters ------------------------------------------------------------------
    @property
    def query_text(self) -> str:
        return self.query_one("#search", Input).value.strip()

    def _filter(self, name: str) -> str:
        return str(self.query_one(f"#{name}", Select).value or "")

    @on(Input.Changed, "#search")
    def _search_typed(self) -> None:
        if self.query_text and not self._sort_chosen:
            self._set_sort("score")
        elif not self.query_text and self._filter("sort") == "score":
            self._set_sort("recency")  # no query, no scores
        if self._settle is not None:
            self._settle.stop()
        self._settle = self.set_timer(SEARCH_SETTLE_SECONDS, self.reload_memories)

    def _set_sort(self, order: str) -> None:
        self._sort_set = order
        sort = self.query_one("#sort", Select)
        with sort.prevent(Select.Changed):
            sort.value = order

    @on(Input.Submitted, "#search")
    def _search_submitted(self) -> None:
        self.query_one(MemoryList).focus()

    @on(Select.Changed, "#kind")
    @on(Select.Changed, "#status")
    def _filter_changed(self) -> None:
        self.reload_memories()

    @on(Select.Changed, "#sort")
    def _sort_changed(self, event: Select.Changed) -> None:
        if event.value == "score" and not self.query_text:
            self.notify("Scores come from a search: type what you look for (/).", severity="warning")
            self._set_sort("recency")
        elif event.value != self._sort_set:
            self._sort_chosen = True
        self.reload_memories()

    def reload_memories(self, recount: bool = True) -> None:
        """Re-run the current query and filters; keeps the highlighted memory if it is still listed."""
        if self.query_text:
            self._search(self.query_text)
            return
        status, kind = self._filter("status"), self._filter("kind")
        found = self.services.memories.list_items(statuses=(status,) if status else MEMORY_STATUSES, kind=kind or None)
        self._show(found, {})

    @work(thread=True, exclusive=True, group="browser-search")
    def _search(self, query: str) -> None:
        worker = get_current_worker()
        memories = self.services.memories
        try:
            result = self.services.recaller.recall(query, token_limit=UNLIMITED_TOKENS,
                                                   count_tokens=lambda text: len(text.split()), touch=False)
        except MemchatError as error:
            self.app.call_from_thread(self.notify, f"search failed: {error}", severity="error")
            return
        floor = self.services.settings.recall.min_similarity
        relevant = [c for c in result.candidates if c.signals.keyword > 0 or c.signals.similarity >= floor]
        scores = {c.memory.id: c.score for c in relevant}
        found = {c.memory.id: c.memory for c in relevant}
        for memory in memories.containing(query):
            found.setdefault(memory.id, memory)
        if not worker.is_cancelled:
            self.post_message(self.SearchFinished(query, list(found.values()), scores))

    def on_browser_screen_search_finished(self, message: SearchFinished) -> None:
        if message.query != self.query_text:
            return
        status, kind = self._filter("status"), self._filter("kind")
        current = self.services.memories.many([m.id for m in message.memories])
        shown = [m for m in current.values() if (not status or m.status == status) and (not kind or m.kind == kind)]
        self._show(shown, message.scores)

    def _show(self, memories: list[Memory], scores: dict[int, float]) -> None:
        table = self.query_one(MemoryList)
        order = self._filter("sort")
        unscored = "—" if not self.query_text else ""
        table.set_rows(COLUMNS, {
            str(memory.id): [
                f"#{memory.id}", PINNED_MARK if memory.pinned else "", memory.kind, memory.status,
                f"{memory.importance:.2f}", f"{scores[memory.id]:.2f}" if memory.id in scores else unscored,
                memory_text(memory), _when(memory.updated_at),
            ]
            for memory in sort_memories(memories, scores, order)
        })
        where = f" matching “{printable(self.query_text)}”" if self.query_text else ""
        hint = "" if self.query_text else " (search with / for best match)"
        self.query_one("#browser-title", Label).update(
            f"Memories — {table.row_count} shown{where} · {ORDER_TITLES[order]}{hint}")
        self._show_detail(self.selected_memory_id())

    # ---- selection and detail ------------------------------------------------------
    def selected_memory_id(self) -> int | None:
        table = self.query_one(MemoryList)
        if not table.row_count:
            return None
        return int(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or 0)

    @on(DataTable.RowHighlighted, "#memories")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail(int(event.row_key.value) if event.row_key.value else None)

    def _show_detail(self, memory_id: int | None) -> None:
        detail = self.query_one("#detail", Static)
        memory = self.services.memories.get(memory_id) if memory_id is not None else None
        if memory is None:
            detail.update("No memory selected." if memory_id is None else f"#{memory_id} was purged.")
            return
        detail.update(self._describe(memory))

    def _describe(self, memory: Memory) -> Text:
        sessions = self.services.sessions
        try:
            session = sessions.get(memory.source_session).name if memory.source_session else None
        except MemchatError:
            session = None
        source = (f"session {session or memory.source_session}, message #{memory.source_message} (g shows it)"
                  if memory.source_message else "added by hand")
        lines = Text.assemble(
            (f"#{memory.id} {memory.kind} · {memory.status}{' · pinned' if memory.pinned else ''}\n", "bold"),
            memory_text(memory),
            printable(f"\n\nkey           {memory.key if memory.attribute else memory.subject + ' (no attribute)'}"),
            f"\nimportance    {memory.importance:.2f}    confidence {memory.confidence:.2f}",
            f"\ncreated       {_when(memory.created_at)}",
            f"\nupdated       {_when(memory.updated_at)}",
            f"\nlast access   {_when(memory.last_access_at)} ({memory.access_count}× recalled)",
            f"\nexpires       {_when(memory.expires_at)}",
            printable(f"\nsource        {source}"),
            f"\nsuperseded by {'#' + str(memory.superseded_by) if memory.superseded_by else '—'}",
        )
        chain: Sequence[Memory] = self.services.memories.history(memory.id)
        if len(chain) > 1:
            lines.append("\n\nHistory (oldest first)\n", style="bold")
            for item in chain:
                marker = "→ " if item.id == memory.id else "  "
                lines.append(f"{marker}#{item.id} {item.status:<10} {_when(item.updated_at)}  ")
                lines.append(memory_text(item))
                lines.append("\n")
        return lines

    # ---- keys ----------------------------------------------------------------------
    def type_elsewhere(self, character: str) -> bool:
        search = self.query_one("#search", Input)
        self.set_focus(search)
        search.insert_text_at_cursor(character)
        return True

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_export_listed_md(self) -> None:
        self.export_listed("md")

    def action_export_listed_jsonl(self) -> None:
        self.export_listed("jsonl")

    def export_listed(self, fmt: str) -> None:
        """Write the memories the list shows now (search and filters applied) to the exports folder."""
        ids = [int(key.value) for key in self.query_one(MemoryList).rows if key.value]
        try:
            path = exports.export_memories(self.services.db, fmt, ids=ids)
        except (MemchatError, OSError) as error:
            notify_error(self, error)
            return
        self.notify(f"{len(ids)} memories written to {path}", title="exported", timeout=10, markup=False)
