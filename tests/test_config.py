"""Settings loading and `python -m bot` start-up errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE_PATH, ConfigError, Settings, default_ai_workers

ROOT = Path(__file__).resolve().parents[1]


def test_defaults_and_values_from_env():
    s = Settings.load({"DISCORD_TOKEN": "abc"}, dotenv=None)
    assert s.token == "abc" and s.database_path == DEFAULT_DATABASE_PATH
    assert s.dev_guild_id is None and s.log_level == "INFO"
    s = Settings.load(
        {"DISCORD_TOKEN": "abc", "DATABASE_PATH": "x/y.db", "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"},
        dotenv=None,
    )
    assert (s.database_path, s.dev_guild_id, s.log_level) == (Path("x/y.db"), 123, "DEBUG")


def test_dotenv_file_is_read_and_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nDEV_GUILD_ID=5\n")
    assert Settings.load({}, dotenv=env_file).token == "from-file"
    s = Settings.load({"DISCORD_TOKEN": "from-env"}, dotenv=env_file)
    assert s.token == "from-env" and s.dev_guild_id == 5


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "a", "DEV_GUILD_ID": "my-server"}, "DEV_GUILD_ID must be a numeric"),
        ({"DISCORD_TOKEN": "a", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
    ],
)
def test_bad_settings_are_explained(env, message):
    with pytest.raises(ConfigError, match=message):
        Settings.load(env, dotenv=None)


def test_token_never_shows_in_repr():
    assert "sekrit" not in repr(Settings(token="sekrit"))


def _run_bot(tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env.update(extra)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


def test_python_m_bot_without_token_prints_one_line_and_exits_2(tmp_path):
    done = _run_bot(tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0] and "Traceback" not in done.stderr


def test_python_m_bot_with_bad_guild_id_exits_2(tmp_path):
    done = _run_bot(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="abc")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "DEV_GUILD_ID" in done.stderr


def test_ai_settings_are_read_and_checked():
    s = Settings.load({"DISCORD_TOKEN": "abc"}, dotenv=None)
    assert (s.ai_workers, s.ai_budget) == (default_ai_workers(), None)
    s = Settings.load({"DISCORD_TOKEN": "abc", "AI_WORKERS": "0", "AI_BUDGET": "0.25"}, dotenv=None)
    assert (s.ai_workers, s.ai_budget) == (0, 0.25)
    for bad in ({"AI_WORKERS": "two"}, {"AI_WORKERS": "-1"}, {"AI_BUDGET": "fast"}, {"AI_BUDGET": "0"}):
        with pytest.raises(ConfigError, match=next(iter(bad))):
            Settings.load({"DISCORD_TOKEN": "abc", **bad}, dotenv=None)


def test_the_start_up_line_says_the_argo_engine_runs_as_plain_python():
    from bot.engine import argo, compiled

    # The suite tests the source (test_argo_compiled.py tests a build of it)
    assert not argo.COMPILED, "compiled Argo modules shadow the source: delete bot/engine/argo/*.so"
    import bot.ai.search

    assert bot.ai.search.__file__.endswith(".py"), "a compiled search shadows the source: delete bot/ai/*.so"
    assert compiled.stale_modules() == []
    assert compiled.describe().startswith("Argo engine: plain Python")
