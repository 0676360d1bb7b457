"""What a retirement ends: the act ("sold", "gave up", 戒了) and the thing next to it.

"I sold the Niva" ends the Niva; "my phone died halfway through the run" ends no
running: only the words beside the act (three before it, four after; a Chinese
clause whole, its words being bigrams) can name what ended. The write path uses
this to give a retirement the key of the typed memory it ends; recall uses it to
make an earlier statement about that thing history when a later one ends it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memchat.memory.concepts import concepts_in
from memchat.memory.distill import RETIREMENT
from memchat.memory.people import parted_from
from memchat.memory.terms import STOPWORDS, has_cjk, query_terms, search_terms

RETIREMENT_WORDS = frozenset({"sold", "sell", "quit", "left", "stop", "stopp", "gave", "give", "longer", "anymore",
                              "more", "rid", "卖了", "不再", "user", "final", "finally", "really", "still", "never",
                              "again", "anyway", "today", "week", "month", "year", "last", "first", "before",
                              "after", "since", "because", "some", "every", "thing", "stuff", "一直", "以后", "已经",
                              "renew", "renewing", "didn", "folded", "stepped", "back", "down", "from", "came", "coming",
                              "good", "much", "shut", "closed", "disbanded", "dropped", "ditched", "broke", "split",
                              "packed", "jacked", "cancelled", "canceled", "membership", "subscription", "given",
                              "giving", "quitting", "retired", "died", "passed", "away", "buried", "sleep", "recovered",
                              "cured", "remission", "healed", "normal", "clear", "hand", "handed", "notic", "notice", "owner",
                              "stolen", "nick", "nicked", "written", "writ", "parted", "rehom", "ghost", "pack", "dropp",
                              "cancell", "cancel", "haven", "hasn", "hadn", "been", "sinc", "wasn", "weren", "didn",
                              "转手", "过户",
                              "报废", "被偷"})
"""Words a retirement shares with anything: the object it names must be something else."""
_ACT_ONLY = frozenset({"hom", "went", "gone", "forever", "loving", "let", "way", "part"})
"""Words that are the act itself when the act says them ("went to a new home", "let the ticket go") and may
be the very thing that ended anywhere else ("no longer work from home")."""


DYING = re.compile(r"died|passed away|buried|put (?:\w+ )?(?:down|to sleep)|去世|死了", re.IGNORECASE)
"""An ending that is a death: it ends a pet or a person, never a job, a home or a band."""
LIVING = frozenset({"pet", "relatives", "parents", "siblings", "children", "partner"})
"""Slots of the living: only dying ends them (the dog left with a neighbour for the weekend is still the user's)."""


HABIT_ENDED = re.compile(
    r"\b(?:don'?t|doesn'?t|do not|does not|never)\s+(?:\w+\s+)?(?:drink|eat|smoke|vape|play|go|use|drive|ride|take|"
    r"do|attend|teach|coach|run|swim|cycle|own|have|watch|wear|see)\b(?=[^.!?;,]*\b(?:any ?more|these days|nowadays)\b)"
    r"|\bno longer\s+(?:\w+\s+)?(?:drink|eat|smoke|vape|play|go|use|drive|ride|take|do|attend|teach|coach|run|swim|cycle|"
    r"own|have|watch|wear|see|work|live)\b"
    r"|\b(?:stopped|quit) (?:going|drinking|eating|smoking|vaping|playing|using|driving|riding|taking|doing|attending|"
    r"teaching|coaching|running|swimming|cycling|watching|seeing)\b"
    r"|不再|再也不|不(?:喝|吃|抽|去|玩|用|开|骑)(?:[\u4e00-\u9fffA-Za-z0-9]{1,6}?)?了",
    re.IGNORECASE,
)
"""A habit ended, in words that name what is no longer done ("I don't drink coffee anymore", "stopped going to
the gym", 再也不喝酒, 不喝喜茶了): an act for recall, though not a retiring event; for the write path it ends a
liking of the thing it names (see `writer._habits_ended`)."""
_TIMES_OF_WEEK = (r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|mornings?|evenings?|nights?|"
                  r"afternoons?|lunchtimes?")
_CN_TIME_OF_WEEK = r"(?:周|礼拜|星期|(?:[0-9]|[二三四五六七八九十两])点|早上|上午|中午|下午|晚上)"
RESCHEDULED = re.compile(
    rf"\b(?:has |have |'s |got |just )?(?:moved|changed|switched|shifted|swapped|gone)\s+(?:over\s+|back\s+)?to\s+"
    rf"(?:\w+\s+)?(?:{_TIMES_OF_WEEK}|\d{{1,2}}(?::\d\d)?\s*(?:am|pm))\b"
    rf"|\b(?:is|are)\s+now\s+(?:on|at|every)\s+(?:\w+\s+)?(?:{_TIMES_OF_WEEK}|\d{{1,2}}(?::\d\d\s*(?:am|pm)?|\s*(?:am|pm)))\b"
    rf"|(?:\b(?:is|are)\s+|'s\s+)(?:on|at|every)\s+(?:\w+\s+)?(?:{_TIMES_OF_WEEK})\s+now(?=\s*(?:[.,!;]|$))"
    rf"|(?:改成|改到|改在|挪到|换到|调到)(?=[^，。！？,]{{0,3}}{_CN_TIME_OF_WEEK})",
    re.IGNORECASE,
)
"""A regular thing moved to another day or time ("Book club has moved to Thursdays", 排练改成礼拜天下午了)."""
SCHEDULE = re.compile(rf"\b(?:{_TIMES_OF_WEEK}|every)\b|\b\d{{1,2}}(?::\d\d)?\s*(?:am|pm)\b|\bat \d{{1,2}}\b|每|"
                      r"(?:周|礼拜|星期)[一二三四五六日天]|(?:[0-9]|[二三四五六七八九十两])点(?![儿心])", re.IGNORECASE)
"""A statement that gives a regular thing its day or time: the schedule a reschedule replaces."""


@lru_cache(maxsize=4096)
def rescheduled_terms(text: str) -> frozenset[str]:
    """The words naming the regular thing a reschedule moves ("Book club" in "Book club has moved to
    Thursdays"); empty when the text moves nothing to another day or time."""
    found = set()
    for clause in re.split(r"(?<=[.!?。！？])\s*", text):
        act = RESCHEDULED.search(clause)
        if act:  # the thing's own words, short ones too ("five-a-side" is fiv, sid)
            named = re.split(_PAUSE, clause[:act.start()])[-1]
            found |= object_terms(named) | {t for t in query_terms(named) if len(t) == 3 and t.isalpha()}
    return frozenset(found)


STUDY_DONE = re.compile(
    r"\b(?:graduated|finished (?:my|the) (?:degree|course|studies|phd|masters|mba|diploma|apprenticeship)|"
    r"passed (?:my|the) viva|submitted (?:my|the) (?:thesis|dissertation))\b|毕业了|读完了|答辩通过",
    re.IGNORECASE,
)
"""Study that ended by being completed: it ends "I'm doing a PhD", not "I studied at Leeds"."""
STUDYING = re.compile(r"\bstudying\b|\b(?:I'm|I am|is) (?:a|an) (?:\w+ )?(?:student|undergrad|postgrad)\b|"
                      r"在读|正在读|读研|读博|读大[一二三四]|上大学", re.IGNORECASE)
"""Study going on, in words that say it is study."""
ONGOING = re.compile(r"\b(?:I'm|I am|I've been|currently|still) (?:doing|taking|enrolled)\b", re.IGNORECASE)
"""Something going on, study when the words of what is done are ("I'm doing a PhD")."""


def ends_study(ending: str, earlier: str) -> bool:
    """Whether `ending` completed the study `earlier` said was going on ("passed the viva" — "I'm doing a
    PhD"; "终于毕业了" — "我在读大三")."""
    return bool(STUDY_DONE.search(ending)) and bool(
        STUDYING.search(earlier) or ONGOING.search(earlier) and "education" in concepts_in(earlier))


_PAUSE = r"[,;:.!?，；：。！？、]"
_NOT_NAMES = frozenset({"The", "And", "But", "Our", "Her", "His", "She", "Yes", "Not", "Now", "Tbh", "Lol", "Had",
                              "Was", "Got", "Its", "For", "Too", "All", "Any", "One", "Two", "Who", "Why", "How", "Did",
                              "Then", "This", "That", "When", "What", "Also", "Just", "Well", "Anyway", "Today", "Yesterday",
                              "Finally", "Honestly", "Actually", "Sadly", "Last", "Since", "After", "Before", "Sooo", "Guess"})


_WHEN_IN_MONTH = re.compile(r"\b(?:in|since|from|until|till|by|last|next|this|early|late|mid|end of|start of)\s+"
                            r"(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept(?:ember)?|"
                            r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b", re.IGNORECASE)
_TIME_TERM = re.compile(
    r"^(?:yesterday|today|tonight|tomorrow|ago)$|^(?:上周|下周|这周|本周|上个|下个|个月|上月|下月|今年|去年|明年|前年|昨天|今天|"
    r"明天|前天|后天)$", re.IGNORECASE)
"""When, said relative to the day it was said, is no name of the thing: "上个月把电瓶车卖了" ends no
"上个月开始学游泳". A day or a season may be ("no more Tuesday yoga", 每周三的游泳不去了): those stay."""


def object_terms(text: str) -> set[str]:
    """The words that can name the thing a change or retirement is about ("the Niva", "尤克里里"); not when it
    happened ("last week", 上个月)."""
    return {t for t in query_terms(text) if (len(t) >= 4 or len(t) == 3 and concepts_in(t) or (has_cjk(t) and len(t) == 2))
            and t not in RETIREMENT_WORDS and t not in _NO_THING and not _TIME_TERM.search(t)}


_NO_THING = frozenset({"their", "用户", "改到", "改成", "换成", "换到", "搬到", "转到", "调到", "挪到", "现在", "over",
                       "about", "around", "after", "before", "under", "since", "still", "just", "really", "very", "back",
                       "into", "onto", "from", "with", "then", "there", "here", "also", "even", "altogether",
                       "completely", "entirely", "totally", "finally", "officially"})
"""Words that name no thing — a change (改到), a preposition: "she's a pharmacist over there" and "150 over 95" share
none."""


_PRONOUN_OBJECT = re.compile(r"^\S*(?:\s+\S+)?\s+(?:it|them|that)\b|\b(?:it|them|that) (?:in|up|away|go)\b", re.IGNORECASE)
"""An act whose object is a pronoun ("packed it in", "sold it", "gave them away"): the thing was named before."""


def retired_terms(clause: str, acts: re.Pattern[str] = RETIREMENT) -> set[str]:
    """The words naming what this clause's retirement ends; empty when it has none or names nothing.
    `acts`: which retirements count (all of them, or only acts: `distill.RETIRING_ACT`)."""
    act = acts.search(clause)
    if act is None:
        return set()
    before = re.split(_PAUSE, clause[:act.start()])[-1]
    after = re.split(_PAUSE, clause[act.end():])[0]  # "gave the allotment up, too much work"
    if has_cjk(clause):  # "痛风又犯了，…辣椒基本戒了": the chilli, not the gout
        return object_terms(before + act.group(0) + after)
    after = _WHEN_IN_MONTH.sub(" ", after)  # "split up in May": when, not what ended (nor a birthday in May)
    doer = re.search(r"\b([A-Z][a-z]{2,})(?:'s|’s| has| had| is| was)(?:\s+\w+ly)?\s*$", before)  # "Callum's packed in
    if doer and object_terms(" ".join(after.split()[:4])):  # the football": who stopped, not what; alone ("Gillian
        before = before[:doer.start()]  # has left") they are what ended: their place in the user's life
    window = " ".join([*before.split()[-3:], act.group(0), *after.split()[:4]])  # "gave the allotment up": inside
    if _PRONOUN_OBJECT.search(act.group(0) + after) and not object_terms(window):
        said_before = clause[:act.start()]  # "I haven't been climbing since the injury, I've packed it in"
        return object_terms(said_before) & set(search_terms(said_before, drop_stopwords=True))
    names = {t for w in re.findall(r"\b[A-Z][a-z]{2,}\b", window) if w not in _NOT_NAMES
             and w.lower() not in STOPWORDS for t in search_terms(w)}
    acted = set(search_terms(act.group(0)))
    if acts is not HABIT_ENDED:
        acted &= _ACT_ONLY
    else:  # "stopped going to the gym": the doing is the act, the short thing after it what ended
        names |= {t for t in query_terms(" ".join(after.split()[:4])) if len(t) == 3 and t not in STOPWORDS}
    names |= {t for name in parted_from(clause) if not has_cjk(name) for t in search_terms(name)}  # "me and ola split up"
    # "Dan and I broke up", "left St Anne's": a name is a thing
    return (object_terms(window) | {n for n in names - RETIREMENT_WORDS if not _TIME_TERM.search(n)}) - acted
