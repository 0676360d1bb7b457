"""The write path: from a user message to added, merged, superseded or deleted memories.

Order of decisions for each message: a forget request deletes what matches;
chit-chat is skipped; per sentence, secrets are skipped (never stored, even
when asked), questions are not statements, and durable first-person
statements become drafts, labelled by the model when one is available.
Each draft is then reconciled with what is stored under the same
subject/attribute key:
- the same statement again → merged (confidence and importance kept at max);
- a different statement → the newer supersedes the older (old row kept,
  `superseded_by` linking to the new one), unless it is a low-confidence
  contradiction of a high-confidence item, which is kept as `pending`;
- an explicit correction always supersedes.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from memchat.engine.protocol import ChatEngine
from memchat.memory import hand_forget
from memchat.memory.distill import (
    NOW_SAID,
    RELATIVES,
    RETIREMENT,
    draft_from_sentence,
    is_change,
    is_retirement,
    is_retiring_event,
    is_switch,
    multi_valued,
    slot_act,
    third_person,
)
from memchat.memory.endings import DYING, HABIT_ENDED, LIVING, object_terms, retired_terms
from memchat.memory.episodes import EpisodeWindow, episode_windows, time_for, window_of
from memchat.memory.extract import label_with_model
from memchat.memory.forget_requests import ForgetRequest, besides_forget, names_only_people
from memchat.memory.items import MemoryStore
from memchat.memory.own_age import age_in_introduction, age_statement
from memchat.memory.people import introduction, introductions, relation_in, rosters, with_relation
from memchat.memory.persons import NOT_NAMES, PER_PERSON, restates, same_named_person
from memchat.memory.persons import same_person as same_person_named
from memchat.memory.profile import states_who
from memchat.memory.purge import PurgeReport, scrub_phrase, scrub_sentences
from memchat.memory.rules import (
    contains_secret,
    forget_request,
    is_chit_chat,
    is_correction,
    is_durable_statement,
    is_hedged,
    is_question,
    is_request_or_musing,
    mentions_the_user,
    named_subject,
)
from memchat.memory.scoring import DAY, keyword_overlap
from memchat.memory.secrets import SECRET_MARK, redaction
from memchat.memory.segment import split_sentences
from memchat.memory.slots import BY_NAME, ROLE_AT, slot_of
from memchat.memory.speech import (
    normalise,
    referent_of,
    split_clauses,
    strip_markers,
    with_next_name,
    with_referent,
    without_aside,
    without_question_tail,
)
from memchat.memory.terms import USER_TERMS, has_cjk, search_terms
from memchat.memory.topic_match import (
    TopicMatcher,
    about,
    continues,
    points_back,
    private,
    speaks_of_them,
    story_names,
    told_units,
    with_story_names,
    without_topic,
)
from memchat.types import (
    EPISODE,
    FORGET_NOT_KEPT,
    FORGET_UNMATCHED,
    ExtractionFailure,
    MemchatError,
    Memory,
    MemoryDraft,
    WriteOutcome,
)

DUPLICATE_SIMILARITY = 0.9
PENDING_GAP = 0.3
_ONE_AT_A_TIME = frozenset({"diet"})
"""Many-valued slots whose values one keeps one of at a time (vegetarian, then pescatarian; gluten-free beside
either): any change language replaces the latest. In the others (pastimes, languages, pets) only a switch does."""


def _whom_it_names(content: str) -> set[str]:
    """The index terms of the people a text names, by name or relation: not what it says of them."""
    names = re.findall(r"\b[A-Z][^\W\d_A-Z]{2,}\b", content)
    relations = re.findall(rf"\b(?:{RELATIVES})\b", content, re.IGNORECASE)
    return set(search_terms(" ".join(names + relations)))


_OCCASION = re.compile(
    r"\b(?:last day|first day|leaving do|graduation|wedding|funeral|christening|interview|appointment|party|exam|"
    r"test|operation|surgery|scan|check-?up|gig|concert|match|race|marathon|recital|ceremony|launch|deadline|"
    r"anniversary|reunion|holiday|trip|flight|move|removal)s?\b|最后一天|第一天|婚礼|葬礼|面试|考试|手术|复查|体检|"
    r"聚会|派对|演出|比赛|发布|上线|航班",
    re.IGNORECASE,
)
"""An occasion with a date is an event even when the sentence has no 'I': 'Last day at the clinic is 22 May'."""


_HABIT_ACT_CHARS = frozenset("不再也喝吃抽去玩用开骑了")
"""The characters of a Chinese habit's ending itself (不喝…了): a bigram with one of them names no thing."""


def _worth_keeping(clause: str, draft: MemoryDraft) -> bool:
    """Rules' last word on a slot-filling clause: a statement about the user (or someone in their life),
    or an instruction on how to answer — not a request, a musing or a throwaway."""
    if draft.attribute == "reply_style" or draft.subject != "user" or has_cjk(clause):
        return True
    if draft.attribute in ("commute", "work_pattern") and not is_request_or_musing(clause):  # "It's only a fifteen minute drive to the yard"
        return True
    if draft.attribute not in ("", "event") and (is_change(clause) or is_retirement(clause)) and not is_question(clause):
        return True  # "Swimming's moved to Wednesdays now": a slot's value changed, said without "I"
    if draft.kind == "event" and draft.event_at is not None and _OCCASION.search(clause):
        return not is_request_or_musing(clause)  # "Last day at the clinic is 22 May", "Timur's party was on Sunday"
    if draft.kind == "relation" or (draft.kind == "event" and named_subject(clause)):
        return bool(re.search(r"\b[a-z]{2,}\b", clause)) and not is_request_or_musing(clause)  # someone in their life
    return is_durable_statement(clause) or (mentions_the_user(clause) and not is_request_or_musing(clause))


class _KnownPeople:
    """Who a name is to the user, from the relation memories already stored (one look-up per name)."""

    def __init__(self, memories: MemoryStore) -> None:
        self.memories = memories
        self.found: dict[str, str | None] = {}

    def add(self, name: str, relation: str) -> None:
        self.found[name] = relation

    def relation_of(self, name: str) -> str | None:
        if name not in self.found:
            hits = [i for i, _ in self.memories.keyword(name, 20, every=True)]
            relations = [relation_in(m.content, name) for m in self.memories.many(hits).values()
                         if m.status == "active" and not m.is_episode]
            self.found[name] = next((r for r in relations if r), None)
        return self.found[name]


_CONTINUATION = re.compile(r"^(?:i|we|i'm|we're|i've|we've|it|it's|that's|which|now|then|and|but|so|plus)\b", re.I)


_FRONTED_RETIREMENT = re.compile(
    r"^(?:on|about|re|as for|regarding) (the [^,]{2,40}),\s*((?:ditched|dropped|sold|quit|gave up|binned|cancell?ed|"
    r"stopped|packed in|got rid of))(?: it| them)?\b", re.IGNORECASE)
_BARE_RETIREMENT = re.compile(r"^(?:(?:officially|finally|just|also|now)\s+)?(?:(?P<past>ditched|dropped|sold|quit|gave up|"
                              r"binned|cancell?ed|stopped|packed in|got rid of|traded|swapped|upgraded|switched|bought|"
                              r"adopted)|(?P<ing>giving up|quitting|selling|dropping|ditching|stopping))"
                              r"\s+(?:the\s|my\s|our\s|a\s|an\s|to\s|[a-z]+ing\b)", re.IGNORECASE)


_ROLE_AT = re.compile(ROLE_AT, re.IGNORECASE)
_BARE_START = re.compile(r"^(?:(?:just|finally|officially|also|now)\s+)?(?:(?P<past>started|joined|landed|accepted|"
                         r"finished my first (?:week|month|shift)|did my first (?:week|month|shift))|(?P<ing>starting|joining))"
                         r"\s+(?:(?:at|with)\s+)?(?:the\s+)?(?-i:[A-Z][\w&'-]*)(?:\s+(?-i:[A-Z][\w&'-]*)){0,3}"
                         r"(?:\s+(?:on \w+|next \w+|this \w+|tomorrow|today|in \w+|last \w+|as an? [\w ]+))?\s*(?:[,.!]|$)",
                         re.IGNORECASE)
"""A start said without "I" ("Starting at Boots on Monday", "Joined the Fernway data team"): the user's."""


def _with_subject(clause: str) -> str:
    """Chat drops the subject of what the user did: "On the keto thing, ditched it." is "I ditched the keto
    thing."; "Sold the van last week." is "I sold the van last week."; "Upgraded to a Pixel 8" is "I upgraded
    to a Pixel 8"; "officially giving up bouldering" is "I am officially giving up bouldering"."""
    fronted = _FRONTED_RETIREMENT.match(clause)
    if fronted:
        rest = clause[fronted.end():]
        return f"I {fronted.group(2).lower()} {fronted.group(1)}{rest}"
    if _ROLE_AT.match(clause) and not re.match(r"i'?m\b|i am\b", clause, re.IGNORECASE):  # "Data lead at Fernway Bank."
        return f"I'm {clause[:1].lower()}{clause[1:]}"
    bare = _BARE_RETIREMENT.match(clause) or _BARE_START.match(clause)
    if bare:  # "Sold the van last week", "officially giving up bouldering"
        return f"{'I' if bare.group('past') else 'I am'} {clause[:1].lower()}{clause[1:]}"
    return clause


def _continues(clause: str) -> bool:
    """A clause with no slot of its own that goes on about the clause before it ("…, I go on Thursdays now")."""
    return (len(clause.split()) >= 3 and bool(_CONTINUATION.match(clause)) and not is_request_or_musing(clause)
            and not has_cjk(clause))


def _joined(content: str, clause: str) -> str:
    """A memory's sentence with the clause that continues it."""
    more = third_person(clause)
    if re.match(r"(?:The user|It|That|Which|Now|Then|And|But|So|Plus)\b", more):
        more = more[:1].lower() + more[1:]
    return f"{content.rstrip('.!。')}, {more}"


_TOPICS: tuple[tuple[str, ...], ...] = (
    ("diabet", "blood sugar", "glucose", "hba1c", "血糖", "糖尿病"),
    ("blood pressure", "hypertension", "血压"),
    ("cholesterol", "statin", "胆固醇"),
    ("iron", "anaemi", "anemi", "ferritin", "贫血"),
    ("vitamin d", "sunshine vitamin"),
    ("asthma", "inhaler", "哮喘"),
    ("weight", "kilos", "pounds", "体重"),
)
"""Words for the same condition: 'my blood sugar is back in the normal range' is the pre-diabetes over."""


def _topics(text: str) -> set[str]:
    lowered = text.lower()
    return {group[0] for group in _TOPICS if any(word in lowered for word in group)}


_NO_VALUE = frozenset(search_terms("new now my our the a an is it's got have has job jobs position role offer news big huge "
                                   "finally moved relocated place"))
_NEWS_SLOTS = frozenset({"employer", "job", "home", "manager"})
"""Slots whose bare news ("GOT THE JOB!!", "Huge news: we relocated!", "New manager!") says nothing of their value."""


def _carries_a_value(draft: MemoryDraft) -> bool:
    """Whether a draft says something beyond its slot's own words ("New manager!" says only that there is one)."""
    slot = BY_NAME.get(draft.attribute)
    if slot is None or has_cjk(draft.content):
        return True
    own = set(search_terms(slot.name.replace("_", " ")))  # the slot's name only: "vegetarian" is a diet's value
    return bool(set(search_terms(draft.content)) - own - USER_TERMS - _NO_VALUE)


def _only_news(draft: MemoryDraft) -> bool:
    """A work or home fact that names no value ("GOT THE JOB!!", "Huge news: we relocated!"): news, not a fact."""
    return (draft.kind != "event" and draft.attribute in _NEWS_SLOTS and not draft.retirement and not draft.correction
            and not _carries_a_value(draft))


def _said_with(memory: Memory, draft: MemoryDraft, now: float | None) -> bool:
    """Whether a stored memory came from the message a draft comes from."""
    if draft.source_message is not None:
        return memory.source_message == draft.source_message
    return now is not None and memory.created_at == now


def _with_who_they_are(content: str, rest: str) -> str:
    """What a message keeps when a story told in it is forgotten: what else it said (`rest`), and its sentences that
    say only who the person is ("My daughter Ella is 14. She's been self-harming." keeps the first)."""
    kept = set(told_units(rest))
    return " ".join(s for s in told_units(content) if s in kept or states_who(s))


_NAMED_VALUE = frozenset({"employer"})
_WORKPLACE = re.compile(r"\b(?:at|for|with|joined|joining)\s+(?:the\s+)?((?-i:[A-Z][\w&'-]*)(?:\s+(?-i:[A-Z][\w&'-]*))*)")


def _same_place(old: str, new: str) -> bool:
    """"Completed first week at Nilgiri" after "Test automation manager at Nilgiri Health Tech": the same
    workplace said again, which leaves the fuller statement (and the message with its date) current. Only the
    names right after "at", "for", "with" count: "a small bakery in Leeds" is no Barclays in Leeds."""
    given = [set(m.split()) for m in _WORKPLACE.findall(new)]
    before = [set(m.split()) for m in _WORKPLACE.findall(old)]
    return bool(given) and all(any(g <= b for b in before) for g in given)


_PARTING = re.compile(r"broke up|split up|separated|divorced|分手|离婚", re.IGNORECASE)
_REHOMING = re.compile(r"new owner|new home|forever home|loving home|rehomed|stolen|nicked|let (?:the|my|our) .*go\b|送给|送人|转手",
                       re.IGNORECASE)
"""What ends a pet's place in the user's life without its dying: a new home, a thief."""


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


class MemoryWriter:
    def __init__(self, memories: MemoryStore, engine: ChatEngine | None = None, *, event_ttl_days: float = 0.0) -> None:
        self.memories = memories
        self.engine = engine
        self.event_ttl_days = event_ttl_days
        self.topics = TopicMatcher(memories)

    def process(
        self, text: str, *, session_id: int | None, message_id: int | None, now: float | None = None,
        previous: str = "", claim: Callable[[], bool] | None = None,
    ) -> tuple[list[WriteOutcome], list[ExtractionFailure]]:
        """`previous` is the message before this one in its session: "It's 4471." after a question
        about a PIN is the PIN.

        Everything slow (rules, the model's labels, embeddings) happens first; then every row this
        message produces is written in one short transaction. `claim`, called inside it, marks the
        message extracted; when it returns False another process already extracted it and nothing
        is written."""
        now = time.time() if now is None else now
        request = forget_request(text)
        topic = request.topic if request else ""
        not_kept: list[WriteOutcome] = []
        if request:  # the forget acts first; what else the message says is still heard
            text, not_kept = self.besides_request(text, request)
            if not text:
                with self.memories.prepared([topic] if topic else []), self.memories.db.transaction():
                    return (not_kept + self.forget(topic, latest=request.latest, story=request.story,
                                                   last_time=request.last_time,
                                                   told=self.told_by_order(request, session_id, now), kept=not_kept)
                            if claim is None or claim() else []), []
        elif is_chit_chat(text):
            with self.memories.db.transaction():
                return ([WriteOutcome("skipped", text, "chit-chat")] if claim is None or claim() else []), []
        outcomes, episodes, drafts, failures = self._plan(text, session_id, message_id, now, previous)
        texts = [MemoryStore.embedding_input(d) for d in episodes] + ([topic] if topic else [])
        for draft, _ in drafts:
            texts += [draft.content, MemoryStore.embedding_input(draft)]
        with self.memories.prepared(texts), self.memories.db.transaction():
            if claim is not None and not claim():
                return [], []
            outcomes = (not_kept + self.forget(topic, latest=request.latest, story=request.story,
                                               last_time=request.last_time, told=self.told_by_order(request, session_id, now),
                                               kept=not_kept) if request else []) + outcomes
            episode_ids = [self.memories.add(episode, now).id for episode in episodes]
            for draft, window in drafts:
                origin = episode_ids[window] if window is not None else None
                if origin is not None and _only_news(draft):  # its episode keeps the words: a typed "The user GOT
                    # THE JOB!!" would outrank the job itself and replace it
                    outcomes.append(WriteOutcome("skipped", draft.content, "news with no value: what the message "
                                                 "said is kept as it was said"))
                    continue
                outcomes.append(self._apply(replace(draft, origin_id=origin), now))
        return outcomes, failures

    def _plan(
        self, text: str, session_id: int | None, message_id: int | None, now: float, previous: str
    ) -> tuple[list[WriteOutcome], list[MemoryDraft], list[tuple[MemoryDraft, int | None]], list[ExtractionFailure]]:
        """What a message would write — its episodes and typed drafts (each with its episode's
        index) — decided without writing anything."""
        outcomes: list[WriteOutcome] = []
        redacted, secrets = redaction(text, previous)  # secrets leave before anything is segmented or stored
        if secrets:
            kinds = sorted({s.kind for s in secrets})
            outcomes.append(WriteOutcome("skipped", "[redacted]", f"secret ({', '.join(kinds)}) is never stored"))
            text = redacted
        windows = episode_windows(text, now)
        episodes = [self._episode(w, session_id, message_id) for w in windows]
        chosen: list[str] = []
        drafts: list[MemoryDraft] = []
        places: list[int | None] = []
        referent: str | None = None  # "My son Kai is seven. His birthday is…": who "his" is
        known = _KnownPeople(self.memories)
        for sentence, read in with_next_name(split_sentences(text)):  # "…someone! His name's Leo." names them
            if SECRET_MARK in read or contains_secret(read):
                continue  # a sentence about a credential says nothing worth keeping without it
            window = window_of(windows, sentence)
            spoken = with_relation(with_referent(without_question_tail(strip_markers(normalise(read))), referent),
                                   known.relation_of)
            referent = referent_of(spoken) or referent
            correction = is_correction(sentence)  # "Actually I switched jobs, I now work at X": both parts
            hedged = is_hedged(without_aside(spoken))
            found: list[MemoryDraft] = []
            last: int | None = None  # the draft the previous clause of this sentence made
            for clause in split_clauses(spoken):
                if is_chit_chat(clause) or is_question(clause):
                    last = None
                    continue
                clause = _with_subject(clause)
                draft = draft_from_sentence(clause, session_id=session_id, message_id=message_id, said_at=now,
                                            correction=correction, hedged=hedged)
                if draft is None or draft.attribute == "event":  # "I sold the Fiesta last weekend": the Fiesta's slot
                    draft = self._retired_object(clause, session_id, message_id, now, correction, draft) or draft
                if draft is None or not _worth_keeping(clause, draft):
                    if last is not None and _continues(clause):  # "I've stopped swimming on Mondays, I go on Thursdays now"
                        drafts[last] = replace(drafts[last], content=_joined(drafts[last].content, clause))
                        chosen[last] = f"{chosen[last]}, {clause}"
                    last = None
                    continue  # no slot, no date: what was said stays an episode, not a typed memory
                when = time_for(windows[window], sentence) if window is not None and draft.event_at is None else None
                draft = replace(
                    draft,
                    event_at=draft.event_at if when is None else when.at.timestamp(),
                    event_text=draft.event_text if when is None else when.expression,
                    event_grain=draft.event_grain if when is None else when.grain,
                    change=is_change(clause) or bool(NOW_SAID.search(clause)),
                    retirement=is_retirement(clause),
                )
                twins = [draft]
                if draft.kind != "event" and slot_act(clause, draft.attribute):  # a move: the new home and the move
                    twins.append(replace(draft, kind="event", attribute="event", change=False, retirement=False))
                for twin in twins:
                    chosen.append(clause)
                    places.append(window)
                    drafts.append(twin)
                    found.append(twin)
                last = len(drafts) - len(twins)
            for relation, name in introductions(spoken):  # "My husband Yerlan's birthday is…": the husband too
                if known.relation_of(name) or any(d.kind == "relation" and name in d.content for d in found):
                    continue
                slot = slot_of(f"我的{relation}叫{name}。" if has_cjk(name) else f"My {relation} {name} is here.")
                if slot is None or slot.kind != "relation":
                    continue
                if not multi_valued(slot.name) and DYING.search(spoken):
                    continue  # "My wife Ruth died in 2015": the late wife is not the partner the user has now
                known.add(name, relation)
                chosen.append(spoken)
                places.append(window)
                drafts.append(MemoryDraft(kind="relation", content=introduction(relation, name), subject="user",
                                          attribute=slot.name, importance=0.6, confidence=0.8,
                                          source_session=session_id, source_message=message_id))
            age = None if any(d.attribute == "age" for d in found) else age_in_introduction(spoken)
            if age is not None:  # "I'm Dougal, 47, I live in Portree": the age is a fact of its own
                chosen.append(spoken)
                places.append(window)
                drafts.append(MemoryDraft(kind="fact", content=age_statement(age, has_cjk(spoken)), subject="user",
                                          attribute="age", importance=0.6, confidence=0.8,
                                          source_session=session_id, source_message=message_id))
        sentences = split_sentences(text)
        for roster in rosters(text):  # "I have two kids. Zanele is 12 and Sipho is 8."
            relation, names = roster.relation, roster.names
            first = names.split(" and ")[0]
            told = [n for n in names.split(" and ") if known.relation_of(n) or any(d.kind == "relation" and n in d.content
                                                                                 for d in drafts)]
            if len(told) == len(names.split(" and ")) and not roster.naming:
                continue  # every one of them is known already, and nothing more is said of them
            slot = slot_of(f"My {relation} {names} is here.")
            if slot is None or slot.kind != "relation":
                continue
            known.add(first, relation)
            said = next((x for x in sentences if first in x), text)
            chosen.append(said)
            places.append(window_of(windows, said))
            drafts.append(MemoryDraft(kind="relation", content=roster.content(), subject="user",
                                      attribute=slot.name, importance=0.6, confidence=0.8,
                                      source_session=session_id, source_message=message_id))
        failures: list[ExtractionFailure] = []
        if drafts and self.engine is not None:
            labels = label_with_model(self.engine.utility(), chosen, drafts)
            drafts = labels.drafts
            if labels.failure:
                failures.append(labels.failure)
        return outcomes, episodes, list(zip(drafts, places)), failures

    def _retired_object(self, clause: str, session_id: int | None, message_id: int | None, now: float,
                        correction: bool, dated: MemoryDraft | None = None) -> MemoryDraft | None:
        """'I sold the Niva' names no slot, but the Niva is a stored memory's: the retirement takes its key."""
        act = RETIREMENT.search(clause)
        if act is None:
            return None
        wanted = retired_terms(clause)
        if not wanted:  # what ended is next to the act: "my phone died halfway through the run" ends no running
            return None
        hits = {i for i, _ in self.memories.keyword_terms(sorted(wanted), 10)}  # index terms already: not stemmed again
        dying = bool(DYING.search(act.group(0)))
        owners = [m for m in self.memories.many(sorted(hits)).values()
                  if m.status == "active" and not m.is_episode and m.attribute not in ("", "manager", "colleague")
                  and wanted & set(search_terms(m.content))  # quitting in front of the boss does not retire the boss
                  and ((m.attribute in LIVING) == dying  # a pet or a person dies; a job, a band, a town is left
                       or m.attribute == "partner" and bool(_PARTING.search(act.group(0)))  # a partner, also parted from
                       or m.attribute == "pet" and bool(_REHOMING.search(act.group(0))))]  # a pet, also rehomed
        if not owners:
            return None
        named = {t for w in re.findall(r"(?<=\s)[A-Z][a-z]{2,}\b", clause) if w not in NOT_NAMES for t in search_terms(w)}

        def owns(memory: Memory) -> tuple[bool, int, float]:  # "left The Skerries": the band, not whatever said "away"
            shared = wanted & set(search_terms(memory.content))
            return bool(shared & named), len(shared), memory.created_at

        owner = max(owners, key=owns)
        retired = MemoryDraft(kind="event", content=third_person(clause),  # the sale, the quitting: it happened
                              subject=owner.subject, attribute=owner.attribute, importance=0.6,
                              confidence=0.9 if correction else 0.8, source_session=session_id,
                              source_message=message_id, correction=correction)
        if dated is None:
            return retired
        return replace(retired, event_at=dated.event_at, event_text=dated.event_text, event_grain=dated.event_grain)

    @staticmethod
    def _episode(window: EpisodeWindow, session_id: int | None, message_id: int | None) -> MemoryDraft:
        return MemoryDraft(
            kind=EPISODE, content=window.text, importance=0.5, confidence=1.0,
            source_session=session_id, source_message=message_id,
            event_at=window.time.at.timestamp() if window.time else None,
            event_text=window.time.expression if window.time else "",
            event_grain=window.time.grain if window.time else "",
        )

    # ---- reconciliation ---------------------------------------------------
    def apply(self, draft: MemoryDraft, now: float | None = None) -> WriteOutcome:
        """Reconcile one draft with what is stored, in one transaction (a supersession writes the new
        row and retires the old ones together)."""
        with self.memories.prepared([draft.content, MemoryStore.embedding_input(draft)]), \
                self.memories.db.transaction():
            return self._apply(draft, time.time() if now is None else now)

    def _apply(self, draft: MemoryDraft, now: float) -> WriteOutcome:
        if draft.kind == "event" and draft.expires_at is None and not draft.pinned and self.event_ttl_days > 0:
            draft = replace(draft, expires_at=now + self.event_ttl_days * DAY)
        vector = np.asarray(self.memories.vector(draft.content), dtype=np.float32)
        duplicate = self._duplicate(vector, draft)
        if duplicate is not None:
            self.memories.update_scores(
                duplicate.id, max(duplicate.importance, draft.importance), max(duplicate.confidence, draft.confidence)
            )
            return WriteOutcome("merged", draft.content, f"same as #{duplicate.id}", duplicate.id)
        rivals = self._rivals(draft, now)
        if not rivals:
            added = self.memories.add(draft, now)
            return WriteOutcome("added", added.content, f"new {added.kind}", added.id)
        newer = [m for m in rivals if m.created_at > now]
        if newer:  # an old statement arriving late (an imported transcript): history, not news
            successor = min(newer, key=lambda m: m.created_at)
            kept = self.memories.add(draft, now, status="superseded")
            self.memories.set_status(kept.id, "superseded", superseded_by=successor.id)
            return WriteOutcome("added", kept.content, f"kept as history: #{successor.id} is newer", kept.id)
        if any(m.pinned for m in rivals):
            draft = replace(draft, pinned=True)  # a pin belongs to the fact, not to one wording of it
        strongest = max(rivals, key=lambda m: m.confidence)
        if not draft.correction and strongest.confidence - draft.confidence >= PENDING_GAP:
            pending = self.memories.add(draft, now, status="pending")
            return WriteOutcome(
                "pending", pending.content, f"low-confidence contradiction of #{strongest.id}", pending.id, strongest.id
            )
        added = self.memories.add(draft, now)
        for old in rivals:
            self.memories.set_status(old.id, "superseded", superseded_by=added.id)
            if old.origin_id != added.origin_id:  # "I moved from Lisbon to Porto" states both
                self.memories.retire_origin(old, "superseded", added.id)
        why = "correction" if draft.correction else "retirement" if draft.retirement else "newer statement"
        return WriteOutcome("superseded", added.content, f"{why} replaces #{rivals[-1].id}", added.id, rivals[-1].id)

    def _rivals(self, draft: MemoryDraft, now: float | None = None) -> list[Memory]:
        """The active memories this draft replaces: the slot's value (single-valued slots), or, in a
        many-valued slot, only on switch or retirement language — the value it names, else the latest.
        A retirement ends nothing its own message said: "I cycle to work now, so no more buses" keeps the cycling."""
        if not draft.retirement and not draft.correction and not _carries_a_value(draft):
            return []  # "Anyway. New manager!" names no one: the manager named before stays
        rivals = self._slot_rivals(draft)
        rivals += [m for m in self._habits_ended(draft) if all(m.id != r.id for r in rivals) and not _said_with(m, draft, now)]
        return [m for m in rivals if not _said_with(m, draft, now)] if draft.retirement else rivals

    def _habits_ended(self, draft: MemoryDraft) -> list[Memory]:
        """A liking that a habit ended names, kept under whatever slot: "I don't drink Guinness anymore" ends "The
        user loves Guinness"; "最近不喝喜茶了，改喝霸王茶姬" ends "最爱喝喜茶的多肉葡萄" (a like, the new one a diet)."""
        act = HABIT_ENDED.search(draft.content)
        if act is None:
            return []
        ended = {t for t in retired_terms(draft.content, HABIT_ENDED)
                 if not (has_cjk(t) and set(t) & _HABIT_ACT_CHARS)}  # 喜茶, not the act's own 不喝 or 喝喜
        if not ended:
            return []
        hits = [i for i, _ in self.memories.keyword_terms(sorted(ended), 10)]
        return [m for m in self.memories.many(hits).values()
                if m.status == "active" and not m.is_episode and m.kind == "preference" and m.subject == draft.subject
                and ended & set(search_terms(m.content)) and not HABIT_ENDED.search(m.content)]

    def _slot_rivals(self, draft: MemoryDraft) -> list[Memory]:
        if not draft.attribute or draft.attribute == "event":
            return []
        many = multi_valued(draft.attribute)
        if many and not (draft.change or draft.retirement or draft.correction):
            return []  # before the lookup: a many-valued slot ("likes") grows with every import
        same = [m for m in self.memories.by_key(draft.subject, draft.attribute, statuses=("active",))
                if not is_retiring_event(m)]  # "I sold the Hilux" stays what happened when an e-bike comes
        if not many:
            if draft.attribute in PER_PERSON:  # my wife's birthday is not replaced by my son's, nor by itself
                return [m for m in same if same_person_named(m.content, draft.content)
                        and not restates(m.event_at, draft.event_at, draft.attribute, draft.content)]
            if draft.kind == "relation":  # a new partner replaces the old; a break-up ends the same one
                return [m for m in same if draft.retirement or not same_named_person(m.content, draft.content)]
            if draft.attribute in _NAMED_VALUE and not (draft.change or draft.retirement or draft.correction):
                return [m for m in same if not _same_place(m.content, draft.content)]
            return same
        wanted = object_terms(draft.content) | _topics(draft.content)
        named = [m for m in same if wanted & (set(search_terms(m.content)) | _topics(m.content))]
        if not named:  # "游泳…换到了每周六": the swimming was stored under another many-valued slot
            hits = [i for i, _ in self.memories.keyword_terms(sorted(wanted), 10)]
            named = [m for m in self.memories.many(hits).values()
                     if m.status == "active" and not m.is_episode and m.subject == draft.subject and m.kind != "event"
                     and multi_valued(m.attribute) and m.attribute not in ("event", "likes")
                     and wanted & set(search_terms(m.content))]
        only_now = bool(NOW_SAID.search(draft.content)) and not is_change(draft.content)  # replaces what it names
        switch = draft.change and (is_switch(draft.content) or draft.attribute in _ONE_AT_A_TIME)
        return named or (same[-1:] if switch and not only_now else [])

    def accept(self, memory_id: int) -> WriteOutcome:
        """The user confirms a pending memory: it becomes active and supersedes its rivals."""
        memory = self.memories.require(memory_id)
        if memory.status != "pending":
            raise MemchatError(f"#{memory_id} is {memory.status}, not pending", "only pending memories can be accepted")
        with self.memories.db.transaction():
            rivals = [m for m in self.memories.by_key(memory.subject, memory.attribute, statuses=("active",))]
            self.memories.set_status(memory_id, "active")
            for old in rivals:
                self.memories.set_status(old.id, "superseded", superseded_by=memory_id)
                if old.origin_id != memory.origin_id:
                    self.memories.retire_origin(old, "superseded", memory_id)
        replaced = rivals[-1].id if rivals else None
        return WriteOutcome("superseded" if rivals else "added", memory.content, "accepted by the user", memory_id, replaced)

    def _duplicate(self, vector: np.ndarray, draft: MemoryDraft) -> Memory | None:
        """An active memory saying the same thing: close in meaning *and* in words.

        Requiring word overlap too keeps texts the embedder cannot read (all
        [UNK] tokens, so all alike) from being merged into each other.
        """
        semantic = self.memories.embedder.coverage(draft.content) >= 0.6
        for memory_id, similarity in self.memories.knn(vector.tolist(), 5):
            if semantic and similarity < DUPLICATE_SIMILARITY:
                break
            memory = self.memories.get(memory_id)
            if not memory or memory.status != "active" or memory.kind != draft.kind:
                continue
            if _numbers(draft.content) != _numbers(memory.content):
                continue  # 555-0101 and 555-0199 are different facts, however alike the sentences
            overlap = keyword_overlap(draft.content, memory.content)
            if overlap >= (0.6 if semantic else 0.85):
                return memory
        return None

    # ---- forgetting on request ----------------------------------------------
    def told_by_order(self, request: ForgetRequest, session_id: int | None, now: float) -> list[Memory] | None:
        """What a request that names things just told by their order ("forget the first one") names, in this chat."""
        if request.told is None or session_id is None:
            return None
        return self.memories.told_in_chat(session_id, now, request.told)

    @staticmethod
    def besides_request(text: str, request: ForgetRequest) -> tuple[str, list[WriteOutcome]]:
        """What a message holding a forget request says besides it, to be heard as any message is; and, as an outcome,
        that what it said of the topic itself was not kept ("i'll be on £48,500 … please forget the salary figure":
        the figure is never stored). The outcome names the topic, not the words (they are what is to be forgotten)."""
        topic = request.topic
        rest = besides_forget(text, topic)
        heard = [s for s in split_sentences(rest) if not (topic and about(topic, s))]
        said_of_it = [s for s in split_sentences(text) if s not in heard and forget_request(s) is None
                      and topic and about(topic, s)]
        not_kept = [WriteOutcome("skipped", topic, FORGET_NOT_KEPT)] if said_of_it else []
        return " ".join(heard), not_kept

    def forget_one(self, memory_id: int) -> list[Memory]:
        """Forget one memory by hand, with what would tell it again (see `hand_forget`); the rows that changed."""
        return hand_forget.forget(self.memories, memory_id)

    def restore_one(self, memory_id: int, status: str | None = None) -> list[Memory]:
        """Undo `forget_one`: the memory (with `status`, or the one it had) and what went with it come back."""
        return hand_forget.restore(self.memories, memory_id, status)

    def forget(self, topic: str, *, latest: bool = False, previous: int | None = None, story: bool = False,
               last_time: bool = False, told: list[Memory] | None = None,
               kept: list[WriteOutcome] | None = None) -> list[WriteOutcome]:
        """Soft-delete the memories matching `topic` — current, pending and superseded wordings alike; say which.
        `latest`: only what the most recent message that said it stored ("the last thing I said about my brother");
        with no topic, what the user's previous message (`previous`, its id, when known) stored ("forget what I
        just said"). `story`: the topic is a person and the request a vague thing about them ("that thing about
        my daughter"): what happened to them goes; what says only who they are (`states_who`) stays, unless nothing
        else matched: then all of it goes. `last_time`: as told in the latest chat that told it ("…from last time").
        `told`: what a request naming things just told by their order found ("forget the first one"), instead."""
        outcomes = []
        label = topic or ("what you told first or last" if told is not None else "the last thing you said")
        with self.memories.prepared([topic] if topic else []):
            found = told if told is not None else self.topics.matching(topic) if topic else self.memories.latest_said(previous)
            if latest and found:  # "what I just said about my brother": the newest message, or with a topic the story
                newest = max(found, key=lambda m: m.created_at)  # told in that chat ("删掉我刚才说的我弟那些事")
                found = [m for m in found if m.created_at == newest.created_at
                         or (topic and m.source_session is not None and m.source_session == newest.source_session)]
            if last_time and found:  # "that stuff about Mia from last time": that chat's, not who Mia is
                told = [m for m in found if m.is_episode and m.source_session is not None]
                if told:
                    chat = max(told, key=lambda m: m.created_at).source_session
                    found = [m for m in found if m.source_session == chat]
            if story and found:  # "that thing about Sam": what was told of Sam in confidence, if some of it was
                told_privately = {m.id for m in found if private(m.content) or m.is_episode and points_back(m.content)}
                told_privately |= {m.origin_id for m in found if m.id in told_privately and m.origin_id}
                if told_privately and any(m.id not in told_privately and m.origin_id not in told_privately for m in found):
                    found = [m for m in found if m.id in told_privately or m.origin_id in told_privately]
            if story and found:  # who they are stays only beside a story that goes; alone, it is what was asked for
                told = {m.origin_id for m in found if m.origin_id and not m.is_episode}  # what a message that only
                stories = {i for i in told | {m.id for m in found if m.is_episode}  # told the story stored goes with it
                           if (e := self.memories.get(i)) is not None
                           and not any(states_who(s) for s in told_units(e.content))}
                profile = {m.id for m in found if states_who(m.content) and m.origin_id not in stories}
                story = 0 < len(profile) < len(found)
                found = [m for m in found if m.id not in profile] if story else found
            episodes = {m.id: m for m in found if m.is_episode}
            for memory in found:  # a forgotten fact takes what its message said of the topic with it
                origin = self.memories.get(memory.origin_id) if memory.origin_id and not memory.is_episode else None
                if origin is not None and origin.is_episode and origin.status == "active":
                    episodes.setdefault(origin.id, origin)
            told_as = self._told_as(topic, list(episodes.values())) if topic else ""
            rest = {i: without_topic(e.content, topic if any(about(topic, s) for s in split_sentences(e.content))
                                     else told_as) if topic else "" for i, e in episodes.items()}
            if story:  # the sentences of a story's message that say who they are stay with what else it said
                rest = {i: _with_who_they_are(e.content, rest[i]) for i, e in episodes.items()}
            rest = {i: text for i, text in rest.items() if text}  # the message also said other things: they stay
            if topic:  # a long message's next window, or the next message, goes on with the story ("His accountant…",
                someone = names_only_people(topic)  # a person: the messages that go on with "she" or "he" go too
                for gone in [e for i, e in episodes.items()  # "She's seeing a married man."): it goes; so does
                             if i not in rest or told_units(e.content)[-1] not in rest[i]]:  # after a message that
                    # told other things first and the story last ("New job Monday. Also my ex texted me again.")
                    later = self.memories.later_windows(gone)
                    before = told_units(gone.content)[-1]
                    for window in later + (self.memories.told_next(gone) if someone else []):
                        sentences = split_sentences(window.content)
                        going = len(sentences)
                        for n, sentence in enumerate(sentences):
                            if not (continues(sentence, before, told_as) if window in later else
                                    speaks_of_them(sentence, topic) and not (story and states_who(sentence))):
                                going = n
                                break
                            before = sentence
                        if window.id in episodes or going == 0:
                            break
                        episodes[window.id] = window
                        if going < len(sentences):  # the rest of the window tells something else, and stays
                            rest[window.id] = " ".join(sentences[going:])
                            break
            if topic:  # what else the forgotten sentences stored ("Leo got caught shoplifting. He has a court
                told = self._told_with(episodes, rest, {m.id for m in found})  # date…": the court date too)
                found = found + [m for m in told if not (story and states_who(m.content))]
            shortened = {}  # a typed memory that told two people's news in one ("用户老婆叫刘彩霞 在超市当收银员 女儿…")
            for memory in found if topic else []:  # keeps the other's, as its episode does
                whose = memory.subject if memory.subject not in ("", "user") else ""
                if whose and (whose in topic or about(topic, whose)):
                    continue  # a memory about the person forgotten: what else it said is kept by its episode
                if not memory.is_episode and len(told_units(memory.content)) > 1:
                    part = without_topic(memory.content, topic)
                    if part and story:
                        part = _with_who_they_are(memory.content, part)
                    if part and any(slot_of(unit) for unit in told_units(part)):  # "个秘密" alone is no memory
                        shortened[memory.id] = part
            with self.memories.prepared(list(rest.values())), self.memories.db.transaction():
                for memory in found:
                    if memory.id in shortened:
                        self.memories.edit(memory.id, shortened[memory.id])
                        outcomes.append(WriteOutcome("deleted", memory.content, f"forget request: {label} (what else it "
                                                     f"said is kept: {shortened[memory.id]})"))
                    elif not memory.is_episode:
                        self.memories.set_status(memory.id, "deleted")
                        outcomes.append(WriteOutcome("deleted", memory.content, f"forget request: {label}", memory.id))
                for episode_id in episodes:
                    if episode_id in rest:  # what is left of it was told when it was
                        self.memories.edit(episode_id, rest[episode_id], said_at=episodes[episode_id].created_at)
                    else:
                        self.memories.set_status(episode_id, "deleted")
        if latest:  # one message: each of its rows by id (the hard delete offered is of exactly these)
            outcomes.extend(WriteOutcome("deleted", e.content, f"forget request: {label}"
                                         + (" (the rest of the message is kept)" if i in rest else ""),
                                         None if i in rest else i) for i, e in episodes.items())
        elif episodes:
            outcomes.append(WriteOutcome("deleted", f"{len(episodes)} of your own messages about {label}",
                                         "forget request: what you said is hidden too"
                                         + (f" ({len(rest)} kept what else they said)" if rest else "")))
        if not outcomes and not kept:  # `kept`: the request's own message held what it asked to forget, not stored
            outcomes.append(WriteOutcome("skipped", label, FORGET_UNMATCHED))
        return outcomes

    def _told_as(self, topic: str, episodes: list[Memory]) -> str:
        """The topic as a later message of its story is read: with the firms and places it happened at and the words
        particular to it (Chinese is read by its character pairs already)."""
        words = [w for w in self.topics.story_words(topic, episodes) if not has_cjk(w)]
        return with_story_names(topic, story_names(topic, [e.content for e in episodes]) + words)

    def _told_with(self, episodes: dict[int, Memory], rest: dict[int, str], found: set[int]) -> list[Memory]:
        """The typed memories distilled from the sentences a forget request takes out of their episodes: each
        shares most of its words with a sentence that goes, and fewer with what the episode keeps."""
        told: list[Memory] = []
        for episode_id, episode in episodes.items():
            kept = [set(search_terms(s)) for s in split_sentences(rest.get(episode_id, ""))]
            gone = [set(search_terms(s)) for s in split_sentences(episode.content)]
            gone = [g for g in gone if g not in kept]
            for memory in self.memories.distilled_from(episode_id):
                if memory.id in found:
                    continue
                words = set(search_terms(memory.content)) - USER_TERMS - _whom_it_names(memory.content)
                if not words or memory.kind == "relation" and len(words) < 3:
                    continue  # "The user's brother is Tom" is not the arrest; "她是我前同事 已经分居两个月了" tells it
                share = max((len(words & g) / len(words) for g in gone), default=0.0)
                if share >= 0.6 and share > max((len(words & k) / len(words) for k in kept), default=0.0):
                    told.append(memory)
        return told

    def purge_topic(self, topic: str) -> list[PurgeReport]:
        """Purge (hard delete, every copy scrubbed) what is about `topic` — forgotten memories included:
        what a forget request hid, this removes from the disk."""
        reports: list[PurgeReport] = []
        gone: set[int] = set()
        found = self.topics.matching(topic, statuses=("active", "pending", "superseded", "archived", "deleted"))
        for memory in sorted(found, key=lambda m: m.is_episode):  # typed memories first, each with its episode
            if memory.id in gone or self.memories.get(memory.id) is None:
                continue  # went with an earlier one (its episode)
            report = self.memories.purge(memory.id, alone=True)  # an episode's other facts are not the topic
            gone.update(report.memory_ids)
            reports.append(report)
        told = self._told_with_request(topic)  # "i'll be on £48,500 … please forget the salary figure": never stored
        if told:
            reports.append(scrub_sentences(self.memories.db, told))
        if reports:
            reports.append(scrub_phrase(self.memories.db, topic))  # the messages that named it, the request too
        return reports

    def _told_with_request(self, topic: str) -> list[str]:
        """The sentences of the user's messages that asked to forget `topic` which told of it themselves."""
        rows = self.memories.db.rows("SELECT content FROM messages WHERE role = 'user' AND instr(lower(content), ?) > 0",
                                     (topic.lower(),)) if len(topic) >= 3 else []
        told = []
        for row in rows:
            request = forget_request(row["content"])
            if request is not None and request.topic.lower() == topic.lower():
                told += [s for s in split_sentences(row["content"]) if forget_request(s) is None and about(topic, s)]
        return told
