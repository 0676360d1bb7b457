"""A synthetic ChatGPT data export, shaped like the real one, for import tests and benchmarks.

    python benchmarks/make_chatgpt_export.py OUT.(json|zip) [--conversations 1000] [--messages 20] [--seed 7]

Each conversation is a message tree as ChatGPT writes it: a root placeholder, a hidden system
message, then alternating user and assistant turns, with what a real export holds besides the
talk: a regenerated reply on a side branch (not the current one), a tool call and its result,
an image part in a multimodal message, a hidden custom-instructions message. The user's
messages mix facts, preferences, dated events, questions and chit-chat about a few people and
places, so the write path has real work (and conflicts to settle). `--messages` counts the
visible user and assistant messages of the current branch. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
import zipfile
from pathlib import Path
from typing import Any

CITIES = ["Lisbon", "Porto", "Braga", "Madrid", "Lyon", "Berlin", "Oslo", "Kyoto", "Austin", "Dublin"]
PEOPLE = ["Ana", "Marco", "Ines", "Tomas", "Julia", "Pedro", "Sofia", "Rui", "Clara", "Nuno"]
FOODS = ["sushi", "tapas", "ramen", "pizza", "curry", "oysters", "tofu", "paella"]
HOBBIES = ["climbing", "the ukulele", "chess", "sourdough baking", "trail running", "birdwatching", "pottery"]
JOBS = ["nurse", "architect", "data analyst", "teacher", "sound engineer", "carpenter"]
STATEMENTS = [
    "I live in {city} now.",
    "My sister {person} is a {job}.",
    "I really love {food}, it's my favourite.",
    "I can't stand {food2}.",
    "I've been learning {hobby} for a few months.",
    "Last Friday I had dinner with {person} in {city}.",
    "Next month I'm flying to {city2} for a conference.",
    "My dog is called {pet} and she is {age} years old.",
    "I work as a {job} at a small studio.",
    "From now on, please answer briefly.",
    "My friend {person} just moved to {city2}.",
    "I'm allergic to peanuts.",
    "We adopted a cat named {pet} in {city}.",
]
QUESTIONS = [
    "What's a good recipe for {food}?",
    "Can you explain how compound interest works?",
    "How do I fix a leaking tap?",
    "What should I see in {city2}?",
    "Any tips for getting better at {hobby}?",
]
CHIT_CHAT = ["thanks!", "ok cool", "haha nice", "great, thank you", "hello again"]
REPLIES = [
    "That sounds great — here are a few thoughts.",
    "Sure. First, check the basics; then try the second step.",
    "Good to know! I'll keep that in mind.",
    "Here is a short answer: it depends on your goals, but start small.",
    "Noted. Anything else you'd like to talk about?",
]
PETS = ["Luna", "Pixel", "Miso", "Olive", "Biscuit"]


def _user_text(rng: random.Random) -> str:
    roll = rng.random()
    values = {"city": rng.choice(CITIES), "city2": rng.choice(CITIES), "person": rng.choice(PEOPLE),
              "job": rng.choice(JOBS), "food": rng.choice(FOODS), "food2": rng.choice(FOODS),
              "hobby": rng.choice(HOBBIES), "pet": rng.choice(PETS), "age": rng.randint(1, 14)}
    if roll < 0.55:
        text = rng.choice(STATEMENTS).format(**values)
        if rng.random() < 0.3:
            text += " " + rng.choice(STATEMENTS).format(**values)
        return text
    if roll < 0.85:
        return rng.choice(QUESTIONS).format(**values)
    return rng.choice(CHIT_CHAT)


class _Tree:
    """A mapping being built, node by node, as ChatGPT lays it out."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.mapping: dict[str, dict[str, Any]] = {}
        self.root = self._node(None, None)

    def _id(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128)))

    def _node(self, parent: str | None, message: dict[str, Any] | None) -> str:
        node_id = message["id"] if message else self._id()
        self.mapping[node_id] = {"id": node_id, "message": message, "parent": parent, "children": []}
        if parent is not None:
            self.mapping[parent]["children"].append(node_id)
        return node_id

    def add(self, parent: str, role: str, parts: list[Any], ts: float, *, content_type: str = "text",
            recipient: str = "all", hidden: bool = False) -> str:
        message = {
            "id": self._id(),
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": ts,
            "update_time": None,
            "content": {"content_type": content_type, "parts": parts},
            "status": "finished_successfully",
            "end_turn": role == "assistant",
            "weight": 1.0,
            "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {},
            "recipient": recipient,
        }
        return self._node(parent, message)


def make_conversation(rng: random.Random, index: int, messages: int, start: float) -> dict[str, Any]:
    tree = _Tree(rng)
    ts = start
    node = tree.add(tree.root, "system", [""], ts, hidden=True)
    if index % 7 == 0:  # custom instructions: hidden, never imported
        node = tree.add(node, "user", ["Always answer in English."], ts, content_type="user_editable_context",
                        hidden=True)
    first_user = ""
    for turn in range(messages):
        ts += rng.uniform(5, 120)
        if turn % 2 == 0:
            text = _user_text(rng)
            first_user = first_user or text
            parts: list[Any] = [text]
            if rng.random() < 0.05:
                parts = [{"content_type": "image_asset_pointer", "asset_pointer": "file-service://x", "width": 64},
                         text]
            node = tree.add(node, "user", parts, ts, content_type="multimodal_text" if len(parts) > 1 else "text")
        else:
            if rng.random() < 0.1:  # a regenerated reply: the first attempt stays on a side branch
                tree.add(node, "assistant", ["(first attempt, replaced)"], ts)
                ts += 1
            if rng.random() < 0.05:  # the assistant called a tool, which answered
                call = tree.add(node, "assistant", ["search('weather')"], ts, content_type="code",
                                recipient="browser")
                node = tree.add(call, "tool", ["sunny, 21°C"], ts + 1, content_type="execution_output")
            node = tree.add(node, "assistant", [rng.choice(REPLIES)], ts)
    conversation_id = str(uuid.UUID(int=rng.getrandbits(128)))
    return {
        "title": (first_user[:40].rstrip(" .?!") or f"Chat {index}"),
        "create_time": start,
        "update_time": ts,
        "mapping": tree.mapping,
        "moderation_results": [],
        "current_node": node,
        "plugin_ids": None,
        "conversation_id": conversation_id,
        "id": conversation_id,
        "default_model_slug": "gpt-4o",
    }


def make_export(conversations: int = 1000, messages: int = 20, seed: int = 7,
                start: float = 1_735_689_600.0) -> list[dict[str, Any]]:
    """`conversations` conversations of `messages` visible messages each, newest first (as ChatGPT lists them)."""
    rng = random.Random(seed)
    made = [make_conversation(rng, i, messages, start + i * 3600 * 7) for i in range(conversations)]
    return list(reversed(made))


def write_export(path: Path, data: list[dict[str, Any]]) -> Path:
    text = json.dumps(data, ensure_ascii=False)
    if path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("conversations.json", text)
            archive.writestr("user.json", json.dumps({"id": "user-x"}))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    write_export(args.output, make_export(args.conversations, args.messages, args.seed))
    print(args.output)


if __name__ == "__main__":
    main()
