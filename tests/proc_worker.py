"""What each OS process of tests/test_processes.py runs: its own table host on the shared
PostgreSQL database, acting on the same tables as the other process at the same moments."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine.registry import GameRegistry
from bot.store import PostgresStore
from bot.tables import OutOfDate, TableError, TableHost
from bot.tending import Tender
from bot.thinking import Thinker
from tests.pebbles import Pebbles

START = datetime(2026, 1, 1, tzinfo=UTC)


def _host(
    store: PostgresStore, now: datetime, shards: tuple[int, tuple[int, ...]] | None = None
) -> TableHost:
    return TableHost(store, GameRegistry([Pebbles]), clock=lambda: now, shards=shards)


def race(url: str, channels: list[int], rounds: int, barrier: Any, queue: Any) -> None:
    """Per round: read every table, wait for the other process, then click the same move drawn
    for that version on every table at once. Then: play untyped moves for whoever is to move."""
    queue.put(asyncio.run(_race(url, channels, rounds, barrier)))


async def _race(url: str, channels: list[int], rounds: int, barrier: Any) -> dict[str, Any]:
    store = await PostgresStore.open(url)
    host = _host(store, START)
    clicks: list[tuple[int, int, str]] = []  # (channel, version clicked, result)

    async def click(channel: int, seat: str, version: int) -> None:
        try:
            outcome = await host.act(channel, seat, {"type": "take", "n": 1 + version % 3}, version=version)
        except OutOfDate as exc:
            clicks.append((channel, version, f"out of date: {exc}"))
        else:
            assert outcome.table.record.version == version + 1
            clicks.append((channel, version, "applied"))

    try:
        for _ in range(rounds):
            drawn = []
            for channel in channels:
                table = await host.current(channel)
                assert table is not None and table.game is not None
                drawn.append((channel, table.game.prompt().player, table.record.version))
            await asyncio.to_thread(barrier.wait)
            await asyncio.gather(*(click(*d) for d in drawn))
        await asyncio.to_thread(barrier.wait)
        # Untyped moves (no version): each is applied to the table as it is when the lock is held.
        moves: list[tuple[int, int]] = []  # (channel, version after)
        refusals: list[str] = []

        async def keep_moving(channel: int) -> None:
            for _ in range(rounds):
                table = await host.current(channel)
                try:
                    outcome = await host.act(channel, table.game.prompt().player, {"type": "take", "n": 1})
                except TableError as exc:
                    refusals.append(f"{type(exc).__name__}: {exc}")
                else:
                    moves.append((channel, outcome.table.record.version))

        await asyncio.gather(*(keep_moving(c) for c in channels))
        return {"clicks": clicks, "moves": moves, "refusals": refusals}
    finally:
        await host.close()


def tend(
    url: str, minutes: int, shards: tuple[int, tuple[int, ...]] | None, barrier: Any, queue: Any
) -> None:
    """At ``minutes`` past the start, tend every due table (of this process's shards) a few times."""
    queue.put(asyncio.run(_tend(url, minutes, shards, barrier)))


async def _tend(
    url: str, minutes: int, shards: tuple[int, tuple[int, ...]] | None, barrier: Any
) -> dict[str, Any]:
    store = await PostgresStore.open(url)
    host = _host(store, START + timedelta(minutes=minutes), shards)
    tender = Tender(host, Thinker(workers=0))
    seen: set[int] = set()
    applied: list[int] = []
    try:
        await asyncio.to_thread(barrier.wait)
        for _ in range(3):
            for record in await host.due():
                seen.add(record.id)
                results = await tender.tend(record.channel_id, record.id)
                applied += [record.id for r in results if hasattr(r, "events")]
        return {"seen": sorted(seen), "applied": applied}
    finally:
        await host.close()
