"""Forget requests on conversations: each case's messages are imported into a fresh database, then
the request; afterwards no active memory, episode, note or summary may still say a `gone` word, and
every `kept` word must still be there.

    python benchmarks/eval_forget.py [--file FILE] [--verbose] [ID ...]

FILE defaults to benchmarks/eval2/forget_cases.jsonl (dev data, written by a helper who saw no
rules). Held-out cases in the same format are kept outside the repository. A case fails on what
stays ("left") and on what went that should not have ("lost"); a request that removed nothing is
counted apart from one that removed too little. A kept word counts as lost only if something stored
said it before the request: a word the import never kept (one told only in a question, say) is the
write path's business, not the forget's, and is counted apart as "never stored".
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memchat.config import load_settings
from memchat.memory.forget_requests import forget_request
from memchat.pipeline.factory import build_services
from memchat.pipeline.importer import import_transcript

DEFAULT = ROOT / "benchmarks" / "eval2" / "forget_cases.jsonl"


def _write(path: Path, messages: list[dict]) -> None:
    lines = [{"session": "s" + m["ts"][:10], "role": "user", "content": m["content"], "ts": m["ts"]} for m in messages]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")


def _stored_texts(services: Any) -> list[tuple[str, str]]:
    """Everything a later prompt could draw on: active memories and episodes, notes, rolling summaries."""
    texts = [("episode" if m.is_episode else "memory", m.content)
             for m in services.memories.list_items(statuses=("active", "pending", "superseded"), episodes=True)]
    for session in services.sessions.all():
        texts += [("note", n.text) for n in services.sessions.notes(session.id)]
        if session.summary:
            texts.append(("summary", session.summary))
    return texts


def run_case(case: dict, shared: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memchat-forget-") as folder:
        tmp = Path(folder)
        settings = load_settings(tmp / "none.toml", {"db": str(tmp / "memory.db")}, environ={})
        services = build_services(settings, **shared)
        shared.setdefault("engine", services.engine)
        shared.setdefault("embedder", services.embedder)
        try:
            _write(tmp / "told.jsonl", case["messages"])
            _write(tmp / "request.jsonl", [case["request"]])
            import_transcript(services, tmp / "told.jsonl")
            told = [text.lower() for _, text in _stored_texts(services)]
            before = {m.id for m in services.memories.list_items(statuses=("active",), episodes=True)}
            import_transcript(services, tmp / "request.jsonl")
            after = {m.id for m in services.memories.list_items(statuses=("active",), episodes=True)}
            texts = _stored_texts(services)
        finally:
            services.db.close()
    said = [(where, text.lower()) for where, text in texts]
    left = [g for g in case["gone"] if any(g.lower() in text for _, text in said)]
    never_stored = [k for k in case["kept"] if not any(k.lower() in text for text in told)]
    lost = [k for k in case["kept"] if k not in never_stored and not any(k.lower() in text for _, text in said)]
    where = sorted({w for w, text in said if any(g.lower() in text for g in left)})
    return {"id": case["id"], "lang": case["lang"], "ok": not left and not lost, "left": left, "lost": lost, "never_stored": never_stored,
            "removed": len(before - after), "left_in": where, "texts": texts, "request_stored": len(after - before),
            "left_said_in_request": [g for g in left if g.lower() in case["request"]["content"].lower()],
            "understood": forget_request(case["request"]["content"]) is not None,
            "lost_beside_gone": [k for k in lost if any(k.lower() in m["content"].lower() and
                                                        any(g.lower() in m["content"].lower() for g in case["gone"])
                                                        for m in case["messages"])]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, default=DEFAULT, help="cases (JSON lines); default: the dev cases")
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--verbose", action="store_true", help="print each failing case and what it left stored")
    args = parser.parse_args(argv)
    cases = [json.loads(line) for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.ids:
        cases = [c for c in cases if c["id"] in set(args.ids)]
    if not cases:
        parser.error(f"no cases in {args.file}")
    shared: dict[str, Any] = {}
    results = [run_case(case, shared) for case in cases]
    kinds: Counter[str] = Counter()
    for r in results:
        if r["left"]:
            kinds[("removed something" if r["removed"] else "removed nothing") + ", left in " + "+".join(r["left_in"])] += 1
        if args.verbose and not r["ok"]:
            print(f"FAIL {r['id']} left {r['left']} lost {r['lost']}")
            for where, text in r["texts"]:
                print(f"    {where:8} {text[:140]}")
    for lang in sorted({r["lang"] for r in results}):
        mine = [r for r in results if r["lang"] == lang]
        print(f"[{lang}] {sum(r['ok'] for r in mine)}/{len(mine)} pass; leaving something {sum(bool(r['left']) for r in mine)}, "
              f"losing something kept {sum(bool(r['lost']) for r in mine)}")
    passed = sum(r["ok"] for r in results)
    print(f"[all] {passed}/{len(results)} pass ({passed / len(results):.2f})")
    for kind, n in kinds.most_common():
        print(f"  {n:3}  {kind}")
    print(f"requests that were themselves stored as a memory or episode: {sum(bool(r['request_stored']) for r in results)}; "
          f"failing cases whose only words left are words of the request too: "
          f"{sum(bool(r['left']) and r['left'] == r['left_said_in_request'] for r in results)}")
    print(f"requests not read as a request to forget: {sum(not r['understood'] for r in results)}; cases losing a kept "
          f"word told in the same message as the story: {sum(bool(r['lost_beside_gone']) for r in results)} of "
          f"{sum(bool(r['lost']) for r in results)} losing one; cases with a kept word the import never stored: "
          f"{sum(bool(r['never_stored']) for r in results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
