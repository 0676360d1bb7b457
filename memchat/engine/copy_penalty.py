"""A DRY-style "do not copy" penalty over token ids: the longer the run a reply has copied from
one of the avoided texts, the less likely the token that would continue it. Pure NumPy.

llama.cpp has a DRY sampler, but llama-cpp-python's completion call does not expose it; this is
the same idea as a logits processor, restricted to the texts we name (earlier replies, memory
lines) rather than the whole context. A short shared run (≤ `allowed` tokens: "I think", a name)
costs nothing, so a retry can still use the same words; it cannot re-walk a whole sentence.

State: `runs[j]` is the length of the longest run of generated tokens that equals the avoided
tokens just before position j. Each new token updates it in one vectorised step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

SEPARATOR = -1


class CopyPenalty:
    """Logits processor (llama-cpp-python's `(input_ids, scores) -> scores` shape)."""

    def __init__(
        self,
        avoided: Sequence[Sequence[int]],
        prompt_length: int,
        *,
        allowed: int = 2,
        multiplier: float = 1.0,
        base: float = 1.75,
        ceiling: float = 40.0,
    ) -> None:
        flat: list[int] = []
        for tokens in avoided:
            if tokens:
                flat.extend(tokens)
                flat.append(SEPARATOR)
        self.tokens = np.asarray(flat, dtype=np.int64)
        self.prompt_length = prompt_length
        self.allowed, self.multiplier, self.base, self.ceiling = allowed, multiplier, base, ceiling
        self.runs = np.zeros(len(self.tokens), dtype=np.int64)
        self.seen = 0

    def feed(self, token: int) -> None:
        """Advance every run by one generated token."""
        runs = np.zeros_like(self.runs)
        if len(self.tokens) > 1:
            hit = self.tokens[:-1] == token
            runs[1:] = np.where(hit, self.runs[:-1] + 1, 0)
        self.runs = runs
        self.seen += 1

    def penalties(self) -> dict[int, float]:
        """Token id → amount subtracted from its logit for the next token."""
        at = np.nonzero(self.runs > self.allowed - 1)[0]
        out: dict[int, float] = {}
        for position in at.tolist():
            token = int(self.tokens[position])
            if token == SEPARATOR:
                continue
            run = int(self.runs[position])
            amount = min(self.ceiling, self.multiplier * self.base ** (run - self.allowed))
            out[token] = max(out.get(token, 0.0), amount)
        return out

    def __call__(self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]) -> npt.NDArray[np.single]:
        generated = input_ids[self.prompt_length :]
        if len(generated) < self.seen:  # a new generation reused this processor: start over
            self.runs[:] = 0
            self.seen = 0
        for token in generated[self.seen :].tolist():
            self.feed(int(token))
        for token, amount in self.penalties().items():
            if 0 <= token < len(scores):
                scores[token] -= amount
        return scores
