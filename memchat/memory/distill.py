"""Turn one clause the user said into a typed, self-contained memory draft. Pure.

"We moved to Astana yesterday." → fact, key user.home, "The user moved to Astana
yesterday." The key (subject, slot) is what conflict detection compares: a new value
of a single-valued slot supersedes the old one; a multi-valued slot only loses a value
to explicit change or retirement language ("I sold my ukulele", "switched to Korean").

A clause becomes a typed memory only when it fills a slot of the catalogue (`slots`),
states a dated event, or states a lasting like or dislike; anything else the user said
stays an episode, kept as said. That is what keeps feelings, fragments and filler
("Huge news!", "Free time is a thing of the past") out of the typed layer.
"""

from __future__ import annotations

import re

from memchat.memory.rules import is_correction, is_hedged, named_subject, rule_importance
from memchat.memory.slots import BY_NAME, JOB_TITLES, MULTI_VALUED, SLOTS, Slot, slot_of
from memchat.memory.timeexpr import MONTH_WORDS, ResolvedTime, first_time
from memchat.types import Memory, MemoryDraft

__all__ = ["MULTI_VALUED", "draft_from_sentence", "guess_key", "is_change", "is_retirement", "third_person"]

RELATIVES = (
    "partner|wife|husband|girlfriend|boyfriend|fianc[eé]e?|brother|sister|mother|father|mom|mum|mam|dad|son|daughter|"
    "friend|best friend|boss|ex-boss|manager|colleague|coworker|grandma|grandmother|grandpa|grandfather|aunt|uncle|"
    "cousin|neighbour|neighbor|eldest|youngest|oldest|kids?|children|parents|folks|in-laws|sister-in-law|brother-in-law|"
    "mother-in-law|father-in-law|lad|lass|boy|girl|wee one|little one|other half|hubby|missus|stepdad|stepmum|stepmom|"
    "nan|nana|gran|granny|grandad|granddad|niece|nephew|stepson|stepdaughter|grandson|granddaughter|"
    "ex|ex-wife|ex-husband|ex-girlfriend|ex-boyfriend|ex-partner|roommate|flatmate|housemate"
)
CN_RELATIVES = ("妹妹|姐姐|哥哥|弟弟|弟媳|嫂子|妈妈|爸爸|我妈|我爸|奶奶|爷爷|外婆|外公|老婆|老公|女儿|儿子|男朋友|女朋友|朋友|"
                "表姐|表妹|表哥|表弟|堂姐|堂妹|堂哥|堂弟|室友|舍友|同事|老板|领导|组长|妈|爸|弟|哥|姐|妹")
_POSSESSIVE = re.compile(rf"^\s*(?:my|our) (?:\w+ )?({RELATIVES})\b", re.IGNORECASE)
_CN_POSSESSIVE = re.compile(rf"^\s*(?:我|我们)?(?:的)?({CN_RELATIVES})")
_NAMED_POSSESSIVE = re.compile(r"^\s*([A-Z][a-z]+)(?<!ing)'s (?!been\b|got\b|gone\b)")  # not "Swimming's moved…"
HEDGED_CONFIDENCE = 0.45
"""Confidence of a statement the user is unsure of ("maybe", "I think"): it cannot overwrite a firm one."""

INTENSIFIERS = (r"(?:(?:now|also|usually|always|never|still|really|mostly|often|sometimes|just|only|actually|totally|"
                r"genuinely|seriously|honestly|truly|definitely|absolutely|do|kind of|kinda|sort of|\w+ly) )")
"""Words between a subject and its verb that change nothing of what is said ("I absolutely HATE coriander")."""
LIKES = re.compile(rf"^\s*(?:i'?m|i am) (?:a |an )?(?:[\w'-]+ ){{0,4}}(?:fan|supporter)\b|"
                   rf"^\s*(?:i|we)\s+{INTENSIFIERS}{{0,2}}(?:love|like|enjoy|prefer|hate|"
                   r"can'?t stand|adore|dislike)\s+(?!it\b|that\b|this\b|them\b|you\b|the idea\b)\w+", re.IGNORECASE)
CN_LIKES = re.compile(r"^(?:我|我们)(?:很|最|特别|超级|比较|真的|挺|非常|超|蛮|相当|真心)*(?:喜欢|爱|讨厌|受不了)")
_NEW_DIET = (r"\b(?:going|went|turned|turning) (?:fully |full |completely |totally )?(?:vegan|vegetarian|veggie|keto|"
             r"paleo|pescatarian|plant-based|dairy-free|gluten-free|teetotal)\b|"
             r"\b(?:eating|eat|eats|having) (?:meat|fish|chicken|seafood|dairy|eggs|red meat) again\b")
"""A diet taken up ("Going keto", "I went pescatarian", "I eat meat again"): it takes the place of the one before."""
CHANGE = re.compile(
    r"\b(?:switch(?:ed|ing)?(?: to| over)?|swapped|replaced|instead|changed (?:to|over)|moved on to|upgraded to|renamed|"
    r"(?:now|these days) (?:called|named|goes by|answers to)|answers to|"
    r"traded (?:\w+ )*?in for|(?:now|these days|nowadays)(?=\W*$|\s*,\s*(?:so|and|but|which|because)\b)|(?:the|our|my) new (?:place|flat|house|home|apartment|pad|digs) (?:in|near|on)|"
    r"now (?:on|doing|learning|playing|into)|back to|started \w+ing (?:\w+ ){0,3}again|(?:i'?ve|i have|we'?ve|we have) (?:now )?gone (?:fully |full |completely |"
    r"totally )?(?!to\b|back\b|out\b|home\b|through\b|over\b|off\b|up\b|down\b|and\b)\w+)\b|"
    rf"{_NEW_DIET}|换成|换到|换了|改成|改到|挪到|调到|改学|改去|转而|新家",
    re.IGNORECASE,
)
"""Switch language: in a many-valued slot the new value replaces the latest (or the one it names)."""
RETIREMENT = re.compile(
    r"\b(?:sold|got rid of|gave up|giving up|given up|quit|quitting|stopped (?:\w+ing|going)|no longer|no more(?! than)|"
    r"(?:i|we)(?:'ve| have)? stopped(?=\s*(?:[,.!;]|$)|\s+(?:the\s+|my\s+)?(?!by\b|at\b|in\b|off\b|for\b|to\b|over\b|"
    r"outside\b|him\b|her\b|them\b|it\b)[a-z]+\s*(?:[,.!;]|$))|"
    r"dropped (?:out of )?(?:my|our) (?:(?!at\b|off\b|to\b)[\w-]+ ){0,2}(?:course|class|classes|lessons|module|membership|"
    r"subscription|team|choir|club)|(?:my )?(?:final|last) (?:shift|day) (?:at|with) (?-i:[A-Z])\w*|"
    r"(?-i:RIP|R\.I\.P\.?)(?= (?:my|our|the) )|rest in peace(?= (?:my|our|the) )|"
    r"not .{1,30} any ?more|left|broke up|split up|ditched|dropped out of|packed (?:it )?in|jacked (?:it )?in|"
    r"cancell?ed my (?:membership|subscription)|gave (?:the |my |our |it |them |that )?(?:\w+ )?up|"
    r"(?:has|had|have|got) (?:a |got a )?new owners?|(?:went|gone) to (?:a )?(?:new|good|loving|forever) home|found (?:\w+ )?(?:a )?(?:new|good|loving|forever) home|rehomed|stolen|(?:got|was|were|been|someone|somebody) nicked|(?:was |were |got |been )written off|parted (?:ways )?with|let (?:the|my|our) (?:\w+ ){0,2}go\b|"
    r"did(?:n'?t| not) renew|not renewing|came off|coming off|stepped (?:back|down) from|"
    r"(?:team|club|band|company|business|shop|group|league|choir|class|quiz) (?:has |have )?(?:folded|shut down|"
    r"closed down|disbanded)|"
    r"gave away|retired from|don'?t .{1,20} any ?more|back (?:to|in|into|within) (?:the )?normal|normal again|all clear|"
    r"(?:fully )?recovered|cured|in remission|healed|died|passed away|buried|put (?:him |her |it |them |(?-i:[A-Z][a-z]+) )?(?:down|to sleep))\b|"
    r"卖了|不再|辞职|离职|分手|送人了|被偷(?:走)?了|转手|过户给|报废了?|戒了|退出了?|恢复正常|正常了|痊愈|康复了|去世|死了|"
    r"不(?:弹|玩|吃|喝|去|开|用|养|做|干|学|住|练|跳|教|打|抽|上)了|退(?:掉)?了|送给.{1,8}了",
    re.IGNORECASE,
)

RETIRING_ACT = re.compile(
    r"\b(?:sold|got rid of|gave (?:up|away)|giving up|given up|quit|quitting|left|broke up|split up|retired from|"
    r"(?:(?<=^)|(?<=[.!?]\s))(?!(?:then|eventually|honestly|finally|so|and|but|after|at|soon|later|today|yesterday|"
    r"basically|just|anyway|well|ok|okay|lol|now|once)\b)[\w-]+,?\s+(?:i|we)(?:'ve| have| had)? stopped(?=\s*(?:[.!;]|$))|"
    r"(?-i:RIP|R\.I\.P\.?)(?= (?:my|our|the) )|rest in peace(?= (?:my|our|the) )|"
    r"dropped out(?: of)?|cancell?ed|"
    r"handed in my notice|ditched|packed (?:it )?in|died|passed away|buried|put (?:him |her |it |them |(?-i:[A-Z][a-z]+) )?(?:down|to sleep)|"
    r"gave (?:the |my |our |it |them |that )?(?:\w+ )?up|did(?:n'?t| not) renew|came off|stepped (?:back|down) from|"
    r"(?:has|had|have|got) (?:a |got a )?new owners?|(?:went|gone) to (?:a )?(?:new|good|loving|forever) home|found (?:\w+ )?(?:a )?(?:new|good|loving|forever) home|rehomed|stolen|(?:got|was|were|been|someone|somebody) nicked|(?:was |were |got |been )written off|parted (?:ways )?with|let (?:the|my|our) (?:\w+ ){0,2}go\b|"
    r"(?:team|club|band|company|business|shop|group|league|choir|class|quiz) (?:has |have )?(?:folded|shut down|"
    r"closed down|disbanded))\b|"
    r"卖(?:掉)?了|辞职|离职|分手|送人了|被偷(?:走)?了|转手|过户给|报废了?|戒了|退出了?|去世|(?<![挤累困饿热冷笑忙气烦吓急想美帅疼痛酸馋渴晒冻闷愁慌撑难丑乐])死了|退(?:掉)?了|送给.{1,8}了|不(?:弹|玩|去|开|用|养|做|干|学|练|跳|教|打|抽|上)了",
    re.IGNORECASE,
)
"""Retirement by an act (an event), as opposed to a state said in the negative ("I'm not vegan any more")."""


def is_retiring_event(memory: Memory) -> bool:
    """A stored act that ended a slot's value ("The user sold the Hilux"): no value of the slot itself, so a
    later value does not replace it and it is no earlier value beside it. It stays what happened."""
    return memory.kind == "event" and not memory.is_episode and bool(RETIRING_ACT.search(memory.content))

LIFE_EVENTS = re.compile(
    r"\b(?:graduated|got (?:married|engaged|divorced|promoted|accepted|my results)|(?:was|were|got) promoted|"
    r"had (?:a|our|my|the) (?:baby|operation|surgery|wedding)|passed (?:my|his|her|their|the) \w+ (?:test|exam)|"
    r"passed away|was born|were born|gave birth|won (?:a|the|first)|completed (?:my|the|a) \w+|ran (?:my|a|the) (?:first )?"
    r"(?:\d+k|marathon|half)|got (?:into|in to) (?:uni|university|college)|bought (?:a|our|my) (?:house|flat|home))\b|"
    r"考上|毕业了|结婚了|订婚|离婚了|升职|怀孕了|生了(?:个|一个)?(?:宝宝|孩子|儿子|女儿)|出生了|去世了|退休了|拿到(?:了)?(?:驾照|offer|证书)|"
    r"通过了.{0,6}(?:考试|面试)",
    re.IGNORECASE,
)
"""Milestones that are events whether or not a date comes with them."""
_TRIP = re.compile(
    r"^\s*(?:(?:i|we|(?-i:[A-Z][a-z]+)(?: and (?:i|me))?)\s+)?(?:just |finally |also )?(?:went|flew|travel+ed|drove|"
    r"sailed|visited|celebrated|hosted|attended|took (?:the |my |our )?(?:kids|family|boys|girls|dog|\w+) (?:to|up to|down to|over to)|"
    r"spent (?:a|the|our|my|two|three|\w+) (?:\w+ )?(?:days?|nights?|weekend|week|afternoon|morning|evening)|stayed|headed|"
    r"camped|hiked|climbed|walked|cycled|played (?:a|our|my|the) (?:\w+ )?(?:gig|concert|match|game|tournament)|"
    r"had (?:a|an|our|my) (?:\w+ )?(?:weekend|holiday|trip|break|day out|night out|party|gig|meal|dinner))\b"
    r".{0,40}?\b(?:to|in|at|for|with)?\s*(?-i:[A-Z][a-z]{2,})",
    re.IGNORECASE,
)
"""A trip or occasion that names where or what: 'We went to Lisbon for our anniversary'."""


FAMILY_SLOTS = frozenset({"children", "parents", "siblings", "relatives", "partner"})
_FAMILY_EVENT = re.compile(
    r"\b(?:started|starts|finished|passed|failed|won|broke|moved|came home|came back|left home|turned|"
    r"got (?:into|in|his|her|their|a place)|had (?:a|an|his|her|their) \w+ (?:party|operation|op|appointment))\b|"
    r"开学|考上|毕业|结婚|出生|生日派对|做了.{0,4}手术|住院",
    re.IGNORECASE,
)
"""What happened to someone in the family, as opposed to who they are ("Timur is five")."""

SLOT_ACTS = re.compile(
    r"\b(?:moved (?:to|into|in|house)|moving (?:to|into)|relocated|got the keys|(?:start(?:ed|s)?|starting) (?:at|with|in)|"
    r"joined|offered (?:me|us) (?:the|a|an) (?:[\w-]+ ){0,3}(?:job|post|position|role)|got the job|accepted the (?:job|offer)|retired|"
    r"last day)\b|搬(?:到|去|家)|入职|退休|拿到(?:了)?offer|最后一天",
    re.IGNORECASE,
)
"""A home, employer or job arrived at by an act (a move, a start): the slot's new value *and* an event."""


def slot_act(clause: str, attribute: str) -> bool:
    """'We moved to Astana in May' is where the user lives now and something that happened."""
    return attribute in ("home", "employer", "job") and bool(SLOT_ACTS.search(clause))


_CN_TRIP = re.compile(r"(?:去|飞|回|到)了?[\u4e00-\u9fff]{1,6}?(?:玩了|旅游|旅行|度假|待了|住了|过年|过节|看了)|去爬了|爬了.{1,4}山|"
                      r"(?:去|回)了?一趟")
"""A Chinese trip: '和同事小刘去爬了青城山', '春节回绵阳待了一周'."""


def is_happening(clause: str) -> bool:
    """An event worth keeping even without a date: a milestone, or a trip that names a place."""
    return bool(LIFE_EVENTS.search(clause) or _TRIP.search(clause) or _CN_TRIP.search(clause))


_SWAPS = [
    (r"\bI am\b", "the user is"), (r"\bI'm\b", "the user is"), (r"\bwe're\b", "the user is"),
    (r"\bwe are\b", "the user is"), (r"\bI've\b", "the user has"), (r"\bwe've\b", "the user has"),
    (r"\bI'd\b", "the user would"), (r"\bI'll\b", "the user will"), (r"\bwe'll\b", "the user will"),
    (r"\bI was\b", "the user was"), (r"\bwe were\b", "the user was"), (r"\bI\b(?!-)", "the user"), (r"\bwe\b", "the user"),
    (r"\bmy\b", "the user's"), (r"\bour\b", "the user's"), (r"\bme\b", "the user"), (r"\bus\b", "the user"),
    (r"\bmine\b", "the user's"), (r"\bours\b", "the user's"), (r"\bmyself\b", "themselves"), (r"\bourselves\b", "the user"),
]
_VERB_3RD = re.compile(
    rf"\bthe user ({INTENSIFIERS}{{0,2}})"
    r"(live|work|love|like|prefer|hate|enjoy|drink|eat|play|speak|own|drive|have|want|use|go|cycle|run|swim|need|"
    r"study|plan|travel|wake|get|visit|dislike|take|read|watch|listen|teach|ride|walk|commute|learn|do|keep|sing|"
    r"paint|cook|bake|hike|climb|fish|train|do|carry|miss|know|think|feel|try|hope|spend|help|look|make|call|"
    r"start|begin|finish|leave|move|report|manage|lead|rent|share|stay|pay|earn|owe|save|support|volunteer|coach|"
    r"write|draw|knit|sew|surf|ski|dance|row|sail|jog|meditate|attend|belong|fly|care|mean|wish|worry|buy|sell|"
    r"adore|loathe|detest|despise|haul|bank|wear|dip|chew|smoke|vape|grow|raise|collect|brew|follow|skate|garden|"
    r"babysit|host|mentor|tutor|foster|breed|deliver|clean|fix|repair|build|handle|cover|serve|sleep|shop|order|"
    r"bring|send|text|email|record|stream|post|blog|code|design|edit|translate|research|specialise|specialize|"
    r"struggle|suffer|snore|qualify|major|count|rely|sit|stand|pick|bike|skip|avoid|stick|hang|freelance|carpool|"
    r"practise|practice|temp|moonlight|referee|umpire|juggle|"
    r"can't stand)\b",
    re.IGNORECASE,
)


_PLURAL = {"has": "have", "is": "are", "was": "were"}
_COMPOUND_SUBJECT = re.compile(r"(?:the user's |(?-i:[A-Z])[a-z]+)(?:(?! is | was | are | has | had )[\w' -]){0,30}? and ",
                               re.IGNORECASE)
"""Two subjects before one verb ("Sam and ", "The user's wife and "); not a clause that has its own verb ("The user's
name is Ana and ")."""


def third_person(clause: str) -> str:
    """'I'm allergic to bee stings.' → 'The user is allergic to bee stings.' (Chinese: 我 → 用户)."""
    text = clause.strip()
    for pattern, replacement in _SWAPS:
        text = re.sub(pattern, replacement, text, flags=re.IGNORECASE)

    def conjugate(match: re.Match[str]) -> str:
        adverb, verb = (match.group(1) or "").lower(), match.group(2).lower()
        if _COMPOUND_SUBJECT.fullmatch(text[:match.start()]):  # "Sam and the user live in Leeds"
            return match.group(0)
        if verb == "can't stand" or re.search(r"\bdo $", adverb):  # "the user does like jazz"
            return "the user " + re.sub(r"\bdo $", "does ", adverb) + verb
        third = {"have": "has", "do": "does", "go": "goes"}.get(verb)
        if third is None and re.search(r"[^aeiou]y$", verb):  # study → studies, carry → carries
            third = verb[:-1] + "ies"
        third = third or verb + ("es" if verb.endswith(("sh", "ch", "ss", "x", "o")) else "s")
        return f"the user {adverb}{third}"

    text = _VERB_3RD.sub(conjugate, text)
    first = text.lower().find("the user")
    if first >= 0:  # "the user sold the user's car" reads "the user sold their car"
        head, tail = text[: first + 8], text[first + 8:]
        text = head + re.sub(r"\bthe user's\b", "their", tail, flags=re.IGNORECASE)
    text = re.sub(r"\bthe user wanna\b", "the user wants to", text, flags=re.IGNORECASE)
    text = re.sub(r"\bthe user gonna\b", "the user is going to", text, flags=re.IGNORECASE)
    text = re.sub(r"\bthe user don'?t\b", "the user doesn't", text)
    text = re.sub(r"\bthe user do not\b", "the user does not", text)
    text = re.sub(r"\bthe user haven'?t\b", "the user hasn't", text)
    pair = re.match(rf"({_COMPOUND_SUBJECT.pattern}the user) (has|is|was)\b", text, re.IGNORECASE)
    if pair:  # two subjects, one verb: plural ("The user's wife and the user have two dogs")
        text = f"{pair.group(1)} {_PLURAL[pair.group(2).lower()]}{text[pair.end():]}"
    text = re.sub(r"(我们|咱们|我)", "用户", text)
    text = text.rstrip(" ,;:—–-")
    text = text[:1].upper() + text[1:]
    if not re.search(r"[.!。！)）\"”?？]$", text):  # a request asked as a question keeps its mark
        text += "。" if re.search(r"[\u4e00-\u9fff]$", text) else "."
    return text


NOW_SAID = re.compile(r"^[^，,。！!？?]{0,4}现在(?!也|还|又)")
"""'钓鱼现在去锦江边上': a value said as the one of now, which replaces an earlier value it names (a Chinese
clause opens on 现在 where English closes on "now"); never the slot's latest by default, as a switch does."""


SWITCH = re.compile(
    r"\b(?:switch(?:ed|ing)?|swapped|replaced|instead|changed (?:to|over)|moved on to|upgraded to|traded (?:\w+ )*?in for|"
    r"(?:'ve|\bhave|\bhas) (?:now )?gone (?:fully |full |completely |totally )?(?!to\b|back\b|out\b|home\b|through\b|"
    r"over\b|off\b|up\b|down\b|and\b)\w+)\b|"
    rf"{_NEW_DIET}|换成|换到|换了|改成|改到|挪到|调到|改学|改去|转而", re.IGNORECASE)
"""The change language that puts one value in another's place. In a many-valued slot only this replaces the latest
value unnamed ("I've gone vegetarian" after pescatarian): "I started running again", "now learning Japanese",
"back to climbing" add to what the user does."""


def is_switch(clause: str) -> bool:
    return bool(SWITCH.search(clause))


def is_change(clause: str) -> bool:
    return bool(CHANGE.search(_HOW_LONG.sub(" ", clause)))


_HOW_LONG = re.compile(r"\b(?:(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|several|many|"
                       r"some|couple of|for|a long|a good)\s+)(?:\w+\s+)?(?:years?|yrs?|months?|weeks?|days|ages|decades?|"
                       r"while|time|fortnight)\s+now\b|\bsince \w+ now\b", re.IGNORECASE)
"""How long something has been ("12 years now", "for ages now", "a fortnight now"): no change ("I work days now" is)."""


def is_retirement(clause: str) -> bool:
    """Whether a clause says a thing of the user's has ended ("I sold my car", "gave up climbing") — done, not
    mused on or planned ("I've been thinking about quitting the hospital", "I might sell the car", "想辞职")."""
    found = RETIREMENT.search(clause)
    return bool(found) and not _MUSED.search(clause[max(0, found.start() - 40):found.start()])


_MUSED = re.compile(r"(?:\b(?:thinking (?:about|of)|think about|considering|consider|debating|toying with(?: the idea of)?|"
                    r"might|may|could|should|would like to|want to|wanna|tempted to|planning (?:on|to)|plan to|"
                    r"going to|gonna|will|'ll|hope to|hoping to|about to|if i|whether to|not sure (?:if|whether)|"
                    r"maybe)\s+(?:\w+\s+){0,2}$)|(?:想|打算|考虑|在考虑|可能会?|要不要|准备|是不是该|犹豫要不要)[^，。！？,.!?]{0,4}$",
                    re.IGNORECASE)
"""What a retirement's verb follows when it is only mused on or planned."""


THE_SOMEONE = re.compile(rf"^\s*(?:the|my|our)\s+(?:new\s+|old\s+|regular\s+|usual\s+)?({JOB_TITLES}|landlord|"
                         rf"landlady|neighbou?r|boss|guy|woman|man|lad|girl|bloke|physio|gp|dentist|vet|trainer)\b"
                         rf"(?!'s|’s|\s+(?:job|role|post|course|exam|shift|licen[cs]e|training|degree|appointment|"
                         rf"placement|interview|visa|card|test|check|work|hours|rota)\b)", re.IGNORECASE)
"""A clause that opens on someone by what they are ("The landlord lives in Spain", "My accountant drives a Tesla",
"The new nurse is from Leeds"): theirs, unless it goes on about the user ("My GP says I'm anaemic")."""
_CN_CALLED = re.compile(r"^\s*((?:老|小)(?!时候|区|学|家|是|心|孩子?|时|吃|说|事|半|部分|狗|猫|朋友)[\u4e00-\u9fff]|"
                        r"[\u4e00-\u9fff]{1,2}(?:姐|哥|叔|姨|总|经理|老师))"
                        r"(?=在|是|当|做|去|住|也|又|现在|已经|刚|还|最近|开|考|搬|辞|换|退|结|离|生|病)")
"""How people are called, opening a Chinese clause (小雨, 老陈, 王姐, 刘总): the clause is theirs."""
_CN_THIRD_PERSON = re.compile(r"^\s*(他们|她们|他|她)(?![的家])")
"""A Chinese clause about him or her (as "She moved to Leeds" is: named_subject): not 他的 (his), 她家 (her home)."""


def _person(clause: str) -> str | None:
    """Who a statement is about when it is not the user: 'My brother Rui lives in Berlin' → brother."""
    for pattern in (_POSSESSIVE, _CN_POSSESSIVE):
        match = pattern.match(clause)
        if match:
            return match.group(1).lower()
    named = _NAMED_POSSESSIVE.match(clause)
    if named:
        return named.group(1).lower()
    if pronoun := _CN_THIRD_PERSON.match(clause):
        return pronoun.group(1)  # "她前年也搬到温江来了": her move, not the user's
    if called := _CN_CALLED.match(clause):
        return called.group(1)  # "小雨在小学当老师", "王姐在超市做收银员": theirs, not the user's job
    if (someone := THE_SOMEONE.match(clause)) and not re.search(rf"{_OF_THE_USER.pattern}|\bthe user\b",
                                                                 clause[someone.end():], re.IGNORECASE):
        return someone.group(1).lower()  # "The landlord lives in Spain": his home ("The GP says I'm…" is the user's)
    named_one = named_subject(clause)
    if named_one and re.search(r"\b(?:offered|gave|hired|took on|accepted|made|promoted|appointed) (?:me|us)\b", clause,
                               re.IGNORECASE):
        return None  # "Caley Marine offered me the job", "They made me head chef": about the user's work
    return named_one


_I_LIVE = re.compile(r"^\s*(?:i|we)\s+(?:still\s+|now\s+|currently\s+)?(?:live|'m living|am living|'re living)\b",
                     re.IGNORECASE)
_NAMES_THE_MANAGER = re.compile(
    r"\b(?:new|covering|cover|covers|taking over|took over|takes over|stepping in|stepped in|acting|interim|replac\w+)\b|"
    r"\b(?:is|as|'s) (?:now )?(?:my|our|the user's) (?:new )?(?:manager|boss|supervisor|line manager|team lead)\b|"
    r"^\s*(?:my|our|the user's) (?:new )?(?:manager|boss|supervisor|line manager|team lead)(?:'s| is| was)(?: called| named)? "
    r"(?-i:[A-Z])|\b(?:reports?|reporting|answers?|answering) (?:in )?to (?-i:[A-Z])[a-z]+", re.IGNORECASE)
"""A statement of who the manager is, or who is now ("From next week our team reports to Farid"): not something that
happened to the one there is."""
_OPENING_OWNER = re.compile(r"^\s*(?:(?:my|our)\s+|我们的?|我的?)", re.IGNORECASE)
_OF_THE_USER = re.compile(r"\b(?:me|us|my|our|i|i'm|i've|we)\b|[我咱]", re.IGNORECASE)
"""A word of the user's after whom a clause opens on: "My manager moved me to nights" is the user's shifts."""

_ABOUT_A_PERSON = ("home", "employer", "job", "birthday", "health", "allergy", "language", "hobby", "sport", "pet")
"""Slots that can describe someone else: 'My mum lives in Almaty' is the mum's home, not the user's."""


_FAVOURITE = re.compile(r"\b(?:favou?rite|go-to|go to|usual) ([a-z]+)\b(?= (?:order )?(?:is|was|are|'s))|\bfavou?rite ([a-z]+)\b"
                        r"|最喜欢的(\w{1,4}?)(?:是|叫)", re.IGNORECASE)
_ROLES = (r"gp|doctor|dentist|therapist|counsell?or|landlord|landlady|physio|physiotherapist|hairdresser|barber|"
          r"mechanic|accountant|solicitor|lawyer|personal trainer|tutor|childminder|cleaner|vet|optician|"
          r"psychiatrist|psychologist|midwife|consultant")
_CN_ROLES = r"房东|家庭医生|医生|牙医|心理医生|心理咨询师|律师|会计|私教|健身教练|家教|保姆|理发师"
_PROVIDER = re.compile(
    rf"\b(?:my|our) (?:new |regular |usual |current )?({_ROLES})(?:'s name)? (?:is|'s) (?:now )?(?:(?:a |an )?(?:guy|man|bloke|"
    rf"woman|lady|girl|chap) )?(?:called |named )?(?:(?-i:Dr|Mr|Mrs|Ms|Miss)\.? )?(?-i:[A-Z])|(?:我|我们)的?(?:新)?({_CN_ROLES})(?:现在)?(?:是|叫|姓|换成了?)",
    re.IGNORECASE)
"""Someone in a role in the user's life, named ("My GP is Dr Shah", 我的房东姓王): one per role, so a new
doctor replaces the old one."""
_SAME_ROLE = {"gp": "doctor", "landlady": "landlord", "counselor": "therapist", "counsellor": "therapist",
              "physiotherapist": "physio", "barber": "hairdresser", "solicitor": "lawyer", "家庭医生": "医生",
              "心理咨询师": "心理医生", "健身教练": "私教"}
_ROLE_ASKED = re.compile(rf"\b(?:who(?:'s| is| was)|what(?:'s| is) the name of) (?:my|our) (?:new |current |regular |usual )?"
                         rf"({_ROLES})\b|\bwhat(?:'s| is) (?:my|our) (?:new |current |regular |usual )?({_ROLES})(?:'s name| called)\b|"
                         rf"我的?({_CN_ROLES})(?:是谁|叫什么|叫啥|姓什么|姓啥)", re.IGNORECASE)


def provider_key(role: str) -> str:
    role = role.lower()
    return f"provider_{_SAME_ROLE.get(role, role)}"


def providers_asked(question: str) -> list[str]:
    """The role a question asks who fills ("Who is my doctor?" → provider_doctor)."""
    match = _ROLE_ASKED.search(question)
    return [provider_key(next(g for g in match.groups() if g))] if match else []



def guess_key(clause: str) -> tuple[str, str, str]:
    """(subject, slot, kind) by rules; ('user', '', '') when no slot fits. A favourite is its own
    single-valued key ("favourite_colour"): a new favourite colour replaces the old one."""
    favourite = _FAVOURITE.search(clause)
    if favourite:
        return "user", f"favourite_{next(g for g in favourite.groups() if g).lower()}", "preference"
    provider = _PROVIDER.search(clause)
    if provider:
        return "user", provider_key(provider.group(1) or provider.group(2)), "relation"
    person = _person(clause)
    if person:
        own = next((s for s in SLOTS if s.name in _ABOUT_A_PERSON and s.matches(clause)), None)
        if own is not None:
            return person, own.name, "relation" if own.name in ("home", "employer", "job") else own.kind
    slot: Slot | None = slot_of(clause)
    if slot is not None and slot.kind == "relation" and _I_LIVE.match(clause) and BY_NAME["home"].matches(clause):
        slot = BY_NAME["home"]  # "I live with my sister in Hackney": where the user lives, with whom is said too
    someone = person and (_POSSESSIVE.match(clause) or _CN_POSSESSIVE.match(clause) or named_subject(clause)
                          or THE_SOMEONE.match(clause))
    if slot is not None and someone and slot.kind != "relation" and not _OF_THE_USER.search(_OPENING_OWNER.sub("", clause)):
        # "My wife works nights", "Sam is vegan": a slot of the user's said of someone else is that person's
        family = next((s for s in SLOTS if s.kind == "relation" and s.name != "provider" and s.matches(clause)), None)
        return ("user", family.name, "relation") if family else ("user", "", "")
    if slot is not None:
        return "user", slot.name, slot.kind
    if LIKES.search(clause) or CN_LIKES.search(clause):
        return "user", "likes", "preference"
    return "user", "", ""


_POSSESSIONS = frozenset({"vehicle", "phone", "laptop"})
_TEMPORARY_USE = re.compile(r"\b(?:hired|hire|hiring|rented|rent a|renting|borrowed|borrow|borrowing|lent me|loaned|"
                            r"test[- ]drove|test[- ]driving|courtesy car|loan car|hire car|rental)\b|租了|借了|借的", re.IGNORECASE)
"""A thing used for a while, not owned: it is no value of what the user has."""


def draft_from_sentence(
    sentence: str,
    *,
    session_id: int | None,
    message_id: int | None,
    said_at: float | None = None,
    correction: bool | None = None,
    hedged: bool | None = None,
) -> MemoryDraft | None:
    """A typed draft, or None when the clause fills no slot and states no dated event.

    `correction` and `hedged` override detection: a clause of a corrected or doubtful
    sentence is one too ("Maybe I live in Berlin now, I'm not sure")."""
    hedged = is_hedged(sentence) if hedged is None else hedged
    correction = is_correction(sentence) if correction is None else correction
    subject, attribute, kind = guess_key(sentence)
    when = first_time(sentence, said_at) if said_at is not None else None
    happened = (when is not None and not when.passing) or is_happening(sentence)
    if not attribute and happened:
        kind, attribute = "event", "event"  # "Last Friday I did my first solo surgery", "We went to Lisbon"
    if not attribute:
        return None
    if attribute == "manager" and happened and not _NAMES_THE_MANAGER.search(sentence):
        kind, attribute = "event", "event"  # "Harriet's farewell lunch was on Friday": it happened to her, no new manager
    if attribute in FAMILY_SLOTS | {"colleague"} and (happened or _FAMILY_EVENT.search(sentence)):
        kind, attribute = "event", "event"  # "My lad Callum passed his driving test": it happened (the name is kept apart)
    if attribute in ("manager", "colleague") and RETIRING_ACT.search(sentence) and not is_change(sentence):
        kind, attribute = "event", "event"  # "今天跟组长提了离职": the user's leaving, not a new manager
    if attribute == "pet" and (LIFE_EVENTS.search(sentence) or _FAMILY_EVENT.search(sentence)):
        kind = "event"  # "汤圆做了绝育手术", "Bracken had her operation": it happened to the pet
    if attribute == "birthday" and _CELEBRATED.search(sentence):
        kind, attribute = "event", "event"  # "Took Dad out for his birthday on Sunday": a day out, not his birthday's date
    if attribute in ("hobby", "sport") and (is_happening(sentence) or _once_on_a_day(when, said_at, sentence)):
        kind = "event"  # "We played a gig at the Crown in Hexham", "Played bridge at the club last night"
    if attribute in _POSSESSIONS and _TEMPORARY_USE.search(sentence):
        kind, attribute = "event", "event"  # "We hired a campervan for the weekend": used for a while, not owned
    if kind != "relation" and RETIRING_ACT.search(sentence) and not is_change(sentence):
        kind = "event"  # "I sold my car": something that happened, which retires the slot's value
    return MemoryDraft(
        kind=kind,
        content=third_person(sentence),
        subject=subject,
        attribute=attribute,
        importance=rule_importance(sentence, correction),
        confidence=0.9 if correction else (HEDGED_CONFIDENCE if hedged else 0.8),
        source_session=session_id,
        source_message=message_id,
        correction=correction,
        event_at=when.at.timestamp() if when else None,
        event_text=when.expression if when else "",
        event_grain=when.grain if when else "",
    )


_CELEBRATED = re.compile(
    r"\b(?:for|on|at) (?:my|his|her|their|our|the user's|(?-i:[A-Z])[a-z]+'s) (?:[\w']+ )?birthday\b(?! is\b)|"
    r"\bbirthday (?:party|parties|meal|dinner|lunch|drinks|cake|trip|weekend|celebrations?|do|bash|picnic|present|"
    r"presents|gift|surprise)\b|"
    rf"\bbirthday (?:was|went|turned out)\b(?!\s+(?:on|in|yesterday|today|last|the|\d|{MONTH_WORDS}))|"
    r"(?:给|为)[\u4e00-\u9fff]{1,4}(?:过|庆祝)(?:了)?生日|生日(?:聚会|派对|宴|饭)", re.IGNORECASE)
"""A birthday celebrated ("took Dad out for his birthday", "Timur's birthday party was at…"): what happened
that day, not the day the birthday falls on."""
_HABITUAL = re.compile(r"\b(?:every|each|usually|normally|always|often|weekly|twice|a week(?! ago)|mornings|evenings|"
                       r"nights|afternoons|weekends|most (?:days|weeks|weekends|mornings|evenings|nights))\b|"
                       r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|每|经常|(?<!得)一般|平时|常常|总是", re.IGNORECASE)


def _once_on_a_day(when: ResolvedTime | None, said_at: float | None, sentence: str) -> bool:
    """A pastime done once, on a day already past ("went swimming yesterday"), not a habit ("every Friday")."""
    return (when is not None and said_at is not None and when.grain == "day" and not when.passing
            and when.at.timestamp() < said_at and not _HABITUAL.search(sentence))


def multi_valued(attribute: str) -> bool:
    """Keys outside the catalogue (a hand-added `--key`) hold one value, like most facts."""
    return attribute in MULTI_VALUED or attribute in ("likes", "event", "possessions")
