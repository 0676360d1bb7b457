"""Text from the database, made safe to show on a terminal.

A stored message holds whatever a person pasted or a model produced, escape
sequences included. Written raw, ESC and the other control characters clear the
screen, set the window title or the clipboard (OSC 52), or hide what came before
(a carriage return). Every place that shows stored text — CLI output and the
Textual widgets — passes it through `printable` (or `printable_json`) first:
control characters become visible pictures (ESC → ␛) and nothing reaches the
terminal as a command. Newlines and tabs stay where layout needs them.

Standard library only, so every layer may import it.
"""

from __future__ import annotations

import re

_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}  # the Unicode "control pictures" block: ␀ … ␟
_PICTURES[0x7F] = "\u2421"  # ␡
_C1 = {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}  # 8-bit CSI, OSC, … (no pictures exist)
_SURROGATES = {code: "\ufffd" for code in range(0xD800, 0xE000)}  # not text: printing one raises

_MULTILINE = str.maketrans({**_PICTURES, **_C1, **_SURROGATES, 0x0A: "\n", 0x09: "\t"})
_ONE_LINE = str.maketrans({**_PICTURES, **_C1, **_SURROGATES, 0x0A: "\u23ce", 0x09: " "})  # ⏎

_JSON_UNSAFE = re.compile("[\u007f-\u009f\ud800-\udfff]")


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` with every control character shown, never obeyed. With `one_line`, a newline is
    shown as ⏎ and a tab as a space, so a row of a listing stays one row."""
    text = text.replace("\r\n", "\n")
    return text.translate(_ONE_LINE if one_line else _MULTILINE)


def printable_json(encoded: str) -> str:
    """A `json.dumps(..., ensure_ascii=False)` result safe for a terminal and still the same JSON:
    json escapes C0 itself; DEL, C1 and lone surrogates become `\\uXXXX` escapes."""
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", encoded)
