"""Two OS processes, each with its own table host, on one PostgreSQL database at the same time:
no lost update, no action applied twice, the loser of a race is told the board is out of date
(as in one process), and each deadline fires exactly once."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from typing import Any

from bot.engine.core import SYSTEM
from bot.engine.registry import GameRegistry
from bot.store import PostgresStore
from bot.tables import TableHost
from tests import proc_worker
from tests.hostplay import Clock, open_game, posted
from tests.pebbles import Pebbles

CTX = multiprocessing.get_context("spawn")


def run_both(target: Any, *args_per_process: tuple[Any, ...], timeout: float = 120) -> list[dict[str, Any]]:
    barrier = CTX.Barrier(len(args_per_process))
    queue = CTX.Queue()
    procs = [CTX.Process(target=target, args=(*args, barrier, queue)) for args in args_per_process]
    for p in procs:
        p.start()
    try:
        results = [queue.get(timeout=timeout) for _ in procs]
    finally:
        for p in procs:
            p.join(10)
            if p.is_alive():
                p.kill()
    assert [p.exitcode for p in procs] == [0] * len(procs)
    return results


async def tables_on(url: str, channels: dict[int, int | None], options: str) -> None:
    store = await PostgresStore.open(url)
    host = TableHost(store, GameRegistry([Pebbles]), clock=Clock(), seeder=lambda: 5)
    for channel, guild in channels.items():
        await open_game(host, channel, "Pebbles", guild=guild, options=options)
    await posted(host)  # each first turn message was posted
    await host.close()


async def test_two_processes_racing_on_the_same_tables(pg_url):
    channels = list(range(1, 9))
    rounds = 6
    await tables_on(pg_url, dict.fromkeys(channels, 1), "pile=99 maxtake=3")

    results = run_both(proc_worker.race, (pg_url, channels, rounds), (pg_url, channels, rounds))

    # Every click raced with the other process's click on the same board: one of each applied,
    # the other told exactly what a single process tells a stale click.
    clicks = Counter()
    for result in results:
        for channel, version, what in result["clicks"]:
            clicks[(channel, version, what)] += 1
    for channel in channels:
        for version in range(3, 3 + rounds):
            assert clicks[(channel, version, "applied")] == 1, (channel, version)
            assert clicks[(channel, version, "out of date: That board is out of date.")] == 1
    assert sum(clicks.values()) == 2 * len(channels) * rounds

    # Untyped moves never conflicted (the loser reloaded under the database lock instead of
    # overwriting): only "not your turn" refusals, and each move landed on its own version.
    moves = [tuple(m) for r in results for m in r["moves"]]
    refusals = [text for r in results for text in r["refusals"]]
    assert all(text.startswith("TableError: It is not your decision") for text in refusals), refusals
    assert len(moves) == len(set(moves)) and len(moves) + len(refusals) == 2 * len(channels) * rounds

    store = await PostgresStore.open(pg_url)
    try:
        for channel in channels:
            record = await store.open_table(channel)
            log = await store.log(record.id)
            assert [e.seq for e in log] == list(range(1, record.version + 1))  # nothing lost, nothing twice
            played = [e for e in log if e.action.get("type") == "take"]
            assert len(played) == rounds + sum(1 for c, _ in moves if c == channel)
            game = Pebbles.new(record.seats, record.seed, record.options)
            for entry in played:  # the snapshot is exactly the logged moves, one after another
                game.apply(game.active, {"type": "take", "n": entry.action["n"]})
            assert game.to_json() == record.state
            assert record.state["pile"] == 99 - sum(e.action["n"] for e in played)
    finally:
        await store.close()


async def test_deadlines_fire_exactly_once_with_two_processes(pg_url):
    shard0 = {10 + n: (2 * n) << 22 for n in range(5)}  # (guild_id >> 22) % 2 == 0
    shard1 = {20 + n: (2 * n + 1) << 22 for n in range(5)}
    no_guild = {30: None}  # shard 0
    await tables_on(pg_url, {**shard0, **shard1, **no_guild}, "timer=60 clock=0")
    store = await PostgresStore.open(pg_url)
    ids = {t.channel_id: t.id for t in await store.tables()}
    await store.close()

    # Sharded: each process tends only the tables of its own shard.
    first = run_both(proc_worker.tend, (pg_url, 2, (2, (0,))), (pg_url, 2, (2, (1,))))
    by_shard = {0: sorted(ids[c] for c in [*shard0, *no_guild]), 1: sorted(ids[c] for c in shard1)}
    assert sorted(r["seen"] for r in first) == sorted(by_shard.values())
    assert sorted(i for r in first for i in r["applied"]) == sorted(ids.values())

    # Both processes tending every table at the next moment: each timeout still fires once.
    store = await PostgresStore.open(pg_url)
    await store.sql("UPDATE tables SET shown_version = version")  # the bot showed the first timeouts
    await store.close()
    second = run_both(proc_worker.tend, (pg_url, 4, None), (pg_url, 4, None))
    assert sorted(i for r in second for i in r["applied"]) == sorted(ids.values())

    store = await PostgresStore.open(pg_url)
    try:
        for channel, table_id in ids.items():
            log = await store.log(table_id)
            timeouts = [e for e in log if e.actor == SYSTEM]
            assert len(timeouts) == 2, (channel, [e.action for e in log])
            assert (await store.get_table(table_id)).state["pile"] == 8
    finally:
        await store.close()
