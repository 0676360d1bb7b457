"""`memchat import memories.jsonl`: a memories export back into an empty database.

Every line is validated before anything is written (a bad one is an error naming its line);
the vectors are computed from the texts, as `MemoryStore.add` embeds them, before the one
transaction that writes every row — no write lock is held across the embedder.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any

from memchat.memory import portable
from memchat.memory.secrets import redact
from memchat.memory.slots import embedding_text
from memchat.pipeline.import_report import ImportProgress, ProgressCallback, no_progress
from memchat.pipeline.memory_export import HEADER
from memchat.pipeline.services import Services
from memchat.types import MEMORY_STATUSES, STORED_KINDS, MemchatError, Memory

EMBED_BATCH = 64


def _bad(source: str, number: int, problem: str) -> MemchatError:
    return MemchatError(f"{source}: line {number}: {problem}", "fix that line (or export again); nothing was imported")


def parse(data: bytes, source: str) -> list[portable.PortableMemory]:
    text = data.decode("utf-8-sig")
    lines = [(n, raw) for n, raw in enumerate(text.split("\n"), start=1) if raw.strip()]
    number, raw = lines[0]
    header = json.loads(raw)
    if header.get("version") != HEADER["version"]:
        raise _bad(source, number, f"memories export version {header.get('version')!r}; this memchat reads "
                                   f"version {HEADER['version']} (upgrade memchat)")
    records: list[portable.PortableMemory] = []
    seen: set[int] = set()
    for number, raw in lines[1:]:
        try:
            item = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise _bad(source, number, "not valid JSON") from exc
        if not isinstance(item, dict):
            raise _bad(source, number, "expected a JSON object")
        try:
            records.append(_record(item))
        except KeyError as exc:
            raise _bad(source, number, f"no field {exc}") from exc
        except (TypeError, ValueError, OverflowError) as exc:
            raise _bad(source, number, str(exc)) from exc
        if records[-1].memory.id in seen:
            raise _bad(source, number, f"id {records[-1].memory.id} appears twice")
        seen.add(records[-1].memory.id)
    return records


def _when(value: Any, name: str, *, required: bool = False) -> float | None:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise TypeError(f"'{name}' must be an ISO date-time")
    return datetime.fromisoformat(value).timestamp()


def _unit(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1 or math.isnan(value):
        raise ValueError(f"'{name}' must be a number from 0 to 1")
    return float(value)


def _id(value: Any, name: str, *, optional: bool = True) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**62:
        raise ValueError(f"'{name}' must be a positive whole number")
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"'{name}' must be text")
    return value.encode("utf-8", "replace").decode("utf-8")


def _record(item: dict[str, Any]) -> portable.PortableMemory:
    if item.get("kind") not in STORED_KINDS:
        raise ValueError(f"'kind' must be one of {', '.join(STORED_KINDS)}")
    if item.get("status") not in MEMORY_STATUSES:
        raise ValueError(f"'status' must be one of {', '.join(MEMORY_STATUSES)}")
    content = redact(" ".join(_text(item["content"], "content").split()))
    if not content:
        raise ValueError("'content' is empty")
    access = item.get("access_count", 0)
    if isinstance(access, bool) or not isinstance(access, int) or access < 0:
        raise ValueError("'access_count' must be a whole number ≥ 0")
    memory = Memory(
        id=_id(item["id"], "id", optional=False), kind=item["kind"], content=content,  # type: ignore[arg-type]
        subject=_text(item.get("subject", "user"), "subject"), attribute=_text(item.get("attribute", ""), "attribute"),
        importance=_unit(item["importance"], "importance"), confidence=_unit(item["confidence"], "confidence"),
        created_at=_when(item["created_at"], "created_at", required=True),  # type: ignore[arg-type]
        updated_at=_when(item["updated_at"], "updated_at", required=True),  # type: ignore[arg-type]
        last_access_at=_when(item["last_access_at"], "last_access_at", required=True),  # type: ignore[arg-type]
        access_count=access, status=item["status"], pinned=bool(item.get("pinned")),
        expires_at=_when(item.get("expires_at"), "expires_at"), superseded_by=_id(item.get("superseded_by"),
                                                                                   "superseded_by"),
        event_at=_when(item.get("event_at"), "event_at"), event_text=_text(item.get("event_text", ""), "event_text"),
        event_grain=_text(item.get("event_grain", ""), "event_grain"), origin_id=_id(item.get("origin_id"), "origin_id"),
    )
    source = item.get("source") or {}
    if not isinstance(source, dict):
        raise TypeError("'source' must be an object")
    session = source.get("session")
    return portable.PortableMemory(memory, _text(session, "source.session") if session is not None else None,
                                   _id(source.get("message"), "source.message"))


def restore(services: Services, records: list[portable.PortableMemory],
            on_progress: ProgressCallback = no_progress) -> int:
    if services.db.scalar("SELECT 1 FROM memories LIMIT 1"):  # checked again under the write lock
        portable.restore(services.db, [], [])
    texts = [embedding_text(r.memory.attribute, r.memory.content) for r in records]
    vectors: list[list[float]] = []
    on_progress(ImportProgress(0, len(texts)))
    for start in range(0, len(texts), EMBED_BATCH):
        vectors += services.embedder.embed(texts[start : start + EMBED_BATCH])
        on_progress(ImportProgress(len(vectors), len(texts), "memories"))
    return portable.restore(services.db, records, vectors)
