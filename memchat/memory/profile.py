"""Statements of who someone is: their name, age, work, home, studies, pastimes, languages, birthday.

A request to forget "that thing about my daughter" asks for her story to go, not for who she is. What stays must be
shown to be a profile statement, clause by clause ("My daughter Ella is 14 and loves netball", 我女儿叫小雨，今年上初二);
anything else about her ("My sister is pregnant", 我哥欠了别人二十万) is part of the story and goes. Pure functions.
"""

from __future__ import annotations

import re

from memchat.memory.concepts import CONCEPTS, ancestors, concepts_in
from memchat.memory.distill import CN_RELATIVES, RELATIVES
from memchat.memory.slots import JOB_TITLES

_NUMBER = (r"\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
           r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety")
_NAME = r"(?-i:[A-Z][a-z]+)"
_KINDS = r"(?:(?:little|big|older|younger|eldest|youngest|oldest|twin|baby|best|late|step)\s+)?"

_SUBJECT = re.compile(
    rf"^(?:(?:my|our|the user's|the user’s)\s+{_KINDS}(?:{RELATIVES})(?:,?\s+{_NAME},?)?"
    rf"|{_NAME}(?:,\s+(?:my|our|the user's)\s+{_KINDS}(?:{RELATIVES}),)?|he|she|they)(?:\s+|(?=['’]s\s))", re.IGNORECASE)
_OWNER = re.compile(rf"^(?:my|our|the user's|the user’s)\s+{_KINDS}(?:{RELATIVES})(?:'s|’s)\s+|^(?!(?:he|she|it|that|there|what|who)\b){_NAME}(?:'s|’s)\s+",
                    re.IGNORECASE)

_FREE = r"[\w' .-]{1,40}"
_EN_PREDICATES = tuple(re.compile(p + r"$", re.IGNORECASE) for p in (
    rf"(?:is|'s|was|just turned|turned|turns|will be|is turning|'s turning)\s+(?:nearly\s+|almost\s+)?(?:{_NUMBER})"
    rf"(?:\s*(?:years?|yrs?|months?)(?:\s+old)?)?(?:\s+(?:now|today|this year|next \w+|in \w+|on \w+))?",
    rf"(?:is|'s)\s+an?\s+(?:{_NUMBER})[- ]year[- ]old(?:\s+\w+)?",
    rf"(?:is|'s)\s+(?:called|named)\s+{_NAME}|goes\s+by\s+{_NAME}",
    rf"(?:is|'s)\s+(?:my|our|the user's)\s+{_KINDS}(?:{RELATIVES}|mate|pal)(?:\s+(?:from|since)\s+{_FREE})?",
    rf"(?:is|'s|works as|worked as|is working as|trained as)\s+(?:an?\s+)?(?:[\w-]+\s+){{0,2}}(?:{JOB_TITLES})s?"
    rf"(?:\s+(?:at|in|for)\s+{_FREE})?",
    rf"(?:works|worked|is working)\s+(?:at|for|in|from)\s+{_FREE}",
    r"(?:works|is working)(?:\s+(?:nights|days|shifts|weekends|part-time|part time|full-time|full time|from home))+",
    r"(?:is|'s)\s+(?:retired|a student|self-employed|freelance|in (?:year|grade) \d{1,2})",
    rf"(?:lives|lived|is living|'s living)\s+(?:in|at|near|round|outside|just outside|with|by)\s+{_FREE}",
    rf"(?:is|'s|comes)\s+from\s+{_FREE}|(?:moved|has moved|'s moved)\s+to\s+{_FREE}",
    rf"(?:studies|is studying|'s studying|is doing|'s doing|is reading)\s+[\w' -]{{1,30}}(?:\s+at\s+{_FREE})?",
    rf"(?:is|'s)\s+(?:at|in)\s+(?:uni|university|college|school|primary|secondary|high school|nursery|sixth form)"
    rf"(?:\s+(?:in|at)\s+{_FREE})?",
    rf"(?:goes to|started|has started|'s started)\s+(?:uni|university|college|school|nursery|{_FREE}\s+school)",
    r"(?:speaks|is learning|'s learning)\s+[\w ,]{1,40}",
    rf"(?:is|'s)\s+married(?:\s+to\s+{_NAME})?|(?:is|'s)\s+engaged(?:\s+to\s+{_NAME})?",
    rf"(?:was born|is born)\s+(?:in|on)\s+{_FREE}",
))
_PASTIME = re.compile(r"^(?:loves|plays|enjoys|likes|is into|'s into|does|is mad about|'s mad about|adores|collects|"
                      r"goes|is learning|'s learning|has taken up|took up|teaches)\s+(?:the\s+)?(.{1,30})$", re.IGNORECASE)
_BIRTHDAY = re.compile(r"^birthday\s+is\s+(?:on\s+)?[\w ,]{1,20}$", re.IGNORECASE)

_CN_SUBJECT = re.compile(rf"^(?:用户的?|我们?的?)?(?:{CN_RELATIVES})|^(?:他|她)")
_CN_PREDICATES = tuple(re.compile("^" + p + "$") for p in (
    r"叫[\u4e00-\u9fffA-Za-z]{1,4}",
    r"(?:今年)?(?:已经|快|都)?[0-9一二两三四五六七八九十]{1,3}(?:周)?岁(?:了|半)?",
    r"(?:今年)?(?:在)?(?:上|读|念)(?:小学|初中|高中|大学|幼儿园|中专|技校|初[一二三]|高[一二三]|大[一二三四]|研究生|研[一二三]|"
    r"博士|[一二三四五六]年级)(?:了)?",
    r"(?:在|于)[\u4e00-\u9fffA-Za-z0-9]{1,10}(?:工作|上班|上学|读书|念书|打工|做事)(?:了)?",
    r"(?:是|当|做)(?:一名|一个|个)?[\u4e00-\u9fff]{0,6}(?:师|员|医生|护士|司机|工人|警察|会计|律师|记者|作家|厨师|学生|老板|"
    r"经理|主管|公务员|程序员|工程师)",
    r"(?:住在|住)[\u4e00-\u9fffA-Za-z]{1,8}|在[\u4e00-\u9fffA-Za-z]{1,8}住",
    r"是[\u4e00-\u9fff]{1,6}(?<![病坏好穷罪犯情爱])人",
    r"(?:已经)?退休(?:了)?",
    r"(?:的)?生日(?:是|在)?[0-9一二三四五六七八九十月号日初]{2,10}",
))
_CN_PASTIME = re.compile(r"^(?:很|特别|最)?(?:喜欢|爱|会|在学)(?:打|踢|弹|拉|跳|玩|游|唱|画|下|跑)?([\u4e00-\u9fff]{1,4})$")

_CLAUSES = re.compile(r"\s*(?:[,;，；、]\s*(?:and\s+|but\s+)?|\s+and\s+|\s+but\s+|\s+who\s+|\s+which\s+|"
                      r"而且|并且|还)\s*", re.IGNORECASE)
_HOBBY_CONCEPTS = frozenset(c for c in CONCEPTS if "pastime" in {c, *ancestors(c)} or "languages" in {c, *ancestors(c)})
_PRIVATE = frozenset(c for c in CONCEPTS if {c, *ancestors(c)} & {"health", "money", "separation", "job loss",
                                                                  "gambling", "legal", "politics", "religion"})


def states_who(text: str) -> bool:
    """Every clause of `text` says who someone is: a name, an age, a job or workplace, a home, studies, a pastime,
    a language, a birthday ("My sister Anna lives in Leeds and works nights", 我老公叫大伟，在银行上班). One sentence only;
    "My sister is pregnant", "My brother owes the bank thirty grand" or 我女儿高考没考好 are not."""
    sentence = text.strip().rstrip(".!。！")
    if not sentence or re.search(r"[.!?。！？]\s*\S", sentence):
        return False
    if re.search(r"[\u4e00-\u9fff]", sentence):
        return _cn_states_who(sentence)
    clauses = [c for c in _CLAUSES.split(sentence) if c]
    first = _OWNER.sub("", clauses[0], count=1)
    if first != clauses[0]:
        return bool(_BIRTHDAY.match(first)) and all(_says_who(c) for c in clauses[1:])
    opened = _SUBJECT.sub("", clauses[0], count=1)
    return opened != clauses[0] and all(_says_who(c) for c in [opened, *clauses[1:]])


def _says_who(clause: str) -> bool:
    predicate = _SUBJECT.sub("", clause.strip(), count=1)
    if any(p.match(predicate) for p in _EN_PREDICATES):
        return not concepts_in(predicate) & _PRIVATE or bool(re.match(r"(?:is|'s|works as)\s", predicate))
    pastime = _PASTIME.match(predicate)
    return bool(pastime) and bool(concepts_in(pastime.group(1)) & _HOBBY_CONCEPTS)


def _cn_states_who(sentence: str) -> bool:
    opened = _CN_SUBJECT.sub("", sentence, count=1)
    if opened == sentence:
        return False
    clauses = [c for c in _CLAUSES.split(opened) if c]
    return bool(clauses) and all(_cn_says_who(_CN_SUBJECT.sub("", c, count=1)) for c in clauses)


def _cn_says_who(clause: str) -> bool:
    clause = re.sub(r"^(?:现在|目前|今年|也|还)", "", clause)
    if any(p.match(clause) for p in _CN_PREDICATES):
        return True
    pastime = _CN_PASTIME.match(clause)
    return bool(pastime) and bool(concepts_in(pastime.group(0)) & _HOBBY_CONCEPTS)
