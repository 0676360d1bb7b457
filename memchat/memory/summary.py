"""The incremental rolling summary of a session's evicted messages.

The new summary is made from the old summary first, then only the messages
being evicted now — never by re-reading the whole session. It runs only when
eviction happens. If the result outgrows its share, the model is asked once to
rewrite it compactly; if that still does not fit, it is cut at a sentence
boundary, keeping the newest part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memchat.engine.protocol import ChatEngine, Sampling
from memchat.prompt.fit import truncate_text
from memchat.types import ChatMessage, Message

_UPDATE = (
    "You keep a running summary of a conversation between a user and an assistant. "
    "Write the updated summary: keep every fact, preference, decision and open question from the old summary "
    "and add what the new messages say. Plain sentences, third person, at most {words} words. "
    "Reply with the summary only."
)
_COMPACT = "Rewrite this summary more compactly, keeping every fact and preference, in at most {words} words."
_SAMPLING = Sampling(temperature=0.0, top_p=1.0, repeat_penalty=1.15, seed=0)
MESSAGE_CLIP = 400


class RollingSummary:
    def __init__(self, engine: ChatEngine) -> None:
        self.engine = engine

    def _generate(self, system: str, user: str, max_tokens: int) -> str:
        messages = [ChatMessage("system", system), ChatMessage("user", user)]
        worker = self.engine.utility()  # keeps the chat context's KV cache for the conversation
        return "".join(worker.stream(messages, max_tokens=max_tokens, sampling=_SAMPLING)).strip()

    def update(self, old_summary: str, evicted: Sequence[Message], limit: int) -> str:
        """The summary after folding in `evicted`, within `limit` tokens."""
        if not evicted:
            return old_summary
        words = max(20, int(limit * 0.6))
        lines = []
        for message in evicted:
            text, cut = truncate_text(message.content, MESSAGE_CLIP, self.engine.count)
            lines.append(f"{message.role}: {text}{' …' if cut else ''}")
        user = f"Old summary:\n{old_summary or '(none yet)'}\n\nNew messages:\n" + "\n".join(lines)
        summary = self._generate(_UPDATE.format(words=words), user, max_tokens=limit + 32)
        if not summary:
            summary = (old_summary + " " + " ".join(lines)).strip()
        if self.engine.count(summary) > limit:
            compact = self._generate(_COMPACT.format(words=words // 2), summary, max_tokens=limit)
            if compact and self.engine.count(compact) < self.engine.count(summary):
                summary = compact
        return clip_to_sentences(summary, limit, self.engine.count)


def clip_to_sentences(text: str, limit: int, count: Callable[[str], int]) -> str:
    """Keep the newest whole sentences that fit in `limit` tokens."""
    if count(text) <= limit:
        return text
    pieces = re.findall(r"[^.!?。！？]+[.!?。！？]*", text)
    kept: list[str] = []
    for piece in reversed(pieces):
        candidate = piece.strip() + (" " + " ".join(kept) if kept else "")
        if count(candidate) > limit:
            break
        kept.insert(0, piece.strip())
    if kept:
        return " ".join(kept)
    return truncate_text(text, limit, count, keep="tail")[0]


