"""Benchmark: many tables acted on at once through the table host, each action followed by a board.

Run ``python bench/host_load.py [--game argo|argoat] [--tables 1,10,100,1000] [--actions 6]``.

For each table count, N tables (2 players each) play random legal actions concurrently through
``TableHost.act`` on a real SQLite file, and after every action the board is drawn as the bot does.
Two ways of drawing are timed side by side in the same run, in alternation:

* ``thread``: the bot's way, the board drawn on a worker thread (``cogs.turns.board_file``);
* ``loop``: the old way, the board drawn on the event loop.

Printed per row: actions per second (finished actions only), p50/p95 latency of ``act`` (the
latency another table's player sees while boards are being drawn), and memory per live table
(tracemalloc, measured once per table count).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render
from bot.engine.registry import GameRegistry, discover
from bot.store import Store
from bot.tables import TableError, TableHost
from cogs.turns import board_file


def clock() -> datetime:
    return datetime.now(UTC)


async def open_tables(host: TableHost, game: str, count: int, first_channel: int) -> list[int]:
    channels = []
    for i in range(count):
        channel = first_channel + i
        await host.open_table(guild_id=1, channel_id=channel, game_name=game, host_id=f"{channel}a")
        await host.join(channel, f"{channel}b")
        await host.start(channel, f"{channel}a")
        channels.append(channel)
    return channels


async def play(host: TableHost, channel: int, actions: int, mode: str, rng: random.Random, lat: list[float]):
    done = 0
    for _ in range(actions):
        table = await host.current(channel)
        if table is None or table.game is None:
            return done
        prompt = table.game.prompt()
        if prompt is None:
            return done
        deciders = [p for p in prompt.deciders() if table.game.legal_actions(p)]
        if not deciders:
            return done
        who = deciders[0]
        options = [a for a in table.game.legal_actions(who) if a["type"] not in ("undo", "cancel")]
        if not options:
            return done
        started = time.perf_counter()
        try:
            outcome = await host.act(channel, who, rng.choice(options))
        except TableError:
            continue
        lat.append(time.perf_counter() - started)
        view = outcome.table.public_view()
        if mode == "thread":
            await board_file(view)
        elif mode == "loop":
            render.board_png(view)
            await asyncio.sleep(0)
        done += 1
    return done


async def probe(host: TableHost, channel: int, stop: asyncio.Event, lat: list[float]) -> None:
    """Act on one more table every 20 ms while the others play, timing each action."""
    rng = random.Random(channel)
    while not stop.is_set():
        await play(host, channel, 1, "none", rng, lat)
        table = await host.current(channel)
        if table is None:  # finished: open another one on the same channel
            await open_tables(host, table_game(host), 1, channel)
        await asyncio.sleep(0.02)


def table_game(host: TableHost) -> str:
    return host.registry.names()[0] if len(host.registry.names()) == 1 else GAME[0]


GAME = ["Argo"]


async def run_mode(
    host: TableHost, channels: list[int], probe_channel: int, actions: int, mode: str, seed: int
):
    latencies: list[float] = []
    rng = random.Random(seed)
    stop = asyncio.Event()
    watcher = asyncio.create_task(probe(host, probe_channel, stop, latencies))
    started = time.perf_counter()
    counts = await asyncio.gather(
        *(play(host, ch, actions, mode, random.Random(rng.random()), []) for ch in channels)
    )
    elapsed = time.perf_counter() - started
    stop.set()
    await watcher
    return sum(counts), elapsed, latencies


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(game: str, count: int, actions: int, folder: Path) -> None:
    registry = GameRegistry(discover())
    tracemalloc.start()
    store = await Store.open(folder / f"load-{count}.db")
    host = TableHost(store, registry, clock=clock, seeder=lambda: random.getrandbits(62))
    base = tracemalloc.get_traced_memory()[0]
    thread_channels = await open_tables(host, game, count, 1_000_000)
    memory = (tracemalloc.get_traced_memory()[0] - base) / count
    tracemalloc.stop()
    loop_channels = await open_tables(host, game, count, 2_000_000)
    probe_channel = (await open_tables(host, game, 1, 3_000_000))[0]
    results = {"thread": (0, 0.0, []), "loop": (0, 0.0, [])}
    for rnd in range(2):  # alternate the two ways so that neither always runs first
        for mode, channels in (("thread", thread_channels), ("loop", loop_channels))[
            :: 1 if rnd == 0 else -1
        ]:
            done, elapsed, lat = await run_mode(host, channels, probe_channel, actions // 2, mode, rnd)
            total = results[mode]
            results[mode] = (total[0] + done, total[1] + elapsed, total[2] + lat)
    for mode in ("thread", "loop"):
        done, elapsed, lat = results[mode]
        print(
            f"{game:7s} {count:5d} tables  {mode:6s}  {done / elapsed:8.1f} actions/s  "
            f"other table's act p50 {pct(lat, 0.5) * 1000:6.1f} ms  p95 {pct(lat, 0.95) * 1000:6.1f} ms  "
            f"memory {memory / 1024:6.1f} KB/table"
        )
    await host.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="Argo")
    parser.add_argument("--tables", default="1,10,100,1000")
    parser.add_argument("--actions", type=int, default=6, help="actions per table (half per way)")
    args = parser.parse_args()
    GAME[0] = args.game
    getattr(render, "warm_up", lambda: None)()
    with tempfile.TemporaryDirectory() as folder:
        for count in (int(n) for n in args.tables.split(",")):
            await measure(args.game, count, args.actions, Path(folder))


if __name__ == "__main__":
    asyncio.run(main())
