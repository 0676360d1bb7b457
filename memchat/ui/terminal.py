"""Keys typed while memchat starts: kept, in order, with Enter still meaning Send.

Until Textual takes the terminal (after imports and model loading, ~0.7 s), the
terminal is in cooked mode: the line discipline echoes what is typed and turns
Enter (CR) into a line feed as it arrives, which Textual later reads as Ctrl+J —
a new line instead of Send. `TypeAhead` switches the terminal to non-canonical,
no-echo, no-CR→LF mode as soon as the UI starts loading, reads out what was
already typed, and, just before the app runs, what was typed since; the app
replays the lot into the message box. Keys typed later reach Textual as usual.

The replayed text uses "\r" for Enter (send) and "\n" for Ctrl+J (new line).
"""

from __future__ import annotations

import codecs
import os
import re
import select
import sys
import termios
from typing import IO

ESCAPE_SEQUENCE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?", re.DOTALL)
"""Arrow and function keys (CSI and SS3 sequences), or Alt+key: not text, dropped."""
ERASE = ("\x7f", "\x08")


def typed_text(raw: str, *, cooked: bool) -> str:
    """What reaches the message box from keys read raw off the terminal.

    `cooked`: typed before the switch, when a line feed was an Enter. Backspace removes
    the character before it; other control keys are dropped.
    """
    text = ESCAPE_SEQUENCE.sub("", raw)
    if cooked:
        text = text.replace("\n", "\r")
    kept: list[str] = []
    for character in text:
        if character in ERASE:
            if kept and kept[-1] not in "\r\n":
                kept.pop()
        elif character in "\r\n" or character.isprintable():
            kept.append(character)
    return "".join(kept)


class TypeAhead:
    """Holds the keys typed between `start` and the app taking the terminal; `restore` undoes the switch."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        stream = stream or sys.stdin
        self._fd: int | None = None
        self._saved: list | None = None
        self._held = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):  # pytest's captured stdin, a closed stream
            return
        if os.isatty(fd):
            self._fd = fd

    def start(self) -> TypeAhead:
        """Stop the terminal echoing keys and turning Enter into a line feed; keep what was typed so far."""
        if self._fd is None:
            return self
        try:
            self._saved = termios.tcgetattr(self._fd)
            held = termios.tcgetattr(self._fd)
            held[0] &= ~(termios.ICRNL | termios.INLCR | termios.IGNCR)
            held[3] &= ~(termios.ICANON | termios.ECHO)
            held[6][termios.VMIN], held[6][termios.VTIME] = 1, 0
            termios.tcsetattr(self._fd, termios.TCSANOW, held)
        except termios.error:
            self._fd = self._saved = None
            return self
        self._held = typed_text(self._read(), cooked=True)
        return self

    def collect(self) -> str:
        """Everything typed since `start` (call right before the app runs); "\r" is Enter."""
        if self._fd is None:
            return ""
        typed, self._held = self._held + typed_text(self._read(), cooked=False), ""
        return typed

    def restore(self) -> None:
        """Put the terminal back as it was before `start` (after the app has given it back)."""
        if self._fd is not None and self._saved is not None:
            try:
                termios.tcsetattr(self._fd, termios.TCSANOW, self._saved)
            except termios.error:
                pass
            self._saved = None

    def _read(self) -> str:
        assert self._fd is not None
        chunks: list[str] = []
        while select.select([self._fd], [], [], 0)[0]:
            data = os.read(self._fd, 4096)
            if not data:
                break
            chunks.append(self._decoder.decode(data))
        return "".join(chunks)
