"""What a forget request's topic names: the memories and episodes about it, found by words, names and
meaning. Reads only; the write path deletes or purges what this finds.

For each part of a topic ("Archie and the drinking"): everything containing all its words; for a
part that is only a name, everything naming them — unless the topic also names what happened ("Sam
and the therapy": Sam's part in it); for a story about someone ("Luke losing his job", "Tom's
surgery"), what names them *and* one of the story's words. Chinese topics match by character pairs
and by the person plus a character of the rest. When the embedder reads the topic, what is close in
meaning and shares a word or a concept with it counts too ("my therapy sessions" — "seeing a
therapist"), but never only the person ("my mum's diagnosis" keeps her birthday).
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable, Iterator, Sequence

from memchat.memory.concepts import (
    CN_PEOPLE_WORDS,
    CONCEPTS,
    DOMAINS,
    FAMILY,
    PEOPLE_CONCEPTS,
    ancestors,
    concept_overlap,
    concepts_in,
    covers,
    index_words,
)
from memchat.memory.distill import CN_RELATIVES, RELATIVES, THE_SOMEONE
from memchat.memory.items import MemoryStore
from memchat.memory.rules import topic_parts
from memchat.memory.scoring import MIN_BACKGROUND, keyword_overlap
from memchat.memory.segment import split_sentences
from memchat.memory.slots import BY_NAME, JOB_TITLES, slot_of, slots_asked
from memchat.memory.speech import pronoun_fits
from memchat.memory.terms import (
    CJK_PARTICLES,
    CJK_STOP_CHARS,
    STOPWORDS,
    has_cjk,
    is_single_cjk,
    query_terms,
    search_terms,
    stem,
)
from memchat.memory.timeexpr import first_time
from memchat.types import EPISODE, Memory

FORGET_SIMILARITY = 0.5
FORGET_MARGIN = 0.2
"""A memory sharing a word with a forget topic goes when it is this much closer to the topic than the
median of the topic's 30 nearest memories (never below 0.3; only once there are MIN_BACKGROUND of
them), or at FORGET_SIMILARITY in any case."""
_AFTER_ALL_IDS = 1 << 62
"""An id after every other: a window from a moment starts after all told at that moment."""
_NAME = r"[A-Z][^\W\d_A-Z]{2,}"
"""A name: a capital and two or more letters, accented ones too ("Zoë", "José")."""
_PEOPLE = re.compile(rf"\b(?:{_NAME}|ex|{RELATIVES})\b")
_CN_PEOPLE = (*CN_RELATIVES.split("|"), "前任")
"""Who a forget topic is about: what was said about them, close in meaning to the topic, goes too."""


_CN_TOPIC_FRAME = re.compile(r"^(?:前两天|前几天|前阵子|前段时间|前一阵子?|上次|上回|之前|以前|刚才|昨天|那天|那次|上个?月|上周|上个?礼拜)?"
                             r"(?:我)?(?:跟你|和你|给你)?(?:说|提|讲)(?:的|过的?|到的?)?"
                             r"|的?(?:那个|这个|那件|这件)?(?:事情?|事儿)$|相关的?(?:都|内容|信息|东西|事)?$|(?<=.)(?:那个|这个)(?=.)")
"""The frame of a Chinese forget topic: when it was said, and "that matter"."""


def _story_concepts(topic: str) -> frozenset[str]:
    """The concepts that say what a forget topic is about in other words ("my therapy sessions" — "seeing a
    therapist"): not an area of life ("the Berlin job": every memory about work) nor a person ("my mum's
    diagnosis": every memory about the mum), but money, the law and health, which are what people ask to forget
    ("Maisie's diagnosis" — "Maisie has ADHD")."""
    said = concepts_in(topic)
    if _THE_DRINKING.search(topic):
        said |= {"alcohol"}  # "Niamh and the drinking", "his drinking": the drink that makes one drunk
    if _THE_BABY.search(topic):
        said |= {"pregnancy"}  # "Mia's baby news", "宝宝的事": the baby on its way
    if "addiction" in said:
        said |= {"alcohol"}  # "his relapse": the drink it is told by ("vodka bottles hidden in the garage")
    elif "alcohol" in said and re.search(r"\b(?:problem|issue|struggle|trouble)s?\b|酗酒|喝酒的(?:问题|事)", topic, re.IGNORECASE):
        said |= {"addiction"}  # "his problem with alcohol": the rehab it is told by too
    if _THE_JOB.search(topic):
        said |= {"job loss", "job search", "work trouble"}  # "my job situation": whatever happened to the job
    if (part := body_part(topic)) in CONCEPTS:
        said |= {part}  # "my dad's heart": his heart trouble, told as "blocked arteries, a triple bypass"
    if _THE_MONEY.search(topic):
        said |= {"money"}  # "钱的事", "借钱那件事": the money, however the story counts it
    story = said - DOMAINS - PEOPLE_CONCEPTS | said & {"money", "legal", "health"}
    return frozenset(story | {"spouse"} if "marriage" in said else story)  # a marriage's story is told of the spouse


_THE_DRINKING = re.compile(r"\bdrinking(?:\s+(?:problem|habit|again))?\s*$", re.IGNORECASE)
"""A topic that ends on "drinking", with nothing drunk after it ("Niamh and the drinking", "his drinking problem"):
the drinking that worries people, not "my son drinking energy drinks"."""


_THE_BABY = re.compile(r"\bbaby\b(?!\s+(?:shower|sitter|monitor|food|formula|clothes|photos?|pictures?|brother|sister|"
                       r"daughter|son|girl|boy|steps?))|宝宝(?!的?(?:照片|衣服|奶粉))", re.IGNORECASE)
"""A forget topic about a baby ("the baby news", "Mia's baby", "宝宝的事"): a pregnancy, which people tell as "she's
pregnant", "怀孕了" — not a baby's things ("the baby shower")."""


_TOLD_ON = re.compile(r"^\W*(?:(?:ok|okay|so|quick|small|another)\s+)?(?:update on|more on|following up on|follow-up on|"
                      r"follow up on|back to|re:|an update on|further to|接着|说回|后续|跟进一下|还是那事|那事后续|接着说)", re.IGNORECASE)
"""A message that says it goes on with what was told before ("update on the thing from this morning:", 接着早上那事)."""


_POINTS_BACK = re.compile(
    r"^\W*(?:(?:ok|okay|so|quick|small|little|brief|another|an?)\s+)*(?:update|follow[- ]?up)\s*(?:[:!—–-]|\s-\s)"
    r"|^\W*(?:(?:ok|okay|so|quick|small|little|brief|another|an?)\s+)*(?:update|follow[- ]?up|more)\s+(?:on|re|about)\s+"
    r"(?:that|this|it\b|(?P<en>(?:[\w'-]+\s+){0,4}?[\w'-]+?)(?:\s+(?:thing|stuff|situation|saga|business|front))?\s*(?::|—|–|\s-\s|,))"
    r"|^\W*(?:(?:so|and|ok|okay|right)[,\s]+)?(?:the|that)\s+(?P<thing>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+"
    r"(?:thing|stuff|situation|saga|business)\s*(?::|—|–|\s-\s|,)"
    r"|^(?:还是|关于)?(?:上次|上回|之前|前几天|前两天|那天)(?:跟你)?(?:说|提|讲)的?(?:那|这)(?:个|件)?事"
    r"|^(?:还是|关于)?(?:那|这)(?:个|件)?事(?:儿)?(?:[，,：:]|有|后续|又|还|调解|解决|办|搞|定|结束|完)"
    r"|^(?:接着|说回|关于)?(?P<cn>[\u4e00-\u9fff]{2,6}?)(?:那|这)(?:个|件)?事(?:儿)?(?![情物实业务])"
    r"|^(?:那事|这事)?后续",
    re.IGNORECASE)
"""A message that opens by pointing back at a story told before: an update, "the X thing:", 上次说的那事, X那事, 后续."""


_OUTCOME = re.compile(
    r"\b(?:came back|come back|results? (?:are|is) (?:in|back)|approved|denied|rejected|granted|refused|closed|settled|"
    r"signed(?! up\b)|scheduled|postponed|adjourned|dropped|cleared|all[- ]clear|went (?:fine|well|ok|okay|badly|smoothly)|"
    r"is over|finali[sz]ed|paid (?:off|back|out)|payout|landed|came through|hearing|verdict|ruling|sentenced|fined|"
    r"write-?off|written off|benign|malignant|in remission|discharged|booked in|date (?:is|was) set|moved to|pushed (?:back|to)|"
    r"decision|decided|offered|agreed to|in my favou?r|refund(?:ed)?|paying (?:it |me )?back|pay (?:it |me )?back|"
    r"won the case|lost the case)\b"
    r"|结果|出来了|下来了|到账|搞定|赢了|输了|判了|赔了|批了|通过了|办完|了结|解决了|签了|撤诉|调解|和解|罚了|出院|复查|约在|定在",
    re.IGNORECASE)
"""How the next step or the outcome of a story is told: results came back, approved, settled, 结果出来了, 赔了."""
_STEP_CONCEPTS = frozenset({"money", "legal", "health", "work"})
"""What an outcome may name besides the story's own area: a sum, a court, a doctor, the office."""
_PRIVATE_STORY_WEEKS = 10 * 7 * 86400.0
"""How long after it was last told a private story's outcome may still come (results, hearings, payouts)."""


_STILL_OF_IT = re.compile(r"\b(?:he|she|they|him|her|them|his|it|that)\b", re.IGNORECASE)
"""What an update says of someone or something already told ("Update: I passed! HR closed it out yesterday.")."""


_STORY_WEEKS = 6 * 7 * 86400.0
"""How long after it was last told a story is still being told on in later chats."""


def _tells_the_story(topic: str, sentence: str, someone: bool) -> bool:
    """A sentence about the story a topic names, by its own words or narrow concepts — by its area of life (health,
    money, the law) only where the topic names no more than that ("my health scare"), or, for `someone`'s story,
    names no more than a thing of that area ("the loan to my coworker")."""
    if not about(topic, sentence):
        return False
    story = re.sub(rf"\b{_NAME}(?:'s|’s)?\s*", "", topic)
    narrow = _story_concepts(story) - DOMAINS - {"money", "legal", "health"}
    words = set(query_terms(story)) - _NO_STORY - _VAGUE - set(query_terms(" ".join(_PEOPLE.findall(story))))
    if someone:  # "the loan to my coworker": of him, money is the story ("He Venmo'd me $1,250")
        words = {w for w in words if not concepts_in(w) or concepts_in(w) - DOMAINS - {"money", "legal", "health"}}
    else:  # "health" in "my health scare" names only the area; "my salary" names a thing the area holds more of
        words -= {t for terms in _AREA_TERMS.values() for t in terms}
    if not narrow and not words:
        return True
    return not _names_only_whom(topic, sentence)


def _names_only_whom(topic: str, sentence: str) -> bool:
    """A sentence about a topic only by the person in it ("Kevin's new puppy…" for "Kevin's run-in with the cops";
    typed without capitals, any word that names no concept may be the name: "up at dawn" for "the dawn cancer stuff"),
    or by no more than the area of life the story is in ("my hospital appointment" for someone's cancer)."""
    told = re.sub(rf"\b{_NAME}(?:'s|’s)?\s*", "", topic)
    story = " ".join(w for w in told.split() if has_cjk(w) or concepts_in(w) or w.lower() in STOPWORDS)
    if not re.search(r"\w", story):
        return True
    # what the whole of it names ("his problem with alcohol": the addiction too, told as "he agreed to go to rehab")
    narrow = (_story_concepts(story) | _story_concepts(told)) - DOMAINS - {"money", "legal", "health"}
    words = set(query_terms(story)) - _NO_STORY - _VAGUE - set(query_terms(" ".join(_PEOPLE.findall(story))))
    said = set(search_terms(sentence))
    return not (words & said or _kin(words, said) or concept_overlap(narrow, concepts_in(sentence)))


_PRIVATE_ROOTS = ("health", "legal", "debt", "affair", "separation", "job loss", "work trouble", "immigration", "domestic abuse",
                  "family conflict", "school trouble", "academic misconduct", "car accident", "housing trouble", "gambling")
PRIVATE_CONCEPTS = frozenset(n for n in CONCEPTS if n in _PRIVATE_ROOTS or set(ancestors(n)) & set(_PRIVATE_ROOTS))
"""What people tell in confidence: health, the law, debts, affairs, break-ups, losing a job, papers, abuse, rows,
trouble at school. "That thing about Sam" is the one of these told about Sam, not that Sam gave the user a scarf."""


def private(text: str) -> bool:
    return bool(concepts_in(text) & PRIVATE_CONCEPTS)


def points_back(text: str) -> bool:
    """A message that opens by pointing back at a story told before ("Update: she ended it with him.", 那事调解完了)."""
    return bool(_POINTS_BACK.match(text))


_THE_JOB = re.compile(r"\b(?:job|work|career|employment)\s+(?:situation|stuff|thing|news|drama|worries|issues?|change)\b"
                      r"|工作(?:那|上)?的?(?:事|情况|变动)|^工作$", re.IGNORECASE)
"""A forget topic that names the job only by its situation ("my job situation", "the work stuff", 工作那事): what
happened to it — lost, looked for a new one, trouble at work."""


_THE_MONEY = re.compile(r"(?<![赚省花])钱(?!包|塘|学森)")
"""A Chinese forget topic about money ("钱的事", "他借钱的事"), told as sums and debts ("欠了二十多万"); read in a
topic only, where 钱 is the money of a story, not the surname or a wallet."""


_BODY_ROOTS: dict[str, tuple[str, ...]] = {
    "kidney": ("nephr", "renal", "dialys"), "liver": ("hepat", "cirrho"), "heart": ("cardiac", "cardio", "arrhythm", "angina"),
    "skin": ("dermat", "eczem", "psoria"), "stomach": ("gastr", "enteri", "entero", "colitis", "ulcer"),
    "gut": ("gastr", "enteri", "entero", "colitis"), "bowel": ("colonos", "colitis", "crohn", "enteri"),
    "lung": ("pulmon", "pneumon", "asthma", "bronch"), "chest": ("pulmon", "pneumon", "asthma", "bronch", "cardiac"),
    "brain": ("neurolog", "cerebr", "epilep", "seizure"), "bone": ("osteo", "fracture"),
    "joint": ("arthrit", "arthro", "osteo", "rheumat"), "knee": ("arthr", "menisc", "ligament"),
    "back": ("spinal", "spine", "lumbar", "sciatic"), "blood": ("haemat", "hemat", "haemo", "hemo", "anaem", "leukaem", "leukem"),
    "eye": ("ophthalm", "ocular", "retina", "glaucom", "catarac"), "womb": ("hysterect", "uterus", "uterine", "endometri"),
    "bladder": ("cystitis", "urinary", "incontin"), "tooth": ("dental", "dentist", "odont"), "teeth": ("dental", "dentist", "odont"),
    "thyroid": ("thyro",), "mind": ("psychiat", "psycholog", "depress", "anxiety", "bipolar"),
    "mental": ("psychiat", "psycholog", "depress", "anxiety", "bipolar"),
}
"""A body part and the roots of the words doctors use for it: "my kidney" — "nephrolithiasis", "my joints" —
"osteoarthritis". People ask to forget a health story by the part of them it was about."""


def body_part(topic: str) -> str | None:
    """The body part a forget topic is about, when it is what the topic ends on ("my kidney", "the heart stuff"):
    not "our joint account", "the chest of drawers", "my mind games with Tom"."""
    words = [w for w in re.findall(r"[a-z]+", topic.lower()) if w not in _VAGUE_WORDS]
    last = words[-1].removesuffix("s") if words else ""
    return last if last in _BODY_ROOTS else None


def _in_doctors_words(part: str | None, sentence: str) -> bool:
    """Whether the sentence names the body part in a doctor's word for it, a word that starts with its root."""
    return bool(part) and any(re.search(rf"\b{root}(?!opub)", sentence, re.IGNORECASE) for root in _BODY_ROOTS[part])


_VAGUE_WORDS = frozenset({"stuff", "thing", "things", "bit", "bits", "part", "info", "business", "story", "details", "news",
                          "situation", "issue", "issues", "problem", "problems", "saga", "please", "pls", "ta", "thanks"})


def _kin(terms: set[str], words: set[str]) -> set[str]:
    """The terms of `terms` that share their first six letters with one of `words`: "pregnancy" —
    "pregnant", "diagnosis" — "diagnosed", "therapy" — "therapist", which the light stemmer keeps apart; or that
    are another form of one of them ("losing" — "lost", "eviction" — "evicted", see `other_forms`)."""
    stems = {w[:6] for w in words if len(w) >= 6 and w.isalpha()}
    kin = {t for t in terms if len(t) >= 6 and t.isalpha() and t[:6] in stems}
    return kin | {t for t in terms if other_forms(t) & words}


_IRREGULAR = ("lose lost losing", "leave left leaving", "break broke broken breaking", "fall fell fallen falling",
              "steal stole stolen stealing", "drink drank drunk drinking", "fight fought fighting", "sell sold selling",
              "buy bought buying", "drive drove driven driving", "win won winning", "spend spent spending",
              "pay paid paying", "bite bit bitten biting", "die died dying dead death", "marry married marriage",
              "hide hid hidden hiding", "sleep slept sleeping", "forgive forgave forgiven", "sink sank sunk",
              "engage engaged engagement", "retire retired retirement", "treat treated treatment",
              "employ employed employment", "enrol enroll enrolled enrolment enrollment", "invest invested investment",
              "punish punished punishment", "harass harassed harassment", "argue argued argument",
              "imprison imprisoned imprisonment", "payment paid")
"""Verbs of what people tell and later ask to forget whose forms the light stemmer keeps apart, and the nouns in
"-ment" that name the same event ("Clara's engagement" — "got engaged"; not "apartment" — "apart", "department" —
"departs" or "management" — "managed to", which a suffix rule took)."""
_FORMS: dict[str, frozenset[str]] = {}
for _group in _IRREGULAR:
    _stems = frozenset(search_terms(_group))
    for _term in _stems:
        _FORMS[_term] = _stems - {_term}


def other_forms(term: str) -> frozenset[str]:
    """The index terms of a word's other forms: an irregular verb's ("los" — "lost"), an event noun's ("engagement"
    — "engaged"), and the verb of a noun in "-ion" ("eviction" — "evict", "deportation" — "deport")."""
    forms = _FORMS.get(term, frozenset())
    for suffix in ("ation", "ion"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 5:
            return forms | {term[:-len(suffix)]}
    return forms


_NO_STORY = frozenset(search_terms("he she him his her hers they them their theirs it its we us our up out off down over"))
"""Words a topic says that tell no story: "Luke losing his job" is not about every sentence with "his" in it."""


def _owners(topic: str) -> set[str]:
    """Whose a topic's person or thing is: "Priti" in "Priti's husband"."""
    return set(query_terms(" ".join(re.findall(r"\b([\w-]+)['’]s\b", topic))))


_SOMEONE_BY_ROLE = re.compile(rf"^(?!.*\b(?:i'?m|i am|as an?|my (?:job|work|role|career))\b)(?:.*\b(?:that|the|this|a|an|some|"
                              rf"one)\s+(?:[\w-]+\s+)?|\s*)(?:{JOB_TITLES})s?\b", re.IGNORECASE)
"""A forget topic that calls someone by their work ("that nurse on my unit", "the new teacher")."""
_THE_USERS_ROLE = re.compile(rf"\b(?:i'?m|im|i am|i work as|the user is|the user works as)\s+an?\s+"
                             rf"(?:(?![\w-]*ing\b)[\w-]+\s+){{0,2}}(?:{JOB_TITLES})\b", re.IGNORECASE)
"""The user's own work ("I'm an ICU nurse at the Queen Elizabeth"), not "I'm seeing a therapist"."""
_ROLE_WORD = re.compile(rf"\b(?:{JOB_TITLES})s?\b", re.IGNORECASE)


def about(topic: str, sentence: str) -> bool:
    """Whether one sentence says something about a forget topic, by its words alone: a word of the topic
    (not only the person's: "my mum's diagnosis" is not "Mum's birthday is in May"), a word of the same
    stem, a concept of the story, or for Chinese most of its character pairs."""
    topic_terms = set(query_terms(topic))
    if _SOMEONE_BY_ROLE.search(topic) and (own := _THE_USERS_ROLE.search(sentence)) \
            and not _ROLE_WORD.search(sentence[:own.start()] + " " + sentence[own.end():]):
        return False  # "that nurse on my unit" is someone else: not "I'm an ICU nurse at the Queen Elizabeth"
    if _in_doctors_words(body_part(topic), sentence):
        return True  # "my kidney": "diagnosed with nephrolithiasis"
    area = sensitive_area(topic)
    if area and _about_work(sentence):
        return False  # "…my health": "I work as a nurse at the hospital" is no part of it
    if area and (slot := slot_of(sentence)) is not None and slot.name in AREA_SLOTS.get(area, ()):
        return True  # "I have type 1 diabetes": the health slot, whatever its words
    if slots := named_slots(topic):  # "my birthday", "my address": the user's own, whatever its words
        if concepts_in(sentence) & PEOPLE_CONCEPTS and not _also_the_users(sentence):
            return False  # not "My mum's birthday is 3 May", not "my sister lives in Porto"
        if _NAMED_FIRST.match(sentence) or THE_SOMEONE.match(sentence):
            return False  # not "Dan works at Google", "The landlord lives in Spain"
        if (slot := slot_of(sentence)) is not None and slot.name in slots:
            return True  # "where I work": "I'm a claims handler at Ping An"
    people = set(query_terms(" ".join(_PEOPLE.findall(topic))))
    if topic == topic.lower():  # typed without capitals: a word of the topic that stands as someone here is a name
        people |= {t for w in re.findall(r"[a-z]{3,}", topic) if w not in STOPWORDS and not concepts_in(w)
                   and _as_someone(w, sentence) for t in query_terms(w)}  # ("tyrell is in my fantasy league")
    owners = _owners(topic)
    story = (topic_terms - people - owners - _NO_STORY - _VAGUE
             or topic_terms - owners - _NO_STORY - _VAGUE  # "Bern's husband": the husband, not all said of Bern
             or topic_terms - _VAGUE or topic_terms)  # "the Northgate thing": Northgate
    words = set(search_terms(sentence))
    if _ALL_OF_IT.search(topic) and people & words:
        return True  # "Sheila and the money and all of it": all said of Sheila
    if has_cjk(topic):
        story = {t for t in story if not has_cjk(t)}  # Chinese is read by its pairs below, not char by char
    if story & words or _kin(story, words) or concept_overlap(_story_concepts(topic), concepts_in(sentence)):
        return True
    return has_cjk(topic) and _cn_says(_cn_core(topic), sentence)


_RELATIVE_PHRASE = re.compile(rf"\b(?:my|our|the user's|their)\s+(?:\w+\s+)?(?:{RELATIVES})(?:'s|’s)?"
                              rf"|(?:我们|我|用户)的?(?:{CN_RELATIVES})", re.IGNORECASE)
_I_UNSAID = re.compile(r"^\W*(?:(?:just|finally|still|also|so|and|now|lately)\s+)?(?:been|got|gotten|had|have|went|am|"
                       r"feel|feeling|started|starting|stopped|quit|finished|booked|seeing|trying|getting|having|going)\b",
                       re.IGNORECASE)
"""A message typed without its "I" ("been having dark thoughts lately, started seeing a therapist"): the user's own."""
def _no_one_else_cn(text: str) -> bool:
    """Chinese typed without its 我 and naming no one else ("早上测了两道杠……完全没计划"): the user's own."""
    return has_cjk(text) and not re.search("[他她你]", text) and not concepts_in(text) & PEOPLE_CONCEPTS


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|me|my|mine|myself|we|we're|our|us|the user|their)\b|我|用户", re.IGNORECASE)


def _also_the_users(sentence: str) -> bool:
    """Whether a sentence about a relative also speaks of the user, once the relative's own phrase is set
    aside: "My mum's birthday is 3 May and mine is 9 June" does, "My mum's birthday is 3 May" does not."""
    return bool(_FIRST_PERSON.search(_RELATIVE_PHRASE.sub(" ", sentence)))


def _cn_core(topic: str) -> str:
    """A Chinese topic without its frame: "前两天说我弟欠钱那个事" → "我弟欠钱"."""
    return _CN_TOPIC_FRAME.sub("", topic) or topic


_CN_WHOSE = re.compile(rf"^(?:(?:我们|我|用户)的?)?(?:{'|'.join(_CN_PEOPLE)}|"
                      r"(?:老|小)(?!家|是|年|时候|区|孩|心|说|事)[\u4e00-\u9fff]|[\u4e00-\u9fff](?:姐|哥|叔|姨|总|师傅))的?")
"""Whom a Chinese topic's story is of, said first: a relative (我弟), or how people are called (老陈, 小琴, 王姐)."""


_CN_GRAMMAR = frozenset("上下里中前后内外边时间天年月日号个只件把给被让跟对从向到去来着得地很太更最又再才没不")
"""Characters that place, time, count or join what a Chinese sentence says: in every other sentence, they tell no
story (肺上那个结节 is 肺 and 结节; 借钱给我弟弟 is 借 and 钱)."""


_CN_COUPLE = re.compile(r"小两口|两口子|夫妻俩|夫妻|他们俩|她们俩|他俩|她俩|俩人|两个人|一家人|一家子")
"""Two or more people at once (两口子吵架 is 吵架): whose story, not what happened — and 两, 口 are in 小两口 too."""


def _story_chars(story: str) -> list[str]:
    """A Chinese story's own characters, a space for each that is not one: the people in it are whose, not what
    ("儿媳吵架" is 吵架), and what only places, times or joins tells nothing."""
    story = CN_PEOPLE_WORDS.sub(" ", re.sub(CN_RELATIVES, " ", _CN_COUPLE.sub(" ", story)))
    return [c if has_cjk(c) and c not in CJK_STOP_CHARS | CJK_PARTICLES | _CN_GRAMMAR else " " for c in story]


def cn_tells(story: str, text: str) -> bool:
    """Whether `text` tells a Chinese story in words of its own: for a short one, any of its characters (借钱 —
    "借了两万", 挂科 — "有门课挂了"); for a longer one, a pair of them or two of them apart (肺上那个结节 — "肺上有个
    小结节", 借表哥的钱还清 — "找表哥刘强借了两万"), since one character of six is anything ("上个礼拜天签的合同")."""
    own = _story_chars(story)
    chars = {c for c in own if c != " "}
    if len(chars) <= 2:
        return bool(chars & set(text))
    return len(chars & set(text)) >= 2 or any(a + b in text for a, b in zip(own, own[1:]) if " " not in (a, b))


_CN_KIN = {"弟弟": "弟", "哥哥": "哥", "姐姐": "姐", "妹妹": "妹", "妈妈": "妈", "爸爸": "爸"}
"""A relative said in full (借钱给我弟弟) is said short too ("我弟做生意亏了")."""


def _cn_people_pairs(topic: str) -> set[str]:
    """The character pairs and characters of a Chinese topic that are someone, or part of them ("我儿", "儿子",
    "儿媳", 媳 of 我儿子儿媳吵架): who the story is of, not what it tells."""
    spans = [m.span() for m in re.finditer(f"{CN_PEOPLE_WORDS.pattern}|{CN_RELATIVES}|前任", topic)]
    return ({topic[i:i + 2] for start, end in spans for i in range(max(0, start - 1), end) if i + 2 <= len(topic)}
            | {topic[i] for start, end in spans for i in range(start, end)})


def _cn_says(core: str, text: str) -> bool:
    """Most of a Chinese topic's character pairs, or every one of its characters in any order ("我爸欠钱" in
    "我爸欠了别人十几万的钱"). When the topic names whose story it is, the story's own words must be there:
    "老陈借钱" is not everything said of 老陈 ("老陈是我老公，以前开公交车的"), as "Cian's assessment" is not."""
    whose = _CN_WHOSE.match(core)
    story = core[whose.end():] if whose else ""
    if len(story) >= 2:  # the one it is of, and the story's own characters or its concept ("老陈前阵子找他同学借了
        person = re.sub(r"^(?:我们|我|用户)的?|的$", "", whose.group(0))  # 两万"), not a price ("三百块钱")
        return person in text and (cn_tells(story, text)  # what happened, not who ("两口子吵架": not 小两口开了家面馆)
                                   or concept_overlap(_story_concepts(story) - PEOPLE_CONCEPTS, concepts_in(text)))
    chars = {t for t in query_terms(core) if is_single_cjk(t)}
    return keyword_overlap(core, text) >= 0.5 or (len(chars) >= 2 and chars <= set(text))


_ALL_OF_IT = re.compile(r"\b(?:all of (?:it|that|this|them)|all (?:that|this)|the whole (?:thing|lot|story|business|saga)|"
                        r"every ?thing)\b", re.IGNORECASE)
"""A topic that says it wants the whole story gone, not one part of it ("…and the casino and all of it")."""
_OPENS_ON_THEM = re.compile(r"^\W*(?:(?:now|and|but|so|then|still|apparently|and now|but now)\s+)?(?:he|she|him|her|his)\b",
                            re.IGNORECASE)
"""A message that opens on whom the one before spoke of ("now he ignores her calls")."""
_THEIR_DOING = re.compile(r"^\W*(?:and\s+|but\s+|now\s+|then\s+)?(?:says|wants|keeps|needs|asks|reckons|thinks|claims|swears|"
                          r"promises|owes|borrows|insists|refuses|admits|denies|calls|texts|rings)\b", re.IGNORECASE)
"""A sentence that leaves out whose doing it tells, in a form the user's own never takes ("wants to borrow 4 grand,
says they're behind on the house note"): it goes on about whom the sentence before named."""
_GOES_ON = re.compile(r"^\W*(?:he|she|they|his|her|their|him|them)\b|^\W*(?:他|她|他们|她们)", re.IGNORECASE)


_OWN_FACT = re.compile(r"\b(?:turn(?:s|ing|ed)? \d+|\d+ (?:years? old|today|next)|birthday|works? (?:at|as|for|in)|"
                       r"working (?:at|as|for)|(?:role|job|post|position) as|lives? (?:in|at|with)|"
                       r"moved to|(?:starts?|started|starting) (?:at|uni|school|college|work|a new)|new job|got a job|"
                       r"married|engaged|pregnant|(?:been |got )?made (?:head|senior|chief|lead|deputy|a partner|partner|captain)|"
                       r"(?:got )?promoted)\b|岁|生日|上班|住在|结婚",
                       re.IGNORECASE)
"""What someone is, wherever a story about them is told: an age, a birthday, where they work or live."""


_SHE = re.compile(r"\b(?:mum|mom|mam|mother|sister|daughter|wife|girlfriend|gf|aunt|auntie|niece|gran|granny|nan|nana|"
                  r"grandma|grandmother|fianc[eé]e|missus|stepmum|stepmom)\b|妈|姐|妹|女儿|老婆|媳妇|女朋友|奶奶|外婆|姑|姨", re.IGNORECASE)
_HE = re.compile(r"\b(?:dad|father|brother|son|husband|boyfriend|bf|uncle|nephew|grandad|granddad|grandpa|grandfather|"
                 r"fianc[eé]|hubby|stepdad)\b|爸|哥|弟|儿子|老公|男朋友|爷爷|外公|叔|舅", re.IGNORECASE)
_ANOTHER_PERSON = re.compile(rf"(?<!^)\b(?-i:[A-Z][a-z]{{2,}})\b|\b(?:my|our)\s+(?:\w+\s+)?(?:{RELATIVES})\b|"
                             rf"(?:我|我的)(?:{CN_RELATIVES})", re.IGNORECASE)


def speaks_of_them(sentence: str, topic: str) -> bool:
    """A sentence that opens on the pronoun for whom the topic names ("she" for a sister, 他 for a brother), or on
    what they say with no subject ("says he'll pay it back", "说年底还"), and names nobody else: it goes on about
    them. "They say it'll rain", "He's been amazing, my husband" do not."""
    female, male = bool(_SHE.search(topic)), bool(_HE.search(topic))
    she = r"she|her|她" if female or not male else ""
    he = r"he|him|his|他" if male or not female else ""
    opens = (re.match(rf"^\W*(?:{'|'.join(p for p in (she, he) if p)})(?:\b|(?=[\u4e00-\u9fff]))", sentence, re.IGNORECASE)
             or _THEIR_DOING.match(sentence) or _OPENS_UNSAID.match(sentence)
             or re.match(r"^\W*说(?!实话|真的|起来|到)", sentence))  # "says he'll…", "Hasn't told work yet", "说年底还"
    return bool(opens) and not _ANOTHER_PERSON.search(_PLACE.sub(" ", sentence))


_HIS_OR_HERS = re.compile(r"\b(?:he|she|him|her|his|hers)\b|他|她", re.IGNORECASE)
"""Someone else's, where "they" may be a company ("they offered 36")."""
_THEIR_OWN = re.compile(rf"\b(?:her|his|their)\s+(?:[\w-]+\s+)?(?:{RELATIVES})\b(?:\s+(?-i:[A-Z])[a-z]+)?", re.IGNORECASE)
_SOMEONE_ELSE = re.compile(rf"(?<![.!?]\s)(?<!^)\b(?-i:[A-Z])[a-z]{{2,}}\b|\b(?:my|our)\s+(?:[\w-]+\s+)?(?:{RELATIVES})\b|"
                           rf"^\W*(?:{RELATIVES})\b", re.IGNORECASE)
_CN_SOMEONE_ELSE = re.compile(rf"[我咱俺]|(?:{CN_RELATIVES})|(?:老|小)[\u4e00-\u9fff](?![家时区孩心说事是年])|"
                              r"[\u4e00-\u9fff](?:姐|哥|叔|姨|总)")


def _as_someone(word: str, text: str) -> bool:
    """Whether a lowercase word stands as a person in `text`: "rohit's", "rohit lost…" opening it, "flatmate is
    rohit", "with rohit" — not "up at dawn", "every penny"."""
    w = re.escape(word)
    return bool(re.search(rf"\b{w}(?:'s|’s)\b|^\W*{w}\s+(?!\w+ing\b)\w+|\b(?:is|was|with|and|called|named|friend|flatmate|"
                          rf"mate|roommate|colleague|cousin|brother|sister|boss)\s+{w}\b|\b{w}\s+(?:is|was|has|had|said|says|"
                          rf"told|lost|got|took|returned|asked|wants|called|texted|rang|owes|borrowed)\b", text, re.IGNORECASE))


def _goes_on_telling(content: str, tells: Callable[[str], bool]) -> bool:
    """A message (or window) that goes on with a story: one of its sentences speaks of them before anyone else and
    tells it ("He got me a coffee, my husband says he's nice. Husband got his bonus too!" tells no debt of Gary's)."""
    return any(_of_someone_said_before(sentence) and tells(sentence) for sentence in split_sentences(content))


_QUICK_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])")
_NAMED_FIRST = re.compile(r"^\W*(?!(?:I|I'm|I've|My|Our|We|The|This|That|It|Current|Now|Just|Got|Still|Today|Yesterday)\b)"
                          r"(?-i:[A-Z])[a-z]{2,}\b(?:['’]s)?\s+(?:\w+\s+)?(?:is|was|lives|works|earns|makes|moved|got|has)\b"
                          r"|^\W*(?:(?:老|小)(?!时候|区|学|家|是)[\u4e00-\u9fff]|[\u4e00-\u9fff]{1,2}(?:姐|哥|叔|姨|总))(?!的?[我])")
"""A statement that opens on someone's name ("Megan lives in Brighton now", "Tom's salary is 80k", 小王年薪三十万):
theirs, whatever slot it fills."""


def _of_someone_said_before(text: str) -> bool:
    """Text that goes on about someone named before it: "her", "he" (not "they": a company) before anyone else is
    named, once their own people are set aside ("To be fair to her… her husband Steven… She's not told Mum" goes on;
    "My sister says she's…", "Mum rang, she…", "Took my mum to her wine club" are about someone else);
    or Chinese that leaves its subject out and names nobody, the user neither ("说是做生意周转" after "表哥找我借三万块",
    not "周末带女儿去游乐园" nor "妈妈最近身体也不好")."""
    if has_cjk(text) and not re.search(r"[A-Za-z]{3,}", text):
        return not _CN_SOMEONE_ELSE.search(re.sub(r"[他她]的?(?:" + CN_RELATIVES + ")", "", text))
    if _THEIR_DOING.match(text):
        return True
    rest = _PLACE.sub(lambda m: " " * len(m.group(0)), _THEIR_OWN.sub(lambda m: " " * len(m.group(0)), text))
    pronoun = _HIS_OR_HERS.search(rest)  # the first "she" is theirs unless someone else is named before it
    return pronoun is not None and not _SOMEONE_ELSE.search(rest[:pronoun.start()])


_PLACE = re.compile(r"\b(?:to|in|at|from|near)\s+(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))*")
"""A place ("moved back to Buenos Aires"), whose capitals name nobody."""


_OPENS_ON_SOMEONE = re.compile(rf"^\W*(?:(?:my|our|the user's)\s+(?:[\w-]+\s+)?(?:{RELATIVES})\b|(?:我|我们|用户)的?(?:{CN_RELATIVES}))",
                               re.IGNORECASE)
"""A statement that opens on someone of the user's ("My mum has rheumatoid arthritis", 我老婆…): theirs."""
_SHIFT = re.compile(r"^\W*(?:(?:but|and|though)\s+)?(?:also|anyway|anyways|btw|by the way|separately|unrelated|totally separate|on another (?:note|matter)|"
                    r"on an? (?:different|happier|lighter|separate|brighter|other) note|in other news|other news|speaking of|"
                    r"changing the subject|on the bright side|oh and|other than that|moving on|for context|otherwise|"
                    r"on (?:the )?other (?:side|hand)|apart from that|aside from that|meanwhile|in (?:happier|better) news|"
                    r"on the plus side|funny (?:timing|thing)|(?:some |in )?(?:good|great|grand|big|happy|exciting|better) news|"
                    r"对了|哦对|噢对|另外|换个话题|说点别的|说点高兴的|顺便|还有个事|话说|不说这个了|不提了|言归正传|说回正事|说起来|说到这个|不过)",
                    re.IGNORECASE)
"""How a sentence turns to something else ("Also my cousin is getting married", "In other news…", "对了，我下个月…")."""
_STORY_ROLE = re.compile(r"^\W*(?:(?:the|his|her|their|my|our)\s+)?(?:doctors?|gp|surgeon|consultant|specialist|nurses?|lawyer|solicitor|"
                         r"attorney|public defender|barrister|police|cops|judge|therapist|counsell?or|school|teachers?|hr|"
                         r"landlord|bank|debt collectors?|bailiffs?|insurers?|insurance|adjudicator|assessor|accountant|"
                         r"dr\.? [a-z]+|doc|consultant [a-z]+)\b(?:,[^,]{1,30},)?\s+(?:says?|said|saying|told|thinks?|reckons?|"
                         r"advises?|advised|wants?|called|rang|came)\b|^(?:医生|大夫|律师|警察|对方|法院|老师|学校|银行|公司那边|"
                         r"咨询师|心理医生|班主任|保险公司|交警|派出所|民警|人事|中介)",
                         re.IGNORECASE)
"""Someone a story involves, saying what happens next: "His public defender says…", "My solicitor advises…", "医生说…"."""
_OPENS_UNSAID = re.compile(r"^\W*(?:turns out|hasn't|hadn't|doesn't|isn't|wasn't)\b|\b(?:apparently|reportedly|allegedly)\b",
                           re.IGNORECASE)
"""A sentence that goes on about someone without naming them, in a form the user's own never takes."""


_SAID_OF_ANOTHER = re.compile(rf"^[^,.;]*,\s*(?:my|our)\s+(?:\w+\s+)?(?:{RELATIVES})\b", re.IGNORECASE)
""""He's been amazing, my husband, …", "He got me a coffee, my husband says…": whom "he" is, or who speaks, is
someone else of the user's."""


_SPEAKS_AS_ME = re.compile(rf"^\W*(?:i|i'm|i've|my own|me,|as for me)\b|^\W*我(?!们?的?(?:{CN_RELATIVES}))", re.IGNORECASE)
"""A sentence that turns to the user's own news ("Me, I'm flat out with the reno", "我自己这边工作挺顺的")."""


def story_goes_on(sentence: str) -> bool:
    """Whether the first sentence of the next message goes on with the story told just before: it opens on them ("She's
    thinking of hiring a private investigator", "His public defender says…", "Hasn't told work yet…", 说年底还), not on
    something else ("Also my flatmate…", "对了…") nor on the user's own news ("I got into the masters!")."""
    if _SHIFT.match(sentence) or _OWN_FACT.search(sentence):
        return False  # "He's been made head chef at the Clarence" is news of its own
    if has_cjk(sentence) and not re.search(r"[A-Za-z]{3,}", sentence):
        return bool(re.match(r"^\W*(?:他|她|说(?!实话|真的|起来|到))", sentence) or _STORY_ROLE.match(sentence)) \
            and not re.search(CN_RELATIVES, sentence)  # not 她儿子考上北大了
    return bool(_STORY_ROLE.match(sentence) or _OPENS_UNSAID.search(sentence) or _THEIR_DOING.match(sentence)
                or re.match(r"^\W*(?:he|she|his|her|him)\b", sentence, re.IGNORECASE)) \
        and not _THEIR_OWN.match(sentence.lstrip(" \"'“(")) and not _SAID_OF_ANOTHER.match(sentence)  # "His wife Ana…"


_BACK_TO_THEM = re.compile(r"\b(?:he|she|him|her|his|hers)\b|[他她]", re.IGNORECASE)
_NEW_TIME = re.compile(r"^\W*(?:(?:so|and|but|oh|also)\s+)?(?:yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening|"
                       r"weekend)|last (?:night|week|weekend|month|year|\w+day)|next (?:week|weekend|month|year|\w+day)|"
                       r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
                       r"昨天|今天|今晚|明天|周末|上周|下周|这周|本周|上个?月|下个?月|前天|后天|大前天|最近|前几天|上礼拜|下礼拜)",
                       re.IGNORECASE)
"""A sentence that opens on a time of its own tells a new event ("周末带女儿去游乐园", "Yesterday I…")."""
_CN_SOMEONE_OF_MINE = (rf"{CN_RELATIVES}|室友|闺蜜|同学|邻居|表哥|表姐|表弟|表妹|堂哥|堂姐|舅舅|舅妈|姑姑|姨|叔叔|婶婶|孩子|对象|"
                       r"前任|前夫|前妻|公公|婆婆|岳父|岳母|师傅|徒弟|客户")
_AGAIN_OF_THEM = re.compile(r"\b(?:he|she|they)(?:'s| has| have| was| is)? (?:\w+ )?(?:again|still)\b|(?<![我你])自己|又|还是",
                            re.IGNORECASE)
""""上周自己出门找不到家", "Last night he was drinking again": at a time of its own, the same person's story still."""
_AS_ME = re.compile(rf"\b(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|we'd)\b|(?<![他她你])我(?!们?的?(?:{_CN_SOMEONE_OF_MINE}))|[俺咱]",
                    re.IGNORECASE)
"""The user as who does or is something ("I", "we", 我): not "my friend", "told me", 我姐."""
_MY_THING = re.compile(r"\b(?:my|our)\s+(?:(?:whole|own|entire|new|old|current)\s+)?([a-z][\w-]+)", re.IGNORECASE)


def _of_my_own(sentence: str) -> bool:
    """A sentence about a thing of the user's ("my whole team is on the list", "our lease ends in May"), not about
    someone of theirs ("my friend Lena told me…"): the user's own story."""
    return any(not concepts_in(m.group(1)) & PEOPLE_CONCEPTS and not re.fullmatch(RELATIVES, m.group(1), re.IGNORECASE)
               for m in _MY_THING.finditer(sentence)) and not _ANOTHER_PERSON.search(sentence)


_HEDGE = re.compile(r"\bi (?:think|guess|reckon|mean|suppose|believe|heard|gather|hear)\b|我(?:觉得|感觉|猜|听说)", re.IGNORECASE)
""""…sertraline I think": how sure the user is of someone else's story, not the user in it."""
_ME_TOO = re.compile(r"\b(?:too|as well|ours|mine|myself)\b|我也|咱也|我自己", re.IGNORECASE)


_CALENDAR_WORDS = frozenset("january february march april may june july august september october november december monday "
                            "tuesday wednesday thursday friday saturday sunday christmas easter".split())


_CN_NAMED = re.compile(r"(?:老|小)[\u4e00-\u9fff](?<![老小][家时区孩心说事是年师板公婆人])|阿[\u4e00-\u9fff](?<!阿[姨婆公爸妈哥姐])|"
                       r"[\u4e00-\u9fff](?<![我你他她大表堂和跟与同])(?:姐|哥|总)")
"""Someone called by name in Chinese: 老周, 小雨, 阿峰, 王姐, 李总 (not 老家, 小时, 老师, 老公, 阿姨, 我姐)."""


def _same_person(said: str, topic_word: str) -> bool:
    """"noah" and "Noah", "my dad" and "father", 小军 and 我表弟小军: the same person, as two sayings name them."""
    if said == topic_word or topic_word in said.split() or said in topic_word.split() or topic_word in said:
        return True
    return bool(concepts_in(said) & concepts_in(topic_word) & PEOPLE_CONCEPTS)


def _named_in(text: str) -> set[str]:
    """Whom a sentence names: names with capitals and the user's people ("my husband", 我老公), lower-cased."""
    found = {m.group(0).lower() for m in _ANOTHER_PERSON.finditer(_PLACE.sub(" ", text))} - _CALENDAR_WORDS
    found |= set(_CN_NAMED.findall(text)) | set(re.findall(CN_RELATIVES, text))
    found |= {m.group(1).lower() for m in re.finditer(rf"^\W*({RELATIVES})\b", text, re.IGNORECASE)}  # "Mum rang, she…"
    opening = _OPENS_ON_SOMEONE.match(text)
    return found | ({opening.group(0).strip().lower()} if opening else set())


def _turns(sentence: str, before: str) -> bool:
    """A sentence after a story that turns from it: a shift word ("Also…", "For context, I work as…", 另外…), a question,
    what a slot of its own holds or what someone is (a job, a birthday), someone the story did not name ("…my sister's
    just landed a job"), or the user's own "too" ("I actually take sertraline too" after Ben's)."""
    if _SHIFT.match(sentence) or re.search(r"[?？]\W*$", sentence) or _OWN_FACT.search(sentence):
        return True
    slot = slot_of(sentence)
    if slot is not None and slot.kind != "relation" and slot != slot_of(before) and not _GOES_ON.match(sentence):
        return True
    return _opens_on_someone_new(sentence, before) or bool(_ME_TOO.search(sentence))


_OPENS_ON_KIN = re.compile(rf"^\W*(?:(?:oh|and|but|so|plus|then|well|meanwhile)[\s,]+)*(?:(?:my|our)\s+(?:[\w-]+\s+)?)?"
                           rf"(?P<who>{RELATIVES})\b|^\W*(?:哦|噢|而且|然后|还有)?\W*(?:我的?|我们的?)?"
                           rf"(?P<cn>{CN_RELATIVES}|{_CN_NAMED.pattern})", re.IGNORECASE)


def _opens_on_someone_new(sentence: str, before: str) -> bool:
    """A sentence that opens on someone the story did not name ("Mum rang, she finally paid off her mortgage!", "My
    sister's just landed a job", 我老婆最近升职了, "Megan lives in Brighton now"); not one that only mentions
    someone on the way ("还没跟领导说", "I'm covering his shifts")."""
    named_before = _named_in(before)
    kin = _OPENS_ON_KIN.match(sentence)
    if kin:
        who = (kin["who"] or kin["cn"] or "").lower()
        return not any(who in name for name in named_before)
    if _SAID_OF_ANOTHER.match(sentence):  # "He's been amazing, my husband, so supportive."
        return bool(_named_in(sentence) - named_before)
    name = _OPENS_ON_A_NAME.match(sentence)
    first = name.group(1).lower() if name else ""
    return (bool(first) and first not in _NOT_NAMES and first not in " ".join(named_before)
            and not concepts_in(first))  # "Severance is 12 weeks", "Chemo starts Monday": a thing of the story


_OPENS_ON_A_NAME = re.compile(r"^\W*((?-i:[A-Z])[a-z]{2,})\s+(?:is|was|has|had|lives|works|moved|got|rang|called|texted|"
                              r"said|says|just|finally|and\s+(?-i:[A-Z]))\b", re.IGNORECASE)
"""A sentence that opens on someone's name and what they do ("Megan lives in Brighton now", "Gary rang") — not on a
thing ("Final pay is two weeks' wages")."""


_NOT_NAMES = frozenset("she he they it we you there here what who everything everyone nobody nothing someone "
                       "something life work home today tomorrow yesterday".split())
"""Capitalised first words that name nobody ("She has to go to court")."""


def carries_on(sentence: str, before: str, back: bool | None = None) -> bool:
    """A sentence right after one that tells a story, telling more of it in other words: "I've been made redundant. Last
    day's the end of the month…", "…custody dispute. The hearing is scheduled for November 8.", "…酒驾被查了。单位那边请了
    年假糊弄过去。" — unless it turns (`_turns`) or opens on a time of its own. Someone else's story goes on only where it
    speaks of them again (`back`: by default, this sentence does), at no time of its own: "Finally quit smoking" and
    "Pizza at her place tonight" after Anna's driving test are the user's news; "I took leave to be with her" goes on."""
    if _turns(sentence, before) or _NEW_TIME.match(sentence) and not _AGAIN_OF_THEM.search(sentence):
        return False  # "周末去西湖边citywalk", "Yesterday I…"
    if _AS_ME.search(_HEDGE.sub(" ", before)) or _of_my_own(before):
        return True  # the user's own story goes on in the user's words ("I am on ART and my viral load…", "…my whole
        # team is on the list. last day is feb 6")
    back = bool(_BACK_TO_THEM.search(sentence) or _AGAIN_OF_THEM.search(sentence)) if back is None else back
    return back and (first_time(sentence, 0.0) is None or bool(_AGAIN_OF_THEM.search(sentence)))


_NAMED_AGAIN = re.compile(r"^\W*(?!(?i:she|he|they|it|this|that|there|what|who)\b)([A-Za-z][a-z]{2,})\s+(?:is|was|has|had|'s)\b")


def carries_on_next(message: str, before: str, said_at: float) -> bool:
    """The next message goes on with a story told at the end of the one before (`carries_on` for its first sentence,
    speaking of them again anywhere before it turns: "还没跟领导说，怕影响评优。让我先帮她保密。"), unless it opens on news
    with a date of its own ("五一放假他回来，5月1号到家" after 儿子挂科; "wedding moved up to december 12")."""
    units = told_units(message)
    if not units or first_time(units[0], said_at) is not None:
        return False
    again = _NAMED_AGAIN.match(units[0])
    if again and re.search(rf"\b{re.escape(again.group(1))}\b", before, re.IGNORECASE) and not _a_feeling(units[0]):
        return False  # "marcus is in my pub quiz team": named again, a fact of its own about him
    told = [units[0], *itertools.takewhile(lambda unit: not _turns(unit, before), units[1:])]
    return carries_on(units[0], before, back=any(_BACK_TO_THEM.search(unit) for unit in told))


def goes_on(sentence: str) -> bool:
    """A sentence that opens on whom the one before named and says nothing a slot holds ("Ruth started chemo. She's
    lost her hair…", "His accountant filed nothing…"): it goes on telling that story. "He's turning 70 in June"
    after "Dad's knee surgery is on Friday" is a fact of its own."""
    return bool(_GOES_ON.match(sentence) or _THEIR_DOING.match(sentence) or _THEIR_DOING_UNSAID.match(sentence)) \
        and slot_of(sentence) is None and not _OWN_FACT.search(sentence)


_THEIR_DOING_UNSAID = re.compile(r"^\W*[a-z]+(?:ing|ed)\b(?!.*\b(?:i|i'm|me|my)\b).*\b(?:his|her)\b", re.IGNORECASE)
""""Nodding off at his desk, always asking to borrow cash": a sentence with no subject that tells of "his" desk
goes on about him (not "Spent my evening at her place")."""


_SPACED = re.compile(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]")
_SOMEONE_CN = re.compile(r"[我你俺咱]|用户|(?<![金名余])额(?![度外头数定满])")


def _told_in(content: str) -> list[tuple[str, bool, bool]]:
    """Each unit a message told things in; whether it is a chunk of Chinese typed with spaces for stops; whether it
    opens a sentence."""
    units = []
    for sentence in split_sentences(content):
        spaced = (bool(_SPACED.search(sentence)) and not re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", sentence)
                  and not re.search(r"[，、；,;]", sentence))  # "我老公 张伟 在赌博，…": spaces between words, not stops
        chunks = sentence.split() if spaced else [c for c in _TURN_IN_SENTENCE.split(sentence) if c.strip()]
        units += [(unit, spaced, n == 0) for n, unit in enumerate(chunks)]
    return units


_TURN_IN_SENTENCE = re.compile(r"(?<=[,;，；])\s*(?=(?:but|and|though)?\s*(?:on an? (?:brighter|happier|lighter|better|"
                               r"separate|different|other) note|(?:the |some )?good news|in other news|separately|"
                               r"不过好消息|好消息是|另外|对了|顺便))", re.IGNORECASE)
"""Where a sentence turns to something else after a comma ("…reminder letter, but on a brighter note I've started
parkrun", "…报销发票有问题，不过好消息是…"): two things told, each a unit of its own."""


def told_units(content: str) -> list[str]:
    """The units a message told things in: its sentences, and the chunks of Chinese typed with spaces for stops
    ("老婆叫刘彩霞 在超市当收银员 女儿叫王悦 上初二" is four)."""
    return [unit for unit, _, _ in _told_in(content)]


def _goes_on_in_chinese(chunk: str) -> bool:
    """A chunk of Chinese that leaves its subject out ("上初二", "才八周", "最好的闺蜜") or opens with 他 or 她: it goes
    on about whom the chunk before named. One that speaks as 我 or to 你, or opens on someone ("老公叫张伟"), does not."""
    chunk = chunk.lstrip("！!？?。，,、~～ ")
    if chunk.startswith(("他", "她")):
        return True
    return not _SOMEONE_CN.search(chunk) and not re.match("|".join(sorted(_CN_PEOPLE, key=len, reverse=True)), chunk) \
        and not concepts_in(chunk[:3]) & PEOPLE_CONCEPTS


_REMARK = re.compile(r"^\W*(?:not (?:great|good|amazing|ideal|fun|bad|brilliant|much)|so|too|very|really|pretty|quite|such|"
                     r"what a|how|ugh+|meh|oh well|awkward|awful|great|fine|typical|classic|lol|haha\w*|yikes|oof)\b",
                     re.IGNORECASE)


_KEPT_FROM = re.compile(
    r"\b(?:ha(?:s|ve) no idea|ha(?:s|ve) no clue|(?:does|do|did)(?:n'?t| not) (?:know|suspect)|(?:has|have|had)(?:n'?t| not) "
    r"(?:been )?told|(?:nobody|no one|noone|no-one) (?:else )?(?:knows|knew)|(?:is|are) (?:clueless|in the dark)|"
    r"(?:not|never) (?:told|telling) (?:anyone|anybody|them|him|her)|(?:don'?t|do not|please don'?t) tell (?:anyone|anybody)|"
    r"keep(?:ing)? it (?:quiet|secret|to myself|between us))\b|(?:还|都|并|完全|根本|压根|一点都)不知道|不知道这事|还没(?:告诉|跟|和|敢)|"
    r"没(?:告诉|敢告诉)|没人知道|别告诉|先保密|帮我保密", re.IGNORECASE)


def kept_from(sentence: str) -> bool:
    """A short sentence that only says who does not know yet ("My manager has no idea.", "Haven't told my parents.",
    "还没跟领导说"): it speaks of the story just told, and goes with it."""
    return bool(_KEPT_FROM.search(sentence)) and len(re.findall(r"[\w']+", sentence)) <= 10 and len(sentence) <= 60


_FEELING = re.compile(
    r"^\W*(?:(?:honestly|tbh|ngl|and|so|but|just)[,\s]+)?(?:i'?m|im|i am|i feel|feeling|i keep|i can'?t stop|i'?ve been|i just|"
    r"kinda|really|so|still|worried|scared|terrified|nervous|freaking out|trying not to)\b.*\b(?:scared|terrified|freak(?:ing)? out|"
    r"worried|anxious|nervous|sick about it|devastated|heartbroken|gutted|crying|cry|upset|shaken|numb|a mess|a wreck|"
    r"panicking|stressed|can'?t sleep|overwhelmed|sad|furious|ashamed|embarrassed|mortified|show up)\b"
    r"|^\W*我?(?:好|很|真的|特别|有点|挺)?(?:害怕|难受|崩溃|慌|焦虑|睡不着|想哭|不好受|郁闷|心累|尴尬)", re.IGNORECASE)


def continues(sentence: str, before: str, topic: str = "") -> bool:
    """A sentence right after one of a story, in the same message, that goes on with it: it opens on them or on "it"
    ("It's a 30-day place in Tucson"), only remarks on it, says who does not know or how the user feels, tells more
    of it in other words (`carries_on`), or — with the `topic` — speaks of it again without turning to something else."""
    return (goes_on(sentence) or _a_comment(sentence) or kept_from(sentence) or _a_feeling(sentence)
            or bool(_IT_BACK.match(sentence)) and not _OWN_FACT.search(sentence) or carries_on(sentence, before)
            or bool(topic) and about(topic, sentence) and not _turns(sentence, before))


_IT_BACK = re.compile(r"^\W*(?:it'?s|it is|it was|it'll|that'?s|that is|that was|this is)\b(?!\s+(?:my|our)\s)", re.IGNORECASE)
""""It's a 30-day place…", "That was the worst part": what was just told, said of again (not "It's my birthday")."""


def _a_feeling(sentence: str) -> bool:
    """A short sentence that only says how the user feels about what was just told ("I'm trying not to freak out.",
    "I keep rereading our texts and crying", "Worried it'll show up on the background check", 我好慌): part of it."""
    return bool(_FEELING.search(sentence)) and len(re.findall(r"[\w']+", sentence)) <= 14 and len(sentence) <= 90


def _a_comment(sentence: str) -> bool:
    """A few words that only judge what was just said ("Not amazing.", "So awkward.", "Ugh!"): a remark on a
    sentence that goes, which goes with it. "Finally quit smoking." is news of its own."""
    return (len(re.findall(r"[\w']+", sentence)) <= 3 and bool(_REMARK.match(sentence))
            and not re.search(r"\b(?:i|i'm|im|we|we're|my|our)\b", sentence, re.IGNORECASE))  # "Great, I'm pregnant!"


_FRAGMENT_OPENS = re.compile(r"^\W*(?:anyway|anyways|so|also|btw|oh|and|but|ok|okay|well|right|plus|then|still|though|"
                             r"besides|meanwhile|other|on|in other)\b", re.IGNORECASE)
_A_VERB = re.compile(r"\b(?:i|i'm|im|me|my|we|our|is|are|was|were|am|be|been|being|has|have|had|do|does|did|will|would|"
                     r"can|could|should|may|might|must|got|get|gets|went|go|goes|said|says|\w+ed|\w+'(?:s|re|ve|ll|d))\b",
                     re.IGNORECASE)


def _a_fragment(sentence: str) -> bool:
    """A few words with no verb that only add a detail to the sentence before ("dr. okoro, thursdays at 5.", "Ward 7,
    since Monday."), which goes with it. "Anyway." opens something new; "My sister Rosa, 31, a nurse" speaks as the
    user; "New job at Tesco!" holds a fact of its own; "Exam results came back." is news (no detail)."""
    return (len(re.findall(r"[\w']+", sentence)) <= 6 and not has_cjk(sentence) and bool(_DETAIL.match(sentence))
            and not _FRAGMENT_OPENS.match(sentence) and not _A_VERB.search(re.sub(r"\bMay\b", " ", sentence))  # the month
            and slot_of(sentence) is None and not _OWN_FACT.search(sentence))


_DETAIL = re.compile(r"\W*(?:(?:like|about|around|roughly|almost|nearly|only|just|over)\s+(?=\d))?(?:\d|(?:dr|mr|mrs|ms|prof)\b\.?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|due (?:in|on|at|by)\b|"
                     r"(?:since|until|till|every) |(?:the\s+)?(?:second|third|fourth|fifth|sixth|\d+(?:nd|rd|th)|"
                     r"umpteenth|nth|another|one more)\s+time\b)", re.IGNORECASE)
"""How a detail added to a sentence opens: a number, a title, a day, a since or an every, how many times it happened
("third time this month") ("Dentist on Friday at 3." opens on a thing of its own)."""


_EVERYDAY_WORDS = frozenset(search_terms("about after again always another anyway around because before being better "
                                         "could doing during every going gonna great maybe never other really right since "
                                         "something still thing things think though today tomorrow tonight wanna would "
                                         "yesterday weekend morning evening night month week year years people little"))
"""Words too common in chat to say which story a message tells."""


_AT_A_PLACE = re.compile(r"\b(?:at|from)\s+(?:the\s+)?((?-i:[A-Z])[\w&'-]{2,}(?:\s+(?-i:[A-Z])[\w&'-]+)?)")
"""A firm or place a story happened at ("interviewing at Stripe", "laid off from Intuit")."""


def story_names(topic: str, contents: Sequence[str]) -> list[str]:
    """The firms and places where the story of `topic` happened, as its own sentences name them ("I've been
    interviewing at Stripe" for "me looking for a new job"): a later message that opens on one ("Stripe round went
    ok") goes on with the story in words the request never used. Not a word of the topic, not someone."""
    names = {match.group(1) for content in contents for sentence in split_sentences(content) if about(topic, sentence)
             for match in _AT_A_PLACE.finditer(sentence)}
    return sorted(n for n in names if n.split()[0].lower() not in _NOT_NAMES | STOPWORDS
                  and not set(query_terms(n)) & set(query_terms(topic)) and not concepts_in(n) & PEOPLE_CONCEPTS)


def with_story_names(topic: str, names: Sequence[str]) -> str:
    """The topic with the names its story happened at, for reading which sentences of a message tell it."""
    return " and ".join([topic, *names]) if topic and names else topic


def without_topic(content: str, topic: str) -> str:
    """An episode with the sentences about `topic` taken out, when it also says other things ("I have two
    kids. Bram is 9. I earn 42k a year." less "my salary"); "" when all of it goes (every sentence is about
    the topic, or none is by its words alone: the match was by meaning, and the whole message goes).
    What goes on telling a sentence that goes goes with it: the sentences after it that open on whom it named
    ("She's lost her hair…") or only remark on it ("Not amazing."), and in Chinese typed with spaces for stops
    the chunks after it that leave their subject out ("才八周", "比之前多了四千")."""
    units = _told_in(content)
    kept, going, said_it, told = [], False, False, ""
    opening = 0  # how many of the first units open on someone not yet named ("now he ignores her calls. she
    for n, (unit, chunk, opens) in enumerate(units):  # cries every night, poor isla"): they tell what follows
        if chunk:  # a new sentence goes on only with 他 or 她
            goes_on_telling = going and (kept_from(unit) or _a_feeling(unit) or _goes_on_in_chinese(unit)
                                         and (not opens or unit.lstrip("！!？?。，, ").startswith(("他", "她"))))
        else:
            goes_on_telling = (going and continues(unit, told)
                               or said_it and _a_fragment(unit))
        said_it = about(topic, unit)
        told = unit if said_it else told
        going = said_it or goes_on_telling
        if said_it and opening == n:
            del kept[:opening]
        opening += opening == n and not chunk and bool(_OPENS_ON_THEM.match(unit) or _STORY_ROLE.match(unit))
        if not going:
            kept.append(unit)
    if len(kept) == len(units):  # none said it by its words: the match was by meaning, or the story goes on here;
        turn = next((n for n, (unit, _, _) in enumerate(units) if n and (_SHIFT.match(unit) or _SPEAKS_AS_ME.match(unit))),
                    None)  # what it turns to after it stays ("对方要价五万才肯私了。我自己这边工作挺顺的")
        return " ".join(unit for unit, _, _ in units[turn:]) if turn is not None else ""
    return " ".join(kept) if kept and len(kept) < len(units) else ""


AREAS = {"health": "health|medical|healthcare|身体|健康|病情|看病|就医|病历", "money": "money|finances|financial|finance|财务|经济|钱",
         "legal": "legal|law|法律", "politics": "politics|political|政治|政见", "religion": "religion|religious|faith|"
         "beliefs|宗教|信仰"}
"""Sensitive areas of life a person asks to forget whole ("erase my health stuff"), by the words that name
the area itself: every memory that speaks of it goes ("my salary" names one thing, and only it goes)."""
AREA_SLOTS = {"health": ["health", "allergy"]}
"""The slots whose every value is the area's."""
_AREA_TERMS = {name: frozenset(t for w in words.split("|") for t in search_terms(w)) for name, words in AREAS.items()}
_VAGUE = frozenset(search_terms("stuff thing things info information detail details issue issues matter matters everything "
                                "anything all whole situation side related record records history problem problems "
                                "trouble troubles worries struggles news scare mess drama saga ordeal 信息 情况 方面 相关 问题"))


_WORK_SLOTS = frozenset({"job", "employer", "manager", "colleague", "work_pattern", "commute"})


def _about_work(text: str, attribute: str | None = None) -> bool:
    """"I work as a nurse at the children's hospital" speaks of a hospital, not of the user's health: no part
    of an area (`matching` leaves such memories out of one, `about` such sentences)."""
    if attribute in _WORK_SLOTS:
        return True
    slot = slot_of(text)
    return slot is not None and slot.name in _WORK_SLOTS


def sensitive_area(topic: str) -> str | None:
    """The sensitive area a topic names and nothing else ("my health stuff" → health, 我的财务情况 → money)."""
    terms = {t for t in query_terms(topic) if not is_single_cjk(t)} - _VAGUE
    return next((name for name, words in _AREA_TERMS.items() if terms and terms <= words), None)


_HOW_SAID = frozenset(search_terms("number numbers figure figures amount amounts sum sums 数字 金额"))
"""How a slot's value was said ("my salary numbers"): the slot still, not a story about numbers."""


def named_slots(topic: str) -> list[str]:
    """The slots a topic names and nothing more ("where I work", "my address", 我工作单位的事, 住址相关的):
    every one of its words is a word of an area of life or asks for a slot. "The Berlin job" names a job,
    not the slot; "my health" is an area (`sensitive_area`), not a slot."""
    core = _CN_TOPIC_FRAME.sub("", topic) if has_cjk(topic) else topic
    terms = {t for t in query_terms(core) if not is_single_cjk(t)} - _VAGUE - _HOW_SAID
    if not terms or _PEOPLE.search(core) or any(p in core for p in _CN_PEOPLE) or concepts_in(core) & PEOPLE_CONCEPTS:
        return []  # "my brother's job" is the brother's, and a story
    areas = concepts_in(core) & DOMAINS
    named = {t for t in terms if any(covers(area, t) for area in areas) or slots_asked(t)}
    spelled = {c for t in named for c in t if has_cjk(c)}  # 工作单位: 作单 is the edge of two named words
    if not all(t in named or has_cjk(t) and set(t) <= spelled for t in terms):
        return []
    return slots_asked(core)


def _in_other_forms(part: str) -> list[str]:
    """A topic part said with one of its words in another form each ("losing my job" → "lost my job"), without the
    passive's "getting" or "being"."""
    variants = []
    for word in re.findall(r"[A-Za-z]+", part):
        for form in sorted(other_forms(stem(word.lower()))):
            variant = re.sub(rf"\b{word}\b", form, part, count=1)  # "my bike getting stolen" — "stole my bike"
            variants.append(" ".join(re.sub(r"\b(?:getting|got|gets|get|being|been)\b", " ", variant).split()))
    return variants


class _Weeks:
    """The active episodes told in the weeks after a story, oldest first, for as long as it goes on: a message
    taken into the story (`goes_on`) keeps the window open `weeks` past itself."""

    def __init__(self, memories: MemoryStore, told: Sequence[Memory], weeks: float, with_told: bool = False) -> None:
        self.memories, self.weeks = memories, weeks
        self.end = told[-1].created_at + weeks
        self._at = (told[0].created_at, -1 if with_told else _AFTER_ALL_IDS)

    def __iter__(self) -> Iterator[Memory]:
        while page := self.memories.episodes_from(*self._at, self.end):
            for memory in page:
                self._at = (memory.created_at, memory.id)
                yield memory

    def goes_on(self, memory: Memory) -> None:
        self.end = max(self.end, memory.created_at + self.weeks)


class TopicMatcher:
    def __init__(self, memories: MemoryStore) -> None:
        self.memories = memories

    def _in_area(self, name: str) -> set[int]:
        """Every memory that speaks of a sensitive area, by the words of it and of what is under it."""
        words = [w for w in index_words(name) if not is_single_cjk(w)]
        hits = self.memories.many([i for i, _ in self.memories.keyword_terms(words, 500)])
        found = {i for i, m in hits.items() if concept_overlap(frozenset({name}), concepts_in(m.content))}
        slotted = self.memories.many(self.memories.by_attributes(AREA_SLOTS.get(name, []), limit=500))
        for memory in slotted.values():  # "The user has type 1 diabetes": the health slot, whatever its words
            found.add(memory.id)
            if memory.origin_id is not None:
                found.add(memory.origin_id)
        return found

    def _in_slots(self, slots: list[str]) -> set[int]:
        """Every value of the user's own that the slots ever held (old wordings too) and the messages that said
        them ("my address": not the sister's)."""
        found = set()
        for memory in self.memories.many(self.memories.by_attributes(slots, 500, ("active", "pending", "superseded"))
                                         ).values():
            if memory.subject != "user" or concepts_in(memory.content) & PEOPLE_CONCEPTS:
                continue  # "my birthday": not "The user's mum's birthday is 3 May" (a typed subject is the user's)
            found.add(memory.id)
            if memory.origin_id is not None:
                found.add(memory.origin_id)
        named = [BY_NAME[name] for name in slots if name in BY_NAME]
        for episode in self.memories.list_items(statuses=("active", "superseded"), kind=EPISODE, limit=20_000):
            if episode.id in found or not any(p.search(episode.content) for slot in named for p in slot.patterns):
                continue  # a slot's words, somewhere: then sentence by sentence (a quick split: this reads every episode)
            if any(any(slot.matches(unit) for slot in named) and not concepts_in(unit) & PEOPLE_CONCEPTS
                   and not _HIS_OR_HERS.search(unit) and not _NAMED_FIRST.match(unit)
                   for unit in _QUICK_SENTENCES.split(episode.content)):  # said in words no typed memory kept
                found.add(episode.id)  # ("current ctc 24 lpa, they offered 36")
        return found

    def _by_story_words(self, part: str, topic: str, whose: set[str]) -> set[int]:
        """What says every word of a part's story, the person it happened to aside ("the stealing thing with my
        roommate": "confronted Alex about the stealing"), where one of its sentences is about the topic."""
        someone = {t for word in re.findall(r"[\w'-]+", part) if concepts_in(word) & PEOPLE_CONCEPTS for t in query_terms(word)}
        story = set(query_terms(part)) - whose - someone - _NO_STORY - _VAGUE
        if not story or story == set(query_terms(part)):
            return set()  # nothing told, or every word of it (the search by all of them has been made)
        hits = self.memories.many([i for i, _ in self.memories.keyword(" ".join(sorted(story)), 100, every=True)])
        return {i for i, m in hits.items() if any(about(topic, s) for s in split_sentences(m.content))}

    def story_words(self, topic: str, found: Sequence[Memory]) -> list[str]:
        """The words particular to a story as its messages told it: in a sentence about the topic, in no other sentence
        of those messages, and in hardly anything else stored ("biopsy", "deloitte", 开庭) — what a later message that
        tells it on ("the biopsy came back benign") shares with it, whatever the topic called it."""
        told = [m for m in found if m.is_episode]
        if not told:
            return []
        said, other = set(), set()
        told_of = {m.id: [s for s in split_sentences(m.content) if about(topic, s)] for m in told}
        for episode in told:  # a message found by meaning alone tells it all, if none tells it by its words
            sentences = split_sentences(episode.content)
            about_it = told_of[episode.id] or ([] if any(told_of.values()) else sentences)
            said |= {t for s in about_it for t in search_terms(s)}
            other |= {t for s in sentences if s not in about_it for t in search_terms(s)}
        said -= other | set(query_terms(topic)) | STOPWORDS | _NO_STORY | _VAGUE
        said = {t for t in said if (len(t) >= 5 and t.isalpha()) or (has_cjk(t) and len(t) == 2
                                                                     and not set(t) & CJK_STOP_CHARS)}
        if not said:
            return []
        _, counts = self.memories.term_frequencies(sorted(said))
        # in the messages themselves and what was drawn from them, and at most one more
        return sorted(t for t in said if counts.get(t, 0) <= 2 * len(told) + 1 and t not in _EVERYDAY_WORDS)

    def _told_again(self, found: set[int], topic: str) -> set[int]:
        """Later messages, days after, that tell the story on in its particular words (`story_words`): two of them, or
        a name it was told with ("Deloitte", "Dr. Okafor")."""
        told = [m for m in self.memories.many(sorted(found)).values() if m.is_episode]
        words = self.story_words(topic, told)
        if not words:
            return set()
        since = min(m.created_at for m in told)
        named = {stem(w.lower()) for m in told for w in re.findall(r"(?<=[a-z,;:] )(?-i:[A-Z])[a-z]{3,}", m.content)}
        more: set[int] = set()
        for memory in self.memories.many([i for i, _ in self.memories.keyword_terms(words, 50)]).values():
            if memory.id in found or not memory.is_episode or memory.created_at <= since:
                continue
            shared = set(search_terms(memory.content)) & set(words)
            if len(shared) >= 2 or shared & named:  # "the biopsy … Dr. Okafor": not one everyday word ("offer")
                more.add(memory.id)
        return more

    def _told_on_later(self, found: set[int], topic: str) -> set[int]:
        """Messages of the weeks after a story was told that tell it on in a later chat ("Update on the biopsy thing…",
        "He got the charge reduced…", "Results came back benign!!"): a sentence about the story itself, not only
        about its person or its area of life unless the topic names no more; someone's story where they are named
        again or a sentence opens on "he" or "she"; the user's own where it opens on no one else."""
        told = sorted((m for m in self.memories.many(sorted(found)).values() if m.is_episode), key=lambda m: m.created_at)
        if not told:
            return set()
        people = set(query_terms(" ".join(_PEOPLE.findall(topic)))) | _owners(topic) | _cn_people_pairs(topic)
        whose = [w for w in re.findall(rf"\b{_NAME}\b", topic) + re.findall(rf"\b(?:{RELATIVES})\b", topic, re.IGNORECASE)
                 if w.lower() not in STOPWORDS]  # a name by its capital (never under IGNORECASE), a relative as a word
        whose += [p for p in _CN_PEOPLE if p in topic] + [m.group(0) for m in _CN_NAMED.finditer(topic)]
        more: set[int] = set()
        weeks = _Weeks(self.memories, told, _STORY_WEEKS)
        for memory in weeks:
            if memory.id in found:
                continue
            tells = [s for s in split_sentences(memory.content) if _tells_the_story(topic, s, bool(people or whose))]
            if not tells:
                continue
            if people or whose:
                if not (any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", memory.content, re.IGNORECASE) for w in whose)
                        or _GOES_ON.match(tells[0])):
                    continue
            elif _opens_on_someone_new(tells[0], "") or _NAMED_FIRST.match(tells[0]) or _OPENS_ON_SOMEONE.match(tells[0]):
                continue
            more.add(memory.id)
            weeks.goes_on(memory)
        return more

    def _pointed_back(self, found: set[int], topic: str) -> set[int]:
        """Messages of the weeks after a story that open by pointing back at it ("Update: she ended it with him.", "The
        appeal thing: we're filing…", "上次说的那事后续来了：…", "押金那事我打了12345投诉"): bare, or naming a word,
        a concept or (in Chinese) two characters of the story as its messages or the topic told it."""
        told = sorted((m for m in self.memories.many(sorted(found)).values() if m.is_episode), key=lambda m: m.created_at)
        if not told:
            return set()
        said = " ".join([topic, *(m.content for m in told)])
        words, concepts = set(search_terms(said)), concepts_in(said)
        more: set[int] = set()
        weeks = _Weeks(self.memories, told, _STORY_WEEKS)
        for memory in weeks:
            if memory.id in found:
                continue
            back = _POINTS_BACK.match(memory.content)
            if back is None:
                continue
            named = next((g for g in back.groups() if g), "")
            if named and not (set(search_terms(named)) - _NO_STORY - _VAGUE - STOPWORDS & words
                              or concept_overlap(concepts_in(named) - DOMAINS, concepts)
                              or any(named[i:i + 2] in said for i in range(len(named) - 1) if has_cjk(named[i:i + 2]))):
                continue  # "update on the boiler thing" after the divorce: another story
            if not named and not has_cjk(memory.content[:4]) and not _STILL_OF_IT.search(memory.content) and not (
                    set(search_terms(memory.content)) - _NO_STORY - _VAGUE - _EVERYDAY_WORDS - STOPWORDS & words):
                continue  # "update: new phone arrived" is news of its own; "Update: she ended it with him." is not
            more.add(memory.id)
            weeks.goes_on(memory)
        return more

    def _said_of_them_later(self, found: set[int], topic: str) -> set[int]:
        """Messages of the weeks after someone's story that open on "he" or "she" (他, 她) where the last one named
        before, as that pronoun can name them, is the person the topic names or a message of the story ("Noah and I
        broke up yesterday." … "I'm repainting my bedroom." … "He came by to pick up his stuff.")."""
        whose = {w.lower() for w in re.findall(rf"\b{_NAME}\b", topic) + re.findall(rf"\b(?:{RELATIVES})\b", topic, re.I)
                 if w.lower() not in STOPWORDS | _CALENDAR_WORDS}
        whose |= {p for p in _CN_PEOPLE if p in topic} | set(_CN_NAMED.findall(topic))
        told = sorted((m for m in self.memories.many(sorted(found)).values() if m.is_episode), key=lambda m: m.created_at)
        if not whose or not told:
            return set()
        weeks = _Weeks(self.memories, told, _STORY_WEEKS, with_told=True)
        story = {m.id for m in told}
        more_than_whom = set(query_terms(topic)) - set(query_terms(" ".join(whose))) - _NO_STORY - _VAGUE - STOPWORDS
        told_of = (_story_concepts(topic) | {c for m in told for c in concepts_in(m.content)}) - PEOPLE_CONCEPTS - FAMILY
        named: list[tuple[set[str], bool]] = []  # who each earlier message named, and whether it tells the story
        more: set[int] = set()
        for memory in weeks:
            opening = told_units(memory.content)[:1]
            pronoun = re.match(r"^\W*(he|she|his|her|him)\b|^\W*([他她])", opening[0], re.IGNORECASE) if opening else None
            if (memory.id not in story and pronoun and not _opens_on_someone_new(opening[0], "")
                    and slot_of(opening[0]) is None and not _OWN_FACT.search(opening[0])
                    and not re.search(r"\b(?:also|too|as well)\b|也", opening[0], re.IGNORECASE)  # "she's also
                    and not _THEIR_OWN.match(opening[0])  # retiring in june", 她今年退休了: a fact of her own; "His wife
                    # Ana…" is someone else; and of a story more than the person ("Tom's surgery"), of that story
                    and (not more_than_whom or concept_overlap(told_of, concepts_in(memory.content)))):
                said = (pronoun.group(1) or {"他": "he", "她": "she"}[pronoun.group(2)]).lower()
                said = {"his": "he", "him": "he", "her": "she"}.get(said, said)
                whom = next(((names, tells) for names, tells in reversed(named)
                             if any(pronoun_fits(said, name) for name in names)), None)
                if whom is not None and (whom[1] or any(_same_person(name, w) for name in whom[0] for w in whose)):
                    more.add(memory.id)
                    story.add(memory.id)
                    weeks.goes_on(memory)
                    named.append((whom[0], True))
                    continue
            people = _named_in(memory.content)
            if opens := _OPENS_ON_A_NAME.match(memory.content):
                people |= {opens.group(1).lower()}  # "Noah came by with the dog": Noah, though he opens it
            if memory.id in story:
                named.append((people | whose, True))
            elif people:
                named.append((people, False))
        return more

    def _outcome_later(self, found: set[int], topic: str) -> set[int]:
        """Later messages that tell the next step or the outcome of a private story (health, the law, money trouble…)
        with none of its words: "Assessor came Thursday, car's a write-off.", "The consultant says surgery in May.",
        "处理结果出来了：口头警告", "保险公司说全赔" — opening on no one, the user or someone in a role the story involves,
        while it is still the last private story told, and naming nothing of another part of life."""
        told = sorted((m for m in self.memories.many(sorted(found)).values() if m.is_episode), key=lambda m: m.created_at)
        area = {c for m in told for c in concepts_in(m.content) if c in PRIVATE_CONCEPTS}
        if not told or not area:
            return set()
        own_area = {c for name in area for c in (name, *ancestors(name))}
        allowed = own_area | _STEP_CONCEPTS
        someones = bool(_PEOPLE.search(topic) or concepts_in(topic) & PEOPLE_CONCEPTS or _cn_people_pairs(topic)
                        or not any(_AS_ME.search(m.content) or _of_my_own(m.content) for m in told))
        weeks = _Weeks(self.memories, told, _PRIVATE_STORY_WEEKS)
        story = {m.id for m in told}
        more: set[int] = set()
        for memory in weeks:
            if memory.id in story:
                continue
            said = concepts_in(memory.content)
            if said & PRIVATE_CONCEPTS - own_area:
                break  # another private story was told since ("My GP wants a scan…" after the mortgage): what
                # follows may be its outcome
            opening = told_units(memory.content)[:1]
            step = (_OUTCOME.search(memory.content) or _STORY_ROLE.match(opening[0]) if opening else False) or (
                not someones and said & area and first_time(memory.content, memory.created_at) is not None)
            # a date in the story's part of life is its next step ("The op is on the 12th") — of the user's own
            # story: after dawn's cancer, "up at dawn tomorrow for my hospital appointment" is the user's
            if (opening and step and not said - allowed
                    and (_STORY_ROLE.match(opening[0]) or not (_opens_on_someone_new(opening[0], "")
                                                               or _NAMED_FIRST.match(opening[0])
                                                               or _OPENS_ON_SOMEONE.match(opening[0])
                                                               or _GOES_ON.match(opening[0])))):
                more.add(memory.id)
                story.add(memory.id)
                weeks.goes_on(memory)
            elif said & PRIVATE_CONCEPTS:
                break  # another private story was told since: what follows may be its outcome
        return more

    def _named_again(self, found: set[int], topic: str) -> set[int]:
        """Later messages that open on a firm or place the story happened at (`story_names`)."""
        told = [m for m in self.memories.many(sorted(found)).values() if m.is_episode]
        if not told:
            return set()
        since = min(m.created_at for m in told)
        more: set[int] = set()
        for name in story_names(topic, [m.content for m in told]):
            for memory in self.memories.many([i for i, _ in self.memories.keyword(name, 50, every=True)]).values():
                first = told_units(memory.content)[:1]
                if memory.is_episode and memory.created_at >= since and first and re.search(rf"\b{re.escape(name)}\b", first[0]):
                    more.add(memory.id)
        return more - found

    def _told_next(self, found: set[int], topic: str, someone: bool) -> set[int]:
        """The next message of a story told over several in a chat, where it goes on without the story's words: it
        opens on them ("Hasn't told work yet, wants to wait till after the 12 week scan", "His public defender says…",
        "医生说恢复得还行") and the message before ended on the story, not on something else. A story of the user's own
        (`someone` false: "my asthma") goes on only with whom it involves ("My GP says…"): "He's coming over tonight"
        is someone else."""
        more: set[int] = set()
        for episode in self.memories.many(sorted(found)).values():
            if not episode.is_episode or episode.status != "active":
                continue
            units = told_units(episode.content)
            if units and units[-1] in without_topic(episode.content, topic):
                continue  # "…had a stroke. Also I joined the bridge club.": the story ended before the message did
            following = self.memories.told_next(episode, 1)
            first = told_units(following[0].content)[:1] if following else []
            if first and story_goes_on(first[0]) and (someone or _STORY_ROLE.match(first[0])):
                more |= {m.id for m in following}
            elif first and (_TOLD_ON.match(first[0]) or _a_feeling(first[0]) and len(told_units(following[0].content)) == 1):
                more.add(following[0].id)  # "update on the thing from this morning: …", "I keep rereading our texts"
            elif (first and not _SHIFT.match(first[0]) and about(topic, first[0]) and not _names_only_whom(topic, first[0])
                  and not _opens_on_someone_new(first[0], units[-1]) and not (someone and _FIRST_PERSON.search(first[0]))):
                more.add(following[0].id)  # "accountant says we might owe $11k plus penalties" after the audit: the
                # story in its words — not someone else's news ("My sister says she's giving up wine" after Doris's
                # drinking), nor the user's own after someone's
            elif following and carries_on_next(following[0].content, units[-1], following[0].created_at):
                more.add(following[0].id)  # its next windows only while they go on too ("…over a coffee. On a
                for window in following[1:]:  # lighter note I've started Gaelic classes" stays)
                    opening = told_units(window.content)[:1]
                    if not opening or not carries_on(opening[0], units[-1]):
                        break
                    more.add(window.id)
        return more - found

    def _own_story(self, topic: str) -> set[int]:
        """A story of the user's own that names nobody ("panic attack and therapist"), told in other words: what the
        user said in the first person that carries the story's narrow concept ("i see dr. brennan at uni counselling"),
        which the embedder reads as another thing (0.20). Not an area of life (the user's work), not someone's story."""
        if _PEOPLE.search(topic) or concepts_in(topic) & PEOPLE_CONCEPTS:
            return set()
        narrow: set[str] = set()
        for part in topic_parts(topic):  # what each part ends on ("panic attack", "therapist"): not "our joint account"
            if has_cjk(part):  # 看心理医生, 被辞退: what the words say
                narrow |= concepts_in(_cn_core(part))
                continue
            words = [w for w in re.findall(r"[\w'-]+", part) if w.lower() not in _VAGUE_WORDS]
            narrow |= concepts_in(" ".join(words)) - concepts_in(" ".join(words[:-1]))
        story = _story_concepts(topic)
        narrow = narrow & story | story - concepts_in(topic)  # and what its shape names: "the baby" a pregnancy
        narrow -= DOMAINS
        if not narrow:
            return set()
        words = [w for name in narrow for w in index_words(name) if not is_single_cjk(w)]
        hits = self.memories.many([i for i, _ in self.memories.keyword_terms(words, 200)])
        return {i for i, m in hits.items() if concept_overlap(frozenset(narrow), concepts_in(m.content))
                and (_FIRST_PERSON.search(m.content) or _I_UNSAID.match(m.content) or _no_one_else_cn(m.content))
                and not _NAMED_FIRST.match(m.content)
                and not _OPENS_ON_SOMEONE.match(m.content)}  # "My mum has rheumatoid arthritis" is hers

    def _spelled_out(self, topic: str) -> set[int]:
        """A topic that names a thing by its initials ("the PIP thing", "my DUI") finds where it was said in full
        ("put me on a performance improvement plan", "driving under the influence"): words whose initials spell it,
        small words between them aside."""
        found: set[int] = set()
        for acronym in re.findall(r"\b[A-Z]{3,5}\b", topic):
            spelled = re.compile(r"\b" + r"(?:\s+(?:of|the|and|for|in|on|to|a))*\s+".join(
                rf"{letter}[a-z]{{3,}}" for letter in acronym.lower()) + r"\b", re.IGNORECASE)
            for memory in self.memories.list_items(statuses=("active", "pending", "superseded"), episodes=True,
                                                   limit=20_000):
                if spelled.search(memory.content):
                    found.add(memory.id)
        return found

    def _lowercase_names(self, parts: list[str], things: list[str]) -> list[str]:
        """The parts of a topic typed without capitals that are someone's name, when the topic also says what
        happened ("isla and money"): one word that names no concept and stands as someone where it was said
        ("my flatmate isla plays guitar")."""
        if len(things) < 2:
            return []
        names = []
        for part in things:
            if (re.fullmatch(r"[a-z]{3,}", part) and part not in STOPWORDS and not concepts_in(part)
                    and set(search_terms(part)) - _VAGUE - _NO_STORY):
                said = self.memories.many([i for i, _ in self.memories.keyword(part, 20, every=True)]).values()
                if any(_as_someone(part, m.content) and not re.search(
                        rf"\b(?:the|a|an|my|our|his|her|their|your|this|that)\s+{part}\b", m.content, re.IGNORECASE)
                       for m in said):  # "the landlord is Mr Hughes" is no name
                    names.append(part)
        return names if len(names) < len(things) else []

    def _told_on(self, memory: Memory, names: list[str], tells: Callable[[str], bool]) -> set[int]:
        """Where a story an episode tells goes on: the message's next windows and the next message, where they tell
        it of them (`_goes_on_telling`); and the whole next message when it opens on them and names them again
        ("now he ignores her calls. she cries every night, poor isla"), whatever else it says."""
        following = self.memories.told_next(memory, 1)
        found = {m.id for m in self.memories.later_windows(memory) + following if _goes_on_telling(m.content, tells)}
        if following and _OPENS_ON_THEM.match(following[0].content) and any(
                re.search(rf"\b{re.escape(name)}\b", m.content, re.IGNORECASE) for m in following for name in names):
            found |= {m.id for m in following}
        return found

    def _story(self, part: str, names: list[str]) -> set[int]:
        """What names the person of a story *and* one of the story's other words: "Luke's getting made
        redundant from the mill" for "Luke losing his job at the mill", not "Luke's 35th today"."""
        named = set(query_terms(" ".join(names)))
        others = set(query_terms(part)) - named - _NO_STORY
        story = _story_concepts(part)
        whose = {t for t in others if concepts_in(t) & PEOPLE_CONCEPTS}
        if whose and (others - whose or story):
            others -= whose  # "ananya's dad's health": the health, not all said of her dad
        found = set()

        def tells(memory: Memory | str) -> bool:
            text = memory if isinstance(memory, str) else memory.content
            words = set(search_terms(text))
            return bool(others & words or _kin(others, words) or concept_overlap(story, concepts_in(text)))

        areas = frozenset(concepts_in(part) & DOMAINS - FAMILY)  # "the restructure at Rohan's work": told on in

        def tells_on(text: str) -> bool:  # the area's words ("He's got a meeting with HR"), of him
            return tells(text) or concept_overlap(areas, concepts_in(text))

        for name in names:
            hits = self.memories.many([i for i, _ in self.memories.keyword(name, 100, every=True)])
            for memory in hits.values():
                if tells(memory):
                    found.add(memory.id)  # "Arman and the gambling" — "Arman lost 2 million on betting apps"
                if memory.is_episode:  # the story told after the name, of "her" ("My neighbour Doris… / I've seen
                    # wine bottles in her bin"), in the message's next windows or the next message
                    found |= self._told_on(memory, [name] if tells(memory) else [], tells_on)
        return found

    def _lowercase_story(self, part: str) -> set[int]:
        """"the rohit money stuff": typed without capitals, a name is a word of the topic that names no concept, where
        it stands as someone in what was said ("flatmate is rohit", "rohit lost his job"); what tells the story about
        them goes, and the message after one that names them when it goes on with "he" ("he took 3 lakh loan")."""
        maybe = [w for w in re.findall(r"[a-z]{3,}", part) if w not in STOPWORDS and not concepts_in(w)
                 and set(search_terms(w)) - _VAGUE - _NO_STORY]
        if not maybe or len(maybe) >= len(set(query_terms(part))):
            return set()  # nothing, or nothing but names: no story to tell them by
        found = set()
        for memory in self.memories.many(sorted(self._story(part, maybe))).values():
            if any(re.search(rf"\b{w}", memory.content, re.IGNORECASE) for w in maybe):
                if any(_as_someone(w, memory.content) for w in maybe):
                    found.add(memory.id)  # not "up at dawn tomorrow for my hospital appointment"
            elif self._follows_someone(memory, maybe):
                found.add(memory.id)
        return found

    def _follows_someone(self, memory: Memory, names: list[str]) -> bool:
        """An episode told right after one that names them as someone ("rohit lost his job" / "he took 3 lakh loan")."""
        if not memory.is_episode or memory.source_session is None:
            return False
        earlier = self.memories.db.rows(
            "SELECT content FROM memories WHERE kind = ? AND source_session = ? AND created_at < ? "
            "ORDER BY created_at DESC LIMIT 2", (EPISODE, memory.source_session, memory.created_at))
        return any(_as_someone(w, r["content"]) for r in earlier for w in names)

    def _relatives_story(self, part: str) -> set[int]:
        """"owing my brother" — "i owe dario 500 euro": a story about a relative the user told by the relative's
        name, found by the name and the story's concept (money, the law, health), not by all said of them."""
        relatives = concepts_in(part) & PEOPLE_CONCEPTS
        rest = re.sub(rf"\b(?:(?:my|our)\s+)?(?:{RELATIVES})(?:['’]s)?\b", " ", part, flags=re.IGNORECASE)
        if not relatives or rest == part or not _story_concepts(rest):
            return set()
        roster = self.memories.people()
        names = sorted({name for relation in relatives for name in roster.get(relation, ())})
        said = re.findall(rf"\b(?:{RELATIVES})\b", part, flags=re.IGNORECASE)  # "my dad's going in for a hip replacement"
        return self._story(rest, names + [w.lower() for w in said if w.lower() not in _NO_STORY])

    def _cn_story(self, core: str) -> set[int]:
        """A Chinese story about a person, told in other words: what names the person and shares a
        character of the rest ("我儿子挂科" — "儿子这学期有门课挂了", not "儿子给我买了手机")."""
        person = max((p for p in _CN_PEOPLE if p in core), key=len, default=None)
        if person is None:
            return set()
        whose = _CN_WHOSE.match(core)  # "王姐离婚": the story is 离婚; 王 is part of who, as 姐 is
        rest = core[whose.end():] if whose else core.replace(person, " ")
        if not "".join(_story_chars(rest)).strip():
            return set()
        story = _story_concepts(core)

        def tells(memory: Memory) -> bool:
            return cn_tells(rest, memory.content) or concept_overlap(story, concepts_in(memory.content))

        person = _CN_KIN.get(person, person)  # 弟弟 is 我弟 too
        hits = self.memories.many([i for i, _ in self.memories.keyword(person, 100, every=True)])
        found = {m.id for m in hits.values() if person in m.content and tells(m)}
        tail = core[whose.end():] if whose else core.replace(person, "")
        pairs = {tail[i:i + 2] for i in range(len(tail) - 1)}

        def tells_on(text: str) -> bool:  # with no name, a pair of the story's own or its concept: not one
            return bool(any(p in text for p in pairs)  # character ("喝了两杯奶茶" for 我哥喝酒)
                        or concept_overlap(story, concepts_in(text)))

        for memory in [hits[i] for i in found if hits[i].is_episode]:  # told on in the next message, of him or
            # with no subject ("表哥找我借三万块" / "说是做生意周转，有点犹豫")
            found |= {m.id for m in self.memories.later_windows(memory) + self.memories.told_next(memory, 1)
                      if _goes_on_telling(m.content, tells_on)}
        return found

    def matching(self, topic: str, statuses: Sequence[str] = ("active", "pending", "superseded")) -> list[Memory]:
        """Memories and episodes about `topic` that are not already gone. Superseded ones count: forgetting
        must not leave an old wording behind. For each part of the topic ("Archie and the drinking"):
        everything containing all its words; for a part with a name in it, everything naming them; and,
        when the embedder reads it, what is close in meaning and shares a word or a concept with the topic."""
        found: set[int] = set()
        topic_terms = set(query_terms(topic)) - _NO_STORY or set(query_terms(topic))
        people = set(query_terms(" ".join(_PEOPLE.findall(topic)))) | _cn_people_pairs(topic)
        parts = topic_parts(topic)
        area = None if people else sensitive_area(topic)  # "my brother's finances": his story, not the user's money
        slots = [] if area else named_slots(topic)
        if area:  # "everything about my health": all of it, however it was said
            found |= self._in_area(area)
        elif slots:  # "where I work": every value of the slot, however it was said
            found |= self._in_slots(slots)
        things = [p for p in parts if not re.search(rf"\b{_NAME}\b", p) and not has_cjk(p) and not _ALL_OF_IT.fullmatch(p)]
        if _ALL_OF_IT.search(topic):  # "Donna and the money and the casino and all of it": all of Donna, not her part
            things = []
        lowercase_names = self._lowercase_names(parts, things)  # "isla and money": isla's part in it
        things = [p for p in things if p not in lowercase_names]
        for part in parts:
            names = (re.findall(rf"\b{_NAME}\b", part) or ([part] if has_cjk(part) and len(part) <= 4 else [])
                     or ([part] if part in lowercase_names else []))
            # "Priti's husband" is the husband: Priti is only whose he is
            names = [n for n in names if not re.search(rf"\b{re.escape(n)}['’]s\s+(?:{RELATIVES})\b", part, re.I)]
            if names and things and part not in things:  # "Sam and the therapy": Sam's part in it, not all of Sam
                found |= self._story(" ".join([part, *things]), names)
                continue
            if not names and not has_cjk(part) and part == part.lower():
                found |= self._lowercase_story(part)
            found |= {i for i, _ in self.memories.keyword(part, 100, every=True)}
            for variant in _in_other_forms(part):  # "losing my job" — "Lost my job at the depot"
                found |= {i for i, _ in self.memories.keyword(variant, 100, every=True)}
            if set(query_terms(part)) - set(query_terms(" ".join(names))) - people:  # "Luke losing his job", "Tom's
                # surgery": the story, not all about Luke or Tom ("my ex Jake" is all about Jake)
                found |= self._story(part, names)
                names = []
            for name in names:
                found |= {i for i, _ in self.memories.keyword(name, 100, every=True)}
            found |= self._relatives_story(part)
            if not names and not has_cjk(part):
                found |= self._by_story_words(part, topic, people | _owners(topic))
            if has_cjk(part):  # Chinese: most of the topic's character pairs, in any order
                core = _cn_core(part)
                for memory in self.memories.many([i for i, _ in self.memories.keyword(core, 50)]).values():
                    if _cn_says(core, memory.content):
                        found.add(memory.id)
                found |= self._cn_story(core)
        found |= self._own_story(topic)
        found |= self._spelled_out(topic)
        if part := body_part(topic):  # "my kidney": what a doctor's word for it said ("nephrolithiasis")
            for root in _BODY_ROOTS[part]:
                found |= {m.id for m in self.memories.containing(root) if _in_doctors_words(part, m.content)}
        if self.memories.embedder.coverage(topic) >= 0.6 and topic_terms:
            vector = self.memories.vector(topic)
            close = dict(self.memories.knn(vector, 30))
            named = set(query_terms(" ".join(re.findall(rf"\b{_NAME}\b", topic))))
            owners = _owners(topic)
            story = len(topic_terms - named) >= 2  # "Esteban's money trouble": the story, not all about Esteban
            # what stands out from the topic's background counts as close too: "the finger injury thing"
            # meets "I hurt my finger bouldering…" at 0.44 while the rest of the store sits near 0.17
            near = FORGET_SIMILARITY  # a handful of memories is no background, just the memories themselves
            if len(close) >= MIN_BACKGROUND:
                near = max(FORGET_SIMILARITY - FORGET_MARGIN, min(near, statistics.median(close.values()) + FORGET_MARGIN))
            asked = _story_concepts(topic)
            for memory in self.memories.many(list(close)).values():
                words = set(search_terms(memory.content))
                shared = topic_terms & (words | _kin(topic_terms, words)) - (named if story else set())
                if topic_terms - people:  # "my mum's diagnosis": the mum alone is not the topic
                    shared -= people
                if owners and (people - owners or topic_terms - owners - people - _VAGUE):  # "Priti's husband": Priti
                    shared -= owners  # is only whose he is; "cian's assessment": the assessment, not all said of cian
                same_thing = not shared and asked and concept_overlap(asked, concepts_in(memory.content))
                shared = shared or (same_thing or set())
                if same_thing and close[memory.id] >= FORGET_SIMILARITY - FORGET_MARGIN and len(close) < MIN_BACKGROUND:
                    found.add(memory.id)  # a young store has no background: the concept is the evidence ("my
                    continue              # salary" — "I earn 42k a year", 0.43)
                about_them = people & shared  # "my mum's diagnosis": what was said about the mum *and* the story,
                story_too = not (topic_terms - people) or (shared - people) or concept_overlap(   # close in meaning
                    concepts_in(topic) - PEOPLE_CONCEPTS, concepts_in(memory.content))
                if (shared and close[memory.id] >= near) or (about_them and story_too and close[memory.id] >= 0.3):
                    found.add(memory.id)
        someone = bool(people or concepts_in(topic) & PEOPLE_CONCEPTS)
        told = self._told_next(found, topic, someone)
        for _ in range(2):  # a story told over three or four messages ("同事小林怀孕了" / "还没跟领导说…帮她保密" / …)
            found |= told
            told = self._told_next(told, topic, someone)
        found |= told
        found |= self._named_again(found, topic)
        found |= self._told_again(found, topic)
        found |= self._told_on_later(found, topic)
        found |= self._pointed_back(found, topic)
        found |= self._said_of_them_later(found, topic)
        found |= self._outcome_later(found, topic)
        memories = self.memories.many(sorted(found))
        # an area is the user's own, not their work; for one of the user's slots ("my birthday"), a sentence
        # of the user's own must say it
        someone = bool(_SOMEONE_BY_ROLE.search(topic))  # "that nurse on my unit": of a sentence on the user's own
        return [m for m in memories.values() if m.status in statuses  # work ("I'm an ICU nurse"), none goes
                and not (area and _about_work(m.content, m.attribute))
                and not ((slots or someone) and not any(about(topic, s) for s in split_sentences(m.content)))]
