"""How the UI tells the user about errors: a toast with what went wrong and what to do, never a traceback."""

from __future__ import annotations

from textual.widget import Widget

from memchat.terminal_text import printable
from memchat.types import MemchatError

ERROR_SECONDS = 12


def as_memchat_error(exc: BaseException) -> MemchatError:
    """Any exception as something a person can read; MemchatErrors pass through."""
    if isinstance(exc, MemchatError):
        return exc
    return MemchatError(f"unexpected {type(exc).__name__}: {exc}", "please report this; your input was kept")


def notify_error(node: Widget, error: BaseException) -> None:
    """Show `error` as a toast (safe from the UI thread only)."""
    error = as_memchat_error(error)
    body = f"{error.message}\n→ {error.hint}" if error.hint else error.message
    node.notify(printable(body), title="memchat", severity="error", timeout=ERROR_SECONDS, markup=False)
