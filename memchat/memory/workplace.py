"""Which organisation a statement about the user's work names. Pure.

"The user works as a marine engineer for Hebridean Ferries" is a job and an employer in one
sentence, stored under the job slot. When the user later says "Caley Marine offered me the
job" (the employer slot), the old sentence no longer says where the user works, though it may
still say what the user does. Naming two different organisations is what tells recall that,
for a question about the employer, the job sentence is history (memory.recall.older_values).
It is not superseded: that lost the job title it also gave.
"""

from __future__ import annotations

import re

_ORG = r"((?-i:[A-Z][\w&'’-]*)(?: (?:(?-i:[A-Z][\w&'’-]*)|of|and|&))*)"
_EN = [re.compile(p) for p in (
    rf"\b(?:at|for) (?:the )?{_ORG}",
    rf"\b(?:joined|joining|hired by|offer from) (?:the )?{_ORG}",
    rf"\baccepted (?:the )?{_ORG} offer\b",
    rf"{_ORG} (?:has |have )?(?:offered|hired|took on|taken on)\b",
)]
_PLACE_NOUNS = (r"depot|hospital|school|bank|factory|warehouse|garage|clinic|surgery|pharmacy|library|nursery|"
                r"bakery|caf[eé]|restaurant|hotel|supermarket|shop|store|office|station|plant|site|mill|yard|port|"
                r"care home|call cent(?:re|er)|council|university|college|lab|laboratory|firm|agency|studio")
_EN_LOWER = [re.compile(p, re.IGNORECASE) for p in (
    rf"\b(?:at|for) (?:the )?((?:(?!(?:a|an|the|my|our|his|her|their|home|work)\b)[a-z][\w&'’-]* ){{1,3}}(?:{_PLACE_NOUNS}))\b",
    r"^(?:\W*)((?!(?:they|he|she|we|it|you|someone|nobody)\b)[a-z][\w&'’-]*(?: [a-z][\w&'’-]*)?) (?:has |have )?"
    r"(?:offered|hired) (?:me|us|the user)\b",
)]
"""Chat in lower case ("i work as a mechanic at the first bus depot", "scotrail offered me the job"): an organisation
named by a workplace noun after at/for, or the one that offered the job, opening the sentence."""
_ZH = [re.compile(p) for p in (
    r"在(?!家)([\u4e00-\u9fffA-Za-z0-9]{2,10}?)(?:上班|工作|当|做|干)",
    r"(?:入职|加入了?|跳槽到|去了)([\u4e00-\u9fffA-Za-z0-9]{2,10}?)(?:[，。,.!！了]|$)",
)]
_NOT_ORGS = frozenset({"The", "User", "I", "My", "Our", "They", "He", "She", "We", "It", "You", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                       "Saturday", "Sunday", "January", "February", "March", "April", "May", "June", "July",
                       "August", "September", "October", "November", "December", "Christmas", "Easter", "Last",
                       "Next", "This"})


def workplace_of(text: str) -> str | None:
    """The organisation a work statement names ("Hebridean Ferries", "星火互娱"), or None."""
    for pattern in _EN:
        for match in pattern.finditer(text):
            name = match.group(1).strip()
            if name.split()[0] not in _NOT_ORGS:
                return name
    for pattern in _EN_LOWER:
        match = pattern.search(text)
        if match:
            return match.group(1).strip()
    for pattern in _ZH:
        match = pattern.search(text)
        if match and not match.group(1).startswith(("一家", "一个", "某")):  # "在一家火锅店": no name given
            return match.group(1)
    return None


def _words(name: str) -> set[str]:
    if re.search(r"[\u4e00-\u9fff]", name):
        return {name[i:i + 2] for i in range(len(name) - 1)} or {name}
    return {w.lower() for w in re.findall(r"[\w&'’-]+", name) if w.lower() not in ("of", "and", "&", "the")}


def another_workplace(old: str, new: str) -> bool:
    """Whether two work statements name two different organisations ("Puerto Sur Logistica" and
    "Puerto Sur" are one)."""
    before, after = workplace_of(old), workplace_of(new)
    return before is not None and after is not None and not (_words(before) & _words(after))
