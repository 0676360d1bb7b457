"""The user's own age, said in passing while introducing themselves. Pure functions.

People rarely say "I'm 34." on its own line; they say it beside their name or their job: "I'm Dougal, 47, I live in
Portree", "i'm Ros, Ros to everyone but my mum, 41, and…", "I'm a 29-year-old nurse", 我叫美玲，今年34，在杭州当老师.
The age slot's own patterns read a clause that is only an age; this reads an age said inside a longer introduction, so
"How old am I?" finds it as an age rather than as part of a name.
"""

from __future__ import annotations

import re

from memchat.memory.timeexpr import cn_number

_AGE = r"(1[3-9]|[2-9]\d)"
"""An adult's or a teenager's age: "I'm Kai, 7" is rarer than "I'm on floor 7", so young ages are not read."""
_AFTER = r"(?=\s*(?:[,.!;:)]|$|\s+(?:and|but|from|in|living|living in|originally|here|years?\s+old|yrs?\s+old)\b|\s*y/?o\b))"
"""What follows an age said in apposition: a comma or the end of the clause, or the introduction going on."""
_NAME = r"(?-i:[A-Z][\w'’-]+)(?:\s+(?-i:[A-Z][\w'’-]+))?"
_ASIDE = r"(?:[^,.!?\d]{1,60},\s*)?"
"""One short aside between the name and the age ("Ros to basically everyone except my mum,")."""

_EN_SHAPES = tuple(re.compile(shape, re.IGNORECASE) for shape in (
    rf"\b(?:i'?m|i am|my name is|my name's|name's)\s+{_NAME}\s*(?:\([^)]*\))?,\s*{_ASIDE}{_AGE}{_AFTER}",
    rf"\b(?:i'?m|i am)\s+(?:an?\s+)?{_AGE}[- ](?:years?|yrs?)[- ]old\b",
    rf"\b(?:i'?m|i am)\s+{_AGE}\s*(?:,|\s+and\b)",
    rf"\bi'?m\s+(?:an?\s+)?{_AGE}\s*y/?o\b",
    rf"\b(?:i'?m|i am)\s+aged\s+{_AGE}\b",
))
_CN_AGE = r"(\d{2}|[一二三四五六七八九]?十[一二三四五六七八九]?)"
_CN_AFTER = r"(?:岁|周岁)?(?:了)?(?=[，,。！!；;、\s]|$)"
_CN_SHAPES = tuple(re.compile(shape) for shape in (
    rf"我(?:叫|是)[\u4e00-\u9fffA-Za-z]{{1,6}}[，,、\s]+(?:今年)?{_CN_AGE}{_CN_AFTER}",
    rf"(?:^|[，,。！!\s])我今年{_CN_AGE}{_CN_AFTER}",
    rf"(?:^|[，,。！!\s])我{_CN_AGE}(?:岁|周岁){_CN_AFTER}",
))


def age_in_introduction(sentence: str) -> int | None:
    """The age the user gives themselves in `sentence`, or None. Someone else's age ("my mum is 84", 我妈今年84)
    is not the user's; an age said of someone named ("Tom, 34, my cousin") is no introduction of the user."""
    for shape in _EN_SHAPES:
        found = shape.search(sentence)
        if found:
            return int(next(g for g in found.groups() if g))
    for shape in _CN_SHAPES:
        found = shape.search(sentence)
        if found:
            value = found.group(1)
            age = int(value) if value.isdigit() else cn_number(value)
            return age if 13 <= age <= 99 else None
    return None


def age_statement(age: int, chinese: bool) -> str:
    """The memory's sentence: one third-person fact, in the language it was said in."""
    return f"用户今年{age}岁。" if chinese else f"The user is {age}."
