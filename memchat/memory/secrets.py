"""Secrets: found in any text before it is written anywhere, and replaced by a marker.

One detector for the whole program (DESIGN.md §1 "Privacy"): messages, episodes, typed
memories, snapshots, exports and summaries all pass through `redact` before they touch
disk, so "my wifi password is hunter2" is stored as "my wifi password is [secret: password]".
The current turn may still hand the secret to the model, in memory only.

Two sources, one answer: Yelp's `detect-secrets` plugins for credential shapes with a
known format (AWS, GitHub, Slack, Stripe, JWT, private keys, URL basic auth…), and the
table below for personal shapes a code scanner does not know (cards in any grouping,
IBAN, national ids, passwords and PINs said in words, in English and Chinese). Pure
apart from detect-secrets' plugin registry, loaded once.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

_VALUE = r"[^\s,;，。；]{3,}"
_SECRETISH = r"(?=[^\s,;，。；]*[\d!@#$%^&*_+=?~])[^\s,;，。；]{4,}"
"""A value that looks like a secret when no "is"/":" says so: it has a digit or a symbol."""
_PASSWORD_WORDS = r"password|passwd|pwd|pw|pass ?phrase|passcode|pass code|login password|wi-?fi password"
_ABOUT_PASSWORDS = r"(?:manager|reset|policy|hint|rules?|requirements?|app|field|strength|change|expired|protected|vault)\b"
"""'my password manager is great': talk about passwords, not one."""
_CODE_WORDS = (r"pin|pin code|pin number|cvv|cvc|cvv2|security code|otp|one[- ]time code|verification code|2fa(?: backup)? code|"
               r"backup codes?|recovery codes?|code they (?:texted|sent|emailed)(?: me)?|"
               r"(?:alarm|disarm|door|gate|safe|lock|garage|entry|access|locker|building|key ?safe|bike lock|front door|"
               r"back door|keypad|lockbox) ?(?:code|pin|combination|combo)|combination|combo|lockbox|lock box|keypad|key ?safe")

_NATIONAL_IDS = (r"bsn|burgerservicenummer|personnummer|personnumer|cpr|cpr-nummer|nie|dni|nif|nino|nin|codice fiscale|curp|"
                 r"rut|cpf|pesel|steuer-?id|tfn|tax file|ird|nric|hkid|mykad|aadhaar|aadhar|pan card|ppsn|pps|"
                 r"ssn|sin|itin|medicare|nhs|ahv|avs|oib|emso|jmbg|egn|amka|henkilötunnus|hetu|kennitala|"
                 r"fødselsnummer|isikukood|asmens kodas|rodné číslo|マイナンバー|주민등록번호|身份证号?|社保卡?号|医保卡?号")
"""The names countries give a person's number: said with it, the number is theirs to keep off disk."""
_LOCKS = r"lockbox|lock box|keypad|padlock|key ?safe|combination lock|bike lock"
"""Things whose only number is the one that opens them ("the garage keypad takes 6604")."""
_UNITS = (r"(?:lines|seconds|secs|minutes|mins|hours|hrs|days|weeks|months|years|percent|%|quid|pounds|dollars|euros|"
          r"people|kg|km|miles|mb|gb|kb)\b")
"""Numbers that count something are no code ("the gate takes 10 minutes")."""

# (kind, pattern); the group named "v" is the secret itself (the whole match when there is none).
SECRET_RULES: tuple[tuple[str, str], ...] = (
    ("private key", r"(?P<v>-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$))"),
    ("api key", r"(?P<v>\b(?:sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{16,})"),
    ("api key", r"(?P<v>\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,})"),
    ("api key", r"(?P<v>\bxox[abprs]-[A-Za-z0-9-]{10,}|\bglpat-[A-Za-z0-9_-]{16,}|\bnpm_[A-Za-z0-9]{30,})"),
    ("api key", r"(?P<v>\b(?:AKIA|ASIA)[A-Z0-9]{16}\b|\bAIza[0-9A-Za-z_\-]{30,})"),
    ("token", r"(?P<v>\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})"),
    ("password", r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:(?P<v>[^\s@/]+)@"),
    ("password", rf"(?i:\b(?:{_PASSWORD_WORDS})s?\b(?:\s+(?!{_ABOUT_PASSWORDS})\w+)?\s+(?:is|was|=|:|-|are|now is|is now|is still)\s+"
                 rf"(?:literally |just |still |now |actually |simply )?)[\"'“]?(?P<v>{_VALUE})"),
    ("password", rf"(?i:\b(?:{_PASSWORD_WORDS})s?\b[^.!?\n]{{0,40}}?\s(?:is|was|=|:|-|are|now is|is now|is still)\s+"
                 rf"(?:literally |just |still |now |actually |simply )?)[\"'“]?(?P<v>{_SECRETISH})"),
    ("password", rf"(?i:\b(?:{_PASSWORD_WORDS})s?\s*[:=]\s*)(?P<v>{_VALUE})"),
    # "can u keep our wifi password for me so I stop texting Iris every time …: KaasBroodje!77": a
    # colon later in the same sentence hands over the value, however long the aside before it
    ("password", rf"(?i:\b(?:{_PASSWORD_WORDS})s?\b[^.!?\n]{{0,160}}?[:：]\s*)[\"'“]?(?P<v>{_SECRETISH})"),
    ("password", rf"(?i:\b(?:{_PASSWORD_WORDS})s?\s+)(?P<v>{_SECRETISH})"),
    ("password", rf"(?i:\b(?:user(?:name)?|login|admin|acct|account)\b\s*(?:is|[:=])?\s*[^\s/]+\s*(?:/|\bpass(?:word)?\b|\bpw\b|\bpwd\b)"
                 rf"\s*[:=]?\s*)(?P<v>{_VALUE})"),
    ("password", rf"(?i:(?:^|\s)(?:admin|root|user)\s*/\s*)(?P<v>{_SECRETISH})"),
    ("pin", rf"(?i:\b(?:{_CODE_WORDS})\b[^.!?\n]{{0,40}}?\s(?:is|was|=|:|-|are|now is|is now)\s+(?:literally |just |still |set to )?)"
            rf"(?P<v>[A-Za-z0-9#*][A-Za-z0-9#*\-]{{2,}})"),
    ("pin", rf"(?i:\b(?:{_CODE_WORDS})\b\s*[:=#]?\s*)(?P<v>\d[\d\-]{{2,}}\d)"),
    # "sent me the lockbox code, 4417, then…": handed over after a comma or a dash, as an aside
    ("pin", rf"(?i:\b(?:{_CODE_WORDS})\b\s*(?:[,–—]|\s-)\s*(?:it'?s\s+|which is\s+)?)(?P<v>\d[\d\-]{{2,}}\d)(?![\d.,]?\d)"
            rf"(?!\s*{_UNITS})"),
    ("pin", r"(?i:\b(?:for|to|into|on) (?:the|my|our|\w+'s) (?:[\w-]+ ){0,2}[\w-]+,? (?:the )?code(?:'s|’s| is| was)"
            r"(?: now)?\s+)(?P<v>\d{3,8}#?)(?![\w'’])"),
    ("pin", r"(?i:\bthe code (?:for|to|on|of) (?:the|my|our|\w+'s) (?:[\w-]+ ){0,2}?[\w-]+ (?:is|was)(?: now)?\s+)"
            r"(?P<v>\d{3,8}#?)(?![\w'’])"),
    ("pin", r"(?i:\bthe code(?:'s|’s| is)\s+)(?P<v>\d{3,8})(?![\w'’])(?=,?\s+(?:for|to|on) (?:the|my|our)\b)"),
    ("pin", rf"(?i:\b(?:{_LOCKS})\b[^.!?\n]{{0,30}}?\b(?:has the (?:code|number|combo|combination)|takes|opens with|"
            rf"unlocks with|uses|is set to)\s+(?:the\s+)?(?:code\s+)?)(?P<v>\d[\d\-]{{2,}}\d)(?![\w'’])(?!\s*{_UNITS})"),
    ("wifi key", rf"(?i:\b(?:wi-?fi|network)\s*(?:key|password|pass|pw|code)?\b[^.!?\n]{{0,40}}?\s*(?:\bis\b|=|:|-)\s*)"
                 rf"(?P<v>{_SECRETISH})"),
    ("api key", rf"(?i:\b(?:api[ _-]?key|secret[ _-]?key|access[ _-]?key|access[ _-]?token|auth[ _-]?token|"
                rf"bearer|client secret|token|secret|key)\b\s*(?:is|=|:|-)?\s*)(?P<v>{_SECRETISH})"),
    ("national id", r"(?i:\b(?:ssn|social security(?: number)?|social|sin|national insurance(?: number)?|ni number)\s*"
                    r"(?:number|no\.?|#)?\s*(?:is|=|:)?\s*)(?P<v>\d{3}[- ]?\d{2}[- ]?\d{4}|[A-Z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D])"),
    ("national id", r"(?P<v>\b\d{3}-\d{2}-\d{4}\b)"),
    # the numbers countries give people, by their own names ("my bsn, 123456782", "personnummer 19900101-1234")
    ("national id", rf"(?i:\b(?:{_NATIONAL_IDS})\b(?:\s*(?:number|no\.?|nr\.?|#|num))?[^.!?\n\d]{{0,30}}?"
                    rf"(?:\bis\b|\bwas\b|[:=,]|\s-|\bit'?s\b)?\s*)(?P<v>(?=(?:[A-Z\- ]*\d){{6}})[A-Z0-9]"
                    rf"(?:[A-Z0-9\-]|(?<=\d) (?=\d)){{5,19}})(?![\w])"),
    ("passport", r"(?i:\bpassport(?:\s*(?:number|no\.?|#))?\s*(?:is|=|:)?\s*)(?P<v>[A-Z0-9]{6,10})"),
    ("licence", r"(?i:\b(?:driver'?s? licen[cs]e|driving licen[cs]e|DL)(?:\s*(?:number|no\.?|#))?\s*(?:is|=|:)?\s*)"
                r"(?P<v>[A-Z0-9\-]{6,20})"),
    ("national id", r"(?:身份证(?:号码?|号)?|证件号)\s*(?:是|为|:|：)?\s*(?P<v>\d{17}[\dXx])"),
    ("national id", r"(?P<v>(?<!\d)\d{6}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?!\d))"),
    ("passport", r"护照(?:号码?|号)?\s*(?:是|为|:|：)?\s*(?P<v>[A-Za-z0-9]{6,10})"),
    ("password", r"(?:支付密码|登录密码|开机密码|密码|口令|暗号)\s*(?:是|为|改成了?|设成了?|:|：)\s*(?P<v>[^\s，。；,;！!？?]{2,})"),
    ("password", r"(?:支付密码|登录密码|开机密码|密码|口令|账号)\s*(?P<v>[A-Za-z0-9!@#$%^&*._\-]{4,})"),
    ("password", r"(?:后台|账号|用户名)\s*[:：]?\s*[A-Za-z0-9._\-]+\s*/\s*(?P<v>[^\s，。；,;]{4,})"),
    ("pin", r"(?:验证码|取件码|门禁码|门锁密码|PIN码|pin码|CVV|cvv|安全码)\s*(?:是|为|:|：)?\s*(?P<v>[A-Za-z0-9]{3,})"),
    ("national id", r"(?i:\b(?:id|identity|pps|ppsn|tax|tin|sin|nhs|medicare|aadhaar|pan|ghana card|national|social|"
                    r"insurance|health(?: card)?|member(?:ship)?|policy|account|customer|citizen(?:ship)?|residence|"
                    r"permit|voter|student)\s*(?:card\s*)?(?:number|no\.?|#|id|num)\b[^.!?\n]{0,40}?"
                    r"(?:\bis\b|:|'s|\bits\b|\bit's\b|=)\s*)(?P<v>(?=[A-Z0-9\- ]*\d{4})[A-Z0-9]"
                    r"(?:[A-Za-z0-9\-]|(?<=\d) (?=\d)){4,})"),
    ("bank card", r"(?i:(?:\b(?:card|visa|mastercard|amex|credit|debit|expiry|exp|cvv)\b[^.!?\n]{0,40}?)|(?:it'?s|its)\s+)"
                    r"(?P<v>\d{4}[ .\-]?\d{4,6}[ .\-]?\d{4,5}(?:[ .\-]?\d{1,4})?)(?=[^.!?\n]{0,40}\b(?:expiry|exp|cvv|card)\b|"
                    r"(?<=\d)(?!\d))"),
    ("bank card", r"(?:银行卡号?|卡号|信用卡号?|card number|card no\.?)\s*(?:是|为|:|：)?\s*(?P<v>[\d\s\-]{12,23}\d)"),
)
_COMPILED = [(kind, re.compile(pattern)) for kind, pattern in SECRET_RULES]
_CARD = re.compile(r"(?<![\d.\-])(?:\d[ .\-]?){12,18}\d(?![\d])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
_TOKEN = re.compile(r"[A-Za-z0-9_\-+/=]{20,}")
_DETECT_SECRETS_SKIP = ("High Entropy", "Keyword")
"""detect-secrets plugins that flag ordinary words in prose; the entropy test below replaces them."""


@dataclass(frozen=True)
class SecretSpan:
    kind: str
    start: int
    end: int


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _iban_ok(text: str) -> bool:
    compact = text.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in moved)
    return int(number) % 97 == 1


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _looks_random(token: str) -> bool:
    """A long token mixing letters and digits with high entropy: a key, not a word. Names joined by hyphens,
    dots or underscores ("smollm2-135m-instruct", "chat-20261204-183516") are words and numbers side by side:
    a key has a long random stretch of its own ("sk-proj-…", "ghp_…")."""
    if len(token) < 20:
        return False
    if not re.search(r"[-_.]", token):
        return _mixed(token) and _entropy(token) >= 3.5
    if any(_mixed(part) and _entropy(part) >= 3.5 for part in re.split(r"[-_.]", token) if len(part) >= 16):
        return True
    joined = re.sub(r"[-_.]", "", token)
    grouped = (bool(re.search(r"[A-Z]", joined)) and bool(re.search(r"\d", joined))  # "VK7JG-NPHTM-C97JM-9MPGT-3V66T"
               and not re.search(r"[a-z]{3}", joined) and _entropy(joined) >= 3.5)
    hexadecimal = bool(re.fullmatch(r"[0-9a-fA-F]+", joined)) and _mixed(joined)  # a UUID
    return grouped or hexadecimal


def _mixed(token: str) -> bool:
    classes = sum(bool(re.search(p, token)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    return classes >= 2 and bool(re.search(r"\d", token))


@lru_cache(maxsize=1)
def _plugins() -> list:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return [cls() for name, cls in get_mapping_from_secret_type_to_class().items()
            if not any(skip in name for skip in _DETECT_SECRETS_SKIP)]


def _library_spans(text: str) -> list[SecretSpan]:
    spans = []
    for line_start, line in _lines(text):
        for plugin in _plugins():
            try:
                found = plugin.analyze_line(filename="chat", line=line, line_number=0)
            except Exception:  # noqa: BLE001 - a plugin's own failure must not lose the message
                continue
            for secret in found:
                value = secret.secret_value or ""
                at = line.find(value) if value else -1
                if at >= 0 and len(value) >= 6:
                    spans.append(SecretSpan(secret.type.lower(), line_start + at, line_start + at + len(value)))
    return spans


def _lines(text: str) -> list[tuple[int, str]]:
    out, offset = [], 0
    for line in text.split("\n"):
        out.append((offset, line))
        offset += len(line) + 1
    return out


def find_secrets(text: str) -> list[SecretSpan]:
    """Every secret in `text`, as non-overlapping spans in order."""
    spans: list[SecretSpan] = []
    for kind, pattern in _COMPILED:
        for match in pattern.finditer(text):
            start, end = match.span("v") if "v" in pattern.groupindex else match.span()
            value = text[start:end]
            if kind == "card number" and not _luhn(re.sub(r"\D", "", value)):
                continue
            if kind in ("password", "wifi key") and value.lower() in _NOT_A_PASSWORD:
                continue
            spans.append(SecretSpan(kind, start, end))
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if 13 <= len(digits) <= 19 and _luhn(digits):
            spans.append(SecretSpan("card number", *match.span()))
    for match in _IBAN.finditer(text):
        if _iban_ok(match.group()):
            spans.append(SecretSpan("iban", *match.span()))
    for match in _TOKEN.finditer(text):
        if _looks_random(match.group()):
            spans.append(SecretSpan("key", *match.span()))
    spans.extend(_library_spans(text))
    return _merge(spans)


_NOT_A_PASSWORD = frozenset({
    "manager", "managers", "reset", "resets", "change", "changed", "again", "expired", "expires", "policy", "field",
    "and", "for", "the", "was", "is", "too", "that", "this", "lol", "haha", "app", "wrong", "incorrect", "forgotten",
    "forgot", "somewhere", "written", "saved", "stored", "protected", "strength", "hint", "hints", "rules", "是什么",
    "忘了", "错了", "太长了", "管理器",
})
"""Words that follow "password" in prose without being one ("my password manager is great")."""


def _merge(spans: list[SecretSpan]) -> list[SecretSpan]:
    merged: list[SecretSpan] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = SecretSpan(last.kind, last.start, max(last.end, span.end))
        else:
            merged.append(span)
    return merged


SECRET_MARK = "[secret: "
"""How a redacted secret starts: '[secret: password]'."""
_MARKER = re.compile(r"\[secret: [\w ]+\]")


_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+|$)")
_VALUE_ALONE = re.compile(r"(?<![A-Za-z0-9_\-])(?=[A-Za-z0-9_\-!@#$%^&*.]*\d)[A-Za-z0-9_\-!@#$%^&*.]{3,}"
                          r"(?![A-Za-z0-9_\-]|\s*(?:年|月|日|号|岁|点|分|块|元|个))")
"""A value with a digit in it: after a question about a credential, "It's 4471." gives the secret alone. Written in
Latin letters and digits ("密码是qwe123" gives qwe123); a Chinese date, age or sum (2019年, 3岁, 500块) is none."""


CREDENTIAL_TALK = re.compile(
    r"\b(?:password|passwd|passcode|pass phrase|passphrase|pw|pwd|pin(?: code| number)?|security code|cvv|cvc|otp|"
    r"2fa|backup codes?|recovery codes?|(?:alarm|door|gate|safe|locker|lock|keypad|garage) code|combination|"
    r"api[ _-]?key|secret[ _-]?key|access[ _-]?token|auth[ _-]?token|private key|seed phrase|recovery phrase|"
    r"passport (?:number|no)|ssn|social security|sort code|account number|routing number|iban|login details|"
    r"credentials|(?:id|identity|pps|ppsn|tax|insurance|national|health|nhs|medicare|card|account|policy|"
    r"membership|licen[cs]e) (?:number|no)|card details)\b|密码|口令|验证码|护照号|身份证|银行卡|卡号|账号|社保号|医保卡",
    re.IGNORECASE,
)
"""Sentences about credentials: kept out of memory whole, even when the value itself slipped past the
detector ('the code for the side gate is the year we met')."""


_PASSWORD_SHAPED = re.compile(r"(?<![\w@#/.:])(?=\S{6,})(?=[^\s]*[A-Za-z])(?=[^\s]*\d)[A-Za-z0-9]+[!#$%^&*+=?~@]+[A-Za-z0-9]"
                              r"[A-Za-z0-9!#$%^&*+=?~@]*(?![\w/:@]|\.\w)")
"""A word of letters and digits with a symbol inside ("Tulip!Gate93", "xK9#mv2Lq8"), a full stop after it or not: how
passwords are made, and nothing else in chat is ("@sam_runs99", "C++17", "£29.99/month", "100k!!" are not)."""
_FORMULA = re.compile(r"^(?:[A-Za-z]{1,2}\d*[+=\-*/^]?)+$")
"""Letters one or two at a time between digits and operators: a formula ("x2+y2=z2", "H2O+CO2"), not a password."""
_MISSENT = re.compile(
    r"\b(?:wrong (?:chat|window|tab|box|thread|app|screen|field|convo|conversation)|"
    r"meant (?:that |this |it )?for (?:the other |an?other |a different )(?:tab|window|chat|app|box|person|field|screen)|"
    r"meant (?:that|this|it) for (?:someone|somebody|my \w+|(?-i:[A-Z])\w+)|bad paste|"
    r"(?:^|\b(?:i|oops|sorry|whoops|ugh|lol)\b[\s,!]*)(?:just )?(?:pasted|sent|typed) (?:that|this|it|my \w+) "
    r"(?:here )?(?:by (?:mistake|accident)|in the wrong)|"
    r"(?:didn'?t|did not|never) mean(?:t)? to (?:paste|send|type|post) (?:that|this|it))|"
    r"^\S*\d\S*\s+(?:ignore|disregard) (?:that|this)\b",
    re.IGNORECASE)
"""Something the user sent by mistake ("oops, meant for the other tab", "bad paste", "hunter2 ignore that"): what came
with it is a value they never meant to give, most often a password or a code, whatever its shape. Not someone else's
mistake ("my boss sent an email by mistake"), nor a correction ("Ignore that, my birthday is…")."""
_YEAR = re.compile(r"(?:in|since|from|until|till|of|by|before|after) (?:19|20)\d\d$", re.IGNORECASE)
_OPENING_VALUE = re.compile(r"^\s*(?=\S*\d\S*\d\S*\d)[\w\-!@#$%^&*.]{3,}(?=[\s,.!]|$)")
"""A value of three digits or more that a message opens on."""
_ALONE = re.compile(r"^\W*\S+\W*$")
"""A sentence that is one value and nothing else ("4471.")."""


def _credential_talk(sentence: str) -> bool:
    """Credential talk, "combo" included; not "a combination of road and trail"."""
    return (talks_about_credentials(re.sub(r"\bcombination of\b", "", sentence, flags=re.IGNORECASE))
            or bool(re.search(r"\bcombo\b", sentence, re.IGNORECASE)))


def _values_given_by_mistake(text: str) -> list[SecretSpan]:
    """The values in a message that says it was sent by mistake, or in a sentence about a credential ("8841 - that's
    the alarm code for the shop"), or said alone in a short message with one ("4471. sorry. gym locker code"): words
    with digits in them, and password-shaped words."""
    spans = [SecretSpan("password", *m.span()) for m in _PASSWORD_SHAPED.finditer(text) if not _FORMULA.match(m.group())]
    values = []
    if _MISSENT.search(text):
        values = list(_VALUE_ALONE.finditer(text))
    else:
        sentences = list(_SENTENCE.finditer(text))
        talk = [m for m in sentences if _credential_talk(m.group()) and len(m.group().split()) <= 16]
        alone = [m for m in sentences if _ALONE.match(m.group())] if talk and len(text.split()) <= 30 else []
        opening = _OPENING_VALUE.match(text) if talk and len(text.split()) <= 30 else None
        if opening:  # "5106 ugh, sent that to the wrong place. locker combo": the value the message opens on
            values.append(opening)
        for sentence in talk + alone:
            values += [m for m in _VALUE_ALONE.finditer(text, *sentence.span())
                       if sum(c.isdigit() for c in m.group()) >= 3 and not _YEAR.search(text[:m.end()].rstrip("."))]
    return spans + [SecretSpan("credential", *m.span()) for m in values]


def talks_about_credentials(text: str) -> bool:
    return bool(CREDENTIAL_TALK.search(text))


def answers_credential_talk(text: str, previous: str) -> bool:
    """The message right after one about a credential, short, with a value in it: the value is the secret."""
    return bool(previous) and talks_about_credentials(previous) and _words(text) <= 12 \
        and bool(_VALUE_ALONE.search(text))


def _words(text: str) -> int:
    """How long a message is in words; Chinese, written without spaces, about two characters a word."""
    cjk = len(re.findall(r"[\u4e00-\u9fff]", text))
    return len(re.sub(r"[\u4e00-\u9fff]", " ", text).split()) + (cjk + 1) // 2


def redact(text: str, previous: str = "") -> str:
    """`text` with every secret replaced by a marker ("[secret: password]"). `previous` is the message
    before it: after "what's my bank PIN again?" a bare "It's 4471." is the PIN."""
    return redaction(text, previous)[0]


def redaction(text: str, previous: str = "") -> tuple[str, list[SecretSpan]]:
    """`redact`, and the secrets it replaced."""
    if not text:
        return text, []
    spans = find_secrets(text) + _values_given_by_mistake(text)
    before = previous
    for sentence in _SENTENCE.finditer(text):  # "Can you save my bank PIN? It's 4471." — the same, within a message
        if answers_credential_talk(sentence.group(), before):
            spans += [SecretSpan("credential", sentence.start() + m.start(), sentence.start() + m.end())
                      for m in _VALUE_ALONE.finditer(sentence.group())]
        before = sentence.group()
    markers = [(m.start(), m.end()) for m in _MARKER.finditer(text)]  # redacting redacted text changes nothing
    spans = [s for s in _merge(spans) if not any(s.start < end and start < s.end for start, end in markers)]
    for span in reversed(spans):
        text = text[: span.start] + f"{SECRET_MARK}{span.kind}]" + text[span.end:]
    return text, spans


def secret_kind(text: str) -> str | None:
    """The kind of the first secret in `text`, or None."""
    spans = find_secrets(text)
    return spans[0].kind if spans else None


def redact_messages(messages: list[dict]) -> list[dict]:
    """Chat messages ({"role", "content"}) redacted in order, each with the two conversation messages
    before it as context (the prompt's system blocks — notes, memories — sit between them)."""
    out = []
    for index, message in enumerate(messages):
        out.append({**message, "content": redact(message.get("content", ""), conversation_before(messages, index))})
    return out


def conversation_before(messages: list[dict], index: int) -> str:
    """The text of the two user/assistant messages before `messages[index]`."""
    said = [m.get("content", "") for m in messages[:index] if m.get("role") != "system"]
    return "\n".join(said[-2:])


def redact_all(value: object) -> object:
    """Every string inside a JSON-like value (dicts, lists) redacted; the structure kept."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: redact_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [redact_all(item) for item in value]
    return value
