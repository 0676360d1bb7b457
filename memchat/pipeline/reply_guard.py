"""The reply quality guard: a small model's reply that repeats an earlier reply of the session, or
merely echoes a memory line (or the user's own words) back, is regenerated before it is final.

Small models copy what is in their context: once one reply in the window reads "The user's name is
Priya.", every later reply may be that sentence again. Judging is pure (`similarity`, `judge`);
`ReplyGuard` holds one turn's plan:

1. the reply with the configured sampler, judged when it ends (or as soon as its first words are
   an earlier reply's first words);
2. a retry without the earlier assistant replies in the prompt (the pattern a small model copies),
   another seed, presence/frequency penalties and a penalty on continuing any run copied from the
   earlier replies (`Sampling.avoid`);
3. the same, warmer, and also kept from copying the quoted memories.

A repeat is a reply ≥ 0.9 similar to an earlier one, or one opening with an earlier reply's first
words and ≥ 0.6 similar (a template with a word swapped).

The first reply that passes is final; if none does, the least similar one is. Whatever the attempt, a reply
that says a sentence of its own a second time, or two in a row again with a word or two changed, or runs into one
character or a few said over and over (`loops_back`: a small model looping), ends where the loop began.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache

from memchat.engine.protocol import Sampling
from memchat.types import ChatMessage

NEAR_DUPLICATE = 0.9
"""Word-level similarity at and above which two replies count as the same reply."""
COPY_PREFIX_WORDS = 8
"""A reply whose first this many words are an earlier reply's first words is stopped there."""
TEMPLATE_OPENING = 4
TEMPLATE_SIMILARITY = 0.6
"""A reply opening with an earlier reply's first TEMPLATE_OPENING words and this similar to it is that
reply again with a word or two swapped ("The user's name is Priya." → "… is Mia.")."""
AVOID_REPLIES = 12
"""How many of the latest earlier replies a retry is told not to copy."""

_WORD = re.compile(r"[\u3400-\u9fff]|[^\W_]+")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")


LOOP_WORDS = 6
"""A sentence at least this long said a second time in one reply is a loop: the reply ends before it."""
NEAR_REPEAT = 0.85
"""Two sentences in a row that each say an earlier pair of the reply again this closely (`similarity`, a word or
two changed) are a loop too; one such sentence alone is not ("Add one cup of flour… Then add one cup of sugar…")."""


RUN_REPEATS = 16
"""A unit of one to four characters said this many times in a row ("；；；；…", "＆＆＆＆…", "哈哈哈哈…") is a
degenerate run, not text: the reply keeps `RUN_KEPT` of them and ends. Units with an ASCII letter or digit
(code, numbers, "0xFFFF…") and the characters of layout (rules, table borders, dot leaders, box drawing) are
never a run."""
RUN_KEPT = 3
_RUN = re.compile(r"(\S.{0,3}?)\1{%d,}" % (RUN_REPEATS - 1), re.DOTALL)
_NOT_A_RUN = re.compile(r"[A-Za-z0-9]|^[\s\-=_*#~.·…|+:/\\<>^`'\"\u2010-\u2015\u2500-\u259f\u2e3a\u2e3b\u30fc"
                        r"\uff0d\uff1d\uff5e]+$")


def loops_back(reply: str, min_words: int = LOOP_WORDS) -> int | None:
    """Where a reply starts saying again what it already said ("I've been thinking of you lately… I've been thinking
    of you lately…", a small model's loop, or a paragraph again with a word changed): the index at which a finished
    sentence of at least `min_words` words that the reply already said begins, or the first of two such sentences
    in a row that near-repeat an earlier pair, or where a degenerate run of a few characters goes past its first
    `RUN_KEPT` (`RUN_REPEATS`), or None. Pure; words compared as `words` reads them."""
    run = next((m.start() + RUN_KEPT * len(m.group(1)) for m in _RUN.finditer(reply)
                if not _NOT_A_RUN.search(m.group(1))), None)
    looped = _sentence_loop(reply[:run] if run is not None else reply, min_words)
    return looped if looped is not None else run


def _sentence_loop(reply: str, min_words: int) -> int | None:
    seen: set[tuple[str, ...]] = set()
    said: list[tuple[int, tuple[str, ...]]] = []  # (start, words) of each finished sentence long enough
    for match in _SENTENCE.finditer(reply):
        sentence = match.group(0)
        if not re.search(r"[.!?。！？]\s*$", sentence) and match.end() == len(reply):
            break  # still being written
        these = tuple(words(sentence))
        if len(these) < min_words:
            continue
        start = match.start() + len(sentence) - len(sentence.lstrip())
        if these in seen:
            return start
        seen.add(these)
        said.append((start, these))
        if len(said) >= 4 and _near_pair(said):
            return said[-2][0]
    return None


def _near_pair(said: list[tuple[int, tuple[str, ...]]]) -> bool:
    """Whether the last two sentences near-repeat two earlier sentences in a row."""
    (_, one), (_, two) = said[-2], said[-1]
    for index in range(len(said) - 3):
        first, second = said[index][1], said[index + 1][1]
        if _ratio(one, first) >= NEAR_REPEAT and _ratio(two, second) >= NEAR_REPEAT:
            return True
    return False


@lru_cache(maxsize=4096)
def _ratio(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """The difflib ratio of two word sequences; cached, as a streamed reply is checked again at every piece."""
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def words(text: str) -> list[str]:
    """Lower-cased words (each CJK character one word), punctuation dropped."""
    return _WORD.findall(text.lower())


def similarity(a: str, b: str) -> float:
    """Share of words two texts have in the same order (difflib ratio over words), 0..1."""
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return 1.0 if wa == wb else 0.0
    return _ratio(tuple(wa), tuple(wb))


def most_similar(text: str, others: Sequence[str]) -> tuple[float, str]:
    best = (0.0, "")
    for other in others:
        score = similarity(text, other)
        if score > best[0]:
            best = (score, other)
    return best


@dataclass(frozen=True)
class Verdict:
    problem: str = ""
    """"" (fine), "repeat" (an earlier reply again) or "echo" (a memory line or the user's words back)."""
    score: float = 0.0
    source: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def reason(self) -> str:
        return {"repeat": "repeated an earlier reply", "echo": "echoed a memory instead of answering"}.get(
            self.problem, ""
        )


def judge(reply: str, earlier: Sequence[str], quoted: Sequence[str]) -> Verdict:
    """Whether `reply` repeats one of the `earlier` replies or only echoes `quoted` texts back.

    An echo is a reply as a whole ≥ NEAR_DUPLICATE similar to a quoted text, or one made only of
    sentences that each are; a reply that uses a memory among words of its own is an answer.
    """
    if not words(reply):
        return Verdict()
    score, source = most_similar(reply, earlier)
    if score >= NEAR_DUPLICATE:
        return Verdict("repeat", score, source)
    template = [(similarity(reply, text), text) for text in earlier if same_opening(reply, text)]
    if template and max(template)[0] >= TEMPLATE_SIMILARITY:
        return Verdict("repeat", *max(template))
    score, source = most_similar(reply, quoted)
    if score >= NEAR_DUPLICATE:
        return Verdict("echo", score, source)
    sentences = [s for s in _SENTENCE.findall(reply) if words(s)]
    matches = [most_similar(s, quoted) for s in sentences]
    if matches and all(m[0] >= NEAR_DUPLICATE for m in matches):
        return Verdict("echo", min(m[0] for m in matches), matches[0][1])
    return Verdict()


def same_opening(a: str, b: str, n: int = TEMPLATE_OPENING) -> bool:
    """Both texts open with the same `n` words ("The user's name is …")."""
    wa, wb = words(a), words(b)
    return len(wa) >= n and wa[:n] == wb[:n]


def copies_opening(partial: str, earlier: Sequence[str], min_words: int = COPY_PREFIX_WORDS) -> bool:
    """The reply streamed so far opens with an earlier reply's first `min_words`+ words, word for word."""
    seen = words(partial)[:-1]  # the last word may still be growing
    if len(seen) < min_words:
        return False
    return any(words(text)[: len(seen)] == seen for text in earlier)


def without_replies(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """The prompt with the earlier assistant replies left out (what a small model copies from)."""
    return [m for m in messages if m.role != "assistant"]


@dataclass(frozen=True)
class Retry:
    temperature: float
    presence_penalty: float
    frequency_penalty: float
    drop_replies: bool
    avoid_quoted: bool
    """Penalise copying the quoted memories too, not only the earlier replies."""


RETRIES = (
    Retry(temperature=0.5, presence_penalty=0.3, frequency_penalty=0.2, drop_replies=True, avoid_quoted=False),
    Retry(temperature=0.8, presence_penalty=0.6, frequency_penalty=0.3, drop_replies=True, avoid_quoted=True),
)
"""On the default 135M model a retry that keeps the earlier replies in the prompt mostly copies them
with a new name; without them it answers the message (the same question on an empty session does)."""


class ReplyGuard:
    """One turn's attempts. `attempts()` yields (prompt, sampler) pairs until `review` accepts a reply."""

    def __init__(
        self, earlier: Sequence[str], quoted: Sequence[str], sampling: Sampling, *, enabled: bool = True,
        retries: Sequence[Retry] = RETRIES,
    ) -> None:
        self.earlier = [text for text in earlier if text.strip()]
        self.quoted = [text for text in quoted if text.strip()]
        self.sampling = sampling
        self.retries = list(retries) if enabled else []
        self.enabled = enabled
        self.reviewed: list[tuple[str, Verdict]] = []

    @property
    def settled(self) -> bool:
        return bool(self.reviewed) and self.reviewed[-1][1].ok

    @property
    def last(self) -> Verdict:
        return self.reviewed[-1][1] if self.reviewed else Verdict()

    def attempts(self, messages: Sequence[ChatMessage]) -> Iterator[tuple[list[ChatMessage], Sampling]]:
        yield list(messages), self.sampling
        replies = tuple(self.earlier[-AVOID_REPLIES:])
        for number, retry in enumerate(self.retries, start=1):
            if self.settled or not self.reviewed:
                return
            sampling = replace(
                self.sampling,
                seed=self.sampling.seed + number,
                temperature=max(self.sampling.temperature, retry.temperature),
                presence_penalty=max(self.sampling.presence_penalty, retry.presence_penalty),
                frequency_penalty=max(self.sampling.frequency_penalty, retry.frequency_penalty),
                avoid=replies + (tuple(self.quoted) if retry.avoid_quoted else ()),
            )
            yield (without_replies(messages) if retry.drop_replies else list(messages)), sampling

    def copying(self, partial: str) -> bool:
        """Stop this attempt early: it is walking an earlier reply word for word (the last attempt
        always runs to its end, so the final reply is never a cut-off copy)."""
        return len(self.reviewed) < len(self.retries) and copies_opening(partial, self.earlier)

    def review(self, reply: str, *, copied: bool = False) -> Verdict:
        """Judge an attempt; `copied` says it was stopped by `copying`."""
        if copied:
            verdict = Verdict("repeat", 1.0, most_similar(reply, self.earlier)[1])
        else:
            verdict = judge(reply, self.earlier, self.quoted) if self.enabled else Verdict()
        self.reviewed.append((reply, verdict))
        return verdict

    @property
    def final(self) -> str:
        """The first reply that passed, else the one least like what it repeated."""
        for reply, verdict in self.reviewed:
            if verdict.ok:
                return reply
        if not self.reviewed:
            return ""
        return min(self.reviewed, key=lambda item: item[1].score)[0]
