"""Pulling models into the models folder and checking them there.

Invariant: a file at `<models dir>/<name>.gguf` was, when it was put there, the
verified result of a pull. Every pull writes to `<name>.part` (and, for converted
models, `<name>.gguf.converting`), checks the sha256, and only then `os.replace`s
into the final name. A failed pull leaves at most a `.part` (https resumes it); a
corrupt one leaves nothing and reports both hashes.

Next to each model a small JSON record (`<name>.gguf.json`) keeps the hash found at
pull/verify time and the file's size and mtime, so `models list` can say "verified"
without re-hashing gigabytes, and `models verify` can catch later corruption even
of converted models, whose registry hash is that of the source.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memchat import paths
from memchat.models.catalog import ModelSpec
from memchat.models.sources import fetch, file_sha256
from memchat.types import MemchatError

Status = Literal["missing", "verified", "present", "unverified", "corrupt"]
"""verified: hash matched the registry; present: no pinned hash, unchanged since pulled;
unverified: changed or never hashed since (run `models verify`); corrupt: last verify failed."""


@dataclass(frozen=True)
class Record:
    """What memchat knew about a model file the last time it hashed it."""

    sha256: str
    size: int
    mtime_ns: int
    ok: bool


def final_path(spec: ModelSpec, directory: Path | None = None) -> Path:
    return (directory or paths.models_dir()) / spec.filename


def _record_path(model: Path) -> Path:
    return model.with_name(model.name + ".json")


def _write_record(model: Path, sha256: str, ok: bool) -> None:
    stat = model.stat()
    record = {"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ok": ok}
    _record_path(model).write_text(json.dumps(record) + "\n", encoding="utf-8")


def read_record(model: Path) -> Record | None:
    try:
        data = json.loads(_record_path(model).read_text(encoding="utf-8"))
        return Record(str(data["sha256"]), int(data["size"]), int(data["mtime_ns"]), bool(data["ok"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def status(spec: ModelSpec, directory: Path | None = None) -> Status:
    """Cheap status from the stat-keyed record; `unverified` means "run models verify"."""
    model = final_path(spec, directory)
    if not model.is_file():
        return "missing"
    record = read_record(model)
    stat = model.stat()
    if record is None or (record.size, record.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
        return "unverified"
    if not record.ok:
        return "corrupt"
    return "verified" if spec.sha256 else "present"


def verify(spec: ModelSpec, directory: Path | None = None) -> bool:
    """Re-hash a present model and compare with the registry (or, for converted models, the pull record)."""
    model = final_path(spec, directory)
    if not model.is_file():
        raise MemchatError(f"model {spec.name} is not pulled", f"run `memchat models pull {spec.name}`")
    actual = file_sha256(model)
    record = read_record(model)
    if spec.sha256 and not spec.convert:
        expected: str | None = spec.sha256
    else:
        expected = record.sha256 if record else None
    ok = expected is None or actual == expected
    _write_record(model, expected or actual, ok)  # keep the hash it *should* have, even when it fails
    return ok


@contextmanager
def _quiet_status(message: str, show: bool) -> Iterator[None]:
    if show:
        from rich.console import Console

        with Console(stderr=True).status(message):
            yield
    else:
        yield


def _fetch_verified(spec: ModelSpec, part: Path, progress: bool) -> None:
    """Try each source in turn until one yields bytes with the expected hash."""
    problems: list[MemchatError] = []
    for source in spec.sources:
        try:
            fetch(source, part, label=spec.name, progress=progress)
        except MemchatError as exc:
            problems.append(exc)
            continue
        actual = file_sha256(part)
        if spec.sha256 is None or actual == spec.sha256:
            return
        part.unlink(missing_ok=True)
        problems.append(
            MemchatError(
                f"{spec.name}: sha256 mismatch from {source}: expected {spec.sha256}, got {actual}",
                "the download is corrupt or the source changed; nothing was installed — try again or fix models.txt",
            )
        )
    if len(problems) == 1:
        raise problems[0]
    detail = "; ".join(problem.message for problem in problems)
    raise MemchatError(f"could not pull {spec.name}: {detail}", problems[-1].hint)


def pull(spec: ModelSpec, directory: Path | None = None, *, progress: bool = True) -> Path:
    """Fetch (and convert) `spec` into the models folder; returns the final path."""
    folder = paths.ensure_dir(directory or paths.models_dir())
    model = folder / spec.filename
    part = folder / f"{spec.name}.part"
    started = time.monotonic()
    _fetch_verified(spec, part, progress)
    if spec.convert:
        from memchat.models import bert_gguf  # lazy: gguf takes ~0.2 s to import

        converting = folder / f"{spec.filename}.converting"
        try:
            with _quiet_status(f"converting {spec.name} to GGUF…", progress):
                bert_gguf.convert(part, converting, spec.name)
        except BaseException:
            converting.unlink(missing_ok=True)
            raise
        part.unlink()
        part = converting
    with part.open("rb") as handle:
        if handle.read(4) != b"GGUF":  # e.g. an HTML error page from a hub, for an unpinned entry
            part.unlink()
            raise MemchatError(f"{spec.name}: the fetched file is not a GGUF model", "check its source in models.txt")
    sha256 = file_sha256(part)
    os.replace(part, model)
    _write_record(model, sha256, True)
    if progress:
        from rich.console import Console

        Console(stderr=True).print(f"pulled {spec.name} in {time.monotonic() - started:.1f}s → {model}")
    return model
