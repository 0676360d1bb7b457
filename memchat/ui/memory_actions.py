"""Pin, forget (with undo), purge, edit, add and go-to-source: the memory keys of every screen.

Screens that show memories (the chat screen with its inspector, the browser)
subclass `MemoryScreen` and say which memory is selected. Every change is
written to the store at once and announced with a `MemoriesChanged` message,
which the app turns into a redraw of every open view. Forgetting is soft: the
previous status goes on the app's `ForgetLog`, and undo restores it. Edits and
hand-added memories are embedded, so their dialog saves them off the UI thread
and stays open, with the text, if the save fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual import events
from textual.message import Message
from textual.screen import Screen

from memchat.pipeline.services import Services
from memchat.types import MemchatError, Memory, MemoryDraft
from memchat.ui.dialogs import AddMemoryDialog, ConfirmDialog, TextDialog
from memchat.ui.feedback import notify_error
from memchat.ui.transcript_screen import TranscriptScreen


class ForgetLog:
    """Memories forgotten from the UI, newest last, each with the status that undo restores."""

    def __init__(self) -> None:
        self._entries: list[tuple[int, str]] = []

    def push(self, memory_id: int, previous_status: str) -> None:
        self._entries.append((memory_id, previous_status))

    def pop(self) -> tuple[int, str] | None:
        return self._entries.pop() if self._entries else None

    def take(self, memory_id: int) -> str | None:
        """The status `memory_id` had before its latest forget in this run (the entry is removed), or None."""
        for index in range(len(self._entries) - 1, -1, -1):
            if self._entries[index][0] == memory_id:
                return self._entries.pop(index)[1]
        return None

    def __len__(self) -> int:
        return len(self._entries)


class MemoryScreen(Screen):
    """A screen whose memory keys act on `selected_memory_id()`."""

    @dataclass
    class MemoriesChanged(Message):
        """Stored memories changed; every view of them should redraw."""

        memory_id: int | None = None
        recount: bool = True
        """The next prompt may have changed (a pin, an edit…): re-count the budget."""

    services: Services
    forget_log: ForgetLog
    opened_by_memory_key = False
    """The overlay now open was opened by a memory key, so closing it returns to the memory table."""

    def selected_memory_id(self) -> int | None:
        raise NotImplementedError

    def reload_memories(self, recount: bool = True) -> None:
        """Redraw from the store; called by the app after any change."""

    def type_elsewhere(self, character: str) -> bool:
        """Put `character` into the screen's text box, focusing it at once; False if there is none (or it is busy)."""
        return False

    def on_key(self, event: events.Key) -> None:
        """A character that reached the screen unused (typed on a memory table, and not one of its keys)
        was meant as text: it goes to the text box, which takes the focus.

        Memory keys are single letters, so someone who thinks the message box has the focus would
        otherwise fire them while typing. Letters still queued for the table when the focus moves are
        no keys any more (the table is out of the focus chain), so they follow the first one.
        """
        unused = event.is_printable and event.character and event.key not in self.active_bindings
        if unused and self.type_elsewhere(event.character or ""):
            event.stop()

    # ---- helpers ----------------------------------------------------------------
    def _selected(self, memory_id: int | None = None) -> Memory | None:
        """The memory an action applies to: `memory_id` (from the command palette) or the highlighted one."""
        memory_id = memory_id if memory_id is not None else self.selected_memory_id()
        if memory_id is None:
            self.notify("No memory under the cursor — Tab to a memory table and pick a row.", severity="warning")
            return None
        memory = self.services.memories.get(memory_id)
        if memory is None:
            self.notify(f"Memory #{memory_id} no longer exists (purged).", severity="warning")
        return memory

    def _open(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Open a dialog for the memory under the cursor; the table keeps the focus for the next key."""
        self.opened_by_memory_key = True
        self.app.push_screen(screen, callback)

    def _changed(self, memory_id: int | None, *, recount: bool = True) -> None:
        """Tell the app, which owns every view; posted to it directly so the news survives this
        screen closing before a background edit finishes."""
        self.app.post_message(self.MemoriesChanged(memory_id, recount))

    # ---- actions ----------------------------------------------------------------
    def action_pin(self, memory_id: int | None = None) -> None:
        memory = self._selected(memory_id)
        if memory is not None:
            updated = self.services.memories.pin(memory.id, not memory.pinned)
            self.notify(f"{'Pinned' if updated.pinned else 'Unpinned'} #{memory.id}.")
            self._changed(memory.id)

    def action_forget(self, memory_id: int | None = None) -> None:
        memory = self._selected(memory_id)
        if memory is None:
            return
        if memory.status == "deleted":
            self.notify(f"#{memory.id} is already forgotten.", severity="warning")
            return
        try:
            gone = self.services.writer.forget_one(memory.id)
        except MemchatError as error:
            notify_error(self, error)
            return
        self.forget_log.push(memory.id, memory.status)
        others = len(gone) - 1
        said = ("" if not others else f" and the {others} memor{'y' if others == 1 else 'ies'} drawn from it"
                if memory.is_episode else " and the words of yours that said it")
        self.notify(f"Forgot #{memory.id}{said} — press u to undo.", title="forgotten")
        self._changed(memory.id)

    def action_undo(self, memory_id: int | None = None) -> None:
        """Restore the highlighted memory (or `memory_id`) if it is forgotten, whenever that was (to the
        status it had if it was forgotten in this run, else active); otherwise undo this run's last forget."""
        memory_id = memory_id if memory_id is not None else self.selected_memory_id()
        highlighted = self.services.memories.get(memory_id) if memory_id is not None else None
        if highlighted is not None and highlighted.status == "deleted":
            self._restore(highlighted.id, self.forget_log.take(highlighted.id) or "active")
            return
        entry = self.forget_log.pop()
        if entry is None:
            self.notify("Nothing to undo — highlight a forgotten memory (status: deleted) to restore it.",
                        severity="warning")
            return
        self._restore(*entry)

    def _restore(self, memory_id: int, status: str) -> None:
        if self.services.memories.get(memory_id) is None:
            self.notify(f"#{memory_id} was purged; it cannot come back.", severity="warning")
            return
        self.services.writer.restore_one(memory_id, status)
        self.notify(f"Restored #{memory_id} ({status}).")
        self._changed(memory_id)

    def action_purge(self, memory_id: int | None = None) -> None:
        memory = self._selected(memory_id)
        if memory is None:
            return

        def purge(confirmed: bool | None) -> None:
            if confirmed:
                try:
                    self.services.memories.purge(memory.id)
                except MemchatError as error:
                    notify_error(self, error)
                    return
                self.notify(f"Purged #{memory.id} for good.")
                self._changed(memory.id)

        self._open(ConfirmDialog(
            f"Purge memory #{memory.id}?",
            f"“{memory.content}”\n\nThis erases it for good — the row, its search entry and its vector. "
            "It cannot be undone — forget (f) is the reversible way.",
            "Purge",
        ), purge)

    def action_edit(self, memory_id: int | None = None) -> None:
        memory = self._selected(memory_id)
        if memory is None:
            return

        def save(text: str) -> str:
            if " ".join(text.split()) == memory.content:
                return ""
            self.services.memories.edit(memory.id, text)
            return f"Saved #{memory.id}."

        def saved(text: str | None) -> None:
            if text is not None:
                self._changed(memory.id)

        self._open(TextDialog(f"Edit memory #{memory.id} [{memory.kind}]", memory.content,
                                        "Ctrl+S saves (re-embeds and re-indexes) · Esc cancels", save), saved)

    def action_add(self) -> None:
        def save(draft: MemoryDraft) -> str:
            outcome = self.services.writer.apply(draft)
            if outcome.action == "skipped":
                raise MemchatError(f"not saved: {outcome.reason}")
            return f"{outcome.action.capitalize()} #{outcome.memory_id}: {outcome.reason}."

        def saved(draft: MemoryDraft | None) -> None:
            if draft is not None:
                self._changed(None)

        self._open(AddMemoryDialog(save), saved)

    def action_source(self, memory_id: int | None = None) -> None:
        memory = self._selected(memory_id)
        if memory is None:
            return
        if memory.source_message is None:
            self.notify(f"#{memory.id} was added by hand; it has no source message.", severity="warning")
            return
        try:
            message = self.services.sessions.message(memory.source_message)
            session = self.services.sessions.get(message.session_id)
        except MemchatError as error:
            notify_error(self, error)
            return
        self._open(TranscriptScreen(session, self.services.sessions.messages(session.id), message.id))
