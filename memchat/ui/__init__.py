"""The Textual UI: talks to the pipeline through thread workers and messages, never to SQLite or llama.cpp.

app            MemchatApp and run_app: themes, keymap, the screens, waiting for background work on exit
chat_screen    the main screen: status line, chat pane, inspector, screen keys
chat_pane      a turn: input → worker → streamed reply, and the live budget preview
chat_view      the message list (user text, Markdown replies streamed in batches)
prompt_input   the message box (Enter sends, Ctrl+J new line)
budget_bar     the token-budget bar;  ledger_screen  its per-block ledger
inspector      recall candidates and memory writes of the last turn
browser        every memory: search, filters, detail and history;  transcript_screen  a memory's source
memory_actions pin, forget/undo, purge, edit, add, go to source — shared by the inspector and the browser
dialogs        confirm, edit text, add memory;  notes_screen  rolling summary and cross-turn notes
help_screen    every key;  keys  the one table all bindings come from;  themes  themes/*.toml loader
"""
