"""The one-line header: model, context size, speed of the last reply, session, background work."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


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
    streaming: reactive[bool] = reactive(False)
    """A reply is being generated."""

    def render(self) -> Text:
        parts: list[tuple[str, str]] = [
            ("memchat", "bold"),
            (f"  {self.model}", ""),
            (f"  n_ctx {self.n_ctx:,}", ""),
        ]
        if self.tokens_per_second is not None:
            parts.append((f"  {self.tokens_per_second:.1f} tok/s", ""))
        parts.append((f"  session {self.session}", ""))
        if self.streaming:
            parts.append(("  ● replying (Esc stops)", "bold"))
        if self.extracting:
            parts.append(("  ⟳ extracting memories…", "italic"))
        return Text.assemble(*parts, no_wrap=True, overflow="ellipsis")
