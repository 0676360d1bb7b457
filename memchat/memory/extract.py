"""The model's part of the write path: grammar-constrained JSON, validated.

Rules choose which sentences are worth remembering; the chat model then labels
each one (kind, importance) through a JSON-schema grammar, so even a small
local model produces parseable output. Output that still fails validation is
returned as an ExtractionFailure with the raw text, never dropped silently, and
the rules' own labels are kept.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from memchat.engine.protocol import ChatEngine
from memchat.types import MEMORY_KINDS, ChatMessage, ExtractionFailure, MemoryDraft

SCHEMA = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "index": {"type": "integer"},
                    "kind": {"type": "string", "enum": list(MEMORY_KINDS)},
                    "importance": {"type": "integer", "enum": [1, 2, 3, 4, 5]},
                },
                "required": ["index", "kind", "importance"],
            },
        }
    },
    "required": ["items"],
}

_INSTRUCTIONS = (
    "Label each numbered statement about the user. kind is one of: preference (likes, dislikes, habits, "
    "instructions), fact (stable facts: home, job, name), event (something dated or planned), relation (a person "
    "or pet in the user's life). importance is 1-5: how useful it is to remember for future chats. "
    "Reply with JSON only."
)


@dataclass
class Labels:
    drafts: list[MemoryDraft]
    failure: ExtractionFailure | None = None


def _validate(raw: str, count: int) -> dict[int, tuple[str, float]]:
    data = json.loads(raw)
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise ValueError("expected an object with an 'items' list")
    labels: dict[int, tuple[str, float]] = {}
    for item in data["items"]:
        index, kind, importance = item.get("index"), item.get("kind"), item.get("importance")
        if not isinstance(index, int) or not 1 <= index <= count:
            raise ValueError(f"index {index!r} is not one of 1..{count}")
        if kind not in MEMORY_KINDS:
            raise ValueError(f"kind {kind!r} is not one of {MEMORY_KINDS}")
        if not isinstance(importance, int) or not 1 <= importance <= 5:
            raise ValueError(f"importance {importance!r} is not within 1..5")
        labels[index] = (kind, importance / 5)
    return labels


def label_with_model(engine: ChatEngine, sentences: Sequence[str], drafts: Sequence[MemoryDraft]) -> Labels:
    """Blend the model's kind and importance into rule-made drafts."""
    if not drafts:
        return Labels([])
    numbered = "\n".join(f"{i}. {s}" for i, s in enumerate(sentences, start=1))
    messages = [ChatMessage("system", _INSTRUCTIONS), ChatMessage("user", numbered)]
    schema = json.loads(json.dumps(SCHEMA))
    schema["properties"]["items"].update(minItems=len(drafts), maxItems=len(drafts))
    schema["properties"]["items"]["items"]["properties"]["index"] = {"type": "integer", "enum": list(range(1, len(drafts) + 1))}
    raw = engine.complete_json(messages, schema, max_tokens=40 * len(drafts) + 24)
    try:
        labels = _validate(raw, len(drafts))
    except (ValueError, json.JSONDecodeError, AttributeError) as exc:
        return Labels(list(drafts), ExtractionFailure(raw_output=raw, error=str(exc)))
    blended = []
    for index, draft in enumerate(drafts, start=1):
        if index not in labels:
            blended.append(draft)
            continue
        kind, importance = labels[index]
        blended.append(
            replace(
                draft,
                kind=draft.kind if draft.attribute else kind,
                importance=round(0.7 * draft.importance + 0.3 * importance, 3),
            )
        )
    return Labels(blended)
