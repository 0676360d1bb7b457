"""How the context window is split between prompt blocks. Pure functions.

Fixed blocks get a configured share each (tokens, or a fraction of n_ctx);
the recent window gets whatever the other blocks do not actually use, so an
empty summary or no recalled memories leaves more room for the conversation.
"""

from __future__ import annotations

from dataclasses import dataclass

from memchat.config import BudgetSettings, resolve_share

BLOCK_ORDER = ("system", "notes", "pinned", "summary", "window", "recalled", "input")
"""Prompt order: stable content first so llama.cpp can reuse the KV cache of an unchanged prefix."""


@dataclass(frozen=True)
class BudgetLimits:
    n_ctx: int
    reserved_output: int
    system: int
    notes: int
    pinned: int
    summary: int
    recalled: int
    input: int
    message_share: float = 0.4
    """No one message of the recent window takes more than this share of the window's room."""

    @property
    def available(self) -> int:
        """Tokens the prompt may use in all."""
        return self.n_ctx - self.reserved_output

    def limit(self, block: str) -> int:
        return int(getattr(self, block))


def split_budget(n_ctx: int, settings: BudgetSettings) -> BudgetLimits:
    reserved = min(resolve_share(settings.reserved_output, n_ctx), n_ctx // 2)
    return BudgetLimits(
        n_ctx=n_ctx,
        reserved_output=reserved,
        system=resolve_share(settings.system, n_ctx),
        notes=resolve_share(settings.notes, n_ctx),
        pinned=resolve_share(settings.pinned, n_ctx),
        summary=resolve_share(settings.summary, n_ctx),
        recalled=resolve_share(settings.recalled, n_ctx),
        input=resolve_share(settings.input, n_ctx),
        message_share=settings.message_share,
    )
