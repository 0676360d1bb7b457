"""Statements of who someone is: their name, age, work, home, studies, pastimes, languages, birthday.

A request to forget "that thing about my daughter" asks for her story to go, not for who she is. What stays must be
shown to be a profile statement, clause by clause ("My daughter Ella is 14 and loves netball", 我女儿叫小雨，今年上初二);
anything else about her ("My sister is pregnant", 我哥欠了别人二十万) is part of the story and goes. The shapes are
narrow on purpose: keeping a private story by mistake is worse than forgetting an age. Pure functions.
"""

from __future__ import annotations

import re

from memchat.memory.concepts import CONCEPTS, ancestors, concepts_in
from memchat.memory.distill import CN_RELATIVES, RELATIVES
from memchat.memory.slots import JOB_TITLES
from memchat.memory.timeexpr import MONTH_WORDS

_NUMBER = (r"\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
           r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety")
_NAME = r"(?-i:[A-Z][a-z]+)"
_PLACE = r"(?:the\s+)?(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*)){0,3}"
"""A place or an organisation by its name ("Leeds", "the Royal Infirmary"): "a strip club" or "a refuge" is no
statement of where someone lives or works."""
_WHEN = (rf"(?:now|today|this year|next (?:week|month|year)|in (?:{MONTH_WORDS})\w*|on (?:mon|tues|wednes|thurs|fri|satur|"
         rf"sun)day)")
_KINDS = r"(?:(?:little|big|older|younger|eldest|youngest|oldest|twin|baby|best|late|step)\s+)?"

_SUBJECT = re.compile(
    rf"^(?:(?:my|our|the user's|the user’s)\s+{_KINDS}(?:{RELATIVES})(?:,?\s+{_NAME},?)?"
    rf"|{_NAME}(?:,\s+(?:my|our|the user's)\s+{_KINDS}(?:{RELATIVES}),)?|he|she|they)(?:\s+|(?=['’]s\s))", re.IGNORECASE)
_BY_NAME = re.compile(rf"^{_NAME}(?:,\s+(?:my|our|the user's)\s+{_KINDS}(?:{RELATIVES}),)?(?:\s+|(?=['’]s\s))")
_OWNED = re.compile(r"^(?:'s|’s)\s+(?=birthday\b|name\b)", re.IGNORECASE)

_EN_PREDICATES = tuple(re.compile(p + r"$", re.IGNORECASE) for p in (
    rf"(?:is|'s|was|just turned|turned|turns|will be|is turning|'s turning)\s+(?:nearly\s+|almost\s+)?(?:{_NUMBER})"
    rf"(?:\s*(?:years?|yrs?|months?)(?:\s+old)?)?(?:\s+{_WHEN})?",
    rf"(?:is|'s)\s+an?\s+(?:{_NUMBER})[- ]year[- ]old",
    rf"(?:is|'s)\s+(?:called|named)\s+{_NAME}|goes\s+by\s+{_NAME}|(?:'s|’s)\s+name\s+is\s+{_NAME}|is\s+{_NAME}",
    rf"(?:is|'s|works as|is working as|trained as)\s+(?:an?\s+)?(?:(?:senior|junior|head|staff|trainee|qualified|"
    rf"primary|secondary|school|maths|science|english|music|nursery|dental|veterinary|software|civil|site)\s+){{0,2}}"
    rf"(?:{JOB_TITLES})(?:\s+(?:at|in|for)\s+{_PLACE})?",
    rf"(?:works|is working)\s+(?:at|for|in)\s+{_PLACE}",
    r"(?:works|is working)(?:\s+(?:nights|days|shifts|weekends|part-time|part time|full-time|full time|from home))+",
    r"(?:is|'s)\s+(?:retired|a student|self-employed|freelance|in (?:year|grade) \d{1,2})",
    rf"(?:lives|is living|'s living)\s+(?:in|near|outside|just outside)\s+{_PLACE}|lives\s+(?:nearby|next door|"
    rf"round the corner|with (?:me|us))",
    rf"(?:is|'s|comes)\s+from\s+{_PLACE}|(?:moved|has moved|'s moved)\s+to\s+{_PLACE}",
    rf"(?:studies|is studying|'s studying|is reading)\s+[a-z]+(?:\s+[a-z]+)?(?:\s+at\s+{_PLACE})?",
    rf"(?:is|'s)\s+(?:at|in)\s+(?:uni|university|college|school|primary|secondary|high school|nursery|sixth form)"
    rf"(?:\s+(?:in|at)\s+{_PLACE})?",
    rf"(?:goes to|started|has started|'s started)\s+(?:uni|university|college|school|nursery|{_PLACE}\s+(?:school|"
    rf"primary|academy|college|university))",
    r"speaks\s+[A-Za-z]+(?:\s+and\s+[A-Za-z]+)?",
    rf"was born\s+(?:in\s+{_PLACE}|on\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{MONTH_WORDS})\w*|in\s+(?:19|20)\d\d)",
))
_FAMILY_TIE = re.compile(rf"^(?:is|'s)\s+(?:my|our|the user's)\s+{_KINDS}(?:friend|mate|pal|colleague|neighbour|neighbor)"
                         rf"(?:\s+from\s+{_PLACE}|\s+from\s+(?:uni|school|work|college))?$", re.IGNORECASE)
"""Who a named person is to the user ("Ella is my best friend from uni"); never said of a relative ("My uncle is my
father" is a story)."""
_PASTIME = re.compile(r"^(?:loves|plays|enjoys|likes|is into|'s into|does|is mad about|'s mad about|adores|"
                      r"has taken up|took up)\s+(?:the\s+)?([a-z]+(?:\s+[a-z]+)?)$", re.IGNORECASE)
_BIRTHDAY = re.compile(rf"^birthday\s+is\s+(?:on\s+)?(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?:{MONTH_WORDS})\w*|"
                       rf"(?:{MONTH_WORDS})\w*\s+\d{{1,2}}(?:st|nd|rd|th)?)$", re.IGNORECASE)
_NOT_WORKING = re.compile(r"\b(?:unemployed|former|ex|struck|suspended|sacked|fired|disgraced|failed|out of work)\b",
                          re.IGNORECASE)

_CN_SUBJECT = re.compile(rf"^(?:用户的?|我们?的?)?(?:{CN_RELATIVES})|^(?:他|她)")
_CN_JOBS = (r"老师|教师|医生|护士|司机|工人|警察|会计|律师|记者|作家|厨师|学生|经理|主管|公务员|程序员|工程师|设计师|销售|"
            r"服务员|店员|职员|研究员|演员|飞行员|快递员|老板|教授|大夫|保安|电工|木匠|厨子|编辑|翻译")
_CN_PREDICATES = tuple(re.compile("^" + p + "$") for p in (
    r"叫[\u4e00-\u9fffA-Za-z]{1,3}(?<!了)",
    r"(?:今年)?(?:已经|快|都)?[0-9一二两三四五六七八九十]{1,3}(?:周)?岁(?:了|半)?",
    r"(?:今年)?(?:在)?(?:上|读|念)(?:小学|初中|高中|大学|幼儿园|中专|技校|初[一二三]|高[一二三]|大[一二三四]|研究生|研[一二三]|"
    r"博士|[一二三四五六]年级)(?:了)?",
    r"(?:在|于)[\u4e00-\u9fffA-Za-z0-9]{1,10}(?:工作|上班|上学|读书|念书|打工)(?:了)?",
    rf"(?:是|当|做)(?:一名|一个|个)?(?:[\u4e00-\u9fff]{{0,4}}?)(?:{_CN_JOBS})",
    r"住在[\u4e00-\u9fffA-Za-z]{1,8}|在[\u4e00-\u9fffA-Za-z]{1,8}住",
    r"(?:已经)?退休(?:了)?",
    r"(?:的)?生日(?:是|在)?[0-9一二三四五六七八九十]{1,2}月[0-9一二三四五六七八九十]{1,3}[号日]",
))
_CN_PASTIME = re.compile(r"^(?:很|特别|最)?(?:喜欢|爱|会|在学)(?:打|踢|弹|拉|跳|玩|游|唱|画|下|跑)?([\u4e00-\u9fff]{1,4})$")
_CN_PRIVATE = re.compile(r"院|所|狱|牢|毒|赌|犯|黑|失业|无业|残疾|离婚|病|戒|党|债|欠|骗|偷|抓|打|撞|欺负|怀孕|流产|人流")
"""Characters no profile statement needs: 住院 is a hospital stay, 戒毒所 a rehab centre, 黑社会老板 a gang boss."""

_CLAUSES = re.compile(r"\s*(?:[,;，；、]\s*(?:and\s+|but\s+)?|\s+and\s+|\s+but\s+|\s+who\s+|\s+which\s+|"
                      r"而且|并且|还)\s*", re.IGNORECASE)
_HOBBY_CONCEPTS = frozenset(c for c in CONCEPTS if "pastime" in {c, *ancestors(c)} or "languages" in {c, *ancestors(c)})
_PRIVATE = frozenset(c for c in CONCEPTS if {c, *ancestors(c)} & {"health", "money", "separation", "job loss",
                                                                  "gambling", "legal", "politics", "religion"})


def states_who(text: str) -> bool:
    """Every clause of `text` says who someone is: a name, an age, a job or workplace, a home, studies, a pastime,
    a language, a birthday ("My sister Anna lives in Leeds and works nights", 我老公叫大伟，在银行上班). One sentence,
    about one person: only its first clause names them. "My sister is pregnant", "My brother owes the bank thirty
    grand", "My daughter is 15 and he is 40" or 我女儿高考没考好 are not."""
    sentence = text.strip().rstrip(".!。！")
    if not sentence or re.search(r"[.!?。！？]\s*\S", sentence):
        return False
    if re.search(r"[\u4e00-\u9fff]", sentence):
        return _cn_states_who(sentence)
    clauses = [c for c in _CLAUSES.split(sentence) if c]
    opened = _SUBJECT.sub("", clauses[0], count=1)
    if opened == clauses[0] or any(_SUBJECT.match(c) for c in clauses[1:]):
        return False  # nobody named, or a second person ("…and he is 40")
    owned = _OWNED.sub("", opened, count=1)
    first_ok = bool(_BIRTHDAY.match(owned)) if owned != opened and owned.lower().startswith("birthday") else \
        _says_who(opened, named=bool(_BY_NAME.match(clauses[0])))
    return first_ok and all(_says_who(c, named=False) for c in clauses[1:])


def _says_who(predicate: str, *, named: bool) -> bool:
    predicate = predicate.strip()
    if _NOT_WORKING.search(predicate):
        return False
    if named and _FAMILY_TIE.match(predicate):
        return True
    if any(p.match(predicate) for p in _EN_PREDICATES):
        job_free = re.sub(rf"\b(?:{JOB_TITLES})\b", " ", predicate, flags=re.IGNORECASE)
        return not concepts_in(job_free) & _PRIVATE  # "is a lawyer" is a job; "works at the Police Station" too
    pastime = _PASTIME.match(predicate)
    return bool(pastime) and bool(concepts_in(pastime.group(1)) & _HOBBY_CONCEPTS) and not (
        concepts_in(pastime.group(1)) & _PRIVATE)


def _cn_states_who(sentence: str) -> bool:
    opened = _CN_SUBJECT.sub("", sentence, count=1)
    if opened == sentence or _CN_PRIVATE.search(opened) or concepts_in(opened) & _PRIVATE - {"legal"}:
        return False
    clauses = [c for c in _CLAUSES.split(opened) if c]
    if not clauses or any(_CN_SUBJECT.match(c) for c in clauses[1:]):
        return False  # 我女儿十五岁，男朋友三十岁: someone else's age
    return all(_cn_says_who(c) for c in clauses)


def _cn_says_who(clause: str) -> bool:
    clause = re.sub(r"^(?:现在|目前|今年|也|还)", "", clause)
    if any(p.match(clause) for p in _CN_PREDICATES):
        return True
    pastime = _CN_PASTIME.match(clause)
    return bool(pastime) and bool(concepts_in(pastime.group(0)) & _HOBBY_CONCEPTS)
