"""Settings layering, and bad input that must end in one clear line, never a traceback or lost data."""

import pytest

from memchat import paths
from memchat.cli.main import main
from memchat.config import load_settings, resolve_share
from memchat.engine.llama import LlamaChatEngine, LlamaEmbedder
from memchat.types import MemchatError


def test_layers_toml_then_env_then_flags(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('db = "/from/toml.db"\n[model]\nn_ctx = 1024\ntemperature = 0.1\n[recall]\nhalf_life_days = 7\n')
    env = {"MEMCHAT_MODEL_N_CTX": "3072", "MEMCHAT_THEME": "memchat-light"}
    settings = load_settings(config, {"model": {"temperature": 0.9}}, environ=env)
    assert settings.model.n_ctx == 3072
    assert settings.model.temperature == 0.9
    assert settings.recall.half_life_days == 7
    assert settings.ui.theme == "memchat-light"
    assert str(settings.db_path) == "/from/toml.db"


@pytest.mark.parametrize(
    ("text", "message"),
    [("[model\nn_ctx = 1", "cannot parse"), ("[model]\nsize = 3\n", "unknown setting model.size"),
     ("[model]\nn_ctx = 'big'\n", "bad setting model.n_ctx")],
)
def test_bad_config_is_a_clear_error(tmp_path, text, message):
    config = tmp_path / "config.toml"
    config.write_text(text)
    with pytest.raises(MemchatError, match=message):
        load_settings(config, environ={})


def test_budget_shares_are_fractions_or_tokens():
    assert resolve_share(0.25, 4096) == 1024
    assert resolve_share(300, 4096) == 300


@pytest.mark.parametrize("engine", [LlamaChatEngine, LlamaEmbedder])
def test_missing_or_corrupt_model_file(tmp_path, engine):
    kwargs = {"n_ctx": 512, "n_threads": 1} if engine is LlamaChatEngine else {"n_threads": 1}
    with pytest.raises(MemchatError, match="not found"):
        engine(tmp_path / "nope.gguf", **kwargs)
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"not a model at all" * 1000)
    with pytest.raises(MemchatError, match="not a GGUF") as info:
        engine(corrupt, **kwargs)
    assert "memchat models pull" in info.value.hint
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(MemchatError, match="could not load"):
        engine(truncated, **kwargs)


def test_unwritable_data_dir(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("MEMCHAT_HOME", str(blocker / "home"))
    with pytest.raises(MemchatError, match="cannot create"):
        paths.ensure_dir(paths.data_dir())


def test_cli_reports_bad_input_in_one_line(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert main(["sessions", "--db", str(blocker / "x.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memchat: error:") and "fix:" in err and "Traceback" not in err


def test_every_unknown_setting_is_named_and_doctor_still_runs(tmp_path, capsys, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text("[model]\nn_ctxx = 5\n[recall]\nhalf_lfe = 2\n")
    with pytest.raises(MemchatError, match="model.n_ctxx, recall.half_lfe"):
        load_settings(config, environ={})
    assert main(["doctor", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "unknown settings model.n_ctxx, recall.half_lfe" in out and "doctor --settings" in out


def test_read_only_commands_do_not_create_a_mistyped_database(tmp_path, capsys):
    missing = tmp_path / "no" / "such.db"
    assert main(["sessions", "--db", str(missing)]) == 2
    assert "no database at" in capsys.readouterr().err
    assert not missing.parent.exists()


def test_a_closed_pipe_is_not_a_traceback(tmp_path):
    import subprocess
    import sys

    db = tmp_path / "p.db"
    from memchat.memory.sessions import SessionStore
    from memchat.memory.store import Database

    store = SessionStore(Database(db))
    for i in range(3000):
        store.add_message(store.create(f"s{i}").id, "user", "hi")
    result = subprocess.run(f"{sys.executable} -m memchat sessions --db {db} | head -1", shell=True,
                            capture_output=True, text=True)
    assert "Traceback" not in result.stderr and result.stdout.startswith("s")
