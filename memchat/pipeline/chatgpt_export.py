"""ChatGPT's data export (`conversations.json`): each conversation's current branch, as messages. Pure.

A conversation is a tree (`mapping`: node id → {message, parent, children}): every edit or
regeneration starts a sibling branch. What the person last saw is the branch ending at
`current_node`; it is read by following `parent` links up to the root, then reversed. Kept: the
user's and the assistant's visible text (`text` parts, and the text parts of `multimodal_text`:
typed or transcribed from voice). Left out and counted: system and tool nodes, assistant calls
addressed to a tool, hidden messages (custom instructions, memory updates), other content types
(code runs, browsing, reasoning) and parts (images, files), and messages left empty.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from memchat.pipeline.import_formats import (
    CHATGPT,
    BadConversation,
    ImportedConversation,
    ImportedMessage,
    clean_text,
    conversation_label,
    epoch_time,
)

TEXT_CONTENT = ("text", "multimodal_text")
SPOKEN_PART = "audio_transcription"
"""A multimodal part holding what was said in voice mode, as text."""
MAX_DEPTH = 1_000_000
"""More parent links than this is a cycle (no real conversation is that long)."""


def read_conversation(item: Any, index: int) -> ImportedConversation:
    """One element of the export's list; a BadConversation names it when its tree is broken."""
    label = conversation_label(index, item, "title", ("conversation_id", "id"))
    if not isinstance(item, dict):
        raise BadConversation(f"{label}: expected a JSON object", "the export looks edited: download it again")
    mapping = item.get("mapping")
    if not isinstance(mapping, dict):
        raise BadConversation(f"{label}: no 'mapping' (its message tree)", "the export looks edited: download it again")
    ident = item.get("conversation_id") or item.get("id")
    if not isinstance(ident, str) or not ident.strip():
        raise BadConversation(f"{label}: no conversation id", "the export looks edited: download it again")
    title = item["title"] if isinstance(item.get("title"), str) and item["title"].strip() else "Untitled"
    created = epoch_time(item.get("create_time")) or epoch_time(item.get("update_time")) or 0.0
    left_out: Counter[str] = Counter()
    messages: list[ImportedMessage] = []
    last = created
    for node in _current_branch(mapping, item.get("current_node"), label):
        kept = _message(node.get("message"), left_out)
        if kept is None:
            continue
        role, text, ts = kept
        last = ts if ts is not None else last
        messages.append(ImportedMessage(role, text, last))
    conversation = ImportedConversation(CHATGPT, ident.strip(), clean_text(" ".join(title.split())),
                                        created or (messages[0].ts if messages else 0.0), messages, left_out)
    return conversation


def _current_branch(mapping: dict[str, Any], current: Any, label: str) -> list[dict[str, Any]]:
    """The nodes from the root to `current`, in order. Without a current node (an older export), the
    branch ends at the leaf written last."""
    if current is None:
        current = _latest_leaf(mapping)
        if current is None:
            return []
    if not isinstance(current, str) or current not in mapping:
        raise BadConversation(f"{label}: its current node {str(current)[:40]!r} is not in its message tree",
                              "the export looks truncated or edited: download it again")
    branch: list[dict[str, Any]] = []
    seen: set[str] = set()
    node_id: Any = current
    while node_id is not None:
        if node_id in seen or len(seen) > MAX_DEPTH:
            raise BadConversation(f"{label}: its message tree loops back on itself at node {str(node_id)[:40]!r}",
                                  "the export looks edited: download it again")
        node = mapping.get(node_id) if isinstance(node_id, str) else None
        if not isinstance(node, dict):
            raise BadConversation(f"{label}: node {str(node_id)[:40]!r} is missing from its message tree",
                                  "the export looks truncated or edited: download it again")
        seen.add(node_id)
        branch.append(node)
        node_id = node.get("parent")
    branch.reverse()
    return branch


def _latest_leaf(mapping: dict[str, Any]) -> str | None:
    leaves = [(epoch_time((n.get("message") or {}).get("create_time")) or 0.0, key)
              for key, n in mapping.items() if isinstance(n, dict) and not n.get("children")]
    return max(leaves)[1] if leaves else None


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _message(message: Any, left_out: Counter[str]) -> tuple[str, str, float | None] | None:
    """(role, text, time) of a node's message, or None when it is not part of the visible talk."""
    if not isinstance(message, dict):
        return None  # the root placeholder of every tree
    author, metadata, content = (_object(message.get(key)) for key in ("author", "metadata", "content"))
    role = author.get("role")
    if role not in ("user", "assistant"):
        left_out["system or tool message"] += 1
        return None
    if metadata.get("is_visually_hidden_from_conversation") or metadata.get("is_user_system_message"):
        left_out["hidden message"] += 1
        return None
    if message.get("recipient") not in (None, "all"):
        left_out["call to a tool"] += 1
        return None
    if content.get("content_type") not in TEXT_CONTENT:
        left_out[f"{content.get('content_type') or 'unknown'} content"] += 1
        return None
    texts = []
    for part in content.get("parts") or []:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("content_type") == SPOKEN_PART and isinstance(part.get("text"), str):
            texts.append(part["text"])
        else:
            kind = part.get("content_type") if isinstance(part, dict) else type(part).__name__
            left_out[f"{kind or 'unknown'} part"] += 1
    text = clean_text("\n\n".join(t.strip() for t in texts if t.strip()))
    if not text:
        left_out["empty message"] += 1
        return None
    return role, text, epoch_time(message.get("create_time"))
