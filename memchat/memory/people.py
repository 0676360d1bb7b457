"""The people in the user's life, as the write path meets them. Pure.

Once "my daughter Isla" has been said, "Isla's home for the summer, she's doing a placement
in Nairn" is about the daughter: the sentence is read as "My daughter Isla is home for the
summer…", so it fills the daughter's slot and its memory names the relation ("The user's
daughter Isla…": a later "my girl?" or "my kids?" finds it). Only a sentence with something
to keep about them is read so — a place, a number, a milestone, a change of school or work —
not "Stuart's good, leaves you alone" or "Rhona says my accent is terrible".

A relative introduced by name inside some other statement ("My husband Yerlan's birthday is
9 October") is also a relation of its own: "The user's husband is Yerlan."
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memchat.memory.persons import NOT_NAMES
from memchat.memory.speech import RELATIVE_WORDS
from memchat.memory.terms import has_cjk

_RELATION_IN_MEMORY = (
    r"\bthe user's (?:\w+ )?({rel}),? (?:is |was )?(?:called |named )?{name}\b",
    r"\b{name},? (?:is )?(?:the user's|their) (?:\w+ )?({rel})\b",
    r"\b{name} \((?:the user's|their) (?:\w+ )?({rel})\)",
)
"""How a stored memory names someone's relation to the user."""

_OPENS_WITH_NAME = re.compile(r"^((?-i:[A-Z][a-z]{2,}))(?='s\b|\s+(?!and\b|or\b)[a-z])")
_REPORTED = re.compile(r"^\w+(?:'s)?\s+(?:\w+ly\s+)?(?:says|said|reckons|thinks|thought|wants|wanted|asked|told|"
                       r"keeps|kept|is pretending|pretends|hates|loves|cried|laughed)\b", re.IGNORECASE)
_SUBSTANCE = re.compile(
    r"\d|\b(?:in|into|at|to|from|for|with|near|on)\s+(?:the\s+)?(?-i:[A-Z][a-z]+)|\b(?:started|starts|starting|joined|moved|moving|"
    r"lives|living|works|working|studies|studying|passed|graduated|turned|turns|born|married|engaged|pregnant|"
    r"retired|retiring|diagnosed|broke|placement|school|uni|university|college|job|apprenticeship|gig|business|"
    r"redundant|promoted|birthday|\d+(?:st|nd|rd|th))\b",
    re.IGNORECASE,
)
"""Something to keep about a person: a place or organisation, a number, a change in their life."""

_INTRODUCED = re.compile(
    rf"\b(?:my|our) (?:\w+ )?({RELATIVE_WORDS}|twins|kids|boys|girls|children|sons|daughters),? "
    rf"((?-i:[A-Z][a-z]{{2,}}(?:,? and [A-Z][a-z]{{2,}})?))\b"
    rf"|\b((?-i:[A-Z][a-z]{{2,}})) \((?:my|our) (?:\w+ )?({RELATIVE_WORDS})\)"
    rf"|(?<=\s)((?-i:[A-Z][a-z]{{2,}}))\b(?!['’])(?:(?!(?-i:\b[A-Z])|\b(?:his|her|their)\b)[^.!?;]){{0,40}}?,\s*"
    rf"(?:he|she)(?:'s|’s| is) (?:my|our) "
    rf"(?:\w+ )?({RELATIVE_WORDS})\b(?!-)",
    re.IGNORECASE,
)
""""my son Ruairi", "Ruairi (my son)", "a long call with Ruairi yesterday, he's our son": a relative by name."""


def relation_in(content: str, name: str) -> str | None:
    """The relation a stored memory gives `name` ("The user's son Callum is 17." → "son"), or None."""
    for shape in _RELATION_IN_MEMORY:
        match = re.search(shape.format(rel=RELATIVE_WORDS, name=re.escape(name)), content, re.IGNORECASE)
        if match:
            return match.group(1).lower()
    return None


def opening_name(sentence: str) -> str | None:
    """The name a sentence opens with, when it is about that person ("Isla's home…" → "Isla")."""
    match = _OPENS_WITH_NAME.match(sentence.strip())
    return match.group(1) if match else None


def with_relation(sentence: str, relation_of: Callable[[str], str | None]) -> str:
    """'Isla's home for the summer, she's doing a placement in Nairn' → 'My daughter Isla's home…'
    when Isla is known to be the daughter and the sentence has something to keep about her."""
    name = opening_name(sentence)
    if not name or _REPORTED.match(sentence.strip()) or not _SUBSTANCE.search(sentence[len(name):]):
        return sentence
    relation = relation_of(name)
    if not relation:
        return sentence
    stripped = sentence.lstrip()
    return f"My {relation} {stripped}"


_CN_INTRODUCED = re.compile(r"(同事|组长|领导|老板|朋友|室友|邻居|弟弟|哥哥|姐姐|妹妹|老公|老婆|男朋友|女朋友|弟媳|嫂子|表哥|表姐|表弟|表妹)"
                            r"((?:小|老)(?![是在时候心说了的会要不也都家区城子板婆公年师大])[\u4e00-\u9fff])")
"""'和同事小刘去爬了青城山': a colleague called 小刘 (only the 小X/老X names: nothing else reads safely)."""


def introductions(sentence: str) -> list[tuple[str, str]]:
    """(relation, name) of each relative a sentence introduces: "My husband Yerlan's birthday…" → husband, Yerlan;
    "Rhona (my partner) left it…" → partner, Rhona."""
    found = []
    for match in _INTRODUCED.finditer(sentence):
        relation, name = ((match.group(1), match.group(2)) if match.group(1) else
                          (match.group(4), match.group(3)) if match.group(4) else (match.group(6), match.group(5)))
        found.append((relation.lower(), name))
    found += [(match.group(1), match.group(2)) for match in _CN_INTRODUCED.finditer(sentence)]
    return found


_COUNT = r"a|an|one|two|three|four|five|six|1|2|3|4|5|6"
_COUNTED = re.compile(
    rf"\b(?:i|we)(?: have| 've got| have got| got|'ve got|'ve) ({_COUNT}) (?:\w+ )?({RELATIVE_WORDS}|children)(?:s)?\b"
    r"([^.!?]*)(?:[.!?]+\s*([^.!?]*))?",
    re.IGNORECASE,
)
_ROSTER_NAME = re.compile(r"(?<![.!?]\s)(?-i:\b([A-Z][a-z]{2,}))\b(?=,| is\b| was\b| who|'s\b|’s\b| and\b| \(| turned\b| aged\b|$)")
_NOT_A_NAME = frozenset({"Then", "But", "And", "So", "Also", "Well", "Now", "Still", "Just", "Even", "Only", "Today",
                         "Yesterday", "Tomorrow", "Anyway", "Plus", "Because", "When", "While", "After", "Before", "If",
                         "Since", "Though", "Although", "Actually", "Honestly", "Sadly", "Luckily", "Apparently", "Obviously",
                         "Christmas", "Easter", "English", "French", "German", "Spanish", "Italian", "Irish", "Scottish",
                         "Welsh", "Dutch", "Polish", "Chinese", "Japanese", "Korean", "Indian", "American", "Canadian",
                         "British", "Australian", "Mexican", "Brazilian", "Portuguese", "Russian", "Greek", "Turkish"}) | NOT_NAMES
"""Capitalised words that are not people: openers, holidays, nationalities ("My wife is French"), and what
`persons` already knows is no name (months, weekdays, "The", "Mum")."""
_NOT_ROSTER = _NOT_A_NAME | {"They", "She", "Both", "One", "Two", "Three"}
"""In a roster, pronouns and counts open the sentences that name no one ("Both are at school")."""
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_RIGHT_AFTER = re.compile(r"^\s*(?:,|:|—|-|called|named)\s*(?-i:[A-Z][a-z]{2,})[^.!?]*")
"""The names of a counted family come right after it ("one son, Tomas"), not later in the sentence ("a sister in
London")."""


def _names(text: str) -> list[str]:
    """Capitalised names in a roster, not after "in/at/from" (places) nor openers and holidays."""
    return [m.group(1) for m in _ROSTER_NAME.finditer(text)
            if m.group(1) not in _NOT_ROSTER
            and not re.search(r"\b(?:in|at|from|to|near|on)\s+$", text[:m.start()], re.IGNORECASE)]


@dataclass(frozen=True)
class Roster:
    """A counted family: "I have two kids. Zanele is 12 and Sipho is 8." → kids, "Zanele and Sipho", "two",
    and the sentence that named them (empty when the names came in the same sentence)."""

    relation: str
    names: str
    count: str
    naming: str = ""

    def content(self) -> str:
        """The memory it makes: who they are, and what the naming sentence said of them."""
        if not self.naming:
            return introduction(self.relation, self.names)
        return f"The user has {self.count.lower()} {self.relation}: {self.naming.rstrip('.!')}."


def rosters(text: str) -> list[Roster]:
    """Each counted introduction: "We have one son, Tomas." → son, Tomas; "I have two kids. Zanele is 12
    and Sipho is 8." → kids, Zanele and Sipho. The names come from the rest of the sentence, else from
    the sentence right after it when it opens with one of them."""
    found = []
    for match in _COUNTED.finditer(text):
        count = _NUMBERS.get(match.group(1).lower()) or int(match.group(1))
        relation = match.group(2).lower()
        right_after = _RIGHT_AFTER.match(match.group(3))  # ", Tomas", " called Bess", ": Aroha who's 7 and …"
        names = _names(right_after.group(0)) if right_after else []
        following, naming = (match.group(4) or "").strip(), ""
        if not names and following and _ROSTER_NAME.match(following):
            names, naming = _names(following), following
        names = list(dict.fromkeys(names))
        if names and (len(names) >= count or not naming):  # "two kids. Christmas is…" is no roster
            plural = count > 1 and not relation.endswith(("s", "ren"))
            found.append(Roster(f"{relation}s" if plural else relation, " and ".join(names[:count]), match.group(1), naming))
    return found


def introduction(relation: str, name: str) -> str:
    """The memory an introduction makes on its own."""
    if re.search(r"[\u4e00-\u9fff]", name):
        return f"用户的{relation}是{name}。"
    verb = "are" if " and " in name else "is"
    return f"The user's {relation} {verb} {name}."


_NAMED_RELATION = (
    re.compile(rf"\b(?:the user's|my|our) (?:\w+ )?({RELATIVE_WORDS})s?,? (?:is |was |are )?(?:called |named )?"
               r"((?-i:[A-Z][a-z]{2,})(?: and (?-i:[A-Z][a-z]{2,}))?)\b", re.IGNORECASE),
    re.compile(rf"\b((?-i:[A-Z][a-z]{{2,}})),?(?: is| was|'s|’s)? (?:the user's|my|our) (?:\w+ )?({RELATIVE_WORDS})\b",
               re.IGNORECASE),
    re.compile(rf"(?:\b(?:the user's|my|our) (?:\w+ )?|^\s*|[.!?]\s+)({RELATIVE_WORDS}|parents)(?:'s|’s) (?:name is |name's |"
               r"name was |called |named |is called |is named )((?-i:[A-Z][a-z]{2,})(?: and (?-i:[A-Z][a-z]{2,}))?)\b",
               re.IGNORECASE),
    re.compile(rf"(?:^\s*|[.!?]\s+)({RELATIVE_WORDS}) (?:\(|is called |is named |is )((?-i:[A-Z][a-z]{{2,}}))\b", re.IGNORECASE),
    re.compile(rf"\b(?:has|have|'ve got|has got|have got) (?:a|an|one) (?:\w+ )?({RELATIVE_WORDS}) (?:called|named) "
               r"((?-i:[A-Z][a-z]{2,}))\b", re.IGNORECASE),
    re.compile(r"\b(?:the user's|my|our) (parents) (?:are|were) ((?-i:[A-Z][a-z]{2,}) and (?-i:[A-Z][a-z]{2,}))\b", re.IGNORECASE),
    re.compile(rf"\b(?:the user's|my|our) (?:\w+ )?({RELATIVE_WORDS}) \(((?-i:[A-Z][a-z]{{2,}}))\)", re.IGNORECASE),
)
"""A relation and the name it goes by: "my son Kai", "Rhona is my partner", "My sister's name is Ana", "Mum's
called Huia", "Dad (Peter)", "The user has a sister called Ana", "My parents are Huia and Rangi"."""
_COUPLE = re.compile(
    r"\b((?-i:[A-Z][a-z]{2,})) and (?:I|me|the user)(?: have| had|'ve)? (?:been (?:together|married|dating|engaged)|"
    r"got (?:married|engaged)|live together|moved in together)\b"
    r"|\b(?:I|the user)(?: have| has|'ve)? been (?:with|married to|dating|engaged to) ((?-i:[A-Z][a-z]{2,}))\b",
    re.IGNORECASE,
)
"""A couple said without a relation word: "Rhona and me have been together 22 years", "I've been with Sam since uni"."""
_SEEING = re.compile(
    r"(?:\b(?:I|the user)(?:'ve| have| has|'m| am| is)?(?: been| started| just started)? (?:seeing|dating|going out with) "
    r"|\bthere(?:'s| is) |\b(?:I|the user)(?:'ve| have| has) (?:just )?met )"
    r"(?:someone|somebody|a (?:guy|girl|man|woman|lad|lass|bloke|fella|chap))(?: new| special)?"
    r"(?:,? (?:called|named) |[.,!]*\s+(?:her|his|their) name(?:'s| is) )((?-i:[A-Z][a-z]{2,}))\b(?! about\b)",
    re.IGNORECASE,
)
"""A partner first met as "someone": "I've been seeing someone called Noor", "started dating a guy named Tom", "there's
someone. her name is Noor", "I've met someone. His name is Leo"."""
_CN_TOGETHER = re.compile(r"(?:我|用户)(?:和|跟|与)([\u4e00-\u9fff]{2,3}?)(?:已经|现在|正式|算是|终于)*(?:在一起|谈恋爱|确定关系|订婚)了(?=[，,。！!~～\s哈]|$)"
                          r"|([\u4e00-\u9fff]{2,3}?)(?:跟|向)?(?:我|用户)?求婚了?[^。？?]{0,20}?(?:我|用户)答应了")
"""A partner said without a relation word in Chinese: "我和林一帆在一起了", "林一帆求婚了！…我答应了"."""
_PARTED = re.compile(
    r"\b(?:(?:me|I|the user) and ({who})|({who}) and (?:I|me|the user))(?: have| had|'ve| are| were)?"
    r"(?: just| finally| officially)? (?:split up|broke up|broken up|divorced|called it quits|got divorced)\b"
    r"|\b(?:I|the user)(?: have| has|'ve| just| finally| officially)* (?:broke up with|broken up with|split up with|"
    r"split from|divorced|dumped) ({who})\b"
    r"|\b({who})(?: has| just| finally)* (?:dumped|broke up with|divorced|split up with) (?:me|the user)\b"
    r"|\b(?:the user's|my) ex(?:-(?:wife|husband|girlfriend|boyfriend|partner|fianc[eé]e?))?,? (?:is |was )?"
    r"(?:called |named )?((?-i:[A-Z][a-z]{{2,}}))\b"
    .format(who=r"(?!(?:me|him|her|them|my|his|their|our|the|a|an|it|we|you|they|she|he|someone|somebody)\b)"
                r"[A-Za-z][a-z]{2,}"),
    re.IGNORECASE,
)
"""Someone the user parted from, said without "ex": "me and ola split up", "Their mother Lindiwe and I divorced in
2022", "I broke up with Jesse", "Callum dumped me", "my ex-wife Lindiwe". A lower-case word is a name only in these
shapes, where a person must stand."""
_CN_PARTED = re.compile(r"(?:我|用户)(?:和|跟|与)([\u4e00-\u9fff]{2,3}?)(?:已经|终于|正式|上周|昨天|前天|上个月)?"
                        r"(?:分手|离婚|分了)|前(?:妻|夫|男友|女友|任)(?:叫|是)?((?:小|老|阿)?[\u4e00-\u9fff]{2,3}?)(?=[在，,。！!是的今从去也又还和跟说]|$)")
"""The same in Chinese: "我和林一帆分手了", "前男友叫周浩"."""
_CN_NAMED_RELATION = re.compile(r"(老公|老婆|媳妇|爱人|丈夫|妻子|儿子|女儿|闺女|哥哥|弟弟|姐姐|妹妹|爸爸|妈妈|男朋友|女朋友|同事|领导|组长|"
                                r"弟媳|嫂子|姐夫|妹夫|儿媳|女婿|公公|婆婆|岳父|岳母|外公|外婆|爷爷|奶奶|孙子|孙女|外孙|侄子|侄女|外甥|表哥|表姐|表弟|表妹|"
                                r"(?<=[我老])(?:妈|爸|弟|哥|姐|妹)(?=叫|是|名叫))儿?"
                                r"(?:是|叫|名叫|小名叫|大名叫|名字叫)?((?:小|老)?[\u4e00-\u9fff]{2,3}?)(?=[在，,。！!是的今从去也又还和跟说读上老总]|$)")
_NOT_CN_NAMES = frozenset({"现在", "今年", "最近", "已经", "一直", "还是", "也是", "不在", "没有", "这个", "那个"})
_CN_TIME_OR_WORD = re.compile(r"^(?:今天|昨天|明天|前天|后天|上个?月|下个?月|这个?月|上周|下周|这周|每天|去年|今年|明年|刚才|刚刚|"
                              r"现在|最近|以前|之前|后来|那天|这天|平时|分手|离婚|分了)|^[又也都还就才不没很太最要会在把被给让姓]")
"""Not a name: a time word or an adverb after the relation ("领导今天说…", "儿子上个月…"); 周敏, 明明 and 林月 are."""



def named_relations(texts: list[str]) -> dict[str, set[str]]:
    """Who is who, from what the store says: {"son": {"Callum"}, "child": {"Callum", "Isla"}, …}.

    A relation word and the name beside it ("The user's daughter Isla is 20", "Rhona is my partner",
    "儿子赵磊在武汉"), filed under the relation's concept and every broader one, so a question about
    "my kids" or "我娃" meets a memory that only says "Callum passed his driving test"."""
    from memchat.memory.concepts import DOMAINS, ancestors, concepts_in  # concepts imports nothing of people

    found: dict[str, set[str]] = {}

    def add(relation: str, name: str) -> None:
        for concept in concepts_in(relation):
            for broader in (concept, *ancestors(concept)):
                if broader not in DOMAINS:  # too broad: "my family", "work" name everyone
                    found.setdefault(broader, set()).update(name.split(" and "))

    for text in texts:
        for shape in _NAMED_RELATION:
            for match in shape.finditer(text):
                relation, name = (match.group(2), match.group(1)) if shape is _NAMED_RELATION[1] else (
                    match.group(1), match.group(2))
                names = [n for n in name.split(" and ") if n not in _NOT_A_NAME]
                if names:
                    add(relation.lower(), " and ".join(names))
                if nickname := _NICKNAME.match(text, match.end()):  # "my daughter Siobhan, we all call her Shiv"
                    add(relation.lower(), nickname.group(1) or nickname.group(2))
        for roster in rosters(text):
            add(roster.relation, roster.names)
        for match in _COUPLE.finditer(text):
            name = match.group(1) or match.group(2)
            if name not in _NOT_A_NAME:
                add("partner", name)
        for match in _SEEING.finditer(text):
            if match.group(1) not in _NOT_A_NAME:
                add("partner", match.group(1))
        for match in _CN_TOGETHER.finditer(text):
            name = match.group(1) or match.group(2)
            if name not in _NOT_CN_NAMES and not _CN_TIME_OR_WORD.search(name) and not concepts_in(name) \
                    and not name.startswith(("他", "她", "朋友", "大家")):
                add("对象", name)
        for name in parted_from(text):
            add("前任" if has_cjk(name) else "ex", name)
        for match in _CN_NAMED_RELATION.finditer(text):
            if match.group(2) not in _NOT_CN_NAMES and not _CN_TIME_OR_WORD.search(match.group(2)):
                add(match.group(1), match.group(2))
                if nickname := _CN_NICKNAME.match(text, match.end()):  # "女儿叫陈思雨，我们都喊她小雨"
                    add(match.group(1), nickname.group(1))
    for name in found.get("ex", set()) | found.get("前任", set()):  # a partner parted from is a partner no more
        for partner in ("spouse", *(c for c in found if c != "ex" and "spouse" in ancestors(c))):
            found.get(partner, set()).discard(name)
    return found


def parted_from(text: str) -> list[str]:
    """Whom the user parted from, as `text` names them (see `_PARTED`): "me and ola split up" → ["Ola"]."""
    from memchat.memory.concepts import concepts_in

    names = []
    for match in _PARTED.finditer(text):
        name = next(g for g in match.groups() if g)
        name = name[0].upper() + name[1:] if name.islower() else name
        if name not in _NOT_A_NAME:
            names.append(name)
    for match in _CN_PARTED.finditer(text):
        name = match.group(1) or match.group(2)
        if name not in _NOT_CN_NAMES and not _CN_TIME_OR_WORD.search(name) and not concepts_in(name):
            names.append(name)  # 我和男朋友分手了 names no one
    return names


_CN_NICKNAME = re.compile(r"[^。！!？?]{0,12}?[，,、]\s*(?:我们|我|大家|家里|家里人|平时)?(?:都|一般)?(?:喊|叫)(?:她|他)(?:做)?"
                          r"((?:小|老|阿)?[\u4e00-\u9fff]{1,2}?)(?=[，,。！!～~\s]|$)")
"""A nickname said right after the name: "女儿叫陈思雨，我们都喊她小雨"."""
_NICKNAME = re.compile(r"[^.!?]{0,30}?(?:,|;|—|-|\()\s*(?:but\s+)?(?:we|everyone|everybody|the family|they)\s+(?:all\s+)?"
                       r"(?:calls?|called)\s+(?:her|him|them)\s+((?-i:[A-Z][a-z]{1,}))\b|"
                       r"[^.!?]{0,30}?(?:,|\()\s*(?:who\s+)?goes by\s+((?-i:[A-Z][a-z]{1,}))\b", re.IGNORECASE)
"""A nickname said right after the name: "my daughter Siobhan, we all call her Shiv", "Dad (Peter), goes by Pete"."""
