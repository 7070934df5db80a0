"""Operator safety: the shutdown grace period is a setting (SHUTDOWN_GRACE), and a SQLite file is
copied to ``<file>.bak-<version>`` before its schema is migrated (only then)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sqlite3

import pytest

import cogs.turns
from bot.config import ConfigError, Settings
from bot.store import MIGRATIONS, SqliteStore
from tests.test_bot_play import start_game


def load(**values: str) -> Settings:
    return Settings.load({"DISCORD_TOKEN": "abc", **values}, dotenv=None)


def test_shutdown_grace_defaults_to_ten_seconds_and_is_checked():
    assert load().shutdown_grace == 10.0 and load(SHUTDOWN_GRACE="2.5").shutdown_grace == 2.5
    for bad in ("-1", "soon", "301"):
        with pytest.raises(ConfigError, match="SHUTDOWN_GRACE must be seconds from 0 to 300"):
            load(SHUTDOWN_GRACE=bad)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, shutdown_grace=5.0)


async def test_shutdown_waits_only_the_grace_period(world, simcord_bot, monkeypatch, caplog):
    w = world
    turn = await start_game(w)

    async def stuck_board(view, previous=None):
        await asyncio.sleep(3600)

    monkeypatch.setattr(cogs.turns, "board_file", stuck_board)
    await w.alice.click(turn, label="take 3")
    assert simcord_bot.in_flight.count == 1
    closing = asyncio.create_task(simcord_bot.close_tables())
    await w.env.advance_time(4)
    assert not closing.done()
    with caplog.at_level(logging.WARNING, logger="bot.app"):
        await w.env.advance_time(2)
        await closing
    assert "shutting down with 1 handlers still running" in caplog.text


def user_version(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def test_a_sqlite_file_is_copied_before_its_schema_is_migrated(tmp_path):
    path = tmp_path / "games.db"
    store = await SqliteStore.open(path)  # a new file: nothing to keep, no copy
    await store.close()
    assert not [p.name for p in tmp_path.iterdir() if ".bak-" in p.name]

    # As an older release left it: every migration but the last applied.
    path.unlink()
    old = len(MIGRATIONS) - 1
    with sqlite3.connect(path) as conn:
        for script in MIGRATIONS[:old]:
            conn.executescript(script)
        conn.execute(f"PRAGMA user_version = {old}")
    store = await SqliteStore.open(path)
    await store.close()
    copy = tmp_path / f"games.db.bak-{old}"
    assert copy.is_file() and user_version(copy) == old and user_version(path) == len(MIGRATIONS)
    with sqlite3.connect(copy) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"tables", "events", "seat_views"} <= names

    copy.write_bytes(b"kept")  # an up-to-date file is opened without copying again
    store = await SqliteStore.open(path)
    await store.close()
    assert copy.read_bytes() == b"kept"
    assert sorted(p.name for p in tmp_path.iterdir() if ".bak-" in p.name) == [copy.name]
