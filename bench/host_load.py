"""Benchmark: what drawing boards does to other tables, at a fixed load below saturation, and the
memory of tables in play.

Run ``python bench/host_load.py [--game Argo] [--rate 75] [--seconds 8] [--rounds 2]
[--tables 100] [--memory 100] [--moves 30] [--modes thread,executor,nice,process] [--busy K]
[--ai K]``.

1. **Memory of tables in play.** ``--memory`` tables (2 players) are opened and started, then each
   plays ``--moves`` random legal actions through ``TableHost.act`` on a real SQLite file; the
   Python memory the host holds (tracemalloc, after a garbage collection) is divided by the
   number of tables. The figure right after the start is printed beside it (what this bench
   printed before issue 25).
2. **Latency at a fixed offered load.** ``--rate`` boards a second are drawn (evenly spaced,
   whatever happens to earlier ones: an open-loop load), as the bot draws them
   (``cogs.boards.BoardPool.png``): the boards of a seeded random game with the changes since
   the awaited player's last decision marked (``bench/argo_render.py``, ``argoat_render.py``).
   With ``--act`` each board follows a random action applied to one of ``--tables`` background
   tables through the host (the whole work of a click but Discord). Meanwhile one more table
   (the probe) acts every 50 ms, its ``act`` timed, and a ticker measures the event loop's lag
   (how late a 2 ms sleep wakes up). Modes, alternated round by round in one run:

   * ``idle``: no background load (the probe's own baseline);
   * ``thread``: boards drawn on two threads of the bot's process (the bot before issue 25);
   * ``executor``: two worker processes at ``nice`` +10 fed through
     ``concurrent.futures.ProcessPoolExecutor``, whose feeder and manager threads hand every
     board over in the bot's process (the bot before the pipe workers);
   * ``nice``: two worker processes at ``nice`` +10 fed by the event loop over their sockets
     (``cogs/pipe_workers.py``);
   * ``backup10``: the bot before issue 33: as ``nice``, but the two workers in Linux's idle
     scheduling class, with a backup worker at ``nice`` +10 for boards late by ``LATE_S``;
   * ``late``: as ``backup10``, the backup at the bot's priority (one half of issue 33's change);
   * ``hurry``: as ``late``, and while the bot's AI searches (``--ai``) every board goes to the
     backup at once as well;
   * ``process``: the bot now (``cogs/boards.py``, ``bot/thinking.py``): as ``hurry``, and the AI's
     workers run at ``nice`` +5 (``thinking.NICE``; in every other mode at the bot's priority).

   ``--modes`` picks some of them (``idle`` is always measured: the ratios are to it).
   ``--busy K`` keeps K processes spinning at the bot's priority through every mode (as another
   job on the host would): what matters then is how late the boards are. ``--ai K`` keeps K
   ``hard`` AI decisions searching through every mode, through the bot's own ``Thinker`` (K
   worker processes forked from the same worker server as the board workers; a mode's
   measurement starts once the searches of the previous mode's thinker have ended): the AI load
   the bot itself makes, which ``hurry`` and ``process`` know of and ``--busy`` does not tell.

   Printed per mode: boards finished per second (the load is below saturation when this matches
   the offered rate and nothing is left waiting), the probe's act p50/p95 and its p95 over the
   idle p95, the loop lag p50/p99/max, the CPU seconds of the bot's process and of the
   drawing workers over the wall seconds measured, and how long a board took from its request
   to its PNG (p50/p95).

Figures in docs/boards.md ("Drawing off the event loop").
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render
from bot.engine.registry import GameRegistry, discover
from bot.store import Store
from bot.tables import TableError, TableHost
from bot.thinking import Thinker
from cogs.boards import BoardPool, _start_worker

PROBE_EVERY = 0.05
TICK = 0.002


def clock() -> datetime:
    return datetime.now(UTC)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_of(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


class Tables:
    """Running tables of one game on one host, reopened when a game ends."""

    def __init__(self, host: TableHost, game: str, first_channel: int) -> None:
        self.host = host
        self.game = game
        self.next_channel = first_channel
        self.channels: list[int] = []

    async def open(self, count: int) -> None:
        for _ in range(count):
            self.channels.append(await self._open())

    async def _open(self) -> int:
        channel = self.next_channel
        self.next_channel += 1
        await self.host.open_table(guild_id=1, channel_id=channel, game_name=self.game, host_id=f"{channel}a")
        await self.host.join(channel, f"{channel}b")
        await self.host.start(channel, f"{channel}a")
        return channel

    async def act(self, index: int, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """One random legal action at table ``index``: (public view before, after), or None if
        there was nothing to do (a finished game is replaced by a new one)."""
        channel = self.channels[index]
        table = await self.host.current(channel)
        if table is None or table.game is None or table.game.prompt() is None:
            self.channels[index] = await self._open()
            return None
        game = table.game
        deciders = [p for p in game.prompt().deciders() if game.legal_actions(p)]
        if not deciders:
            return None
        options = [a for a in game.legal_actions(deciders[0]) if a["type"] not in ("undo", "cancel")]
        if not options:
            return None
        before = table.public_view()
        try:
            outcome = await self.host.act(channel, deciders[0], rng.choice(options))
        except TableError:
            return None
        return before, outcome.table.public_view()


async def memory(registry: GameRegistry, game: str, count: int, moves: int, folder: Path) -> None:
    """Per-table memory right after the start and in play."""
    gc.collect()
    tracemalloc.start()
    store = await Store.open(folder / "memory.db")
    host = TableHost(store, registry, clock=clock, seeder=lambda: random.getrandbits(62))
    base = tracemalloc.get_traced_memory()[0]
    tables = Tables(host, game, 1_000_000)
    await tables.open(count)
    gc.collect()
    started = (tracemalloc.get_traced_memory()[0] - base) / count
    rng = random.Random(1)
    played = 0
    for _ in range(moves):
        for index in range(count):
            played += await tables.act(index, rng) is not None
    gc.collect()
    in_play = (tracemalloc.get_traced_memory()[0] - base) / count
    tracemalloc.stop()
    cached = host.cached_tables
    await host.close()
    print(
        f"memory: {count} {game} tables, {played} actions played ({played / count:.0f} a table), "
        f"{cached} tables cached by the host"
    )
    print(f"  right after the start  {started / 1024:7.1f} KB a table")
    print(f"  in play                {in_play / 1024:7.1f} KB a table")


@dataclass
class Sample:
    """What one mode measured in one round."""

    seconds: float = 0.0
    boards: int = 0
    offered: int = 0
    waiting: int = 0
    probe: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    board_wait: list[float] = field(default_factory=list)
    cpu_bot: float = 0.0
    cpu_workers: float = 0.0


async def probe(tables: Tables, stop: asyncio.Event, out: list[float]) -> None:
    """Act on the probe table every 50 ms, timing each action."""
    rng = random.Random(7)
    while not stop.is_set():
        started = time.perf_counter()
        if await tables.act(0, rng) is not None:
            out.append(time.perf_counter() - started)
        await asyncio.sleep(PROBE_EVERY)


async def ticker(stop: asyncio.Event, out: list[float]) -> None:
    """How late the event loop wakes from a short sleep."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + TICK
        await asyncio.sleep(TICK)
        out.append(max(0.0, loop.time() - due))


Job = tuple[dict[str, Any], dict[str, Any] | None]


class ExecutorBoards(BoardPool):
    """Boards drawn in worker processes through ``ProcessPoolExecutor`` (the ``executor`` mode:
    what ``BoardPool`` did before ``cogs/pipe_workers.py``), workers started as the bot's are."""

    def __init__(self, workers: int) -> None:
        super().__init__(0)
        self.executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker, initargs=("nice",),
        )  # fmt: skip
        self.count = workers

    async def start(self, *, workers: bool = False) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.executor, time.sleep, 0.2) for _ in range(self.count))
        )

    def worker_pids(self) -> list[int]:
        return list(self.executor._processes or {})

    async def png(self, view: dict[str, Any], previous: dict[str, Any] | None = None) -> bytes | None:
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, render.board_png, view, previous
        )

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def ai_position(game_cls: Any, seed: int) -> Any:
    """A two-player game some random decisions in, waiting for a decider with a choice."""
    game = game_cls.new(("a", "b"), seed, {})
    rng = random.Random(seed)
    for _ in range(10 + seed % 7):
        prompt = game.prompt()
        if prompt is None or prompt.player is None:
            break
        options = [a for a in game.legal_actions(prompt.player) if a["type"] not in ("undo", "cancel")]
        if not options:
            break
        game.apply(prompt.player, rng.choice(options))
    prompt = game.prompt()
    if prompt is None or prompt.player is None or len(game.legal_actions(prompt.player)) < 2:
        return ai_position(game_cls, seed + 100)
    return game


class AI:
    """``searches`` hard decisions kept searching until stopped, through the thinker of the mode
    being measured: the bot's (its workers at ``thinking.NICE`` below the bot) for ``process``,
    one whose workers run at the bot's priority (as before issue 33) for the other modes."""

    def __init__(self, searches: int) -> None:
        self.searches = searches
        self.now = Thinker(searches)
        self.before = Thinker(searches)
        self.before.nice = 0
        self.mode = "idle"
        self.made = 0
        self.stop = asyncio.Event()
        self.running: dict[int, Thinker] = {}
        self.task: asyncio.Future[Any] | None = None

    def thinker(self) -> Thinker:
        return self.now if self.mode == "process" else self.before

    def start(self) -> None:
        from bot.engine.argo import ArgoGame
        from bot.engine.argoat import ArgoatGame

        games = [ai_position(cls, seed) for seed, cls in enumerate((ArgoGame, ArgoatGame) * 2)]
        by_table = "table" in inspect.signature(Thinker.choose).parameters

        async def one(index: int) -> None:
            rng = random.Random(index)
            while not self.stop.is_set():
                game = games[(index + self.made) % len(games)]
                where = {"table": index} if by_table else {}
                thinker = self.running[index] = self.thinker()
                await thinker.choose(game, game.prompt().player, "hard", rng.randrange(1 << 30), **where)
                del self.running[index]
                self.made += 1

        self.task = asyncio.gather(*(one(index) for index in range(self.searches)))

    async def switch(self, mode: str) -> None:
        """Search for ``mode`` from now on; returns once no search of another thinker runs."""
        self.mode = mode
        while any(thinker is not self.thinker() for thinker in self.running.values()):
            await asyncio.sleep(0.05)

    async def close(self) -> int:
        self.stop.set()
        if self.task is not None:
            await self.task
        self.now.close()
        self.before.close()
        return self.made


def recorded_boards(game: str, seed: int = 7) -> list[Job]:
    """Every board of a seeded random game with its ``previous``, as the render benches draw."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if game.lower() == "argoat":
        import argoat_render

        views, _late = argoat_render.game_views(3)
        return argoat_render.with_previous(views)[::2]
    import argo_render

    return argo_render.with_previous(argo_render.game_views(seed))


async def background(
    tables: Tables, jobs: list[Job], pool: BoardPool, args: argparse.Namespace, sample: Sample
) -> None:
    """``args.rate`` boards a second (after an action each with ``args.act``)."""
    rng = random.Random(3)
    busy: set[int] = set()
    running: set[asyncio.Task[None]] = set()

    async def one(index: int) -> None:
        busy.add(index)
        try:
            if args.act:
                views = await tables.act(index, rng)
                if views is None:
                    return
                view, previous = views[1], views[0]
            else:
                view, previous = jobs[sample.offered % len(jobs)]
            started = time.perf_counter()
            await pool.png(view, previous)
            sample.board_wait.append(time.perf_counter() - started)
            sample.boards += 1
        finally:
            busy.discard(index)

    loop = asyncio.get_running_loop()
    start = loop.time()
    n = 0
    while (now := loop.time()) < start + args.seconds:
        due = start + n / args.rate
        if due > now:
            await asyncio.sleep(due - now)
            continue
        free = [i for i in range(len(tables.channels)) if i not in busy] if args.act else [n]
        n += 1
        if free:
            task = asyncio.create_task(one(rng.choice(free)))
            sample.offered += 1
            running.add(task)
            task.add_done_callback(running.discard)
    sample.waiting = len(running)
    if running:
        await asyncio.wait(running)


async def run(
    probe_tables: Tables, tables: Tables, jobs: list[Job], pool: BoardPool | None, args: argparse.Namespace
) -> Sample:
    sample = Sample()
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(probe(probe_tables, stop, sample.probe)),
        asyncio.create_task(ticker(stop, sample.lag)),
    ]
    workers = [*pool.worker_pids(), *pool.backup_pids()] if pool is not None else []
    cpu0, wcpu0, wall0 = time.process_time(), cpu_of(workers), time.perf_counter()
    if pool is None:
        await asyncio.sleep(args.seconds)
    else:
        await background(tables, jobs, pool, args, sample)
    sample.seconds = time.perf_counter() - wall0
    sample.cpu_bot = time.process_time() - cpu0
    sample.cpu_workers = cpu_of(workers) - wcpu0
    stop.set()
    await asyncio.gather(*tasks)
    return sample


async def latency(registry: GameRegistry, game: str, args: argparse.Namespace, folder: Path) -> None:
    store = await Store.open(folder / "latency.db")
    host = TableHost(store, registry, clock=clock, seeder=lambda: random.getrandbits(62))
    probe_tables = Tables(host, game, 3_000_000)
    await probe_tables.open(1)
    tables = Tables(host, game, 2_000_000)
    await tables.open(args.tables if args.act else 0)
    jobs = recorded_boards(game)
    ai = AI(args.ai)

    def process() -> BoardPool:
        pool = BoardPool(2)
        pool.hurry = lambda: ai.now.workers_busy + ai.before.workers_busy > 0  # as the bot does (bot/app.py)
        return pool

    makers: dict[str, Any] = {
        "thread": lambda: BoardPool(0),
        "executor": lambda: ExecutorBoards(2),
        "nice": lambda: BoardPool(2, priority="nice"),
        "backup10": lambda: BoardPool(2, backup="nice"),
        "late": lambda: BoardPool(2),
        "hurry": process,
        "process": process,
    }
    order = ["idle", *(m for m in args.modes.split(",") if m in makers)]
    pools = {mode: makers[mode]() for mode in order[1:]}
    for pool in pools.values():
        await pool.start(workers=True)  # every worker started (the bot starts them as boards need them)
    spin = "while True: pass"
    busy = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(args.busy)]
    ai.start()
    results: dict[str, list[Sample]] = {mode: [] for mode in order}
    try:
        for rnd in range(args.rounds):
            for mode in order if rnd % 2 == 0 else order[::-1]:
                await ai.switch(mode)
                results[mode].append(await run(probe_tables, tables, jobs, pools.get(mode), args))
    finally:
        for process_ in busy:
            process_.kill()
            process_.wait()
        decisions = await ai.close()
    for pool in pools.values():
        pool.close()
    await host.close()

    idle_p95 = pct([x for s in results["idle"] for x in s.probe], 0.95)
    load = (
        f"actions/s offered to {args.tables} tables, each followed by its board"
        if args.act
        else (f"boards/s offered (the {len(jobs)} boards of a seeded game, changes marked)")
    )
    print(
        f"latency: {game}, {args.rate:.0f} {load}; a probe table acts every {PROBE_EVERY * 1000:.0f} ms; "
        f"{args.rounds} rounds of {args.seconds:.0f} s per mode, alternated; "
        f"{args.busy} processes kept busy at the bot's priority; "
        f"{args.ai} hard AI decisions kept searching ({decisions} made); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"  {'mode':10s} {'boards/s':>8s} {'left':>5s}  {'act p50':>8s} {'act p95':>8s} {'p95/idle':>8s}  "
        f"{'lag p50':>8s} {'lag p99':>8s} {'lag max':>8s}  {'CPU bot':>8s} {'workers':>8s} {'wall':>6s}  "
        f"{'board p50':>9s} {'board p95':>9s}"
    )
    for mode in order:
        samples = results[mode]
        wall = sum(s.seconds for s in samples)
        act = [x for s in samples for x in s.probe]
        lag = [x for s in samples for x in s.lag]
        waits = [x for s in samples for x in s.board_wait]
        print(
            f"  {mode:10s} {sum(s.boards for s in samples) / wall:8.1f} "
            f"{sum(s.waiting for s in samples):5d}  "
            f"{pct(act, 0.5) * 1000:6.1f}ms {pct(act, 0.95) * 1000:6.1f}ms "
            f"{pct(act, 0.95) / idle_p95:7.2f}x  "
            f"{pct(lag, 0.5) * 1000:6.2f}ms {pct(lag, 0.99) * 1000:6.2f}ms {max(lag) * 1000:6.1f}ms  "
            f"{sum(s.cpu_bot for s in samples):7.2f}s {sum(s.cpu_workers for s in samples):7.2f}s "
            f"{wall:5.1f}s  "
            f"{pct(waits, 0.5) * 1000:7.1f}ms {pct(waits, 0.95) * 1000:7.1f}ms"
        )
    per_round = {m: [pct(s.probe, 0.95) * 1000 for s in results[m]] for m in order}
    print(
        "  act p95 per round (ms): "
        + "; ".join(f"{m} {', '.join(f'{x:.1f}' for x in per_round[m])}" for m in order)
        + f"; median of rounds: {', '.join(f'{m} {statistics.median(per_round[m]):.1f}' for m in order)}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="Argo")
    parser.add_argument("--rate", type=float, default=75.0, help="actions (and boards) a second, offered")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds per mode and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--act", action="store_true", help="each board follows an action at a table")
    parser.add_argument(
        "--modes",
        default="thread,executor,nice,process",
        help="besides idle: thread,executor,nice,backup10,late,hurry,process",
    )
    parser.add_argument("--busy", type=int, default=0, help="processes kept spinning at the bot's priority")
    parser.add_argument("--ai", type=int, default=0, help="hard AI decisions kept searching (the bot's AI)")
    parser.add_argument("--tables", type=int, default=100, help="background tables (with --act)")
    parser.add_argument("--memory", type=int, default=100, help="tables for the memory figure (0: skip)")
    parser.add_argument(
        "--moves", type=int, default=30, help="actions a table plays before the memory figure"
    )
    args = parser.parse_args()
    registry = GameRegistry(discover())
    with tempfile.TemporaryDirectory() as folder:
        if args.memory:
            await memory(registry, args.game, args.memory, args.moves, Path(folder))
        await latency(registry, args.game, args, Path(folder))


if __name__ == "__main__":
    asyncio.run(main())
