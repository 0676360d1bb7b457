"""Run the evaluation of one persona: import its transcript into a fresh database, ask every probe
at several time offsets through memchat's recall, and through the baseline in the same run.

The baseline is plain retrieval over the raw user messages with the same embedder: the five
nearest by cosine go into the prompt. memchat must beat it; it is measured here, not quoted.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memchat.config import load_settings
from memchat.engine.protocol import ChatEngine, Embedder
from memchat.pipeline.factory import build_services
from memchat.pipeline.importer import import_transcript
from memchat.pipeline.services import Services
from memchat.prompt.assemble import recalled_room
from memchat.types import MEMORY_STATUSES, memory_line
from memeval.data import Persona, Probe
from memeval.judge import Row, Verdict, judge, stored_noise, stored_secret
from memeval.writepath import WritePathScores, score_write_path

DAY = 86_400.0
OFFSETS = (1, 90, 365)
"""Days after the transcript's last message at which every probe is asked."""


@dataclass
class ProbeResult:
    probe: Probe
    offset: int
    system: str  # "memchat" or "baseline"
    verdict: Verdict


@dataclass
class PersonaRun:
    persona: Persona
    results: list[ProbeResult] = field(default_factory=list)
    write_path: WritePathScores | None = None
    import_seconds: float = 0.0
    noise: list[str] = field(default_factory=list)


def fresh_services(engine: ChatEngine, embedder: Embedder, folder: Path, labels: bool) -> Services:
    overrides = {"db": str(folder / "eval.db"), "write": {"model_labels": labels}}
    return build_services(load_settings(folder / "none.toml", overrides, environ={}), engine=engine, embedder=embedder)


def memchat_rows(services: Services, query: str, now: float) -> list[Row]:
    result = services.recaller.recall(
        query, token_limit=recalled_room(services.limits.recalled, services.engine.count),
        count_tokens=services.engine.count, touch=False, now=now,
    )
    return [Row(c.memory.content, memory_line(c.memory), c.memory.status == "active",
                c.selected and not c.memory.pinned) for c in result.candidates]


class Baseline:
    """Top-5 cosine over the raw user messages: what retrieval with no memory layer gives."""

    def __init__(self, embedder: Embedder, messages: list[tuple[float, str]]) -> None:
        self.texts = [text for _, text in messages]
        self.matrix = np.asarray(embedder.embed(self.texts), dtype=np.float32)
        self.embedder = embedder

    def rows(self, query: str) -> list[Row]:
        vector = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
        order = np.argsort(-(self.matrix @ vector))[:20]
        return [Row(self.texts[i], self.texts[i], True, rank < 5) for rank, i in enumerate(order)]


def run_persona(persona: Persona, engine: ChatEngine, embedder: Embedder, *, labels: bool) -> PersonaRun:
    run = PersonaRun(persona)
    with tempfile.TemporaryDirectory(prefix="memchat-eval-") as tmp:
        services = fresh_services(engine, embedder, Path(tmp), labels)
        started = time.perf_counter()
        import_transcript(services, persona.transcript)
        run.import_seconds = time.perf_counter() - started
        everything = services.memories.list_items(statuses=MEMORY_STATUSES, episodes=True)
        stored = [m.content for m in everything]
        run.write_path = score_write_path(persona, services.memories.list_items(statuses=MEMORY_STATUSES),
                                          [m for m in everything if m.is_episode])
        baseline = Baseline(embedder, persona.user_messages)
        active = [m.content for m in everything if m.status == "active"]
        for probe in persona.probes:
            if probe.category == "noise":
                run.noise = stored_noise(probe, stored)
                continue
            if probe.category == "secret":
                leaked = stored_secret(probe, stored)
                raw = stored_secret(probe, [text for _, text in persona.user_messages])
                for offset in OFFSETS:
                    run.results.append(ProbeResult(probe, offset, "memchat", Verdict(not leaked, not leaked)))
                    run.results.append(ProbeResult(probe, offset, "baseline", Verdict(not raw, not raw)))
                continue
            base = judge(probe, baseline.rows(probe.query))
            for offset in OFFSETS:
                verdict = judge(probe, memchat_rows(services, probe.query, persona.last_ts + offset * DAY))
                if probe.category == "forget" and stored_secret(probe, active):  # still active somewhere
                    verdict = Verdict(False, False, evidence="still active: " + probe.reject[0])
                run.results.append(ProbeResult(probe, offset, "memchat", verdict))
                run.results.append(ProbeResult(probe, offset, "baseline", base))
        services.db.close()
    return run
