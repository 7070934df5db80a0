"""How many statements an action costs on PostgreSQL, counted by a real server (its statement log,
see tests/pg_statements.py): at most three for an action on a table this process has cached (take
the table's lock, save it with its log row and seat view, let the lock go), one more to reload a
table another process changed. What is saved is checked too."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine.registry import GameRegistry
from bot.store import PostgresStore
from bot.tables import TableHost
from tests.hostplay import Clock, open_game
from tests.pebbles import Pebbles
from tests.pg_statements import StatementLog, log_statements


@pytest.fixture
async def counted(pg_server, pg_url):
    """Two hosts on one database whose statements the server logs (as two processes would be)."""
    await log_statements(pg_server.admin_url, pg_url)
    clock = Clock()
    hosts = [
        TableHost(await PostgresStore.open(pg_url), GameRegistry([Pebbles]), clock=clock) for _ in range(2)
    ]
    yield (*hosts, StatementLog(pg_server.folder / "log"))
    for host in hosts:
        await host.close()


def show(statements: list[tuple[int, str]]) -> str:
    return "\n".join(f"[{pid}] {' '.join(sql.split())[:140]}" for pid, sql in statements)


async def test_an_action_on_a_cached_table_is_three_statements(counted):
    host, _, log = counted
    await open_game(host, 5, "Pebbles", options="pile=20")
    before = await host.act(5, "5a", {"type": "take", "n": 2})  # the table is cached now
    log.mark()
    outcome = await host.act(5, "5b", {"type": "take", "n": 3}, version=before.table.record.version)
    statements = log.since_mark()
    assert len(statements) <= 3, show(statements)
    assert len({pid for pid, _ in statements}) == 1, show(statements)  # one session: the lock's

    # Everything a save keeps was kept: the snapshot at the next version, the log row, the board
    # the seat saw when it decided.
    store = host.store
    stored = await store.get_table(outcome.table.record.id)
    assert stored.version == before.table.record.version + 1 == outcome.table.record.version
    assert stored.rev == outcome.table.record.rev and stored.state["pile"] == 15
    last = (await store.log(stored.id))[-1]
    assert (last.seq, last.actor, last.action) == (stored.version, "5b", {"type": "take", "n": 3})
    assert await store.previous_view(stored.id, "5b", None) == outcome.table.public_view()


async def test_a_table_changed_by_another_process_costs_one_statement_more(counted):
    one, two, log = counted
    await open_game(one, 6, "Pebbles", options="pile=20")
    await two.act(6, "6a", {"type": "take", "n": 1})  # two caches the table
    await one.act(6, "6b", {"type": "take", "n": 2})  # one changes it behind two's back
    log.mark()
    outcome = await two.act(6, "6a", {"type": "take", "n": 3})  # applied to the stored game
    statements = log.since_mark()
    assert len(statements) <= 4, show(statements)
    assert outcome.table.game.to_json()["pile"] == 14
    assert [e.action.get("n") for e in (await one.store.log(outcome.table.record.id))[-3:]] == [1, 2, 3]


async def test_the_lock_sees_what_the_previous_holder_wrote(counted):
    # The lock's statement began (and took its snapshot) while the other host held the lock and
    # had not written yet: it must still answer the table as that host left it.
    one, two, _ = counted
    await open_game(one, 7, "Pebbles", options="pile=20")
    assert (await two.current(7)).game.active == "7a"  # two caches the table
    async with one.lock(7):
        waiting = asyncio.ensure_future(two.act(7, "7b", {"type": "take", "n": 1}))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # waiting for the database lock
        table = await one.current(7)
        await one._apply(table, "7a", {"type": "take", "n": 2})  # the holder writes
    outcome = await asyncio.wait_for(waiting, 10)  # 7b's turn now: applied to the new state
    assert (
        outcome.table.game.to_json()["pile"] == 17
        and outcome.table.record.version == table.record.version + 2
    )


async def lock_free(url: str, channel: int) -> bool:
    """True if another process (another store) takes the channel's lock within 5 s."""
    other = await PostgresStore.open(url)
    try:
        async with asyncio.timeout(5), other.table_lock(channel):
            return True
    finally:
        await other.close()


async def test_no_lock_is_left_behind_by_an_error_or_a_cancelled_task_and_errors_keep_the_session(pg_url):
    store = await PostgresStore.open(pg_url, pool_size=1)  # every call reuses the one connection
    try:
        session = await store.sql("SELECT pg_backend_pid()")
        with pytest.raises(ValueError, match="inside"):
            async with store.table_lock(8):
                raise ValueError("inside")  # a refused action: the lock goes, the session stays
        assert await lock_free(pg_url, 8)
        assert await store.sql("SELECT pg_backend_pid()") == session

        inside = asyncio.Event()

        async def hold() -> None:
            async with store.table_lock(9):
                inside.set()
                await asyncio.sleep(60)

        holding = asyncio.ensure_future(hold())
        await inside.wait()
        holding.cancel()
        with pytest.raises(asyncio.CancelledError):
            await holding
        assert await lock_free(pg_url, 9)

        # Cancelled while waiting for a lock another process holds: it does not get it later.
        other = await PostgresStore.open(pg_url)
        try:
            async with other.table_lock(10):
                waiting = asyncio.ensure_future(hold_briefly(store, 10))
                await asyncio.sleep(0.3)
                waiting.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await waiting
            assert await lock_free(pg_url, 10)
        finally:
            await other.close()
        assert await store.sql("SELECT 1") == [(1,)]  # the store goes on working
    finally:
        await store.close()


async def hold_briefly(store: PostgresStore, channel: int) -> None:
    async with store.table_lock(channel):
        await asyncio.sleep(0.1)
