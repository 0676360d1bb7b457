"""Generation speed of the default chat model, and what the stable prompt prefix buys.

    python benchmarks/bench_engine.py [--tokens 128] [--threads N]

Prints, measured in one run: tokens/s of generation, and time to first token
for a ~1,500-token prompt when it is new (cold) versus when only its last
message changed (the unchanged prefix is reused from llama.cpp's KV cache),
with their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from memchat.config import ModelSettings
from memchat.engine.llama import LlamaChatEngine
from memchat.engine.protocol import Sampling
from memchat.pipeline.factory import resolve_model
from memchat.types import ChatMessage

FILLER = "The user likes long walks by the river, strong coffee, and jazz records from the fifties. "


def ttft(engine: LlamaChatEngine, messages: list[ChatMessage]) -> float:
    started = time.perf_counter()
    for _ in engine.stream(messages, max_tokens=1, sampling=Sampling(temperature=0.0)):
        break
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--threads", type=int, default=ModelSettings().n_threads)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    path, _ = resolve_model("smollm2-135m-instruct", progress=True)
    engine = LlamaChatEngine(path, n_ctx=4096, n_threads=args.threads)

    speeds = []
    for round_ in range(args.rounds):
        prompt = [ChatMessage("user", f"Write a long story about a lighthouse keeper, part {round_}.")]
        started = time.perf_counter()
        text = "".join(engine.stream(prompt, max_tokens=args.tokens, sampling=Sampling(temperature=0.7, seed=round_)))
        speeds.append(engine.count(text) / (time.perf_counter() - started))

    prefix = [ChatMessage("system", "You are memchat. " + FILLER * 60)]
    cold, warm = [], []
    for round_ in range(args.rounds):
        # a different first message defeats the cache: everything must be evaluated
        fresh = [ChatMessage("system", f"Session {round_}. " + FILLER * 60), ChatMessage("user", "Hello!")]
        cold.append(ttft(engine, fresh))
        # same prefix as the previous call, only the last user message differs
        warm.append(ttft(engine, [*fresh[:1], ChatMessage("user", f"And now question {round_}?")]))
    prompt_tokens = engine.count_messages([*prefix, ChatMessage("user", "Hello!")])
    print(f"model {engine.name}, {args.threads} threads")
    print(f"generation: {statistics.median(speeds):.1f} tokens/s (median of {args.rounds}, {args.tokens} tokens each)")
    print(f"time to first token, {prompt_tokens}-token prompt: cold {statistics.median(cold):.0f} ms, "
          f"unchanged prefix {statistics.median(warm):.0f} ms, ratio {statistics.median(cold) / statistics.median(warm):.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
