"""Search terms for the FTS5 keyword index, in English and Chinese alike.

SQLite's `unicode61` tokenizer splits on spaces and punctuation, which leaves a
run of Chinese characters as one giant token. So memchat stores, beside each
memory, a `search_terms` string where Latin words are lower-cased and CJK runs
are spelled out as overlapping character bigrams plus the single characters
that carry meaning ("我不吃香菜" → "我不 不吃 吃香 香菜 不 吃 香 菜"). The query gets
the same treatment, so a two-character word matches wherever it appears, and a
paraphrase that shares only a character or two ("爱喝…茶" vs "喜欢喝乌龙茶") still
scores. Pure functions.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_PIECES = re.compile(rf"[{_CJK}]+|(?:(?![{_CJK}])[^\W_])+", re.UNICODE)
"""A run of CJK characters, or a run of other letters and digits: "9号去了医院" is "9" and "号去了医院", never one
token that no word of it could match."""
_IS_CJK = re.compile(rf"[{_CJK}]")

STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "but", "by", "do", "does", "did", "for", "from", "has", "have", "how", "i", "i'm", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "so", "that", "the", "their", "them", "there", "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your", "about", "can", "could", "would", "should", "tell", "know", "remember", "again", "any",
     # the frame of a question, not what it asks about: "what's my cat called?" asks about a cat
     "called", "name", "names", "named", "call",
     # when the thing holds, not what it is: "where do I usually swim these days?"
     "usually", "normally", "generally", "currently", "nowadays", "still", "ever", "anymore", "these", "days",
     # who or what in general: "am I studying anything?" asks about studying
     "am", "anything", "something", "everything", "anyone", "anybody", "someone", "somebody"]
)
QUESTION_FRAMES = re.compile(r"多大岁数|多大年纪|年纪多大|多少岁|几岁|岁数|年纪|多大"
                             r"|叫什么名字|叫什么|叫啥|名字|是谁|什么时候|啥时候|哪天|几号|几月|哪年|哪里|哪儿|什么|怎么|多少"
                             r"|哪[个家所座种些位]|有啥|啥子|啥"
                             r"|一般|平时|平常|通常|经常|现在|目前|最近|每天|总是|应该|需要|可以")
"""Chinese question frames and the adverbs and modals around them ("一般", "现在", "应该"), dropped from a query
before its terms are taken, like English stopwords. An age is asked in words its answer never holds
("我妈多大岁数了？" — "她84了")."""


_ANSWER_TYPE = re.compile(
    r"(\b(?:which|what|whose)\s+(?:(?!(?:do|does|did|is|are|was|were|can|could|will|would|should|has|have|had)\b)"
    r"[a-z]+\s+)?)(?:city|town|village|country|place|area|neighbou?rhood|suburb|district|"
    r"street|company|firm|organi[sz]ation|school|university|college|hospital|day|month|year|date|time|kind|sort|type|"
    r"breed|colou?r|brand|model|number)\b"
    r"|((?:哪|啥|什么)(?:个|家|所|座|种|些|位)?)(?:城市|国家|地方|公司|单位|学校|大学|医院|品种|牌子|颜色|时候)",
    re.IGNORECASE,
)
"""The kind of answer a question wants ("which *city*", "what *company*", "哪家*公司*"): the memory that answers
names the city, not the word "city", so the word is no search term."""


def without_answer_types(question: str) -> str:
    return _ANSWER_TYPE.sub(lambda m: (m.group(1) or m.group(2)) + " ", question)


_IDIOMS = ((re.compile(r"\b(?:for|make|makes|making|earn|earns|earning) (?:a|my|their|his|her) living\b", re.I), "for work"),
           (re.compile(r"\bcall (?:home|it home)\b", re.I), "live"),
           (re.compile(r"\bhow old\b", re.I), "how"))
"""Set phrases whose words belong to another concept: "what do I do for a living?" asks about work, not home;
"how old is Tariq?" asks for a number, never the word "old"."""


def plain_idioms(text: str) -> str:
    for idiom, meaning in _IDIOMS:
        text = idiom.sub(meaning, text)
    return text


CJK_STOP_CHARS = frozenset("我你他她它们的了是在吗呢吧啊呀什么哪里谁怎样几个有和都也就还要会能说过这那些一用户")
"""Characters too common to mean anything alone (用户, "the user", starts every stored memory)."""


CJK_PARTICLES = frozenset("的了吗呢吧啊呀么我你他她它们是在和都也就谁哪什怎几")
"""Particles, pronouns and question words: a query's bigram that holds one spans two words."""


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _cjk_terms(run: str, drop_stopwords: bool) -> list[str]:
    grams = _bigrams(run) if len(run) > 1 else []
    if drop_stopwords:  # a query's bigram across a particle or pronoun ("的猫", "在哪") is two words' edges
        grams = [g for g in grams if not any(c in CJK_PARTICLES for c in g)]
    return grams + [c for c in run if c not in CJK_STOP_CHARS]


def stem(word: str) -> str:
    """A light English suffix strip so "lives", "lived" and "live" meet in the index."""
    if len(word) < 4 or not word.isascii() or not word.isalpha():
        return word
    for suffix in ("ies", "ing", "ed", "s"):
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def search_terms(text: str, *, drop_stopwords: bool = False) -> list[str]:
    """Index terms of `text`: lower-cased, lightly stemmed words and CJK bigrams, in order."""
    terms: list[str] = []
    for piece in _PIECES.findall(text.lower()):
        if _IS_CJK.match(piece):
            terms.extend(_cjk_terms(piece, drop_stopwords))
        elif not (drop_stopwords and (piece in STOPWORDS or len(piece) < 2)):
            terms.append(stem(piece))
    return terms


USER_TERMS = frozenset(search_terms("the user user's their they 用户"))
"""The index terms a typed memory names the user by ("The user's …"): no word of what it says."""


def query_terms(text: str) -> list[str]:
    """The meaningful, de-duplicated terms of a query."""
    return list(_query_terms(text))


@lru_cache(maxsize=1024)
def _query_terms(text: str) -> tuple[str, ...]:
    plain = QUESTION_FRAMES.sub(" ", without_answer_types(plain_idioms(text)))
    return tuple(dict.fromkeys(search_terms(plain, drop_stopwords=True)))


@lru_cache(maxsize=16384)
def term_set(text: str) -> frozenset[str]:
    """The index terms of a stored text, as a set: recall compares every candidate's with the query's,
    and the same memories come back turn after turn."""
    return frozenset(search_terms(text))


def index_text(text: str) -> str:
    return " ".join(search_terms(text))


def has_cjk(text: str) -> bool:
    return bool(_IS_CJK.search(text))


def is_single_cjk(term: str) -> bool:
    return len(term) == 1 and bool(_IS_CJK.match(term))
