"""Checks that keep the rolling summary honest. Pure functions.

- `untraceable`: the names, numbers and places of a summary that appear in none of its sources
  (what a small model invents when it "summarises": a brother and a sister becoming "two sons").
- `ends_complete`: the summary ends on a whole sentence.
- `drop_topic`: the summary without the sentences that mention a forgotten topic or the names the
  forgotten memories carried, so a forget request cannot come back through the summary.

Entities are heuristics: capitalised words (a sentence's first word only when its lower-case form
is not found either), anything with a digit, and CJK runs between common function characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from memchat.memory.forget_requests import topic_parts
from memchat.memory.terms import STOPWORDS, query_terms, search_terms

_SENTENCE = re.compile(r"[^.!?。！？…\n]+(?:[.!?。！？…]+[\"'”’)）]*|$)")
_LINE_LABEL = re.compile(r"^([A-Za-z][A-Za-z ]{0,30}:\s+)")
_NUMBER = re.compile(r"\d[\d.,:/-]*\d|\d")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_CJK_FUNCTION = re.compile(r"[的了是在和有我你他她它们也都很就说用户这那个一不与及把被给对到要会]+")
_REFERS_BACK = re.compile(r"^(he|she|it|they|his|her|its|their|them|this|that|these|those|there)\b|^[他她它其这那]",
                          re.IGNORECASE)
_TERMINAL = re.compile(r"[.!?。！？…][\"'”’)）\]]*\s*$")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def entities(text: str) -> list[str]:
    """Names, numbers and places in `text`, in order (see the module docstring for the heuristics)."""
    found: list[str] = []
    body = "\n".join(line[len(m.group(1)) :] if (m := _LINE_LABEL.match(line)) else line for line in text.splitlines())
    for sentence in sentences(body):
        found += _NUMBER.findall(sentence)
        for match in _CAPITALISED.finditer(sentence):
            word = match.group().rstrip("'’-")
            if word.lower().endswith(("'s", "’s")):
                word = word[:-2]
            ordinary = word.lower() in _COMMON or word.lower() in STOPWORDS
            if word and word not in {"I", "I'm", "I’m"} and not (ordinary and sentence.startswith(word)):
                found.append(word)
        for run in _CJK_RUN.findall(sentence):
            found += [piece for piece in _CJK_FUNCTION.split(run) if len(piece) >= 2]
    return found


def _traceable(entity: str, source: str, words: set[str]) -> bool:
    return entity in source or entity.lower() in _COMMON or (entity[:1].isupper() and entity.lower() in words)


_COMMON = frozenset([
    "the", "a", "an", "and", "but", "so", "then", "also", "user", "users", "he", "she", "they", "it", "we", "you",
    "my", "his", "her", "their", "our", "this", "that", "these", "those", "there", "here", "in", "on", "at", "of",
    "for", "with", "to", "from", "by", "as", "if", "when", "while", "after", "before", "since", "earlier", "later",
    "today", "summary", "assistant", "memchat", "yes", "no", "please", "hi", "hello", "thanks", "oh", "well",
])
"""Capitalised at a sentence start, these are ordinary words, not names."""


def untraceable(summary: str, sources: Iterable[str]) -> list[str]:
    """The entities of `summary` found in none of `sources` (empty: every one can be traced)."""
    source = "\n".join(sources)
    words = set(re.findall(r"[\w'’]+", source.lower()))
    return [e for e in dict.fromkeys(entities(summary)) if not _traceable(e, source, words)]


def traceability(summary: str, sources: Iterable[str]) -> float:
    """Share of the summary's entities found in its sources (1.0 for a summary without any)."""
    found = list(dict.fromkeys(entities(summary)))
    if not found:
        return 1.0
    return 1.0 - len(untraceable(summary, sources)) / len(found)


def ends_complete(text: str) -> bool:
    return not text.strip() or bool(_TERMINAL.search(text))


def _mentions(sentence: str, parts: Sequence[list[str]], names: Sequence[str]) -> bool:
    terms = set(search_terms(sentence))
    if any(part and set(part) <= terms for part in parts):
        return True
    return any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", sentence) for name in names)


def without(said: Sequence[str], dropped: Callable[[str], bool]) -> list[str]:
    """`said` minus the sentences `dropped` picks and those right after them that refer back
    ("He is 3 years old." after a dropped sentence about the cat is about the cat too)."""
    kept: list[str] = []
    gone = False
    for sentence in said:
        gone = dropped(sentence) or (gone and bool(_REFERS_BACK.match(sentence)))
        if not gone:
            kept.append(sentence)
    return kept


def drop_topic(summary: str, topic: str, forgotten: Sequence[str] = ()) -> str:
    """`summary` without its sentences that mention `topic` (every word of one of its parts) or a name
    that one of the `forgotten` memory texts carried. Lines keep their "User: " style label."""
    parts = [query_terms(part) for part in topic_parts(topic) or [topic]]
    names = sorted({e for text in forgotten for e in entities(text) if not _NUMBER.fullmatch(e)} - _NOT_NAMES)
    kept_lines: list[str] = []
    for line in summary.splitlines():
        label_match = _LINE_LABEL.match(line)
        label = label_match.group(1) if label_match else ""
        body = line[len(label) :]
        kept = without(sentences(body), lambda sentence: _mentions(sentence, parts, names))
        if kept:
            kept_lines.append(label + " ".join(kept))
    return "\n".join(kept_lines)


_NOT_NAMES = frozenset({"The", "User", "A", "An", "This", "That", "My", "Her", "His", "Their", "It", "We", "You"})


def forgotten_sentences(memories: Sequence[str], episodes: Sequence[str]) -> Callable[[str], bool]:
    """A test for sentences a forget request took back, given the deleted typed memories and episodes:
    one naming what a deleted memory named, or said word for word in a deleted episode and sharing a
    word with a deleted memory (so "I have a cat." goes with "The user has a cat.", not the sentence
    about the user's name that happened to share its episode)."""
    names = sorted({e for text in memories for e in entities(text) if not _NUMBER.fullmatch(e)} - _NOT_NAMES)
    words = set(query_terms(" ".join(memories))) - {"user"}
    said = {s.lower() for text in episodes for s in sentences(text)}

    def forgotten(sentence: str) -> bool:
        if _mentions(sentence, [], names):
            return True
        return sentence.lower() in said and bool(words & set(query_terms(sentence)))

    return forgotten
