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
            for part in _at_chat_stops(sentence.strip()):
                found.extend(p for p in _question_after_a_space(part) if p)
    return found


CN_QUESTION = re.compile(r"(吗|呢|什么|怎么|哪|谁|几|多少|是否)[？?]?$|[？?]$"
                          r"|^(?:怎么|如何|为什么|为啥|咋|请问|有没有人知道)"
                          r"|^[^，,；;]*(?:啥|什么|哪些|哪个|哪种|哪里|哪儿)[^，。,.!！\s]{0,6}(?:啊|呀|呢|啦)?$")
"""A Chinese question, with or without its mark: a final particle or question word, one that opens it (怎么跟老板说…),
or a question word in the last phrase of a one-phrase sentence (端午节还有啥习俗; not "她生日11月8号，你帮我想想送啥子",
which says the birthday first)."""
_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def _question_after_a_space(sentence: str) -> list[str]:
    """Chinese typed with spaces for commas ("我爸4月17号过六十大寿 打算订几桌酒席 订几桌合适呢"): a question in the
    last chunk is a sentence of its own, so what the chunks before it tell is not taken for part of a question."""
    chunks = _CJK_SPACE.split(sentence)
    if len(chunks) > 1 and CN_QUESTION.search(chunks[-1]) and not CN_QUESTION.search(chunks[-2]):
        return [" ".join(chunks[:-1]), chunks[-1]]
    return [sentence]


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
