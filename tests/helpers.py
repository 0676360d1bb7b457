"""Shared builders for tests: hermetic settings and fake-engine services."""

from __future__ import annotations

from pathlib import Path

from memchat.config import load_settings
from memchat.engine.fake import FakeEmbedder, FakeEngine
from memchat.pipeline.conversation import Conversation
from memchat.pipeline.factory import build_services, open_conversation
from memchat.pipeline.services import Services


def fake_services(tmp_path: Path, replies: tuple[str, ...] = (), n_ctx: int = 2048, **overrides: object) -> Services:
    settings = load_settings(tmp_path / "none.toml", {"db": str(tmp_path / "memchat.db"), **overrides}, environ={})
    return build_services(settings, engine=FakeEngine(replies, n_ctx=n_ctx), embedder=FakeEmbedder())


def fake_conversation(tmp_path: Path, replies: tuple[str, ...] = (), n_ctx: int = 2048, **overrides: object) -> Conversation:
    return open_conversation(fake_services(tmp_path, replies, n_ctx, **overrides), "test")
