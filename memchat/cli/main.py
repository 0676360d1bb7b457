"""`memchat` command line: the TUI by default, and scriptable subcommands.

Every command turns a MemchatError (and a SQLite or file-system failure) into
one line and a hint on stderr (exit code 2), never a traceback. Global options
work before or after the subcommand name.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import apsw

from memchat import paths
from memchat.cli import arg_types, chat_cmds, doctor, memory_cmd, models_cmd
from memchat.cli.output import from_os, from_sqlite, report_error
from memchat.config import Settings, load_settings
from memchat.types import MemchatError


def _global_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    group = parent.add_argument_group("global options")
    S = argparse.SUPPRESS
    group.add_argument("--db", metavar="PATH", type=arg_types.db_path, default=S, help="SQLite file (default: the data dir's memchat.db)")
    group.add_argument("--config", metavar="FILE", type=Path, default=S, help="config TOML (default: XDG config dir)")
    group.add_argument("--model", metavar="NAME|PATH", default=S, help="chat model from models.txt or a GGUF path")
    group.add_argument("--embed-model", metavar="NAME|PATH", default=S, help="embedding model")
    group.add_argument("--n-ctx", type=int, metavar="N", default=S, help="context window in tokens")
    group.add_argument("--threads", type=int, metavar="N", default=S, help="CPU threads for llama.cpp")
    group.add_argument("--theme", metavar="NAME", default=S, help="UI theme (memchat-dark, memchat-light)")
    group.add_argument("--engine", choices=("local", "openai"), default=S,
                       help="where replies come from: the local model, or an OpenAI-compatible server")
    group.add_argument("--base-url", metavar="URL", default=S,
                       help="an OpenAI-compatible server's address (e.g. http://127.0.0.1:8080/v1); implies --engine openai")
    return parent


def build_parser() -> argparse.ArgumentParser:
    parent = _global_options()
    parser = argparse.ArgumentParser(
        prog="memchat",
        parents=[parent],
        description="A local-first chat assistant with a memory you can see. Without a command, opens the chat.",
    )
    parser.add_argument("--session", metavar="NAME", type=arg_types.session_name,
                        help="open (or create) this session in the TUI")
    parser.add_argument("--resume", action="store_true", help="continue the most recent session")
    parser.set_defaults(func=chat_cmds.cmd_tui)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chat_cmds.add_parsers(sub, parent)
    memory_cmd.add_parser(sub, parent)
    doctor.add_parser(sub, parent)
    models_cmd.add_parser(sub)
    return parser


def settings_from(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    model: dict[str, Any] = {}
    for flag, key in (("model", "chat"), ("embed_model", "embed"), ("n_ctx", "n_ctx"), ("threads", "n_threads")):
        if getattr(args, flag, None) is not None:
            model[key] = getattr(args, flag)
    if model:
        overrides["model"] = model
    engine = {"kind": getattr(args, "engine", None), "base_url": getattr(args, "base_url", None)}
    if engine["base_url"] and not engine["kind"]:
        engine["kind"] = "openai"  # an address means a server
    if any(engine.values()):
        overrides["engine"] = {key: value for key, value in engine.items() if value}
    if getattr(args, "theme", None):
        overrides["ui"] = {"theme": args.theme}
    if getattr(args, "db", None):
        overrides["db"] = args.db
    return load_settings(getattr(args, "config", None), overrides)


def main(argv: Sequence[str] | None = None) -> int:
    paths.make_private()  # before SQLite or an export creates a file
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        arg_types.refuse_undecodable(argv)
    except MemchatError as error:
        report_error(error)
        return 2
    args = build_parser().parse_args(argv)
    try:
        return _run(args)
    except MemchatError as error:
        report_error(error)
        return 2
    except KeyboardInterrupt:
        print("memchat: interrupted", file=sys.stderr)
        return 130


def _run(args: argparse.Namespace) -> int:
    """The command, with the failures of what it touches (SQLite, files) turned into MemchatErrors."""
    try:
        try:
            args.settings = settings_from(args)
        except MemchatError as error:
            if args.func is not doctor.cmd_doctor:
                raise
            args.settings, args.settings_error = Settings(), error  # doctor still runs, and reports it
        return int(args.func(args) or 0)
    except apsw.Error as exc:
        raise from_sqlite(exc, args.settings.db_path if hasattr(args, "settings") else "the database") from exc
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise from_os(exc) from exc
    except RecursionError as exc:
        raise MemchatError("the input is nested too deeply", "simplify it") from exc


def run() -> None:
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # `memchat sessions | head`: the reader left; not an error worth a traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)
