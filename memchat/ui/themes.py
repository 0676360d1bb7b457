"""Themes: TOML files in the top-level `themes/` folder, loaded as Textual `Theme` objects.

Each file holds the fields of `textual.theme.Theme` (name, primary, secondary,
accent, background, surface, panel, foreground, dark, …) and an optional
`[variables]` table of extra CSS variables. The app registers every theme
found and also accepts Textual's built-in ones; a theme that does not define
memchat's own variables (the budget bar colours) falls back to its standard
colours, so any theme can render the whole UI.
"""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

from textual.theme import BUILTIN_THEMES, Theme

import memchat
from memchat.types import MemchatError

VARIABLE_FALLBACKS: dict[str, str] = {
    "budget-system": "primary-darken-2",
    "budget-notes": "warning",
    "budget-pinned": "accent",
    "budget-summary": "secondary",
    "budget-window": "primary",
    "budget-recalled": "success",
    "budget-input": "primary-lighten-2",
    "budget-format": "foreground-darken-3",
    "budget-reserved": "panel-lighten-1",
    "budget-free": "surface-lighten-1",
}
"""memchat's CSS variables → the standard theme colour each falls back to."""

_THEME_FIELDS = {f.name for f in fields(Theme)}


def themes_dir() -> Path:
    """`themes/` of a source checkout, else the copy a wheel ships as `memchat/themes`."""
    package = Path(memchat.__file__).parent
    checkout = package.parent / "themes"
    return checkout if checkout.is_dir() else package / "themes"


def load_theme(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MemchatError(f"cannot read theme {path}: {exc}", "fix the TOML or remove the file") from exc
    unknown = sorted(set(data) - _THEME_FIELDS)
    if unknown:
        raise MemchatError(
            f"theme {path.name} has unknown keys: {', '.join(unknown)}",
            f"use only {', '.join(sorted(_THEME_FIELDS))}",
        )
    data.setdefault("name", path.stem)
    if "primary" not in data:
        raise MemchatError(f"theme {path.name} has no primary colour", 'add primary = "#rrggbb"')
    data["variables"] = {str(k): str(v) for k, v in data.get("variables", {}).items()}
    return Theme(**data)


def load_themes(folder: Path | None = None) -> dict[str, Theme]:
    """memchat's own themes by name (empty if the folder is missing)."""
    folder = folder or themes_dir()
    found = [load_theme(path) for path in sorted(folder.glob("*.toml"))] if folder.is_dir() else []
    return {theme.name: theme for theme in found}


def available_names(own: dict[str, Theme]) -> list[str]:
    return [*own, *(name for name in BUILTIN_THEMES if name not in own)]


def check_theme(name: str, own: dict[str, Theme]) -> str:
    """`name` if it is a known theme, else a MemchatError listing the choices."""
    if name in own or name in BUILTIN_THEMES:
        return name
    raise MemchatError(
        f"unknown theme {name!r}",
        f"pick one of: {', '.join(available_names(own))} (ui.theme in config.toml, MEMCHAT_THEME or --theme)",
    )


def variable_defaults(generated: dict[str, str]) -> dict[str, str]:
    """Fallbacks for memchat's CSS variables, taken from the theme's generated colour system."""
    return {name: generated[source] for name, source in VARIABLE_FALLBACKS.items() if source in generated}
