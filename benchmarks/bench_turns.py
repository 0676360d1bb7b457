"""Speed at every turn (issue 11), printed side by side from one run with the default models:

    python benchmarks/bench_turns.py [--threads N] [--n-ctx 4096] [--reply-tokens 96] [--skip-recall] [--json]

Replies are capped (--reply-tokens) so a run takes minutes on 2 cores: time to first token
does not depend on the reply's length, and the window still folds within 30 turns.

1. A scripted 30-turn session through memchat's own pipeline (notes, a pin, recalled memories,
   and enough talk that the window folds into the rolling summary), run three times in this
   process: without pre-warm, with the pre-warm after each reply (through the cross-turn notes),
   and with the pre-warm while typing as well (the turn's message, as a draft, is pre-warmed
   through its recalled memories and itself before it is sent, once the previous pre-warm has
   settled: the turn then reads no prompt token, its first token sampled from the pre-warm's logits).
   Per run: time to first token (from sending the message to the first streamed piece) —
   median, p95, p95 ÷ median, turn 30 ÷ turn 2 — and the prompt tokens reused from llama.cpp's
   KV cache vs read, summed and on the worst turn.
2. Decode speed through memchat (a turn's streamed reply) ÷ a plain llama-cpp-python streaming
   loop over the same prompt tokens, the same model, threads and length (≥ 128 tokens).
3. Resident memory (VmRSS) of this process after the session: both engines loaded, n_ctx as set.
4. Recall at 10k and 100k memories ÷ an exact NumPy scan, with recall@10 (bench_recall.py).
5. Per-turn overhead: the turn's wall time minus its generation (recall, assembly, storing the
   messages and the snapshot) ÷ the turn's wall time.

Targets: TTFT p95 ÷ median ≤ 1.5, turn 30 ÷ turn 2 ≤ 1.3, after a pre-warm a turn reads only its
new input (after the typing pre-warm, not even that); decode ≥ 0.95 × raw; RSS ≤ 400 MB; recall ≤ 1.5 × NumPy at 100k (recall@10 ≥ 0.99);
overhead ≤ 5 %. Machines are noisy: compare ratios within one run only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from memchat.config import load_settings  # noqa: E402
from memchat.pipeline.factory import build_services, load_engines, open_conversation  # noqa: E402
from memchat.types import PromptAssembled, TokenStreamed, TurnEvent  # noqa: E402

SESSION = [
    "Hi! I'm Marta. I finally set you up on the old laptop after dinner, so bear with me while I "
    "figure out how all of this works, I am not very technical and my son usually helps me.",
    "I live in Porto and work as a pharmacist at a small clinic near the river. It is a busy place, "
    "mostly older patients from the neighbourhood, and we close late on Thursdays, which I hate.",
    "From now on, please always use metric units in your answers. I never know what a cup or an "
    "ounce is, and I end up converting everything on my phone with flour on my hands.",
    "What is a good breakfast before a long shift? I usually skip it and then I am starving by "
    "eleven, and the vending machine at work only has chocolate and crisps.",
    "My son Leo is nine and he plays the violin every evening. The neighbours have been very patient "
    "about it, and honestly he is getting better, the squeaking is mostly gone now.",
    "Can you suggest three violin pieces for a beginner? His teacher asked us to pick something fun "
    "for the spring concert at school and Leo wants something that sounds impressive.",
    "My brother Rui lives in Lisbon; my sister Ines is a nurse in Braga. We try to meet at my "
    "mother's house once a month but it rarely works out with everyone's shifts.",
    "How far is Lisbon from Porto by train? I am thinking of visiting Rui next month with Leo, and "
    "I would rather not drive all that way on my own after a week of work.",
    "I have a dog called Bolt who loves running on the beach. He is a big grey mix from the shelter, "
    "very gentle with kids, but he pulls on the lead like a train whenever he sees a seagull.",
    "What should I pack for a beach day with a dog? We are going on Sunday if the weather holds, and "
    "last time I forgot water for him and had to buy a bottle at the cafe.",
    "PIN:the user is allergic to penicillin.",
    "Where do I live? Sorry, I am just testing whether you remember the things I tell you, my "
    "colleague said these assistants forget everything between conversations.",
    "Explain in a few sentences how vaccines train the immune system. A customer asked me today and I "
    "gave a clumsy answer, I want a simple way to say it next time.",
    "I'm thinking about learning to cook Japanese food. My friend Sofia took a class in the autumn "
    "and keeps posting pictures of ramen, and I am jealous of every single one.",
    "Give me a simple recipe for miso soup. I found miso paste at the Asian shop near the market "
    "but I have no idea what else goes in, and I do not want to waste it.",
    "What instrument does my son play? Again just checking your memory, do not worry, I will stop "
    "doing this soon, it is just fun to see what you keep.",
    "Also, I never drink coffee after 4 pm. If I do I lie awake until two in the morning staring at "
    "the ceiling, which is a disaster before an early shift at the clinic.",
    "Tell me a fun fact about octopuses. Leo is obsessed with them since the aquarium trip and I want "
    "to surprise him at dinner with something he does not know yet.",
    "My favourite book is One Hundred Years of Solitude. I read it every few years and notice "
    "something new each time, the family tree at the front is a lifesaver though.",
    "Who wrote my favourite book? I always blank on the full name when someone asks, which is "
    "embarrassing for somebody who claims it is her favourite.",
    "What is the capital of Australia? We had a quiz night at the clinic and half of us said Sydney, "
    "and now there is an argument in the group chat that will not end.",
    "Write a short poem about the Douro river. It is for my mother's birthday card, she grew up in a "
    "village right on the river and still talks about the boats.",
    "What do I do for work? Last memory test, I promise. After this I will only ask you real "
    "questions, my sister thinks I am being silly with all this testing.",
    "Recommend a weekend trip from Porto. Something we can do by train with a dog and a nine year "
    "old, nothing too expensive, and ideally with a river or the sea nearby.",
    "How do I keep basil alive indoors? I have killed three plants this year already, the kitchen "
    "window gets a lot of sun in the afternoon but maybe that is the problem.",
    "Where does my brother live? Leo asked me tonight and I realised he has never visited Rui's flat, "
    "so we are planning the trip properly this time.",
    "What is the boiling point of water at sea level in Fahrenheit? Leo has a science worksheet and "
    "the school uses both units, which confuses both of us.",
    "Summarise what you know about my family. I want to see if you have it all straight before I "
    "show you to my mother on Sunday, she will ask you questions for sure.",
    "Any tips for sleeping after a night shift? The clinic asked me to cover two nights next week "
    "and the last time I did that I felt awful for days afterwards.",
    "Thanks, that's all for today! Leo needs help with his homework and Bolt is waiting by the door "
    "for his walk, so I will come back tomorrow evening.",
]
"""30 messages, chatty like real ones (two or three sentences): the window fills and folds into the
summary within the session at the default n_ctx 4096. "PIN:" pins the memory it states (the inspector's
p key) before it is sent."""

LONG_PROMPT = "Write a long numbered list of sixty different fruits, one per line, with a short note on each."


@dataclass
class TurnFigures:
    ttft_ms: float
    wall_ms: float
    generation_ms: float
    reused: int
    read: int
    tail: int
    """Tokens of the prompt's per-turn tail (notes and recall blocks, message, assistant cue)."""
    message: int
    """Tokens of the message alone (with its template tokens and the assistant cue)."""


MODES = {"none": "no pre-warm", "reply": "pre-warm", "typing": "pre-warm while typing"}
"""How a session pre-warms: not at all, after each reply, after each reply and while typing."""


@dataclass
class SessionRun:
    mode: str
    turns: list[TurnFigures] = field(default_factory=list)
    folds: int = 0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def per_turn_tail(engine: Any, messages: list[Any]) -> int:
    """Tokens from the first per-turn block (the system messages after the window) to the end."""
    start = len(messages) - 1
    while start > 1 and messages[start - 1].role == "system":
        start -= 1
    return engine.count_messages(messages) - engine.count_messages(messages[:start])


def run_session(engine: Any, embedder: Any, workdir: Path, *, mode: str, reply_tokens: int) -> SessionRun:
    prewarm = mode != "none"
    settings = load_settings(workdir / "none.toml", {"db": str(workdir / f"turns-{mode}.db")},
                             environ={"MEMCHAT_MODEL_PREWARM": "true" if prewarm else "false",
                                      "MEMCHAT_BUDGET_RESERVED_OUTPUT": str(reply_tokens)})
    services = build_services(settings, engine=engine, embedder=embedder)
    conversation = open_conversation(services, "bench")
    conversation.prewarm_after_turns = prewarm
    run = SessionRun(mode)
    for text in SESSION:
        if text.startswith("PIN:"):
            text = "I'm allergic to penicillin."
            if mode == "typing":
                conversation.prewarm_draft(text)
                conversation.settle()
            conversation.run_turn(text)
            conversation.settle()
            newest = max(services.memories.list_items(), key=lambda m: m.id, default=None)
            if newest is not None:
                services.memories.pin(newest.id)
            continue
        first: list[float] = []
        assembled: list[PromptAssembled] = []

        def emit(event: TurnEvent) -> None:
            if isinstance(event, TokenStreamed) and not first:
                first.append(time.perf_counter())
            elif isinstance(event, PromptAssembled):
                assembled.append(event)

        summary_before = conversation.summary
        if mode == "typing":  # the person typed this and paused: its recall and pre-warm are done by the send
            conversation.prewarm_draft(text)
            conversation.settle()
        started = time.perf_counter()
        finished = conversation.run_turn(text, emit=emit)
        wall = (time.perf_counter() - started) * 1000
        messages = assembled[-1].messages
        run.turns.append(TurnFigures(
            ttft_ms=((first[0] if first else time.perf_counter()) - started) * 1000, wall_ms=wall,
            generation_ms=finished.timings.generation_ms, reused=finished.timings.prompt_reused,
            read=finished.timings.prompt_evaluated, tail=per_turn_tail(engine, messages),
            message=engine.count_messages(messages) - engine.count_messages(messages[:-1]),
        ))
        conversation.settle()  # the person reads the reply and types: the background work is done by then
        run.folds += conversation.summary != summary_before
        turn = run.turns[-1]
        print(f"  {MODES[mode]} turn {len(run.turns):2d}: TTFT {turn.ttft_ms:6.0f} ms, read {turn.read:5d} "
              f"(tail {turn.tail:4d}, message {turn.message:3d}), reused {turn.reused:5d}", file=sys.stderr, flush=True)
    return run


def decode_ratio(engine: Any, path: Path, threads: int) -> dict[str, float]:
    """memchat's streaming (engine.stream: prefill in steps, stop checks, stop strings) vs a plain loop."""
    import llama_cpp

    from memchat.engine.protocol import Sampling
    from memchat.types import ChatMessage

    messages = [ChatMessage("system", "You are a helpful assistant."), ChatMessage("user", LONG_PROMPT)]
    sampling = Sampling(temperature=0.0, top_p=1.0, repeat_penalty=1.1, seed=1)
    first, pieces = 0.0, 0
    for _ in engine.stream(messages, max_tokens=200, sampling=sampling):
        pieces += 1
        if not first:
            first = time.perf_counter()
    ours_s = time.perf_counter() - first
    raw = llama_cpp.Llama(model_path=str(path), n_ctx=engine.n_ctx, n_threads=threads, n_threads_batch=threads,
                          seed=1, verbose=False)
    tokens = raw.tokenize(engine.render(messages).encode("utf-8"), add_bos=True, special=True)
    raw_first, raw_pieces = 0.0, 0
    for _ in raw.create_completion(prompt=tokens, max_tokens=pieces, temperature=0.0, top_p=1.0,
                                   repeat_penalty=1.1, stream=True, logit_bias={raw.token_eos(): -100.0}):
        raw_pieces += 1
        if not raw_first:
            raw_first = time.perf_counter()
    raw_s = time.perf_counter() - raw_first
    del raw
    ours = (pieces - 1) / ours_s if ours_s > 0 else 0.0
    plain = (raw_pieces - 1) / raw_s if raw_s > 0 else 0.0
    return {"tokens": float(pieces), "memchat_tok_s": ours, "raw_tok_s": plain, "ratio": ours / plain if plain else 0.0}


def rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/status", encoding="utf-8") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def summarise(run: SessionRun) -> dict[str, float]:
    ttft = [t.ttft_ms for t in run.turns]
    median = statistics.median(ttft)
    return {
        "turns": len(run.turns),
        "folds": run.folds,
        "ttft_median_ms": median,
        "ttft_p95_ms": _percentile(ttft, 0.95),
        "p95_over_median": _percentile(ttft, 0.95) / median,
        "last_over_second": ttft[-1] / ttft[1],
        "reused": sum(t.reused for t in run.turns),
        "read": sum(t.read for t in run.turns),
        "read_beyond_tail_worst": max(0, *(t.read - t.tail for t in run.turns[1:])),
        "turns_reading_only_tail": sum(t.read <= t.tail + 4 for t in run.turns[1:]) / (len(run.turns) - 1),
        "turns_reading_only_message": sum(t.read <= t.message + 4 for t in run.turns[1:]) / (len(run.turns) - 1),
        "turns_reading_nothing": sum(t.read == 0 for t in run.turns[1:]) / (len(run.turns) - 1),
        "read_median": statistics.median(t.read for t in run.turns[1:]),
        "overhead": statistics.median((t.wall_ms - t.generation_ms) / t.wall_ms for t in run.turns),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--reply-tokens", type=int, default=96, help="reserved reply budget per turn")
    parser.add_argument("--skip-recall", action="store_true", help="leave out the 10k/100k recall measurement")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    settings = load_settings(overrides={"db": ":memory:"}, environ={"MEMCHAT_MODEL_N_THREADS": str(args.threads),
                                                                     "MEMCHAT_MODEL_N_CTX": str(args.n_ctx)})
    engine, embedder = load_engines(settings, progress=True)
    out: dict[str, Any] = {"n_ctx": engine.n_ctx, "threads": args.threads, "reply_tokens": args.reply_tokens}
    with tempfile.TemporaryDirectory(prefix="memchat-turns-") as tmp:
        for mode in MODES:
            out[mode] = summarise(run_session(engine, embedder, Path(tmp), mode=mode, reply_tokens=args.reply_tokens))
        out["rss_mb"] = rss_mb()
        out["decode"] = decode_ratio(engine, engine.path, args.threads)
        if not args.skip_recall:
            from bench_recall import measure

            out["recall"] = {size: measure(size, 60, embedder, Path(tmp)) for size in (10_000, 100_000)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"default models, n_ctx {out['n_ctx']}, {out['threads']} threads, replies ≤ {out['reply_tokens']} tokens; "
          "one run, ratios within it")
    print(f"{'30-turn session':<38}" + "".join(f"{label:>23}" for label in MODES.values()) + "   target")
    rows = [("TTFT median (ms)", "ttft_median_ms", "{:.0f}", ""), ("TTFT p95 (ms)", "ttft_p95_ms", "{:.0f}", ""),
            ("TTFT p95 ÷ median", "p95_over_median", "{:.2f}", "≤ 1.5"),
            ("TTFT turn 30 ÷ turn 2", "last_over_second", "{:.2f}", "≤ 1.3"),
            ("prompt tokens reused (sum)", "reused", "{:,}", ""), ("prompt tokens read (sum)", "read", "{:,}", ""),
            ("turns reading only their tail", "turns_reading_only_tail", "{:.0%}", "pre-warm: 100%"),
            ("turns reading only the message", "turns_reading_only_message", "{:.0%}", "while typing: 100%"),
            ("turns reading no prompt token", "turns_reading_nothing", "{:.0%}", "while typing: 100%"),
            ("prompt tokens read (median turn)", "read_median", "{:.0f}", ""),
            ("worst read beyond the tail", "read_beyond_tail_worst", "{:,}", ""),
            ("rolling-summary folds", "folds", "{}", "≥ 1"),
            ("overhead ÷ turn wall time (median)", "overhead", "{:.1%}", "≤ 5%")]
    for label, key, fmt, target in rows:
        print(f"{label:<38}" + "".join(f"{fmt.format(out[mode][key]):>23}" for mode in MODES) + f"   {target}")
    d = out["decode"]
    print(f"decode: memchat {d['memchat_tok_s']:.1f} tok/s ÷ raw llama-cpp-python {d['raw_tok_s']:.1f} tok/s "
          f"= {d['ratio']:.2f} over {d['tokens']:.0f} tokens   target ≥ 0.95")
    print(f"RSS after the session: {out['rss_mb']:.0f} MB   target ≤ 400 MB")
    for size, r in out.get("recall", {}).items():
        print(f"recall at {size:,}: {r['recall_p50']:.2f} ms p50 ÷ NumPy {r['numpy_p50']:.2f} ms = "
              f"{r['recall_p50'] / r['numpy_p50']:.2f}×, recall@10 {r['recall_at_10']:.3f}, "
              f"with the query embedding {r['recall+embed_p50']:.1f} ms p50")
    print("targets: recall ≤ 1.5× NumPy at 100k with recall@10 ≥ 0.99; ≤ 25 ms p50 at 10k with the embedding")
    return 0


if __name__ == "__main__":
    sys.exit(main())
