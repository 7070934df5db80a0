"""``python -m bot``'s command line, run as a process: ``--help`` and ``--version`` print and exit
(they load neither discord.py nor a database driver), every command reads the database from the
same settings (the environment over ``.env``), and on a plain install (asyncpg blocked, as without
the postgres extra) ``ratings --rebuild`` works on SQLite while a command that needs PostgreSQL
names the extra."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import SqliteStore

ROOT = Path(__file__).resolve().parents[1]

SHIM = """
import runpy, sys
for name in sys.argv[1].split(","):
    if name:
        sys.modules[name] = None  # as if not installed: importing it raises ImportError
sys.argv = ["python -m bot", *sys.argv[2:]]
runpy.run_module("bot", run_name="__main__", alter_sys=True)
"""
"""``python -m bot ARGS`` with the modules named in argv[1] made unimportable."""

SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DATABASE_PATH",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "SHARD_COUNT",
    "SHARD_IDS",
)


def bot(
    cwd: Path, *args: str, blocked: tuple[str, ...] = (), **settings: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot *args`` in ``cwd`` with only ``settings`` of the bot's settings set."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(PYTHONPATH=str(ROOT), **settings)
    return subprocess.run(
        [sys.executable, "-c", SHIM, ",".join(blocked), *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_help_prints_every_command_and_starts_nothing(tmp_path):
    # discord.py blocked: a --help that started the bot would fail to import it.
    done = bot(tmp_path, "--help", blocked=("discord", "asyncpg", "aiosqlite"), DISCORD_TOKEN="not-a-token")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m bot"), done.stdout
    for command in ("run", "sync", "migrate", "ratings"):
        assert f"    {command} " in done.stdout, done.stdout
    assert not list(tmp_path.iterdir())  # no database was made
    done = bot(tmp_path, "ratings", "--help", blocked=("discord", "asyncpg"))
    assert done.returncode == 0 and "--rebuild" in done.stdout and "--database" in done.stdout, done.stderr


def test_version_prints_the_distribution_and_its_version(tmp_path):
    done = bot(tmp_path, "--version", blocked=("discord",))
    assert done.returncode == 0, done.stderr
    name, number = done.stdout.split()
    assert name == "argo-table-bot" and number[0].isdigit(), done.stdout


def test_an_unknown_command_is_an_argument_error(tmp_path):
    done = bot(tmp_path, "rating", blocked=("discord",))
    assert done.returncode == 2 and "invalid choice: 'rating'" in done.stderr, done.stderr


def test_ratings_rebuild_runs_on_a_plain_install_with_the_settings_database(tmp_path):
    """Without asyncpg (a plain install), on the SQLite file the settings name in ``.env``: the
    command once crashed importing the PostgreSQL store for its URL redaction."""
    asyncio.run(_make_sqlite(tmp_path / "kept" / "games.db"))
    (tmp_path / ".env").write_text("DATABASE_URL=sqlite:///kept/games.db\n")
    done = bot(tmp_path, "ratings", "--rebuild", blocked=("asyncpg",))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "No finished games: no ratings to rebuild.",
        "Ratings rebuilt from the results in kept/games.db.",
    ]
    assert not (tmp_path / "data").exists()  # not the default file


def test_ratings_rebuild_without_asyncpg_names_the_extra_for_postgres(tmp_path):
    done = bot(
        tmp_path, "ratings", "--rebuild", blocked=("asyncpg",), DATABASE_URL="postgresql://u:pw@127.0.0.1:1/x"
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "pw" not in done.stderr
    assert done.stderr.strip() == (
        "Ratings not rebuilt: a PostgreSQL DATABASE_URL needs the asyncpg driver: install the postgres "
        'extra (pip install "argo-table-bot[postgres]", or pip install -e ".[postgres]" in a checkout)'
    )


def test_migrate_without_asyncpg_names_the_extra(tmp_path):
    done = bot(tmp_path, "migrate", "--to", "postgresql://u@127.0.0.1:1/x", blocked=("asyncpg",))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "python -m bot migrate" in done.stderr and "argo-table-bot[postgres]" in done.stderr


@pytest.mark.parametrize("command", [("run",), ("sync",), ()])
def test_run_and_sync_need_the_token_and_say_so_in_one_line(tmp_path, command):
    done = bot(tmp_path, *command)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN is not set" in lines[0], done.stderr


def test_every_command_reports_a_bad_setting_the_same_way(tmp_path):
    for command in (("ratings", "--rebuild"), ("migrate", "--to", "postgresql://u@127.0.0.1:1/x"), ("run",)):
        done = bot(tmp_path, *command, DISCORD_TOKEN="x", DATABASE_URL="mysql://db/x")
        assert done.returncode == 2, (command, done.stderr)
        assert done.stderr.startswith("Configuration error: DATABASE_URL must be"), (command, done.stderr)


async def _make_sqlite(path: Path) -> None:
    path.parent.mkdir(parents=True)
    await (await SqliteStore.open(path)).close()
