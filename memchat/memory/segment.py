"""Sentence boundaries for English and Chinese, by pysbd (abbreviations, decimals, ellipses).

Lines are split first (a chat message's line breaks are boundaries), then each line by
pysbd's segmenter for its script. Pure apart from pysbd's cached segmenters.
"""

from __future__ import annotations

import re
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
        for sentence in segmenter.segment(line):
            found.extend(part for part in _at_chat_stops(sentence.strip()) if part)
    return found


_CHAT_STOP = re.compile(r"\b(?:btw|tbh|lol|ngl|imo|idk|fyi|omg|haha|rn|atm)\.\s+(?=[a-z])", re.IGNORECASE)
"""A period after a chat abbreviation, before a lower-case word: texting's sentence end ("got the keys btw. need
ideas"), which the segmenter takes for an abbreviation's. Not after a short month: "in Sept. the kids go back"
goes on."""


def _at_chat_stops(sentence: str) -> list[str]:
    parts, start = [], 0
    for stop in _CHAT_STOP.finditer(sentence):
        parts.append(sentence[start:stop.end()].strip())
        start = stop.end()
    return [*parts, sentence[start:].strip()]
