"""Two table hosts on one PostgreSQL database (as two processes would be), in one event loop so
that each step is deterministic: stale caches reload, stale clicks are out of date, the database
lock keeps the other host waiting, and each host tends only its own shards' tables."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.engine.registry import GameRegistry
from bot.store import PostgresStore
from bot.tables import OutOfDate, TableHost
from tests.hostplay import Clock, open_game
from tests.pebbles import Pebbles


@pytest.fixture
async def hosts(pg_url):
    clock = Clock()
    made = [
        TableHost(await PostgresStore.open(pg_url), GameRegistry([Pebbles]), clock=clock, shards=(2, (n,)))
        for n in (0, 1)
    ]
    yield (*made, clock)
    for host in made:
        await host.close()


async def test_a_stale_cache_is_reloaded_and_a_stale_click_is_out_of_date(hosts):
    one, two, _ = hosts
    await open_game(one, 5, "Pebbles", options="pile=20")
    drawn = await two.current(5)  # two caches version 3
    await one.act(5, "5a", {"type": "take", "n": 2}, version=drawn.record.version)
    # An untyped move is applied to the stored game (reloaded), not to two's old copy.
    outcome = await two.act(5, "5b", {"type": "take", "n": 1})
    assert outcome.table.game.to_json()["pile"] == 17 and outcome.table.record.version == 5
    # A click drawn for an old board is out of date, in the other host too.
    with pytest.raises(OutOfDate, match=r"^That board is out of date\.$"):
        await one.act(5, "5a", {"type": "take", "n": 3}, version=drawn.record.version)
    assert (await one.current(5)).game.to_json()["pile"] == 17
    log = await one.store.log(outcome.table.record.id)
    assert [e.action.get("n") for e in log[3:]] == [2, 1]


async def test_the_other_host_waits_for_the_database_lock(hosts):
    one, two, _ = hosts
    await open_game(one, 6, "Pebbles")
    await open_game(one, 7, "Pebbles")
    async with one.lock(6):
        waiting = asyncio.ensure_future(two.act(6, "6a", {"type": "take", "n": 1}))
        await asyncio.sleep(0.3)
        assert not waiting.done()  # two's own lock is free: it waits in the database
        other = await asyncio.wait_for(two.act(7, "7a", {"type": "take", "n": 2}), 5)  # not blocked
        assert other.table.game.to_json()["pile"] == 8
    outcome = await asyncio.wait_for(waiting, 5)
    assert outcome.table.game.to_json()["pile"] == 9


async def test_each_host_tends_only_its_own_shards(hosts):
    one, two, clock = hosts
    await open_game(one, 1, "Pebbles", guild=2 << 22, options="timer=60 clock=0")  # shard 0
    await open_game(one, 2, "Pebbles", guild=3 << 22, options="timer=60 clock=0")  # shard 1
    await open_game(one, 3, "Pebbles", guild=None, options="timer=60 clock=0")  # no guild: shard 0
    clock.advance(seconds=61)
    assert sorted(r.channel_id for r in await one.due()) == [1, 3]
    assert [r.channel_id for r in await two.due()] == [2]
    everyone = TableHost(one.store, GameRegistry([Pebbles]), clock=clock)
    assert sorted(r.channel_id for r in await everyone.due()) == [1, 2, 3]
    clock.now -= timedelta(seconds=2)  # 59 s after the start: nothing is due yet
    assert await one.due() == [] and await two.due() == []
