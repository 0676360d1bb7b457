"""Which models memchat uses, and getting them onto disk verified.

The rest of the app needs only this small API: look a model up in the registry
(`find`, `default_model`, `registry`), get its file (`ensure_model` pulls it on first
use, `model_path` for one that must already be there) and check it (`verify`).
Registry format: see models.txt; pulling and its atomicity: see `store`.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from memchat.models import store
from memchat.models.catalog import ModelSpec, Role, load_registry
from memchat.types import MemchatError

__all__ = ["ModelSpec", "Role", "default_model", "ensure_model", "find", "model_path", "registry", "verify"]


def registry() -> list[ModelSpec]:
    """All known models: the built-in models.txt merged with the user's."""
    return load_registry()


def find(name: str) -> ModelSpec:
    specs = registry()
    for spec in specs:
        if spec.name == name:
            return spec
    close = difflib.get_close_matches(name, [spec.name for spec in specs], n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    raise MemchatError(f"unknown model {name!r}", f"{hint}run `memchat models list` to see the known models")


def default_model(role: Role) -> ModelSpec:
    for spec in registry():
        if spec.role == role and spec.default:
            return spec
    raise MemchatError(f"no default {role} model in the registry", "mark one line of models.txt with `default`")


def model_path(name: str) -> Path:
    """Absolute path of a pulled model; raises if it has not been pulled."""
    spec = find(name)
    path = store.final_path(spec).absolute()
    if not path.is_file():
        raise MemchatError(f"model {name} is not pulled", f"run `memchat models pull {name}`")
    return path


def ensure_model(name: str, progress: bool = True) -> Path:
    """The model's path, pulling (and verifying) it first if it is not on disk yet."""
    spec = find(name)
    path = store.final_path(spec).absolute()
    if path.is_file():
        return path
    return store.pull(spec, progress=progress).absolute()


def verify(name: str) -> bool:
    """Re-hash a pulled model; False means the file on disk is not the one that was pulled."""
    return store.verify(find(name))
