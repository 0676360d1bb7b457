"""Where memchat keeps its files.

XDG base directories by default; `MEMCHAT_HOME` relocates everything under one
folder (tests use it to stay hermetic). Nothing here creates directories except
`ensure_dir`, so importing this module never touches the disk.
"""

from __future__ import annotations

import os
from pathlib import Path

from memchat.types import MemchatError


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else Path.home() / fallback


def home() -> Path | None:
    value = os.environ.get("MEMCHAT_HOME")
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    root = home()
    return root / "config" if root else _xdg("XDG_CONFIG_HOME", ".config") / "memchat"


def data_dir() -> Path:
    root = home()
    return root / "data" if root else _xdg("XDG_DATA_HOME", ".local/share") / "memchat"


def config_file() -> Path:
    return config_dir() / "config.toml"


def models_dir() -> Path:
    return data_dir() / "models"


def default_db() -> Path:
    return data_dir() / "memchat.db"


def snapshots_dir() -> Path:
    return data_dir() / "snapshots"


def exports_dir() -> Path:
    """Where `memchat export` and the memory browser write when no file is named."""
    return data_dir() / "exports"


def ensure_dir(path: Path) -> Path:
    """Create `path` (and parents) or raise a MemchatError a person can act on."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MemchatError(
            f"cannot create {path}: {exc.strerror}",
            "set MEMCHAT_HOME to a writable folder or fix the folder's permissions",
        ) from exc
    if not os.access(path, os.W_OK):
        raise MemchatError(
            f"{path} is not writable",
            "set MEMCHAT_HOME to a writable folder or fix the folder's permissions",
        )
    return path


PRIVATE_UMASK = 0o077
"""Files memchat creates are its user's alone: directories 0700, files 0600."""
PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600


def make_private() -> None:
    """Set the process umask so every file memchat creates (database, WAL, exports) starts private.
    Called first thing by the CLI, before SQLite opens anything."""
    os.umask(PRIVATE_UMASK)


def private_dir(path: Path) -> Path:
    """`ensure_dir`, then 0700: for memchat's own folders (data, config, snapshots), not a folder a
    person named for an export."""
    ensure_dir(path)
    try:
        path.chmod(PRIVATE_DIR)
    except OSError:
        pass  # not ours to change (a shared mount): `memchat doctor` reports it
    return path


def tighten(path: Path) -> None:
    """Make an existing file 0600 (a database made by an older memchat, its WAL and SHM)."""
    try:
        if path.exists() and path.stat().st_mode & 0o077:
            path.chmod(PRIVATE_FILE)
    except OSError:
        pass


def loose_modes(paths_to_check: list[Path]) -> list[str]:
    """Files and folders readable by others, as 'path (0644)' strings."""
    loose = []
    for path in paths_to_check:
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            continue
        if mode & 0o077:
            loose.append(f"{path} ({mode:04o})")
    return loose
