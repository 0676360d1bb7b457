"""Claude's data export (`conversations.json`): each conversation's messages. Pure.

A conversation is `{uuid, name, created_at, chat_messages: [...]}`; a message has a `sender`
(human or assistant), its time, and its words in `content` blocks (`{"type": "text", "text"}`)
and/or a flat `text`. Kept: the text blocks (or `text` when there are none). Left out and
counted: tool calls and results, thinking, images, attachments and files. When messages carry
`parent_message_uuid` (edits and retries make a tree), the branch ending at the conversation's
current leaf (else its last message) is read, as for ChatGPT.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from memchat.pipeline.import_formats import (
    CLAUDE,
    BadConversation,
    ImportedConversation,
    ImportedMessage,
    clean_text,
    conversation_label,
    iso_time,
)

ROLES = {"human": "user", "assistant": "assistant"}


def read_conversation(item: Any, index: int) -> ImportedConversation:
    label = conversation_label(index, item, "name", ("uuid",))
    if not isinstance(item, dict):
        raise BadConversation(f"{label}: expected a JSON object", "the export looks edited: download it again")
    ident = item.get("uuid")
    if not isinstance(ident, str) or not ident.strip():
        raise BadConversation(f"{label}: no 'uuid'", "the export looks edited: download it again")
    raw = item.get("chat_messages")
    if not isinstance(raw, list):
        raise BadConversation(f"{label}: 'chat_messages' is not a list", "the export looks edited: download it again")
    title = item["name"] if isinstance(item.get("name"), str) and item["name"].strip() else "Untitled"
    created = iso_time(item.get("created_at")) or iso_time(item.get("updated_at"))
    left_out: Counter[str] = Counter()
    messages: list[ImportedMessage] = []
    last = created or 0.0
    for number, message in enumerate(_current_branch(raw, item.get("current_leaf_message_uuid")), start=1):
        if not isinstance(message, dict):
            raise BadConversation(f"{label}: message {number} is not a JSON object",
                                  "the export looks edited: download it again")
        role = ROLES.get(message.get("sender"))  # type: ignore[arg-type]
        if role is None:
            left_out[f"{message.get('sender') or 'unknown'} message"] += 1
            continue
        text = _text(message, left_out)
        if not text:
            left_out["empty message"] += 1
            continue
        ts = iso_time(message.get("created_at"))
        last = ts if ts is not None else last
        messages.append(ImportedMessage(role, text, last))
    return ImportedConversation(CLAUDE, ident.strip(), clean_text(" ".join(title.split())),
                                created if created is not None else (messages[0].ts if messages else 0.0),
                                messages, left_out)


def _text(message: dict[str, Any], left_out: Counter[str]) -> str:
    blocks = message["content"] if isinstance(message.get("content"), list) else []
    texts = []
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        else:
            kind = block.get("type") if isinstance(block, dict) else type(block).__name__
            left_out[f"{kind or 'unknown'} block"] += 1
    if not any(t.strip() for t in texts) and isinstance(message.get("text"), str):
        texts = [message["text"]]
    for key in ("attachments", "files"):
        extra = message.get(key)
        if isinstance(extra, list) and extra:
            left_out[key] += len(extra)
    return clean_text("\n\n".join(t.strip() for t in texts if t.strip()))


def _current_branch(messages: list[Any], current: Any) -> list[Any]:
    """The messages in order: list order, or the branch to the current leaf when they form a tree."""
    by_id = {m["uuid"]: m for m in messages if isinstance(m, dict) and isinstance(m.get("uuid"), str)}
    if not by_id or not all(isinstance(m, dict) and "parent_message_uuid" in m for m in messages):
        return messages
    leaf = by_id.get(current) if isinstance(current, str) else None
    node = leaf or messages[-1]
    branch, seen = [], set()
    while isinstance(node, dict) and node.get("uuid") not in seen:
        seen.add(node.get("uuid"))
        branch.append(node)
        node = by_id.get(node.get("parent_message_uuid"))  # type: ignore[arg-type]
    branch.reverse()
    return branch
