"""The remote engine beside the local one, on the same model: time to first token and decode speed.

    python benchmarks/bench_remote.py [--tokens 96] [--rounds 3] [--threads N] [--base-url URL]

Without --base-url it starts `python -m llama_cpp.server` on a free loopback port with the
default chat model (the `server` extra, installed by `pip install -e ".[test]"`) and stops it
at the end. Both engines get the same model file, thread count, prompts and sampler; rounds
alternate between them so a busy machine slows both alike. Each prompt starts with a fresh
first message, so neither side reuses a cached prefix (cold time to first token).
Decode speed counts the reply's tokens from the first piece to the last.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from memchat.config import ModelSettings
from memchat.engine.llama import LlamaChatEngine
from memchat.engine.openai_compat import OpenAIChatEngine
from memchat.engine.protocol import ChatEngine, Sampling
from memchat.pipeline.factory import resolve_model
from memchat.types import ChatMessage

FILLER = "The user likes long walks by the river, strong coffee, and jazz records from the fifties. "


@contextmanager
def llama_cpp_server(model: str, threads: int, n_ctx: int) -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", str(n_ctx), "--n_threads", str(threads), "--n_threads_batch", str(threads)],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"llama_cpp.server did not start:\n{log.read().decode(errors='replace')[-2000:]}")
            try:
                urllib.request.urlopen(f"{url}/models", timeout=2).close()
                break
            except OSError:
                time.sleep(0.25)
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(10)


def measure(engine: ChatEngine, messages: list[ChatMessage], tokens: int, seed: int) -> tuple[float, float]:
    """(time to first token in ms, decode tokens/s) of one streamed reply."""
    started = time.perf_counter()
    first = last = 0.0
    pieces = []
    for piece in engine.stream(messages, max_tokens=tokens, sampling=Sampling(temperature=0.7, seed=seed)):
        last = time.perf_counter()
        first = first or last
        pieces.append(piece)
    generated = engine.count("".join(pieces))
    decode = (generated - 1) / (last - first) if generated > 1 and last > first else float("nan")
    return (first - started) * 1000, decode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=96)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=ModelSettings().n_threads)
    parser.add_argument("--base-url", help="an already running server with the same model (else one is started)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # `timeout` stops the server too, via finally
    path, _ = resolve_model("smollm2-135m-instruct", progress=True)
    local = LlamaChatEngine(path, n_ctx=2048, n_threads=args.threads)
    prompts = {
        "short": lambda r: [ChatMessage("system", f"Session {r}. You are memchat."),
                            ChatMessage("user", "Write a story about a lighthouse keeper.")],
        "long": lambda r: [ChatMessage("system", f"Session {r}. You are memchat. " + FILLER * 25),
                           ChatMessage("user", "Write a story about a lighthouse keeper.")],
    }

    def run(remote: OpenAIChatEngine) -> None:
        remote.wait_until_loaded()
        for engine in (local, remote):  # warm-up: first-call costs (page faults, threads) are not speed
            measure(engine, prompts["short"]("warm-up"), 8, 0)
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for round_ in range(args.rounds):
            for kind, make in prompts.items():
                for name, engine in (("local", local), ("remote", remote)):
                    messages = make(f"{round_}-{name}")  # a fresh start: no cached prefix on either side
                    result = measure(engine, messages, args.tokens, round_)
                    results.setdefault((kind, name), []).append(result)
                    print(f"  round {round_} {kind} {name}: {result[0]:.0f} ms, {result[1]:.1f} tokens/s", flush=True)
        print(f"model {local.name}, {args.threads} threads, {args.rounds} rounds, up to {args.tokens} tokens; "
              f"server {remote.server} ({remote.info.kind if remote.info else '?'}), counts exact: {remote.exact}")
        for kind, make in prompts.items():
            size = local.count_messages(make("0"))
            for name in ("local", "remote"):
                ttft = statistics.median(r[0] for r in results[(kind, name)])
                speed = statistics.median(r[1] for r in results[(kind, name)])
                print(f"{kind:5} prompt ({size:4} tokens)  {name:6}  time to first token {ttft:7.0f} ms   "
                      f"decode {speed:6.1f} tokens/s")

    if args.base_url:
        run(OpenAIChatEngine(args.base_url, timeout=300))
    else:
        with llama_cpp_server(str(path), args.threads, 2048) as url:
            run(OpenAIChatEngine(url, timeout=300))
    return 0


if __name__ == "__main__":
    sys.exit(main())
