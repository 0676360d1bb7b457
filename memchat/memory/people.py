"""The people in the user's life, as the write path meets them. Pure.

Once "my daughter Isla" has been said, "Isla's home for the summer, she's doing a placement
in Nairn" is about the daughter: the sentence is read as "My daughter Isla is home for the
summer…", so it fills the daughter's slot and its memory names the relation ("The user's
daughter Isla…": a later "my girl?" or "my kids?" finds it). Only a sentence with something
to keep about them is read so — a place, a number, a milestone, a change of school or work —
not "Stuart's good, leaves you alone" or "Rhona says my accent is terrible".

A relative introduced by name inside some other statement ("My husband Yerlan's birthday is
9 October") is also a relation of its own: "The user's husband is Yerlan."
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memchat.memory.speech import RELATIVE_WORDS

_RELATION_IN_MEMORY = (
    r"\bthe user's (?:\w+ )?({rel}),? (?:is |was )?(?:called |named )?{name}\b",
    r"\b{name},? (?:is )?(?:the user's|their) (?:\w+ )?({rel})\b",
    r"\b{name} \((?:the user's|their) (?:\w+ )?({rel})\)",
)
"""How a stored memory names someone's relation to the user."""

_OPENS_WITH_NAME = re.compile(r"^((?-i:[A-Z][a-z]{2,}))(?='s\b|\s+(?!and\b|or\b)[a-z])")
_REPORTED = re.compile(r"^\w+(?:'s)?\s+(?:\w+ly\s+)?(?:says|said|reckons|thinks|thought|wants|wanted|asked|told|"
                       r"keeps|kept|is pretending|pretends|hates|loves|cried|laughed)\b", re.IGNORECASE)
_SUBSTANCE = re.compile(
    r"\d|\b(?:in|into|at|to|from|for|with|near|on)\s+(?:the\s+)?(?-i:[A-Z][a-z]+)|\b(?:started|starts|starting|joined|moved|moving|"
    r"lives|living|works|working|studies|studying|passed|graduated|turned|turns|born|married|engaged|pregnant|"
    r"retired|retiring|diagnosed|broke|placement|school|uni|university|college|job|apprenticeship|gig|business|"
    r"redundant|promoted|birthday|\d+(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
"""Something to keep about a person: a place or organisation, a number, a change in their life."""

_INTRODUCED = re.compile(
    rf"\b(?:my|our) (?:\w+ )?({RELATIVE_WORDS}|twins|kids|boys|girls|children|sons|daughters),? "
    rf"((?-i:[A-Z][a-z]{{2,}}(?:,? and [A-Z][a-z]{{2,}})?))\b"
    rf"|\b((?-i:[A-Z][a-z]{{2,}})) \((?:my|our) (?:\w+ )?({RELATIVE_WORDS})\)",
    re.IGNORECASE,
)


def relation_in(content: str, name: str) -> str | None:
    """The relation a stored memory gives `name` ("The user's son Callum is 17." → "son"), or None."""
    for shape in _RELATION_IN_MEMORY:
        match = re.search(shape.format(rel=RELATIVE_WORDS, name=re.escape(name)), content, re.IGNORECASE)
        if match:
            return match.group(1).lower()
    return None


def opening_name(sentence: str) -> str | None:
    """The name a sentence opens with, when it is about that person ("Isla's home…" → "Isla")."""
    match = _OPENS_WITH_NAME.match(sentence.strip())
    return match.group(1) if match else None


def with_relation(sentence: str, relation_of: Callable[[str], str | None]) -> str:
    """'Isla's home for the summer, she's doing a placement in Nairn' → 'My daughter Isla's home…'
    when Isla is known to be the daughter and the sentence has something to keep about her."""
    name = opening_name(sentence)
    if not name or _REPORTED.match(sentence.strip()) or not _SUBSTANCE.search(sentence[len(name):]):
        return sentence
    relation = relation_of(name)
    if not relation:
        return sentence
    stripped = sentence.lstrip()
    return f"My {relation} {stripped}"


_CN_INTRODUCED = re.compile(r"(同事|组长|领导|老板|朋友|室友|邻居|弟弟|哥哥|姐姐|妹妹|老公|老婆|男朋友|女朋友|弟媳|嫂子|表哥|表姐|表弟|表妹)"
                            r"((?:小|老)(?![是在时候心说了的会要不也都家区城子板婆公年师大])[\u4e00-\u9fff])")
"""'和同事小刘去爬了青城山': a colleague called 小刘 (only the 小X/老X names: nothing else reads safely)."""


def introductions(sentence: str) -> list[tuple[str, str]]:
    """(relation, name) of each relative a sentence introduces: "My husband Yerlan's birthday…" → husband, Yerlan;
    "Rhona (my partner) left it…" → partner, Rhona."""
    found = []
    for match in _INTRODUCED.finditer(sentence):
        relation, name = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        found.append((relation.lower(), name))
    found += [(match.group(1), match.group(2)) for match in _CN_INTRODUCED.finditer(sentence)]
    return found


def introduction(relation: str, name: str) -> str:
    """The memory an introduction makes on its own."""
    if re.search(r"[\u4e00-\u9fff]", name):
        return f"用户的{relation}是{name}。"
    verb = "are" if " and " in name else "is"
    return f"The user's {relation} {verb} {name}."
