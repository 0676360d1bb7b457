"""Write-path figures (issue 8) from the gold facts of a persona. Pure.

- fact recall: share of gold facts (not forgotten) stored as some typed memory;
- precision: share of stored typed memories that state a gold fact (junk = 1 − precision);
- update accuracy: share of superseded/retired gold facts with no typed memory left active for them;
- current kept: share of current gold facts, among those stored, still stated by an active typed memory (the
  other side of updates: a fact the user never changed must not be retired by a later statement that only
  looked like its slot's new value);
- forget: share of forgotten gold facts with nothing active (typed or episode) left;
- kind accuracy: among stored facts, the kind matches the gold kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from memchat.types import Memory
from memeval.data import Fact, Persona
from memeval.judge import contains


@dataclass
class WritePathScores:
    facts: int = 0
    recalled: int = 0
    stored: int = 0
    precise: int = 0
    changes: int = 0
    changes_applied: int = 0
    current_stored: int = 0
    current_active: int = 0
    forgets: int = 0
    forgets_applied: int = 0
    kinds: int = 0
    kinds_right: int = 0

    def add(self, other: "WritePathScores") -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def rates(self) -> dict[str, float | None]:
        def rate(a: int, b: int) -> float | None:
            return round(a / b, 3) if b else None

        return {"fact_recall": rate(self.recalled, self.facts), "precision": rate(self.precise, self.stored),
                "update": rate(self.changes_applied, self.changes),
                "current_kept": rate(self.current_active, self.current_stored), "forget": rate(self.forgets_applied, self.forgets),
                "kind": rate(self.kinds_right, self.kinds)}


def states(memory: Memory, fact: Fact) -> bool:
    return all(contains(memory.content, group) for group in fact.match)


def score_write_path(persona: Persona, typed: list[Memory], episodes: list[Memory]) -> WritePathScores:
    scores = WritePathScores()
    kept = [m for m in typed if m.status != "deleted"]
    current = [f for f in persona.facts if f.status == "current"]
    for fact in persona.facts:
        if fact.status == "forgotten":
            scores.forgets += 1
            left = [m for m in typed + episodes if m.status == "active" and states(m, fact)]
            scores.forgets_applied += not left
            continue
        stating = [m for m in kept if states(m, fact)]
        scores.facts += 1
        scores.recalled += bool(stating)
        if stating:
            scores.kinds += 1
            scores.kinds_right += any(m.kind == fact.kind for m in stating)
        if fact.status == "current" and stating:
            scores.current_stored += 1
            scores.current_active += any(m.status == "active" for m in stating)
        if fact.status in ("superseded", "retired"):
            scores.changes += 1
            stale = [m for m in stating if m.status == "active" and not any(states(m, c) for c in current)]
            scores.changes_applied += not stale
    scores.stored = len(kept)
    scores.precise = sum(any(states(m, f) for f in persona.facts) for m in kept)
    return scores
