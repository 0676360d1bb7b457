"""Argument types and input checks: bad input ends in one argparse line, before any work starts."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from memchat.session_names import session_name_problem
from memchat.types import MemchatError

MAX_ID = 2**63 - 1
"""SQLite rowids are signed 64-bit: a larger number cannot name anything (and overflowed the binding)."""


def db_path(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("needs a path (leave --db out for the default database)")
    return value


def session_name(value: str) -> str:
    problem = session_name_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(f"not a usable session name: {problem}")
    return value


def _integer(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value[:40]!r} is not a whole number") from None


def memory_id(value: str) -> int:
    number = _integer(value)
    if not 1 <= number <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{number if len(value) < 30 else value[:30] + '…'} is not a memory id "
                                         "(ids are positive; see `memchat memory list --all`)")
    return number


def positive(value: str) -> int:
    number = _integer(value)
    if not 1 <= number <= MAX_ID:
        raise argparse.ArgumentTypeError("must be a positive whole number")
    return number


def count(value: str) -> int:
    number = _integer(value)
    if not 0 <= number <= 1_000_000:
        raise argparse.ArgumentTypeError("must be between 0 and 1000000")
    return number


def fraction(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value[:40]!r} is not a number") from None
    if not 0.0 <= number <= 1.0:  # NaN too
        raise argparse.ArgumentTypeError("must be between 0 and 1")
    return number


def refuse_undecodable(argv: Sequence[str]) -> None:
    """Python hands argv bytes that are not UTF-8 over as lone surrogates; stored or printed, they
    raised UnicodeEncodeError. Refused here, naming the argument."""
    for position, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")[:60]
            raise MemchatError(f"argument {position} ({shown}) is not valid UTF-8",
                               "pass text in UTF-8 (check the terminal's or the script's encoding)") from None


def read_stdin() -> str:
    """All of stdin as text; bytes that are not UTF-8 are an error, not a traceback."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # replaced by a text stream (tests, embedding)
        return sys.stdin.read()
    data = stream.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MemchatError(f"stdin is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
                           "convert it first, e.g. `iconv -f latin1 -t utf-8`") from exc
