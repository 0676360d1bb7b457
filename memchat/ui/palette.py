"""memchat's own actions in the command palette (Ctrl+P), beside Textual's (theme, quit, keys…).

What is offered depends on the screen under the palette: the chat screen's
views and exports, stopping the reply, taking a queued message back; on any
memory screen (chat inspector, browser) the memory keys, named with the
memory they would act on — the one highlighted when the palette opened, so
the focus moving to the palette and back does not change the target.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen

from memchat.terminal_text import printable
from memchat.types import Memory
from memchat.ui.memory_actions import MemoryScreen
from memchat.ui.prompt_input import PromptInput

TITLE_CHARS = 48


def about(memory: Memory) -> str:
    """#id and the start of its content, for a command's title."""
    content = " ".join(printable(memory.content).split())
    if len(content) > TITLE_CHARS:
        content = content[: TITLE_CHARS - 1] + "…"
    return f"#{memory.id} “{content}”"


def chat_commands(screen: Screen) -> Iterator[SystemCommand]:
    """The chat screen's views and exports (duck-typed: the chat screen imports this module's callers)."""
    actions: list[tuple[str, str, str]] = [
        ("Memory browser", "Search, filter and sort every memory (F3)", "browser"),
        ("Budget ledger", "Where the tokens of the prompt go, and what was cut (F4)", "ledger"),
        ("Summary and notes", "Read or edit the rolling summary and cross-turn notes (F5)", "notes"),
        ("Export snapshot as Markdown", "The last turn's full debug snapshot, as a .md file (F6)", "export_md"),
        ("Export snapshot as JSON", "The last turn's full debug snapshot, as a .json file (F7)", "export_json"),
        ("Show or hide the inspector", "Recall candidates and memory writes of the last turn (F2)",
         "toggle_inspector"),
    ]
    pane = getattr(screen, "pane", None)
    if pane is not None and pane.streaming:
        actions.insert(0, ("Stop the reply", "Keep what came so far, marked stopped (Esc)", "cancel"))
    for title, help_text, action in actions:
        yield SystemCommand(title, help_text, _action(screen, action))
    if pane is not None and pane.queued:
        prompt = pane.query_one(PromptInput)
        yield SystemCommand("Take the queued message back", "Into the message box, unsent (↑ in the empty box)",
                            lambda: prompt.post_message(PromptInput.UnqueueRequested()))


def memory_commands(screen: MemoryScreen) -> Iterator[SystemCommand]:
    """The memory keys, for the memory highlighted now."""
    yield SystemCommand("Add a memory", "Write one by hand; it wins conflicts like a correction (a)",
                        lambda: screen.action_add())
    memory_id = screen.selected_memory_id()
    memory = screen.services.memories.get(memory_id) if memory_id is not None else None
    if memory is None:
        return
    name = about(memory)
    if memory.status == "deleted":
        yield SystemCommand(f"Restore {name}", "Undo its forget (u)", lambda: screen.action_undo(memory.id))
    else:
        yield SystemCommand(f"Forget {name}", "Soft delete; u brings it back (f)",
                            lambda: screen.action_forget(memory.id))
    pin = "Unpin" if memory.pinned else "Pin"
    yield SystemCommand(f"{pin} {name}", "Pinned memories go into every prompt (p)",
                        lambda: screen.action_pin(memory.id))
    yield SystemCommand(f"Edit {name}", "Rewrite its text; it is re-embedded (e)", lambda: screen.action_edit(memory.id))
    yield SystemCommand(f"Purge {name}", "Erase it for good, after asking (x)", lambda: screen.action_purge(memory.id))
    if memory.source_message is not None:
        yield SystemCommand(f"Go to the source of {name}", "The message it came from (g)",
                            lambda: screen.action_source(memory.id))


def commands(app: App[Any], screen: Screen) -> Iterator[SystemCommand]:
    """Everything memchat adds to the palette for `screen`; Help is offered everywhere."""
    yield SystemCommand("Help: every key", "The key table, with your remapping (F1)", _action(app, "help"))
    if getattr(screen, "pane", None) is not None:
        yield from chat_commands(screen)
    if isinstance(screen, MemoryScreen):
        yield from memory_commands(screen)
    if hasattr(screen, "export_listed"):  # the memory browser
        yield SystemCommand("Export the listed memories as Markdown", "What the list shows now, to a file (F6)",
                            _action(screen, "export_listed_md"))
        yield SystemCommand("Export the listed memories as JSONL", "What the list shows now, to a file (F7)",
                            _action(screen, "export_listed_jsonl"))


def _action(node: App[Any] | Screen, action: str) -> Callable[[], object]:
    """Run `action` on `node` as its key would (through check_action)."""
    return lambda: node.run_action(action)
