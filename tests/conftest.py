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
