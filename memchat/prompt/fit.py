"""Fitting text and lists into token limits without splitting what must stay whole. Pure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from memchat.engine.protocol import Count, truncate_text

__all__ = ["Count", "elide_middle", "first_that_fit", "fit_input", "newest_that_fit", "truncate_text"]

T = TypeVar("T")


def fit_input(text: str, limit: int, count: Count) -> tuple[str, str]:
    """The user's input within `limit`, with a visible notice when cut; returns (text, cut_reason)."""
    if count(text) <= limit:
        return text, ""
    notice_template = "\n\n[memchat: message truncated, {n} of {total} characters kept to fit the context]"
    room = max(0, limit - count(notice_template.format(n=len(text), total=len(text))) - 2)
    kept, _ = truncate_text(text, room, count)
    return kept + notice_template.format(n=len(kept), total=len(text)), f"input cut to {len(kept)} of {len(text)} characters"


ELISION = "\n\n[… memchat: {n} characters of this message left out here to fit the context; the transcript keeps it whole …]\n\n"


def elide_middle(text: str, limit: int, count: Count, *, head_share: float = 0.6) -> tuple[str, bool]:
    """`text` within `limit` tokens: its head and tail kept, the middle replaced by a marker saying how
    much was left out; returns (text, was_elided). Too small a limit for the marker keeps the head only."""
    if count(text) <= limit:
        return text, False
    room = limit - count(ELISION.format(n=len(text))) - 2
    while room >= 8:
        head, _ = truncate_text(text, int(room * head_share), count)
        tail, _ = truncate_text(text[len(head) :], room - count(head), count, keep="tail")
        elided = head.rstrip() + ELISION.format(n=len(text) - len(head) - len(tail)) + tail.lstrip()
        excess = count(elided) - limit
        if excess <= 0:  # tokens can merge across the joins: checked, not assumed
            return elided, True
        room -= excess
    return truncate_text(text, limit, count)


def newest_that_fit(items: Sequence[T], cost: Callable[[T], int], limit: int) -> tuple[list[T], list[T]]:
    """Split items (oldest first) into (dropped oldest, kept newest) so the kept ones cost ≤ limit."""
    kept: list[T] = []
    used = 0
    for item in reversed(items):
        price = cost(item)
        if used + price > limit:
            break
        kept.append(item)
        used += price
    kept.reverse()
    return list(items[: len(items) - len(kept)]), kept


def first_that_fit(items: Sequence[T], cost: Callable[[T], int], limit: int) -> tuple[list[T], list[T]]:
    """Split items (most important first) into (kept, dropped) so the kept ones cost ≤ limit."""
    kept: list[T] = []
    used = 0
    for index, item in enumerate(items):
        price = cost(item)
        if used + price > limit:
            return kept, list(items[index:])
        kept.append(item)
        used += price
    return kept, []
