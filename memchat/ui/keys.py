"""Every key of the UI in one table: the source of all BINDINGS and of the help screen.

A binding's id is its action name, so `settings.ui.keys` (action → key, e.g.
`{pin = "ctrl+p"}`) remaps it through Textual's keymap, and the help screen
reads this same table with the same remapping: the two cannot disagree.

Keys were picked to reach a program through ordinary terminals: F-keys and
Escape for screens, Enter to send and Ctrl+J for a new line (most terminals
send Shift+Enter and Alt+Enter as a plain Enter — checked in tmux), plain
letters only where no text field has focus (inspector tables, browser list).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual.binding import Binding, BindingType

from memchat.types import MemchatError


@dataclass(frozen=True)
class KeySpec:
    group: str
    """Where the key works: app, chat, input, memory, browser, notes, ledger, dialog."""
    action: str
    key: str
    description: str
    show: bool = True
    priority: bool = False
    """Fires even when the focused widget (the text input) has a binding for the key."""
    target: str = ""
    """Namespace prefix of the action, e.g. "screen." for keys bound on a widget but handled by its screen."""
    short: str = ""
    """The footer's label when `description` is too long for an 80-column footer; help shows the full one."""


GROUP_TITLES: dict[str, str] = {
    "app": "Anywhere",
    "chat": "Chat screen",
    "input": "Message input",
    "memory": "Memory tables (inspector, browser) — focus one with Tab",
    "browser": "Memory browser",
    "notes": "Summary & notes",
    "ledger": "Budget ledger",
    "viewer": "Help, transcript",
    "dialog": "Edit dialogs",
    "editor": "Edit dialogs' text box",
    "confirm": "Confirmation",
}

KEYMAP: tuple[KeySpec, ...] = (
    KeySpec("app", "quit", "ctrl+q", "Quit", priority=True),
    KeySpec("app", "help", "f1,question_mark", "Help"),
    KeySpec("chat", "cancel", "escape", "Stop reply", priority=True),
    KeySpec("chat", "toggle_inspector", "f2", "Inspector", priority=True),
    KeySpec("chat", "browser", "f3", "Memories", priority=True),
    KeySpec("chat", "ledger", "f4", "Budget", priority=True),
    KeySpec("chat", "notes", "f5", "Summary/notes", priority=True, short="Notes"),
    KeySpec("chat", "export_md", "f6", "Export .md", show=False, priority=True),
    KeySpec("chat", "export_json", "f7", "Export .json", show=False, priority=True),
    KeySpec("chat", "narrow_inspector", "alt+left", "Narrow inspector", show=False, priority=True),
    KeySpec("chat", "widen_inspector", "alt+right", "Widen inspector", show=False, priority=True),
    KeySpec("input", "send", "enter", "Send"),
    KeySpec("input", "queue", "enter", "Queue (sent when the reply ends)", short="Queue"),
    KeySpec("input", "newline", "ctrl+j", "New line"),
    KeySpec("input", "unqueue", "up", "Take the last queued message back (empty box)", short="Edit queued"),
    KeySpec("memory", "pin", "p", "Pin/unpin", target="screen."),
    KeySpec("memory", "forget", "f", "Forget", target="screen."),
    KeySpec("memory", "undo", "u", "Undo forget (or restore the highlighted forgotten memory)", target="screen.",
            short="Undo forget"),
    KeySpec("memory", "purge", "x", "Purge", target="screen."),
    KeySpec("memory", "edit", "e", "Edit", target="screen."),
    KeySpec("memory", "add", "a", "Add", target="screen."),
    KeySpec("memory", "source", "g", "Go to source", target="screen."),
    KeySpec("browser", "search", "slash", "Search"),
    KeySpec("browser", "close", "escape", "Close"),
    KeySpec("browser", "export_listed_md", "f6", "Export the listed memories (.md)", short="Export .md"),
    KeySpec("browser", "export_listed_jsonl", "f7", "Export the listed memories (.jsonl)", show=False),
    KeySpec("notes", "edit_summary", "s", "Edit summary"),
    KeySpec("notes", "edit_note", "e,enter", "Edit note"),
    KeySpec("notes", "add_note", "n", "Add note"),
    KeySpec("notes", "close", "escape", "Close"),
    KeySpec("ledger", "close", "escape,f4", "Close"),
    KeySpec("viewer", "close", "escape", "Close"),
    KeySpec("dialog", "save", "ctrl+s", "Save"),
    KeySpec("dialog", "close", "escape", "Cancel"),
    KeySpec("editor", "select_all", "ctrl+a", "Select all"),
    KeySpec("editor", "clear", "ctrl+l", "Clear the text (Ctrl+Z brings it back)", short="Clear"),
    KeySpec("confirm", "confirm", "y", "Yes"),
    KeySpec("confirm", "close", "escape,n", "No"),
)

ACTIONS: frozenset[str] = frozenset(spec.action for spec in KEYMAP)


def bindings(group: str) -> list[BindingType]:
    """BINDINGS for one group; each binding's id is its action, for remapping."""
    return [
        Binding(spec.key, spec.target + spec.action, spec.short or spec.description, show=spec.show,
                priority=spec.priority, id=spec.action)
        for spec in KEYMAP
        if spec.group == group
    ]


def validate(remap: Mapping[str, str]) -> dict[str, str]:
    """`settings.ui.keys` checked against the known actions."""
    unknown = sorted(set(remap) - ACTIONS)
    if unknown:
        raise MemchatError(
            f"unknown key action(s) in ui.keys: {', '.join(unknown)}",
            f"remappable actions: {', '.join(sorted(ACTIONS))}",
        )
    empty = sorted(action for action, key in remap.items() if not key.strip())
    if empty:
        raise MemchatError(f"no key given for {', '.join(empty)} in ui.keys", 'write e.g. pin = "ctrl+p"')
    return dict(remap)


def effective_keys(spec: KeySpec, remap: Mapping[str, str]) -> list[str]:
    """The keys that trigger `spec` once `remap` is applied."""
    return [key.strip() for key in remap.get(spec.action, spec.key).split(",") if key.strip()]
