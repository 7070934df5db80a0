"""Faults found by the fault probe, answered: bad databases, failed writes, long input, logs,
repeats, eviction, and a board being drawn while other tables play (host and process level)."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import render
from bot.config import Settings, setup_logging
from bot.engine.registry import GameRegistry
from bot.store import Store, StoreError
from bot.tables import NOT_SAVED, TYPED_REPEAT_SECONDS, TableError, TableHost
from cogs.turns import board_file
from tests.pebbles import Pebbles

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    host = TableHost(store, GameRegistry([Pebbles]), clock=Clock(), seeder=lambda: 1234, cache_size=2)
    yield host
    await host.close()


async def start(host: TableHost, channel: int, options: str = "") -> None:
    await host.open_table(
        guild_id=1, channel_id=channel, game_name="Pebbles", host_id="a", options_text=options
    )
    await host.join(channel, "b")
    await host.start(channel, "a")


# -- 1. a database that cannot be used at start ----------------------------------------------------


def run_bot(cwd: Path, database: str | None = None, **env_values: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``cwd`` with a fake token, the SQLite file ``database`` and
    ``env_values`` set (no settings from the caller's environment)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DEV_GUILD_ID", "DATABASE_PATH")}
    env.update(DISCORD_TOKEN="not-a-real-token", PYTHONPATH=str(ROOT), **env_values)
    if database is not None:
        env["DATABASE_PATH"] = database
    # A bot that hangs instead of exiting fails here by timing out.
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stdout + done.stderr
    errors = [line for line in (done.stdout + done.stderr).splitlines() if "ERROR" in line]
    assert len(errors) == 1, done.stdout + done.stderr
    return errors[0]


def test_a_garbage_database_file_exits_with_one_line_and_status_2(tmp_path):
    (tmp_path / "games.db").write_bytes(b"this is not a database\n" * 200)
    done = run_bot(tmp_path, "games.db")
    assert done.returncode == 2
    assert "is not a database" in one_error_line(done)


async def test_a_truncated_database_exits_with_one_line_and_status_2(tmp_path):
    store = await Store.open(tmp_path / "good.db")
    await start_lobby(store)
    await store.close()
    data = (tmp_path / "good.db").read_bytes()
    (tmp_path / "games.db").write_bytes(data[: len(data) // 2])
    done = run_bot(tmp_path, "games.db")
    assert done.returncode == 2
    assert "malformed" in one_error_line(done)


async def start_lobby(store: Store) -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    await store.create_table(
        guild_id=1, channel_id=5, game="Pebbles", host_id="a", options={}, seed=1, now=now
    )


def test_a_database_folder_that_cannot_be_created_is_not_called_a_network_failure(tmp_path):
    (tmp_path / "afile").write_text("x")
    done = run_bot(tmp_path, "afile/sub/games.db")
    assert done.returncode == 1
    line = one_error_line(done)
    assert "Cannot create the database folder" in line and "Discord" not in line


async def test_a_read_only_database_is_refused_at_start(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    await store.close()
    with pytest.raises(StoreError, match="readonly"):
        await Store.open(tmp_path / "games.db", read_only=True)


def test_starting_prints_no_voice_warnings(tmp_path):
    code = (
        "import logging; logging.basicConfig(level=logging.DEBUG)\n"
        "from bot.app import create_bot; from bot.config import Settings\n"
        "create_bot(Settings(token='x'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "voice" not in (done.stdout + done.stderr).lower()


# -- 2. a failed write --------------------------------------------------------------------------------


async def test_a_write_refused_by_the_database_changes_nothing_and_says_so(host, caplog):
    await start(host, 10)
    before = await host.store.get_table((await host.current(10)).record.id)
    await host.store.sql("PRAGMA query_only = 1")  # the file turned read-only under the bot
    with caplog.at_level(logging.ERROR), pytest.raises(TableError) as refused:
        await host.act(10, "a", "take 2")
    assert str(refused.value) == NOT_SAVED
    assert "readonly" in caplog.text and "cannot rollback" not in caplog.text
    await host.store.sql("PRAGMA query_only = 0")
    assert await host.store.get_table(before.id) == before
    assert (await host.current(10)).game.to_json()["pile"] == 10
    await host.act(10, "a", "take 2")
    assert (await host.current(10)).game.to_json()["pile"] == 8


async def test_a_full_disk_changes_nothing_and_says_so(host, caplog):
    await start(host, 10)
    pages = (await host.store.sql("PRAGMA page_count"))[0][0]
    await host.store.sql(f"PRAGMA max_page_count = {pages}")
    with caplog.at_level(logging.ERROR):
        for _ in range(200):  # the log grows until the "disk" is full
            try:
                await host.act(10, "a", {"type": "peek"})
            except TableError as exc:
                assert str(exc) == NOT_SAVED
                break
        else:
            pytest.fail("the database never filled up")
    assert "database or disk is full" in caplog.text and "cannot rollback" not in caplog.text
    stored = await host.store.get_table((await host.current(10)).record.id)
    assert stored.version == len(await host.store.log(stored.id))


# -- 3. long typed text ------------------------------------------------------------------------------


async def test_long_typed_text_is_trimmed_in_refusals(host):
    await start(host, 10)
    with pytest.raises(TableError) as refused:
        await host.act(10, "a", "take " + "9" * 5000)
    assert len(str(refused.value)) < 400
    with pytest.raises(TableError) as refused:
        await host.open_table(
            guild_id=1, channel_id=11, game_name="Pebbles", host_id="a", options_text="x" * 6000 + "=1"
        )
    assert len(str(refused.value)) < 400


# -- 4. logs never carry secrets ---------------------------------------------------------------------


def test_debug_logging_redacts_tokens_and_drops_payload_loggers(capsys):
    setup_logging("DEBUG", secrets=("the-bot-token",))
    try:
        logging.getLogger("discord.gateway").debug("WebSocket Event: {'d': {'token': 'abc-interaction'}}")
        logging.getLogger("discord.http").debug("POST /x with {'content': 'Your Items: Staff'}")
        logging.getLogger("bot.test").debug("payload {'token': 'xyz-interaction', 'id': 1}")
        logging.getLogger("bot.test").info("using the-bot-token to log in")
        out = capsys.readouterr().out
    finally:
        logging.basicConfig(force=True, handlers=[logging.StreamHandler(io.StringIO())])
    assert "abc-interaction" not in out and "Your Items" not in out
    assert "xyz-interaction" not in out and "the-bot-token" not in out
    assert "payload" in out and "to log in" in out  # the lines themselves are kept, redacted


# -- 6. the same typed move twice --------------------------------------------------------------------


async def test_the_same_typed_move_twice_at_once_is_applied_once(host):
    await start(host, 10, options="cheer=yes")
    first, second = await asyncio.gather(
        host.act(10, "b", "cheer"), host.act(10, "b", "cheer"), return_exceptions=True
    )
    assert not isinstance(first, Exception)
    assert isinstance(second, TableError) and "did not play it a second time" in str(second)
    log = await host.store.log((await host.current(10)).record.id)
    assert [e.action["type"] for e in log].count("cheer") == 1
    host._clock.now += timedelta(seconds=TYPED_REPEAT_SECONDS + 1)
    await host.act(10, "b", "cheer")  # meant twice: allowed once the moment has passed
    await host.act(10, "a", "take 1")  # another player's text is never a repeat of b's


# -- bounded memory ----------------------------------------------------------------------------------


async def test_the_cache_evicts_and_an_evicted_game_reloads_and_continues(host):
    for channel in (10, 11, 12):
        await start(host, channel)
        await host.act(channel, "a", "take 1")
    assert host.cached_tables == 2  # the host was made with room for two live games
    assert 10 not in host._cache
    outcome = await host.act(10, "b", "take 2")  # evicted mid-play: reloaded from the store
    assert outcome.table.game.to_json()["pile"] == 7
    assert host.cached_tables == 2 and 10 in host._cache
    gc.collect()
    assert len(host._locks) == 0  # no lock is kept for a channel nobody is acting in


# -- a board being drawn does not stall other tables -------------------------------------------------


async def test_other_tables_play_while_a_board_is_being_drawn(host, monkeypatch):
    await start(host, 10)
    gate = threading.Event()

    def slow_board(view, *args, **kwargs):
        gate.wait(30)
        return b"\x89PNG fake"

    monkeypatch.setattr(render, "board_png", slow_board)
    drawing = asyncio.create_task(board_file({"game": "Pebbles"}))
    await asyncio.sleep(0)  # the drawing has started
    # If drawing ran on the event loop, nothing else could run until it ended.
    outcome = await asyncio.wait_for(host.act(10, "a", "take 3"), 20)
    assert outcome.table.game.to_json()["pile"] == 7
    assert not drawing.done()
    gate.set()
    assert (await drawing) is not None


# -- /game log finds a channel's tables by index ------------------------------------------------------


async def test_finding_a_channels_latest_table_uses_an_index(host):
    plan = await host.store.sql(
        "EXPLAIN QUERY PLAN SELECT id FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (5,)
    )
    text = " ".join(str(row) for row in plan)
    assert "tables_by_channel" in text and "SCAN tables" not in text


def test_settings_table_cache_is_read_and_checked():
    assert Settings.load({"DISCORD_TOKEN": "x", "TABLE_CACHE": "12"}, dotenv=None).table_cache == 12
    with pytest.raises(Exception, match="TABLE_CACHE"):
        Settings.load({"DISCORD_TOKEN": "x", "TABLE_CACHE": "lots"}, dotenv=None)
