"""Whose name or birthday a statement gives. Pure.

A name and a birthday are one per *person*, not one per user: "My wife's birthday is
18 May" and, later, "豆豆's birthday was yesterday" are two people's birthdays, and
the second must not replace the first. A statement says whose it is by "my"/"我"
(the user), a person's name ("Isla's birthday"), or a family word ("my mum",
"我媳妇"). When it says none of these, nobody can tell, and nothing is replaced.
"""

from __future__ import annotations

import re
from datetime import datetime

from memchat.memory.concepts import FAMILY, ancestors, concepts_in
from memchat.memory.timeexpr import MONTH_WORDS

_THE_USER = re.compile(
    r"\bmy (?:birthday|name|full name|surname|nickname)\b|\bi was born\b|\bcall me\b|\bi'?m called\b|"
    r"\bthe user's (?:birthday|name)\b|我的(?:生日|名字)|我生日|我叫|我是\S*生的|用户的?(?:生日|名字)",
    re.IGNORECASE,
)
_NAMED = re.compile(r"\b([A-Z][a-z]{2,})\b")
NOT_NAMES = frozenset({"The", "User", "My", "Our", "His", "Her", "Their", "Its", "And", "But", "Also", "Just", "Oh",
                        "Btw", "Yesterday", "Today", "Tomorrow", "Last", "Next", "Happy", "Big", "Little", "Mum",
                        "Mom", "Dad", "January", "February", "March", "April", "May", "June", "July", "August",
                        "September", "October", "November", "December", "Monday", "Tuesday", "Wednesday",
                        "Thursday", "Friday", "Saturday", "Sunday"})
PER_PERSON = frozenset({"name", "birthday"})
"""Single-valued slots that are one per person, not one per user: a new value replaces only the same person's."""


def _a_name_here(text: str, match: re.Match[str]) -> bool:
    """A capital opening a sentence is a name only when it owns something ("Bram's birthday"), not
    when it is just the first word ("Sorry, …", "Actually …")."""
    opening = not text[:match.start()].strip() or re.search(r"[.!?]\s*$", text[:match.start()])
    return not opening or text[match.end():].startswith(("'s", "’s"))


def person_of(text: str) -> str | None:
    """The person a name or birthday statement is about: "user", a name, a family word, or None."""
    if _THE_USER.search(text):
        return "user"
    names = [m.group(1) for m in _NAMED.finditer(text) if m.group(1) not in NOT_NAMES and _a_name_here(text, m)]
    if names:
        return names[0].lower()
    family = [c for c in concepts_in(text) if c in FAMILY or FAMILY & set(ancestors(c))]
    if family:
        return max(family, key=lambda c: len(ancestors(c)))  # the most particular: "husband", not "spouse"
    return None


def same_person(old: str, new: str) -> bool:
    """Whether two name or birthday statements are about the same, known person."""
    person = person_of(new)
    return person is not None and person == person_of(old)


_THEIR_PEOPLE = re.compile(r"\b([A-Z][a-z]{2,})(?:'s|’s)\s+(?:two|three|four|kids?|children|son|sons|daughters?|boys?|"
                           r"girls?|twins|lot|mum|mom|dad|parents|sister|brother|family|ex|dog|cat)\b")
"""Someone named as having people of their own ("Jess's two", "Karen's kids"): a statement about them and theirs."""


def same_named_person(old: str, new: str) -> bool:
    """'My boss Stuart is good' does not replace 'My new boss is Stuart Fraser': it is the same boss. The
    person a new statement gives is the last it names: "Karen retired, so now I report to Dev" is Dev — unless it
    speaks of the one named before and their people ("Jess's two, Mia and Lachie"; not "Karen's replacement")."""
    names = set(re.findall(r"\b[A-Z][a-z]{2,}\b", old[1:])) - {"The", "User"}
    if names & set(_THEIR_PEOPLE.findall(new)):
        return True  # "The user's partner Jess's two, Mia and Lachie, are 16 and 14": Jess's children, Jess still
    given = [n for n in re.findall(r"\b[A-Z][a-z]{2,}\b", new[1:]) if n not in ("The", "User") and n not in NOT_NAMES]
    return bool(given) and given[-1] in names


_MONTH_NAMED = re.compile(rf"\b(?:{MONTH_WORDS})[a-z]*\b|\d{{1,2}}[/.-]\d{{1,2}}|月|"
                          r"\b(?:yesterday|today|tomorrow|last|next)\b|[昨今明]天", re.IGNORECASE)


_DAY_ONLY = re.compile(r"\bthe \d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)\b|[0-9一二三四五六七八九十]{1,3}[号日]", re.IGNORECASE)
"""A day of the month said bare ("the 19th", 十九号): a holiday ("Christmas Day") names a day of its own."""


def restates(old_date: float | None, new_date: float | None, attribute: str, said: str = "") -> bool:
    """Whether a later birthday statement gives the same day as the earlier one ("昨天媳妇生日" on her
    birthday; "My birthday's the 19th" after "19 March", whose month it leaves out): a restatement, not a
    change, so the earlier one — which may also carry her name — stays current."""
    if attribute != "birthday" or old_date is None or new_date is None:
        return False
    day = "%d" if said and _DAY_ONLY.search(said) and not _MONTH_NAMED.search(said) else "%m-%d"
    return datetime.fromtimestamp(old_date).strftime(day) == datetime.fromtimestamp(new_date).strftime(day)
