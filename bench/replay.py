"""Benchmark: the time to draw the animated replay of a long (about 300 turns) Argoat game.

Run ``python bench/replay.py [--seed S] [--players N] [--load] [--out replay.gif]`` from the
repository root.

A seeded random game is played to its end through the real table host on a SQLite file (so
the replay reads a real event log), then its replay is drawn the way the bot draws it: in a
worker process (``cogs.replay_job.Drawer``, started and warmed first), from the log rows.
Printed: turns, frames, size, form chosen; the worker's wall time per replay (median of
``--runs``), and the CPU time of the same job in this process next to its baseline, the board
pictures alone (``render.board_png`` of every turn, what any replay must draw at least).
``--load`` keeps one other core busy meanwhile (a spinning process), for the wall time under
load that the issue's "30 s on two cores" is about.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render
from bot.archive.replay import log_rows, rebuild
from bot.engine.registry import GameRegistry, discover
from bot.store import SqliteStore
from bot.tables import TableHost
from cogs.replay_job import Drawer, ReplayJob, draw
from tests.hostplay import Clock


def _spin(stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    while not stop.is_set():
        sum(range(10000))


async def _played(path: Path, seed: int, players: int) -> ReplayJob:
    store = await SqliteStore.open(path)
    host = TableHost(store, GameRegistry(discover()), clock=Clock(), seeder=lambda: seed)
    await host.open_table(guild_id=1, channel_id=1, game_name="Argoat", host_id="1")
    for n in range(2, players + 1):
        await host.join(1, str(n))
    await host.start(1, "1")
    rng = random.Random(seed)
    while True:
        table = await host.current(1)
        if table is None or table.game is None or table.game.result() is not None:
            break
        prompt = table.game.prompt()
        seat = next(p for p in prompt.deciders() if table.game.legal_actions(p))
        legal = table.game.legal_actions(seat)
        action = rng.choice([a for a in legal if a["type"] not in ("undo", "cancel", "withdraw")] or legal)
        await host.act(1, seat, action, version=table.record.version)
    record = await store.latest_table(1)
    assert record is not None
    rows = await log_rows(store, record.id)
    await store.close()
    return ReplayJob(record, tuple(rows), {str(n): f"player{n}" for n in range(1, players + 1)})


def _boards_only(job: ReplayJob) -> int:
    game_cls = GameRegistry(discover()).get(job.record.game)
    assert game_cls is not None
    replay = rebuild(game_cls, job.record, job.rows)
    previous = None
    for step in replay.steps:
        render.board_png(step.view, previous)
        previous = step.view
    return len(replay.steps)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20, help="default 20: 302 turns with 4 players")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--load", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        job = await _played(Path(folder) / "games.db", args.seed, args.players)
    render.warm_up()
    stop = multiprocessing.Event()
    spinner = multiprocessing.Process(target=_spin, args=(stop,)) if args.load else None
    if spinner is not None:
        spinner.start()
    drawer = Drawer(1)
    try:
        await drawer.draw(job)  # spawns and warms the worker
        walls = []
        for _ in range(args.runs):
            started = time.perf_counter()
            drawn = await drawer.draw(job)
            walls.append(time.perf_counter() - started)
    finally:
        drawer.close()
        stop.set()
        if spinner is not None:
            spinner.join()
    cpu_project, cpu_boards = [], []
    for _ in range(args.runs):
        started = time.process_time()
        draw(job)
        cpu_project.append(time.process_time() - started)
        started = time.process_time()
        steps = _boards_only(job)
        cpu_boards.append(time.process_time() - started)
    anim = drawn.animation
    print(f"Argoat seed {args.seed}, {args.players} players: {drawn.turns} turns, {len(job.rows)} log rows")
    print(
        f"replay: {anim.frames} frames (every {anim.every} turn(s)), {anim.width} px wide, "
        f"{len(anim.data) / 2**20:.2f} MiB, fits: {anim.fits}"
    )
    load = " under load (one core kept busy)" if args.load else ""
    print(f"worker wall time{load}: median {statistics.median(walls):.2f} s over {args.runs} runs")
    print(
        f"CPU in this process: replay median {statistics.median(cpu_project):.2f} s; "
        f"baseline (the {steps} board PNGs alone) median {statistics.median(cpu_boards):.2f} s"
    )
    if args.out:
        args.out.write_bytes(anim.data)


if __name__ == "__main__":
    asyncio.run(main())
