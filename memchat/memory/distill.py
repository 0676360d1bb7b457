"""Turn a first-person statement into a typed, self-contained memory draft. Pure.

"I moved to Porto last week." → fact, key user.home_city,
"The user moved to Porto last week." The attribute key is what conflict
detection compares: two active memories with the same key and different
content are a contradiction, the newer one wins. Some keys hold many values
(allergies, hobbies, likes) and never supersede each other.
"""

from __future__ import annotations

import re

from memchat.memory.rules import is_correction, is_hedged, named_subject, rule_importance
from memchat.types import MemoryDraft

_RELATIVES = (
    "partner|wife|husband|girlfriend|boyfriend|brother|sister|mother|father|mom|mum|dad|son|daughter|friend|"
    "boss|ex-boss|colleague|coworker|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|neighbour|neighbor"
)
_POSSESSIVE = re.compile(rf"^\s*(?:my|our) ({_RELATIVES})\b", re.IGNORECASE)
_CN_POSSESSIVE = re.compile(r"^\s*我(妹妹|姐姐|哥哥|弟弟|妈妈|爸爸|奶奶|爷爷|外婆|外公|老婆|老公|女儿|儿子|朋友|同事|老板)")
HEDGED_CONFIDENCE = 0.45
"""Confidence of a statement the user is unsure of ("maybe", "I think"): it cannot overwrite a firm one."""
_FAVOURITE = re.compile(r"\bfavou?rite ([a-z]+)\b", re.IGNORECASE)

# (pattern, attribute, kind) — first match wins; order from specific to generic.
_KEYS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"\b(my name is|i'm called|i am called|call me)\b|我叫|我的名字", re.IGNORECASE), "name", "fact"),
    (re.compile(r"\b(live in|living in|moved to|moved from|relocated|based in|my home is)\b|我住在|搬到|住在", re.IGNORECASE), "home_city", "fact"),
    (re.compile(r"\b(works? (at|for)|working (at|for)|employer|joined|switched jobs|new job)\b|我在.+工作|公司", re.IGNORECASE), "employer", "fact"),
    (re.compile(r"\b(works? as|job is|profession|teacher|nurse|engineer|developer|doctor|designer|lawyer|"
                r"accountant|architect|chef|student|researcher)\b", re.IGNORECASE), "job", "fact"),
    (re.compile(r"\ballergic|allergy\b|过敏", re.IGNORECASE), "allergy", "preference"),
    (re.compile(r"\b(vegetarian|vegan|don'?t eat|do not eat|can'?t eat|diet)\b|不吃|吃素", re.IGNORECASE), "diet", "preference"),
    (re.compile(r"\b(drink|coffee|tea|espresso|latte|beer|wine)\b|喝|茶|咖啡", re.IGNORECASE), "drink", "preference"),
    (re.compile(r"\b(birthday|born on|born in)\b|生日", re.IGNORECASE), "birthday", "fact"),
    (re.compile(r"\b(wife|husband|partner|girlfriend|boyfriend|fiancee?)\b|老婆|老公|妻子|丈夫", re.IGNORECASE), "partner", "relation"),
    (re.compile(r"\b(dog|cat|puppy|kitten|pet|parrot|hamster)\b|狗|猫|宠物", re.IGNORECASE), "pet", "relation"),
    (re.compile(r"\b(daughter|son|kids?|children)\b|女儿|儿子|孩子", re.IGNORECASE), "children", "relation"),
    (re.compile(r"\b(sister|brother|mother|father|mom|dad|mum)\b|妹妹|姐姐|哥哥|弟弟|妈妈|爸爸", re.IGNORECASE), "family", "relation"),
    (re.compile(r"\b(drive|car)\b|开车|车", re.IGNORECASE), "car", "fact"),
    (re.compile(r"\b(speak|language|fluent)\b|说.+语", re.IGNORECASE), "language", "fact"),
    (re.compile(r"\b(answer|reply|respond|format|bullet points?)\b|回答|回复", re.IGNORECASE), "reply_style", "preference"),
    (re.compile(r"\b(trip|travel|flying|visit|vacation|holiday)\b|旅行|旅游|出差", re.IGNORECASE), "travel", "event"),
    (re.compile(r"\b(wake up|get up|bed|sleep)\b|起床|睡觉", re.IGNORECASE), "routine", "preference"),
    (re.compile(r"\b(gym)\b|健身房", re.IGNORECASE), "gym_schedule", "preference"),
    (re.compile(r"\b(run|running|cycle|cycling|swim|yoga|football|tennis|sport)\b|跑步|健身|游泳", re.IGNORECASE), "sport", "preference"),
    (re.compile(r"\b(like|love|enjoy|prefer|favou?rite|hate|dislike)\b|喜欢|讨厌|爱", re.IGNORECASE), "likes", "preference"),
]

MULTI_VALUED = frozenset(
    {"allergy", "likes", "language", "family", "children", "pet", "travel", "sport", "diet", "routine", "drink", "reply_style"}
)
"""Keys that hold many values at once: a new one is added beside the old, never superseding it."""
_EVENT = re.compile(r"\b(next|tomorrow|on (mon|tues|wednes|thurs|fri|satur|sun)day|in (january|february|march|april|may|june|july|august|september|october|november|december)|\d{4}-\d{2}-\d{2}|will|going to|plan)\b|下周|明天|下个月", re.IGNORECASE)

_SWAPS = [
    (r"\bI am\b", "the user is"), (r"\bI'm\b", "the user is"), (r"\bIm\b", "the user is"),
    (r"\bI've\b", "the user has"), (r"\bI'd\b", "the user would"), (r"\bI'll\b", "the user will"),
    (r"\bI was\b", "the user was"), (r"\bI\b", "the user"), (r"\bmy\b", "the user's"),
    (r"\bme\b", "the user"), (r"\bmine\b", "the user's"), (r"\bmyself\b", "the user"),
]
_VERB_3RD = re.compile(r"\bthe user ((?:now|also|usually|always|never|still|really|mostly|often|sometimes) )?(live|work|love|like|prefer|hate|enjoy|drink|eat|play|speak|own|drive|have|want|"
                       r"use|go|cycle|run|swim|need|study|plan|travel|wake|get|visit|dislike|take|read|watch|listen)\b")
_LEADING = re.compile(r"^\s*(actually|also|oh|well|so|btw|by the way|anyway|and|but|no|yes|ok|okay|fyi|just so you know)[,\s]+", re.IGNORECASE)


def _third_person(sentence: str) -> str:
    text = _LEADING.sub("", sentence.strip())
    text = re.sub(r"^\s*(please\s+)?(remember|note|keep in mind)( that)?[:,]?\s+", "", text, flags=re.IGNORECASE)
    for pattern, replacement in _SWAPS:
        text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)

    def conjugate(match: re.Match[str]) -> str:
        adverb, verb = match.group(1) or "", match.group(2)
        third = "has" if verb == "have" else verb + ("es" if verb.endswith(("sh", "ch", "o")) else "s")
        return f"the user {adverb}{third}"

    text = _VERB_3RD.sub(conjugate, text)
    text = re.sub(r"\bthe user don'?t\b", "the user doesn't", text)
    text = re.sub(r"\bthe user do not\b", "the user does not", text)
    text = text.replace("我", "用户")
    text = text[:1].upper() + text[1:]
    if not re.search(r"[.!。！]$", text):
        text += "。" if re.search(r"[\u4e00-\u9fff]$", text) else "."
    return text


def guess_key(sentence: str) -> tuple[str, str]:
    """(attribute, kind) by rules; ('', 'fact') when nothing matches."""
    favourite = _FAVOURITE.search(sentence)
    if favourite:
        return f"favourite_{favourite.group(1).lower()}", "preference"
    for pattern, attribute, kind in _KEYS:
        if pattern.search(sentence):
            if kind != "event" and _EVENT.search(sentence) and attribute in {"travel", "likes"}:
                kind = "event"
            return attribute, kind
    generic = re.search(r"\bmy ([a-z]+(?: [a-z]+)?) (is|are|was)\b", sentence, re.IGNORECASE)
    if generic:
        return generic.group(1).lower().replace(" ", "_"), "fact"
    return "", ("event" if _EVENT.search(sentence) else "fact")


def _possessor(sentence: str, attribute: str) -> str | None:
    """'My brother Rui lives in Berlin' is about the brother, not the user's own home city."""
    if attribute not in ("home_city", "employer", "job"):
        return None
    match = _POSSESSIVE.match(sentence) or _CN_POSSESSIVE.match(sentence)
    return match.group(1) if match else None


def draft_from_sentence(
    sentence: str,
    *,
    session_id: int | None,
    message_id: int | None,
    correction: bool | None = None,
    hedged: bool | None = None,
) -> MemoryDraft:
    """A typed draft. `correction` and `hedged` override detection: a clause of a corrected
    or doubtful sentence is one too ("Maybe I live in Berlin now, I'm not sure")."""
    hedged = is_hedged(sentence) if hedged is None else hedged
    attribute, kind = guess_key(sentence)
    correction = is_correction(sentence) if correction is None else correction
    person = named_subject(sentence) or _possessor(sentence, attribute)
    if person:
        kind = "relation"
        attribute = {"employer": "job"}.get(attribute, attribute) if attribute in ("job", "employer", "home_city") else attribute
    return MemoryDraft(
        kind=kind,
        content=_third_person(sentence),
        subject=person.lower() if person else "user",
        attribute=attribute,
        importance=rule_importance(sentence, correction),
        confidence=0.9 if correction else (HEDGED_CONFIDENCE if hedged else 0.8),
        source_session=session_id,
        source_message=message_id,
        correction=correction,
    )
