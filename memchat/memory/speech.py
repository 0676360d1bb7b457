"""Ordinary speech made ready for the write path: informal spellings, discourse markers,
coordinated clauses. Pure; tables first, code after (each table row is one kind of phrase).

"Btw Im gonna start at Caley Marine and my new boss is Stuart" is, to the write path,
two statements: "I'm going to start at Caley Marine." and "My new boss is Stuart."
"""

from __future__ import annotations

import re

from memchat.memory.slots import JOB_TITLES
from memchat.memory.terms import has_cjk

INFORMAL: tuple[tuple[str, str], ...] = (
    (r"\bwanna\b", "want to"), (r"\bgonna\b", "going to"), (r"\bgotta\b", "have to"), (r"\bkinda\b", "kind of"),
    (r"\bIm\b", "I'm"), (r"\bim\b", "I'm"), (r"\bIve\b", "I've"), (r"\bId\b", "I'd"), (r"\bIll\b", "I'll"),
    (r"\bdont\b", "don't"), (r"\bcant\b", "can't"), (r"\bwont\b", "won't"), (r"\bdidnt\b", "didn't"),
    (r"\bdoesnt\b", "doesn't"), (r"\bisnt\b", "isn't"), (r"\bwasnt\b", "wasn't"), (r"\barent\b", "aren't"),
    (r"\bthats\b", "that's"), (r"\bits(?= (?:a|an|the|so|such|just|only|not|been|all|really|very|quite|pretty|gonna)\b)",
                                  "it's"),  # "its a fintech startup": the possessive never stands before these
    (r"\bshes\b", "she's"), (r"\bhes\b", "he's"), (r"\btheres\b", "there's"),
    (r"\bu\b", "you"), (r"\bur\b", "your"), (r"\bcuz\b", "because"), (r"\bcos\b", "because"), (r"\bw/\s*", "with "),
    (r"\bw\b(?=\s+(?:my|the|a|an|his|her|our|their|him|them|me|us|some|two|three)\b)", "with"),
    (r"\byday\b", "yesterday"), (r"\b(?:tmrw|tmr|tmrrw|tomoz)\b", "tomorrow"),
    (r"\b([Mm]y) names(?= (?-i:[A-Z])[a-z]+\s*(?:[,.!]|\blol\b|\bbtw\b|$)|(?=[^A-Z]*$) [a-z]+\s*(?:[,.!]|\blol\b|\bbtw\b|$))",
     r"\1 name's"),
    (r"^[Nn]ames(?= (?-i:[A-Z])[a-z]+\s*(?:[,.!]|\blol\b|\bbtw\b|$)|(?=[^A-Z]*$) (?!matter|are|were|change|differ)[a-z]+"
     r"\s*(?:[,.!]|\blol\b|\bbtw\b|$))", "My name's"),
    (r"^(?:[Tt]he )?([Nn]ew|[Oo]ld) (boss|manager|supervisor|team lead)(?= (?:is|'s) (?:called |named )?"
     r"(?:(?-i:[A-Z])[a-z]+|[a-z]+\s*(?:[,.!]|$)))", r"My \1 \2"),
    (r"\bgf\b", "girlfriend"), (r"\bbf\b", "boyfriend"), (r"\bb-?day\b", "birthday"), (r"\bwk\b", "week"),
    (r"\bwks\b", "weeks"), (r"\byrs\b", "years"), (r"\bmy bro\b", "my brother"), (r"\bmy sis\b", "my sister"),
    (r"(?i:^(?:the |my )?bro\b)(?=\s+(?:is|was|lives|works|'s|has|had|just|got|moved|started)\b)", "my brother"),
    (r"(?i:^(?:the |my )?sis\b)(?=\s+(?:is|was|lives|works|'s|has|had|just|got|moved|started)\b)", "my sister"),
)
"""Spellings of chat: (pattern, standard form), applied before anything reads the sentence."""

DISCOURSE_MARKERS: tuple[str, ...] = (
    r"by the way", r"btw", r"just so you know", r"fyi", r"for the record", r"quick update", r"small update",
    r"update", r"big news", r"huge news", r"good news", r"bad news", r"news", r"guess what", r"fun fact",
    r"(?:(?:big|huge|good|bad|quick|small|some|little|an?) )?(?:news|update)s? (?:from me|from my (?:end|side)|"
    r"on my (?:end|side|front)|here|for you)",
    r"oh and", r"oh", r"also", r"and", r"anyway", r"anyways", r"actually", r"so", r"well", r"right so", r"right",
    r"ok so", r"okay so", r"ok", r"okay", r"hey", r"hi", r"hmm+", r"um+", r"uh+", r"yeah", r"yes", r"no(?=\s*[,.!;:—–-])", r"lol",
    r"different topic", r"on a lighter note", r"on another note", r"while i'?m at it", r"one more thing",
    r"speaking of which", r"funny enough", r"honestly", r"to be honest", r"tbh", r"ngl", r"not gonna lie",
    r"as you know", r"remember", r"please remember( that)?", r"note( that)?", r"keep in mind( that)?",
    r"side ?note", r"random (?:thought|question|fact)", r"(?:totally |completely |slightly )?unrelated(?: but)?",
    r"random(?:ly)? but", r"but", r"before i forget", r"while i remember", r"while i think of it", r"just remembered",
    r"(?:oh )?(?:i )?forgot to (?:say|mention|tell you|add)", r"p\.?s\.?", r"also also", r"on that note",
    r"(?:work|job|money|health|family|home|life|school|uni|fitness|diet|food)[- ]?wise",
)
"""English openers that carry no fact ("By the way, I live in Porto" → "I live in Porto"). "No" only as an
answer ("No, I moved"): "no more red meat" says the opposite of "more red meat"."""

CN_DISCOURSE_MARKERS: tuple[str, ...] = (
    "对了", "顺便说一下", "顺便说下", "顺便", "另外", "还有", "跟你说一下", "跟你说", "告诉你", "说到这个",
    "说起来", "其实", "哦对", "哦", "嗯", "好吧", "话说", "最新消息", "好消息", "坏消息", "更新一下", "记一下",
    "还有个事", "有个事", "有件事", "跟你说个事", "说个事", "汇报一下",
)
"""Chinese openers that carry no fact."""
_CN_NOT_A_MARKER = {"还有": "还有(?![点些一很好多不])"}
"""An opener that is also a verb: "还有点痛风" (still has a bit of gout) keeps it."""

_MARKER = re.compile(r"^\s*(?:(?:" + "|".join(sorted(DISCOURSE_MARKERS, key=len, reverse=True)) + r")\b\s*[,:;!.—–-]*\s*)+", re.IGNORECASE)
_CN_MARKER = re.compile(r"^\s*(?:(?:" + "|".join(_CN_NOT_A_MARKER.get(m, m) for m in sorted(CN_DISCOURSE_MARKERS, key=len, reverse=True)) + r")\s*[，,：:！!。、]*\s*)+")
_HEADLINE = re.compile(r"^\s*[^.!?:]{1,25}[:：]\s+(?=\S)")
"""'Quick update: …', 'Huge news: …' — a short label before a colon."""

_EMPTY_LABEL = re.compile(
    r"^\s*(?:(?:quick|small|big|huge|good|bad|great|sad|random|little|tiny|major|minor|exciting|fun|weird|life|"
    r"news|update|updates|fyi|heads up|so|ok|okay|also|btw|anyway|one|more|thing|another|other|question|rant|"
    r"confession|guess what|plot twist|status|report|the|a|an|some|of|on|my|me|from|here|latest|new|announcement|"
    r"side|note|aside|random|thought|unrelated|ps)\b[\s!,-]*)+"
    r"[:：]\s*$|^[^a-z]*[:：]\s*$",
    re.IGNORECASE,
)
"""A headline label with nothing in it ("Quick update:", "Big news:"), which can go."""

SUBJECT_VERBS = (
    "work|live|play|have|own|love|like|hate|prefer|enjoy|speak|study|drive|ride|take|go|teach|run|swim|"
    "cycle|walk|use|eat|drink|need|want|started|start|joined|moved|sold|bought|got|left|quit|switched|lost|"
    "am|was|'m|can|do|don't|never|always|usually|also|still|just"
)
_BARE_KIN = (r"(?:the )?(?:mum|mom|mam|dad|gran|granny|nan|nana|grandma|grandpa|grandad|granddad|folks|wife|hubby|"
             r"missus|other half|kids|boss|line manager|flatmate|housemate|girlfriend|boyfriend|husband|partner|fianc[eé]e?)")
"""Kin said as a name, without "my" ("Mum runs a flower shop", "The wife works nights"): the user's."""
_BARE_KIN_SUBJECT = (rf"{_BARE_KIN}(?:'s\b|'ll\b|\s+(?:is|was|has|had|still|just|now|finally|always|never|also|"
                     r"runs|works|lives|teaches|drives|owns|plays|loves|hates|likes|does|goes|gets|makes|needs|knows|cooks|"
                     r"sells|speaks|coaches|manages|designs|studies|writes|sings|builds|fixes|volunteers|supports|"
                     r"(?!(?:jokes|is|was|has|does|says|thinks|reckons|wants|keeps|asks|wonders)\b)[a-z]+ed)\b)")
"""A bare kin word opening a statement of its own: the word and its verb."""
_BARE_KIN_OPENING = re.compile(rf"^(?={_BARE_KIN_SUBJECT})(?:the )?", re.IGNORECASE)

_SOMEONES_SUBJECT = re.compile(r"^\s*((?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:mum|mom|mam|mother|dad|father|sister|brother|son|"
                               r"daughter|wife|husband|partner|boyfriend|girlfriend|gran|granny|grandma|grandad|grandpa|"
                               r"aunt|auntie|uncle|cousin|niece|nephew|friend|neighbou?r|boss|manager|colleague|flatmate)"
                               r"(?:\s+(?-i:[A-Z])[a-z]+)?|(?!(?:today|yesterday|tomorrow|tonight|this|that|there|it|"
                               r"the|work|life|everything|nothing|mon|tues|wednes|thurs|fri|satur|sun|jan|feb|march|april|"
                               r"may|june|july|aug|sept|oct|nov|dec)[a-z]*\s)(?-i:[A-Z])[a-z]{2,})\s+(?=[a-z])", re.IGNORECASE)
"""Who a clause is about when it is not the user ("My mum", "Sam"), for the clause after it that leaves its
subject out."""

_CLAUSE_BREAK = re.compile(
    r"\s*(?:;|\s+[-–—]\s+|,\s*(?:and\s+|but\s+|so\s+|also\s+)?(?=(?:(?:now|then|these days|nowadays|still)\s+)?"
    r"(?:i|i'm|i've|i'd|my|we|we're|our)\b)|,\s*(?:and\s+|so\s+)?(?=no (?:more|longer)\b|(?:vegan|vegetarian|pescatarian|teetotal|sober|single)\s+"
    r"(?:now|these days|nowadays|again)\b)"
    rf"|,\s*(?:and\s+|but\s+|so\s+)?(?={_BARE_KIN_SUBJECT})"
    r"|\s+(?:and|but|so|also)\s+(?=(?:i|i'm|i've|i'd|my|we|we're|our)\b"
    r"|(?-i:[A-Z][a-z]+)(?:'s)?\s+(?:is|was|has|had|will|took|takes|became|moved|left|started|got|joined|covers|covering)\b)"
    rf"|\s+(?:and|but|so|also)\s+(?={_BARE_KIN_SUBJECT})"
    r"|[，；](?:而且|但是|不过|所以)?(?=我|我们|他|她|它|家里|[^，；]{0,3}(?:妈|爸|哥|姐|弟|妹|老公|老婆|儿子|女儿)))\s*",
    re.IGNORECASE,
)
"""Where a clause with its own subject begins. Chinese drops subjects freely, so a Chinese comma only
breaks before a new subject: '游泳还坚持着，换到了每周六上午' stays one statement."""
_ELLIPTIC = re.compile(rf"\s+(?:and|but)\s+(?=(?:{SUBJECT_VERBS})\b)", re.IGNORECASE)
"""'I live in Culloden and work at Caley Marine': the second clause borrows the first one's subject."""
_LEADING_SUBJECT = re.compile(r"^\s*(i|we)\b", re.IGNORECASE)
_DROPPED_SUBJECT = re.compile(
    r"^(?:finally |just |also |then )?(?:got|went|bought|sold|took|left|quit|started|moved|made|had|ran|did|met|found|"
    r"lost|gave|joined|finished|passed|booked|signed|switched|swapped|picked|visited|tried|adopted|turned|broke|"
    r"signed up|spent|saw|flew|drove|cycled|walked|swam|booked|was|played|celebrated|stayed|hosted|attended|"
    r"learned|learnt|ordered|sorted|handed|applied|failed|won|had|borrowed|hired|rented|treated myself|ended up|renamed|"
    r"named|adopted|rescued)\b",
    re.IGNORECASE,
)
"""Chat drops the subject: 'Started Turkish lessons this month', 'Got the keys on Friday' — it is the user."""
_DROPPED_PRESENT = re.compile(
    r"^(?:also |still |usually |mostly )?(?:drive|play|live|work|teach|own|support|rent|share|commute|volunteer|coach)\s+"
    r"(?!(?:me|us|you|it|on|then|ahead|for it|safe|safely|carefully|slow|slowly|away|home|back|figure|check|ask|see|look|"
    r"tell|get|have|make|try|some|something|a song|music|through|out)\b)(?=\w)"
    r"(?![^.!?]*\b(?:please|pls|plz|for me|me|us|you|again|tips|message|reply|answer)\b)(?![^.!?]*[?:])",
    re.IGNORECASE,
)
"""Texting drops the subject before a present verb too: 'drive a corsa', 'play bass in a band', 'live with my sister in
Hackney'. Not a request to the assistant ('Play me something', 'go ahead', 'do it please')."""
_OWN_THING = re.compile(r"^(?=(?:birthday|name|address|job|commute|rent|salary|phone number|company|office|workplace|"
                        r"team lead|team leader|line manager|flat|house|place)(?:'s|\s+is)\b)",
                        re.IGNORECASE)
"""'birthday is 3 march', 'name's Obi': the user's own, "my" dropped."""
_NEW_THING = re.compile(r"^(?:a |my )?new (?=(?:job|position|role|gig|flat|place|house|car|bike|phone|puppy|kitten|dog|cat|"
                        r"laptop|boyfriend|girlfriend|partner)\b\s*(?:at|in|with|from|called|named|[,.!]|$))", re.IGNORECASE)
"""'new job at tesco, start monday', 'New flat in Leith!': the user has it, "I've got a" dropped."""


_ON_THE_WAY = re.compile(
    r"^(?:now |also |then |finally )?(?:heading|flying|going|driving|travelling|traveling|moving|off)\s+"
    r"(?:(?:back |home |up |down |out |over |off )?to\b|vegan|vegetarian|veggie|keto|paleo|pescatarian|plant-based|"
    r"part[- ]time|full[- ]time|freelance|self-employed)"
    r"(?![^.!?]*\b(?:is|was|are|were|isn'?t|wasn'?t|sucks|takes?|took|costs?|helps?|helped|makes?|made|seems?|seemed|"
    r"sounds?|sounded|kills?|means?|meant|feels?|felt|gets?|would|will|can|could|should|might|must)\b)(?![^.!?]*\?)",
    re.IGNORECASE,
)
"""A plan or a change told without its "I'm": "Heading to Porto with Lars on 3 Oct.", "Going keto, doctor's
orders." — not "Going to the gym is a pain"."""
_DOING = re.compile(
    r"^(?:now |currently |still |also )?(?=(?:working|living|studying|training|teaching|renting|commuting|dating|seeing|joining|"
    r"learning|doing|running|volunteering|freelancing|staying|saving|eating|cycling|driving)\b)"
    r"(?![^.!?]*\b(?:is|was|are|were|has|had|can|could|will|would|makes?|made|gets?|takes?|feels?|sounds?|seems?|helps?|"
    r"isn'?t|wasn'?t|terrifies|scares|kills|bores|stresses|drains|annoys|sucks|rocks)\b)"
    r"(?=[^.!?]*\b(?:now|these days|nowadays|at the moment|atm|rn|right now|currently|full[- ]time|part[- ]time|since|for (?:a|the|two|"
    r"three|\d+)|at|in|with)\b|(?:learning|studying|joining (?-i:[A-Z])\w*|starting (?:at|with) (?-i:[A-Z])\w*|doing an? (?:masters|master's|phd|degree|course|diploma|mba)|"
    r"training for|saving (?:up )?for)\b)",
    re.IGNORECASE,
)
"""Chat drops "I'm" before what one is doing these days: 'Working from home full time now', 'Living with my sister
at the moment' — not a gerund that is the subject ('Working from home is great')."""
_BEEN = re.compile(r"^(?:just |also )?been (?!there\b|here\b|a while\b|ages\b|so\b|really\b)(?=\w)", re.IGNORECASE)
"""'Been learning Portuguese for months', 'Been vegetarian for ten years' are the user's: "I've been…"."""
_KEEN = r"(?:huge|big|massive|lifelong|life-long|die-hard|proud|long-time|avid)"
"""How keen a fan says they are ("Huge Liverpool fan"): a noun phrase that takes "a"."""
_STATE_FIRST = re.compile(
    r"^(?:fluent in|allergic to|married to|engaged to|born in|based in|originally from|obsessed with|addicted to|"
    rf"new to|terrified of|scared of|{_KEEN}\s+"
    r"(?:[\w'-]+\s+){0,3}(?:fan|supporter|reader|gamer|runner|cyclist|baker|cook|gardener|owner|parent|mum|dad))\b",
    re.IGNORECASE,
)
"""Chat drops "I'm" before a state: 'Fluent in Polish', 'Originally from Glasgow', 'Huge Liverpool fan since…'."""
_SELF_ROLES = (r"[\w'-]*(?:er|ist|or|ian|ant|ent)|fan|mum|dad|mom|parent|person|student|nurse|introvert|extrovert|"
               r"night owl|early bird")
"""What one is, said of oneself: a noun, which takes "a" ("a runner")."""
_SELF_STATES = (r"intolerant|allergic|left-handed|colou?rblind|deaf|diabetic|coeliac|celiac|pregnant|retired|vegan|"
                r"vegetarian|pescatarian|teetotal|sober|single|engaged|divorced|self-employed|unemployed")
"""How one is: an adjective, which takes none ("lactose intolerant"), though it may end like a noun."""
_SELF_HERE = re.compile(rf"^((?:[\w'-]+\s+){{0,2}}(?:{_SELF_ROLES}|{_SELF_STATES}))\s+here\b\s*[,.!;:-]*\s*",
                        re.IGNORECASE)
"""'Runner here, training for an ultra', 'Lactose intolerant here': who is speaking, said of oneself."""
_STATE_WORD = re.compile(rf"(?:{_SELF_STATES})$", re.IGNORECASE)
_ARTICLE_NOUN = re.compile(rf"(?:{_SELF_ROLES})$", re.IGNORECASE)


_ROLE_ALONE = re.compile(rf"^(?:an? )?((?:[\w-]+ )?(?:{JOB_TITLES}))(?= (?:at|in|for|with|from)\b)"
                         r"(?![^.!?]*\b(?:is|was|were|are|has|had|said|says|did|does|told|gave|got|called|came|left|took|"
                         r"wants|seems|looks|asked|reckons|thinks|sent|made|put|saw|came|[a-z]{3,}ed)\b)", re.IGNORECASE)
"""A role said alone before where it is done: 'kitchen porter at the Red Lion', 'dentist in leicester'; not someone
in a role who did something ('Driver at the depot was rude')."""
_FAN_MYSELF = re.compile(r"^((?:[\w'-]+ ){1,3}(?:fan|supporter))\s+myself\b", re.IGNORECASE)
"""'Celtic fan myself': what the user is, said after someone else's team."""


def _said_of_oneself(clause: str) -> str:
    """A clause whose "I'm" chat dropped, with it: "Fluent in Polish" → "I'm fluent in Polish"; "Runner here,
    training for an ultra" → "I'm a runner, training for an ultra"."""
    here = _SELF_HERE.match(clause)
    if here and not re.match(r"(?:it|that|this|there|weather|sunny|raining|cold|hot)\b", clause, re.IGNORECASE):
        phrase = here.group(1).strip()
        article = "a " if (_ARTICLE_NOUN.search(phrase) and not _STATE_WORD.search(phrase)
                           and not phrase.lower().startswith(("a ", "an "))) else ""
        rest = clause[here.end():]
        return f"I'm {article}{_lower_first(phrase)}" + (f", {_lower_first(rest)}" if rest.strip() else ".")
    if re.match(rf"^(?:{_SELF_STATES})\s+(?:now|these days|nowadays|again|since|for)\b", clause, re.IGNORECASE):
        return f"I'm {_lower_first(clause)}"  # "…so pescatarian now", "Single again since March"
    role = _ROLE_ALONE.match(clause)
    if role:
        article = "an" if role.group(1)[0].lower() in "aeiou" else "a"
        return f"I'm {article} {_lower_first(clause[role.start(1):])}"
    fan = _FAN_MYSELF.match(clause)
    if fan:
        return f"I'm a {fan.group(1)}{clause[fan.end():]}"
    if _STATE_FIRST.match(clause):
        if clause.lower().startswith("born "):
            return f"I was {_lower_first(clause)}"  # "Born in Leeds, raised in York"
        article = "a " if re.match(rf"{_KEEN}\b", clause, re.IGNORECASE) else ""
        return f"I'm {article}{_lower_first(clause)}"
    return clause


_SHORT_DAY = re.compile(r"\b(next|last|on|this|by|till|until|from|every|and) (mon|tues?|tu|weds?|thurs?|thu|fri|sat|sun)\b\.?"
                        r"(?![-\s]*(?:nav|cream|lounger|bed|shine|set|rise|glasses|hat|burn|tan|down|up|around|there|is|was|"
                        r"'s|has|came|shining|today)\b)",
                        re.IGNORECASE)
_DAYS = {"mon": "Monday", "tu": "Tuesday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday", "weds": "Wednesday",
         "thu": "Thursday", "thur": "Thursday", "thurs": "Thursday", "fri": "Friday", "sat": "Saturday", "sun": "Sunday"}
"""A day cut short after a word that names a day ("next tues", "on thurs"): not "sat on the sofa", "the sun"."""


_LOWER_INTRO = re.compile(r"^(\W*(?:(?:hi|hey|hello|hiya|yo)\W+)?(?:i am|i'm|im|my name is|my name's|name's|call me)\s+)"
                          r"([a-z]{2,})(?=\s*(?:[,.!;]|$|\s+(?:and|here|from)\b))"
                          r"|^(\W*)([a-z]{3,})\s+here\b")
_NOT_A_NAME = re.compile(r"(?:ed|ing|ly|ful|ous|ive|able|ible|less|ish|ic|al)$|^(?:here|back|home|fine|good|ok|okay|done|sure|sorry|"
                         r"new|late|sick|ill|busy|free|ready|happy|sleepy|hungry|angry|lucky|lazy|crazy|healthy|pregnant|"
                         r"so|not|just|also|still|really|very|too|going|off|out|in|on|at|up|down|away|alone|single|married|"
                         r"engaged|retired|vegan|vegetarian|british|english|irish|scottish|welsh|american|indian|polish|"
                         r"from|a|an|the|me|him|her|them|there|well|great|awesome|bored|tired|stuck|broke|old|young|"
                         r"everyone|anyone|someone|anybody|somebody|everybody|nobody|nothing|anything|people|this|that|it|what|who|how|why|"
                         r"when|where|all|both|"
                         r"guy|girl|man|woman|dude|mum|mom|dad|boss|user|student|teacher|nurse|doctor)$")
"""What follows "i am" in a lowercase message and is no name: a state, a nationality, a word of the language."""


def capitalise_lowercase_name(text: str) -> str:
    """A message typed all in lowercase that introduces the user ("hi! i am marta, phd student…", "vikram here, 31"):
    the name capitalised, as the rest of the write path reads names ("vikram here" reads "I'm Vikram")."""
    if re.search(r"[A-Z]", text):
        return text

    def capital(match: re.Match[str]) -> str:
        if _NOT_A_NAME.search(match.group(2) or match.group(4)):
            return match.group(0)
        if match.group(2):
            return f"{match.group(1)}{match.group(2).capitalize()}"
        return f"{match.group(3)}I'm {match.group(4).capitalize()}"  # "vikram here" introduces Vikram
    return _LOWER_INTRO.sub(capital, text, count=1)


def normalise(text: str) -> str:
    text = capitalise_lowercase_name(text)
    for pattern, standard in INFORMAL:
        text = re.sub(pattern, standard, text)
    text = _SHORT_DAY.sub(lambda m: f"{m.group(1)} {_DAYS[m.group(2).lower()]}", text)
    text = _ME_AND.sub(lambda m: f"{m.group(1)}{m.group(2)[:1].upper()}{m.group(2)[1:]} and I", text)
    return text.replace("本人", "我")


_NAMED_NEXT = re.compile(r"^\s*(?:(?:his|her|its|their) name(?:'s| is| was)|(?:we've|we have|we|they've|they|i've|i) "
                         r"(?:called|named) (?:him|her|it|them)|(?:he|she|it)(?:'s| is) called|(?:he|she) goes by)"
                         r"\s+((?-i:[A-Z][a-z]+))\b[\s,.!]*(.*)$", re.IGNORECASE | re.DOTALL)
_INTRODUCES = re.compile(r"\b(?:someone|somebody|(?:a|an|new)\s+(?:new\s+|little\s+|baby\s+|rescue\s+)?[a-z]+)"
                         r"(\s+(?:today|yesterday|last (?:week|night|weekend)|this (?:week|morning|weekend)|at last|"
                         r"finally|on (?:mon|tues|wednes|thurs|fri|satur|sun)day))?\s*[.!]*\s*$", re.IGNORECASE)


def with_next_name(sentences: list[str]) -> list[tuple[str, str]]:
    """Each sentence as said and as read, a name given in the next sentence joined to whom it names: "I'm
    seeing someone! His name's Leo, we met at uni." reads "I'm seeing someone called Leo, we met at uni.";
    "We got a puppy! Her name is Bella." reads "We got a puppy called Bella."; "Got a kitten today. We've
    called her Mabel." reads "Got a kitten called Mabel today." The naming sentence is not read again."""
    read: list[tuple[str, str]] = []
    skip = False
    for index, sentence in enumerate(sentences):
        if skip:
            skip = False
            continue
        following = sentences[index + 1] if index + 1 < len(sentences) else ""
        named = _NAMED_NEXT.match(following)
        introduced = _INTRODUCES.search(sentence) if named else None
        if named and introduced:
            rest = named.group(2).strip()
            when = introduced.group(1) or ""  # "Got a kitten today. We've called her Mabel": the kitten called Mabel
            said = sentence[:introduced.start(1)] if when else sentence.rstrip(" .!")
            joined = f"{said} called {named.group(1)}{when}" + (f", {rest}" if rest else ".")
            read.append((sentence, joined))
            skip = True
        else:
            read.append((sentence, sentence))
    return read


_QUESTION_TAIL = re.compile(
    r"(?:,|;|\s-|\s–|\s—)?\s+(?:(?:so|but|and|now)\s+)?(?:"
    r"(?:what|how|where|when|why)\s+(?:do|does|did|should|shall|can|could|would|will)\s+(?:i|we|you|it|they|a|an|the|"
    r"my|our|that|this|he|she)\b|how (?:much|many|long|often|far)\b|which (?:one|of)\b|"
    r"any (?:idea|ideas|tips|advice|thoughts)\b|do you (?:know|think|reckon|have)\b|what do you think\b|"
    r"(?:should|can|could|shall) (?:i|we)\b|is (?:it|that|this) (?:ok|okay|normal|worth|true|bad|safe)\b"
    r").*$",
    re.IGNORECASE,
)
"""A question asked at the end of a statement ("We're off to Spain in May, so how much cash should I take?", "I'm
the daddy so what does a wedding run these days"): the statement is told, the question only asked."""
_TAG_QUESTION = re.compile(r"(?:,|;|\s-|\s–|\s—)\s*(?:[^\s,;?]+\s+){0,5}[^\s,;?]+\s*\?+[\s!?.]*$")
"""A few words asked after a statement, whatever they are ("had an interview with Tarawera, think it went ok??",
"Started at Fernway last week, is that mad?", "we're moving to Leeds, wish me luck?")."""


def question_tail(sentence: str) -> int | None:
    """Where the question a statement ends on begins ("We're off to Spain in May, so how much cash should I take?";
    "我上个月体检血糖有点高，医生说是糖尿病前期，年夜饭我要注意些啥子？"), or None: no question there, a question
    alone ("How much should I take?"), or too little said before it to be a statement."""
    if has_cjk(sentence):
        return _chinese_question_tail(sentence)
    cut = _QUESTION_TAIL.search(sentence) or _TAG_QUESTION.search(sentence)
    if cut is None:
        return None
    joined = re.match(r"(?:,|;|\s-|\s–|\s—)|\s+(?:so|but|and|now)\s", cut.group(0), re.IGNORECASE)
    if not joined and not sentence.rstrip().endswith("?"):
        return None  # "I know exactly how much it costs": a statement about a question, not one asked
    head = sentence[:cut.start()]
    if len(re.findall(r"[A-Za-z']+", head)) < 3 or re.match(r"^\s*(?:what|who|where|when|why|how|which|do|does|did|is|are|"
                                                             r"can|could|would|should)\b", head, re.IGNORECASE):
        return None
    return cut.start()


_CN_ASKING = re.compile(r"吗|呢|啥|什么|怎么|咋|哪|几(?![十百千万])|多少|是否|要不要|能不能|可不可以|好不好|行不行|"
                        r"^\s*(?:你|请问|帮我|麻烦)")
"""A phrase that asks: a question word or particle, or one addressed to the assistant (你帮我看下…)."""
_CN_ENDS_ASKING = re.compile(r"[？?]\s*$|(?:吗|呢|啥子|什么|多少)[。！!]?\s*$")


def _chinese_question_tail(sentence: str) -> int | None:
    if not _CN_ENDS_ASKING.search(sentence):
        return None
    start = 0
    for part in re.split(r"(?<=[，,；;])", sentence):
        if _CN_ASKING.search(part):
            if not start:
                return None  # it asks from its first phrase ("你帮我看下，八个人吃，做几个菜合适？")
            head = sentence[:start]
            return start if len(re.findall(r"[\u4e00-\u9fff\d]", head)) >= 5 else None
        start += len(part)
    return None


def told_before_question(sentence: str) -> str | None:
    """The statement before a question a sentence ends on (see `question_tail`), as it was said, or None."""
    cut = question_tail(sentence)
    return None if cut is None else sentence[:cut].rstrip(" ,;-–—，；")


def without_question_tail(sentence: str) -> str:
    """The statement before a question a sentence ends on, made a sentence, or the sentence as it was."""
    head = told_before_question(sentence)
    if head is None:
        return sentence
    return head + ("。" if has_cjk(head) else ".")


def strip_markers(sentence: str) -> str:
    """The sentence without discourse openers and headline labels ('Quick update: …')."""
    previous = None
    while previous != sentence:
        previous = sentence
        sentence = _MARKER.sub("", sentence)
        sentence = _CN_MARKER.sub("", sentence)
        headline = _HEADLINE.match(sentence)
        if headline and len(sentence) - headline.end() > 8:
            label = sentence[:headline.end()]  # "Quick update:" goes; "Ukulele update:" names what it is about
            sentence = sentence[headline.end():] if _EMPTY_LABEL.match(label) else sentence
    sentence = sentence.strip()
    return sentence[:1].upper() + sentence[1:] if sentence[:1].islower() and sentence[:2] != "i " else sentence


RELATIVE_WORDS = (
    "wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|son|daughter|brother|sister|mum|mom|mother|dad|father|"
    "grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|friend|best friend|colleague|boss|manager|"
    "neighbour|neighbor|stepson|stepdaughter|grandson|granddaughter|flatmate|housemate|eldest|youngest|oldest|"
    "lad|lass|boy|girl|kid|wee one|little one|other half|hubby|missus|stepdad|stepmum|stepmom|nan|nana|gran|granny|"
    "grandad|granddad|niece|nephew|mother-in-law|father-in-law|sister-in-law|brother-in-law|mam|folks"
)

_ME_AND = re.compile(rf"^(\s*)me and ((?:my|our) (?:\w+ )?(?:{RELATIVE_WORDS})|(?-i:[A-Z])[a-z]+)\b", re.IGNORECASE)
"""'Me and my wife have two dogs' → 'My wife and I have two dogs'."""
_PAIR_SUBJECT = re.compile(r"^\s*((?-i:[A-Z][a-z]+) and (?:I|me))\s+(.+)$", re.IGNORECASE)
_INTRODUCTION = re.compile(r"^\s*((?i:i'?m|i am) [A-Z][a-z]+),\s+((?i:an?|the) .+)$")
"""'I'm Aigerim, a vet in Almaty' introduces a name and then says something else: two clauses."""
def split_clauses(sentence: str) -> list[str]:
    """A compound statement as self-contained clauses, each with a subject.

    "My name is Dougal and I work as an engineer" → two; "I live in Culloden and work at
    Caley Marine" → "I live in Culloden", "I work at Caley Marine". A part too short to
    stand alone keeps the sentence whole.
    """
    sentence = re.sub(r"\s{2,}", " ", sentence)  # a run of spaces says nothing, and costs the clause breaks dear
    introduction = _INTRODUCTION.match(sentence)
    if introduction:
        name, rest = introduction.groups()
        return [name, f"{name.split()[0]} {rest}" if name.lower().startswith("i'm") else f"I am {rest}"]
    pair = _PAIR_SUBJECT.match(sentence)  # "Sam and I have been together…": one subject, not two clauses
    if pair:
        rest = split_clauses(f"We {pair.group(2)}")
        return [f"{pair.group(1)} {rest[0][3:]}", *rest[1:]]
    parts = [p.strip(" ,") for p in _clause_parts(sentence) if p and p.strip(" ,")]
    clauses: list[str] = []
    for part in parts:
        pieces = _ELLIPTIC.split(part)
        subject = _LEADING_SUBJECT.match(pieces[0]) or _SOMEONES_SUBJECT.match(_owned_kin(pieces[0]))  # "My brother
        # got a new job and moved to Leeds": he moved, not the user
        clauses.append(pieces[0])
        for piece in pieces[1:]:
            clauses.append(f"{subject.group(1)} {piece}" if subject else piece)
    clauses = [f"I {_lower_first(c)}" if _DROPPED_SUBJECT.match(c) or _DROPPED_PRESENT.match(c) else c for c in clauses]
    clauses = [_OWN_THING.sub("My ", _lower_first(c), count=1) if _OWN_THING.match(c) else c for c in clauses]
    clauses = [_NEW_THING.sub("I have a new ", c, count=1) for c in clauses]
    clauses = [_owned_kin(c) for c in clauses]
    clauses = [f"I'm {_lower_first(c)}" if _DOING.match(c) or _ON_THE_WAY.match(c) else c for c in clauses]
    clauses = [_BEEN.sub("I've been ", _said_of_oneself(c), count=1) for c in clauses]
    return _merge_short([without_hedge(c) for c in clauses])


_HEDGE_TAIL = re.compile(r"(?:[,\s]+(?:i (?:guess|suppose|think|reckon|believe)|tbh|ngl|honestly|lol|lmao|haha+|hehe+|btw|"
                         r"by the way|fyi|just so you know|innit|"
                         r"though|i mean|or something|or whatever))+\s*([.!?]*)\s*$", re.IGNORECASE)
"""A hedge or a laugh at the end of a clause ('…so pescatarian now I suppose', '…he's fine I guess lol')."""


_ASIDE_TAIL = re.compile(r",\s*(?:he|she|it|they|that|which)(?:'s|'re| is| are| was| were| seems?| looks?)\s[^,]*$",
                         re.IGNORECASE)
"""A comment on someone just named, at the end of a sentence ("…my manager till next year, he's fine I guess")."""


def without_aside(sentence: str) -> str:
    """The sentence without a closing comment on whom it named: a doubt there ("he's fine I guess") is about
    that person, not about the fact before it."""
    return _ASIDE_TAIL.sub("", sentence)


def without_hedge(clause: str) -> str:
    """The clause without the hedge it ends on, which is the speaker's manner, not the fact."""
    head, tail = clause[:-80], clause[-80:]  # a hedge is a few words: only the clause's end is looked at
    trimmed = head + _HEDGE_TAIL.sub(r"\1", tail)
    return trimmed if _substantial(trimmed) else clause


_NAME_BEFORE = re.compile(rf"(?:^|[,;:]\s*|\b(?:tbh|so|but|and|because|now|then)\s+)(?:(?-i:[A-Z][a-z]+)|(?:my|our) (?:\w+ )?"
                          rf"(?:{RELATIVE_WORDS}))$", re.IGNORECASE)
"""The first of a pair subject, opening its clause ("…tbh, Dan and I broke up", "My wife and I have two dogs");
not a name that ends another clause ("My name is Ana and I live in Porto")."""
_PAIR_VERB = re.compile(r"i (?:broke up|split up|separated|got (?:married|engaged|divorced)|(?:have|'ve) been (?:together|"
                        r"married|dating|seeing)|met|are|were|have|'ve got|own|run|share|live)\b", re.IGNORECASE)


_LABEL = re.compile(r"^\s*(?!.*\b(?:i|i'm|i've|we|my|our|is|are|was|were|am|have|has|had|will|can|got|get|\w+ed|\w+ing)\b)"
                    r"(?:[\w'-]+\s+){0,5}[\w'-]+\s*$", re.IGNORECASE)
"""A few words with no verb and no one in them: the label of what follows a dash."""


def _clause_parts(sentence: str) -> list[str]:
    """The sentence cut at each clause break, except "<Name> and I" in mid-sentence: one subject, a pair
    ("…tbh, Dan and I broke up after nine years")."""
    parts, start = [], 0
    for match in _CLAUSE_BREAK.finditer(sentence):
        if (match.group(0).strip().lower() == "and" and _NAME_BEFORE.search(sentence[:match.start()])
                and _PAIR_VERB.match(sentence[match.end():])):
            continue
        if match.group(0).strip() in "-–—" and _LABEL.match(sentence[start:match.start()]):
            continue  # "Change of plan for answers — one short paragraph": the label is what follows it
        parts.append(sentence[start:match.start()])
        start = match.end()
    parts.append(sentence[start:])
    return parts


def _owned_kin(clause: str) -> str:
    """'Mum runs a flower shop' → 'My mum runs a flower shop': kin named bare are the user's."""
    opening = _BARE_KIN_OPENING.match(clause)
    return f"My {_lower_first(clause[opening.end():])}" if opening else clause


def _lower_first(clause: str) -> str:
    """A clause's first letter in lower case, to go on after "I" or a comma; a shouted word stays as it
    was ("GOT IT!!!" must not become "gOT IT!!!")."""
    word = clause.split(maxsplit=1)[0] if clause.strip() else ""
    if len(word) > 1 and word.isupper():
        return clause
    return clause[:1].lower() + clause[1:]


def _substantial(clause: str) -> bool:
    """Three words, three Chinese characters, or a subject and its verb ("Gareth retired")."""
    return (len(clause.split()) >= 3 or bool(re.search(r"[\u4e00-\u9fff]{3}", clause))
            or bool(re.match(r"^(?:I'm|I am)\s+(?-i:[A-Z][a-z]+)\W*$", clause))  # "I'm Lotte, I live in Ghent"
            or bool(re.match(r"^(?:I|we|(?-i:[A-Z][a-z]+))\s+[a-z]{3,}\W*$", clause, re.IGNORECASE)))


def _merge_short(clauses: list[str]) -> list[str]:
    """A part too short to stand alone ("I'm 34", "so I do") rides with its neighbour; the others stay apart."""
    merged: list[str] = []
    for clause in clauses:
        if merged and (not _substantial(clause) or not _substantial(merged[-1])):
            rest = clause if re.match(r"I\b", clause) else _lower_first(clause)
            merged[-1] = f"{merged[-1].rstrip(' ,')}, {rest}"
        else:
            merged.append(clause)
    return merged


_NAME = r"(?-i:(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Miss)\.?\s+)?[A-Z][a-z]+)"
"""A person's name as a referent keeps its title: "my boss Dr. Marat", never "my boss Dr"."""
_REFERENT = re.compile(r"\b(?:my|our) (?:\w+ )?(?:" + RELATIVE_WORDS + r"),? " + _NAME + r"\b", re.IGNORECASE)
_NAMED_AS = re.compile(r"\b((?:my|our) (?:\w+ )?(?:" + RELATIVE_WORDS + r"))(?:'s| is)(?: called| named)? "
                       r"(" + _NAME + r")\b", re.IGNORECASE)
_IS_MY = re.compile(r"\b(" + _NAME + r")(?:'s| is) (?:my|our) ((?:\w+ )?(?:" + RELATIVE_WORDS + r"))\b", re.IGNORECASE)
_STATE = ("married|engaged|divorced|separated|widowed|retired|adopted|qualified|employed|unemployed|self-employed|based|"
          "located|called|named|related|interested|obsessed|worried|scared|excited|tired|bored|stressed|exhausted|"
          "involved|convinced|annoyed|devastated|gutted|thrilled|delighted|pleased|shocked|depressed|vaccinated|ashamed|"
          "embarrassed|frustrated|relieved|overwhelmed|confused|disappointed|surprised|amazed|impressed|fed|pissed|"
          "hospitali[sz]ed|injured|allergic|supposed|used|booked|sorted|settled|closed|licensed|registered|signed up")
"""Participles that say what someone is ("He's married", "She's retired"), not what they have done."""
_HAS_DONE = re.compile(rf"^(?:he|she)'s\s+(?=(?:just\s+|already\s+|never\s+|finally\s+|also\s+)?"
                       rf"(?!(?:{_STATE})\b)(?:[a-z]+ed|been|got|gone|had|done|made|taken|seen|given|written|broken|left|"
                       rf"lost|found|become|begun|run|won|kept|told|bought|sold|met|spent|paid|quit|put|read)\s)")
"""'s before what someone has done ("He's missed two dinners", "She's moved to Leeds"): has, not is."""
_PRONOUN = (
    (_HAS_DONE, "{} has "),
    (re.compile(r"^(?:he|she)(?:'s| is)\s+(?!been\b|got\b)"), "{} is "), (re.compile(r"^(?:he|she)'s\s+"), "{} has "),
    (re.compile(r"^(?:he|she)\s+"), "{} "), (re.compile(r"^(?:his|her)\s+"), "{}'s "),
)
"""A sentence that opens with he/she/his/her continues the person just introduced."""

_FEMALE = ("wife|girlfriend|fianc[eé]e|daughter|sister|mum|mom|mother|mam|grandma|grandmother|nan|nana|gran|granny|aunt|"
           "niece|stepdaughter|granddaughter|lass|girl|missus|stepmum|stepmom|mother-in-law|sister-in-law")
_MALE = ("husband|boyfriend|fianc[eé]|son|brother|dad|father|grandpa|grandfather|grandad|granddad|uncle|nephew|stepson|"
         "grandson|lad|boy|hubby|stepdad|father-in-law|brother-in-law")
_ONE_RELATIVE = re.compile(r"^(?:(?:my|our)\s+)?(?:(?:older|younger|little|big|eldest|youngest|late|new|best)\s+)?"
                           r"(" + RELATIVE_WORDS + r")(?:'s\s+(?!(?:dog|cat|puppy|kitten|pup|horse|pony|rabbit|bird|"
                           r"hamster|parrot|baby|son|daughter|kid|boy|girl|wife|husband|partner|friend)\b)|\s+(?!and\b|&))",
                           re.IGNORECASE)
"""A sentence that opens on one unnamed relative ("My sister lives in Leeds", lowercase "mum's birthday 2 october"):
the one a following "she" is. Not a relative's pet or child ("my friend's dog"), nor two people ("my mum and dad")."""
_RELATIVE = re.compile(r"\b(?:" + RELATIVE_WORDS + r")\b", re.IGNORECASE)


def referent_of(sentence: str) -> str | None:
    """The person a sentence introduces ("My son Kai is seven" → "my son Kai"), for the next one's pronoun."""
    found = _REFERENT.findall(sentence)
    if found:
        return found[-1]
    named = _NAMED_AS.search(sentence)  # "My husband is Joaquin." → "my husband Joaquin"
    if named:
        return f"{named.group(1)} {named.group(2)}"
    mine = _IS_MY.search(sentence)  # "Dmitri's my husband." → "my husband Dmitri"
    if mine:
        return f"my {mine.group(2)} {mine.group(1)}"
    one = _ONE_RELATIVE.match(sentence)
    if one and _only_person(sentence, one.group(1)):
        return f"my {one.group(1).lower()}"
    return None


def _only_person(sentence: str, relative: str) -> bool:
    """Whether the relative a sentence opens on is the only relative it speaks of ("my mum rang my sister": no).
    Capitals are no sign of another person: "My sister lives in Leeds" names a place."""
    return all(m.group(0).lower() == relative.lower() for m in _RELATIVE.finditer(sentence))


def _fits(pronoun: str, referent: str) -> bool:
    """'she' continues "my sister", never "my dad"; a name or a word for either (partner, boss, friend) takes both."""
    female = re.search(rf"\b(?:{_FEMALE})$", referent, re.IGNORECASE)
    male = re.search(rf"\b(?:{_MALE})$", referent, re.IGNORECASE)
    if pronoun in ("she", "her"):
        return not male
    return not female


def pronoun_fits(pronoun: str, referent: str) -> bool:
    """Whether "he" or "she" can be the person a phrase names ("she" is never "my dad"; a name takes either)."""
    return _fits(pronoun.lower(), referent)


def with_referent(sentence: str, referent: str | None) -> str:
    """'His birthday is 2 March' after 'My son Kai…' → "My son Kai's birthday is 2 March"."""
    if not referent:
        return sentence
    for pattern, shape in _PRONOUN:
        match = pattern.match(sentence.lower())
        if match and _fits(re.match(r"\w+", match.group(0)).group(0), referent):
            named = shape.format(referent)
            return named[:1].upper() + named[1:] + sentence[match.end():]
    return sentence
