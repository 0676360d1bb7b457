"""Episodes: what the user said, kept as said, in sentence windows. Pure.

Typed memories are distilled and can miss things; episodes are the safety net that
keeps recall at least as good as plain retrieval over the transcript. Each user
message (minus chit-chat, questions and secrets) becomes one or more windows:
a short message is one window; a long one is split at sentence boundaries, and a
sentence that cannot stand alone (a few words, or one that opens with a pronoun or
a connective: "She is 7.", "So we sold it.") stays with its neighbour, so each
window reads on its own. A window carries the first time expression it contains,
resolved against the message's time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memchat.memory.distill import CN_LIKES, LIKES, RELATIVES, RETIRING_ACT
from memchat.memory.endings import retired_terms
from memchat.memory.rules import contains_secret, is_chit_chat, is_question, mentions_the_user
from memchat.memory.segment import split_sentences
from memchat.memory.slots import JOB_TITLES, slot_of
from memchat.memory.speech import normalise, told_before_question
from memchat.memory.terms import STOPWORDS, has_cjk
from memchat.memory.timeexpr import ResolvedTime, first_time, resolve_times

WHOLE_MESSAGE_WORDS = 45
"""A message this short (after dropping what is not kept) is one episode."""
WINDOW_WORDS = 40
"""A window grows past a sentence boundary only while it stays under this many words."""
_DEPENDENT = re.compile(
    r"^\s*(he|she|it|they|this|that|these|those|there|so|and|but|which|also|too|then|plus|because)\b"
    r"|^\s*(他|她|它|他们|她们|这|那|所以|而且|但是|不过|因为)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class EpisodeWindow:
    text: str
    sentences: tuple[str, ...]
    time: ResolvedTime | None


def _words(text: str) -> int:
    """Words, counting two CJK characters as one word."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    return len(re.findall(r"[^\W\d_]+|\d+", re.sub(r"[\u3400-\u9fff]", " ", text))) + (cjk + 1) // 2


_TO_THE_ASSISTANT = re.compile(r"\b(?:you|you're|your|u)\b|你|您", re.IGNORECASE)


_TELLING_YOU = re.compile(r"^(?:偷偷|悄悄)?(?:告诉你|跟你说|和你说|和你讲|跟你讲|给你说)(?:个事|件事|一件事|个秘密)?(?:吧|哈|啊)?"
                          r"[，,:：!！\s]+|^(?:let me tell you|guess what|i have to tell you|just so you know)\b[,:!\s]*",
                          re.IGNORECASE)
"""'偷偷告诉你 阿玲要离婚了': the news is told to us, not about us."""


def _about_the_assistant(sentence: str) -> bool:
    """'You're so good at this', '你好会安慰人': a remark to the assistant, nothing about the user."""
    told = _TELLING_YOU.sub("", sentence, count=1)
    return bool(_TO_THE_ASSISTANT.search(told)) and not mentions_the_user(told)


PHATIC = frozenset("""
    ok okay okey kk cool nice great good fine awesome amazing brilliant perfect lovely sweet wow whoa oh ooh ah ahh aha
    hmm meh ugh oof yikes omg lol lmao lmfao rofl haha hehe heh yay yep yeah yes yup nope nah sure right true same
    thanks thank thx thnx thnks ty cheers appreciated appreciate helpful helpfull help helps helped lot lots much
    sorry hello hey hiya morning evening night gn bye goodbye later cya see talk back brb soon tbh idk ikr np worries
    fair enough makes sense point interesting wild crazy funny hilarious cute aww love loved it's that's this that
    sounds try check out will tired exhausted bored sleepy hungry busy long day week mondays monday friday weekend
    mate dude bro buddy guys folks please pls plz also really super very totally definitely exactly indeed anyway
    wait what huh gotcha got see understood noted course deal done bet alright ready want need feel feeling like
    know think guess maybe still just now again more bit kind sort thing things stuff pretty quite well so too
""".split())
"""Words of talk that says nothing about anyone: greetings, thanks, reactions, moods."""
CN_PHATIC = ("好的", "好吧", "好滴", "谢谢", "多谢", "感谢", "收到", "知道了", "懂了", "明白", "晚安", "早安", "拜拜", "再见",
             "哈", "嘿", "嗯", "哦", "噢", "啊", "呀", "吧", "呢", "啦", "了", "嘛", "哇", "耶", "行", "可以", "没问题",
             "你真好", "你好", "太好了", "厉害", "牛", "辛苦", "累死", "好累", "困", "无聊", "烦", "真的", "确实", "对",
             "是的", "好", "的", "我", "你", "也", "就", "还", "很", "太", "超", "有点", "今天", "先", "去", "睡", "早点",
             "死了", "累死", "困死", "饿死", "笑死", "原来如此", "原来是这样", "马上回来", "等一下", "稍等")
"""The same in Chinese."""


_IDENTITY = re.compile(r"^\s*(?:i'?m|i am)\s+(?:a |an |also |actually |totally )?([a-z][a-z\-]+)|我(?:也|其实)?是(\w{2,})",
                       re.IGNORECASE)


_COUNTED = re.compile(r"\b(?:i|we)(?:\s+have|'ve got|\s+have got|\s+got|\s+own)\s+(?:a|an|one|two|three|four|five|six|"
                      r"seven|eight|nine|ten|\d+)\s+[a-z]{3,}", re.IGNORECASE)


def has_content(sentence: str) -> bool:
    """Whether a sentence says something that could be worth finding again: a name, a number, a date,
    a slot of the catalogue, a like or dislike, or at least three words beyond talk ("long day",
    "sounds good, I'll try that" and "好的，知道了" say nothing)."""
    if not re.search(r"[^\W\d_]", sentence):
        return False  # digits and punctuation only ("666", "!!")
    if slot_of(sentence) or re.search(r"\d", sentence) or LIKES.search(sentence) or CN_LIKES.search(sentence):
        return True
    if RETIRING_ACT.search(sentence) and retired_terms(sentence, RETIRING_ACT):
        return True  # "Kathak I have stopped.": an ending, and what it ended
    if _COUNTED.search(sentence):
        return True  # "I have two kids.", "We've got three cats."
    identity = _IDENTITY.search(sentence)
    what = identity and (identity.group(1) or identity.group(2))
    if what and what.lower() not in PHATIC and len(what) > 2:
        return True  # "I'm colorblind", "我是左撇子": what the user is
    if any(not t.passing for t in resolve_times(sentence, 0.0)):
        return True
    if has_cjk(sentence):
        rest = re.sub(r"[^\u3400-\u9fff]", "", sentence)
        for word in sorted(CN_PHATIC, key=len, reverse=True):
            rest = rest.replace(word, "")
        latin = [w for w in re.findall(r"[A-Za-z]{2,}", sentence) if w.lower() not in PHATIC]  # "offer拿到了，快手的"
        return len(rest) + 2 * len(latin) >= 4  # four characters of Chinese are two words: "比亚迪秦", "拿到快手"
    if re.search(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+", sentence.strip()):
        return True  # a name or a place, mid-sentence
    words = re.findall(r"[a-z']+", sentence.lower())
    content = [w for w in words if w not in PHATIC and w not in STOPWORDS and len(w) > 2 and w.strip("'") != "i'm"]
    if _SOMEONES_TRADE.match(sentence):
        return True  # "He's a chef.": who the person just named is
    if _SOMEONE_DID.match(sentence) and len(content) >= 2:
        return True  # "He agreed to go to rehab!", "She refuses to see anyone.": what they did, said of them
    return len(content) >= 3 or bool(_ONES_PERSON_DOING.search(sentence) or _BOND_CHANGED.search(sentence))


_SOMEONES_TRADE = re.compile(rf"^\W*(?:he|she)(?:'s|\s+is|\s+was)\s+(?:a|an)\s+(?:[a-z-]+\s+)?(?:{JOB_TITLES})\b",
                             re.IGNORECASE)
_SOMEONE_DID = re.compile(r"^\W*(?:he|she|they)\s+(?!(?:is|was|are|were|seems?|seemed|looks?|looked|feels?|felt|sounds?|"
                          r"sounded|must|might|may|could|would|should|will)\b)[a-z]+", re.IGNORECASE)
"""A sentence that opens on someone just spoken of doing something ("He asked me for money."), not on how they are or
seem ("She was surprisingly kind about it.", "he's so embarrassed"): news of them in few words."""


_ONES_PERSON_DOING = re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?(?:{RELATIVES})\b(?:\s+[\w']+){{0,2}}?\s+(?:\w+ed|is|are|was|"
                                r"were|has|had|got|gets|says|said|told|rang|came|went|left|lives|works|keeps|wants|"
                                r"needs|texts|calls|starts|quit|won|lost|broke|fell)\b", re.IGNORECASE)
"""Someone in the user's life doing something: "ugh my ex texted me again" is news in few words; "sorry my friend,
typo" and "oh my god girl" are not."""
_BOND_CHANGED = re.compile(r"\b(?:split up|broke up|broken up|divorced|got engaged|got married|moved in together|"
                           r"got back together|called it quits|made it official|(?:are|r|'re)\s+(?:now\s+)?(?:official|"
                           r"exclusive|a couple|an item|engaged|married)|official now)\b"
                           r"|^\W*(?:the\s+|my\s+|our\s+|his\s+|her\s+)?(?!(?:it|that|this|there|what|everything|all)\b)"
                           r"[a-z]+(?:'s|’s|\s+is|\s+has)\s+(?:gone|been sold|sold|died|passed away|been put down)\b",
                           re.IGNORECASE)
"""A tie begun or ended, or a thing gone, is news in the fewest words: "me and ola split up.", "we got engaged!", "jo n
me r official now", "van's gone."."""


def kept_sentences(text: str) -> list[str]:
    """The sentences an episode may keep: no questions, chit-chat, secrets, remarks to the assistant, or talk
    without content."""
    told = [_told_part(s) for s in split_sentences(text)]
    kept: list[str] = []
    for index, s in enumerate(told):
        if s and not is_question(s) and not is_chit_chat(s) and "[secret: " not in s and not contains_secret(s) \
                and not _about_the_assistant(s) and has_content(normalise(s)):
            kept.append(s)
        elif kept and told[index - 1] == kept[-1] and _FIGURE.match(s) and not contains_secret(s):
            kept[-1] = f"{kept[-1]} {s.strip()}"  # "Got the half marathon done on Sunday. 1:52:40.": the time it took
    return kept


_FIGURE = re.compile(r"^\s*[£$€¥]?\d[\d:.,/\-]*(?:k|%)?\s*[.!]*\s*$")
"""A sentence that is a figure and nothing else ("1:52:40.", "£1,800!", "3-1"): it belongs to the sentence before."""


def _told_part(sentence: str) -> str:
    """A question asked after a statement in one sentence leaves the statement ("…医生说是糖尿病前期，年夜饭我要注意些
    啥子？"): as it was said, so the sentence is found in its window."""
    if not is_question(sentence):
        return sentence
    return told_before_question(sentence) or sentence


def _stands_alone(sentence: str) -> bool:
    return _words(sentence) >= 5 and not _DEPENDENT.match(sentence)


def episode_windows(text: str, said_at: float) -> list[EpisodeWindow]:
    kept = kept_sentences(text)
    if not kept:
        return []
    joiner = "" if has_cjk(text) else " "
    if sum(_words(s) for s in kept) <= WHOLE_MESSAGE_WORDS:
        groups = [kept]
    else:
        groups = []
        for sentence in kept:
            current = groups[-1] if groups else None
            fits = current is not None and _words(joiner.join(current + [sentence])) <= WINDOW_WORDS
            if current is not None and (not _stands_alone(sentence) or fits):
                current.append(sentence)
            else:
                groups.append([sentence])
        if len(groups) > 1 and not _stands_alone(joiner.join(groups[0])):  # "Huge news!" opens the next one
            groups[1] = groups[0] + groups[1]
            groups.pop(0)
    windows = []
    for group in groups:
        window = joiner.join(group)
        windows.append(EpisodeWindow(window, tuple(group), first_time(window, said_at)))
    return windows


def leans_back(sentence: str) -> bool:
    """Whether a sentence cannot stand alone and goes on from the one before ("She is 7.", "So we sold it.")."""
    return bool(_DEPENDENT.match(sentence))


def time_for(window: EpisodeWindow, sentence: str) -> ResolvedTime | None:
    """The window's time, if it can be the time of `sentence` too: said in it, in a sentence before it (the story
    goes on: "Had my interview at Monzo on Monday. I got the job!"), or in a bare fragment ("Ran my first half
    marathon. Last Friday."). Not a time a later statement gives: in "My sister got engaged. I start at Ocado on
    Monday." Monday is the job's, not the engagement's. Pure."""
    time = window.time
    if time is None:
        return None
    probe = sentence.strip()
    own = next((i for i, s in enumerate(window.sentences) if probe and (probe in s or s in probe)), None)
    dated = next((i for i, s in enumerate(window.sentences) if time.expression in s), None)
    if own is None or dated is None or dated <= own or _words(window.sentences[dated]) <= 4:
        return time
    return None


def window_of(windows: list[EpisodeWindow], sentence: str) -> int | None:
    """Index of the window holding `sentence` (or the clause of one), if any."""
    probe = sentence.strip()
    for index, window in enumerate(windows):
        if probe and (probe in window.text or any(s in probe or probe in s for s in window.sentences)):
            return index
    return None
