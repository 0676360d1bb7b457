"""The one-line header: model, context size, speed of the last reply, session, background work.

On a narrow terminal the least useful parts go first (the program's name, the
context size, the speed, the model), so the session's name and what is running
in the background stay readable.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from memchat.terminal_text import printable


class StatusLine(Widget):
    model: reactive[str] = reactive("")
    """Name of the chat model."""
    n_ctx: reactive[int] = reactive(0)
    """Context window of the chat model, in tokens."""
    tokens_per_second: reactive[float | None] = reactive(None)
    """Decoding speed of the last reply, after its first token (None before the first reply)."""
    session: reactive[str] = reactive("")
    """Name of the open session."""
    extracting: reactive[bool] = reactive(False)
    """The last turn's memories are still being extracted in the background."""
    pending: reactive[int] = reactive(0)
    """User messages an earlier run left unextracted, being extracted now."""
    saving: reactive[bool] = reactive(False)
    """Quit was asked for: the app closes when the memories are written."""
    streaming: reactive[bool] = reactive(False)
    """A reply is being generated."""
    queued: reactive[int] = reactive(0)
    """Messages waiting to be sent when the running turn ends."""
    prompt_cache: reactive[tuple[int, int] | None] = reactive(None)
    """(prompt tokens reused from the KV cache, tokens read) of the last reply."""

    def render(self) -> Text:
        parts: dict[str, tuple[str, str]] = {
            "name": ("memchat  ", "bold"),
            "model": (f"{self.model}  ", ""),
            "n_ctx": (f"n_ctx {self.n_ctx:,}  ", ""),
        }
        if self.tokens_per_second is not None:
            parts["speed"] = (f"{self.tokens_per_second:.1f} tok/s  ", "")
        if self.prompt_cache is not None:
            reused, read = self.prompt_cache
            parts["cache"] = (f"prompt {read:,} read, {reused:,} cached  ", "")
        parts["session"] = (f"session {printable(self.session, one_line=True)}", "")
        if self.streaming:
            parts["streaming"] = ("  ● replying (Esc stops)", "bold")
        if self.queued:
            parts["queued"] = (f"  ✉ {self.queued} queued (↑ takes back)", "bold")
        if self.saving:
            left = f" ({self.pending})" if self.pending else ""
            parts["extracting"] = (f"  ⟳ saving memories…{left} (Ctrl+Q again quits now)", "bold")
        elif self.pending:
            parts["extracting"] = (f"  ⟳ pending extraction: {self.pending}", "italic")
        elif self.extracting:
            parts["extracting"] = ("  ⟳ extracting memories…", "italic")
        for dropped in ("name", "n_ctx", "cache", "speed", "model"):
            if sum(len(text) for text, _ in parts.values()) <= self.size.width:
                break
            parts.pop(dropped, None)
        return Text.assemble(*parts.values(), no_wrap=True, overflow="ellipsis")
