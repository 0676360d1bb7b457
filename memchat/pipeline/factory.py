"""Building a conversation from settings: model files → engines → database → Services.

The CLI commands, the TUI and the tests all build their app through
`build_services`, so what is tested is what runs. Engines may be injected
(the scripted fake in fast tests).
"""

from __future__ import annotations

from pathlib import Path

from memchat import models, paths
from memchat.config import Settings
from memchat.engine.protocol import ChatEngine, Embedder
from memchat.memory.store import Database
from memchat.models import store as model_store
from memchat.pipeline.conversation import Conversation
from memchat.pipeline.services import Services
from memchat.types import MemchatError, Session


def resolve_model(value: str, *, progress: bool) -> tuple[Path, str]:
    """(file, sha256) for a model setting: a registry name (pulled on first use) or a GGUF path."""
    candidate = Path(value).expanduser()
    if candidate.suffix == ".gguf" or candidate.is_file():
        if not candidate.is_file():
            raise MemchatError(f"model file not found: {candidate}", "fix the path or use a name from `memchat models list`")
        return candidate.absolute(), ""
    spec = models.find(value)
    if model_store.status(spec) == "corrupt":
        raise MemchatError(
            f"model {spec.name} failed its last verification (the file is damaged)",
            f"run `memchat models pull {spec.name} --force`",
        )
    path = models.ensure_model(value, progress=progress)
    record = model_store.read_record(path)
    return path, (record.sha256 if record else spec.sha256 or "")


def load_engines(settings: Settings, *, progress: bool = True, background: bool = False) -> tuple[ChatEngine, Embedder]:
    """The real engines. Model files are pulled first (with a progress bar); with `background`
    the chat model then loads on a thread while the caller goes on (token counts are
    estimates until it is ready)."""
    from memchat.engine.llama import LlamaChatEngine, LlamaEmbedder, file_sha256
    from memchat.engine.loading import BackgroundChatEngine

    if settings.engine.kind == "openai":
        return remote_engines(settings, progress=progress)
    chat_path, chat_sha = resolve_model(settings.model.chat, progress=progress)
    embed_path, _ = resolve_model(settings.model.embed, progress=progress)
    model = settings.model

    def load_chat() -> ChatEngine:
        return LlamaChatEngine(chat_path, n_ctx=model.n_ctx, n_threads=model.n_threads, seed=model.seed,
                               sha256=chat_sha or file_sha256(chat_path))

    engine: ChatEngine = BackgroundChatEngine(load_chat, name=chat_path.stem, n_ctx=model.n_ctx) if background else load_chat()
    return engine, paired(LlamaEmbedder(embed_path, n_threads=model.n_threads), settings)


def load_embedder(settings: Settings, *, progress: bool = True) -> Embedder:
    """The embedder alone (`memory reindex`): the server's with engine.embeddings = "remote", else the local one."""
    from memchat.engine.llama import LlamaEmbedder

    if settings.engine.kind == "openai" and settings.engine.embeddings == "remote":
        return remote_engines(settings, progress=progress)[1]
    embed_path, _ = resolve_model(settings.model.embed, progress=progress)
    return paired(LlamaEmbedder(embed_path, n_threads=settings.model.n_threads), settings)


def paired(embedder: Embedder, settings: Settings) -> Embedder:
    """The embedder with the second one beside it, when model.second_embed names one."""
    from memchat.engine.paired_embed import PairedEmbedder, second_embedder

    model = settings.model
    if not model.second_embed:
        return embedder
    return PairedEmbedder(embedder, second_embedder(model.second_embed), model.first_share)


def remote_engines(settings: Settings, *, progress: bool = True) -> tuple[ChatEngine, Embedder]:
    """engine.kind = "openai": replies from the server; memories embedded here (model.embed) unless
    engine.embeddings = "remote". A server that is down is not an error here: the first turn (or
    the TUI's start, in the background) reports it in one line."""
    from memchat.engine.llama import LlamaEmbedder
    from memchat.engine.openai_compat import OpenAIChatEngine
    from memchat.engine.remote_embed import RemoteEmbedder

    remote = settings.engine
    engine = OpenAIChatEngine(remote.base_url, model=remote.model, n_ctx=remote.n_ctx, api_key_env=remote.api_key_env,
                              timeout=remote.timeout, connect_timeout=remote.connect_timeout)
    try:
        engine.describe()  # its context size and model name, for the status line (no generation)
    except MemchatError:
        pass  # down: the first turn says so, in one line, and keeps the message
    if remote.embeddings == "remote":
        return engine, RemoteEmbedder(remote.base_url, model=remote.embed_model or remote.model,
                                      api_key_env=remote.api_key_env, timeout=remote.timeout,
                                      connect_timeout=remote.connect_timeout)
    embed_path, _ = resolve_model(settings.model.embed, progress=progress)
    return engine, paired(LlamaEmbedder(embed_path, n_threads=settings.model.n_threads), settings)


def open_database(settings: Settings, *, create: bool = True) -> Database:
    """The settings' SQLite file; `create=False` (commands that only read) refuses to make a new one,
    so a mistyped --db is an error rather than an empty result."""
    path = settings.db_path
    if not create and not path.exists():
        raise MemchatError(f"no database at {path}", "check --db / MEMCHAT_DB (memchat creates it on the first chat)")
    if not create and path.is_file() and path.stat().st_size == 0:  # only a command that writes may initialise it
        raise MemchatError(f"{path} is an empty file, not a memchat database yet",
                           "chat, `memchat ask`, `memchat import` or `memchat memory add` with this --db creates it")
    paths.ensure_dir(path.parent)
    return Database(path)


def build_services(
    settings: Settings,
    *,
    engine: ChatEngine | None = None,
    embedder: Embedder | None = None,
    progress: bool = True,
    background: bool = False,
    create: bool = True,
) -> Services:
    if engine is None or embedder is None:
        real_engine, real_embedder = load_engines(settings, progress=progress, background=background)
        engine, embedder = engine or real_engine, embedder or real_embedder
    database = open_database(settings, create=create)
    return Services(settings, database, engine, embedder)


def open_session(services: Services, name: str | None, *, resume: bool) -> Session:
    """The named session (created if new), the latest one with --resume, or a fresh one."""
    sessions = services.sessions
    if name:
        return sessions.open(name)
    if resume:
        latest = sessions.latest()
        if latest is None:
            raise MemchatError("no session to resume", "start one with `memchat`")
        return latest
    return sessions.create()


def open_conversation(services: Services, name: str | None = None, *, resume: bool = False) -> Conversation:
    return Conversation(services, open_session(services, name, resume=resume))
