"""Benchmark: actions through the table host on each store, boards drawn as the bot draws them,
this tree's store against today's (a baseline commit's ``bot/``), side by side in one run.

Run ``python bench/store_load.py [--game Argo|Argoat] [--tables 12] [--actions 10] [--rounds 3]
[--renders 1.0] [--baseline 4bee06f] [--clicks 30] [--clicks-baseline a608666] [--quick]``.

Three deployments, each run with this tree's ``bot/`` and with the baseline's (``git archive`` of
``--baseline``; ``none`` to skip it), in alternating order per round:

* ``sqlite x1``: one process on a SQLite file (the default deployment);
* ``postgres x1``: one process on PostgreSQL;
* ``postgres x2``: two OS processes on the same PostgreSQL database, each with its own table host
  and half of the tables (as shards split guilds).

The boards are a real game's: every table is a seeded random game (no undo or cancel) advanced to
its own point of the whole game, the tables spread evenly from the first decision to the last
(untimed). Then every process plays random legal actions on all its tables at once through
``TableHost.act`` with the version it holds, as a click does, and draws ``--renders`` boards per
action as the bot does (``cogs.turns.board_file`` on its drawing threads, changes marked; the
bot draws 1.0 board per applying click once the retired message reuses its picture). Only
finished actions count. Drawing comes from this tree in both columns: only the store and the host
differ.

Printed per way: actions per second (median of rounds, wall time from a common start to the last
process's end), the latency of ``act`` (p50 and p95 of every action: lock, apply, save), the
bot processes' CPU time per action (drawing included), the PostgreSQL server's CPU time per
action, and the statements the server ran per action (from its own log: ``log_statement=all``
for the bench's database; each simple query or execute is one). A throw-away PostgreSQL server
is started as the tests start theirs (tests/pg.py). On a shared machine the wall figures are
under whatever load the other users put on it: compare the columns of one run.

Then (unless ``--clicks 0``) the database work of whole clicks through the real bot, which ``act``
alone does not show: from the click to the edited or posted turn message and the writes after it
(``bench/whole_clicks.py``: SimCord, both games, both stores, this tree against
``--clicks-baseline``), PostgreSQL statements and SQLite round trips per click.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CTX = multiprocessing.get_context("spawn")
BASELINE = "4bee06f"
"""The commit before issue 25's store work: nine statements per action on PostgreSQL."""

SKIP = ("undo", "cancel", "withdraw")


def clock() -> datetime:
    return datetime.now(UTC)


def pick(game: Any, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A random legal decision (seat, action) of ``game`` now, or None if nobody can decide."""
    prompt = game.prompt()
    if prompt is None or game.result() is not None:
        return None
    deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
    if not deciders:
        return None
    legal = game.legal_actions(deciders[0])
    return deciders[0], rng.choice([a for a in legal if a["type"] not in SKIP] or legal)


# -- setting the tables up (untimed, this tree's code) -----------------------------------------


async def prepare(where: str, game: str, channels: list[int], seed: int) -> None:
    """Open, start and advance each table to its own point of a whole seeded random game."""
    from bot.engine.registry import GameRegistry, discover
    from bot.store import PLAYING
    from bot.tables import TableHost

    seeds = iter(range(seed, seed + len(channels)))
    host = TableHost(
        await open_store_of(where), GameRegistry(discover()), clock=clock, seeder=lambda: next(seeds)
    )
    try:
        for n, channel in enumerate(channels):
            await host.open_table(guild_id=1, channel_id=channel, game_name=game, host_id=f"{channel}a")
            await host.join(channel, f"{channel}b")
            await host.start(channel, f"{channel}a")
            table = await host.current(channel)
            assert table is not None and table.game is not None
            start = table.game.to_json()
            cls = type(table.game)
            rng = random.Random(table.record.seed)
            probe, length = cls.from_json(start), 0
            while (decision := pick(probe, rng)) is not None:
                probe.apply(*decision)
                length += 1
            point = length * n // len(channels)  # evenly spread over the whole game
            played, rng = cls.from_json(start), random.Random(table.record.seed)
            for _ in range(point):
                decision = pick(played, rng)
                assert decision is not None
                played.apply(*decision)
            if point:
                await host.store.save(
                    table.record.evolve(state=played.to_json(), status=PLAYING),
                    actor="bench",
                    action={"type": "advance", "decisions": point},
                    summary="",
                    now=clock(),
                )
    finally:
        await host.close()


async def open_store_of(where: str) -> Any:
    from bot.store import open_store

    return await open_store(where)


# -- the timed work, in each process ---------------------------------------------------------------


async def play(
    host: Any, table: Any, actions: int, renders: float, rng: random.Random, out: dict[str, Any]
) -> None:
    """Up to ``actions`` random legal actions on one table, each drawn as the bot draws it."""
    from bot.tables import TableError
    from cogs.turns import board_file

    owed = 0.0
    for _ in range(actions):
        decision = pick(table.game, rng)
        if decision is None:
            return
        before = table.public_view()
        started = time.perf_counter()
        try:
            outcome = await host.act(table.record.channel_id, *decision, version=table.record.version)
        except TableError:
            out["failed"] += 1
            table = await host.current(table.record.channel_id)
            continue
        out["latencies"].append(time.perf_counter() - started)
        out["done"] += 1
        table = outcome.table
        owed += renders
        while owed >= 1:
            await board_file(table.public_view(), before)
            owed -= 1


async def _work(where: str, channels: list[int], actions: int, renders: float, gates: Any) -> dict:
    import bot.store
    from bot.engine.registry import GameRegistry, discover
    from bot.tables import TableHost
    from cogs.turns import warm_boards

    host = TableHost(await open_store_of(where), GameRegistry(discover()), clock=clock)
    await warm_boards()
    tables = [await host.current(c) for c in channels]  # loaded before the clock starts
    out: dict[str, Any] = {
        "done": 0,
        "failed": 0,
        "latencies": [],
        "bot": str(Path(bot.store.__file__).parent),
    }
    ready, go, finish, release = gates
    await asyncio.to_thread(ready.wait)
    await asyncio.to_thread(go.wait)
    cpu = time.process_time()
    # Each table's own seeded decisions: every way of a round plays the very same games.
    await asyncio.gather(
        *(play(host, t, actions, renders, random.Random(-t.record.seed), out) for t in tables)
    )
    out["cpu"] = time.process_time() - cpu
    await asyncio.to_thread(finish.wait)
    await asyncio.to_thread(release.wait)  # the server's figures are read before its sessions end
    await host.close()
    return out


def worker(
    root: str | None,
    where: str,
    channels: list[int],
    actions: int,
    renders: float,
    gates: Any,
    queue: Any,
) -> None:
    if root is not None:  # the baseline's bot/ first; drawing (render/, cogs/) stays this tree's
        sys.path.insert(0, root)
    queue.put(asyncio.run(_work(where, channels, actions, renders, gates)))


def server_cpu(folder: Path) -> float:
    """CPU seconds used so far by the PostgreSQL server's processes (postmaster and children)."""
    postmaster = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def run(
    root: str | None,
    where: str,
    groups: list[list[int]],
    actions: int,
    renders: float,
    log: Any,
    folder: Path,
) -> dict[str, Any]:
    """One process per group of channels from a common start; the pooled figures."""
    ready, go, finish, release = (CTX.Barrier(len(groups) + 1) for _ in range(4))
    queue = CTX.Queue()
    gates = (ready, go, finish, release)
    procs = [
        CTX.Process(target=worker, args=(root, where, group, actions, renders, gates, queue))
        for group in groups
    ]
    for p in procs:
        p.start()
    ready.wait()
    log.mark()
    server = server_cpu(folder)
    go.wait()
    started = time.monotonic()
    finish.wait(timeout=3600)
    elapsed = time.monotonic() - started
    server = server_cpu(folder) - server
    statements = len(log.since_mark())
    release.wait()
    results = [queue.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    done = sum(r["done"] for r in results)
    expected = str(Path(root or ROOT) / "bot" / "store")
    assert all(r["bot"] == expected for r in results), [r["bot"] for r in results]
    return {
        "done": done,
        "failed": sum(r["failed"] for r in results),
        "wall": elapsed,
        "cpu": sum(r["cpu"] for r in results),
        "server": server,
        "statements": statements if where.startswith("postgres") else None,
        "latencies": [x for r in results for x in r["latencies"]],
    }


def baseline_tree(commit: str, folder: str) -> str:
    """The baseline commit's ``bot/`` extracted into ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "bot"], capture_output=True, check=True
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="Argo")
    parser.add_argument("--tables", type=int, default=12, help="tables played at once (split over processes)")
    parser.add_argument("--actions", type=int, default=10, help="actions per table per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--renders", type=float, default=1.0, help="boards the bot draws per action")
    parser.add_argument(
        "--baseline", default=BASELINE, help="commit whose bot/ is today's code path, or none"
    )
    parser.add_argument("--clicks", type=int, default=30, help="whole clicks counted per table (0: none)")
    parser.add_argument(
        "--clicks-baseline",
        default=None,
        help="commit the whole clicks are compared with (default: bench/whole_clicks.py's)",
    )
    parser.add_argument("--quick", action="store_true", help="6 tables, 5 actions, 1 round, 6 clicks")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.actions, args.rounds, args.clicks = 6, 5, 1, 6

    from tests import pg
    from tests.pg_statements import StatementLog, log_statements

    server = pg.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            pg_url = server.database()
            asyncio.run(log_statements(server.admin_url, pg_url))
            log = StatementLog(server.folder / "log")
            codes: dict[str, str | None] = {"this": None}
            if args.baseline != "none":
                codes["base"] = baseline_tree(args.baseline, str(Path(folder) / "baseline"))
            deployments = {
                "sqlite x1": (str(Path(folder) / "bench.db"), 1),
                "postgres x1": (pg_url, 1),
                "postgres x2": (pg_url, 2),
            }
            ways = [(code, name) for name in deployments for code in codes]
            figures: dict[tuple[str, str], list[dict[str, Any]]] = {way: [] for way in ways}
            channel = 1
            for rnd in range(args.rounds):
                for code, name in ways if rnd % 2 == 0 else list(reversed(ways)):
                    where, processes = deployments[name]
                    channels = list(range(channel, channel + args.tables))
                    channel += args.tables
                    asyncio.run(prepare(where, args.game, channels, seed=1000 * rnd))
                    groups = [channels[n::processes] for n in range(processes)]
                    figures[(code, name)].append(
                        run(
                            codes[code],
                            where,
                            groups,
                            args.actions,
                            args.renders,
                            log,
                            server.folder,
                        )
                    )
            print(
                f"{args.game}: {args.tables} tables at once, boards of a whole game, "
                f"{args.renders:g} board drawn per action; {args.rounds} round(s); "
                f"baseline = {args.baseline} (bot/ only)"
            )
            print(
                f"  {'':4s} {'':12s} {'actions':>7s} {'act/s':>7s} {'p50 ms':>7s} {'p95 ms':>7s} "
                f"{'CPU ms/act':>10s} {'server ms/act':>13s} {'statements/act':>14s}"
            )
            for code, name in ways:
                runs = figures[(code, name)]
                done = sum(r["done"] for r in runs)
                latencies = [x for r in runs for x in r["latencies"]]
                rate = statistics.median(r["done"] / r["wall"] for r in runs)
                cpu = statistics.median(1000 * r["cpu"] / max(1, r["done"]) for r in runs)
                server_ms = statistics.median(1000 * r["server"] / max(1, r["done"]) for r in runs)
                counted = [r["statements"] for r in runs if r["statements"] is not None]
                statements = f"{sum(counted) / done:14.2f}" if counted and done else f"{'-':>14s}"
                failed = sum(r["failed"] for r in runs)
                print(
                    f"  {code:4s} {name:12s} {done:7d} {rate:7.1f} {1000 * percentile(latencies, 0.5):7.1f} "
                    f"{1000 * percentile(latencies, 0.95):7.1f} {cpu:10.1f} "
                    f"{server_ms if name != 'sqlite x1' else float('nan'):13.2f} {statements}"
                    + (f"  ({failed} refused)" if failed else "")
                )
        if args.clicks > 0:
            from bench import whole_clicks

            print()
            whole_clicks.compare(server, args.clicks, args.clicks_baseline or whole_clicks.BASELINE)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
