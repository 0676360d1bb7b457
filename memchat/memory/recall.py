"""Hybrid recall over typed memories and episodes: vector KNN, FTS5 keywords, attribute
match, month match and pinned items, merged, scored and selected (see `scoring`).

Typed memories and episodes (what the user said, as said) share one table and its
indexes, so every route searches both and the candidate table shows both, each with
its date. When the embedding model does not know most of the query's tokens (Chinese
for all-MiniLM-L6-v2: they become [UNK]), the vector similarity means nothing, so
keyword overlap stands in for it and the candidate's routes say `lexical-similarity`.
Every candidate carries the routes that found it, its signals and the reason for the
decision, so `memchat recall --json` and the inspector can show exactly why.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache

import numpy as np

from memchat.config import RecallSettings
from memchat.memory.asked_of_someone import (
    asked_kind,
    asks_a_name,
    asks_a_quantity,
    says_no_age,
    says_no_name,
    says_no_quantity,
    says_nothing_of,
    stated_age,
)
from memchat.memory.concepts import (
    CONCEPTS,
    DOMAINS,
    FAMILY_WORDS,
    PEOPLE_CONCEPTS,
    ancestors,
    concept_key,
    concept_overlap,
    concepts_in,
    index_words,
    kin_of_others,
    near_miss,
    own_kin_only,
    words_of,
)
from memchat.memory.distill import (
    CN_RELATIVES,
    RELATIVES,
    RETIRING_ACT,
    is_change,
    is_retiring_event,
    providers_asked,
)
from memchat.memory.endings import (
    DYING,
    HABIT_ENDED,
    LIVING,
    SCHEDULE,
    STUDY_DONE,
    ends_study,
    rescheduled_terms,
    retired_terms,
)
from memchat.memory.items import MemoryStore
from memchat.memory.persons import NOT_NAMES, PER_PERSON, person_of, restates, same_named_person
from memchat.memory.query import is_open_question, sub_queries
from memchat.memory.scoring import MIN_BACKGROUND, idf, keyword_overlap, relevance, score, select, signals_for
from memchat.memory.segment import split_sentences
from memchat.memory.slots import BY_NAME, JOB_TITLES, SLOTS, slots_asked
from memchat.memory.speech import split_clauses
from memchat.memory.terms import (
    CJK_PARTICLES,
    CJK_STOP_CHARS,
    has_cjk,
    is_single_cjk,
    query_terms,
    search_terms,
    term_set,
)
from memchat.memory.timeexpr import asks_schedule, asks_the_past, asks_when, asks_when_it_was, query_months
from memchat.memory.workplace import another_workplace, workplace_of
from memchat.types import Candidate, Memory

SINGLE_VALUED = frozenset(s.name for s in SLOTS if not s.multi) - PER_PERSON
"""Slots with one current value for the user (home, employer, manager…): a later statement replaces an
earlier one. Not names and birthdays: those are one per *person*, and a typed memory's subject does not
always tell whose ("my wife's birthday", "豆豆生日")."""
UNSEEN_WEIGHT = 1_000.0
"""The weight of a particular concept (a cat, a dad) no memory names: it outweighs every other term, so a
memory that does not meet it cannot look relevant by the rest of the question's words (and `never_told`
rejects them all). A domain (work, education, home) is told in too many words for its absence from the
lexicon's to mean that: unseen, it weighs what an unseen word weighs."""
EPISODE_PREFERENCE = 0.05
"""How much more relevant an episode must be than the typed memory distilled from it to stand for both."""


@dataclass
class RecallResult:
    query: str
    candidates: list[Candidate]
    embed_ms: float
    search_ms: float
    background: float = 0.0
    """The query's background similarity: the median of its nearest neighbours'."""

    @property
    def selected(self) -> list[Candidate]:
        return [c for c in self.candidates if c.selected]


def _in_months(memory: Memory, months: list[tuple[int | None, int]]) -> bool:
    moment = datetime.fromtimestamp(memory.event_at if memory.event_at is not None else memory.created_at)
    return any(moment.month == month and (year is None or moment.year == year) for year, month in months)


_RELATION_SLOTS = frozenset({"partner", "children", "parents", "siblings", "manager", "colleague"})
_ASKED_PERSON = re.compile(
    rf"\bmy ({RELATIVES})(?:s\b(?=['’]| (?:names?|birthdays?|ages?|jobs?)\b))?\b|(?-i:\b(?!What|That|It|He|She|There|Where|Who|How|Let|Here|Everyone)([A-Z][a-z]+))'s\b"
    rf"|我(?:的)?({CN_RELATIVES})"
    r"|\bmy ([a-z]+)(?:'s name| called| named)\b|我的?([\u4e00-\u9fff]{1,2})叫",  # a pet's or a thing's name
    re.IGNORECASE,
)


def asked_about(query: str) -> str:
    """Whose slot a question asks for: "my sister's name?" → sister; "my cat called?" → cat; "my name?" → user."""
    match = _ASKED_PERSON.search(query)
    return next((g.lower() for g in match.groups() if g), "user") if match else "user"


_NAMED_IN_QUESTION = re.compile(
    r"\b(?:does|did|is|was|has|had|will|would|can|could)\s+((?-i:[A-Z][a-z]{2,}))\b(?!')"
    r"|(?<!\bat )(?<!\bto )(?<!\bfrom )(?<!\binto )(?<!\bnear )(?<!\bSt )(?<!\bSt\. )(?-i:\b([A-Z][a-z]{2,}))(?:'s|’s)\b",
    re.IGNORECASE,
)
# "at Hartley's", "to St Oswald's": a shop or a place named for someone, not a person asked about
_NOT_A_PERSON = frozenset({"What", "That", "This", "There", "Where", "Who", "How", "When", "Which", "Why", "Let",
                           "Here", "Everyone", "Today", "Tomorrow", "Yesterday", "Nobody", "Anyone", "Someone"})


_SOMEONE = re.compile(rf"\b(?:{RELATIVES}|she|he|her|his|him|it|dog|cat|pet|puppy|kitten|horse|rabbit|bird)\b"
                      rf"|{CN_RELATIVES}|她|他|它|狗|猫", re.IGNORECASE)
"""Words that may stand for the one a question names: a relation, a pronoun ("Her birthday is…"), a pet."""


def asked_name(query: str) -> str:
    """The one person a question asks about by name ("Where does Bram work?", "What's Noor's surname?"),
    or "": none, several ("Luke's and Aroha's birthdays?"), or a family word ("Mum's birthday")."""
    names = {g for m in _NAMED_IN_QUESTION.finditer(query) for g in m.groups() if g}
    names = {n for n in names if n not in _NOT_A_PERSON and n not in NOT_NAMES and not concepts_in(n)}
    return names.pop() if len(names) == 1 else ""


_PRONOUN = re.compile(r"\b(?:she|he|her|his|him|they|them|their)\b|她|他", re.IGNORECASE)


def not_about(name: str, content: str, relations: frozenset[str] = frozenset()) -> str:
    """"not about Rhona": a question about a named person, and a memory that neither names them nor
    speaks of anyone who could be them: a pronoun ("Her birthday is in May"), a relation word (“my partner
    is a nurse”) or a pet. Once the store knows who they are to the user (`relations`: Zanele is a
    daughter), only a word for that relation could be them: "met at a friend's wedding" is not about Zanele.
    The user's own job is no answer to "What does Rhona do for work?"."""
    if not name or has_cjk(name) and name in content or re.search(rf"\b{re.escape(name)}\b", content, re.IGNORECASE) \
            or re.search(rf"\b{re.escape(name.lower())}s\b", content):  # "kemals birthday", not "Ross" for Ros
        return ""
    if not relations and _SOMEONE.search(content):
        return ""
    if relations and (_PRONOUN.search(content) or concept_overlap(relations, concepts_in(content))):
        return ""
    return f"not about {name}"


_RELATIVE_ASKED = re.compile(rf"\bmy ({RELATIVES})(?:'s|’s|s'|s’)\s|我的?({CN_RELATIVES})(?:的|在哪|做什么|干什么|是做)",
                             re.IGNORECASE)


def relative_asked(query: str) -> str:
    """The relative a question asks about by their relation ("What's my wife's job?", "我老公在哪上班？"), or ""."""
    match = _RELATIVE_ASKED.search(query)
    return next((g.lower() for g in match.groups() if g), "") if match else ""


def not_theirs(relative: str, memory: Memory, names: Sequence[str], query: str = "") -> str:
    """"not about your wife": the user's own typed fact ("The user works as a physiotherapist") is no
    answer to a question about a relative's, unless it speaks of someone (a relation word, a pronoun, a
    name the store gives someone in the user's life) — or says the asked thing is the user's own in so many
    words ("The user's birthday's on 9 May, and Sam keeps hinting…" for "When is my mum's birthday?")."""
    if not relative or memory.is_episode or memory.subject != "user":
        return ""
    asked = _RELATIVES_THING.search(query)
    if asked and re.match(rf"^(?:the user's|my) {re.escape(asked.group(1).lower())}\b", memory.content, re.IGNORECASE):
        return f"not about your {relative}: the user's own {asked.group(1).lower()}"
    if (memory.attribute in _RELATION_SLOTS or _SOMEONE.search(memory.content) or any(n in memory.content for n in names)):
        return ""
    return f"not about your {relative}"


_RELATIVES_THING = re.compile(rf"\bmy (?:{RELATIVES})(?:'s|’s)\s+(\w+)", re.IGNORECASE)


_OF_A_RELATIVE = re.compile(
    rf"\bmy ({RELATIVES})(?:'s|’s)\s|\b(?:is|was|does|did|has|had|are|were|do)\s+my ({RELATIVES})\b(?! tongue| language)"
    rf"|我的?({CN_RELATIVES})(?:的|在|做|干|叫|多大|几岁|住|是做|是干|生日|身体)",
    re.IGNORECASE,
)
_WHO_IS = re.compile(rf"^\s*who(?:'s|’s| is| was| are)\s+my ({RELATIVES})\s*\??\s*$|^\s*我的?({CN_RELATIVES})是谁", re.IGNORECASE)


def relatives_asked(query: str) -> frozenset[str]:
    """The relations whose own attribute a question asks for ("How old is my daughter?", "What's my mum's
    name?", "我老公在哪上班？"): a memory that speaks of none of them cannot answer it. Not "Who is my
    brother-in-law?": that asks who, and the answer names them some other way ("Fenna's husband Bram")."""
    if _WHO_IS.search(query):
        return frozenset()
    words = [g for m in _OF_A_RELATIVE.finditer(query) for g in m.groups() if g]
    return frozenset(c for w in words for c in concepts_in(w) if c in PEOPLE_CONCEPTS) & concepts_in(query)


_NAME_ASKED = re.compile(
    rf"\bmy (?:\w+ )?(?:{RELATIVES})(?:'s|’s)? (?:first |full |real )?(?:name|called|named)\b"
    rf"|\bname of my (?:\w+ )?(?:{RELATIVES})\b(?!'s|’s)|我的?(?:{CN_RELATIVES})(?:叫|的名字|名字)",
    re.IGNORECASE,
)
"""A question for the relative's own name ("What's my mum's name?", "What's my son called?", 我女儿叫什么), not for
a thing of theirs ("What's the name of my son's school?")."""
_CALLED = re.compile(r"\b(?:called|named|name is|name's)\b|叫|名字", re.IGNORECASE)
_PERSON_SAID = re.compile(r"\b((?-i:[A-Z][a-z]{2,}))(?:'s|’s| is| was| has| had| says| said| turned| turns| and (?:I|me)\b)")
"""A name said of someone ("Callum is 17", "Rhona and me have been together"): maybe a relative the store
has not named."""


def _names_the_kin(text: str, relation: str) -> bool:
    """Whether a memory gives the relation a name: a name beside its word ("my son Callum", "Callum, my
    son", "our kids are Timur and Aru", 我儿子叫…), not a name somewhere else in it ("Ava's party had
    twelve kids", "My dad is in Paris"). Chinese names carry no capital: a Chinese memory that speaks of the
    relation may."""
    plain = re.sub(r"\bI\b", "i", text)
    if has_cjk(text) or not re.search(r"[A-Z]", plain):
        return True  # no capitals to tell a name by
    beside, typed_lower = _kin_patterns(relation)
    if beside.search(text):
        return True
    if re.search(r"(?<!^)(?<![.!?] )\b[A-Z]", plain):
        return False
    return bool(typed_lower.search(text))  # capitals only where sentences open: "my gf maeve turns 29"


@lru_cache(maxsize=64)
def _kin_patterns(relation: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    broader = CONCEPTS[relation].parent
    words = [w for n in (relation, broader) if n in CONCEPTS and (n == relation or n in FAMILY_WORDS)
             for w in words_of(n) if not has_cjk(w)]
    kin = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    name = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+"
    between = r"(?:(?!(?:and|or|had|has|have|in|from|at|near)\b)[a-z]+\s+)?"  # not a place or another person
    beside = re.compile(
        rf"\b(?i:{kin})(?:s|'s|’s)?\b(?:\s+(?:\S+\s+){{0,4}}?(?i:name is|called|named|is|are|was|were))?,?\s+"
        rf"{between}{name}|{name}(?:,\s*|\s+\(\s*|\s+(?:is|was)(?:\s+\w+)?\s+)"
        rf"(?i:my|our|the user's|their)\s+(?:\w+\s+)?(?i:{kin})\b"
        rf"|(?<=[a-z,] ){name}\s+(?i:my|our|the user's|their)\s+(?:\w+\s+)?(?i:{kin})\b")  # "with Callum my son"
    typed_lower = re.compile(
        rf"\b(?i:my|our|the user's)\s+(?i:{kin})\s+(?!(?:is|was|and|has|had|who|just|really|said)\b)"
        r"[a-z]{3,}\s+(?:turns|is|was|has|had|said|and|works|lives)\b")
    return beside, typed_lower


def speaks_of_none(relations: frozenset[str], query: str, content: str, people: dict[str, list[frozenset[str]]],
                   known: Sequence[str] = ()) -> str:
    """"says nothing of your mother": the question asks about the user's mother and the memory speaks of other
    people (a daughter, a boss, someone the store knows by name) but of no mother: not by a word for her (nor a
    parent word just above), not by a name the store gives her, not by a name the store has not placed ("Callum
    is 17" may be the son nobody called a son). For her name ("What's my mum's name?") only a name the store gives
    her answers, once it knows one. A memory that speaks of no one is left to relevance, and another's relative
    ("his mum Siobhan") is not the user's; "my brother's wife" asks for a relative of someone else's."""
    if not relations:
        return ""
    theirs = kin_of_others(query, question=True)
    if theirs:  # the memory must give someone a wife, not the user; the relative's own name is not what is asked
        return "" if concept_overlap(theirs, kin_of_others(content)) else f"says nothing of a {sorted(theirs)[0]} of theirs"
    text = own_kin_only(query, content)
    said, present = concepts_in(text), term_set(text)
    of_someone = bool(said & PEOPLE_CONCEPTS) or any(t <= present for terms in people.values() for t in terms)
    if not of_someone:
        return ""
    unplaced = [n for n in _PERSON_SAID.findall(text) if n not in NOT_NAMES and n not in known and not concepts_in(n)]
    for relation in sorted(relations):
        broader = CONCEPTS[relation].parent  # "my daughter" among "two kids: Zanele and Sipho"
        names = people.get(relation) or (people.get(broader, []) if broader in FAMILY_WORDS else [])
        named_here = any(t & present if any(map(has_cjk, t)) else t <= present for t in names)  # 秀兰 is 刘秀兰
        speaks = named_here or bool(concept_overlap(frozenset({relation}), said))
        if _NAME_ASKED.search(query):
            if not (named_here or not names and (_names_the_kin(text, relation) or unplaced and not speaks)):
                return f"names no {relation} of yours"
        elif not (speaks or unplaced and not names):
            return f"says nothing of your {relation}"
    return ""


_USER_IN_SENTENCE = re.compile(
    rf"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|myself|mine|we|we're|us|ours)\b"
    rf"|\b(?:my|our|the user's|their)\s+(?!(?:\w+\s+)?(?:{RELATIVES})\b)\w"  # "my knee", not "my sister"
    rf"|\bthe user\b(?!'s)|(?:我|用户)(?!们?的?(?:{CN_RELATIVES}))", re.IGNORECASE)
"""The user in a sentence: "I", "me", "my knee", 我, 用户 — not "my sister", 我弟弟 (someone of theirs)."""
_OF_THE_USER = re.compile(r"\b(?:i|me|my|mine|myself)\b|我", re.IGNORECASE)
_LEAD_IN = re.compile(r"(?:[\W_]+|(?:also|and|but|so|btw|oh|anyway|plus|then|now|still)\b|对了|顺便说一下|还有|然后|而且|另外|现在|最近)*",
                      re.IGNORECASE)
"""What may come before a sentence's subject: punctuation, "also", "btw", 对了, 最近."""
_KIN_FIRST = re.compile(rf"(?:(?:my|our|the user's)\s+(?:\w+\s+)?({RELATIVES})\b|(?:我们?|用户)?的?({CN_RELATIVES}))",
                        re.IGNORECASE)
_RELATIVE = re.compile(rf"(?:{RELATIVES}|{CN_RELATIVES})", re.IGNORECASE)
_PRONOUN_FIRST = re.compile(r"(?:he|she|they|his|her|their)\b|他|她", re.IGNORECASE)


def subject_person(sentence: str, names: Sequence[str]) -> str:
    """Who a sentence is of when its subject is someone of the user's: "noor is allergic to cats" → noor, "My sister
    works at Google" → sister, 我弟弟贺晓东在重庆读研 → 弟弟; "" when the person comes later ("Went climbing with my
    sister", 上周六和同事去爬了青城山: the user did it with them) or there is none."""
    rest = sentence[_LEAD_IN.match(sentence).end():]
    rest = rest.partition(": ")[2] or rest  # "the one problem: noor is allergic to cats"
    if kin := _KIN_FIRST.match(rest):
        return kin.group(1) or kin.group(2)
    lowered = rest.lower()
    return next((n for n in names if lowered.startswith(n.lower()) and not lowered[len(n):len(n) + 1].isalpha()), "")


def of_someone_else(query: str, content: str, names: Sequence[str], weights: dict[str, float]) -> str:
    """"about Noor, not you": a question about the user's own (no one else asked: "What am I allergic to?",
    我大学在哪儿读的), and a memory whose every sentence that meets the question has someone of the user's as its subject
    and not the user: "noor is properly allergic to cats", "我弟弟贺晓东在重庆读研". A sentence with the user in it ("Noor
    and I are both allergic") is the user's too; one that starts "she"/"he", or an English one that names no one
    ("like eyes swelling shut allergic"), is of the person just named (a Chinese one without a subject is the
    user's: 上周去爬了青城山); a memory that meets the question in no sentence of its own (by meaning alone) is left to
    relevance."""
    whose, met, before = "", False, ""
    for sentence in split_sentences(content):
        rest = sentence[_LEAD_IN.match(sentence).end():]
        mine = bool(_USER_IN_SENTENCE.search(sentence))
        carried = before if _PRONOUN_FIRST.match(rest) or not has_cjk(sentence) else ""  # "like eyes swelling shut"
        of = "" if mine else subject_person(sentence, names) or carried
        before = of
        if keyword_overlap(query, sentence, weights) <= 0:
            continue
        met = True
        if not of:
            return ""  # the user's, or of no one in particular: "allergic to cats so that's a no", told without "I"
        whose = whose or of
    shown = whose.title() if whose.islower() and not _RELATIVE.fullmatch(whose) else whose  # "noor" → Noor
    return f"about {shown}, not you" if met else ""


def name_terms(name: str) -> frozenset[str]:
    """The index terms a memory holds when it names this person ("刘秀兰" → 刘秀, 秀兰)."""
    return frozenset(t for t in search_terms(name) if not is_single_cjk(t))


def fills_slot(memory: Memory, wanted: Sequence[str]) -> bool:
    """Whether a memory fills a slot the question asks for: its own, or the employer a job stated with its
    workplace names ("The user is a junior UX researcher at Kwartel" answers "Where do I work?")."""
    return memory.attribute in wanted or ("employer" in wanted and memory.attribute == "job"
                                           and workplace_of(memory.content) is not None)


def about_whom(memory: Memory, person: str) -> bool:
    """A slot answers the question only for the person asked about ("my sister's name" is not the
    user's name); a relation slot names the relation itself."""
    return memory.attribute in _RELATION_SLOTS or memory.subject == person


def never_told(query: str, weights: dict[str, float], known: Collection[str] = ()) -> str:
    """"never mentioned: cat" when the question is about a particular thing (a concept with a parent:
    a cat, a dad, a violin) that no memory names in any of its words: whatever else matches, it is not
    about that. A compound question is left to its parts. `known`: the relations the store knows someone
    by, in whatever words ("me and ola split up" makes Ola the ex without the word)."""
    if re.search(r"\bor\b|还是", query, re.IGNORECASE):
        return ""  # "brief or in-depth?": a choice, one side of which may never have been said
    unheard = sorted(name for name in concepts_in(query)
                     if CONCEPTS[name].parent is not None and not {name, *ancestors(name)} & _SAID_MANY_WAYS
                     and name not in known
                     and (name in PEOPLE_CONCEPTS or name not in _CLASSES)
                     and weights.get(concept_key(name), 0.0) >= UNSEEN_WEIGHT
                     and weights.get(concept_key(f"{CONCEPTS[name].parent} (own words)"), UNSEEN_WEIGHT) >= UNSEEN_WEIGHT)
    return f"never mentioned: {unheard[0]}" if unheard else ""


_CLASSES = frozenset(CONCEPTS[c].parent for c in CONCEPTS) - {None}
"""Concepts with narrower ones (an instrument, a pet): a class has members the lexicon does not list (a charango),
so no memory naming its words is no sign it was never mentioned. Relations are the exception: the lexicon
names them all."""
_SAID_MANY_WAYS = frozenset({"sport", "reply", "digestion", "joints", "back", "hay fever", "allergy", "mental health",
                             "medication"})
"""Doings, manners and bodily troubles are told in too many words ("climbed Ben Nevis" for hiking, "dairy
leaves me bloated" for digestion, "my knees are shot" for joints), and medicines by too many names (ramipril,
奥美拉唑), for their absence from the lexicon's words to mean they were never mentioned; people, animals and things
(a blood type, a cat) are not."""


_ONE_OF_THEIR_OWN = re.compile(r"\b(?:my|our)\s+(\w+)(?:\s+(\w+))?", re.IGNORECASE)


def pets_asked(query: str) -> list[tuple[str, str]]:
    """(word, kind) of each animal a question asks after as the user's own: "What's my cat called?" → ("cat", "cat")."""
    return [(w, c) for match in _ONE_OF_THEIR_OWN.finditer(query)
            for w in (g.lower() for g in match.groups() if g)  # "my cat", "my old cat"
            for c in concepts_in(w) if CONCEPTS[c].parent == "pet" and w in words_of(c)]


def only_in_general(pets: list[tuple[str, str]], content: str) -> str:
    """"only cats in general, not your cat" when a question asks after an animal of the user's own (`pets_asked`:
    "What's my cat called?") and a memory names that kind only in the plural, as animals in general ("mostly dogs and
    cats", "I'm allergic to cats"): it tells of no animal the user has."""
    for word, kind in pets:
        said = {w.lower() for w in re.findall(r"[A-Za-z]+", content) if w.lower() in words_of(kind)}
        owned_many = said and re.search(rf"\b(?:my|our|the user's|their|two|three|four|both|\d+)\s+(?:\w+\s+)?"
                                        rf"(?:{'|'.join(sorted(said))})\b", content, re.IGNORECASE)  # "our cats Miso"
        if said and not owned_many and all(w.endswith("s") and w[:-1] in words_of(kind) for w in said):
            return f"only {kind}s in general, not your {word}"
    return ""


def _near_miss(texts: list[str], content: str) -> str:
    """A near miss for the question and for each of its parts, or "" when one of them it is not."""
    misses = [near_miss(text, content) for text in texts]
    return "" if "" in misses else f"near miss: {misses[0]}"


def history_episodes(candidates: list[Candidate], children: dict[int, list[Memory]], asked: list[str],
                     floor: float) -> dict[int, int]:
    """An episode whose fact was superseded is history for a question about that fact: the question asks
    for that fact's slot, or the later value is a relevant candidate (at or above the floor, and no mismatch:
    "Callum's packed in the football" says nothing of his age). For anything else it says (a name, a date, an
    event) it stands. Maps the episode to the memory that replaced its fact."""
    present = {c.memory.id for c in candidates if c.memory.status == "active" and c.relevance >= floor and not c.mismatch}
    history = {}
    for c in candidates:
        for child in children.get(c.memory.id, []):
            if child.attribute in asked or child.superseded_by in present:
                history[c.memory.id] = child.superseded_by or child.id
                break
    return history


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


def ended_later(candidates: list[Candidate], floor: float, schedule_only: bool = True,
                endings: bool = True, asked: Sequence[str] = ()) -> dict[int, int]:
    """A relevant statement whose thing a later candidate ends ("We've got an allotment in Roath", then
    "We gave the allotment up"; "我养了两只鹦鹉", then "鹦鹉送给我姐了") is history for this question, even
    where neither became a typed memory: what ended it is what holds now, and it is recalled in the
    earlier one's place (see `lift_endings`) though it may share none of the question's words ("we had to
    put Mochi to sleep" for "Do I have a cat?": such an ending ends only what it names by a name).
    Only the words beside the act name what ended (`endings.retired_terms`); only an act ends ("gave up",
    "sold", 送给…了), not a state said in passing ("no more trains now"); and an earlier ending is not
    itself ended. Completed study ("passed the viva", 毕业了) ends study said to be going on, whatever its
    words ("I'm doing a PhD"). A reschedule makes an earlier statement history only for a question that asks
    nothing but the schedule (`schedule_only`): the first statement may say who teaches the class too; and only a
    reschedule, no ending, for a when-question (`endings`). A reschedule of someone else's ("My daughter's piano
    lesson moved to Fridays") leaves the user's own. Maps the earlier statement to the ending."""
    active = [c for c in candidates if c.memory.status == "active"]
    acting = {c.memory.id for c in active if endings and (RETIRING_ACT.search(c.memory.content)  # cheap test first
                                                           or HABIT_ENDED.search(c.memory.content))}
    completing = {c.memory.id for c in active if endings and STUDY_DONE.search(c.memory.content)}  # see ends_study
    ending = acting | completing
    endings = []
    for c in active:
        if c.memory.id not in ending or c.mismatch:  # "Callum packed in the football" ends nothing of his age
            continue
        ended = set().union(*(retired_terms(s, RETIRING_ACT) | retired_terms(s, HABIT_ENDED)
                              for s in _SENTENCE_END.split(c.memory.content)))
        if c.relevance < floor:  # an ending the question is not about ends only what it names by name or kind
            ended &= {t for w in re.findall(r"\b[A-Z][a-z]{2,}\b", c.memory.content) if w not in NOT_NAMES
                      for t in search_terms(w)} | _thing_terms(c.memory.content)
        if ended or c.memory.id in completing:
            endings.append((c.memory, ended))
    moves = [(c.memory, moved) for c in active if schedule_only and c.relevance >= floor
             and (moved := rescheduled_terms(c.memory.content))]
    if not endings and not moves:
        return {}
    earlier = [(c.memory, set(search_terms(c.memory.content))) for c in active
               if c.relevance >= floor and not c.memory.pinned and c.memory.id not in ending]
    older: dict[int, int] = {}
    for move, moved in moves:  # "Book club has moved to Thursdays": the day it was on before is history
        for memory, terms in earlier:
            if (memory.id != move.id and _said_at(memory) < _said_at(move) and moved & terms
                    and SCHEDULE.search(memory.content) and not rescheduled_terms(memory.content)
                    and not _whose(move.content) - _whose(memory.content) - terms):
                older.setdefault(memory.id, move.id)
    role_asked = "job" in asked and "employer" not in asked
    for ending, ended in endings:
        if asked and DYING.search(ending.content) and not set(asked) & LIVING:
            continue  # "had to put Dixie down" ends the dog, not the house with "a big fenced yard for Dixie"
        for memory, terms in earlier:
            if (_said_at(memory) >= _said_at(ending)
                    or memory.source_message is not None and memory.source_message == ending.source_message):
                continue
            roles = {t for r in _A_ROLE.findall(memory.content) for t in search_terms(r)} if role_asked else set()
            if roles and not ended & roles:
                continue  # "What do I do for a living?": leaving the Queen Elizabeth ended no "I'm an ICU nurse"
            if ended & terms or ending.id in completing and ends_study(ending.content, memory.content):
                older.setdefault(memory.id, ending.id)
    return older


_A_ROLE = re.compile(rf"\b(?:{JOB_TITLES})\b", re.IGNORECASE)
"""What someone is at work ("nurse", "sparky"): ended only by words that name it, not by leaving a workplace."""


def _whose(content: str) -> set[str]:
    """Whose a statement's thing is, when not the user's: a relation ("my daughter's") or a name ("Mam's", "Noah's")."""
    names = re.findall(r"\b([A-Z][a-z]+)['’]s\s+(?!(?:on|at|in|now|every|been|moved|changed|switched|gone)\b)", content)
    return {t for n in names for t in search_terms(n)} | (concepts_in(content) & PEOPLE_CONCEPTS)


def _thing_terms(content: str) -> set[str]:
    """The index terms of the particular things a text names by their kind's words ("coffee", "the Niva", 咖啡,
    鹦鹉): what an ending names as surely as a name."""
    words = [*re.findall(r"[A-Za-z]{3,}", content),
             *(t for t in search_terms(content) if has_cjk(t) and len(t) == 2)]
    return {t for w in words if any(CONCEPTS[k].parent for k in concepts_in(w)) for t in search_terms(w)
            if not is_single_cjk(t)}


def lift_endings(candidates: list[Candidate], ended: dict[int, int]) -> list[Candidate]:
    """Each ending as relevant as the most relevant statement it ended: it answers the question in its place."""
    by_id = {c.memory.id: c for c in candidates}
    lifted = {}
    for earlier, ending in ended.items():
        source, target = by_id[earlier], lifted.get(ending, by_id[ending])
        if source.relevance > target.relevance:
            lifted[ending] = replace(target, relevance=source.relevance, score=source.score, group=source.group,
                                     routes=(*target.routes, "ending"))
    return [lifted.get(c.memory.id, c) for c in candidates]


def earlier_ages(candidates: list[Candidate], name: str) -> dict[int, int]:
    """"How old is Sipho?" over "Zanele is 12 and Sipho is 8", then "Sipho turned 9 on Tuesday": an age
    only grows, so the latest statement of it stands and every earlier one is history (maps each earlier
    memory to the latest). The same age said twice is no change."""
    aged = [(c, age) for c in candidates if c.memory.status == "active" and not c.memory.pinned
            and (age := stated_age(name, c.memory.content)) is not None]
    if len({age for _, age in aged}) < 2:
        return {}
    latest, newest_age = max(aged, key=lambda pair: _said_at(pair[0].memory))
    return {c.memory.id: latest.memory.id for c, age in aged if age != newest_age}


_LATEST = re.compile(r"\b(?:now|latest|last|currently|current|these days|in the end|at the moment|most recent|"
                     r"anymore|any more)\b|现在|最近|目前|这次|最新|如今", re.IGNORECASE)
"""A question for the figure of now ("What's my rent now?", 最近一次): not for one of the past ("How many years was I a
deputy before…?")."""
_FIGURE = re.compile(r"\d[\d,.]*\s?(?:k|%)?|[一二两三四五六七八九十百千万]+(?:点[一二三四五六七八九十]+)?")


def earlier_figures(candidates: list[Candidate], query: str, floor: float) -> dict[int, int]:
    """"What was my latest A1C?", 房租现在多少, "what's the extension costing us in the end?" over "A1C 6.1", then
    "A1C down to 5.8": a figure of one measured thing (a term of the question both statements name) said again with
    another value is history beside the latest — a rent, a weight, a price, a reading. Only relevant statements
    (at or above the floor) with a figure count; maps each earlier one to the latest."""
    wanted = {t for t in query_terms(query) if len(t) >= 3 or has_cjk(t) and len(t) == 2}
    figured = [(c, figures, terms) for c in candidates
               if c.memory.status == "active" and not c.memory.pinned and c.relevance >= floor and not c.mismatch
               and (figures := frozenset(m.group(0).strip(" ,.") for m in _FIGURE.finditer(c.memory.content)))
               and (terms := wanted & set(search_terms(c.memory.content)))]
    older: dict[int, int] = {}
    for c, figures, terms in figured:
        later = [(d, f) for d, f, t in figured if t & terms and _said_at(d.memory) > _said_at(c.memory)
                 and (c.memory.source_message is None or d.memory.source_message != c.memory.source_message)
                 and f != figures]
        if later:
            latest = max(later, key=lambda pair: _said_at(pair[0].memory))[0]
            older[c.memory.id] = latest.memory.id
    return older


ONE_AT_A_TIME = frozenset({"phone", "laptop", "tablet", "car"})
"""Things a person has one of at a time: a new one replaces the one said before."""
_ACQUIRED = re.compile(r"\b(?:(?:a|my|the|our) (?:brand )?new|switched|swapped|upgraded|replaced|bought|traded|"
                       r"got (?:a|an|my|the|myself)|picked up)\b((?:\s+\S+){1,5})"
                       r"|(?:换了|换成|新买了?|买了)(.{1,10})", re.IGNORECASE)


def acquired(content: str) -> frozenset[str]:
    """The things had one at a time that a memory says were newly got: named in the few words after the getting
    ("bought a Kia Niro EV", "switched from Android to an iPhone", 换了个新手机), not anywhere ("the Hilux has a new
    owner", "driving down to help Isla move into her new flat")."""
    return frozenset(thing for m in _ACQUIRED.finditer(content)
                     for thing in concepts_in(m.group(1) or m.group(2) or "") & ONE_AT_A_TIME)


def replaced_things(candidates: list[Candidate]) -> dict[int, int]:
    """"I have an old Samsung Galaxy phone", then "Switched from Android to an iPhone 15": a thing had one at a time
    (a phone, a laptop, a car), newly got, makes every earlier statement naming that kind of thing history
    (maps each to the latest acquisition of its kind)."""
    named = [(c, concepts_in(c.memory.content) & ONE_AT_A_TIME) for c in candidates
             if c.memory.status == "active" and not c.memory.pinned]
    latest: dict[str, Candidate] = {}
    for c, things in named:
        if things:
            for thing in acquired(c.memory.content):
                if thing not in latest or _said_at(c.memory) > _said_at(latest[thing].memory):
                    latest[thing] = c
    older = {}
    for c, things in named:
        for thing in sorted(things & latest.keys()):
            newer = latest[thing]
            if _said_at(c.memory) < _said_at(newer.memory) and (c.memory.source_message is None
                                                                or c.memory.source_message != newer.memory.source_message):
                older.setdefault(c.memory.id, newer.memory.id)
    return older


_ROLE_GOT = re.compile(r"\b(?:offered|gave) (?:me|us|the user) (?:the|a|an) (?:new )?(?:[\w-]+ ){1,3}(?:job|position|role|post)\b"
                       r"|\b(?:got|landed|took|accepted|started) (?:the|a|an|my) (?:new )?(?:[\w-]+ ){1,3}(?:job|position|role|post) "
                       r"(?:at|with)\b", re.IGNORECASE)
"""An employer statement that names the role too ("Tarawera offered me the supervisor job", "got the trainee driver
job at ScotRail"): the job changed with the employer."""


def older_values(candidates: list[Candidate], asked: Sequence[str] = ()) -> dict[int, int]:
    """A single-valued slot (home, employer, manager…) has one current value: when two active typed
    memories fill it for the same person, the later statement stands and the earlier is only history,
    even where the write path did not see the change (other wording, a different clause).
    For a question about the employer, a job sentence that named another organisation before the
    latest employer statement is history too ("…engineer for Hebridean Ferries", then "Caley Marine
    offered me the job"); for a question about the job it still tells the job, unless the employer
    statement names the new role too ("…offered me the supervisor job")."""
    def slot_of(memory: Memory) -> tuple[str, str, str | None] | None:
        if (memory.is_episode or memory.status != "active" or memory.attribute not in SINGLE_VALUED
                or is_retiring_event(memory)):
            return None
        whose = person_of(memory.content) if memory.attribute in PER_PERSON else None  # a wife's, a son's birthday
        return memory.attribute, memory.subject, whose

    latest: dict[tuple[str, str, str | None], Candidate] = {}
    for c in candidates:
        key = slot_of(c.memory)
        if key is not None and (key not in latest or _said_at(c.memory) > _said_at(latest[key].memory)):
            latest[key] = c
    older = {}
    for c in candidates:
        key = slot_of(c.memory)
        if key is None or c.memory.pinned or latest[key] is c:
            continue
        newest = latest[key].memory
        if c.memory.kind == newest.kind == "relation" and same_named_person(c.memory.content, newest.content):
            continue  # "my partner Jess is a paramedic", then "Jess is yelling from the other room": one partner
        if not restates(c.memory.event_at, newest.event_at, c.memory.attribute, newest.content):
            older[c.memory.id] = latest[key].memory.id
    employer = latest.get(("employer", "user", None))
    role_too = employer is not None and bool(_ROLE_GOT.search(employer.memory.content))  # "…offered me the supervisor job"
    if employer is not None and ("employer" in asked and "job" not in asked or "job" in asked and role_too):
        for c in candidates:
            if (slot_of(c.memory) == ("job", "user", None) and not c.memory.pinned
                    and _said_at(c.memory) < _said_at(employer.memory)
                    and another_workplace(c.memory.content, employer.memory.content)):
                older[c.memory.id] = employer.memory.id
    current_origins = {c.memory.origin_id for c in latest.values()}
    by_id = {c.memory.id: c for c in candidates}
    for old_id, new_id in list(older.items()):  # the old wording, in the episode it came from
        origin = by_id[old_id].memory.origin_id
        if origin in by_id and origin not in current_origins and not by_id[origin].memory.pinned:
            older.setdefault(origin, new_id)
    return older


_THE_USER = re.compile(r"\bthe user(?:'s)?\b|用户", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|me|my|we|we're|our|the user(?:'s)?)\b|我|俺|用户", re.IGNORECASE)


_NOW_HELD = re.compile(r"\b(?:now|moved|moving in|got the keys|bought|started|starting|joined|switched|new|these days|"
                       r"accepted|offered|hired)\b|现在|搬到|搬进|搬家|新|换了|入职|跳槽|买了", re.IGNORECASE)
_NOT_NOW = re.compile(r"\b(?:used to|planning|plan to|thinking of|thinking about|hoping|might|may|would like|next year|"
                      r"for (?:a|two|three) (?:week|month)s?|trip|visiting|staying)\b|以前|打算|准备|计划|想|出差|旅游",
                      re.IGNORECASE)


def earlier_statements(candidates: list[Candidate], asked: Sequence[str]) -> dict[int, int]:
    """An episode or a typed memory of another slot that said an earlier value of a single-valued slot a question
    asks ("I'm Polish, but I've been living in York for six years" before "The user moved to Leeds") is history
    beside the typed memory that holds the slot now, even where the write path typed nothing for that slot from it
    (an introduction that said five things; "The user is 71 and retired, living in Largs", typed as the job). A clause of the episode must fill the slot, in the first person and of nobody else, and name
    nothing the current value names (a restatement is no earlier value)."""
    older: dict[int, int] = {}
    for slot in dict.fromkeys(asked):
        if slot not in SINGLE_VALUED:
            continue
        holders = [c.memory for c in candidates if not c.memory.is_episode and c.memory.status == "active"
                   and c.memory.attribute == slot and c.memory.subject == "user" and not is_retiring_event(c.memory)]
        if not holders:
            continue
        latest = max(holders, key=_said_at)
        if _NOT_NOW.search(latest.content) or not _NOW_HELD.search(latest.content):
            continue  # only a value said as the one of now replaces ("moved", "got the keys", 搬到, 现在): not a plan,
            # a trip or a past ("我打算明年搬到上海", "这周在北京出差", "我以前住在重庆")
        now_said = _THE_USER.sub(" ", latest.content)  # "the user" is no word the two statements share
        for c in candidates:
            memory = c.memory
            if (memory.status != "active" or memory.pinned or memory.attribute == slot or memory.id == latest.origin_id
                    or memory.id in older or _said_at(memory) >= _said_at(latest)):
                continue
            clauses = [clause for sentence in split_sentences(memory.content) for clause in split_clauses(sentence)]
            if any(BY_NAME[other].matches(clause) for other in set(asked) - {slot} if other in BY_NAME
                   for clause in clauses):
                continue  # it also answers another part of the question ("…I live in Malmö and work at IKEA")
            stating = [clause for clause in clauses if BY_NAME[slot].matches(clause) and _FIRST_PERSON.search(clause)
                       and not concepts_in(clause) & PEOPLE_CONCEPTS]
            if stating and not any(_names_the_same(_THE_USER.sub(" ", said), now_said) for said in stating):
                older[memory.id] = latest.id
    return older


_NEW_VALUE = re.compile(r"\b(?:new|started|starting|starts|joined|joining|joins|moved|bought|switched|accepted|landed|"
                        r"hired|offered)\b|新|入职|跳槽|换了|买了", re.IGNORECASE)
"""A value said as the new one ("The user starts at the print shop on Monday", 跳槽到了…)."""


def overtaken_endings(candidates: list[Candidate], asked: Sequence[str], replacing: set[int]) -> dict[int, int]:
    """An ending said before the current value of a slot the question asks is history too: "I resigned from the
    bakery", then "I start at the print shop on Monday" — for "Where do I work?" the print shop answers, and the
    resignation, which names only the bakery, is no answer any more; nor is "the Corsa's engine seized" beside
    "so we picked up a Yaris" in the same message. The ending is a typed event of that slot, or a message with
    an act of ending in it ("handed in my notice at…"), said before the value and not in the message that says
    it. The current value is one that replaced an earlier value (`replacing`): a later mention that fills the
    slot without replacing anything ("现在骑电动车上班" after the car was sold) leaves the sale the answer.
    Maps each to the current value."""
    wanted = set(asked) & SINGLE_VALUED
    current: dict[str, Memory] = {}
    for c in candidates:
        m = c.memory
        if (m.status == "active" and not m.is_episode and m.attribute in wanted and m.subject == "user"
                and not is_retiring_event(m) and (m.attribute not in current or _said_at(m) > _said_at(current[m.attribute]))):
            current[m.attribute] = m
    current = {attribute: m for attribute, m in current.items()
               if m.id in replacing or acquired(m.content) or is_change(m.content) or _NEW_VALUE.search(m.content)}
    older: dict[int, int] = {}
    for c in candidates:
        m = c.memory
        if m.status != "active" or m.pinned:
            continue
        for attribute, value in current.items():
            if _said_at(m) >= _said_at(value):
                continue
            same_message = (m.source_message == value.source_message if m.source_message is not None
                            else m.created_at == value.created_at)
            if same_message and not (acquired(value.content) or is_change(value.content)):
                continue  # "I sold the Niva. Nobody needs a car here": no new value, the sale stands
            typed = is_retiring_event(m) and m.attribute == attribute
            said = m.is_episode and not same_message and bool(RETIRING_ACT.search(m.content))
            if typed or said:
                older.setdefault(m.id, value.id)
    return older


_TIME_WORD = re.compile(r"^(?:last|next|week|weekend|month|year|today|yesterday|tomorrow|monday|tuesday|wednesday|"
                        r"thursday|friday|saturday|sunday)$|^[上下这今昨明前后每周][周天月年]|[周天月年号]$")


def _things(text: str) -> set[str]:
    """The terms of a text that name things: not stop words, single characters or times."""
    return {t for t in query_terms(text) if (len(t) >= 3 or has_cjk(t) and len(t) == 2) and not _TIME_WORD.search(t)}


def _names_the_same(one: str, other: str) -> bool:
    """Whether two texts share a word that names a thing (not a stop word, a single character or a time:
    "上周四去杭州面试" and "上周五…辞职" share only "上周")."""
    return bool(_things(one) & _things(other))


_NOW_ASKED = re.compile(r"\b(?:now|currently|these days|nowadays|at the moment)\b|现在|目前|如今", re.IGNORECASE)
_SAID_ANEW = re.compile(r"\b(?:moved|switched|changed|went up|gone up|dropped to|up to|down to|no longer)\b|"
                        r"升到|升了|涨到|降到|改成|改到|换成|换到|换了|不在|不再", re.IGNORECASE)
"""A value said as a change ("went up to 1550", 升到业余七级, 不在食堂干了): a bare "now" is said of anything."""


_CHANGE_TERMS = frozenset(query_terms("now currently nowadays moment days moved switched changed went gone dropped up down "
                                     "longer 现在 目前 如今"))
"""The words of asking for now and of saying a change: two statements that share only these ("niamh moved to days
now", "the session moved… now") are on different things."""


def said_anew(candidates: list[Candidate], query: str, asked: Sequence[str]) -> dict[int, int]:
    """For a question that asks for now ("我下象棋现在是几级", "What's my chess rating now?"): a statement said later on
    the same thing as a change ("升到业余七级了", "went up to 1550 now", "现在不在食堂干了") holds now, and the earlier one
    is history, however the two rank. The same thing: a word of the question both name, and one more they share
    ("象棋" and "业余"; "秀梅" and "食堂"). Not when the question asks a slot the earlier one fills and the later one does
    not ("Anna and Tom are now engaged" for "Where does Anna live now?"), unless the later one says what they share is
    over ("秀梅现在不在食堂干了"). Maps the earlier to the later."""
    if not _NOW_ASKED.search(query):
        return {}
    wanted = _things(query) - _CHANGE_TERMS
    slots = [BY_NAME[slot] for slot in asked if slot in BY_NAME]
    active = [(c.memory, _things(c.memory.content) - _CHANGE_TERMS) for c in candidates
              if c.memory.status == "active" and not c.memory.pinned]
    older: dict[int, int] = {}
    for new, new_things in active:
        if not wanted & new_things or not _SAID_ANEW.search(new.content):
            continue
        fills = any(slot.matches(new.content) for slot in slots)
        for old, old_things in active:
            shared = old_things & new_things
            if old.created_at >= new.created_at or not wanted & shared or len(shared) < 2:
                continue
            if fills or not any(slot.matches(old.content) for slot in slots) or _ends_one_of(new.content, shared - wanted):
                older.setdefault(old.id, new.id)
    return older


def _ends_one_of(content: str, terms: set[str]) -> bool:
    """Whether a statement says one of `terms` is over ("现在不在食堂干了", "no longer at the bakery")."""
    return any(re.search(rf"(?:不在|不再|没在|离开了?|辞了)[^，。！？,.!?]{{0,4}}{re.escape(t)}", content)
               or re.search(rf"\b(?:no longer|not|left|quit)\b[^.,!?]{{0,20}}\b{re.escape(t)}", content, re.IGNORECASE)
               for t in terms)


def _said_at(memory: Memory) -> tuple[float, int]:
    return memory.created_at, memory.id


def says_it_all(typed: str, episode: str, share: float = 0.6) -> bool:
    """Whether a typed memory carries most of what its episode says: most of the episode's words
    (or Chinese bigrams) are in it. A clause distilled from a long message does not stand for it."""
    words = {t for t in search_terms(episode, drop_stopwords=True) if not is_single_cjk(t)}
    return not words or len(words & term_set(typed)) >= share * len(words)


def same_statements(candidates: list[Candidate]) -> dict[int, int]:
    """A typed memory and the episode it came from, both found and saying the same: one stands for both. The typed memory
    (the one a person can pin, edit and see superseded) unless the episode, in the user's own words,
    is clearly more relevant; a pinned memory always stands (it is in the prompt anyway)."""
    by_id = {c.memory.id: c for c in candidates}
    duplicates: dict[int, int] = {}
    for typed in candidates:
        origin = by_id.get(typed.memory.origin_id) if typed.memory.origin_id is not None else None
        if origin is None or typed.memory.status != "active" or origin.memory.status != "active":
            continue
        if not says_it_all(typed.memory.content, origin.memory.content):
            continue  # the episode says more than this one fact ("…my mum still lives there. My brother…")
        typed_wins = typed.memory.pinned or typed.relevance >= origin.relevance - EPISODE_PREFERENCE
        keep, drop = (typed, origin) if typed_wins else (origin, typed)
        if drop.memory.id not in duplicates and keep.memory.id not in duplicates:
            duplicates[drop.memory.id] = keep.memory.id
    slots = {(c.memory.source_message, c.memory.content): c.memory.id for c in candidates
             if not c.memory.is_episode and c.memory.kind != "event" and c.memory.status == "active"
             and c.memory.source_message is not None}
    for c in candidates:  # a move is kept twice, the new home and the move (an event that outlives the next move):
        # while both stand and say the same, the home stands for the move
        twin = slots.get((c.memory.source_message, c.memory.content)) if c.memory.kind == "event" else None
        if twin is not None and c.memory.status == "active" and c.memory.id not in duplicates and twin not in duplicates:
            duplicates[c.memory.id] = twin
    return duplicates


class Recaller:
    def __init__(self, memories: MemoryStore, settings: RecallSettings) -> None:
        self.memories = memories
        self.settings = settings

    def recall(
        self,
        query: str,
        *,
        token_limit: int,
        count_tokens: Callable[[str], int],
        now: float | None = None,
        vector: list[float] | None = None,
        touch: bool = True,
    ) -> RecallResult:
        now = time.time() if now is None else now
        settings = self.settings
        started = time.perf_counter()
        parts = sub_queries(query)
        vectors: list[list[float]] = []
        if query.strip():
            vectors = self.memories.embedder.embed([query, *parts]) if vector is None or parts else [vector]
            if vector is not None:
                vectors[0] = vector
        embedded = time.perf_counter()
        routes: dict[int, list[str]] = {}
        similarity: dict[int, float] = {}
        group: dict[int, int] = {}
        for index, neighbours in enumerate(self.memories.knn_each(vectors, settings.knn_k) if vectors else []):
            for memory_id, sim in neighbours:
                if "vector" not in routes.setdefault(memory_id, []):
                    routes[memory_id].append("vector")
                if sim > similarity.get(memory_id, -1.0):
                    similarity[memory_id], group[memory_id] = sim, index
        weights, frequencies = self._idf(query)  # one look-up of the query's words serves FTS and IDF
        for memory_id, _rank in self.memories.keyword(query, settings.keyword_k, frequencies=frequencies):
            routes.setdefault(memory_id, []).append("keyword")
        for name in sorted(concepts_in(query)):  # "我会哪种民乐？" finds "吹笛子" by the concept's narrower words
            words = [w for w in index_words(name) if not is_single_cjk(w)]
            for memory_id, _rank in self.memories.keyword_terms(words, settings.keyword_k, frequencies=frequencies):
                if "concept" not in routes.setdefault(memory_id, []):
                    routes[memory_id].append("concept")
        asked = slots_asked(query) + providers_asked(query)
        person = asked_about(query)
        # each part of a compound question asks for its own slot, of its own person ("What do I do for work
        # and what does my husband do?": the user's job, and the husband's)
        slot_asks = [(slots_asked(part), asked_about(part)) for part in parts] or [(asked, person)]
        named = "" if parts else asked_name(query) or self._chinese_name_asked(query)
        asked_of = "" if parts else asked_kind(query)
        kind = asked_of if named else ""
        ages_asked = not parts and not named and asked_of == "age"  # of the user, a relative: a number
        quantity_asked = not parts and not ages_asked and asks_a_quantity(query)
        relative = "" if parts or named else relative_asked(query)
        names_asked = bool(relative) and not asked_of and asks_a_name(query)  # "What's my mum's first name?" wants a name
        open_question = is_open_question(query)
        for memory_id in self.memories.by_attributes(asked, limit=40):
            routes.setdefault(memory_id, []).append("slot")
        months = query_months(query)
        when = asks_when(query)
        when_it_was = asks_when_it_was(query)  # "when did I…": the earlier statement itself; "what day is…": now
        for memory_id in self.memories.in_months(months):
            routes.setdefault(memory_id, []).append("date")
        for memory in self.memories.pinned():
            routes.setdefault(memory.id, []).append("pinned")

        found = self.memories.many(list(routes))
        missing = [i for i in found if i not in similarity]
        if missing and vectors:
            matrix = np.asarray(vectors, dtype=np.float32)
            for memory_id, stored in self.memories.vectors(missing).items():
                sims = matrix @ stored
                similarity[memory_id], group[memory_id] = float(sims.max()), int(sims.argmax())

        semantic = self.memories.embedder.coverage(query) >= settings.min_coverage
        # the query's background: what an unrelated memory scores for it. A median over a handful of
        # memories (a new user's store) is no background, just the memories themselves.
        enough = len(similarity) >= MIN_BACKGROUND
        background = statistics.median(similarity.values()) if semantic and enough else 0.0
        texts = [query, *parts]
        relations_asked = any(concepts_in(text) for text in texts)
        kin = frozenset() if parts else relatives_asked(query)
        roster = self.memories.people() if relative or relations_asked or named else {}
        people = ({concept: [name_terms(n) for n in names] for concept, names in roster.items()}
                  if relations_asked else {})  # names only meet a relation the question asks
        known_names = sorted({n for names in roster.values() for n in names})
        named_as = frozenset(concept for concept, names in roster.items() if named in names) if named else frozenset()
        unheard = "" if parts else never_told(query, weights, roster)
        live = [m for m in found.values() if m.status not in ("deleted", "archived")
                and not (m.expires_at and m.expires_at <= now)]
        newest = max((m.created_at for m in live), default=now)

        asked_people = [terms for text in texts for concept in concepts_in(text) for terms in people.get(concept, ())]

        def names_one_asked(content: str) -> bool:
            """Whether a memory names someone the store knows by the relation asked: "my boyfriend Callum" is
            about the ex once Callum and the user broke up, though it says boyfriend."""
            return bool(asked_people) and any(terms <= term_set(content) for terms in asked_people)

        own = (not parts and not named and not relative and not kin and person == "user" and _OF_THE_USER.search(query)
               and not any(concepts_in(text) & PEOPLE_CONCEPTS for text in texts))  # the user's own, no one else's
        # the people the store knows: by relation, and by name where a typed memory is filed under them ("noor")
        everyone = sorted({n for names in self.memories.people().values() for n in names}
                          | {m.subject for m in live if m.subject not in ("", "user") and not _RELATIVE.fullmatch(m.subject)}
                          ) if own else []

        pets = pets_asked(query)

        def mismatch(memory: Memory) -> str:
            """Why a memory that meets the question's words does not answer it, or ""."""
            return (unheard or ("" if names_one_asked(memory.content) else _near_miss(texts, memory.content))
                    or not_about(named, memory.content, named_as)
                    or says_nothing_of(kind, named, memory.content)
                    or (says_no_age(memory.content) if ages_asked else "")
                    or (says_no_quantity(memory.content) if quantity_asked else "")
                    or (says_no_name(memory.content) if names_asked else "")
                    or not_theirs(relative, memory, known_names, query)
                    or speaks_of_none(kin, query, memory.content, people, known_names)
                    or (of_someone_else(query, memory.content, everyone, weights) if own else "")
                    or (only_in_general(pets, memory.content) if pets else ""))

        candidates = []
        for memory in live:
            keyword = max(keyword_overlap(text, memory.content, weights, people) for text in texts)
            fills = (any(fills_slot(memory, wanted) and about_whom(memory, whose) for wanted, whose in slot_asks)
                     and not (named and memory.subject == "user"))  # "What instrument does Noor play?": not the user's
            slot = (1.0 if open_question else 0.5) if fills else 0.0
            date = 1.0 if months and _in_months(memory, months) else 0.0
            if when and memory.event_at is not None:
                date = max(date, 0.5)
            signals = signals_for(memory, similarity.get(memory.id, 0.0), keyword, date=date, newest=newest,
                                  settings=settings, slot=slot)
            if not semantic:
                signals = replace(signals, similarity=signals.keyword)
                routes[memory.id].append("lexical-similarity")
            candidates.append(
                Candidate(memory=memory, signals=signals, score=score(signals, settings, read=semantic),
                          routes=tuple(routes[memory.id]), relevance=relevance(signals, settings, read=semantic),
                          group=group.get(memory.id, 0), mismatch=mismatch(memory))
            )
        episodes = [c.memory.id for c in candidates if c.memory.is_episode and c.memory.status == "active"]
        children = self.memories.superseded_children(episodes)
        candidates += self._endings(candidates, children, mismatch)
        duplicates = same_statements(candidates)  # after the endings: one lifted stands for its own episode
        # "Who did I use to play tennis with?", "What does my ex do?": what was, not what ended it
        past = asks_the_past(query) or any("ex" in concepts_in(text) for text in texts)
        older = {} if past else history_episodes(candidates, children, asked, settings.floor)
        older.update(older_values(candidates, asked))
        if not past and not when:  # "when was my last day at…" asks for the earlier statement itself
            older.update({i: n for i, n in earlier_statements(candidates, asked).items() if i not in older})
        older.update({i: n for i, n in replaced_things(candidates).items() if i not in older})
        if kind == "age":
            older.update(earlier_ages(candidates, named))
        if quantity_asked and not past and not when_it_was and _LATEST.search(query):
            older.update({i: n for i, n in earlier_figures(candidates, query, settings.floor).items() if i not in older})
        if not when_it_was and not past:  # "when did I get the allotment?" asks for the earlier statement itself
            # a question that mixes a schedule part with another ("Who teaches me sitar and on which evening?") keeps
            # the first statement for the other part; a present when-question ("What day is my pottery class?")
            # hears only a reschedule: an ending that shares a name ("Maeve left her job") is no answer to a date
            mixed = any(asks_schedule(part) for part in parts) and not all(asks_schedule(part) for part in parts)
            ended = {i: e for i, e in ended_later(candidates, settings.floor, schedule_only=not mixed,
                                                  endings=not when, asked=asked).items() if i not in older}
            ended.update({i: n for i, n in said_anew(candidates, query, asked).items() if i not in older and i not in ended})
            candidates = lift_endings(candidates, ended)
            older.update(ended)
            if not when:
                replacing = self.memories.replacing([c.memory.id for c in candidates
                                                     if c.memory.attribute in SINGLE_VALUED])
                older.update({i: n for i, n in overtaken_endings(candidates, asked, replacing).items() if i not in older})
        ranked = select(candidates, settings, token_limit, count_tokens, background=background, duplicates=duplicates,
                        older=older, past=past)
        if touch:  # a memory whose episode was recalled in its stead was recalled too
            used = {c.memory.id for c in ranked if c.selected and not c.memory.pinned}
            self.memories.touch(sorted(used | {d for d, keeper in duplicates.items() if keeper in used}), now)
        done = time.perf_counter()
        return RecallResult(query, ranked, (embedded - started) * 1000, (done - embedded) * 1000, background)

    def _chinese_name_asked(self, query: str) -> str:
        """The one person of the user's a Chinese question names ("小雨生日是哪天" → 小雨), by the names the
        store knows: Chinese writes no capitals to find a name by."""
        if not has_cjk(query):
            return ""
        named = {n for names in self.memories.people().values() for n in names if len(n) >= 2 and has_cjk(n) and n in query}
        named = {n for n in named if not any(n != other and n in other for other in named)}  # 陈思雨, not 思雨 in it
        return named.pop() if len(named) == 1 else ""

    def _endings(self, candidates: list[Candidate], children: dict[int, list[Memory]],
                 mismatch: Callable[[Memory], str]) -> list[Candidate]:
        """What ended a fact an episode stated ("Sadly Miso died last week" after "I have a cat called Miso"),
        as a candidate beside that episode, with its relevance: a question about the cat finds the episode by
        its words, and the answer is that it ended. The episode is then history (see `history_episodes`)."""
        wanted = {child.superseded_by: c for c in candidates for child in children.get(c.memory.id, [])
                  if child.superseded_by}
        found = {i: m for i, m in self.memories.many(list(wanted)).items() if m.status == "active" and is_retiring_event(m)
                 and _names_the_same(m.content, wanted[i].memory.content)}  # "Miso died" ends what named Miso
        endings = []
        for i, memory in found.items():
            old = next((k for k, c in enumerate(candidates) if c.memory.id == i), None)
            if old is not None and candidates[old].relevance >= wanted[i].relevance:
                continue
            if old is not None:
                candidates.pop(old)  # found, but less relevant than the episode that said what it ended
            # a mismatch of either stands: what the episode does not say of the one asked about ("says nothing of the
            # birthday asked of Declan") its ending does not either; nor does "Callum packed in the football" say his age
            endings.append(replace(wanted[i], memory=memory, routes=("ending",),
                                   mismatch=wanted[i].mismatch or mismatch(memory)))
        return endings

    def _idf(self, query: str) -> tuple[dict[str, float], tuple[int, dict[str, int]]]:
        """IDF weights of the query's terms and concepts, and the counts they came from (rows, {term: rows
        containing it}), which FTS reuses. A word or concept no memory contains weighs most:
        the store was never told about it ("my cat?" with no cat anywhere). The exception is a Chinese
        bigram whose two characters are both known: unseen, it is most likely the edges of two words
        ("时候应该" gives "候应"), so it weighs nothing."""
        terms = query_terms(query)
        asked = concepts_in(query)
        broader = {CONCEPTS[n].parent for n in asked if CONCEPTS[n].parent in FAMILY_WORDS}  # "娃" answers "儿子"
        concepts = {name: index_words(name) for name in asked}
        concepts.update({f"{b} (own words)": index_words(b, own=True) for b in broader if b})
        singles = {c for t in terms if has_cjk(t) and len(t) == 2 for c in t}
        total, frequencies = self.memories.term_frequencies(
            [*terms, *singles, *(w for ws in concepts.values() for w in ws)])

        def known(char: str) -> bool:
            return char in CJK_STOP_CHARS or char in CJK_PARTICLES or bool(frequencies.get(char))

        weights = {}
        for t in terms:
            edges = has_cjk(t) and len(t) == 2 and not frequencies.get(t) and all(known(c) for c in t)
            weights[t] = 0.0 if edges else idf(frequencies.get(t, 0), total)
        for name, words in concepts.items():
            seen = max((frequencies.get(w, 0) for w in words), default=0)
            weights[concept_key(name)] = idf(seen, total) if seen or name in DOMAINS else UNSEEN_WEIGHT
        return weights, (total, frequencies)
