"""The evaluation set on disk: personas (transcript, probes, gold facts) and the dev/test split.

    benchmarks/eval2/personas/<id>/transcript.jsonl   the conversation, as `memchat import` reads it
    benchmarks/eval2/personas/<id>/probes.jsonl       questions asked after it, with what must (not) come back
    benchmarks/eval2/personas/<id>/facts.jsonl        the facts the user stated (write-path figures)
    benchmarks/eval2/split.json                       {"dev": [...], "test": [...]}: tune on dev only
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "eval2"
POSITIVE = ("single", "paraphrase", "update", "temporal", "two_fact")
"""Categories whose probes have an answer in memory."""
CATEGORIES = (*POSITIVE, "never", "forget", "secret", "noise")


@dataclass(frozen=True)
class Probe:
    id: str
    category: str
    query: str
    expect: tuple[tuple[str, ...], ...]
    reject: tuple[str, ...]
    date: str | None = None


@dataclass(frozen=True)
class Fact:
    id: str
    text: str
    kind: str
    slot: str
    match: tuple[tuple[str, ...], ...]
    status: str
    ts: str
    date: str | None = None


@dataclass
class Persona:
    id: str
    folder: Path
    probes: list[Probe] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    user_messages: list[tuple[float, str]] = field(default_factory=list)

    @property
    def language(self) -> str:
        return "zh" if "zh" in self.id.split("_") else "en"

    @property
    def transcript(self) -> Path:
        return self.folder / "transcript.jsonl"

    @property
    def last_ts(self) -> float:
        return max(ts for ts, _ in self.user_messages)


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _groups(raw: list) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(s.lower() for s in (g if isinstance(g, list) else [g])) for g in raw)


def load_persona(folder: Path) -> Persona:
    persona = Persona(folder.name, folder)
    for line in _jsonl(folder / "transcript.jsonl"):
        if line["role"] == "user":
            persona.user_messages.append((datetime.fromisoformat(line["ts"]).timestamp(), line["content"]))
    for p in _jsonl(folder / "probes.jsonl"):
        persona.probes.append(Probe(p["id"], p["category"], p["query"], _groups(p.get("expect") or []),
                                    tuple(s.lower() for s in p.get("reject") or []), p.get("date")))
    facts = folder / "facts.jsonl"
    if facts.exists():
        for f in _jsonl(facts):
            persona.facts.append(Fact(f["id"], f["text"], f["kind"], f.get("slot", "other"), _groups(f["match"]),
                                      f["status"], f["ts"], f.get("date")))
    return persona


def load_split(root: Path = ROOT) -> dict[str, list[Persona]]:
    split = json.loads((root / "split.json").read_text(encoding="utf-8"))
    return {name: [load_persona(root / "personas" / pid) for pid in ids] for name, ids in split.items()}
