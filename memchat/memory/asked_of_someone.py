"""What a question asks about a named person, and whether a memory that names them says anything of it.

"What does Nomsa do for work?" over "My girlfriend Nomsa says I work too much": the memory names
Nomsa, and its words and its meaning are close to the question's, but it says nothing of her
work. Recall would select it and the model would answer from it. A question about someone's work,
age, birthday, surname, school, partner or home is answered by a memory that holds something of
that kind: an occupation, a number, a date, a second name, a school, a partner word, a place.
The test for "something of that kind" is deliberately generous ("Gwen is a midwife" is work;
any number answers an age): it only has to tell a passing mention from a statement about the
thing asked. The user's own doings ("Nomsa says the user works too much") are no evidence of hers.
Pure functions.
"""

from __future__ import annotations

import re

_MONTHS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
           r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?")
_NUMBER_WORDS = (r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|twenty|thirty|forty|fifty|"
                 r"sixty|seventy|eighty|ninety|hundred")

_OCCASIONS = (r"party|parties|present|gift|cake|dinner|meal|celebration|trip|plans?|do\b|bash|card|run|play|"
              r"concert|fete|reunion|holidays?|friends?|mates?")
"""What follows "birthday" or "school" when the question asks about an occasion or a thing, not the date or
the school ("When was Timur's birthday party?" asks about the party)."""

KINDS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    # (kind, how a question asks it, what a memory that holds something of it says), the first a question
    # asks wins: "When is Elsie's birthday?" is no age question, "What school does Finn go to?" no work one
    ("birthday", re.compile(rf"\b(?:birthday|bday)\b(?!\s*(?:{_OCCASIONS}))|\bborn\b|\bdate of birth\b|生日(?!派对|礼物|蛋糕|聚会)|"
                            r"哪天生|出生", re.I),
     re.compile(rf"\b(?:{_MONTHS})\b|\d(?:st|nd|rd|th)\b|\d{{1,2}}[/.-]\d{{1,2}}|\bbirthday\b|\bbday\b|\bborn\b|"
                r"\bturn(?:s|ed|ing)\b|\bday\b|\b(?:christmas|new year|easter|halloween|valentine|hogmanay)|生日|\d+月|号",
                re.I)),
    ("surname", re.compile(r"\bsurname\b|\blast name\b|\bfamily name\b|\bmaiden name\b", re.I),
     re.compile(r"\bsurname\b|\blast name\b|\bfamily name\b|\bnée\b|\bnee\b", re.I)),
    ("school", re.compile(rf"\b(?:school|nursery|kindergarten|college|uni(?:versity)?)\b(?!\s*(?:{_OCCASIONS}))", re.I),
     re.compile(r"\bschool|\bprimary\b|\bacademy\b|\bcollege\b|\bnursery\b|\bkindergarten\b|\buni(?:versity)?\b|"
                r"\bclass\b|\bteacher\b|\byear \d|\bgrade\b|\bstudy|\bstudies\b|\bstudent\b|学校|小学|中学|幼儿园|大学", re.I)),
    ("partner", re.compile(r"\bmarried\b|\bdating\b|\bboyfriend\b|\bgirlfriend\b|\bpartner\b|\bwife\b|\bhusband\b|"
                           r"\bseeing (?:anyone|someone)\b|\bsingle\b|\bin a relationship\b", re.I),
     re.compile(r"\bwife\b|\bhusband\b|\bpartner\b|\bgirlfriend\b|\bboyfriend\b|\b[gb]f\b|\bmarried\b|\bengaged\b|"
                r"\bwedding\b|\bfianc|\bdating\b|\bseeing\b|\bsingle\b|\bdivorced\b|\bwidow|\btogether\b|老婆|老公|"
                r"对象|男朋友|女朋友|结婚", re.I)),
    ("age", re.compile(r"\bhow old\b|\bwhat age\b|\bage\b|多大岁数|多大年纪|年纪多大|多少岁|几岁|岁数|(?<!有)多大了", re.I),
     re.compile(rf"\d|\b(?:{_NUMBER_WORDS})|\bage\b|\bturn(?:s|ed|ing)\b|\bborn\b|\byears? old\b|\bbaby\b|\btoddler\b"
                r"|\bteen|\bretired\b|岁|大寿|[一二两三四五六七八九十]{2,}", re.I)),
    ("work", re.compile(r"\bwork\b|\bjob\b|\bfor a living\b|\bprofession\b|\boccupation\b|\bcareer\b|\bemploy", re.I),
     re.compile(r"(?<!user )\b(?:works|working|worked)\b|\bjob\b|\bcareer\b|\bprofession|\boffice\b|\bcompany\b|\bfirm\b|\bshift|\bboss\b|"
                r"\bmanager\b|\bcolleague|\bretired\b|\bunemployed\b|\bstudent\b|\bteach|\bruns\b|\bowns\b|"
                r"\b(?:drives|codes|designs|nurses|cooks|builds|sells|manages|trains|cleans|fixes|writes|serves)\b|"
                r"(?:'s|’s|\bis) (?:at|in|with|for) (?-i:[A-Z])|"
                r"\b(?:is|was|'s|’s|as) an? (?!lot\b|bit\b|few\b|little\b)\w+|上班|工作", re.I)),
    ("home", re.compile(r"\bwhere (?:does|do|did) \w+(?: \w+)? (?:live|stay)\b|\bwhere(?:'s| is) \w+(?: \w+)? (?:living|"
                        r"staying|based)\b|\blives?\b.*\bwhere\b|\baddress\b", re.I),
     re.compile(r"\bliv(?:e|es|ed|ing)\b|\bmoved\b|\bhouse\b|\bflat\b|\bhome\b|\baddress\b|\bbased\b|\bfrom\b|"
                r"\bin (?-i:[A-Z])\w+|住|搬|老家", re.I)),
)


_EVIDENCE = {kind: says for kind, _, says in KINDS}


def asked_kind(question: str) -> str:
    """The kind of thing a question asks about the person it names, or "" (it asks who they are)."""
    return next((kind for kind, asks, _ in KINDS if asks.search(question)), "")


def says_no_age(content: str) -> str:
    """An age question about anyone ("How old is my daughter?", "我妈多大岁数了？") is answered only by a memory
    that holds a number or an age word; "Mild asthma since the user was a kid" holds neither."""
    return "" if _EVIDENCE["age"].search(content) else "says no age"


_QUANTITY_ASKED = re.compile(r"\bhow (?:many|much|long)\b|\b(?:what|which) year\b|几个|几只|几条|几辆|几套|几次|多少|"
                             r"几年|哪一?年|多久|多长时间", re.IGNORECASE)
_QUANTITY_GIVEN = re.compile(rf"\d|\b(?:{_NUMBER_WORDS}|dozen|couple|few|several|twice|once|half|since|ages|both|"
                             r"only child|none|no (?:kids|children))\b|[一二两三四五六七八九十百千万半几]|好多|不少", re.IGNORECASE)


def asks_a_quantity(question: str) -> bool:
    """"How many grandchildren do I have?", "What year did we marry?", "我有几个孙子？": the answer is a number."""
    return bool(_QUANTITY_ASKED.search(question))


def says_no_quantity(content: str) -> str:
    """A question for a number is answered only by a memory that holds one — a figure, a number word, "a couple",
    "since 2019" — not by "The user's son Michael is an engineer in Tucson" for "How many children does Michael
    have?"."""
    return "" if _QUANTITY_GIVEN.search(content) else "says no number"


_NAME_ASKED = re.compile(r"\b(?:first |full |real )?name\b|\bcalled\b|叫什么|叫啥|名字", re.IGNORECASE)
_NAME_GIVEN = re.compile(r"\bname\b|\bcalled\b|\bnamed\b|叫|名字|姓", re.IGNORECASE)
_NOT_A_NAME = re.compile(rf"(?:The|I|I'm|I've|My|Our|OK|Mum|Mom|Mam|Dad|Gran|Nan|(?:{_MONTHS})|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$", re.IGNORECASE)


def asks_a_name(question: str) -> bool:
    return bool(_NAME_ASKED.search(question))


def says_no_name(content: str) -> str:
    """A question for someone's name ("What's my mum's first name?", "我哥叫什么？") is answered only by a memory
    that gives a name: a capitalised word inside the sentence, or a naming word ("called", 叫). "The user's mum
    runs a flower shop" gives none."""
    if _NAME_GIVEN.search(content):
        return ""
    if re.search(r"[a-z]", content) and not re.search(r"[A-Z\u4e00-\u9fff]", content):
        return ""  # one who writes no capitals writes no name with one ("dads bday is in june. rafael.")
    words = re.findall(r"(?:^|(?<=[\s(,]))[A-Z][a-zà-ÿ]+", content)
    return "" if any(not _NOT_A_NAME.match(w) for w in words) else "gives no name"


def says_nothing_of(kind: str, name: str, content: str) -> str:
    """"says nothing of the work asked of Nomsa": a memory that holds nothing of the kind asked about the person
    the question names. Whether it is about them at all is `recall.not_about`'s call ("took the kids to
    uShaka" may be about Zanele; it says nothing of her birthday). Empty when it holds something of the kind,
    or nothing particular is asked. A surname is the name followed by another ("Priyanka Shah")."""
    if not kind or not name:
        return ""
    if _EVIDENCE[kind].search(content):
        return ""
    if kind == "surname" and re.search(rf"\b{re.escape(name)}\s+(?-i:[A-Z])[a-z]+", content):
        return ""
    return f"says nothing of the {kind} asked of {name}"


_NOT_AN_AGE = r"(?!\s*(?:am|pm|%|:|/|\.\d|kg|km|k\b|mins?|minutes|hours|days|weeks|months|miles|quid|pounds|grand|times|x\b))"


def stated_age(name: str, content: str) -> int | None:
    """The age a memory gives the named person: "Sipho is 8", "Sipho turned 9", "Leo's 7 now", "Pat's 90th
    birthday", "Zanele (12)", "our 6-year-old Leo"; None when it gives none."""
    person = re.escape(name)
    shapes = (
        rf"\b{person}(?:'s|’s| is| was| turned| turns| has turned| just turned| will be|,)\s+(?:now |just |already "
        rf"|nearly |almost )?(\d{{1,3}}){_NOT_AN_AGE}(?:\s|[,.!;)]|$)",
        rf"\b{person}(?:'s|’s) (\d{{1,3}})(?:st|nd|rd|th) birthday",
        rf"\b{person} \((\d{{1,3}})\)",
        rf"\b(\d{{1,3}})[- ]year[- ]old (?:\w+ )?{person}\b",
    )
    for shape in shapes:
        match = re.search(shape, content, re.IGNORECASE)
        if match:
            return int(match.group(1))
    return None
