"""Store outages injected from outside the store: a PostgreSQL server stopped and started again
under an open store, a frozen server (SIGSTOP), another connection breaking or locking a SQLite
file. Every store call fails with a one-line StoreError (never a raw driver error) and the same
store works again once the database is back."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.config import ConfigError, Settings
from bot.store import AnyStore, PostgresStore, SqliteStore, StoreError, TableRecord, open_store

NOW = datetime(2026, 1, 1, tzinfo=UTC)
BOUND = 60.0
"""Seconds a call may take before the test calls it a stall (far above any timeout used here)."""


async def new_table(store: AnyStore, channel: int = 10) -> TableRecord:
    return await store.create_table(
        guild_id=1, channel_id=channel, game="Pebbles", host_id="7", options={"pile": 10}, seed=42, now=NOW
    )


async def locked(store: AnyStore, channel: int) -> str:
    async with store.table_lock(channel):
        return "locked"


def every_call(store: AnyStore, table: TableRecord) -> dict[str, Callable[[], Awaitable[Any]]]:
    """One of each kind of store call, reads and writes, on ``table``."""
    return {
        "tables": lambda: store.tables(),
        "get_table": lambda: store.get_table(table.id),
        "open_table": lambda: store.open_table(table.channel_id),
        "latest_table": lambda: store.latest_table(table.channel_id),
        "revision": lambda: store.revision(table.id),
        "due_tables": lambda: store.due_tables(NOW),
        "awaiting": lambda: store.awaiting("7"),
        "log": lambda: store.log(table.id),
        "since": lambda: store.since(table.id, "7"),
        "recent_summaries": lambda: store.recent_summaries(table.id, 5),
        "previous_view": lambda: store.previous_view(table.id, "7", None),
        "schema_version": lambda: store.schema_version(),
        "sql": lambda: store.sql("SELECT 1"),
        "table_lock": lambda: locked(store, table.channel_id),
        "set_message": lambda: store.set_message(table.id, 99),
        "create_table": lambda: new_table(store, channel=table.channel_id + 1000),
    }


async def within(seconds: float, call: Awaitable[Any], stalled: list[asyncio.Future[Any]]) -> Any:
    """``await call``, failing the test if it has not ended after ``seconds``. A stalled call is
    left running (in ``stalled``), not cancelled: cancelling a driver call can wait on the
    frozen server too."""
    task = asyncio.ensure_future(call)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        stalled.append(task)
        pytest.fail(f"a store call was still waiting after {seconds} s")
    return task.result()


async def test_a_stopped_server_gives_store_errors_and_the_same_store_works_after_it_restarts(
    own_server, caplog
):
    store = await PostgresStore.open(own_server.database(), timeout=5)
    try:
        table = await new_table(store)
        own_server.halt()
        try:
            for name, call in every_call(store, table).items():
                with pytest.raises(StoreError) as failed:
                    await asyncio.wait_for(call(), BOUND)
                assert "\n" not in str(failed.value), name
            with pytest.raises(StoreError, match="could not save table"):
                await store.save(table, actor="7", action={"type": "x"}, summary="", now=NOW)
        finally:
            own_server.resume()
        # The same store, not reopened: its pool reconnects by itself.
        assert [t.id for t in await store.tables()] == [table.id]
        for call in every_call(store, table).values():
            await asyncio.wait_for(call(), BOUND)
        saved = await store.save(table, actor="7", action={"type": "x"}, summary="", now=NOW)
        assert (await store.get_table(table.id)).version == saved.version == 2
        # The outage was logged in lines, not tracebacks (the pool's own reconnecting included).
        assert caplog.records and not [r for r in caplog.records if r.exc_info or "\n" in r.getMessage()]
    finally:
        await store.close()


async def test_a_frozen_server_makes_store_calls_fail_instead_of_stalling(own_server):
    store = await PostgresStore.open(own_server.database(), timeout=1)
    stalled: list[asyncio.Future[Any]] = []
    try:
        table = await new_table(store)
        own_server.freeze()
        try:
            for name in ("tables", "table_lock", "set_message"):
                with pytest.raises(StoreError, match="did not answer"):
                    await within(BOUND, every_call(store, table)[name](), stalled)
            with pytest.raises(StoreError, match="did not answer"):
                await within(BOUND, store.save(table, actor="7", action={}, summary="", now=NOW), stalled)
        finally:
            own_server.thaw()
            if stalled:
                await asyncio.wait(stalled, timeout=BOUND)
        assert (await store.get_table(table.id)).version == 1  # the save changed nothing
        assert await store.set_message(table.id, 5) is None
        assert (await store.revision(table.id)) == (table.rev, 5)
    finally:
        await store.close()


async def test_the_server_ends_a_statement_that_runs_too_long(own_server):
    store = await PostgresStore.open(own_server.database(), timeout=0.5)
    try:
        assert await store.sql("SHOW statement_timeout") == [("500ms",)]
        with pytest.raises(StoreError, match="statement timeout"):  # the server's own, sent first
            await store.sql("SELECT pg_sleep(3)")
        assert await store.sql("SELECT 1") == [(1,)]
    finally:
        await store.close()


async def test_a_sqlite_read_that_fails_is_a_store_error(tmp_path):
    path = tmp_path / "games.db"
    store = await SqliteStore.open(path)
    try:
        table = await new_table(store)
        outside = sqlite3.connect(path, isolation_level=None)  # as another process would
        outside.execute("ALTER TABLE events RENAME TO events_elsewhere")
        for read in (lambda: store.log(table.id), lambda: store.since(table.id, "7")):
            with pytest.raises(StoreError, match="could not read the database: no such table: events"):
                await read()
        outside.execute("ALTER TABLE events_elsewhere RENAME TO events")
        outside.close()
        assert [e.seq for e in await store.log(table.id)] == [1]
    finally:
        await store.close()


async def test_sqlite_waits_db_timeout_for_a_lock_and_then_fails(tmp_path):
    path = tmp_path / "games.db"
    store = await open_store(path, timeout=0.25)
    try:
        assert await store.sql("PRAGMA busy_timeout") == [(250,)]
        table = await new_table(store)
        outside = sqlite3.connect(path, isolation_level=None)
        outside.execute("BEGIN IMMEDIATE")  # another writer holds the file
        try:
            with pytest.raises(StoreError, match=r"could not save .*database is locked"):
                await asyncio.wait_for(store.set_message(table.id, 5), BOUND)
        finally:
            outside.execute("ROLLBACK")
            outside.close()
        await store.set_message(table.id, 5)
        assert await store.revision(table.id) == (table.rev, 5)
    finally:
        await store.close()


def test_db_timeout_is_read_and_checked():
    assert Settings.load({"DISCORD_TOKEN": "abc"}, dotenv=None).db_timeout == 10.0
    assert Settings.load({"DISCORD_TOKEN": "abc", "DB_TIMEOUT": "2.5"}, dotenv=None).db_timeout == 2.5
    for bad in ("soon", "0", "-1", "601"):
        with pytest.raises(ConfigError, match="DB_TIMEOUT"):
            Settings.load({"DISCORD_TOKEN": "abc", "DB_TIMEOUT": bad}, dotenv=None)
