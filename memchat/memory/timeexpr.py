"""Relative time expressions resolved against the message's own time. Pure functions.

"Last Friday I ran my first half marathon", said on Monday 2026-03-16, happened on
2026-03-13 — and stays 2026-03-13 when the memory is recalled a year later. The
table below finds expressions (one pattern per line, English and Chinese; each
entry's example doubles as its test); Chinese ones are rewritten into the English
phrase they mean, and `dateparser` resolves those against the message time. Month
and year names are resolved here: dateparser reads "in March" as a day of the
current month.

The result carries its grain (day, week, month, year) so a prompt says "2026-03"
for "in March", not a day nobody said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from memchat.memory.terms import has_cjk
from memchat.types import format_day

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
MONTH_WORDS = "|".join(MONTHS) + "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
"""Month names and their short forms, as one regex alternation."""
_WEEKDAY_ALT = ("monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|tue|weds|wed|thurs|thur|thu|fri|"
                r"sat(?!\s*(?:nav|phones?)\b)")
"""Weekdays, with the short forms people type ("last Sat") but not "sun" or "mon" ("on sun loungers") nor a sat nav."""
_WEEKDAY_SHORT = {"tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "weds": "wednesday", "thu": "thursday",
                  "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday"}
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)"
_NOT_A_DAY_AFTER = (r"(?!\s+(?:floor|time|times|try|attempt|go|day|week|hole|lap|round|birthday|anniversary|place|"
                    r"grade|year|century|row|page|step|mile|edition|generation|minute|gear|draft|version|street|avenue|"
                    r"book|episode|season|chapter|level|person|one|pick|seed|choice|in line|shelf|green|tee|trimester|beer|pint|drink|"
                    r"glass|seat|stop|ball|inning|set|verse|line|note|bar|amendment|lesson|test|match|game|goal|"
                    r"grader|graders|leg|stage|half|quarter|course|option|bus|train|bottle|cup)\b)")
""""The 3rd floor", "the 5th time": an ordinal that counts something, not a day of the month."""
_HOLIDAYS = {"christmas eve": (12, 24), "christmas day": (12, 25), "christmas": (12, 25), "xmas": (12, 25),
             "boxing day": (12, 26), "new year's eve": (12, 31), "hogmanay": (12, 31), "new year's day": (1, 1),
             "halloween": (10, 31), "valentine's day": (2, 14), "bonfire night": (11, 5),
             "圣诞节": (12, 25), "圣诞": (12, 25), "元旦": (1, 1), "国庆": (10, 1), "情人节": (2, 14), "万圣节": (10, 31),
             "劳动节": (5, 1), "五一": (5, 1)}
"""Holidays on the same day every year; Easter is reckoned (`dateutil.easter`). Lunar ones (春节, Diwali) are not."""
_HOLIDAY_ALT = "|".join(re.escape(h) for h in sorted((h for h in _HOLIDAYS if not has_cjk(h)), key=len, reverse=True))
_CN_HOLIDAY_ALT = "|".join(sorted((h for h in _HOLIDAYS if has_cjk(h)), key=len, reverse=True))
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "few": 3}
_NUM_ALT = r"\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a few"
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_CN_WEEKDAYS = {"一": "monday", "二": "tuesday", "三": "wednesday", "四": "thursday", "五": "friday", "六": "saturday",
                "日": "sunday", "天": "sunday"}
_CN_NUM = r"[0-9一二两三四五六七八九十]{1,3}"


@dataclass(frozen=True)
class TimeRule:
    name: str
    pattern: str
    grain: str
    example: str


# What each kind of expression looks like; `resolve_match` turns a match into a date.
TIME_RULES: tuple[TimeRule, ...] = (
    TimeRule("iso_date", r"\b(20\d\d)-(\d\d)-(\d\d)\b", "day", "on 2026-03-14"),
    TimeRule("day_before_yesterday", r"\bthe day before yesterday\b", "day", "the day before yesterday"),
    TimeRule("day_after_tomorrow", r"\bthe day after tomorrow\b", "day", "the day after tomorrow"),
    TimeRule("before_last", r"\bthe (week|weekend) before last\b", "day", "the weekend before last"),
    TimeRule("yesterday", r"\byesterday\b|\blast night\b", "day", "yesterday we went out"),
    TimeRule("today", r"\btoday\b|\btonight\b|\bthis (?:morning|afternoon|evening)\b", "day", "this morning I fell"),
    TimeRule("tomorrow", r"\btomorrow\b", "day", "tomorrow I fly"),
    TimeRule("weekday", rf"\b(?:(last|this|next|on|this past|this coming) )({_WEEKDAY_ALT})\b", "day",
             "last Friday I ran"),
    TimeRule("ago", rf"\b({_NUM_ALT}) (day|week|fortnight|month|year)s? ago\b", "day", "two weeks ago we moved"),
    TimeRule("in_future", rf"\bin ({_NUM_ALT}) (day|week|fortnight|month|year)s?\b", "day", "in two weeks I start"),
    TimeRule("month_day", rf"\b(?:on )?({MONTH_WORDS})\.? (\d{{1,2}})(?:st|nd|rd|th)?\b", "day", "on March 14th"),
    TimeRule("day_month", rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({MONTH_WORDS})\b", "day", "the 14th of March"),
    TimeRule("day_of_month", rf"\b(?:(?:on|by|from|until|till|since|before|after|around) the {_ORDINAL}\b"
             rf"(?: of (this|last|next) month)?{_NOT_A_DAY_AFTER}|the {_ORDINAL}(?=\s*(?:[.,!?;)]|$|and\b|but\b)))",
             "day", "we got the keys on the 9th"),
    TimeRule("holiday", rf"\b(?:at|over|on|for|since|after|before|this|last|next|spent|during|until|till|by)\s+"
             rf"(?:the\s+)?({_HOLIDAY_ALT}|easter)\b(?!\s+(?:island|eggs?|trees?|jumpers?|costumes?|cards?|music|films?|"
             r"movies?|lights|market|songs?|present|presents|shopping|list)\b)", "day", "over Christmas"),
    TimeRule("relative_unit", r"\b(last|this|next) (week|weekend|month|year|summer|winter|spring|autumn|fall)\b",
             "unit", "next month I'm flying"),
    TimeRule("month_name", rf"\b(?:in|since|during|this|last|next|early|late|mid|end of|back in) ({MONTH_WORDS})\b",
             "month", "in March"),
    TimeRule("year", r"\b(?:in|since|back in) (20\d\d|19\d\d)\b", "year", "back in 2019"),
    TimeRule("cn_date", rf"({_CN_NUM})月({_CN_NUM})[日号]", "day", "3月14日"),
    TimeRule("cn_three_days", r"大(前|后)天", "day", "大前天"),
    TimeRule("cn_month_day", rf"(上|下|这|本)个?月({_CN_NUM})[日号]", "day", "上个月8号"),
    TimeRule("cn_day_of_month", rf"(?<![月0-9一二两三四五六七八九十几])({_CN_NUM})号(?![线楼床门口位房店机车窗球码桌院电航选字台馆厅])", "day",
             "9号那天"),
    TimeRule("cn_holiday", rf"(?<![0-9一二三四五六七八九十两])({_CN_HOLIDAY_ALT})(?!节?快乐)", "day", "国庆的时候"),
    TimeRule("cn_day_before_yesterday", r"前天", "day", "前天"),
    TimeRule("cn_yesterday", r"昨天|昨晚", "day", "昨天"),
    TimeRule("cn_today", r"今天|今晚|今早", "day", "今天"),
    TimeRule("cn_day_after_tomorrow", r"后天", "day", "后天"),
    TimeRule("cn_tomorrow", r"明天", "day", "明天"),
    TimeRule("cn_weekday", r"(上|这|本|下)个?(?:周|星期|礼拜)([一二三四五六日天])", "day", "上周五"),
    TimeRule("cn_ago", rf"({_CN_NUM})(天|周|个星期|个礼拜|个月|年)(?:以)?前", "day", "两周前"),
    TimeRule("cn_unit", r"(上|这|本|下)(?:个)?(周|星期|月)(?![一二三四五六日天])|(去|今|明)年", "unit", "下个月"),
    TimeRule("cn_month", rf"(?<![0-9一二两三四五六七八九十])({_CN_NUM})月份?(?![0-9一二两三四五六七八九十]*[日号])", "month",
             "三月"),
)

_COMPILED = [(rule, re.compile(rule.pattern, re.IGNORECASE)) for rule in TIME_RULES]
_FUTURE = re.compile(r"\b(will|'ll|going to|gonna|plan(?:ning)? to|about to|next|coming up|upcoming)\b|要|将|打算|准备|计划",
                     re.IGNORECASE)


@dataclass(frozen=True)
class ResolvedTime:
    expression: str
    at: datetime
    grain: str
    rule: str = ""

    @property
    def passing(self) -> bool:
        """Today, tonight, tomorrow: dates a sentence, but does not by itself make it worth remembering."""
        return self.rule in ("today", "tomorrow", "cn_today", "cn_tomorrow")

    @property
    def label(self) -> str:
        return format_day(self.at.timestamp(), self.grain)


def _number(word: str) -> int:
    word = word.lower().strip()
    if word.isdigit():
        return int(word)
    if word.startswith("a couple"):
        return 2
    if word.startswith("a few"):
        return 3
    return _NUMBER_WORDS.get(word, 1)


def cn_number(text: str) -> int:
    """一 … 九十九 and Arabic digits."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_CN_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CN_DIGITS.get(ones, 0) if ones else 0)
    return _CN_DIGITS.get(text, 0)


def _month_number(name: str) -> int:
    name = name.lower()[:3]
    return next(i for i, month in enumerate(MONTHS, start=1) if month.startswith(name))


def _day(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


@lru_cache(maxsize=4096)
def _dateparser(phrase: str, base: datetime, future: bool) -> datetime | None:
    import dateparser  # imported on first use: it takes a moment

    settings = {"RELATIVE_BASE": base, "PREFER_DATES_FROM": "future" if future else "past",
                "RETURN_AS_TIMEZONE_AWARE": False}
    return dateparser.parse(phrase, languages=["en"], settings=settings)  # type: ignore[arg-type]


def _month_in_context(month: int, said: datetime, future: bool) -> datetime:
    """'in March' said in June is this March; said in January it is last March — unless the sentence
    is about the future, then it is the next March."""
    year = said.year
    if future and month < said.month:
        year += 1
    elif not future and month > said.month:
        year -= 1
    return datetime(year, month, 1)


def _unit(which: str, unit: str, said: datetime) -> tuple[datetime, str] | None:
    step = {"last": -1, "this": 0, "next": 1}[which]
    if unit in ("week", "weekend"):
        monday = _day(said) - timedelta(days=said.weekday()) + timedelta(weeks=step)
        return (monday + timedelta(days=5), "day") if unit == "weekend" else (monday, "week")
    if unit == "month":
        index = said.year * 12 + said.month - 1 + step
        return datetime(index // 12, index % 12 + 1, 1), "month"
    if unit == "year":
        return datetime(said.year + step, 1, 1), "year"
    seasons = {"spring": 4, "summer": 7, "autumn": 10, "fall": 10, "winter": 1}
    start = datetime(said.year + (step if step else 0), seasons[unit], 1)
    if step == -1 and start > said.replace(year=said.year - 1):
        start = datetime(said.year - 1, seasons[unit], 1)
    return start, "month"


def _date_or_none(year: int, month: int, day: int) -> datetime | None:
    try:
        return datetime(year, month, day)
    except ValueError:  # 29 February in a common year, 31 April
        return None


def _nearest(dates: list[datetime], said: datetime, future: bool, past: bool) -> datetime:
    """Which of the same day (or month) in neighbouring months or years a sentence means: the last one
    when it is told in the past, the next when it looks ahead, and with no tense the nearer one, ahead
    rather than behind when it is up to twice as far ("I start there on 1 June", said in April, is this
    June; "the 2nd", said on the 16th, is next month's)."""
    today = _day(said)
    before = max((d for d in dates if d <= today), default=None)
    after = min((d for d in dates if d >= today), default=None)
    if before is None or after is None:
        return after or before or today
    if future:
        return after
    if past:
        return before
    return after if (after - today) <= 2 * (today - before) else before


def resolve_match(rule: TimeRule, match: re.Match[str], said: datetime, future: bool,
                  past: bool = False, ahead: bool = False) -> tuple[datetime, str] | None:
    """The date (and grain) one matched expression means, said at `said`; `past` when the sentence around
    it is told in the past, `ahead` when it tells what is coming without a future tense."""
    g = match.groups()
    base = _day(said)
    name = rule.name
    if name == "iso_date":
        return datetime(int(g[0]), int(g[1]), int(g[2])), "day"
    if name in ("yesterday", "cn_yesterday"):
        return base - timedelta(days=1), "day"
    if name in ("day_before_yesterday", "cn_day_before_yesterday"):
        return base - timedelta(days=2), "day"
    if name == "day_after_tomorrow":
        return base + timedelta(days=2), "day"
    if name == "cn_three_days":
        return base + timedelta(days=-3 if g[0] == "前" else 3), "day"
    if name == "before_last":
        found = _unit("last", g[0].lower(), said)
        return (found[0] - timedelta(weeks=1), found[1]) if found else None
    if name in ("day_of_month", "cn_day_of_month", "cn_month_day"):
        named = re.search(r"\b([A-Z][a-z]+)\s+$", match.string[:match.start()])
        if named and not re.fullmatch(_WEEKDAY_ALT, named.group(1).lower()) and match.group(0).lower().startswith("the"):
            return None  # "Henry the 8th", "Pope Pius the 12th": a name's number
        return _day_of_month(name, g, said, future, past)
    if name in ("holiday", "cn_holiday"):
        return _holiday(g[0].lower(), said, future, past), "day"
    if name in ("today", "cn_today"):
        return base, "day"
    if name in ("tomorrow", "cn_tomorrow"):
        return base + timedelta(days=1), "day"
    if name == "cn_day_after_tomorrow":
        return base + timedelta(days=2), "day"
    if name in ("weekday", "cn_weekday"):
        if name == "weekday":
            which, weekday = g[0].lower(), _WEEKDAY_SHORT.get(g[1].lower(), g[1].lower())
            # "on Monday" is the last Monday ("Mum called on Monday"), unless the sentence looks ahead ("I start at
            # Ocado on Monday", "My op is on Friday") and is not told in the past
            which = {"on": "next" if future or ahead and not past else "last", "this past": "last",
                     "this coming": "next"}.get(which, which)
        else:
            which = {"上": "last", "这": "this", "本": "this", "下": "next"}[g[0]]
            weekday = _CN_WEEKDAYS[g[1]]
        if which == "this":
            monday = base - timedelta(days=said.weekday())
            return monday + timedelta(days=list(_CN_WEEKDAYS.values()).index(weekday)), "day"
        if name == "cn_weekday":  # 上周五 is Friday of last week, not the last Friday
            monday = base - timedelta(days=said.weekday()) + timedelta(weeks=-1 if which == "last" else 1)
            return monday + timedelta(days=list(_CN_WEEKDAYS.values()).index(weekday)), "day"
        found = _dateparser(f"{which} {weekday}", base, which == "next")
        return (_day(found), "day") if found else None
    if name in ("ago", "in_future", "cn_ago"):
        if name == "cn_ago":
            count, unit = cn_number(g[0]), {"天": "day", "周": "week", "个星期": "week", "个礼拜": "week",
                                            "个月": "month", "年": "year"}[g[1]]
        else:
            count, unit = _number(g[0]), g[1].lower()
        if unit == "fortnight":
            count, unit = count * 2, "week"
        sign = 1 if name == "in_future" else -1
        grain = {"day": "day", "week": "day", "month": "month", "year": "year"}[unit]
        if unit in ("day", "week"):
            return base + sign * timedelta(days=count * (7 if unit == "week" else 1)), grain
        months = said.year * 12 + said.month - 1 + sign * count * (12 if unit == "year" else 1)
        return datetime(months // 12, months % 12 + 1, 1), grain
    if name in ("month_day", "day_month", "cn_date"):
        if name == "cn_date":
            month, day = cn_number(g[0]), cn_number(g[1])
        else:
            month_name, day_text = (g[0], g[1]) if name == "month_day" else (g[1], g[0])
            month, day = _month_number(month_name), int(day_text)
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return None
        dates = [d for k in (-1, 0, 1, 2, -2, 3, -3, 4, -4) if (d := _date_or_none(said.year + k, month, day))]
        return (_nearest(dates, said, future, past), "day") if dates else None
    if name == "relative_unit":
        return _unit(g[0].lower(), g[1].lower(), said)
    if name == "cn_unit":
        if g[2]:
            return _unit({"去": "last", "今": "this", "明": "next"}[g[2]], "year", said)
        return _unit({"上": "last", "这": "this", "本": "this", "下": "next"}[g[0]], {"周": "week", "星期": "week",
                                                                                    "月": "month"}[g[1]], said)
    if name in ("month_name", "cn_month"):
        month = _month_number(g[0]) if name == "month_name" else cn_number(g[0])
        if not 1 <= month <= 12:
            return None
        prefix = match.group(0).lower()
        if prefix.startswith("last "):
            start = _month_in_context(month, said, False)
            return (start.replace(year=start.year - 1) if start.month == said.month else start), "month"
        if prefix.startswith("next "):
            return _month_in_context(month, said, True), "month"
        return _nearest([datetime(said.year + k, month, 1) for k in (-1, 0, 1)], said.replace(day=1), future, past), "month"
    if name == "year":
        return datetime(int(g[0]), 1, 1), "year"
    return None


_PAST = re.compile(r"\b(?:was|were|went|did|had|(?<!'ve )(?<!have )got|came|took|saw|met|left|made|gave|ran|paid|spent|"
                   r"ago|last (?:week|month|year|night|time|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day))\b"
                   r"|\b(?:broke|spoke|felt|bought|sold|lost|brought|caught|drove|wrote|ate|drank|flew|fell|forgot|slept|sent|"
                   r"stood|swam|taught|threw|woke|wore|began|became|chose|rode|sang|fought|built|stole|tore|died|"
                   r"passed away)\b"  # not "said", "told", "heard": "she said the deadline is the 23rd" looks ahead
                   r"|\b(?:i|we|he|she|they|you|it)\s+(?:\w+ly\s+|just\s+|only\s+)?"
                   r"(?!(?:booked|scheduled|planned|arranged)\b)[a-z]+(?<!e)ed\b"
                   r"|了|[去回到搬办买]的", re.IGNORECASE)
"""A sentence told in the past: "on the 23rd" is then the last 23rd, not the next. "Booked for the 23rd"
looks ahead."""
_AHEAD = re.compile(r"\b(?:i|we|you|he|she|they)\s+(?:start|begin|fly|leave|go|head|meet|see|have|finish|get|move|"
                    r"pick|drop|collect)s?\b|\b(?:is|are|am)\b|'s\b(?! been)|'re\b|'m\b|\b(?:need|needs|have|has|"
                    r"got|want|wants|hope|hoping|plan|planning|due)\s+to\b|\bdue\b", re.IGNORECASE)
"""A sentence that tells what is coming without "will": "I start at Ocado on Monday", "My op is on Friday",
"Need to call mum on Monday"."""


def _day_of_month(name: str, g: tuple[str | None, ...], said: datetime, future: bool,
                  past: bool) -> tuple[datetime, str] | None:
    """"On the 9th", "9号", "上个月8号": the day in the month named, or else the last such day when the sentence
    is told in the past ("we got the keys on the 9th"), the next one otherwise ("I'm flying out on the 2nd",
    "I've got a meeting on the 23rd")."""
    if name == "cn_month_day":
        step, day = {"上": -1, "下": 1, "这": 0, "本": 0}[g[0] or "这"], cn_number(g[1] or "")
    elif name == "cn_day_of_month":
        step, day = None, cn_number(g[0] or "")
    else:
        day = int(g[0] or g[2] or 0)
        step = {"last": -1, "this": 0, "next": 1}.get((g[1] or "").lower())
    if not 1 <= day <= 31:
        return None

    def in_month(step: int) -> datetime | None:  # None: no 31st in that month
        index = said.year * 12 + said.month - 1 + step
        return _date_or_none(index // 12, index % 12 + 1, day)

    if step is not None:
        found = in_month(step)
        return (found, "day") if found else None
    dates = [d for d in (in_month(-2), in_month(-1), in_month(0), in_month(1), in_month(2)) if d]
    return _nearest(dates, said, future or not past, past), "day"  # a day this near is told in the past if past


def _holiday(name: str, said: datetime, future: bool, past: bool) -> datetime:
    """The holiday's day in the year the tense points to (`_nearest`)."""
    def on(year: int) -> datetime:
        if name == "easter":
            from dateutil.easter import easter

            return datetime.combine(easter(year), datetime.min.time())
        month, day = _HOLIDAYS[name]
        return datetime(year, month, day)

    return _nearest([on(said.year + k) for k in (-1, 0, 1)], said, future, past)


_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def _sentence_around(text: str, start: int, end: int) -> str:
    """The sentence holding text[start:end], whose tense says which way a time goes ("GOT IT!!! Start date is 1 June"
    is not told in the past: the news is past, the date is not)."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return text[before[-1] if before else 0:after.start() if after else len(text)]


def resolve_times(text: str, said_at: float) -> list[ResolvedTime]:
    """Every time expression of `text`, resolved against the time it was said; non-overlapping, in order."""
    said = datetime.fromtimestamp(said_at)
    future = bool(_FUTURE.search(text))
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, ResolvedTime]] = []
    for rule, pattern in _COMPILED:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < e and s < end for s, e in taken):
                continue
            sentence = _sentence_around(text, start, end)
            resolved = resolve_match(rule, match, said, future, not future and bool(_PAST.search(sentence)),
                                     bool(_AHEAD.search(sentence)))
            if resolved is None:
                continue
            taken.append((start, end))
            found.append((start, ResolvedTime(match.group(0).strip(), resolved[0], resolved[1], rule.name)))
    return [r for _, r in sorted(found, key=lambda pair: pair[0])]


def first_time(text: str, said_at: float) -> ResolvedTime | None:
    times = resolve_times(text, said_at)
    return times[0] if times else None


# ---- dates in a query: "what did I do in June?", "when did I …" -------------------------------

_WHEN = re.compile(r"^\s*(when|what (date|day|month|year)|how long ago|since when)\b|什么时候|哪天|哪一天|几月|何时",
                   re.IGNORECASE)


def asks_when(query: str) -> bool:
    return bool(_WHEN.search(query))


_WHEN_NOW = re.compile(r"^\s*(?:when|what (?:date|day|days|night|time|month))\s*(?:is|are|do|does|'s|'re)\b"
                       r"|一般|通常|平时|平常|现在|每(?:周|个?(?:星期|礼拜|月|天))", re.IGNORECASE)


_SCHEDULE_ASKED = re.compile(r"\b(?:which|what) (?:days?|evenings?|nights?|mornings?|afternoons?|time)\b|"
                             r"周几|星期几|礼拜几|几点|哪天", re.IGNORECASE)


def asks_schedule(query: str) -> bool:
    """A question (or a part of one) about when something is ("on which evening", 周几上): what a reschedule answers."""
    return asks_when(query) or bool(_SCHEDULE_ASKED.search(query))


def asks_when_it_was(query: str) -> bool:
    """A when-question about what was ("When did I move?", "我是哪天搬的家？"), which the earlier statement itself
    answers; one in the present ("What day is my ceramics class?", 一般什么时候排练) asks what holds now."""
    return asks_when(query) and not _WHEN_NOW.search(query)


_THE_PAST = re.compile(r"\b(?:(?<!get )(?<!got )(?<!be )(?<!am )(?<!is )(?<!are )used to|(?:did|didn'?t) (?:i|we) (?:\w+ )?use to|"
                       r"back when|in the old days|before i (?:quit|stopped|gave up|sold|left))\b"
                       r"|以前|之前常|原来(?:常|总)", re.IGNORECASE)


def asks_the_past(query: str) -> bool:
    """"Who did I use to play tennis with?": a question about what was, for which what ended it is no answer."""
    return bool(_THE_PAST.search(query))


def query_months(query: str) -> list[tuple[int | None, int]]:
    """(year or None, month) of each absolute month reference in the query ("in June", "2026年3月", "三月").

    No year is guessed from today: "what did I do in June?" means the same June whenever it is asked,
    so a month without a year matches that month of any year.
    """
    months: list[tuple[int | None, int]] = []
    year_match = re.search(r"(20\d\d)", query)
    year = int(year_match.group(1)) if year_match else None
    for match in re.finditer(rf"\b({MONTH_WORDS})\b", query, re.IGNORECASE):
        if match.group(1).lower() in ("may", "mar") and not re.search(
            rf"\b(in|of|during|since) {match.group(1)}\b|\b{match.group(1)} 20\d\d\b", query, re.IGNORECASE
        ):
            continue  # "may" the verb
        months.append((year, _month_number(match.group(1))))
    for match in re.finditer(rf"({_CN_NUM})月", query):
        month = cn_number(match.group(1))
        if 1 <= month <= 12:
            months.append((year, month))
    return months
