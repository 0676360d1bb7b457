"""`memchat models …`: list, pull, verify and locate the models of the registry.

Each handler returns an exit code and turns a MemchatError into one line plus a hint
on stderr, so a failed pull never ends in a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from memchat import models
from memchat.models import store
from memchat.models.catalog import ModelSpec
from memchat.types import MemchatError

Handler = Callable[[argparse.Namespace], int]


def _report(error: MemchatError) -> int:
    print(f"memchat: error: {error.message}", file=sys.stderr)
    if error.hint:
        print(f"  fix: {error.hint}", file=sys.stderr)
    return 2


def _guarded(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except MemchatError as error:
            return _report(error)

    run.__doc__ = handler.__doc__
    return run


def _size(spec: ModelSpec) -> str:
    if spec.size is None:
        return "?"
    return f"{spec.size / 1e9:.1f} GB" if spec.size >= 1e9 else f"{spec.size / 1e6:.0f} MB"


def _row(spec: ModelSpec) -> dict[str, object]:
    return {
        "name": spec.name,
        "role": spec.role,
        "default": spec.default,
        "size": spec.size,
        "status": store.status(spec),
        "path": str(store.final_path(spec).absolute()),
        "sha256": spec.sha256,
        "licence": spec.licence,
        "sources": list(spec.sources),
        "convert": spec.convert,
    }


def cmd_list(args: argparse.Namespace) -> int:
    """Show every known model, whether it is on disk, and which ones are the defaults."""
    specs = models.registry()
    if args.json:
        print(json.dumps([_row(spec) for spec in specs], indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for column in ("", "name", "role", "size", "status", "licence"):
        table.add_column(column)
    for spec in specs:
        state = store.status(spec)
        style = {"verified": "green", "present": "green", "corrupt": "red", "unverified": "yellow"}.get(state, "dim")
        table.add_row(
            "*" if spec.default else "", spec.name, spec.role, _size(spec), f"[{style}]{state}[/]", spec.licence
        )
    console = Console()
    console.print(table)
    console.print("[dim]* default for its role · pull with `memchat models pull NAME`[/]")
    return 0


def cmd_pull(args: argparse.Namespace) -> int:
    """Pull one model (or, with no name, the default chat and embedding models)."""
    specs = [models.find(args.name)] if args.name else [models.default_model("chat"), models.default_model("embed")]
    for spec in specs:
        present = store.final_path(spec).is_file()
        if present and not args.force:
            print(f"{spec.name} is already pulled ({store.status(spec)}); use --force to pull it again")
            continue
        path = store.pull(spec, progress=not args.quiet)
        print(path.absolute())
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Re-hash every pulled model; exit 1 if any differs from what was pulled."""
    present = [spec for spec in models.registry() if store.final_path(spec).is_file()]
    if not present:
        print("no models pulled yet; run `memchat models pull`")
        return 0
    bad = 0
    for spec in present:
        if store.verify(spec):
            note = "ok" if spec.sha256 else "ok (no pinned hash: unchanged since pull)"
            print(f"{spec.name}: {note}")
        else:
            bad += 1
            print(f"{spec.name}: CORRUPT (sha256 differs) — run `memchat models pull {spec.name} --force`")
    return 1 if bad else 0


def cmd_path(args: argparse.Namespace) -> int:
    """Print the absolute path of a pulled model."""
    print(models.model_path(args.name))
    return 0


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register `models` and its subcommands on the CLI's top-level subparsers."""
    parser = subparsers.add_parser("models", help="list, pull and verify local models")
    commands = parser.add_subparsers(dest="models_command", metavar="COMMAND", required=True)

    listing = commands.add_parser("list", help="known models, their status and the defaults")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(func=_guarded(cmd_list))

    pull = commands.add_parser("pull", help="download (and convert) a model; no name = the defaults")
    pull.add_argument("name", nargs="?", help="model name from `memchat models list`")
    pull.add_argument("--force", action="store_true", help="pull again even if already present")
    pull.add_argument("--quiet", action="store_true", help="no progress bars")
    pull.set_defaults(func=_guarded(cmd_pull))

    verify = commands.add_parser("verify", help="check every pulled model's sha256 (exit 1 if any is bad)")
    verify.set_defaults(func=_guarded(cmd_verify))

    path = commands.add_parser("path", help="print the absolute path of a pulled model")
    path.add_argument("name")
    path.set_defaults(func=_guarded(cmd_path))
