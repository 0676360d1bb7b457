"""A question about two things asks two questions. Pure.

"Where do I live and who do I work for?" is two look-ups: one embedding of the whole
question lands between the two answers and finds neither well. Recall embeds the
whole question and each part, and a memory counts as relevant to the part it
matches best (its `group`), so the answer to each part is judged against the best
answer to that same part.
"""

from __future__ import annotations

import re

_SPLIT = re.compile(r"\s*(?:,?\s+\band\b\s+|\s*&\s*|[,，、;；]\s*(?:and\s+)?|和|以及|还有|跟)\s*", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{2,}|[\u3400-\u9fff]")


def _substantial(part: str) -> bool:
    cjk = len(re.findall(r"[\u3400-\u9fff]", part))
    return cjk >= 2 or len(_WORD.findall(part)) >= 2


def sub_queries(query: str) -> list[str]:
    """The parts of a compound question, or [] when it asks one thing."""
    parts = [p.strip(" ?？.!") for p in _SPLIT.split(query.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2 or not all(_substantial(p) for p in parts):
        return []
    return parts[:4]
