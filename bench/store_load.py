"""Benchmark: actions per second through the table host, boards drawn, on each store.

Run ``python bench/store_load.py [--game Argo|Argoat] [--tables 40] [--actions 12] [--rounds 2]
[--url postgresql://…]``.

Three ways of running the same work, side by side in one run (in alternating order per round):

* ``sqlite``: one process on a SQLite file (the default deployment);
* ``postgres x1``: one process on PostgreSQL;
* ``postgres x2``: two OS processes on the same PostgreSQL database, each with its own table host
  and the tables split between them as shards split guilds (the sharded deployment).

Every process plays random legal actions on its tables concurrently through ``TableHost.act``
(with the version it read, like a click), and after every action draws the board as the bot does
(``cogs.turns.board_file``, on the drawing threads). Only finished actions are counted; the rate is
all processes' actions over the wall time from a common start to the last process's end.
Without ``--url`` a throw-away PostgreSQL server is started (as the tests do, see tests/pg.py).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from bot.engine.registry import GameRegistry, discover  # noqa: E402
from bot.store import open_store  # noqa: E402
from bot.tables import TableError, TableHost  # noqa: E402
from cogs.turns import board_file, warm_boards  # noqa: E402

CTX = multiprocessing.get_context("spawn")


def clock() -> datetime:
    return datetime.now(UTC)


async def _host(where: str) -> TableHost:
    return TableHost(await open_store(where), GameRegistry(discover()), clock=clock)


async def open_tables(where: str, game: str, channels: list[int]) -> None:
    host = await _host(where)
    for channel in channels:
        await host.open_table(guild_id=1, channel_id=channel, game_name=game, host_id=f"{channel}a")
        await host.join(channel, f"{channel}b")
        await host.start(channel, f"{channel}a")
    await host.close()


async def play(host: TableHost, channel: int, actions: int, rng: random.Random) -> int:
    done = 0
    for _ in range(actions * 3):
        if done == actions:
            break
        table = await host.current(channel)
        if table is None or table.game is None or table.game.prompt() is None:
            break
        deciders = [p for p in table.game.prompt().deciders() if table.game.legal_actions(p)]
        if not deciders:
            break
        legal = table.game.legal_actions(deciders[0])
        action = rng.choice([a for a in legal if a["type"] not in ("undo", "cancel")] or legal)
        try:
            outcome = await host.act(channel, deciders[0], action, version=table.record.version)
        except TableError:
            continue
        await board_file(outcome.table.public_view())
        done += 1
    return done


async def _work(where: str, channels: list[int], actions: int, seed: int, barrier: Any) -> int:
    host = await _host(where)
    await warm_boards()
    rng = random.Random(seed)
    for channel in channels:  # load every game first: the timed part is acting and drawing
        await host.current(channel)
    await asyncio.to_thread(barrier.wait)
    counts = await asyncio.gather(*(play(host, c, actions, random.Random(rng.random())) for c in channels))
    await host.close()
    return sum(counts)


def worker(where: str, channels: list[int], actions: int, seed: int, barrier: Any, queue: Any) -> None:
    queue.put(asyncio.run(_work(where, channels, actions, seed, barrier)))


def run(where: str, groups: list[list[int]], actions: int, seed: int) -> tuple[int, float]:
    """Run one process per group of channels from a common start; (actions, wall seconds)."""
    barrier = CTX.Barrier(len(groups) + 1)
    queue = CTX.Queue()
    procs = [
        CTX.Process(target=worker, args=(where, group, actions, seed + n, barrier, queue))
        for n, group in enumerate(groups)
    ]
    for p in procs:
        p.start()
    barrier.wait()
    started = time.monotonic()
    results = [queue.get(timeout=3600) for _ in procs]
    elapsed = time.monotonic() - started
    for p in procs:
        p.join()
    return sum(results), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="Argo")
    parser.add_argument("--tables", type=int, default=40, help="tables played at once (split over processes)")
    parser.add_argument("--actions", type=int, default=12, help="actions per table per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--url", help="an empty PostgreSQL database to use (default: start a server)")
    args = parser.parse_args()
    getattr(render, "warm_up", lambda: None)()
    server = None
    if args.url is None:
        from tests import pg

        server = pg.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            pg_url = args.url or server.database()  # type: ignore[union-attr]
            ways = {
                "sqlite": (str(Path(folder) / "bench.db"), 1),
                "postgres x1": (pg_url, 1),
                "postgres x2": (pg_url, 2),
            }
            totals = {name: [0, 0.0] for name in ways}
            channel = 1
            for rnd in range(args.rounds):
                order = list(ways) if rnd % 2 == 0 else list(reversed(ways))
                for name in order:
                    where, processes = ways[name]
                    channels = list(range(channel, channel + args.tables))
                    channel += args.tables
                    asyncio.run(open_tables(where, args.game, channels))
                    groups = [channels[n::processes] for n in range(processes)]
                    done, elapsed = run(where, groups, args.actions, seed=rnd * 100)
                    totals[name][0] += done
                    totals[name][1] += elapsed
            base = totals["sqlite"][0] / totals["sqlite"][1]
            print(f"{args.game}: {args.tables} tables at once, boards drawn after every action")
            for name, (done, elapsed) in totals.items():
                rate = done / elapsed
                print(
                    f"  {name:12s} {done:6d} actions in {elapsed:6.1f} s  {rate:7.1f} actions/s  "
                    f"x{rate / base:4.2f}"
                )
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
