"""A question about two things asks two questions. Pure.

"Where do I live and who do I work for?" is two look-ups: one embedding of the whole
question lands between the two answers and finds neither well. Recall embeds the
whole question and each part, and a memory counts as relevant to the part it
matches best (its `group`), so the answer to each part is judged against the best
answer to that same part.
"""

from __future__ import annotations

import re

_SPLIT = re.compile(r"\s*(?:,?\s+\band\b(?!\s+(?:I|me)\b)\s+|\s*&\s*|[,，、;；]\s*(?:and\s+)?|(?:和|跟)(?![我你他她](?![的哥姐弟妹爸妈老儿女家]))|以及|还有|"
                    r"(?<=[？?])(?=\s*\S))\s*", re.IGNORECASE)
"""Where a compound question's parts meet: "and", a comma, 和, or the mark of a first question before a second
("我姐住哪？我侄子几岁了？"). 和/跟 before a bare pronoun is "with": "阿杰什么时候跟我借的车？" (but "我姐和我哥" is two people)."""
_WORD = re.compile(r"[^\W\d_]{2,}|[\u3400-\u9fff]")


def _substantial(part: str) -> bool:
    cjk = len(re.findall(r"[\u3400-\u9fff]", part))
    return cjk >= 2 or len(_WORD.findall(part)) >= 2


def sub_queries(query: str) -> list[str]:
    """The parts of a compound question, or [] when it asks one thing."""
    parts = [p.strip(" ?？.!") for p in _SPLIT.split(query.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2 or not all(_substantial(p) for p in parts):
        return []
    return _shared_frame(parts[:4])


_ENDS_IN_SUBJECT = re.compile(r"^(?:what|where|who|when|which|how)\b.*?\b(?P<np>(?:my|our|the) (?:[a-z-]+ )?[a-z-]+(?:'s|s')?"
                              r"|(?-i:[A-Z][a-z]+)(?:'s|s')?)$", re.IGNORECASE)
_OPENS_WITH_SUBJECT = re.compile(r"^(?:my|our|the|(?-i:[A-Z][a-z]+))\b", re.IGNORECASE)
_LEADING_SUBJECT = re.compile(r"^(?:(?:my|our|the) (?:[a-z-]+ )?[a-z-]+(?:'s|s')(?=\s)|(?:my|our|the) [a-z-]+"
                              r"|(?-i:[A-Z][a-z]+)(?:'s|s')?)", re.IGNORECASE)
"""The subject a part opens with: through its possessive ("my older sister's"), else "my sister" or a name."""
_PREPOSITION = re.compile(r"^(?:at|in|for|with|from|on|to)\s", re.IGNORECASE)
_CN_EACH = re.compile(r"(?:分别|各自|各)(.+)$")
_CN_ASKS = re.compile(r"什么|啥|哪|谁|几|多少|怎么")


def _shared_frame(parts: list[str]) -> list[str]:
    """Give every part the words the parts share: "What are my sister's and my girlfriend's names?" asks
    "my sister's names"; "What do my sister and my girlfriend do for work?" asks what my sister does for
    work; "my workmates at Kaweka and at Tarawera" asks about both places; "我弟弟和弟媳分别叫什么" asks
    what each is called."""
    first, last = parts[0], parts[-1]
    if _PREPOSITION.match(last):  # "…my workmates at Kaweka and at Tarawera"
        frame = re.sub(r"\s+(?:at|in|for|with|from|on|to)\s+[^\s].*$", "", first, flags=re.IGNORECASE)
        return [first, *parts[1:-1], f"{frame} {last}"] if frame != first else parts
    each = _CN_EACH.search(last)
    if each:  # "我弟弟和弟媳分别叫什么"
        return [p if _CN_ASKS.search(p) else p + each.group(1) for p in parts[:-1]] + [_CN_EACH.sub(r"\1", last)]
    heads = [_ENDS_IN_SUBJECT.match(p) for p in parts[:-1]]
    subject = _LEADING_SUBJECT.match(last)
    if all(heads) and subject:  # "What do my niece and my nephew study?"
        predicate = last[subject.end():].strip()  # what follows the last part's own subject is shared
        if predicate and not _OPENS_WITH_SUBJECT.match(predicate):
            return [f"{p} {predicate}" for p in parts[:-1]] + [last]
    return parts


_OPEN_EN = re.compile(r"\b(?:what|what's|whats|where|where's|who|who's|whom|whose|which|when|how|name|list|tell me)\b",
                      re.IGNORECASE)
_CLOSED_EN = re.compile(r"^\s*(?:do|does|did|am|is|are|was|were|have|has|had|can|could|should|will|would|shall)\b",
                        re.IGNORECASE)
_OPEN_ZH = re.compile(r"什么|啥|哪|谁|几|多少|多久|多大|多长|多远|怎么|怎样|如何|干嘛|咋")
_CLOSED_ZH = re.compile(r"[吗嘛][？?。.!！\s]*$|是不是|有没有|会不会|能不能|对不对")


def is_open_question(query: str) -> bool:
    """Whether a question asks for a value ("Where do I live?", "我的猫叫什么？") rather than whether
    a given one holds ("Do I play the guitar?", "我对花生过敏吗？"). Only an open question is answered
    by whatever fills the slot it asks for; a closed one names its own answer, unless it offers a
    choice ("Do I prefer short or long answers?")."""
    if _CLOSED_ZH.search(query):
        return False
    if _CLOSED_EN.search(query):  # "Do I prefer X or Y?" asks which one: open
        return bool(re.search(r"\bor\b", query, re.IGNORECASE))
    return bool(_OPEN_EN.search(query) or _OPEN_ZH.search(query))
