"""The catalogue of personal slots: what a statement is about, and whether a new value replaces the old.

One row per slot: its name, the kind of memory it makes, whether it holds one value
(a new one supersedes the old: home, employer, manager) or many (children, allergies,
hobbies: a new one is added beside the others, and only an explicit change or
retirement — "I sold my ukulele", "switched to Korean" — retires one), the English
and Chinese patterns that recognise it (one per line), the words a *question* uses
to ask for it (the recall's attribute route), and examples that double as tests.
Order matters: the first slot whose pattern matches a clause wins, so specific rows
come before generic ones. Pure data plus two small lookups.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from memchat.memory.timeexpr import MONTH_WORDS


@lru_cache(maxsize=4096)
def without_accents(text: str) -> str:
    """Latin letters without their accents ("bodhrán" → "bodhran"); Chinese and everything else as it is. Cached:
    every slot's `matches` asks it of the same clause."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@dataclass(frozen=True)
class Slot:
    name: str
    kind: str
    multi: bool
    en: tuple[str, ...]
    zh: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()
    """Generic words (stems) or Chinese strings a question uses for this slot: "where do I live" → home.
    Only generic ones: "my cat?" must not count as asking for the dog the user has."""
    examples: tuple[str, ...] = ()
    question: str = ""
    """How a person asks for it: embedded with the memory, so a question finds the answer it asks for."""
    needs: tuple[str, ...] = ()
    """Shapes of which one must also match: a relation slot wants the person named or described
    ("my mum Saule", "my son is five"), not merely mentioned ("my mum keeps asking")."""
    unless: tuple[str, ...] = ()
    """Shapes that say it is something else: "the meeting moved to Friday" is a new time, not a new home."""
    patterns: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)
    required: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)
    vetoes: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)

    def matches(self, text: str) -> bool:
        text = without_accents(text)  # "the bodhrán", "a café": the catalogue spells them bare
        if not any(p.search(text) for p in self.patterns) or any(p.search(text) for p in self.vetoes):
            return False
        return not self.required or any(p.search(text) for p in self.required)


_INSTRUMENTS = r"guitar|piano|violin|fiddle|cello|drums?|bass|ukulele|accordion|flute|saxophone|sax|trumpet|harp|" \
               r"dombra|banjo|mandolin|clarinet|keyboard|bodhran|whistle|harmonica|organ|charango|sitar|tabla|erhu|guzheng|" \
               r"bagpipes|oboe|bassoon|trombone|tuba|viola|double bass|synth|lute|kora|djembe|marimba|xylophone|" \
               r"concertina|melodeon|cuatro"
_LANGUAGES = r"english|french|spanish|german|italian|portuguese|dutch|russian|kazakh|turkish|korean|japanese|" \
             r"chinese|mandarin|cantonese|arabic|hindi|gaelic|irish|welsh|polish|swedish|norwegian|danish|finnish|" \
             r"greek|hebrew|vietnamese|thai|indonesian|swahili|twi|yoruba|latin|czech|hungarian|ukrainian"

_NOT_MODIFIERS = r"of|the|for|to|with|and|at|in|on|my|your|his|her|their|our|like|from|fan|friend|mate|big|huge"
"""Words that do not make a job title longer ("a fan of the vet" is no vet; "a junior UX researcher" is)."""

_WORK_AREAS = (r"accounts|accounting|payroll|bookkeeping|books|admin|marketing|hr|human resources|pr|social media|logistics|"
               r"recruitment|recruiting|sales|procurement|compliance|tech support|it support|customer service|"
               r"customer support|finance|retail|tech|insurance|construction|hospitality|healthcare|education|banking|"
               r"advertising|publishing|real estate|property|consulting|consultancy|software|pharma|manufacturing|"
               r"aviation|catering|journalism|telecoms|engineering|research|social care|fundraising|events|security")
"""What people say they work in or do for someone ("I'm in insurance", "I do the payroll for a care home")."""

JOB_TITLES = (
    r"vet|nurse|teacher|engineer|developer|doctor|designer|lawyer|accountant|architect|chef|student|"
    r"researcher|pharmacist|artist|programmer|manager|consultant|mechanic|electrician|driver|writer|"
    r"journalist|scientist|analyst|technician|guide|farmer|builder|plumber|dentist|therapist|"
    r"physiotherapist|paramedic|midwife|pilot|firefighter|police officer|librarian|carpenter|welder|"
    r"barista|waiter|waitress|cashier|receptionist|surgeon|postman|cleaner|translator|photographer|tutor|"
    r"lecturer|professor|solicitor|optician|social worker|care worker|carer|bus driver|courier|baker|"
    r"butcher|coordinator|officer|assistant|specialist|supervisor|administrator|advisor|adviser|operator|"
    r"inspector|planner|clerk|secretary|executive|director|instructor|coach|hairdresser|paralegal|"
    r"dispatcher|surveyor|geologist|biologist|chemist|economist|editor|producer|animator|illustrator|"
    r"joiner|labourer|roofer|decorator|gardener|landscaper|nanny|childminder|caretaker|flight attendant|"
    r"recruiter|banker|broker|actuary|auditor|bookkeeper|machinist|radiographer|sonographer|"
    r"support worker|youth worker|vicar|priest|imam|rabbi|sparky|sparkie|chippy|brickie|plasterer|"
    r"scaffolder|tradie|bartender|dev|software dev|web dev|coder|bin man|binman|lorry driver|trucker|"
    r"hgv driver|cabbie|uber driver|delivery driver|rider|tattooist|tattoo artist|porter|hygienist|"
    r"estate agent|data scientist|civil servant|teaching assistant|cook|shop assistant|sales assistant"
)
"""What people say they are at work ("a nurse", "a sparky"): the job slot, and a role said alone (speech)."""

_AGE_WHEN = (r"(?:now|today|yesterday|this year|next (?:week|month|year)|last (?:week|month)|on (?:mon|tues|wednes|thurs|"
             rf"fri|satur|sun)day|in (?:{MONTH_WORDS})\w*)")
"""When an age is or was reached ("I'm 34 now", "turned 40 in March"): "I'm 5 in line" is no age."""

ROLE_AT = (rf"^(?:(?:i'?m|i am)\s+(?:now\s+)?(?:an?\s+|the\s+)?)?(?:(?:senior|junior|head|lead|chief|deputy|assistant|trainee|graduate|staff|principal)\s+)?(?:[\w-]+\s+){{0,2}}"
           rf"(?:{JOB_TITLES}|lead|head)\s+(?:at|with)\s+(?:the\s+)?(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*){{0,3}}"
           r"(?:,?\s+(?:now|these days|from (?:monday|next week|next month)))?\s*[.!]*$")
"""A role and a workplace with no verb ("Data lead at Fernway Bank.", after "Got the offer!!"): the user's new job."""

_CAR_MAKES = (r"honda|ford|vw|volkswagen|nissan|bmw|audi|mercedes|skoda|renault|peugeot|fiat|hyundai|mazda|volvo|"
              r"vauxhall|opel|subaru|lada|suzuki|citroen|citroën|seat|dacia|mini cooper|fiesta|focus|golf|polo|corsa|"
              r"civic|corolla|yaris|clio|jazz|prius|leaf|qashqai|octavia|niva|hilux|ranger|transit")
"""Car makes and everyday models: "Traded the Fiesta in for a Honda Jazz" is about the car."""

_DESCRIBED = (
    r"\b(?:[a-z]+)s?,? (?:[A-Z][a-z]+\b|is\b|are\b|was\b|were\b|lives\b|live\b|works\b|work\b|called\b|named\b|"
    r"turned\b|just\b|now\b|has\b|have\b|'s\b|studies\b|started\b|who\b|aged\b|named\b|"
    r"(?:still |also )?(?:teaches|drives|runs|owns|plays|speaks|sings|coaches|manages|sells|builds|fixes|repairs|writes|"
    r"paints|breeds|volunteers|cooks|bakes|rides|trains|designs|supports|loves|hates|adores|collects|grows|farms|"
    r"dances|knits|sews|keeps (?:bees|chickens|hens|horses|goats|pigs)|does (?:the|a|an|his|her|their)\b)\b)",
    r"\b[a-z]+'s (?:a|an|now|still|retired|from|in|at|\d+)\b",
    r"(?:叫|是|在|住|今年|[0-9一二两三四五六七八九十]+岁|工作|上班|读)",
    r"(?-i:[A-Z][a-z]+)(?:'s| is) (?:now )?(?:my|our) ",
)
"""A person named or described right after the relation word, or named right before it ("Sam's my partner"); described
also by what they do as a rule ("My wife teaches maths"), not by what they happen to say ("my mum keeps asking")."""

_PLACE = (r"(?i:\b(?:in|to|into|near|outside|from|at)\s+\w|\bkeys\b|\bhome is\b|\bhouse\b|\bflat\b|\bapartment\b|\baddress(?:'s| is)\s+\w)",
          r"(?:到|去|在|住|回)了?[^了！!。，,]{2,}|老家|定居")
"""A home statement names the place: "We relocated!" alone says nothing to keep."""

_MET_THERE = (r"\b(?:we|i|they) (?:first )?met (?:(?-i:[A-Z][a-z]+) |him |her |them |my \w+ )?(?:at|through|on|in|doing|during)\b"
              r"|\bmet (?:at|through) (?:a |the )?(?:\w+ )?(?:club|class)\b")
"""Where two people met ("we met at climbing", "met through the running club"): a story, not a pastime."""
_A_RUN_OF_WORK = (r"\b(?:a|the|another|supply|beer|milk|food|shopping|grocery|test|trial|dry|delivery|long) runs? "
                  r"(?:to|for|from|through|up|down|out)\b|\b(?:school|nursery|supply|beer|milk|shopping|grocery) runs?\b"
                  r"|\b(?:running|runs?|ran) (?![^.,;!?]*\b(?:\d+ ?k|marathons?|half|races?|parkrun|ultras?|fun run|miles?|"
                  r"km|club|track)\b)(?:it|them|this|that|errands|late|low|out|behind|around|things|the show|"
                  r"(?:a|an|the|my|our|his|her|their) \w+)\b")
"""A run that is no sport: a trip for work or an errand ("Tonya's got me on a run to Memphis", "the school run"), and
running something ("running it off an inverter", "running late", "runs a café") — not "running the London marathon"."""
_IN_A_VEHICLE = (r"\b(?:riding|ride|rides|rode|sitting|sat|sleeping|slept|stuck|trapped|crammed|squashed|cooped up|"
                 r"getting fat|in|inside|into|out of|behind|under) (?:a|an|the) (?:\w+ )?(?:car|van|truck|lorry|bus|taxi|cab|"
                 r"minivan|suv|jeep|pickup|pick-up)\b(?! (?:i|we) (?:own|have|bought|drive)\b)")
"""Being in a vehicle ("riding in a truck all day", "sat in a van for six hours", "a crash in a taxi") is no vehicle
the user has."""
_ANSWERING_THE_PHONE = r"\banswer(?:s|ed|ing)? (?:(?:the|her|his|my|their|its|your) )?(?:phone|door|calls?|emails?|texts?|messages?)\b"
"""Someone who answers their phone is no instruction on how the assistant should answer."""


_ROWS: tuple[Slot, ...] = (
    Slot("name", "fact", False,
         en=(r"\bmy name(?:'s|’s| is)\b", r"\b(?:i'?m|i am) called\b", r"\bcall me (?:(?-i:[A-Z])|(?=(?-i:[^A-Z])*$)(?!later|back|tomorrow|tonight|soon|now|maybe|sometime|crazy|mad|lazy|old|"
             r"when|if|after|before|anytime|whenever)[a-z]+\s*(?:[,.!]|$))", r"\beveryone calls me\b",
             r"^(?:i'?m|i am) (?-i:[A-Z][a-z]+)(?<!ish)(?<!ese)(?<!ian)\s*(?:[,.!]|$|and\b|here\b)"),
         zh=(r"我叫", r"我的名字"),
         asks=("name", "called", "call", "名字", "叫什么"),
         examples=("My name is Aigerim.", "我叫贺晓雯。"),
         question="What is my name?"),
    Slot("birthday", "fact", False,
         en=(r"\bbirthday\b", r"\bborn on\b"),
         zh=(r"生日", r"出生"),
         asks=("birthday", "born", "生日"),
         examples=("My husband's birthday is 9 October.", "我弟弟生日是5月3号。"),
         question="When is the birthday?"),
    Slot("age", "fact", False,
         en=(rf"^(?:i'?m|i am) (?:nearly |almost |just )?\d{{1,2}}(?: years old)?(?: {_AGE_WHEN})?\s*[.!]*$",
             rf"^(?:i )?(?:just )?turned \d{{1,2}}(?: {_AGE_WHEN})?\s*[.!]*$",
             rf"^i(?:'m| am)? (?:turn|turning) \d{{1,2}}(?: {_AGE_WHEN})?\s*[.!]*$"),
         zh=(r"^我(?:今年)?(?:已经|快|刚)?(?:\d{1,2}|[一二三四五六七八九十]{1,3})岁(?:了|半)?(?:[，。！!]|$)",
             r"^我今年(?:\d{1,2}|[一二三四五六七八九十]{1,3})了(?:[，。！!]|$)"),
         asks=("how old am i", "how old i am", "what's my age", "what is my age", "what age am i", "我多大", "我几岁", "我的年龄",
               "我今年多大"),
         examples=("I'm 34.", "I just turned 30 today.", "我今年二十八岁。"),
         question="How old am I?"),
    Slot("allergy", "fact", True,
         en=(r"\ballerg", r"\banaphyla", r"\bintoleran(?:t|ce)\b", r"\bco?eliac\b", r"\bhay ?fever\b"),
         zh=(r"过敏", r"不耐受"),
         asks=("allerg", "过敏"),
         examples=("I'm allergic to bee stings.", "我对芒果过敏。", "I'm lactose intolerant, so no regular milk.",
                   "My daughter is coeliac.", "我乳糖不耐受。"),
         question="What am I allergic to?"),
    Slot("diet", "preference", True,
         en=(r"\b(?:vegetarian|veggie|vegan|pescatarian|gluten|halal|kosher|lactose|dairy[- ]free|keto|paleo|low[- ]carb|"
             r"plant[- ]based|intermittent fasting|red meat)\b",
             r"\b(?:don'?t|do not|can'?t|cannot|no longer|never) (?:eat|drink)\b", r"\beating meat\b",
             r"\b(?:started|start|stopped|quit|began|back to|went back to|gone back to) (?:eating|having) (?:meat|fish|"
             r"chicken|pork|beef|lamb|dairy|eggs|seafood|red meat|sugar|carbs|gluten|bread)\b",
             # a food class eaten now or again is a diet changed ("i'm eating fish now", "I eat meat again")
             r"\b(?:i'?m|i am|i|we'?re|we) (?:\w+ly )?(?:eating|eat|having) (?:meat|fish|chicken|seafood|dairy|eggs|"
             r"red meat)\b(?=[^.!?]{0,20}\b(?:now|again|these days)\b)"),
         zh=(r"吃素", r"素食", r"不吃", r"忌口", r"不能吃", r"不喝", r"饮食", r"吃得?清淡", r"离不(?:得|开)辣", r"顿顿.{0,3}(?:辣|肉)",
             r"(?:辣椒|辣|肉|糖|甜食|油腻|海鲜|白酒|啤酒)(?:基本|都|也|早就)?戒了", r"戒(?:辣|糖|肉|甜食|油腻|海鲜)"),
         asks=("eat", "diet", "food", "vegetarian", "vegan", "吃", "忌口"),
         examples=("I'm vegetarian, so no meat for me.", "我不吃香菜。", "现在饮食改清淡了，辣椒基本戒了。", "我这个人顿顿离不得辣。",
                   "I'm eating fish now, still no meat though."),
         question="What do I eat or avoid eating?"),
    Slot("health", "fact", True,
         en=(r"\b(?:diagnos\w*|blood (?:pressure|sugar)|diabet\w*|asthma|arthritis|deficien\w*|migraines?|"
             r"cholesterol|physio(?:therapy)?|prescri\w*|medication|tablets|inhaler|injur\w*|(?:back|knee|hip) (?:pain|problem)s?|"
             r"(?<!at )(?<!by )(?<!the )heart(?! of\b| set\b|'s in\b|'s set\b)|thyroid|anxiety|depression|pregnan\w*|surgery on my|vitamin \w+|iron|doc(?:tor)? (?:says|said|found|told)|gp (?:says|said)|"
             r"colou?r ?blind|deaf|dyslexi\w*|adhd|autis\w*|epilep\w*|eczema|insomnia|sober|in recovery|gout|ulcers?|"
             r"an(?:a)?emi[ac]|ibs|crohn'?s|psoriasis|hypertension|kidney stones?|sciatica|tinnitus|hay ?fever|cancer|chemo\w*|"
             r"tumou?r|ptsd|ocd|bipolar|endometriosis|pcos|lupus|fibromyalgia|long covid|sleep apnoea|sleep apnea|"
             r"high cholesterol|(?:a |my )?bad (?:back|knee|hip|shoulder))\b",),
         zh=(r"血压", r"血糖", r"糖尿病", r"医生(?:说|让)", r"诊断", r"确诊", r"腰椎", r"色盲", r"失眠", r"哮喘", r"腰(?:间盘|疼|不好)", r"毛病", r"吃药", r"心脏", r"手术",
             r"痛风|胃病|胃炎|胃溃疡|贫血|颈椎|关节炎|抑郁|焦虑症|偏头痛|鼻炎|乙肝|甲亢|甲减|湿疹|结石|脂肪肝|高血脂|三高|癌|肿瘤|"
             r"骨折|近视|过敏性|风湿|痛经"),
         asks=("health", "doctor", "condition", "medic", "blood", "身体", "毛病", "病"),
         examples=("My doctor found I'm low on vitamin D.", "我有高血压。", "I've had gout since my forties.", "还有点痛风，海鲜啤酒都得少碰。"),
         question="What health conditions do I have?"),
    Slot("job", "fact", False,
         en=(r"\bwork(?:s|ing)? as\b", r"\bmy (?:job|profession|role|job title|title|position) is\b",
            r"\b(?:i'?ve been|i was|i got|i'?m being) (?:promoted to|appointed)\b",
            r"\bi (?:teach|lecture in|lecture|tutor) (?!(?:myself|me|him|her|them|my|our)\b)[a-z]+",
            r"\b(?:made|make|making|promoted|appointed) me (?:the |a |an )?(?:new )?(?:(?:head|senior|lead|chief|deputy|acting|"
            r"assistant|principal|junior|shift|team|store|area|branch|duty) )?(?:chef|manager|supervisor|lead|leader|editor|"
            r"engineer|nurse|teacher|developer|director|captain|foreman|officer|partner|coordinator|gardener|technician)\b",
            r"\b(?:i|we)(?:'ll| will| am|'m)? start(?:s|ing|ed)? (?:work |there |in \w+ |on \w+ |next \w+ )?as "
            r"(?!(?:an? |the )?(?:joke|usual|well|planned|soon|normal|always|before|expected)\b)(?:an? |the )?[a-z]+",
            r"\b(?:i'?m|i am|i'?ll be|i will be|i'?m going to be|i became|i'?ve become) "
             r"(?:(?:now|officially|finally|still|currently|technically|basically|actually|just) )?(?:a|an|the new|the) "
             r"(?!designated\b)"
             rf"(?:(?!(?:{_NOT_MODIFIERS})\b)[a-z-]+ ){{0,3}}(?:{JOB_TITLES})\b(?! tonight| today| tomorrow| this (?:weekend|evening|time)| for (?:the|my|our) (?:night|party|wedding|day|evening))",
             r"\bretir(?:ed|ing|e)\b(?! (?:itself|himself|herself|themselves|it|them)\b)",
             r"\b(?:i'?m|i am|i was|i got|i'?ve been|been) (?:employed|hired|taken on|contracted) (?:by [^,.!?]{2,40} )?as\b",
             rf"\bi (?:do|handle|look after|run|manage) (?:all )?(?:the )?(?:{_WORK_AREAS}) (?:for|at|in)\b",
             rf"\bi'?m in (?:{_WORK_AREAS}|(?-i:IT)|the (?:army|navy|air force|police|fire service|civil service|military))\b"
             r"(?! (?:mode|trouble|love|bed|town|hospital)\b)",
             r"\bi'?m (?:now )?(?:self-employed|self employed|a freelancer|freelancing)\b", r"\bi freelance (?:as|in|for|doing)\b",
             r"\b(?:i'?m )?an? stay-at-home (?:mum|mom|dad|parent)\b",
             rf"^(?:honestly,? |so,? |well,? |tbh,? )?being an? (?:[a-z]+ )?(?:{JOB_TITLES}) (?:means|is|has|isn't|can|keeps)\b",
             r"\b(?:i'?ve|i have|i|just) (?:just )?(?:qualified|qualify) as an?\b",
             r"\bi'?m (?:training|studying|retraining) (?:to be|as) an?\b",
             r"\bi (?:manage|run|lead|supervise|head up|head) (?:a|the|our) (?:small |tiny |big |whole )?(?:team|crew|department|"
             r"shift|ward|kitchen|store|branch|office|site|unit|squad|lab)\b",
             r"\b(?:my |the )?(?:job )?title on (?:my|the) (?:contract|badge|payslip|email signature|door) (?:now |literally |"
             r"officially |actually )?(?:says|reads|is)\b"),
         zh=(r"我是(?:一名|个)?.{0,6}(?:师|员|生|家|医生|护士)", r"当.{0,6}(?:师|员|护士)", r"退休",
             r"(?:职位|岗位|职务|头衔)(?:是|叫|变成了?|改成了?|升到了?)", r"升(?:职|成|为)了?", r"当上了?",
             r"(?:当|做|升)了?.{0,6}(?:组长|站长|店长|厂长|队长|主管|经理|主任|总监|领班)",
             r"(?:做|干)(?:一名|个)?[\u4e00-\u9fff]{0,5}(?:师|员|护士|医生)(?![傅])"),
         asks=("job", "profession", "do for a living", "do for work", "work as", "occupation", "职业", "职位", "岗位", "做什么", "干哪一行",
               "干嘛的", "干啥的", "做啥", "是做什么的",
               "工作"),
         examples=("I work as a ferry engineer.", "我是游戏原画师。", "I'm the new supervisor at the depot.",
                   "I got promoted to shift lead.", "我的岗位是质检员。", "上个月升职了，现在职位是店长。",
                   "I start in June as head gardener.", "下个月开始当犀浦站的组长。",
                   "I'll be a maintenance electrician at the harbour.", "They made me head chef at Rosa's last week.",
                   "I teach maths at a secondary school in Sheffield.", "I'm employed by the council as a planning officer.",
                   "I do the payroll for a care home.", "I'm in insurance.", "I freelance as a copywriter.",
                   "Being a midwife means I'm on call half the time.", "I've just qualified as a solicitor!",
                   "I manage a team of twelve at a call centre.", "I'm a junior UX researcher at Kwartel, a startup.",
                   "The title on my contract literally says Senior UX Researcher."),
         question="What is my job?"),
    Slot("manager", "relation", False,
         en=(r"^(?:a |the )?new (?:boss|manager|gaffer|supremo|supervisor|team lead|team leader|line manager|head honcho)\b",
             r"\b(?:my|our|the) (?:new )?(?:gaffer|supremo|head honcho)\b",
             r"\b(?:my|our|the) (?:new )?(?:[\w-]+ )?(?:boss|manager|supervisor|line manager|team lead|team leader|head of department)\b(?! (?:job|role|position|post)\b)",
             r"\breport(?:s|ing)? to\b"),
         zh=(r"领导", r"老板", r"上司", r"组长", r"主管", r"经理"),
         asks=("boss", "manager", "supervisor", "report", "领导", "老板", "上司", "组长"),
         examples=("My boss Morag Nicolson wants everything in triplicate.", "新公司组长是周敏。"),
         question="Who is my boss or manager?"),
    Slot("commute", "fact", False,
         en=(r"\bcommute\b", r"\b(?:take|took|catch|get|ride) (?:the |a )?(?:[\w-]+ )?(?:bus|train|tram|metro|tube|ferry)\b",
             r"\b(?:e-?bike|cycle|bike|walk|drive|train|bus) (?:to|into) (?:the )?(?:new )?(?:work|office|yard|site|school)\b",
             r"\b(?:cycle|walk|drive|bike) to (?:work|the office|school)\b", r"\bto (?:work|the office|office) by\b",
             r"\b(?:drive|drives|cycle|cycles|ride|rides|bike|bikes)\b[^.!?]{1,40}\bto (?:work|the office|the site|the yard)\b",
             r"\b\w+[- ]minutes? (?:drive|walk|ride|bus ride|cycle|commute)\b",
             r"\b(?:picks?|picking|picked) (?:me|us) up (?:for|before|on the way to )?(?:work|in the morning|every)",
             r"\b(?:get|got|getting|give|gives) (?:me |us )?a lift (?:to|into) (?:work|the office)\b", r"\bcar ?pool\w*\b",
             r"\b(?:bus|train|tram|metro|tube|ferry|bike|car|e-?bike|scooter)\b[^.!?]{0,20}\bmy way (?:in|to work|into work|to the office)\b"),
         zh=(r"通勤", r"上下班", r"坐地铁", r"坐公交", r"接我上班", r"顺路.{0,6}上班", r"骑.{0,4}车上班", r"(?:骑|开|坐)着?.{0,3}(?:上班|通勤|去公司)", r"(?:走路|开车|骑车).{0,6}(?:到|就到|上班)",
             r"(?:骑|开|坐|搭)着?[^，。！？]{1,4}(?:去|到)[^，。！？]{0,6}(?:上班|交接班|上工|单位|公司|厂里|店里|站点|车队)",
             r"(?:走路|步行|开车|骑车)(?:去|到)(?:站点|单位|公司|厂里|店里|学校|医院)", r"(?:坐|挤|搭|乘).{0,3}\d+号线", r"地铁.{0,3}\d+号线"),
         asks=("commute", "get to work", "travel to work", "通勤", "上下班", "上班"),
         examples=("I take the bus to work these days.", "每天坐地铁上下班。", "我每天开车上班。", "平时骑电瓶车去车队交接班。",
                   "Dana from accounts picks me up in the morning now.", "The bus is my way in now."),
         question="How do I get to work?"),
    Slot("colleague", "relation", True,
         en=(r"\b(?:colleague|co-?worker|workmate|teammate)s?\b",
             r"(?-i:[A-Z][a-z]+) from (?:work|the office|my team|the team|dispatch|accounts|hr|sales|marketing|the lab|"
             r"the ward|the shop|the warehouse|the depot|the yard)\b", r"\bwork ?(?:buddy|mate|pal|friend|bestie|wife|husband)\b",
             r"\b(?:guy|girl|woman|man|lad|bloke|lass|chap|fella|fellow|lady|someone) (?:at|from) work\b",
             r"(?-i:\b(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Christmas|Everyone|Everybody|"
             r"Nobody|Things|Life|Stuff|It|I)\b)[A-Z][a-z]+) at work (?:is|was|has|had|always|keeps|just|who|and|said|says|told|"
             r"asked|invited|brought|gave|got|thinks)\b"),
         zh=(r"同事",),
         asks=("colleague", "coworker", "workmate", "同事"),
         examples=("My colleague Dana brought baursaks.", "同事小刘陪我去爬山。", "Fatima from work runs a book club.",
                   "A lad at work called Ryan invited me to his wedding.", "I sit next to Omar at work and he's hilarious."),
         question="Who are my colleagues?"),
    Slot("best_friend", "relation", False, needs=_DESCRIBED,
         en=(r"\b(?:my|our) (?:very )?(?:best|closest|oldest) (?:friend|mate|pal)\b(?!s)", r"\bmy bestie\b"),
         zh=(r"最好的朋友", r"闺蜜", r"死党", r"铁哥们", r"发小"),
         asks=("best friend", "closest friend", "best mate", "bestie", "最好的朋友", "闺蜜", "死党"),
         examples=("My best friend is Kezia.", "我闺蜜叫小雨。", "My closest friend these days is Ruth."),
         question="Who is my best friend?"),
    Slot("employer", "fact", False,
         en=(r"\bwork(?:s|ing|ed)? (?:at|for|in) (?:a |an |the )?(?-i:[A-Z])",
             r"\b(?:(?:i|we)(?:'ve| have)? (?:work|worked|been working)|works) (?:at|in|for) (?:a|an|the|our|this) "
             r"(?:same )?(?:local |little |small |big |family )?(?:bakery|caf[eé]|"
             r"coffee shop|shop|store|hospital|school|restaurant|pub|bar|hotel|bank|factory|warehouse|supermarket|garage|"
             r"library|nursery|clinic|pharmacy|gym|salon|firm|agency|startup|start-up|call cent(?:re|er)|care home|council|"
             r"university|college|museum|farm|lab|laboratory|charity|bookshop|bookstore|brewery|vineyard|dental practice|"
             r"surgery|practice)\b(?![^.!?]*\b(?:tonight|today|tomorrow|this (?:morning|afternoon|evening|weekend)|all (?:day|"
             r"morning|afternoon|night))\b)", r"\b(?:joined|joining|hired by|start(?:ed|ing)? at)\b",
             r"\b(?:new|my) job (?:at|with)\b", r"\bemployer\b", r"\boffer from\b",
             r"\boffered (?:me|us) (?:the|a|an) (?:[\w-]+ ){0,3}(?:job|position|role|post)\b", r"\b(?:got|accepted|took) the job\b",
             r"\b(?:got|landed|took|found|accepted|started) (?:a|an|the|my) (?:new )?(?:[\w-]+ ){0,3}(?:job|position|role|post) "
             r"(?:at|with|in)\b",
             r"\b(?:my|our) (?:company|employer|workplace|firm) is\b",
             r"\bmy (?:office|workplace) is (?:right |just )?(?:in|near|next to|by|on|at|opposite|across from|round the corner from)\b",
             r"\b(?:first|second|third|1st|2nd|3rd) (?:week|month|shift)s? (?:at|with) (?:the )?(?-i:[A-Z][\w&'-]*)"
             r"(?:\s+(?-i:[A-Z][\w&'-]*)){0,3}\s*(?:[.!]|$)",
             ROLE_AT,
             r"\baccepted (?:the|their|an?) (?:(?-i:[A-Z])[\w&-]*(?: (?-i:[A-Z])[\w&-]*)* )?(?:job )?offer\b",
             r"^(?:a |my )?new (?:job|position|role|gig) (?:at|with)\s+\w",
             r"\bstart(?:s|ed|ing)? (?:work |a job )?with (?:the )?(?-i:[A-Z])[\w&-]*(?: (?-i:[A-Z])[\w&-]*)* "
             r"(?:next|on|in|as|from|this|tomorrow|today|last)\b"),
         zh=(r"(?<!现)(?<!正)(?<!还)在.{1,12}(?:上班|工作)", r"入职", r"加入了?", r"跳槽(?:到|去了?)", r"(?<!离)(?<!到)(?<!去)(?<!回)公司(?!附近|旁边|楼下|对面|边上|很近|挺近|近|的路)",
             r"(?<!离)(?<!到)(?<!去)(?<!回)工作室(?!附近|旁边|楼下|对面|边上|很近|挺近|近)", r"拿到(?:了)?offer", r"拿到(?:了)?.{1,12}的\s?offer",
             r"(?:提了?|办了?)离职", r"给(?:了我?|我)?(?:offer|录用通知)", r"(?<!不)在(?!家|这|那|网上|外面|路上|想|考虑|犹豫|琢磨|纠结|找|看)(?![^，。！？]*(?:要不要|想不想|考虑|打算))[\u4e00-\u9fffA-Za-z]{2,8}?"
             r"(?:打工|干活|送(?:快递|外卖)|跑(?:外卖|滴滴)|做(?:保洁|保安|销售|客服|会计|财务|厨师|司机|护工))",
             r"(?:去|进)了?(?:一家|一个|家)[^，。！？,.!?]{1,8}(?:公司|机构|医院|学校|店|厂|银行|工作室|单位|酒店|餐厅)",
             r"^(?:现在|目前|一直)?在(?!家|这|那|网上|外面|路上|想|考虑|犹豫|琢磨|纠结|找|看|学|练)[\u4e00-\u9fffA-Za-z]{2,6}?"
             r"(?:(?:做|当|干)(?!饭|菜|梦|作业|家务|运动)|[，,]\s*(?:天天|每天|整天)(?:加班|搬砖|写代码|写|开会|996))"),
         asks=("work", "employer", "company", "job", "公司", "上班", "工作"),
         examples=("I work at Alatau Vet Clinic.", "我在星火互娱上班。", "I landed a job with the county library.",
                   "I accepted the Northwind offer.", "现在在顺丰送快递。", "巴蜀记那边给offer了！",
                   "Starting with the NHS next week as a porter.", "去了一家培训机构。"),
         question="Where do I work, which company?"),
    Slot("study", "fact", False,
         en=(r"\b(?:doing|studying|taking|started|starting|finishing|finished|halfway through|in the (?:first|second|third|"
             r"final|last) year of) (?:a |an |my |the )?(?:part[- ]time |full[- ]time |online )?(?:masters|master's|phd|"
             r"doctorate|degree|diploma|foundation year|access course|apprenticeship|mba|(?-i:BA|BSc|MSc|MA|LLB)|llb|a-levels|"
             r"btec|nvq|pgce|open university course)\b",
             r"\bi'?m (?:a |an )?(?:first|second|third|fourth|final)[- ]year (?:student|undergrad|medic|phd)\b",
             r"\b(?:i|we) study (?!up\b|the\b|a\b|it\b)\w+ at (?:uni|university|college|(?-i:[A-Z]))",
             r"\bi'?m (?:now )?(?:studying|doing|reading) (?!up\b|the\b|a\b|it\b|for\b|to\b)\w+(?: \w+)? at (?:uni|university|college|"
             r"(?-i:[A-Z]))"),
         zh=(r"读研", r"读博", r"(?:在|正在)读(?:大[一二三四]|研[一二三]|博[一二三])", r"(?:考上|考进)了?.{1,8}(?:大学|研究生)"),
         asks=("study", "studying", "degree", "course", "masters", "phd", "did i graduate", "i graduated", "my university",
               "which university did i", "did i major", "i majored", "my major", "专业", "读研", "读博", "我哪个大学", "我是哪个大学",
               "我在哪个大学", "我什么大学", "我从哪个大学"),
         examples=("Doing a masters in stats at UCL.", "I'm a second-year medic at Glasgow.", "我在读研，学的是金融。",
                   "I'm studying nursing at Glasgow Caledonian."),
         question="What am I studying, which degree or course?"),
    Slot("work_pattern", "fact", False,
         en=(r"\b(?:early|late|night|day|morning|evening|weekend|split|double)s? shifts?\b", r"\bshift pattern\b",
             r"\bwork(?:s|ing)? (?:nights|weekends|part[- ]time|full[- ]time|from home|remotely|four days)\b",
             r"\b(?:part|full)[- ]time\b", r"\bfour[- ]day week\b", r"\b(?:on|off) nights\b",
             r"\bmy (?:shifts?|hours|working hours|work hours|rota) (?:are|is|run|go)\b",
             r"\b(?:work|working|shifts?) (?:from )?\d{1,2}(?::\d\d)?\s*(?:am|pm)? (?:to|till|until|-) \d{1,2}"),
         unless=(r"\b(?:final|last) (?:shift|day|week)\b",),
         zh=(r"夜班", r"早班", r"晚班", r"倒班", r"兼职", r"全职", r"在家办公", r"远程办公", r"单休", r"双休", r"[两三]班倒", r"轮班", r"白班"),
         asks=("shift", "hours", "班次", "倒班", "几点上班", "上什么班"),
         examples=("I've switched to the early shift at the pharmacy.", "I work from home on Fridays.",
                   "She's gone part-time since the baby.", "我现在在家办公。", "My shifts are 8 to 5, Tuesday to Saturday."),
         question=""),
    Slot("partner", "relation", needs=(*_DESCRIBED, r"\b(?:been|are|got) (?:together|married|engaged)\b"), multi=False,
         en=(r"\b(?:my|our) (?:wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|spouse|other half|hubby|missus|"
             r"significant other)\b", r"\bthe (?:missus|hubby|other half)\b",
             r"\bmarried to\b", r"(?-i:[A-Z][a-z]+) and (?:i|me)(?: have|'ve)? been (?:together|married)\b",
             r"\b(?:i'?m|i am|i'?ve been|i have been) (?:now )?(?:seeing|dating) (?:someone |somebody |a (?:guy|girl|woman|man) )?"
             r"(?:new )?(?:called |named )?(?-i:[A-Z][a-z]+)\b",
             r"\b(?:there'?s|there is|i'?ve met|i have met|i'?ve just met) (?:someone|somebody)(?: new| special)? (?:called|named) "
             r"(?-i:[A-Z][a-z]+)\b(?=\s*(?:[,.!;]|$))",
             r"(?-i:[A-Z][a-z]+) and (?:i|me) (?:split up|broke up|separated|got divorced)\b"),
         zh=(r"老婆", r"老公", r"妻子", r"丈夫", r"男朋友", r"女朋友", r"对象", r"爱人"),
         asks=("partner", "spouse", "other half", "married", "relationship", "seeing anyone", "seeing someone", "dating",
               "对象", "爱人", "另一半"),
         examples=("My husband is called Yerlan.", "我老公叫王磊。", "Sam and I have been together for ten years.",
                   "I'm seeing someone called Alex now.", "Sam's my partner.", "Jamie and I split up in March.",
                   "There's someone called Noor, she's a landscape architect."),
         question="Who is my partner, wife or husband?"),
    Slot("children", "relation", needs=_DESCRIBED, multi=True,
         en=(r"\b(?:my|our) (?:\w+ )?(?:son|daughter|kids?|children|child|boy|girl|twins|baby|toddler|stepson|"
             r"stepdaughter|grandson|granddaughter|grandkids|grandchildren|lad|lass|little one|wee one|eldest|youngest|"
             r"oldest|middle one|bairns?)\b",
             r"\b(?:have|has|'ve got|got)\s+(?:a|an|one|two|three|four|five|\d)\s+(?:\w+\s+)?(?:kids?|children|sons?|"
             r"daughters?|boys|girls|stepsons?|stepdaughters?|grandchildren|grandkids)\b",),
         zh=(r"儿子", r"女儿", r"孩子"),
         asks=("kid", "child", "孩子"),
         examples=("Our son Timur is five.", "我女儿在上大学。", "Our twins, Leo and Ada, started school.",
                   "We've got two kids, Anya who's 8 and Rohan who's 5.", "My lad Callum started secondary.",
                   "My eldest, Maya, is off to uni in Bristol."),
         question="What are my children's names?"),
    Slot("parents", "relation", needs=_DESCRIBED, multi=True,
         en=(r"\b(?:my|our) (?:mum|mom|mother|dad|father|parents|folks|mam|ma|pa|stepdad|stepmum|stepmom)\b",),
         zh=(r"妈妈", r"爸爸", r"我妈", r"我爸", r"母亲", r"父亲", r"父母"),
         asks=("parent", "父母"),
         examples=("My mum Saule lives in Almaty.", "我妈在绵阳。"),
         question="Who are my parents?"),
    Slot("siblings", "relation", needs=_DESCRIBED, multi=True,
         en=(r"\b(?:my|our) (?:\w+ )?(?:brother|sister|sibling)s?\b",),
         zh=(r"哥哥", r"姐姐", r"弟弟", r"妹妹", r"我弟", r"我哥", r"我姐", r"我妹", r"弟媳", r"嫂子"),
         asks=("sibling", "兄弟姐妹"),
         examples=("My brother Arman is a pilot.", "我弟弟叫贺晓东。"),
         question="Who are my brothers and sisters?"),
    Slot("relatives", "relation", needs=_DESCRIBED, multi=True,
         en=(r"\b(?:my|our) (?:\w+ )?(?:grandma|grandmother|grandpa|grandfather|gran|granny|nan|nana|grandad|granddad|"
             r"grandparents|aunt|auntie|aunty|uncle|cousin|niece|nephew|in-laws|mother-in-law|father-in-law)s?\b",),
         zh=(r"奶奶", r"爷爷", r"外婆", r"外公", r"姥姥", r"姥爷", r"姑姑", r"阿姨", r"舅舅", r"叔叔", r"表(?:哥|姐|弟|妹)",
             r"堂(?:哥|姐|弟|妹)", r"侄(?:子|女)", r"外甥", r"公公", r"婆婆", r"岳父", r"岳母"),
         examples=("My gran Effie is 92 and still lives on her own.", "My cousin Arman lives in Almaty.",
                   "My niece Sophie just started nursery.", "我外婆今年八十了。"),
         question=""),
    Slot("hometown", "fact", False,
         en=(r"\boriginally (?:from|hail from)\b", r"\bgrew up in\b", r"\bborn and (?:raised|bred) in\b",
             r"\b(?:my )?home ?town is\b", r"\b(?:i'?m|i am|we'?re|we are) from (?-i:[A-Z])\w+",
             r"\b(?:i'?m|im|i am) from (?:\w+ ){1,2}originally\b"),
         zh=(r"老家", r"(?:我|用户)是[\u4e00-\u9fff]{2,4}人(?![员士])", r"在[\u4e00-\u9fff]{2,6}长大", r"出生在"),
         asks=("hometown", "home town", "grow up", "grew up", "originally", "where am i from", "where i'm from", "老家",
               "哪里人", "哪儿人", "哪的人"),
         examples=("I'm originally from Glasgow.", "我老家是绵阳的。", "I grew up in Aberdeen.", "我是湖南人。"),
         question="Where am I from?"),
    Slot("home", "fact", False, needs=_PLACE,
         en=(r"\b(?:live|living|lives|lived) in\b", r"\bmoved (?:to|into|house)\b", r"\brelocat\w*\b",
             r"\b(?:live|living|lives) with (?:[\w'-]+ ){1,4}?in\b", r"\bstays? in (?-i:[A-Z])",
             r"\b(?:live|living|lives) (?:on|off) (?:(?-i:[A-Z])[\w'-]*\s+){1,3}(?:road|street|st|lane|avenue|ave|close|drive|way|"
             r"crescent|terrace|place|court|gardens|grove|hill|row|walk|square|estate)\b",
             r"\bshift(?:ed|ing)? (?:house )?(?:to|into)\b",
             r"\b(?:found|got|bought|signed for) (?:a|an|our|my|the) (?:new )?(?:flat|house|place|apartment|studio) (?:in|near|on)\b",
             r"\b(?:made|make|making) the (?:big )?move (?:to|into)\b",
             r"\b(?:moved|moving|move) in (?:with|to|at)\b",
             r"\bbased in\b", r"\bmy (?:home|flat|apartment|house) is\b", r"\bgot the keys\b", r"\bhome is\b",
             r"\bmy (?:home |street |postal |mailing |new )?address(?:'s| is)\b", r"\b(?:live|living|lives) at (?:no\.? ?)?\d",
             r"\b(?:the|our|my) new (?:place|flat|house|home|apartment|pad|digs|gaff|bungalow|cottage) (?:in|near|on)\b",
             r"\b(?:we'?re|we are|i'?m|i am) (?:now )?(?:living )?in (?-i:[A-Z])\w+(?: (?-i:[A-Z])\w+)? (?:now|these days|nowadays)\b",
             r"\b(?:rent|rents|renting|rented|own|bought|share|sharing) (?:a |an |the |our |my )?(?:\w+ )?(?:flat|house|apartment|"
             r"bungalow|cottage|studio|terrace|semi) (?:in|near|on)\b"),
         zh=(r"住在", r"(?:^|我|我们|我家|我们家)(?:现在|一直|目前|还)?住(?!院|宿|酒店|宾馆|了|过|的|一晚|几天|两天|一周)", r"搬(?:到|去|家)", r"定居", r"新家(?:在|位于)", r"在.{1,6}买(?:了)?(?:个|套|一套)?(?:房|房子|二手房|新房|公寓)"),
         unless=(r"\b(?:class|classes|yoga|pilates|meeting|appointment|exam|concert|wedding|party|match|game|"
                 r"session|lesson|lessons|practice|training|shift|date|deadline|flight|surgery|operation|interview|"
                 r"booking|dinner|lunch|club|rehearsal|service|mass|gig|show|trip|holiday)s?\s+(?:has |have |was |were |"
                 r"got |is |are |'s )?(?:been |just |now )?moved (?:to|into)\b",
                 r"\bmoved (?:to|into) (?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|weekdays?|mornings?|"
                 r"afternoons?|evenings?|nights?|\d)",
                 r"\bmoved (?:to|into) (?:the |a |our |their |his |her )?(?:new )?(?:\w+ )?(?:office|branch|site|team|department|"
                 r"store|depot|ward|unit|role|job|position|project|division)\b",),
         asks=("live", "home", "city", "town", "address", "住", "家在", "我家", "我们家", "新家", "搬家", "搬的家", "搬到", "搬去", "搬哪"),
         # not 家 alone: 那家单位, 哪家店, 国家, 王姐家, 大家 ask for no home of the user
         examples=("We moved to Astana yesterday.", "这周末搬去杭州。", "We live in a flat above a bakery in Ghent.",
                   "Moved in with Priya in Headingley last week.", "Quick one, we're in Bristol now.",
                   "We rent a flat in Salford."),
         question="Where do I live?"),
    Slot("pet", "fact", True,
         en=(r"\b(?:dog|cat|puppy|kitten|pet|parrot|hamster|rabbit|tortoise|budgie|sighthound|terrier|spaniel|collie|"
             r"labrador|retriever|beagle|greyhound|whippet|lurcher|poodle|dachshund|husky|pug|corgi|alsatian|"
             r"sheepdog|chihuahua|rottweiler|bulldog|schnauzer|guinea pig|ferret|gecko|lizard|snake|goldfish|"
             r"chickens|hens|horse|pony|pooch|moggy|doggo|cockapoo|labradoodle|cavapoo|jack russell|vizsla|"
             r"weimaraner|staffie|staffy|bichon|shih tzu|mastiff|cockatiel|axolotl|chinchilla|hedgehog|bearded dragon|"
             r"tarantula)s?\b",),
         zh=(r"狗", r"猫", r"宠物", r"养了?(?:一|两|三|几)?(?:只|条|匹)"),
         unless=(r"(?:累|忙|热|冻|困|饿|穷|跑)成狗|单身狗|狗血|狗粮|狗屎运|猫腻|夜猫子|熊猫",),
         asks=("pet", "animal", "宠物"),
         examples=("We have a collie called Bracken.", "我家有只橘猫叫汤圆。", "We adopted a rescue greyhound called Olive.", "we got a cockapoo",
                  "家里养了一只柯基叫豆豆。"),
         question="What pets do I have?"),
    Slot("vehicle", "fact", False, unless=(_IN_A_VEHICLE,), needs=(
             rf"(?i:\b(?:{_CAR_MAKES})\b)",
             r"(?i:\b(?:my|our|a|an|new|old|second[- ]hand|used|electric|hybrid|company)\b(?:\s+[\w()-]+){0,3}?\s+"
             r"(?:car|motorbike|motorcycle|scooter|moped|van|campervan|e-?bike|land rover|defender|tesla|toyota|kia|ev|"
             r"bakkie|ute|pickup|pick-up|truck|suv|hatchback|4x4|jeep|minivan|estate car)\b)",
             r"(?i:\bdriv(?:e|es|ing) an? \w+)", r"[\u4e00-\u9fff]",
             r"(?i:(?:^|\b(?:i|we)\s+)(?:just\s+|finally\s+|have\s+|'ve\s+)?(?:sold|got rid of|scrapped|gave away|traded in|"
             r"part[- ]exchanged)\s+the\s+(?:old\s+)?(?:car|motorbike|motorcycle|scooter|moped|van|campervan|e-?bike|truck|"
             r"ute|bakkie)\b)"),
         en=(r"\b(?:car|motorbike|motorcycle|scooter|moped|van|campervan|e-?bike|land rover|tesla|toyota|kia|bakkie|ute|"
             r"pickup|pick-up|truck|suv|hatchback|4x4|jeep|minivan)\b",
             rf"\b(?:drive|drives|driving|bought|got|traded|swapped|sold|upgraded)\b.{{0,30}}\b(?:{_CAR_MAKES})\b",
             r"\bdriv(?:e|ing) an? \w+"),
         zh=(r"(?:买|卖|开)了?(?:辆|台)?.{0,4}车", r"电动车", r"汽车", r"摩托", r"^我(?:现在|也)?(?:开|买|提|换)了?(?:一)?(?:辆|台)?(?:新的?)?(?:比亚迪|特斯拉|丰田|本田|宝马|奔驰|奥迪|吉利|哈弗|蔚来|小鹏|"
             r"问界|别克|日产|起亚|福特|五菱|雪佛兰|宝骏|大众|长城|长安|理想|现代|红旗)"
             r"(?=$|[，。！,.!\s]|车|[A-Za-z0-9]|[\u4e00-\u9fff]{1,2}(?:$|[，。！,.!]))"),
         asks=("car", "drive", "vehicle", "车"),
         examples=("I drive an old Land Rover.", "我把电动车卖了。"),
         question="What car or vehicle do I have?"),
    Slot("language", "fact", True,
         en=(rf"\b(?:speak|speaks|speaking|spoke|fluent|learning|learn|lessons?|classes?|course|studying)\b.{{0,40}}\b(?:{_LANGUAGES})\b",
             rf"\b(?:{_LANGUAGES})\b.{{0,30}}\b(?:lessons?|classes?|course|app)\b",
             r"\blanguage (?:app|class|classes|course|lessons?|exchange)\b", r"\b(?:first|native|mother) (?:language|tongue)\b",
             rf"\b(?:{_LANGUAGES})(?:'s| is| are)? (?:\w+ )?(?:conversational|fluent|basic|rusty|decent|improving|"
             r"beginner|intermediate|advanced|native|getting better)\b",
             rf"\b(?:beginner|intermediate|advanced|fluent|conversational|rusty|native)\b(?: \w+)?(?: at| in)? (?:{_LANGUAGES})\b",
             rf"^\W*(?:i|we)(?:\s+(?:also\s+)?(?:have|have got)|'ve got|'ve)\s+(?:(?:a bit of|a little|a few words of|some|good|"
             rf"great|decent|fluent|basic|schoolboy|schoolgirl|pidgin|broken)\s+)?(?:{_LANGUAGES})\b"
             r"(?!\s+(?:blood|roots|relatives|citizenship|passports?|ancestry|heritage|family|friends|cousins|grandparents|"
             r"parents|accents?|neighbou?rs|colleagues|class|classes|lessons?|homework|exam|test|today|tomorrow))",
             rf"\b(?:did|doing|done|studied|taught|educated|schooled|went to school)\b(?: \w+){{0,3}} through "
             rf"(?:the medium of )?(?:{_LANGUAGES})\b"),
         zh=(r"(?:日|英|韩|法|德|西班牙|俄|意大利)语",),
         asks=("language", "speak", "learn", "语"),
         examples=("I speak Kazakh, Russian and English.", "日语还在学。", "I'm a beginner at Japanese.",
                   "My Japanese is conversational now.", "i have irish too", "We've got a bit of Welsh.",
                   "did the leaving cert through irish"),
         question="Which languages do I speak or learn?"),
    Slot("hobby", "fact", True,
         en=(rf"\bplay(?:s|ing)? (?:the |in (?:a|the) )?(?:{_INSTRUMENTS})\b", rf"\b(?:on|my) (?:the )?(?:{_INSTRUMENTS})\b",
             rf"\b(?:learn|practi[sc]e|took up|take up|taking up|lessons?)\w* (?:to play )?(?:the )?(?:{_INSTRUMENTS})\b",
             rf"\b(?:teach(?:ing)? (?:myself|me) |picked up |got (?:a|an|my) (?:new |first )?)(?:the |a |an )?(?:{_INSTRUMENTS})\b",
             rf"^\s*(?:{_INSTRUMENTS})\b",
             r"\bhobby\b", r"\b(?:knit(?:s|ting)?|paint(?:s|ing)?|draw(?:s|ing)?|garden(?:s|ing)?|bak(?:e|es|ing)|"
             r"hike[sd]?|climb(?:s|ing)?|fishing|photography|sketch(?:es|ing)?|sew(?:s|ing)?|pottery|"
             r"chess|sing(?:s|ing)?)\b", r"\bband\b(?! ?\d)", r"\bchoir\b",
             r"\b(?:(?:do|does|doing|dance|dances|dancing|learn|learning|taken up|took up|into|stopped|quit) salsa|"
             r"salsa (?:dancing|class|classes|lessons|nights?)|tango|ballet|ballroom|zumba|bachata|swing dancing|line dancing|tap dancing|belly dancing|"
             r"crochet(?:s|ing)?|embroidery|quilting|woodwork(?:ing)?|woodturning|calligraphy|ceramics|origami|"
             r"birdwatching|bird ?watching|birding|stargazing|astronomy|geocaching|cosplay|dj(?:ing)?|karaoke|"
             r"scrapbooking|model railways?|metal detecting|beekeeping|home brewing)\b",
             r"\b(?:poker|cards|board games?|video games?|darts|bridge|mahjong|crosswords?|sudoku)\b",
             # a club or group one belongs to ("I go to a book club at the library", "member of the Ramblers")
             r"\b(?:book|reading|film|quiz|supper|wine|writing|poetry|craft|sewing|knitting|walking|rambling|photography|"
             r"gardening|history|language|drama|comedy|chess|bridge|birdwatching)\s+(?:club|group|circle|society)\b",
             r"\bmember of (?:a|an|the|my|our) (?:[\w-]+ ){0,2}(?:club|group|choir|society|circle|band|orchestra|"
             r"ramblers)\b"),
         zh=(r"弹", r"(?:弹|练|学|把|拉|吹|打)了?(?:吉他|钢琴|小提琴|大提琴|尤克里里|古筝|二胡|架子鼓|笛子|琵琶|葫芦丝|萨克斯)",
             r"^(?:吉他|钢琴|小提琴|大提琴|尤克里里|古筝|二胡|架子鼓|笛子|琵琶|葫芦丝|萨克斯)", r"爱好", r"画画", r"摄影", r"徒步",
             r"唱歌", r"练字", r"钓鱼", r"麻将", r"打牌", r"下棋", r"书法", r"陶艺", r"十字绣", r"钩针", r"插花", r"跳舞", r"拉丁舞",
             r"广场舞"),
         unless=(_MET_THERE,),
         asks=("hobby", "instrument", "play", "free time", "爱好", "弹"),
         examples=("I play the dombra at family gatherings.", "我会弹尤克里里。", "I want to learn the banjo this year.",
                   "I go to a book club at the library every month.", "I'm a member of the Ramblers."),
         question="What are my hobbies, what instrument do I play?"),
    Slot("sport", "fact", True,
         en=(r"\b(?:run|running|swim|swimming|yoga|football|volleyball|tennis|gym|cycling|shinty|golf|climbing|"
             r"rowing|surf|ski|skiing|pilates|dance|dancing|hurling|rugby|basketball|badminton|tai chi|surfing|sailing|"
             r"kayaking|canoeing|boxing|karate|judo|taekwondo|jiu[- ]jitsu|crossfit|parkrun|hockey|cricket|baseball|"
             r"softball|netball|squash|bouldering|triathlon|padel|pickleball|spin class(?:es)?|aqua ?fit|"
             r"soccer|five-a-side|(?:\d+|six|seven|eleven)-a-side|futsal|jogging|athletics|weightlifting|lifting weights|martial arts|water polo|"
             r"lacrosse|handball|bowling|archery|fencing|skating|skateboarding|snowboarding|horse riding|"
             r"mountain biking|trail running|marathons?|runner|swimmer|cyclist|climber|triathlete|ultras?|ultramarathons?)\b",),
         zh=(r"跑步", r"游泳", r"健身", r"瑜伽", r"打球", r"篮球", r"羽毛球", r"太极", r"广场舞", r"足球", r"乒乓球",
             r"网球", r"排球", r"骑行", r"滑雪", r"踢球"),
         unless=(_MET_THERE, _A_RUN_OF_WORK),
         asks=("sport", "exercise", "train", "运动", "锻炼"),
         examples=("I play volleyball on Thursday evenings.", "我现在每周三晚上去游泳。", "I play five-a-side on Tuesdays.",
                   "周末去踢球。"),
         question="What sport or exercise do I do?"),
    Slot("reply_style", "preference", False,
         en=(r"\b(?:answers?|repl(?:y|ies)|respond|responses|format|bullet points?|keep it short|brief|concise)\b",
             r"\b(?:numbered (?:steps|lists?)|step[- ]by[- ]step|when you explain|explanations|in plain (?:english|words|language)|"
             r"no (?:jargon|emojis?)|one[- ]liners?|walls? of text|(?:short|one|single|two) paragraphs?|\d+ lines? max|"
             r"(?:no|stop writing|don'?t write) essays)\b"),
         zh=(r"回答", r"回复", r"简短", r"详细"),
         unless=(_ANSWERING_THE_PHONE,),
         asks=("answer", "reply", "format", "respond", "回答", "回复"),
         examples=("Please keep your answers short.", "回答的时候简短一点。", "When you explain something, use numbered steps.",
                  "Step-by-step instructions work best for me."),
         question="How should you answer me?"),
    Slot("income", "fact", False,
         en=(r"\b(?:i|we) (?:now )?(?:earn|make|take home|get paid|bring in)\b.{0,30}?(?:[£$€¥]\s?\d|\d[\d,.]*\s?(?:k|grand|"
             r"pounds|dollars|euros|quid|an hour|a year|a month|per hour|per year|per month)\b)",
             r"\bmy (?:salary|pay|wage|wages|income|take-home(?: pay)?)\b(?! (?:slip|day|review|date)s?\b)",
             r"\b(?:i'?m|i am) (?:now )?on (?:about |around |roughly )?[£$€¥]?\d[\d,.]*\s?(?:k|grand)?\b(?: a year| an hour| per)",
             # the British "I'm on £32k", "i'll be on £48,500": a sum of money one is on is one's pay
             r"\b(?:i'?m|i am|i'?ll be|i will be|i was) (?:now |only |still )?on (?:about |around |roughly |just )?"
             r"[£$€¥]\s?\d[\d,.]*\s?(?:k|grand)?",
             r"\b(?:they|he|she|the company|work) (?:now )?pays? me\b.{0,15}\d",
             r"\b(?:pay ?rise|raise|pay cut)\b.{0,20}\d", r"\b(?:ctc|in-hand|in hand salary)\b.{0,20}\d",
             r"\b\d[\d.]*\s?(?:lpa|lakhs? (?:per annum|a year|p\.?a\.?))\b"),
         zh=(r"工资(?!条|卡)", r"月薪", r"年薪", r"收入", r"一个月(?:能)?(?:挣|赚|拿)"),
         asks=("salary", "earn", "income", "wage", "工资", "月薪", "年薪", "收入", "挣多少", "赚多少"),
         examples=("I earn about 34,000 pounds a year.", "My salary is 42k.", "我一个月工资八千五。",
                   "I'm on 40k a year now after the raise."),
         question="How much do I earn?"),
    Slot("phone", "fact", False,
         en=(r"(?<!on )(?<!from )(?<!with )(?<!off )(?<!onto )(?<!into )(?<!using )\bmy (?:phone|mobile|cell ?phone|smartphone)\b"
             r"(?! number| case| charger| battery| screen| bill| contract| plan| signal| alarm| camera| app)",
             r"\b(?:bought|got|have|use|ordered|ended up with|treated myself to|picked up|went for|settled on|got myself) "
             r"(?:a|an|the|my) (?:new |secondhand |second-hand |used |refurbished |old )?(?:(?:sony|apple|google|samsung|"
             r"motorola|nokia) )?(?:iphone|samsung|galaxy|pixel|xiaomi|huawei|oneplus|nokia|motorola|oppo|vivo|xperia|"
             r"fairphone|honor|realme|phone|smartphone)\b",
             r"\b(?:upgraded|switched|moved)(?: over)?(?: from (?:an? |the |my )?[\w-]+(?: [\w-]+)?)? to (?:a|an|the)? ?(?:new )?"
             r"(?:iphone|samsung|galaxy|pixel|xiaomi|huawei|oneplus|"
             r"nokia|motorola|oppo|vivo)\b",
             r"\b(?:i'?m|i am) (?:now )?on (?:a|an|the) (?:new |secondhand |second-hand |refurbished )?(?:iphone|samsung|galaxy|"
             r"pixel|xiaomi|huawei|oneplus|nokia|motorola|oppo|vivo)\b",
             r"\bmy (?:old |new )?(?:iphone|samsung|galaxy|pixel|xiaomi|huawei|oneplus|nokia|motorola|oppo|vivo)\b"),
         zh=(r"(?:买|换)了?(?:个|台|部)?.{0,6}手机", r"我的?手机(?:是|用的)", r"(?:苹果|华为|小米|OPPO|vivo|三星)手机"),
         asks=("phone", "mobile", "手机"),
         examples=("My phone is a battered Nokia 3310.", "I bought a refurbished Pixel 7 last week.", "我换了个华为手机。",
                   "I'm on a Pixel now.", "My old Samsung finally died.", "Switched from Android to an iPhone 15."),
         question="What phone do I have?"),
    Slot("possessions", "fact", True,
         en=(r"^\s*(?:i|we) (?:now |also |still )?(?:own|have got|bought|got) (?:a|an|two|three|my own|our own) "
             r"(?!question|problem|feeling|idea|minute|moment|sec|second|look|go|chance|raise|pay rise|promotion|cold|"
             r"flu|fine|call|text|message|email|letter|reply|job|new job|offer|interview|bonus|refund|parking ticket|"
             r"speeding ticket|(?:[\w-]+ )?(?:appointment|check-?up|scan|test|exam|date|meeting|session|lesson|booking|"
             r"reservation|ticket|invite|invitation|place|spot|slot|shift|day off|week off|lift|ride|delivery|parcel|"
             r"package|haircut|massage|treatment|vaccine|jab|injection|result|results|diagnosis|warning|fine|bill|"
             r"quote|deal|discount|voucher|bargain))\w+",),
         zh=(r"^(?:我|我们)(?:家)?(?:有|买了)(?:一|两|几)?(?:辆|台|个|套|只|把)",),
         asks=("own", "have", "bought", "有"),
         examples=("I own a blue kayak.", "我们家买了一台钢琴。"),
         question="What do I own?"),
)


def _compile(slot: Slot) -> Slot:
    patterns = tuple(re.compile(p, re.IGNORECASE) for p in slot.en + slot.zh)
    required = tuple(re.compile(p) for p in slot.needs)
    vetoes = tuple(re.compile(p, re.IGNORECASE) for p in slot.unless)
    return Slot(slot.name, slot.kind, slot.multi, slot.en, slot.zh, slot.asks, slot.examples, slot.question,
                slot.needs, slot.unless, patterns, required, vetoes)


SLOTS: tuple[Slot, ...] = tuple(_compile(s) for s in _ROWS)
BY_NAME = {s.name: s for s in SLOTS}
MULTI_VALUED = frozenset(s.name for s in SLOTS if s.multi)


def slot_of(clause: str) -> Slot | None:
    """The first slot whose pattern matches the clause."""
    return next((s for s in SLOTS if s.matches(clause)), None)


def _asks_pattern(asks: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for a slot's question words: a phrase or a Chinese word anywhere, an English word as
    the start of a word ("pet" meets "pets")."""
    if not asks:
        return None
    return re.compile("|".join(re.escape(a) if " " in a or not a.isascii() else rf"(?<![a-z]){re.escape(a)}"
                               for a in asks))


_ASKS = tuple((slot.name, _asks_pattern(slot.asks)) for slot in SLOTS)


def slots_asked(question: str) -> list[str]:
    """The slots a question asks for ("Where do I live?" → ["home"])."""
    lowered = question.lower()
    return [name for name, pattern in _ASKS if pattern is not None and pattern.search(lowered)]


def embedding_text(attribute: str, content: str) -> str:
    """What a typed memory is embedded as: its slot's question, then its sentence. Questions are what
    recall compares memories with, and a statement alone often shares no word with the question
    that asks for it ("Who is my spouse?" — "The user's husband is called Yerlan")."""
    slot = BY_NAME.get(attribute)
    if slot is None or not slot.question or re.search(r"[\u3400-\u9fff]", content):
        return content
    return f"{slot.question} {content}"
