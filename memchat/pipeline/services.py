"""The things one conversation needs, wired once by the composition root (cli)."""

from __future__ import annotations

from dataclasses import dataclass, field

from memchat.config import Settings
from memchat.engine.protocol import ChatEngine, Embedder, Sampling
from memchat.memory.items import MemoryStore
from memchat.memory.recall import Recaller
from memchat.memory.sessions import SessionStore
from memchat.memory.store import Database
from memchat.memory.summary import RollingSummary
from memchat.memory.writer import MemoryWriter
from memchat.prompt.budget import BudgetLimits, split_budget


@dataclass
class Services:
    settings: Settings
    db: Database
    engine: ChatEngine
    embedder: Embedder
    memories: MemoryStore = field(init=False)
    sessions: SessionStore = field(init=False)
    recaller: Recaller = field(init=False)
    writer: MemoryWriter = field(init=False)
    summariser: RollingSummary = field(init=False)

    def __post_init__(self) -> None:
        self.memories = MemoryStore(self.db, self.embedder)
        self.sessions = SessionStore(self.db)
        self.recaller = Recaller(self.memories, self.settings.recall)
        labeller = self.engine if self.settings.write.model_labels else None
        self.writer = MemoryWriter(self.memories, labeller, event_ttl_days=self.settings.forget.event_ttl_days)
        self.summariser = RollingSummary(self.engine, self.memories)

    @property
    def limits(self) -> BudgetLimits:
        return split_budget(self.engine.n_ctx, self.settings.budget)

    @property
    def sampling(self) -> Sampling:
        model = self.settings.model
        return Sampling(model.temperature, model.top_p, model.repeat_penalty, model.seed)
