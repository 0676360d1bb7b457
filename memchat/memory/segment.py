"""Sentence boundaries for English and Chinese, by pysbd (abbreviations, decimals, ellipses).

Lines are split first (a chat message's line breaks are boundaries), then each line by
pysbd's segmenter for its script. Pure apart from pysbd's cached segmenters.
"""

from __future__ import annotations

from functools import lru_cache

import pysbd

from memchat.memory.terms import has_cjk


@lru_cache(maxsize=2)
def _segmenter(language: str) -> pysbd.Segmenter:
    return pysbd.Segmenter(language=language, clean=False)


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, in order; empty input gives []."""
    found: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        segmenter = _segmenter("zh" if has_cjk(line) else "en")
        found.extend(s.strip() for s in segmenter.segment(line) if s.strip())
    return found
