"""Requests to forget, in the many ways people ask: the topic they name, or None. Pure.

"Please forget what I told you about Arman and the gambling, it's private." → "Arman and the
gambling". The tables below are the shapes of such requests (one per line); the code only
tries them in order on each sentence and trims what is not the topic: openers ("hey,",
"on second thought"), containers ("what I told you about", "the stuff about", "关于…的事"),
and trailing reasons (", it's private", " - I don't want that stored", "，不要记").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memchat.memory.concepts import CN_PEOPLE_WORDS, PEOPLE_CONCEPTS, concepts_in
from memchat.memory.segment import split_sentences
from memchat.memory.slots import slot_of
from memchat.memory.terms import has_cjk, query_terms

_OPENER = (r"^\s*(?:(?:hey|hi|hello|yo|ok(?:ay)?|so|oh|ah|and|also|btw|nvm|nevermind|actually|wait|hmm+|um+|right|quick one|honestly|look|"
           r"listen|anyway|anyways|well|ugh|mate|bro|dude|babe|hun|eh|"
           r"one more thing|on second thoughts?|on reflection|in hindsight|come to think of it|thinking about it|"
           r"having thought about it|hey assistant|i (?:wanted|meant|was going|was meaning) to ask(?: you)?|"
           r"can i ask(?: you)?(?: (?:something|a favou?r))?|(?:one )?(?:small |quick )?favou?r(?: to ask)?|"
           r"quick question|嗯+|哎呀|哎|啊|唉|哦|噢|呃|诶|对了|另外|还有|算了|哈喽|你好)(?![a-z'])[\s,.!:…~～—–，、-]*)*")
"""Openers before a request; a whole word each ("yo", not the start of "You")."""
_FAVOUR = (r"(?:be an? (?:dear|love|star|pal|sweetheart|gem|angel|mate)|(?:(?:can|could|would|will) (?:you|u) )?do (?:me|us) an? "
           r"(?:favou?r|kindness|solid)|if you (?:could|would|don'?t mind)|would you be so kind as to)\s*(?:,\s*)?(?:and\s+)?")
"""A favour asked before a request ("Be a dear and forget…"): only before "forget", or an erasing verb whose object
is something said ("…and scrap that stuff about my overdraft"), never "Be a love and clear the table"."""
_PLEASE = (r"(?:(?:just|please|pls|plz|kindly)\s+)?(?:(?:can|could|would|will)\s+(?:you\s+|u\s+)?(?:please\s+|pls\s+)?"
           r"(?:help\s+(?:me\s+)?(?:to\s+)?(?=forget))?)?"
           r"(?:(?:you can|you may|feel free to|go ahead and)\s+(?=forget|delete|erase|remove|wipe))?(?:please\s+|pls\s+)?"
           r"(?:do\s+(?=forget|delete|erase|remove|wipe|scrap|drop))?")  # "please do forget…"
_KEEP_VERBS = (r"(?:remember|remembering|keep|keeping|store|storing|save|saving|record|recording|note down|noting down|"
               r"write down|write that down|writing down|hang on to|hold on to|hold onto|memori[sz]e|file away)\b")
_SAID_THING = r"(?:bit|part|stuff|thing|info|information|detail|details|story|business|situation|saga)s?"
"""What a request calls the thing said: "the Spotify interview stuff", "that thing about Gary"."""
_WHAT_WAS_SAID = (r"(?=\s+(?:my|our|his|her|their|what|whatever|anything|everything|any|all|that|this|those|these|a record|"
                  r"(?:stuff|things|info|anything|details) (?:about|on|re|regarding|to do with)\b|"
                  r"records|the (?:bit|part|stuff|thing|info|information|detail|details|fact|note|notes|story|mention)s?\b|"
                  rf"the (?:whole |entire )?(?:[\w'-]+\s+){{0,3}}{_SAID_THING}\b))")
"""What a request to the assistant names: the user's things or what they said ("my salary", "anything about",
"the bit about", "the whole landlord dispute thing") — not "potatoes in the fridge", "the weeds", "cash at home",
which is advice."""
_KEEPING = rf"{_KEEP_VERBS}{_WHAT_WAS_SAID}"
"""Ways of keeping something, asked not to: a request to forget. Not "keep it short", "keep asking", "don't
write so much": those are about the reply; not "don't store potatoes in the fridge": that is advice."""
_SAID_BY_ME = (r"\s+(?:what|everything|anything|all(?: of what)?|whatever|(?:the|that|those|any|all the)\s+(?:[\w'-]+\s+){0,2}?"
               r"(?:stuff|bits?|parts?|things?|info|information|details?|story|figures?|numbers?))(?: that)?\s+"
               r"i(?:'ve| have)?\s+(?:just\s+|already\s+|ever\s+)?(?:said|told|mentioned|shared|gave|wrote)\b")
"""What the user said, after "ignore" or "disregard": "disregard everything I told you about…", "ignore the stuff I said
about Marco" — not "disregard my husband, he's joking" or "ignore the typos"."""
_NOT = (r"(?:don'?t|do not|dont|please don'?t|(?<=you )not|(?<=u )not|(?<=please )not|(?<=pls )not|no need to|there'?s no need to|you don'?t need to|you do not need to|"
        r"you don'?t have to|you needn'?t)")
_VERB = (rf"(?:forget|forgt|forgot|delete|erase|remove|wipe out|wipe|scrap|scratch|unlearn|drop|clear out|clear|purge|expunge|stop remembering|"
         rf"stop keeping|let go of|never mind|nevermind|{_NOT}\s+{_KEEPING}|"
         rf"(?:discard|scrub|strike|get rid of|throw away|throw out|lose|bin|ditch){_WHAT_WAS_SAID}|"
         r"(?:take out|cross out)(?=\s+(?:the|that|this|those|any|all|every|what|whatever|anything|everything)\b[^.!?]*?"
         r"\b(?:about|on|re|regarding)\b)|"
         rf"(?:ignore|disregard)(?={_SAID_BY_ME})|"
         rf"{_NOT}\s+(?:remember|memori[sz]e|record|note down)(?=\s+the\s+(?:[\w'-]+\s+){{1,3}}{_SAID_THING}\b))")

_THING_SAID = (rf"(?:that|this|it|any of (?:that|this|it)|all (?:of )?(?:that|this)|anything (?:about|of) .+?|"
               rf"(?:(?:the|my|any|that|this|those|our) )?(?:[\w'-]+ ){{0,3}}{_SAID_THING})")
"""What "I don't want … kept" asks about when it is a request: something said ("medical stuff", "that"), not a
thing in the world ("my daughter kept back a year", "the dog kept in a crate")."""

EN_REQUESTS: tuple[str, ...] = (
    rf"^{_PLEASE}{_VERB}\b(?P<t>.*)$",
    rf"^(?:would|do) (?:you|u) mind (?:forgetting\b|(?:deleting|erasing|removing|wiping|scrapping|dropping|not (?:keeping|"
    rf"remembering|storing|saving)){_WHAT_WAS_SAID})(?P<t>.*)$",
    rf"^{_FAVOUR}(?:please\s+)?(?:forget\b|(?:delete|erase|remove|wipe|scrap|scratch|drop|bin|ditch){_WHAT_WAS_SAID})(?P<t>.*)$",
    r"^(?:i(?:'?d| would) (?:much |really )?(?:rather|prefer)(?: it)?(?: if| that)? you (?:didn'?t|did not)|"
    r"i(?:'?d| would) (?:really )?appreciate it if you (?:didn'?t|did not)|it would be (?:better|best) if you (?:didn'?t|did not)|"
    r"i(?:'?d| would) (?:much |really )?prefer you not to|i (?:don'?t|do not) want you(?: to)?)\s+"
    r"(?:keep(?:ing)?(?!\s+(?:on\s+)?(?!(?:any|every|some)thing\b)\w+ing\b)|remember|remembering|store|storing|save|saving|retain|retaining|know|"
    r"knowing|hold(?:ing)? on ?to|hang(?:ing)? on ?to)\b(?P<t>.*)$",
    r"^(?:i'?d (?:really |rather )?like you to|i (?:really )?want you to|i need you to)\s+(?:delete|forget|erase)\b(?P<t>.*)$",
    rf"^i (?:really )?(?:don'?t|do not) want\s+(?P<t>{_THING_SAID})\s+(?:saved|stored|kept|remembered|recorded|on (?:file|record))\b",
    rf"^i'?d (?:rather|prefer)\s+(?P<t>{_THING_SAID})\s+(?:wasn'?t|weren'?t|isn'?t|aren'?t|was not|were not|not be|didn'?t get)\s+"
    r"(?:kept|stored|saved|remembered|recorded)\b",
    rf"^{_PLEASE}take\s+(?P<t>.+?)\s+out of (?:your\s+)?(?:memory|memories|records?|notes?|head)\b",
    rf"^{_PLEASE}(?:can we\s+|let'?s\s+)?keep\s+(?P<t>.+?)\s+(?:off the record|out of (?:your\s+|the\s+)?(?:memory|memories|"
    rf"records?|notes?))\b",
    rf"^(?P<t>(?:that|the|this)\s+{_SAID_THING}\s+(?:about|on|re|with)\s+.+?)\s*[—–,;:.-]+\s*"
    rf"(?:(?:please\s+|pls\s+|just\s+|so\s+)?{_NOT}\s+{_KEEP_VERBS}|"
    rf"{_PLEASE}(?:forget|delete|erase|remove|wipe|scrap|scratch|drop|clear|bin|ditch|lose|get rid of))\s+(?:it|that|this)\b",
    r"^(?:that|the|this|what|all (?:that|the))\s+(?:[\w'-]+\s+){0,2}?"
    r"(?:that\s+)?i\s+(?:told|said|mentioned|shared)(?:\s+(?:to\s+)?(?:you|u))?\s+"
    r"(?:(?:about|on|re|with|concerning|regarding)\s+)+(?P<t>.+?)\s*[—–,;:.-]+\s*(?:please\s+|pls\s+|just\s+|so\s+)?"
    rf"(?:{_NOT}\s+{_KEEP_VERBS}\s+(?:it|that|this)|"
    r"(?:forget|delete|erase|remove|wipe|scrap|scratch|drop|bin|ditch|lose)\s+(?:about\s+)?(?:it|that|this|"
    r"(?:that\s+)?i\s+(?:ever\s+)?(?:said|mentioned|told you|brought it up)(?:\s+(?:it|that|anything))?)|"
    r"pretend\s+i\s+(?:never|didn'?t)\s+(?:said|say|mentioned|mention|told you|tell you)(?:\s+(?:it|that|anything))?)\b",
    r"^(?:(?:let'?s|can we|could we|we can|just|please)\s+)?(?:pretend|act like|act as if)\s+(?:i\s+)?(?:never|didn'?t)\s+(?:told|tell|mentioned|mention|said|say|shared|share)"
    r"(?:\s+(?:you|u))?\s+(?P<t>.+)$",
    r"^(?:just\s+|please\s+|can you\s+)?(?:pretend|act like|act as if)\s+(?:you|u)\s+(?:never|didn'?t)\s+(?:heard|hear|saw|see|read|knew|know)\s+(?P<t>.+)$",
    r"^(?:i regret|i shouldn'?t have|i wish i hadn'?t|i wish i didn'?t)\s+(?:telling|told|tell|mentioning|mentioned|"
    r"sharing|shared|saying|said)\s+(?:you|u)?\s*(?P<t>.+)$",
    r"^(?:i told you|i mentioned|i said)\s+(?:about\s+)?(?P<t>.+?)(?:\s+(?:yesterday|earlier|before|last time))?"
    r"\s*[—–,.;-]+\s*(?:please\s+|pls\s+|so\s+)?(?:forget|delete|erase|remove|scrap)\s+(?:it|that|this)\b",
    r"^(?:i|i'?d like to|i want to|let me)\s+(?:take back|retract|withdraw|unsay)\s+(?P<t>(?:what|everything|anything|all|the|that)\b.+)$",
    rf"^{_PLEASE}let\s+(?P<t>(?:that|the|this|all (?:that|the))\s+(?:[\w'-]+\s+){{0,3}}?{_SAID_THING}\s+(?:about|on|re|with)\s+.+?)\s+go\b",
    r"^please[,\s]+no (?:memory|memories|record|records|notes?|trace) (?:at all )?(?:of|about|on)\s+(?P<t>.+)$",
    r"^no (?:memory|memories|record|records|notes?|trace) (?:at all )?(?:of|about|on)\s+(?P<t>.+?)[,\s]+please\W*$",
    rf"^(?:about|re:?|regarding|as for|as to|on)\s+(?P<t>.+?)\s*[—–,.;:-]+\s*(?:please\s+|pls\s+|just\s+)?"
    rf"(?:(?:forget|delete|erase|remove|scrap|scratch|drop|wipe|bin|ditch|ignore)\s+(?:it|that|this|all of (?:it|that))\b|"
    rf"{_NOT}\s+(?:keep|remember|store|save|record)\s+(?:that|this)\s*(?:[.!]|$))",
)
"""English request shapes; `t` is the raw topic (trimmed below)."""

_ASKED_OF_YOU = re.compile(
    r"(?:(?<![\w'])(?<!don't )(?<!do not )(?<!did )(?<!have )(?<!do )(?:you|u)\s+(?:(?:should|could|would|might|must|need to|have to|"
    r"had better|'d better|better|will)\s+)(?:(?:probably|maybe|perhaps|just|also|please|kindly|really|actually|definitely|"
    r"now|then|quickly)\s+)*|"
    r"\b(?:can|could|would|will)\s+(?:you|u)\s+(?:(?:maybe|perhaps|possibly|also|please|just|kindly|now)\s+)+|"
    r"(?<!don't )(?<!do not )(?<!didn't )(?<!never )\b(?:want|need|would like|'d like|like)\s+(?:you|u)\s+to\s+"
    r"(?:(?:just|also|please|now)\s+)?|"
    r"\b(?:possible|best|better|wiser|safer|smarter|good|great|fine|ok|okay|happier)\s+(?:for (?:you|u)\s+to\s+|if (?:you|u)\s+|"
    r"to\s+(?!forget))(?:(?:just|also|please)\s+)?)"
    r"(?P<verb>(?:forget|forgot)(?=\s+(?:about|what|everything|anything|all|any|my|our|the|that)\b)|"
    r"(?:delete|erase|wipe|remove|unlearn|purge|scrap|drop)(?=\s+(?:about|what|everything|anything|all)\b|"
    r"\s+(?:the|that|my|any)\s+(?:[\w'-]+\s+){0,3}?(?:bit|part|stuff|thing|info|information|details?|story|mentions?|notes?|"
    r"records?|memor(?:y|ies))s?\b))"
    r"(?P<t>\s.*)$",
    re.IGNORECASE)
"""A request inside a longer sentence, after what leads up to it: "I think it's better if you forget what I said about
my brother", "you should probably erase the bit about…", "would it be possible to delete everything about…", "I need
you to forget the stuff about…" — asked of the assistant: a modal before the verb, "want/need you to", or "better/
possible/best if you … / to …". Not "did you forget…", "don't you forget…", "you forget my birthday every year", nor
"you can forget about me coming" (no modal that asks: "can" says it will not happen)."""

_CN_PLAIN = r"(?:忘掉|忘了|忘记|删掉|删除|删了|抹掉|清除|清掉)"
"""Verbs that also report what the user did ("钥匙又忘了", "照片我都删了"): a request only when said to us."""
_CN_VERB = (rf"(?:{_CN_PLAIN}|(?:别|不要)(?:给我|帮我)(?:再)?(?:记着|记住|记得|记录|记|存|留着)|(?:别|不要|不用)(?:再|也)(?:记着|记住|记得|记录|记)|"
            r"(?:别|不要|不用|不必)(?:再|也)?(?:留着|保留)|别记着|别记住|别记了|别记录|别记|不要记得|不要记住|"
            r"不要记录|不要记|不用记(?!得那么|得这么)|不必记|没必要记(?!得那么|得这么)|用不着记|无需记|(?:别|不要)留(?:记录|底|档)|"
            r"(?:别|不要)(?:保)?存(?=我的|我们的|这(?:个|件|条|些)|那(?:个|件|条|些)|下来|起来)|(?<=你)(?:别|不要)(?:保)?存了?|别留着|"
            r"当没听过|当没听到|当没听见|当作没听过|当作没听见|(?:就)?当(?:我|作)?没(?:说过|提过|讲过|说|提)|当没这回事)")
_CN_ALL = r"(?:全部|全都|所有的?|一切|统统|通通|全|都)"
"""All of it (女儿的事全部删了): the request is for everything about the topic."""
_CN_ASK = (r"(?:(?:你)?(?:还是|最好|干脆|要不然?|就|索性))?(?:请|能不能麻烦你|能麻烦你|可以麻烦你|麻烦你|麻烦|求你|求求你|你能不能|能不能|"
           r"你可以|可以|能帮我|帮我|你)?(?:你)?(?:还是|最好|干脆|就)?(?:帮我)?")
"""How a Chinese request is asked before its verb or 把: 请, 麻烦你, 能不能, and 还是/最好/干脆/要不 ("你还是把…删了吧")."""
_CN_LEAD_IN = re.compile(r"^[^，,。！!？?]{1,14}[，,]\s*(?=你?(?:还是|最好|干脆|要不然?|就|索性)?(?:帮我|给我)?(?:把|将))")
"""A clause before a Chinese request whose topic follows 把 ("我想了想，你还是把…删了吧"): not the topic. Before any
other request the clause before the comma is the topic ("我表姐被裁员那件事，你就别留着了吧")."""
_CN_END = r"(?:了)?(?:吧|啊|哈|啦|呀|哦)*"
"""What may close a Chinese request after its verb: 了 and the sentence's particles ("你就别留着了吧")."""
CN_REQUESTS: tuple[str, ...] = (
    rf"^{_CN_ASK}当我没说过(?P<t>.+?)$",
    rf"^(?P<t>.+?(?:那件事|那个事|那些事|那事儿?|的事情?))[，,]?\s*(?:你)?(?:就)?当(?:我)?没(?:说过?|发生过?|提过?)(?:吧)?"
    rf"(?:[，,]\s*(?:你)?(?:给我|帮我)?{_CN_PLAIN}{_CN_END})?(?:[，,。！!～~\s]|$)",
    rf"^{_CN_ASK}无视(?:一下|掉)?(?P<t>我?(?:之前|刚才|刚刚|上次|前面)?(?:跟你|和你)?(?:说|讲|提|告诉你)(?:过)?的.*)$",
    r"^(?:我)?(?:真的|实在)?(?:不希望|不想让?|不愿意让?)你(?:再)?(?:记住|记着|记得|记录|保存|存着?|留着)(?P<t>.+)$",
    r"^(?:我)?(?:更|还是|真的)?希望你(?:不要|别|不用)(?:再)?(?:记住|记着|记得|记录|保存|存着?|留着)(?P<t>.+)$",
    r"^(?:你)?(?:别|不要|不用|不必)(?:把|将)(?P<t>.+?)(?:存|记|保存|记录|写)(?:下来|下|住|着|进去)?(?:了|啊|哈|吧)?(?:[，,。！!～~]|$)",
    rf"^{_CN_ASK}(?:把|将)(?P<t>.+?)从(?:你的)?(?:记忆|记录|脑子)(?:里|中)?(?:去掉|拿掉|划掉|抹掉|删掉)",
    rf"^{_CN_ASK}(?:把|将)(?P<t>.+?)(?:的记忆|从(?:你的)?记忆(?:里|中)?)?{_CN_VERB}",
    rf"^{_CN_ASK}(?:就)?{_CN_VERB}(?!{_CN_END}(?:[，,。！!～~]|$))(?P<t>.+)$",
    rf"^(?P<t>.+?)[，,]?\s*(?:你)?(?:就)?(?:帮我|给我|请|麻烦你?|求你)(?:就)?(?:帮我|给我)?{_CN_VERB}{_CN_END}(?:[，,。！!～~\s]|$)",
    rf"^(?P<t>.+?)[，,]?\s*(?:你)?(?:就)?(?!{_CN_PLAIN}){_CN_VERB}{_CN_END}(?:[，,。！!～~\s]|$)",
    rf"^(?P<t>.+?)[，,]?\s*(?<![我])(?:你)?(?:就)?{_CN_PLAIN}了?(?:吧|哈)+(?:[，,。！!～~\s]|$)",
    rf"^(?P<t>.*?(?:说|讲|提|告诉你)(?:过|到)?的.+?|.+?(?:那件事|那个事|那些事|那事儿?|的事情?|(?<=..)那个))[，,]?\s*(?<![我你])"
    rf"(?:你)?(?:给我|帮我)?{_CN_ALL}?(?:就)?(?:给我|帮我)?{_CN_PLAIN}{_CN_END}(?:[，,。！!～~\s]|$)(?!.*(?:怎么办|吗))",
    rf"^{_CN_ASK}(?:把)?关于(?P<t>我?[^我]+?)(?:的(?:事情?|内容|信息|全部|一切|所有)|的?事情?)(?:你)?{_CN_ALL}?(?:给我|帮我)?"
    rf"{_CN_PLAIN}{_CN_END}(?:[，,。！!～~\s]|$)",
    rf"^(?P<t>.+?)[，,]?\s*(?:你)?(?:就)?当我没说过?{_CN_END}(?:[，,。！!～~\s]|$)",
    rf"^(?P<t>.+?(?:那个|那件事|那事儿?|的事|这件事|这个事|那些(?:事|话)?|那块|那点事|那摊子?事))\s*[，,]?\s*(?:你)?(?:就)?"
    rf"(?:别|不要)(?:再)?(?:保)?存(?:着|下来)?"
    rf"{_CN_END}(?:[，,。！!～~\s]|$)",
)
"""Chinese request shapes."""

_NOT_A_REQUEST = re.compile(
    r"\b(?:drop|skip|scrap|lose|cut|remove|get rid of|ditch|discard|ignore|strike|scrub)\s+"
    r"(?:the\s+|all\s+the\s+|those\s+|these\s+|your\s+)?(?:lists?|bullets?|bullet points|emojis?|formatting|"
    r"headings?|headers?|tables?|jargon|small talk|intros?|preambles?|pleasantries|fluff|waffle)\b|"
    r"\bkeep(?:ing)?\s+(?:your\s+|the\s+|my\s+)?(?:answers?|repl(?:y|ies)|responses?|messages?|it|things)\s+"
    r"(?:so\s+|too\s+|that\s+|this\s+)?(?:long|short|brief|simple|formal|casual|wordy|concise|light)\b|"
    r"^\s*(?:how|what(?!\s+i\s+(?:said|told|mentioned|shared)\b)|why|where|when|should i|can i|do i|is it)\b|怎么|如何|是不是|要不要|应不应该|(?:想|老是|总是|容易|经常)"
    r"(?:忘|删)|^我(?:已经|刚|都|就|昨天|今天)?把|"
    r"^(?!.*(?:你|帮我|给我|请|麻烦|把|别|不要|吧|呗|啊|哈|呀|啦)).*(?:全部|全都|都|全|统统)(?:忘了|删了)|\bstrike (?:a|up)\b|\bsave the date\b|\b(?:keep|save|store) (?:me|us)\b|\bforget (?:me|it all|everything and)\b(?! about)|\bforget me not\b|\bi (?:always |often |keep )?forget\b|\bforgot to\b|\bi (?:totally |completely |almost |nearly )?forgot\b",
    re.IGNORECASE,
)
"""'How do I delete…', 'I always forget my keys', 'Forgot to mention, …', '周末只想忘掉工作': the words, but not a
request to us."""

_EN_CONTAINER = re.compile(
    r"^\s*(?:(?:about|that|the|this|all|any|every|a)\s+)*(?:of\s+(?=what\b))?"
    r"(?:(?:what|everything|anything|all|whatever|the stuff|the bit|the part|the thing|the info|the information|"
    r"the details|the things|stuff|bits|bit|part|things|thing|info|information|details|mentions?|records?|notes?|memory|memories|matters?|"
    r"references?(?: to)?|"
    r"(?:the )?(?:figures?|numbers?))\s+)?"
    r"(?:where\s+)?"
    r"(?:(?:i|that i|you know)(?:'ve|\s+have)?\s+(?:ever\s+|even\s+)?(?:told|said|mentioned|shared|said to|told u|told you|talked|spoke|wrote|gave)"
    r"\s*(?:you|u|to you|with you)?\s*(?:(?:earlier|before|yesterday|last time|the other day)\s+)?|"
    r"you know\s+|"
    r"i (?:told|said) (?:you|u)\s+)?"
    r"(?:(?:about|abt|bout|'bout|on|regarding|re:?|of|concerning|from|with|for(?=\s+(?:my|our)\b))\s+)?",
    re.IGNORECASE,
)
_EN_TAIL = re.compile(
    r"\s*(?:(?:[,;:!?]|\s[-–—]\s|\.\s|\.$|\b(?:from|in|into|out of|off) (?:your |the )?(?:memory|memories)\b|\b(?:from|in|into|out of|off) (?:your|the) (?:notes|records|files?|system|database|head|brain)\b|\bplease\b|"
    r"\buntil (?:we|i|they|she|he)\b|\bthanks?\b|\bok(?:ay)?\b|\bit'?s\b|\bit is\b|\bwe'?re\b|\bshe\b|\bhe\b|\bthey\b|\bbecause\b|\bsince\b|"
    r"\bi (?:mentioned|said|told|gave you|shared)\b|\bearlier\b|\byesterday\b|\ba while (?:back|ago)\b|"
    r"(?:\bfrom )?\b(?:a few|a couple of|some) (?:days|weeks|months) ago\b|\bages ago\b|"
    r"\bfrom (?:last (?:time|week|month)|before|earlier|the other (?:day|week|night))\b|\bfor (?:now|the time being|the moment)\b|"
    r"\b(?:would|will|could) (?:ya|you|u)\b|\s(?:mate|pls|plz|thx|ta|in memory|and all)(?=[.,;:!?]|\s*$)|\s(?:too|as well)(?=[.,;:!?]|\s+(?:please|pls|thanks|thx)\b|\s*$)|\bforget it\b|\bfrom memory\b|\blol\b|\blmao\b|"
    r"\bfrom (?:the |your )?records?\b|\bout of your\b|\bthanks\b|\bfrom (?:wherever|whatever)\b|"
    r"\bfrom (?:your|the) (?:files?|brain|head|database|system|storage|logs?|memory bank|notebook)\b|"
    r"\bhaha\b|\b(?:entirely|completely|altogether|for good|forever|permanently)\s*"
    r"(?=[.,;:!?]|$|(?:please|pls|thanks|thx)\b))).*$",
    re.IGNORECASE,
)
_CN_TAIL = re.compile(r"(?:[，,。！!？?；;～~\s]|从(?:你的)?(?:记忆|记录)|吧|了吧|谢谢|不要记|别记|太丢人|他不想|她不想|还没|吗$|"
                      r"(?:你)?(?:先|就|能不能|可不可以|可以|帮我|给我)(?=别|不要|删|忘|去掉|清|$)|能不能|可不可以).*$")
_CN_CONTAINER = re.compile(r"^(?:我)?(?:刚才|刚刚|之前|上次|上回|前面|前阵子|那次)?(?:我)?(?:跟你|和你|对你)?"
                           r"(?:说(?:过)?|讲(?:过)?|提(?:到)?(?:过)?|告诉你)?(?:的)?(?:关于)?")
_CN_SUFFIX = re.compile(r"(?:(?<=..)相关的?|(?<=..)(?:那块|那点事|那摊子?事|上)|[那这]一?大?段(?:话)?|的事情?了?|那事儿?|(?<=..)那个|(?<=..)这个|(?<=..)那条|(?<=..)这条|(?<=.)那个事儿?|这件事|那件事|的那些话|的那些事?|那些事?|的内容|的信息|的部分|的事儿|这些|的那件事|的记忆|"
                        r"的?数字|的?金额|的?数额|的?细节|的?(?:情况|结果)|了)$")

_CN_ONE_CHARACTER_KIN = frozenset("姐弟哥妹妈爸舅姑姨叔婶")

_EN_LATEST = re.compile(
    r"^(?:(?:that|the|this|my|your)\s+)?(?:(?:very\s+)?(?:last|latest|previous|most recent)\s+"
    r"(?:thing|bit|part|message|msg|one|sentence|point|detail)s?|what i (?:just|last)\s+(?:said|told you|told u|mentioned|"
    r"wrote|typed|shared|sent))(?:\s+(?:that\s+)?i\s+(?:just\s+)?(?:said|told you|told u|mentioned|wrote|typed|shared|sent))?"
    r"(?:\s+(?:about|on|re|regarding)\s+(?P<about>.+))?$|"
    r"^what i (?:said|told you|told u|mentioned|wrote|typed)(?:\s+(?:earlier|before|just now|a minute ago))?"
    r"(?:\s+(?:lol|haha|lmao|pls|please|thanks))*$",
    re.IGNORECASE,
)
"""A request about the latest thing said: "the last thing I said about Tom", "what I just said", "my last message",
"what I said" with nothing after it ("Forget what I said, I was drunk")."""
_CN_LATEST = re.compile(r"刚才|刚刚|上一条|上一句|最后那句|最后一条|最后那条|刚说的")
_EN_TAKEN_BACK = re.compile(
    r"^(?:(?:just|please|pls|plz|sorry)[\s,]+)*(?:(?:can|could|would) (?:you|u) (?:please |pls )?)?(?:"
    r"(?:ignore|disregard|scratch|strike|scrap|delete|forget|drop)\s+(?:that|this|my|the)\s+(?:last|previous|latest)\s+"
    r"(?:message|msg|text)s?\b|"
    r"(?:forget|pretend)\s+(?:that\s+)?i\s+(?:ever\s+|even\s+|never\s+)?(?:said|say|mentioned|mention|told you|brought (?:it|that|this) up)"
    r"(?:\s+(?:that|it|this|anything|any of (?:that|this|it)))?\s*(?:[,.;:!—–-]|$))", re.IGNORECASE)
"""Taking back the message before, by what it was: "ignore that last message", "forget I said anything", "pretend I
never said that" (not "forget that I said I'd call her": what follows is what was said)."""
_EN_TAKE_IT_BACK = re.compile(r"^(?:(?:oh|actually|sorry|um+|hmm+|ugh|no)[\s,]+)*(?:scratch|strike|scrap|ignore|disregard|"
                              r"forget|never ?mind)\s+(?:that|it|this)\s*[,.;:!—–-]+\s*(?P<why>.*)$", re.IGNORECASE)
_ABOUT_THE_TELLING = re.compile(
    r"\b(?:i (?:even )?(?:mentioned|said|told you|brought (?:it|that|this) up)|mentioned it|said (?:it|that|anything)|"
    r"should(?:n'?t| not) have|overshar\w*|i'?m (?:fine|ok|okay|alright|all right|good)|(?:just |only )?(?:a |having a )?"
    r"(?:bad|rough|long) (?:day|night|week)|not (?:official|confirmed|certain|definite|sure yet)|(?:was|am|i'?m) (?:just )?"
    r"(?:venting|joking|kidding|rambling|ranting)|mortified|embarrass\w*|private|between us|off the record|not my (?:story|news|"
    r"place))", re.IGNORECASE)
"""Why something just said is taken back, when the reason is the telling: "scratch that, she'd be mortified I
mentioned it", "forget it, I'm fine, just a bad day". "Scrap that, it's Saturday now" changes a plan instead."""
_CN_TAKEN_BACK = re.compile(r"^(?:你)?(?:就)?当(?:我|作)?没(?:说过?|提过?|讲过?)(?:这句|那句|这个|那个)?(?:话)?"
                            r"(?:了|吧|哈|啊|哦|啦)*(?:[，,。！!～~\s]|$)")
"""当我没说 with nothing before it: the message before is taken back."""


@dataclass(frozen=True)
class ForgetRequest:
    topic: str
    """What to forget; "" when the request names only the latest thing said ("Forget what I just said")."""
    latest: bool = False
    """Only the most recent message that said it ("the last thing I said about my brother"), not all of it."""
    story: bool = False
    """The topic is a person and the request names a vague "thing" about them ("that thing about my daughter",
    女儿那个事): their story, not who they are."""
    last_time: bool = False
    """The topic as told the last time it came up ("that stuff about Mia from last time", 上次说的): that chat's."""
    told: tuple[int, int] | None = None
    """Which of the things just told in this chat, by their order: (start, count) over its messages, start counted
    from the end when negative ("the first one" (0, 1), "the second story" (1, 1), "the last two things" (-2, 2),
    后面那个 (-1, 1))."""


_EN = [re.compile(p, re.IGNORECASE) for p in EN_REQUESTS]
_CN = [re.compile(p) for p in CN_REQUESTS]


_THE_THING_LISTED = re.compile(r"^(?:(?:every|any)thing about\s+)?(?:that|the|this)\s+(?:whole\s+)?(?:thing|business|situation|saga|"
                               r"stuff|episode),\s*(?P<things>[^.;!?]+?)\s*(?:[.;!?]|$)", re.IGNORECASE)
"""A vague thing the request names, then says which: "everything about that whole thing, the lump, the biopsy, all of it"."""


def _trim_en(topic: str) -> str:
    kept_in = re.match(r"^\s*(it|that|this|all of (?:it|that))\s+(?:from|in|into|out of|off)\s+(?:wherever|whatever|your|the)\b",
                       topic, re.IGNORECASE)
    if kept_in:  # "wipe that from your notes": "that", what the message said before, not "your notes"
        return kept_in.group(1)
    topic = _EN_CONTAINER.sub("", topic.strip(" \"'“”"), count=1)
    listed = _THE_THING_LISTED.match(topic)  # "that whole thing, the lump, the biopsy, all of it": the lump and the biopsy
    if listed:
        topic = " and ".join(re.split(r"\s*,\s*", re.sub(r",?\s*(?:and\s+)?all of (?:it|that)\W*$", "", listed["things"])))
    topic = _EN_TAIL.sub("", topic)
    for _ in range(2):  # "all of that about my dad's gambling" → "about my dad's gambling" → "my dad's gambling"
        topic = re.sub(r"^(?:(?:all\s+)?of\s+(?:that|this|it)\s+(?:about|on)|that|about|the whole thing about|the whole|the entire|"
                       r"(?:anything|everything|something) (?:about|on)|(?:related|relating|relevant|linked|connected) to|"
                       r"to do with)\s+", "", topic, flags=re.IGNORECASE)
    return topic.strip(" .!?\"'“”…")


def _trim_cn(topic: str) -> str:
    # "阿玲那件事（离婚）": what is in the brackets says which thing about 阿玲
    topic = re.sub(r"(?:那件事|那个事|那事儿?|的事情?|这件事)?\s*[（(【\[]([^）)】\]]{1,12})[）)】\]]", r"\1", topic.strip())
    topic = _CN_CONTAINER.sub("", topic, count=1)
    topic = _CN_TAIL.sub("", topic)
    topic = re.sub(r"^(?:你)?(?:给我|帮我)?把", "", topic)  # "你给俺把那个事删了"
    topic = re.sub(r"^(?:那个|这个|关于|有关|我的(?=.{2,}信息))", "", topic)
    topic = re.sub(r"(?<=.)(?:那个|那点|那段|那块|那摊子?|那些)(?=.)", "的", topic)  # 我姐那个好消息, 家里那点事
    topic = re.sub(r"(?<=.)(?:那块|那些|那摊子?事?)$", "", topic)  # 身份那块, 欠钱那些
    topic = topic.replace("的的", "的")  # 身份那块的事情
    topic = re.sub(rf"(?:你)?(?:给我|帮我)?{_CN_ALL}$", "", topic)  # 女儿的事全部 → 女儿的事
    topic = re.sub(r"(?<=..)(?:这个事?|这事儿?|这件事)?(?:你(?:还是|最好|就|也|干脆)?忘?)?$", "", topic)  # 工资这个你还是 → 工资
    topic = re.sub(r"(?<=.)(?:的|那)?(?:那些|那点|那档子|那摊子|这些)?(?:破事儿?|烂事儿?|糟心事儿?|屁事儿?|档子事儿?|麻烦事儿?)$", "",
                   topic)  # 工资那些破事, 孩子学校那档子事: the matter, however it is grumbled at
    topic = _CN_SUFFIX.sub("", _CN_SUFFIX.sub("", topic)).strip(" 。，,…~～")  # 住址相关的信息 → 住址
    if topic in _CN_ONE_CHARACTER_KIN or topic[:1] in _CN_ONE_CHARACTER_KIN and topic[1:2] == "的":
        return f"我{topic}"  # "我姐那个好消息": the sister's, not the character 姐
    return topic  # "我姐那个事": the sister, not the character 姐


def _in_sentence(sentence: str) -> ForgetRequest | None:
    stripped = re.sub(_OPENER, "", sentence.strip(), count=1, flags=re.IGNORECASE)
    if not stripped or _NOT_A_REQUEST.search(stripped):
        return None
    taken_back = _EN_TAKE_IT_BACK.match(stripped)
    if _EN_TAKEN_BACK.match(stripped) or _CN_TAKEN_BACK.match(stripped) or (
            taken_back and _ABOUT_THE_TELLING.search(taken_back["why"])):
        return ForgetRequest("", latest=True)
    for pattern in _EN:
        match = pattern.match(stripped)
        if match:
            raw = match.group("t").strip(" \"'“”")
            # "the last thing I said about Tom, it was mean", "what I just said, it was dumb", "what I said, I was drunk"
            first_clause = re.split(r"\s*[,;:!?—–]\s*|\.\s|\s-\s", raw)[0]
            latest = (_EN_LATEST.match(raw.strip(" .!?\"'“”")) or _EN_LATEST.match(_EN_TAIL.sub("", raw).strip(" .!?\"'“”"))
                      or _EN_LATEST.match(first_clause.strip(" .!?\"'“”")))
            if latest:
                return ForgetRequest(_trim_en(latest.group("about") or ""), latest=True)
            topic = _trim_en(raw)
            if topic and not re.fullmatch(_PRONOUN, topic, re.IGNORECASE):
                return ForgetRequest(topic)
    asked = _ASKED_OF_YOU.search(stripped)
    if asked and not (asked["verb"].lower() == "forgot" and not re.search(r"\bif (?:you|u)\s+$", stripped[:asked.start("verb")])):
        topic = _trim_en(asked["t"])
        if topic and not re.fullmatch(_PRONOUN, topic, re.IGNORECASE) and not _EN_LATEST.match(topic):
            return ForgetRequest(topic)
    if re.search(r"[\u4e00-\u9fff]", stripped):
        stripped = _CN_LEAD_IN.sub("", stripped, count=1)
        for pattern in _CN:
            match = pattern.search(stripped)
            if match:
                raw = match.group("t")
                latest = bool(_CN_LATEST.search(raw))
                topic = _trim_cn(_CN_LATEST.sub("", raw))
                if re.fullmatch(r"(?:我)?(?:说|讲|提|发)(?:过)?的?(?:话|那句|这句|那些|内容)?|那句话?|这句话?|那条|这条|的?", topic):
                    topic = ""
                if re.fullmatch(r"[住着了录得吧啊哈啦呀哦]+|就算了?", topic):  # what is left of "别记住了哈": no topic
                    continue
                if latest or (len(topic) >= 2 or concepts_in(topic)) and not re.fullmatch(r"(?:吧|了|它|这个|那个|这些)", topic):
                    return ForgetRequest(topic, latest)
    return None


_PRONOUN = r"(?:it|that|this|me|everything|all|them|all (?:of )?(?:it|that))"
_ANTECEDENT_FRAME = re.compile(
    r"^(?:(?:remember|you know|recall)\s+(?:what|that|the|how)\s+(?:i\s+(?:told you|said|mentioned)\s+)?"
    r"(?:(?:story|thing|bit|stuff)\s+)?(?:about\s+)?|"
    r"(?:(?:so\s+)?(?:last (?:week|month|time)|earlier|yesterday|the other day|a while (?:back|ago)),?\s*)?"
    r"i\s+(?:mentioned|told you about|told you|said|talked about|brought up)\s+(?:that\s+)?|"
    r"(?:about|re:?|regarding|as for)\s+)",
    re.IGNORECASE)
"""How a message brings up what its request then calls "it": "You know that story about…?", "Earlier I mentioned…"."""
_ADD_ON = re.compile(
    r"^(?:and\s+|also\s+)?the\s+(?P<t>(?:[\w'-]+\s+){0,4}?[\w'-]+?)\s+(?:part|bit|stuff|thing|story|business|details)\s+"
    r"(?:too|as well)\b|^(?:same (?:for|with|goes for)|ditto (?:for|with)|that goes for)\s+(?P<u>.+?)(?:\s+too)?\s*(?:[.!,]|$)",
    re.IGNORECASE)
"""A second topic after a request: "The gambling part too", "Same for the landlord"."""


_STATES = re.compile(r"\b(?:is|are|was|were|has|have|had|looks?|seems?|feels?|'s|'re)\b", re.IGNORECASE)


def _forgets_it(sentence: str) -> bool:
    """A request whose topic is only a pronoun ("Please erase it from wherever you keep stuff")."""
    stripped = re.sub(_OPENER, "", sentence.strip(), count=1, flags=re.IGNORECASE)
    if not stripped or _NOT_A_REQUEST.search(stripped) or re.search(r"[\u4e00-\u9fff]", stripped):
        return False
    if _BIN_IT.match(stripped):
        return True
    if not _ABOUT_KEEPING.search(stripped):
        return False  # "Forget it, I'll get the bus", "Scrap that, it's Saturday now": a change of mind
    for pattern in _EN:
        match = pattern.match(stripped)
        if match and re.fullmatch(_PRONOUN, _trim_en(match.group("t").strip(" \"'“”")), re.IGNORECASE):
            return True
    # the request in a later one of joined clauses: "Could you just leave it, wipe it from wherever you keep things?"
    # — only with the place memories are kept ("clear it from the calendar" is no request to forget)
    if re.search(r"\bi (?:told|said to|asked) (?!you\b)\w+|\b(?:he|she|they) (?:said|told|says|asked)\b", stripped, re.I):
        return False  # "I told him, move on, and erase it from your memory": said to someone else
    clauses = re.split(r",\s*|\s+and\s+", stripped)
    return len(clauses) > 1 and any(_KEPT_IN.search(clause) and _forgets_it(clause) for clause in clauses[1:])


_STORES = r"files?|memory|memories|records?|notes?|brain|head|system|database|logs?"
"""Where the assistant keeps things, after "your"."""
_KEPT_IN = re.compile(rf"\b(?:from|out of|off)\s+(?:wherever|whatever|your\s+(?:{_STORES})|"
                      r"the\s+(?:files?|memory|records?|notes?|system))\b", re.IGNORECASE)


_ABOUT_KEEPING = re.compile(
    r"\b(?:from|out of|off) (?:wherever|whatever|your|the (?:files?|memory|records?|notes?|system))\b|"
    r"\b(?:i'?d (?:really |rather )?like you to|i (?:really )?want you to|i need you to|can you|could you|would you|please)\b|"
    r"\b(?:don'?t|do not) (?:keep|store|save|remember|record)\b", re.IGNORECASE)
"""What makes "forget it" a request to the assistant: where things are kept, or asking it outright."""
_BIN_IT = re.compile(
    rf"^{_PLEASE}(?:bin|ditch|scrub|lose|discard|get rid of|throw away|throw out|strike|chuck|toss)\s+(?:it|that|this)\s+"
    rf"(?:from|out of|off)\s+(?:wherever|whatever|(?:your|the) (?:{_STORES}|list))\b", re.IGNORECASE)
"""'Bin it from your files': a word that throws things away says "forget" only with where the thing is kept."""


_GREETING = re.compile(r"^\W*(?:happy|merry|good (?:morning|afternoon|evening|night)|hope you|hi|hello|hey|morning|"
                       r"evening|thanks|thank you|cheers)\b", re.IGNORECASE)
_PREFACE = re.compile(
    r"^(?:i\s+)?(?:forgot to (?:say|mention|tell you)|meant to (?:say|mention|tell you|ask)|one (?:more )?thing"
    r"(?: i meant to (?:say|mention))?|before i forget|quick (?:one|thing))(?:\s+(?:last time|earlier|yesterday|"
    r"the other day|before))?\s*(?:—|–|--?|:)\s+(?P<tail>\w.+)$", re.IGNORECASE)
"""A preface before the thing a request calls "it": "I forgot to say last time — the Northgate thing"."""


_THAT_THING = re.compile(r"^\W*(?:that|this)\s+(?:whole\s+|entire\s+)?(?:[\w'-]+\s+){0,3}?(?:thing|stuff|bit|story|"
                         r"business|saga|situation|mess|drama|news|info|matter)\b(?!\s+(?:is|was|isn'?t|wasn'?t)\b)", re.IGNORECASE)
"""'That whole saga with the landlord': a thing pointed at, not "That's private"."""


def _antecedent(sentences: list[str]) -> str:
    """What a message said before its request calls it "it": the sentence that points back at something told
    ("Earlier I told you about…"), else the first sentence that is not a reason ("Not my story to tell.") or a
    greeting ("Happy Friday!")."""
    framed, plain = [], []
    for sentence in sentences:
        if len(sentence.split()) < 3 or re.match(r"^\W*(?:it|that|this|not|he|she|they|i'?d|i don'?t)\b", sentence, re.I) \
                and not _THAT_THING.match(sentence):
            continue  # "Not my story to tell.", "It's private." (not "That whole saga with the landlord")
        opened = re.sub(_OPENER, "", sentence.strip(), count=1, flags=re.IGNORECASE)  # "So, the Porto hostel thing?"
        if _GREETING.match(opened) and len(opened.split()) <= 7 and not re.search(
                r"\b(?:i|i'm|im|i've|me|my|we|our)\b", opened, re.IGNORECASE):
            continue  # "Happy new year!", "Hope you had a good weekend." (not "Hope you won't judge me, but I…")
        preface = _PREFACE.match(opened)
        if preface:
            opened = preface["tail"]  # "I forgot to say last time — the Northgate thing, the interview?"
        named = re.match(r"^(?P<head>.+?)\s+(?:—|–|--?|:)\s+(?P<tail>\w.+)$", opened)
        if named and _ANTECEDENT_FRAME.match(named["head"]):  # "I said something about Ana - the divorce": Ana's part
            whom = _trim_en(_ANTECEDENT_FRAME.sub("", named["head"], count=1))  # in it, not all said of Ana
            if whom and names_only_people(whom):
                framed.append(f"{whom} and {_trim_en(named['tail'].rstrip('?'))}")
                continue
        opened = " ".join(re.sub(r",?\s*\b(?:um+|uh+|erm+|er)\b\s*,?", " ", opened, flags=re.IGNORECASE).split())  # "the, um, it"
        topic = _trim_en(_ANTECEDENT_FRAME.sub("", opened, count=1).rstrip("?"))
        if topic:
            (framed if _ANTECEDENT_FRAME.match(opened) else plain).append(topic)
    return next(iter(framed + plain), "")


_CATEGORY = re.compile(
    r"^(?:(?:the|my|any|all|that|this|those|our) )?(?:medical|health|money|financial|finance|work|job|family|personal|"
    r"private|relationship|legal|dating|mental health|sensitive)\s+(?:stuff|things?|info|information|details|bits?|"
    r"matters|business)$", re.IGNORECASE)
"""A kind of thing, not a thing ("medical stuff"): after a request it says why, and as a topic part of its own its
one word would take whatever holds it ("… Medical Supplies", the user's employer)."""


def _add_ons(sentences: list[str]) -> list[str]:
    """The topics the sentences after a request add to it: "The gambling part too", or a request of their own ("I
    don't want medical stuff saved")."""
    topics = []
    for sentence in sentences:
        match = _ADD_ON.match(sentence.strip())
        request = _in_sentence(sentence)
        if request is not None and request.topic and not request.latest:
            if not _CATEGORY.match(request.topic):  # "I don't want medical stuff saved": the reason, not a topic
                topics.append(request.topic)
        elif match and request is None and not _STATES.search(match.group("t") or match.group("u")):
            topics.append(_trim_en(match.group("t") or match.group("u")))  # not "The weather is nice too"
    return [t for t in topics if t and not re.fullmatch(_PRONOUN, t, re.IGNORECASE)]


_ALL_OF_IT = re.compile(r"\b(?:all|everything|whole|entire|every)\b|全部|所有|一切|都|统统|通通|全(?=删|忘|清)", re.IGNORECASE)
"""'Forget all the stuff about my brother': everything, as asked, not only the story."""
_A_THING = re.compile(r"\b(?:thing|stuff|business|matter|situation|story|saga|drama|issue|news)\s+(?:about|with|re|"
                      r"regarding|of|concerning)\b|\b(?-i:[A-Z])[a-z]+(?:'s|’s)?\s+(?:news|thing|stuff|situation|drama|"
                      r"business|saga)\b|(?:那个|这个|那件|这件|那|的)(?:事(?:情|儿)?|情况)", re.IGNORECASE)


_DIALECT_I = re.compile(r"俺|(?<=[给帮让替])额(?![度外头数定满])|(?:^|(?<=[，,\s]))额(?=[的家屋妈爸娃闺儿女老哥姐弟妹爷奶婆])")
"""The first person in northern speech: 俺, and 额 where it stands for 我 ("你给额删了", "额闺女"), not 金额 or 额度."""


def _standard_speech(text: str) -> str:
    """"俺闺女那个事你给删了": 我 for the dialect's first person, and "给我" for a bare 给 before the verb."""
    if not has_cjk(text):
        return text
    return re.sub(r"(?<=你)给(?=[删忘抹清去])", "给我", _DIALECT_I.sub("我", text))


_LAST_TIME = re.compile(r"\bfrom (?:last time|the other day|last week|our last chat)\b|上次|上回")
"""A request that says when the thing was told: the last time it came up."""
_THEIRS = re.compile(r"^(?:her|his|their)\s+(?=\w)|^[他她](?=\w)", re.IGNORECASE)
_WHO_ELSE = re.compile(rf"\babout\s+(?P<name>[A-Z][^\W\d_A-Z]{{2,}})\b|\b(?P<kin>(?:my|our)\s+[a-z-]+)\b"
                       rf"|(?P<cn>我(?:{CN_PEOPLE_WORDS.pattern}))")


_KIN_AFTER_A_NAME = re.compile(r"\b([A-Za-z][a-z]{2,})(?:'s|’s)?\s+(ex|ex-(?:wife|husband|girlfriend|boyfriend|partner)|"
                               r"wife|husband|girlfriend|boyfriend|gf|bf|partner|fianc[eé]e?|mum|mom|dad|brother|sister|"
                               r"son|daughter|kids?|boss)\b")
_NOT_AN_OWNER = re.compile(r"(?:my|our|his|her|their|your|the|a|an|and|with|about|of|new|old|former|late|first|second|"
                           r"current|crazy|toxic|abusive|jealous|evil|horrible|psycho|nightmare|deadbeat|lovely|sweet|"
                           r"real|actual|biological|step|half|best|older|younger|big|little|eldest|youngest|poor|dear|"
                           r"that|this|whole|future|other|\w+(?:ly|ed|ing|ful|ous|ive|ic))", re.IGNORECASE)


def _owner_marked(topic: str) -> str:
    """"the kev ex thing", "kevs ex": a name before a word for someone of theirs is whose they are ("kev's ex"), so
    the story is the ex's, not all said of Kev. "my toxic ex" and "the new boss" name no one before."""
    def marked(match: re.Match[str]) -> str:
        word = match.group(1)
        if _NOT_AN_OWNER.fullmatch(word) or concepts_in(word) and not concepts_in(word) & PEOPLE_CONCEPTS:
            return match.group(0)
        return f"{word}'s {match.group(2)}"
    return _KIN_AFTER_A_NAME.sub(marked, topic)


def _whose(topic: str, text: str) -> str:
    """A topic that names someone by "her", "his" or 他 ("Forget her news for now", 他住院那事) names whom the rest
    of the request does ("…shouldn't have told you about Lucy", "我爸不想让人知道")."""
    if not _THEIRS.match(topic):
        return topic
    rest = text.replace(topic, " ")
    found = next((m for m in _WHO_ELSE.finditer(rest)
                  if not m["kin"] or concepts_in(m["kin"]) & PEOPLE_CONCEPTS), None)  # "my brother", not "my business"
    if found is None:
        return topic
    if found["cn"]:
        return _THEIRS.sub(found["cn"], topic, count=1)
    who = found["name"] or found["kin"]
    return _THEIRS.sub(f"{who}'s ", topic, count=1)


_ORDINALS = {"first": 0, "second": 1, "third": 2, "former": 0, "last": -1, "latter": -1, "final": -1}
_COUNTS = {"two": 2, "three": 3, "2": 2, "3": 3}
_TOLD_THINGS = r"(?:one|ones|thing|things|story|stories|bit|part|fight|message|messages|matter|point|issue|item|topic)"
_EN_BY_ORDER = re.compile(
    rf"^(?:the\s+)?(?:(?P<ord>first|second|third|last|latter|former|final)(?:\s+(?P<n>two|three|2|3))?\s+{_TOLD_THINGS}\b"
    rf"|(?:{_TOLD_THINGS}\s+(?:that\s+)?)?i\s+(?:raised|mentioned|said|told you|brought up)\s+(?P<ord2>first|last))"
    r"(?:\s+(?:that\s+)?i\s+(?:mentioned|said|told you|raised|brought up|shared))?\s*(?:[,.;:!?—–-]|$)", re.IGNORECASE)
"""A topic that is which of the things just told: "the first one", "the second story I told you", "the last two things
I told you", "the matter I raised first"."""
_CN_BY_ORDER = re.compile(r"^(?:把)?(?:(?P<ord>第一|第二|第三|前面|后面|最后|前一|后一)(?:个|件|条|段)?(?:那个|那件|那条|那段)?(?:事)?)$")
_CN_ORDINALS = {"第一": 0, "第二": 1, "第三": 2, "前面": 0, "前一": 0, "后面": -1, "后一": -1, "最后": -1}


def _by_order(topic: str) -> tuple[int, int] | None:
    """Which of the things just told a request's topic names by their order, if it does."""
    english = _EN_BY_ORDER.match(topic.strip())
    if english:
        which = (english["ord"] or english["ord2"]).lower()
        count = _COUNTS.get((english["n"] or "").lower(), 1)
        start = _ORDINALS[which]
        return (start - count + 1, count) if start < 0 else (start, count)
    chinese = _CN_BY_ORDER.match(topic.strip())
    return (_CN_ORDINALS[chinese["ord"]], 1) if chinese else None


def forget_request(text: str) -> ForgetRequest | None:
    """A request to forget (see `_request`); `story` when it asks for a vague thing about a person."""
    text = _standard_speech(text)
    request = _request(text)
    if request is not None and request.topic and (told := _by_order(request.topic)) is not None:
        return ForgetRequest("", told=told)
    if request is not None and request.topic:
        request = replace(request, topic=_owner_marked(_whose(request.topic, text)),
                          last_time=not request.latest and bool(_LAST_TIME.search(text)))
    if request is None or not request.topic or request.latest or not _A_THING.search(text) or _ALL_OF_IT.search(text):
        return request
    return replace(request, story=True) if names_only_people(request.topic) else request


def names_only_people(topic: str) -> bool:
    """"my sister", "Jo and Sam", 女儿: the topic is who, not what about them."""
    parts = topic_parts(topic)
    return bool(parts) and all(_only_a_person(p) for p in parts)


def _only_a_person(part: str) -> bool:
    """"daughter", "my little brother", 女儿, "Ella": someone, and nothing about them ("my mum's cancer")."""
    words = re.sub(r"^(?:my|our)\s+|^我的?", "", part.strip(), flags=re.IGNORECASE)
    if re.fullmatch(r"[A-Z][a-z]+|(?:小|老|阿)[\u4e00-\u9fff]{1,2}|[\u4e00-\u9fff](?:姐|哥|总|阿姨|叔叔?|大爷|师傅)", words) \
            and not concepts_in(words):  # "Ella", 小雯, 阿琪, 王阿姨 — not 老家, 小孩
        return True
    found = concepts_in(words) or concepts_in(part)
    return bool(found) and found <= PEOPLE_CONCEPTS and len(words.split()) <= 2 and len(words) <= 16


_SAME_WITH = re.compile(r"^\W*(?:and\s+|oh\s+|also\s+)?(?:(?:same|likewise)\s+(?:goes\s+)?(?:w/?|with|for)|ditto)\s+"
                        r"(?P<t>\w.*?)[\s.!?,]*$", re.IGNORECASE)
"""'same w the cousin thing from a while back': what a request just made is made for too."""
_BARE_IT = re.compile(rf"{_OPENER}(?:(?:just|please|pls|plz)\s+)*{_PLEASE}(?:drop|forget(?: about)?|delete|scrap|bin|erase|remove|wipe|lose|ditch|get rid of)"
                      rf"\s+(?:it|that|this)(?:\s+(?:from|out of|off)\s+(?:your|the)\s+(?:{_STORES}))?"
                      r"(?:\s+(?:too|as well|please|pls|thanks|thx|ty))*\W*$", re.IGNORECASE)
_TOLD_BEFORE = re.compile(r"\s+(?:from|i (?:told|tld) (?:you|u)(?: about)?|i mentioned|i said|i brought up)\s*(?:a while (?:back|ago)|before|earlier|last (?:week|month|time)|"
                          r"the other day)?\s*$", re.IGNORECASE)


def _same_as_before(said: list[str]) -> ForgetRequest | None:
    """"same w the cousin thing from a while back. just drop it" (or in one sentence, after a comma): the thing told
    before, asked for as a request before it was. Not "Same with my mum. Ugh, just drop it!": nothing told before."""
    pairs = [(said[0], said[1])] if len(said) == 2 else []
    head, comma, tail = said[-1].rpartition(",")
    if comma:
        pairs.append((head, tail))
    for before, request in pairs:
        same = _SAME_WITH.match(before)
        if same and _BARE_IT.match(request.strip()) and _TOLD_BEFORE.search(same["t"]):
            topic = _trim_en(_TOLD_BEFORE.sub("", same["t"]))
            return ForgetRequest(topic) if topic else None
    return None


def _request(text: str) -> ForgetRequest | None:
    """A request to forget, found in the whole message or any of its sentences. A request for "it" forgets what the
    message said before it; a topic added after it ("The gambling part too") is forgotten with it."""
    fragments = re.split(r"(?<=[，,～~])\s*|\s+(?=[\u4e00-\u9fff])", text.strip())
    sentences = split_sentences(text)
    for index, sentence in enumerate(sentences):
        request = _in_sentence(sentence)
        if request and _two_verbs_one_it(request.topic):
            request = None  # "Please drop it and erase it from your memory": two verbs, one "it"
        if request is None:
            request = _same_as_before([*sentences[index - 1:index], sentence])
        if request is None and _forgets_it(sentence):
            topic = _antecedent(sentences[:index])
            request = ForgetRequest(topic) if topic else None
        if request is None and (dashed := _NAMED_THEN_ASKED.match(sentence)) and _forgets_it(dashed["ask"]):
            topic = _antecedent([dashed["named"]])  # "the stuff I told you about Rita and the debt - can you forget
            request = ForgetRequest(topic) if topic else None  # all that?": named first, asked for after a dash
        if request:
            added = _add_ons(sentences[index + 1:]) if request.topic and not request.latest else []
            return replace(request, topic=" and ".join([request.topic, *added])) if added else request
    if re.search(r"怎么办|咋办|怎么搞", text):
        fragments = []  # "考试的事情全忘了，怎么办": a worry, whatever a fragment of it says
    for sentence in [text.strip(), *fragments]:
        request = _in_sentence(sentence)
        if request and not _two_verbs_one_it(request.topic):
            return request
    return None


_NAMED_THEN_ASKED = re.compile(r"^(?P<named>.+?)\s+(?:-|–|—|--)\s+(?P<ask>\w.+)$")
"""One sentence that names the thing and then, after a dash, asks to forget "it" or "all that"."""


def _two_verbs_one_it(topic: str) -> bool:
    """"drop it and erase it", "drop it and move on", "forget that and delete it": the topic read from two verbs is
    no topic."""
    return bool(re.match(rf"(?:{_PRONOUN}\s+)?(?:and|or)\b", topic, re.IGNORECASE))  # "Forget that and delete it…"


def forget_topic(text: str) -> str | None:
    """The topic of a request to forget ("" for one that names only the latest thing said), or None."""
    request = forget_request(text)
    return request.topic if request else None


def topic_parts(topic: str) -> list[str]:
    """'Archie and Linda and the drinking thing' → the parts a forget request names."""
    parts = re.split(r"\s*(?:\band\b|&|,|和(?![你您])|跟(?![你您])|与|、|以及)\s*", topic, flags=re.IGNORECASE)  # not 跟你说的
    vague = r"\b(the|whole|entire|thing|things|stuff|business|matter|story|situation|issue|bit|info|my|about|saga|drama|news)\b"
    parts = [re.sub(vague, " ", p, flags=re.IGNORECASE).strip() for p in parts]
    parts = [p for p in parts if re.search(r"\w", p)]
    last = re.match(r"^([A-Z][^\W\d_A-Z]+)(?:'s|’s)?\s+(.+)$", parts[-1]) if parts else None
    if last and len(parts) > 1 and all(re.fullmatch(r"[A-Z][^\W\d_A-Z]+", p) for p in parts[:-1]):
        # "Omar and Lena splitting up", "Jo and Sam's row": the story of both, not all about Omar or Jo
        parts = [f"{p} {last.group(2)}" for p in parts[:-1]] + [parts[-1]]
    return parts


_REGRET = re.compile(
    r"\b(?:should(?:n'?t| not) have|never should have|wish i (?:hadn'?t|had not|never))\s+(?:\w+\s+)?"
    r"(?:said|told|mentioned|shared|brought|typed|written)\b|\bnot (?:my|mine)\b[\w\s]{0,12}\b(?:story|news|place|to (?:tell|share))\b|"
    r"\bover-?shar(?:ed|ing)\b|\bi was (?:just )?(?:venting|ranting|gossiping)\b|不该(?:说|讲|告诉)(?!话)", re.IGNORECASE)


def _only_regret(sentence: str) -> bool:
    """A sentence that says nothing besides the regret: each of its clauses is one ("I was just venting and I
    overshared"), and nothing a slot holds ("I was venting because my dad died yesterday", "我不该说的，我下个月要结婚了"
    tell news)."""
    clauses = [c for c in re.split(r"[,，;；]|\b(?:but|though|because|so|and|as)\b|不过|但是|可是|因为|所以", sentence,
                                    flags=re.IGNORECASE) if re.search(r"\w", c)]
    def size(clause: str) -> int:
        return len(re.findall(r"[A-Za-z0-9']+", clause)) + len(re.findall(r"[\u4e00-\u9fff]", clause))
    return slot_of(sentence) is None and all(_REGRET.search(c) or size(c) <= 1 for c in clauses)
"""A reason for a request that speaks of the telling itself: regret, venting, someone else's story."""


_KEPT_PRIVATE = re.compile(
    r"\b(?:keep(?:ing)? (?:it|that|this|them) (?:off the record|private|quiet|between us|to (?:your|my)self|confidential)|"
    r"(?:prefer|rather) (?:it|that|this|they) (?:not|wasn'?t|weren'?t|isn'?t|aren'?t)\b|(?:it|that|this) (?:not )?"
    r"(?:be |being )?(?:retained|stored|kept|saved|recorded|remembered)\b|off the record|between (?:us|you and me)|"
    r"(?:don'?t|do not) want (?:it|that|this|them) (?:kept|stored|saved|recorded|written down|on record|anywhere))",
    re.IGNORECASE)
"""A sentence beside a request that asks the same again, in other words: "I prefer to keep that off the record"."""


def besides_forget(text: str, topic: str) -> str:
    """What a message says besides its forget request: the sentences that neither ask to forget nor
    name the topic ("…forget what I said about Meera's divorce, she'd hate that. Also I've switched
    to the early shift" → "Also I've switched to the early shift"). A reason with a pronoun
    ("she'd hate that", "it wasn't mine to share") is about the topic and goes with it."""
    topic_terms = set(query_terms(topic))
    kept = []
    for sentence in split_sentences(text):
        words = len(sentence.split()) + len(re.findall(r"[\u4e00-\u9fff]", sentence))
        if words < 4 or forget_request(sentence) is not None or topic_terms & set(query_terms(sentence)):
            continue  # the request, its reason, or a courtesy ("Appreciate it.")
        if re.match(r"^\W*(?:it|that|this|they|he|she|his|her|their|them)\b|^[^a-z]*(?:他|她|这|那|它)", sentence, re.I):
            continue
        if _KEPT_PRIVATE.search(sentence) and slot_of(sentence) is None:
            continue  # "I prefer to keep that off the record.", "I'd prefer it not be retained.": the request again
        if _REGRET.search(sentence) and _only_regret(sentence):
            continue  # "I really shouldn't have said anything", "I was venting": about the telling, not the user
        kept.append(sentence)
    return " ".join(kept)
