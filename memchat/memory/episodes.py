"""Episodes: what the user said, kept as said, in sentence windows. Pure.

Typed memories are distilled and can miss things; episodes are the safety net that
keeps recall at least as good as plain retrieval over the transcript. Each user
message (minus chit-chat, questions and secrets) becomes one or more windows:
a short message is one window; a long one is split at sentence boundaries, and a
sentence that cannot stand alone (a few words, or one that opens with a pronoun or
a connective: "She is 7.", "So we sold it.") stays with its neighbour, so each
window reads on its own. A window carries the first time expression it contains,
resolved against the message's time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memchat.memory.rules import contains_secret, is_chit_chat, is_question, mentions_the_user
from memchat.memory.segment import split_sentences
from memchat.memory.terms import has_cjk
from memchat.memory.timeexpr import ResolvedTime, first_time

WHOLE_MESSAGE_WORDS = 45
"""A message this short (after dropping what is not kept) is one episode."""
WINDOW_WORDS = 40
"""A window grows past a sentence boundary only while it stays under this many words."""
_DEPENDENT = re.compile(
    r"^\s*(he|she|it|they|this|that|these|those|there|so|and|but|which|also|too|then|plus|because)\b"
    r"|^\s*(他|她|它|他们|她们|这|那|所以|而且|但是|不过|因为)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class EpisodeWindow:
    text: str
    sentences: tuple[str, ...]
    time: ResolvedTime | None


def _words(text: str) -> int:
    """Words, counting two CJK characters as one word."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    return len(re.findall(r"[^\W\d_]+|\d+", re.sub(r"[\u3400-\u9fff]", " ", text))) + (cjk + 1) // 2


_TO_THE_ASSISTANT = re.compile(r"\b(?:you|you're|your|u)\b|你|您", re.IGNORECASE)


def _about_the_assistant(sentence: str) -> bool:
    """'You're so good at this', '你好会安慰人': a remark to the assistant, nothing about the user."""
    return bool(_TO_THE_ASSISTANT.search(sentence)) and not mentions_the_user(sentence)


def kept_sentences(text: str) -> list[str]:
    """The sentences an episode may keep: no questions, chit-chat, secrets or remarks to the assistant."""
    return [s for s in split_sentences(text) if not is_question(s) and not is_chit_chat(s)
            and not contains_secret(s) and not _about_the_assistant(s)]


def _stands_alone(sentence: str) -> bool:
    return _words(sentence) >= 5 and not _DEPENDENT.match(sentence)


def episode_windows(text: str, said_at: float) -> list[EpisodeWindow]:
    kept = kept_sentences(text)
    if not kept:
        return []
    joiner = "" if has_cjk(text) else " "
    if sum(_words(s) for s in kept) <= WHOLE_MESSAGE_WORDS:
        groups = [kept]
    else:
        groups = []
        for sentence in kept:
            current = groups[-1] if groups else None
            fits = current is not None and _words(joiner.join(current + [sentence])) <= WINDOW_WORDS
            if current is not None and (not _stands_alone(sentence) or (fits and not _stands_alone(current[-1]))):
                current.append(sentence)
            else:
                groups.append([sentence])
        if len(groups) > 1 and not _stands_alone(joiner.join(groups[0])):  # "Huge news!" opens the next one
            groups[1] = groups[0] + groups[1]
            groups.pop(0)
    windows = []
    for group in groups:
        window = joiner.join(group)
        windows.append(EpisodeWindow(window, tuple(group), first_time(window, said_at)))
    return windows


def window_of(windows: list[EpisodeWindow], sentence: str) -> int | None:
    """Index of the window holding `sentence` (or the clause of one), if any."""
    probe = sentence.strip()
    for index, window in enumerate(windows):
        if probe and (probe in window.text or any(s in probe or probe in s for s in window.sentences)):
            return index
    return None
