"""Rules that read a user message before any model does. Pure functions.

They decide, in English and Chinese: is this chit-chat, a question, a secret,
a request to forget, a standing instruction or correction (a cross-turn note),
and is a sentence a durable statement about the user worth remembering.
"""

from __future__ import annotations

import re

from memchat.memory.forget_requests import forget_request, forget_topic, topic_parts
from memchat.memory.secrets import secret_kind, talks_about_credentials
from memchat.memory.segment import CN_QUESTION, split_sentences
from memchat.memory.slots import slot_of
from memchat.memory.timeexpr import first_time

__all__ = ["forget_request", "forget_topic", "talks_about_credentials", "topic_parts"]  # re-exported: rules are read from here


CHIT_CHAT = frozenset(
    ["hi hello hey yo thanks thank you thx ty ok okay k cool nice great awesome lol haha hahaha hmm", "    hmmm sure yes no yep nope bye goodbye good morning good night good evening sounds good got it", "    perfect wow oh ah alright right fine see you later cheers brb np no problem you too same", "    谢谢 好的 好 嗯 哈哈 你好 早上好 晚安 再见 没问题 可以 行 对 是的 不客气"]
)
_CHAT_WORDS = frozenset(w for line in CHIT_CHAT for w in line.split())
_FILLER = re.compile(r"^(ok(ay)?|cool|nice|great|thanks|thank you|haha|lol|hmm+|hello|hi|hey|谢谢|好的)\b", re.IGNORECASE)

_QUESTION_START = re.compile(
    r"^(what|who|where|when|why|how|which|do|does|did|is|are|can|could|would|will|should|shall|am|have|has)\b", re.IGNORECASE
)
_LEADING_CHATTER = re.compile(r"^(?:(?:ok(?:ay)?|so|and|but|also|hey|hi|um+|hmm+|well|right|oh|btw|lol|quick question|"
                              r"question)\b[\s,.:!-]*)+", re.IGNORECASE)
"""What may come before a question's first word ("ok so how do I…"): then only a wh-word makes it a question
("So is my sister, she's a nurse" is not one)."""
_DID_IT = re.compile(r"^(?:did|had|done|finished)\s+(?!(?:you|u|ya|he|she|they|it|we|i|anyone|anybody|somebody|someone|"
                     r"everyone|everybody|that|this|not|n't)\b)(?!(?:my|our|the)\s+(?:\w+\s+)?(?:mum|mom|dad|wife|husband|"
                     r"partner|boss|brother|sister|son|daughter|friend|kids?|girlfriend|boyfriend|parcel|package|post)\b)\w",
                     re.IGNORECASE)
"""A statement that drops its "I" ("did the three peaks on sat, 11h40"), told with a figure or a time, not a question
("Did you see the match?", "Did it rain yesterday" ask)."""
_WH_START = re.compile(r"^(?:what|who|where|when|why|how|which)\b", re.IGNORECASE)


_NOTE_MARKERS = re.compile(
    r"\b(from now on|always|never|don'?t ever|do not ever|stop (using|calling|saying)|please (always|never)|"
    r"i prefer|i'd prefer|i don'?t eat|i do not eat|i can'?t eat|i'm allergic|i am allergic|call me|"
    r"answer in|reply in|respond in|i'm vegetarian|i'm vegan|i am vegetarian|i am vegan)\b",
    re.IGNORECASE,
)
_CN_NOTE_MARKERS = re.compile(r"(以后.{0,8}都|以后请|从现在起|从今以后|再也不|不要再|别再|我喜欢|我不喜欢|我不吃|我习惯|我过敏|请用|总是|永远不要)")
_CORRECTION = re.compile(
    r"^\s*(actually|no,|nope,|correction|i meant|sorry, i meant|that'?s (wrong|not right|incorrect)|"
    r"not .+ but|i misspoke|to correct)\b|^\s*(其实|不对|我是说|更正|不是)",
    re.IGNORECASE,
)
_CN_ZERO_SUBJECT = re.compile(r"^\W*(?:\d|在|每天|天天|每周|现在|目前|刚|已经|最近|今天|昨天|前天|上周|这周|下周|去年|今年|明年|"
                              r"明天|又|还在|也在|一直|平时|养了|买了|卖了|换了|换成|辞职|搬|跳槽|开始|坐|挤|骑|开车|住在|"
                              r"做|当|干|学|练|考上|拿到|入职|不再|戒|offer)", re.IGNORECASE)
"""Chinese that opens on what was done, or when, where no subject is said: the user's, who leaves 我 out
("在美团，天天写PRD", "每天挤13号线"); not one that opens on someone ("小雨在小学当老师", "王姐在超市做收银员")."""
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|my|me|mine|we|our|im)\b", re.IGNORECASE)
_CN_FIRST_PERSON = re.compile(r"(我|咱)")
_EPHEMERAL = re.compile(
    r"^\s*(i think|i guess|i see|i agree|i mean|i know|i don'?t know|i'm not sure|i am not sure|i'm (fine|good|ok|okay|"
    r"tired|bored|back|here|done|sorry|glad|happy to hear)|i wonder|i was wondering|let me|i'll (try|check|think)|"
    r"i have a question|i need help|i just (?:wanted|want|need|needed|wondered|thought|think|realised|realized|saw|"
    r"remembered)|i'm just (?:curious|wondering|asking|checking|saying|thinking|kidding|joking|tired|bored|venting)|"
    r"me too|my bad|my pleasure|i'm off to|i'm heading|"
    r"i'll book|i'll let you know|i can'?t wait|i (?:was|am|'m) (?:just )?thinking|i'?ve been thinking|i keep thinking|"
    r"(?:i wish|if only)(?![^.!?]*[,;]\s*(?:so |but |and )?(?:i|i'm|i've)\b)|i (?:might|may|could) (?:\w+ ){1,6}(?:later|tonight|this evening|this afternoon|today|tomorrow)|"
    r"i (?:might|may) (?:\w+ ){0,5}who knows)\b",
    re.IGNORECASE,
)
_LEADING_FILLER = re.compile(r"^\s*((hmm+|um+|uh+|well|oh|so|ok|okay|ah|yeah|yes|no)[,.!\s]+)+", re.IGNORECASE)
_NAMED_SUBJECT = re.compile(
    r"^(?:[A-Z][^\W\d_A-Z]+ ){0,1}[A-Z][^\W\d_A-Z]+ (works|worked|lives|lived|moved|is|was|has|left|loves|likes|hates|studies|"
    r"teaches|plays|drives|speaks|got|became|started|joined|[a-z]{2,}ed|went|ran|won|took|had|did|made|came|met|"
    r"flew|began|bought|sold|passed|turned|runs|does|goes)\b"
)


def _normalise(text: str) -> str:
    return re.sub(r"[^\w\s\u3400-\u9fff]", "", text.lower()).strip()


_COMPLYING = re.compile(
    r"^\s*(?:(?:lol|lmao|haha+|ha|ah|oh|ugh|fine|yes|yeah|yep|yup|ok(?:ay)?|alright|sure|right)\b[\s,.!]*){1,3}"
    r"(?:\S+\s+){0,3}?(?:i will|i'll|will do|noted|got it|i promise|i know|message received)\b"
    r"|^\s*(?:好的|好吧|行吧|行|嗯嗯?|知道了|收到)[，,！!。\s]*(?:我会|会的|一定|记住了|知道了|收到)",
    re.IGNORECASE,
)
"""A reply to the assistant's advice: an acknowledgement, then compliance ("lol ok yes i will drink water",
"ok 3 days noted", 好的我会注意). Nothing to remember, unless it also says something a slot holds or
names someone or somewhere ("yes I'll be moving to Leeds next month")."""
_NAMED_LATER = re.compile(r"(?<=\s)(?-i:[A-Z][a-z]+)")


def is_chit_chat(text: str) -> bool:
    """Greetings, thanks, acknowledgements, a reply to advice: nothing to remember."""
    norm = _normalise(text)
    if not norm:
        return True
    if norm in CHIT_CHAT:
        return True
    if _COMPLYING.search(text) and slot_of(text) is None and not _NAMED_LATER.search(text):
        return True
    words = norm.split()
    if all(w in _CHAT_WORDS for w in words):
        return True
    return len(words) <= 4 and bool(_FILLER.match(norm)) and not _FIRST_PERSON.search(norm)


_CONDITION = re.compile(
    r"^(?:when|whenever|if)\s+(?!(?:do|does|did|is|are|was|were|will|would|can|could|should|am|have|has)\b)[^?]{2,60},\s*\S",
    re.IGNORECASE,
)
"""'When you explain something, use numbered steps.': a condition and an instruction, not a question."""


_TRAILING_OFF = re.compile(
    r"^(?:i|we|my|our)\b(?!\s+(?:wonder|was wondering|don'?t know|dunno|need to know|want to know|should|could|can|would|"
    r"might)\b)[^?]*(?:\.\.\.|…)\s*(?:(?:kind of|sort of|pretty|quite|really|very)\s+)?(?:fine|alright|all right|ok|"
    r"okay|good|nice|great|well|weird|awkward|bad|fun|interesting|decent|average|meh|not bad|better|worse)\?+$", re.IGNORECASE)
"""A statement that trails off into a doubt ("I did a trial shift on Monday and it went... fine?"): it tells
something, and asks nothing of us."""


_STANDING_REQUEST = re.compile(
    r"^(?:(?:please|pls)\s+)?(?:would you mind|could you|can you|will you|would you)\b[^?]*"
    r"\b(?:from now on|going forward|in future|in the future|from here on(?: in)?|for the rest of)\b|以后.{0,12}(?:能不能|可以吗|行吗|好吗)",
    re.IGNORECASE)
"""'Would you mind giving me your answers as a checklist from now on?': asked as a question, kept as an instruction."""


_ANSWERING_IN_GENERAL = re.compile(
    r"^(?:(?:please|pls)\s+)?(?:would you mind|could you|can you|will you|would you)\b.*(?:\b(?:your|in your|all your) "
    r"(?:answers?|repl(?:y|ies)|responses?)\b|\bwhen(?:ever)? you (?:answer|reply|explain|respond)\b)", re.IGNORECASE)
"""'Could you do bullet points in your replies, I skim on the train': a wish about every answer, kept as the
reply-style preference it is; 'could you format this table?' asks for one answer and stays a request."""


def is_question(sentence: str) -> bool:
    stripped = sentence.strip()
    if _ANSWERING_IN_GENERAL.search(stripped) and (found := slot_of(stripped)) is not None and found.name == "reply_style":
        return False
    if stripped.endswith("?") or stripped.endswith("？"):
        return not (_TRAILING_OFF.match(stripped) or _STANDING_REQUEST.search(stripped))
    if _CONDITION.match(stripped):
        return False
    if _DID_IT.match(stripped) and (re.search(r"\d", stripped) or first_time(stripped, 0.0) is not None):
        return False  # "Did my driving theory test this morning, 48 out of 50.": what the user did, subject dropped
    return (bool(_QUESTION_START.match(stripped)) or bool(_WH_START.match(_LEADING_CHATTER.sub("", stripped)))
            or bool(CN_QUESTION.search(stripped)))


def contains_secret(text: str) -> str | None:
    """The kind of secret found (or credential talk around a value), or None. Never stored (memory.secrets)."""
    kind = secret_kind(text)
    if kind:
        return kind
    if talks_about_credentials(text) and re.search(r"\d|[A-Za-z]+[!@#$%^&*_+=~][A-Za-z0-9]|\b[A-Z0-9]{6,}\b", text):
        return "credential"
    return None


_HEDGE = re.compile(r"\b(maybe|perhaps|probably|possibly|i think|i guess|i believe|not sure|might|may be)\b|也许|可能|大概", re.I)
_IMPERATIVE = re.compile(
    r"^\s*(please\s+)?(tell|give|write|show|explain|help|list|make|translate|summari[sz]e|describe|find|create|"
    r"generate|draft|compose|suggest|recommend|remind|calculate|compute|check|read|sing|search|define|compare|"
    r"convert|fix|teach|let'?s|imagine|pretend|say|send|open|play)\b",
    re.I,
)
_PREDICATE = re.compile(
    r"\b(i|we)\s+(?!am\b)[a-z']+|\b(am|is|are|was|were|have|has|had|'m|'s|'re|'ve|do|does|did|don'?t|doesn'?t|"
    r"can|can'?t|will|would|should|must|never|always)\b"
    r"|^\s*(my|our)\s+(\S+\s+){1,3}?[a-z]+(s|ed)\b",  # "My brother Rui lives…", "My ex-boss Gerald used to…"
    re.I,
)


def is_hedged(text: str) -> bool:
    """The user is not sure ("maybe I live in Berlin now")."""
    return bool(_HEDGE.search(text))


def is_correction(text: str) -> bool:
    return bool(_CORRECTION.search(text))


_STANDING = re.compile(r"\b(from now on|always|never|don'?t ever|do not ever|call me|stop)\b|以后|再也不|不要再|别再", re.I)


def note_worthy(sentence: str) -> bool:
    """A standing instruction, explicit preference or correction: it becomes a cross-turn note."""
    if is_question(sentence) and not _STANDING.search(sentence):
        return False
    return bool(_NOTE_MARKERS.search(sentence) or _CN_NOTE_MARKERS.search(sentence) or is_correction(sentence))


def named_subject(sentence: str) -> str | None:
    """The person a third-person statement is about ("Tomas works as a nurse." → "Tomas")."""
    match = _NAMED_SUBJECT.match(sentence.strip())
    if not match or _FIRST_PERSON.match(sentence.strip()):
        return None
    return sentence.strip().split(" " + match.group(1))[0]


def is_request_or_musing(sentence: str) -> bool:
    """A request to the assistant ("tell me…", "let's…") or a passing remark ("I think…", "I'm off to…")."""
    core = _LEADING_FILLER.sub("", sentence)
    return bool(_IMPERATIVE.match(core) or _EPHEMERAL.search(core))


def mentions_the_user(sentence: str) -> bool:
    return bool(_FIRST_PERSON.search(sentence) or _CN_FIRST_PERSON.search(sentence))


def is_durable_statement(sentence: str) -> bool:
    """A statement that says something lasting about the user or someone in their life."""
    if is_chit_chat(sentence) or is_question(sentence):
        return False
    if _CN_FIRST_PERSON.search(sentence) or _CN_NOTE_MARKERS.search(sentence):
        return len(re.sub(r"\W", "", sentence)) >= 4
    if _CN_ZERO_SUBJECT.match(sentence) and slot_of(sentence) is not None:
        return len(re.sub(r"\W", "", sentence)) >= 4  # "在美团做产品", "每天坐13号线上班": Chinese leaves out 我
    if named_subject(sentence):
        return len(sentence.split()) >= 3
    if not _FIRST_PERSON.search(sentence):
        return bool(_NOTE_MARKERS.search(sentence))
    core = _LEADING_FILLER.sub("", sentence)
    if _IMPERATIVE.match(core) or not _PREDICATE.search(core):
        return False  # a request to the assistant, or a fragment with no verb ("line one of my note")
    return len(core.split()) >= 3 and not _EPHEMERAL.search(core)


def rule_importance(sentence: str, correction: bool) -> float:
    """Importance from rules: + standing instructions, + concrete entities, + corrections."""
    value = 0.5
    if re.search(r"\b(always|never|from now on|every)\b", sentence, re.IGNORECASE) or _CN_NOTE_MARKERS.search(sentence):
        value += 0.2
    if re.search(r"\b[A-Z][a-z]+", sentence[1:]) or re.search(r"\d", sentence):
        value += 0.1
    if correction:
        value += 0.15
    if re.search(r"\b(allergic|allergy|medical|diabetic|pregnant)\b|过敏", sentence, re.IGNORECASE):
        value += 0.15
    return min(1.0, value)


def notes_from(text: str) -> list[str]:
    """Sentences of a user message that become cross-turn notes (never secrets)."""
    return [s for s in split_sentences(text) if note_worthy(s) and not contains_secret(s) and forget_request(s) is None]
