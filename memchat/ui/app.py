"""The Textual app: themes, keymap and screens wired to one conversation.

`run_app` is what `memchat` (no subcommand) runs: it builds the services with
the same factory as every other command — pulling the default models with a
progress bar on first start, before the full-screen UI takes the terminal —
opens the session, runs the app, and on exit waits for the last turn's memory
extraction so nothing the user said is lost.

Quitting while memories are being written says so ("saving memories…") and
closes when they are; a second Ctrl+Q closes at once. Nothing is lost either
way: an unextracted message stays queued in the database and the next start
extracts it (`pipeline.extraction`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from textual.app import App, SystemCommand
from textual.css.query import NoMatches
from textual.screen import Screen

from memchat.config import Settings
from memchat.engine.protocol import ChatEngine, Embedder
from memchat.pipeline.conversation import Conversation
from memchat.pipeline.factory import build_services, open_conversation
from memchat.pipeline.services import Services
from memchat.ui import keys, palette, themes
from memchat.ui.chat_screen import ChatScreen
from memchat.ui.help_screen import HelpScreen
from memchat.ui.memory_actions import ForgetLog, MemoryScreen
from memchat.ui.status_line import StatusLine
from memchat.ui.terminal import TypeAhead

EXIT_WAIT_SECONDS = 120.0


class MemchatApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "memchat"
    BINDINGS = keys.bindings("app")

    def __init__(self, services: Services, conversation: Conversation) -> None:
        super().__init__()
        self.services = services
        self.conversation = conversation
        self.forget_log = ForgetLog()
        self.chat = ChatScreen(services, conversation, self.forget_log)
        own = themes.load_themes()
        for theme in own.values():
            self.register_theme(theme)
        self.theme = themes.check_theme(services.settings.ui.theme, own)
        self.remap = keys.validate(services.settings.ui.keys)
        self.set_keymap(self.remap)
        self.quit_now = False
        """Quit was asked for twice: do not wait for background extraction."""

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        session: str | None = None,
        resume: bool = False,
        engine: ChatEngine | None = None,
        embedder: Embedder | None = None,
    ) -> MemchatApp:
        """Build services and open the session exactly as the CLI does (engines injectable for tests)."""
        services = build_services(settings, engine=engine, embedder=embedder, background=True)
        conversation = open_conversation(services, session, resume=resume)
        conversation.prewarm_after_turns = True  # in a chat a next turn is likely
        return cls(services, conversation)

    def get_default_screen(self) -> Screen:
        return self.chat

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return themes.variable_defaults(self.current_theme.to_color_system().generate())

    def action_quit(self) -> None:  # type: ignore[override]
        """Quit once the memories being written are saved; asked again, quit now."""
        status = self.chat.query_one(StatusLine)
        if self.quit_now or not self.conversation.extracting:
            self.exit()
            return
        self.quit_now = True  # the next Ctrl+Q leaves the rest for the next start
        status.saving = True
        self.notify("Saving memories… Ctrl+Q again quits now; what is left is saved at the next start.",
                    title="quitting", markup=False)
        self.set_interval(0.2, self._exit_when_saved)

    def _exit_when_saved(self) -> None:
        if not self.conversation.extracting:
            self.exit()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette (Ctrl+P): memchat's actions for `screen` first, then Textual's."""
        yield from palette.commands(self, screen)
        yield from super().get_system_commands(screen)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.remap))

    def on_memory_screen_memories_changed(self, message: MemoryScreen.MemoriesChanged) -> None:
        if not self.is_running:  # quitting right after a save: the views are gone, the store has it
            return
        for screen in self.screen_stack:
            if isinstance(screen, MemoryScreen):
                screen.reload_memories(message.recount)

    def exit(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        self.keep_unsent()  # while the box and the queue are still there
        super().exit(*args, **kwargs)  # type: ignore[arg-type]

    def keep_unsent(self) -> None:
        """Queued messages and the box's text outlive the window: kept for the next start of this session."""
        try:
            self.conversation.keep_draft(self.chat.pane.unsent())
        except NoMatches:  # the screen never came up (the app failed to start): nothing was typed into it
            return

    def finish_background_work(self, timeout: float = EXIT_WAIT_SECONDS) -> bool:
        """Let a cancelled turn record itself and, unless the user quit at once, the extraction finish
        (after the UI has closed). False when extraction is still running."""
        self.chat.pane.idle.wait(timeout)
        if self.conversation.extracting and not self.quit_now:
            print("memchat: saving memories… (Ctrl+C leaves them for the next start)", flush=True)
            try:
                self.conversation.wait(timeout)
            except KeyboardInterrupt:
                return False
        if self.conversation.extracting:
            return False
        self.conversation.stop_prewarm()  # within one small step
        return True


def run_app(settings: Settings, session: str | None = None, resume: bool = False) -> int:
    themes.check_theme(settings.ui.theme, themes.load_themes())
    keys.validate(settings.ui.keys)
    typed = TypeAhead().start()  # keys typed while the models load keep Enter as Send
    try:
        app = MemchatApp.from_settings(settings, session=session, resume=resume)
    except BaseException:
        typed.restore()
        raise
    app.chat.type_ahead = typed.collect()
    try:
        result = app.run()
    finally:
        typed.restore()
        app.keep_unsent()
        settled = app.finish_background_work()
        app.services.sessions.discard_if_empty(app.conversation.session.id)
    code = int(result or app.return_code or 0)
    if not settled:
        # The extraction thread is mid-write: end the process without waiting for it. Its transaction
        # never commits, so the message stays queued and the next start extracts it.
        sys.stdout.flush()
        os._exit(code)
    return code
