"""A tending process for tests/test_deadline_kills.py: ``python -m tests.deadline_worker URL MINUTES
NOTICES [SHARD_COUNT SHARD]`` tends every due table of the store at ``MINUTES`` past the tests' start
(a fixed clock), as the bot's scheduler would, "sending" each notice by appending its key to the
file NOTICES (flushed to disk) before marking it done — then exits. The test kills it at random
moments and starts it again."""

from __future__ import annotations

import asyncio
import os
import sys
from datetime import UTC, datetime, timedelta

import bot.ai
from bot.engine.registry import GameRegistry
from bot.store import open_store
from bot.tables import TableHost
from bot.tending import Notice, Tender, TendingFailed
from bot.thinking import Thinker
from tests.hostplay import posted
from tests.pebbles import Pebbles

START = datetime(2026, 1, 1, tzinfo=UTC)
SEARCH_ITERATIONS = 40
"""The AI searches a fixed number of iterations (not a time budget), so that a run and its rerun
after a kill choose the same moves."""


def _fixed_search() -> None:
    real = bot.ai.choose_action
    if getattr(real, "fixed", False):
        return

    def choose(game, player, *, level="normal", seed=0, **limits):  # type: ignore[no-untyped-def]
        return real(game, player, level=level, seed=seed, iterations=SEARCH_ITERATIONS)

    choose.fixed = True  # type: ignore[attr-defined]
    bot.ai.choose_action = choose  # type: ignore[assignment]


async def tend_all(url: str, minutes: int, notices: str, shards: tuple[int, tuple[int, ...]] | None) -> None:
    _fixed_search()
    store = await open_store(url)
    now = START + timedelta(minutes=minutes)
    host = TableHost(store, GameRegistry([Pebbles]), clock=lambda: now, shards=shards)
    tender = Tender(host, Thinker(workers=0))
    try:
        for _ in range(20):  # a few rounds: effects of one round can make a table due again
            await posted(host)  # what the last round (or a killed run) played has been shown
            due = await host.due()
            if not due:
                break
            for record in due:
                try:
                    results = await tender.tend(record.channel_id, record.id)
                except TendingFailed as failed:
                    results = failed.results
                for item in results:
                    if isinstance(item, Notice):
                        with open(notices, "a") as file:
                            file.write(f"{record.id} {item.key}\n")
                            file.flush()
                            os.fsync(file.fileno())
                        await host.complete_effects(record.channel_id, record.id, {item.key})
    finally:
        await host.close()


def main(argv: list[str]) -> None:
    url, minutes, notices = argv[0], int(argv[1]), argv[2]
    shards = (int(argv[3]), (int(argv[4]),)) if len(argv) > 3 else None
    asyncio.run(tend_all(url, minutes, notices, shards))


if __name__ == "__main__":
    main(sys.argv[1:])
