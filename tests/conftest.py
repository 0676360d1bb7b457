import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def hermetic_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own MEMCHAT_HOME unless it shares the pulled models (see real_home)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("MEMCHAT_HOME", str(home))
    for name in ("MEMCHAT_DB", "MEMCHAT_THEME"):
        monkeypatch.delenv(name, raising=False)
    return home


# The models `memchat models pull` put in the environment's own data dir (before the
# hermetic MEMCHAT_HOME of each test): real-model tests reuse them, and pull them there
# once if they are missing, so a fresh CI run fetches each model once.
from memchat import paths as _paths

_USER_MODELS_HOME = _paths.home()


@pytest.fixture(scope="session")
def real_model_paths() -> dict[str, Path]:
    """{'chat': path, 'embed': path} of the default models, pulled on first use."""
    import os

    from memchat import models

    saved = os.environ.get("MEMCHAT_HOME")
    if _USER_MODELS_HOME is None:
        os.environ.pop("MEMCHAT_HOME", None)
    else:
        os.environ["MEMCHAT_HOME"] = str(_USER_MODELS_HOME)
    try:
        return {role: models.ensure_model(models.default_model(role).name, progress=False) for role in ("chat", "embed")}
    finally:
        if saved is None:
            os.environ.pop("MEMCHAT_HOME", None)
        else:
            os.environ["MEMCHAT_HOME"] = saved


def _test_threads() -> int | None:
    """`.ci/run` runs the real-model tests a second time with MEMCHAT_MODEL_N_THREADS=1: a test
    that asserts the model's wording flips with the kernels' thread count and shows up at once."""
    import os

    value = os.environ.get("MEMCHAT_MODEL_N_THREADS", "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


@pytest.fixture(scope="session")
def real_engines(real_model_paths: dict[str, Path]):
    """One real chat engine and embedder shared by the session (loading costs ~0.5 s)."""
    from memchat.config import ModelSettings
    from memchat.engine.llama import LlamaChatEngine, LlamaEmbedder

    threads = _test_threads() or ModelSettings().n_threads
    engine = LlamaChatEngine(real_model_paths["chat"], n_ctx=2048, n_threads=threads, seed=42)
    embedder = LlamaEmbedder(real_model_paths["embed"], n_threads=threads)
    return engine, embedder
