"""Benchmark: how long players wait for bots, in wall time, when several tables' bots decide at
once, and how long the first decision after a start takes; this tree against a baseline, side by
side in one run.

Run ``python bench/ai_wall.py [--quick] [--repeats N] [--rounds R] [--baseline C] [--workers N]
[--restart]``.

Each variant runs in a fresh Python process with its own copy of ``bot/``, through the same path
as the bot: a ``bot.thinking.Thinker`` with the bot's default number of AI workers (the default of
``AI_WORKERS``), started as the bot's start-up starts it, then asked for ``hard`` decisions:

* **start**: the first decision right after the start-up, then ``--later`` single decisions
  one after the other (later ones: the worker is up);
* **four tables at once**: ``--rounds`` times, the bots of four tables (two Argo, two Argoat,
  two players each) decide at the same moment; every decision's wall time from asking to answer.

With ``--restart``, instead, the **restart path** through the real bot (SimCord): four tables
(two Argo, two Argoat, alice and a ``hard`` bot each) are left with their bot due to move while
the bot is down (its scheduler held back), then a new bot is started on the same database, as
after a restart; from the moment it is ready (its ``setup_hook`` done), each table's first bot
decision is timed to its answer, by its scheduler's first round, as a multiple of the level's
turn budget (this tree) or decision budget (a baseline before issue 33).

Variants: ``baseline``, the ``bot/`` package of commit ``C`` (default 4bee06f: before issue 25,
one FIFO worker spawned at the first bot move, CPU-time budgets), extracted with ``git archive``;
``this tree`` with its default pool (``min(4, cores)`` workers, forked warm as decisions need them,
tables served round-robin, wall-clock budgets counted from the moment a table asks); and, with
``--workers N``, this tree with ``AI_WORKERS=N``. The variants take turns going first between
repeats. Printed per variant: the start-up time, the first decision against the median of the
later ones, and for the four-at-once rounds the median wall time of the first, second, third and
fourth decision to answer, each as a multiple of the level's budget (1.5 s), and the worst one.
The machine's load average is printed too: wall times on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # not the tree's root: see worker()

from argo_games import ROOT, copy_tree, extract

BOT_PATHS = ("bot", "cogs", "render", "tests")
"""What the restart path runs: the whole bot, and the tests' driver that plays alice."""
BASELINE = "4bee06f"
"""main before issue 25's AI work."""
LEVEL = "hard"
TABLES = 4


# ----- the worker: one variant, in its own process -------------------------------------------


def position(game_cls: Any, seed: int, steps: int) -> Any:
    """A two-player game ``steps`` random decisions in, waiting for its main decider."""
    game = game_cls.new(("a", "b"), seed, {})
    rng = random.Random(seed)
    for _ in range(steps):
        prompt = game.prompt()
        if prompt is None or prompt.player is None:
            break
        options = [a for a in game.legal_actions(prompt.player) if a["type"] not in ("undo", "cancel")]
        if not options:
            break
        game.apply(prompt.player, rng.choice(options))
    prompt = game.prompt()
    if prompt is None or prompt.player is None or len(game.legal_actions(prompt.player)) < 2:
        return position(game_cls, seed + 1000, steps)
    from bot.ai import decide

    # Only positions the level searches: a decision settled before searching (a single candidate,
    # a win in reach) answers at once and says nothing about waiting for a search.
    if decide(game, prompt.player, level=LEVEL, seed=seed, iterations=1)[1] is None:
        return position(game_cls, seed + 1000, steps)
    return game


def copy_whole(into: Path) -> Path:
    """This tree's bot, cogs, renderer and tests (sources only), copied under ``into``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    for name in BOT_PATHS:
        shutil.copytree(ROOT / name, into / name, ignore=ignore)
    return into


def level_budget() -> float:
    """The level's budget: a whole turn's (this tree), or a decision's (before issue 33)."""
    from bot.ai import LEVELS

    spec = LEVELS[LEVEL]
    return float(getattr(spec, "turn_budget_s", None) or spec.budget_s)  # type: ignore[attr-defined]


async def measure_restart(args: argparse.Namespace) -> dict[str, Any]:
    """Leave four tables with their bot due, start a new bot on their database, and time each
    table's first bot answer from the moment the new bot is ready (wall seconds)."""
    import simcord

    from bot.app import create_bot
    from bot.config import Settings
    from bot.engine.registry import discover
    from tests.driver import Driver, random_policy

    folder = tempfile.mkdtemp(prefix="ai-wall-restart-")
    settings = Settings(token="bench", database_path=Path(folder) / "games.db")
    if args.workers is not None:
        settings = Settings(token="bench", database_path=Path(folder) / "games.db", ai_workers=args.workers)
    down = create_bot(settings, games=discover(), seeder=lambda: 5)
    async with simcord.run(down, check_errors=False, settle_timeout=60) as env:
        down.scheduler.kick = lambda table: None  # type: ignore[method-assign]  # the bots wait
        guild = env.create_guild("Bench")
        alice = guild.add_member(env.create_user("alice"))
        for n, game in enumerate(("Argo", "Argoat") * 2):
            channel = guild.create_text_channel(f"table-{n}")
            extra = " tm_wait=0" if game == "Argo" else ""
            lobby = (
                await alice.slash(channel, "game new", game=game, options=f"bots=1 level={LEVEL}{extra}")
            ).response
            await alice.click(lobby, label="Start")
            driver = Driver(env, down, channel, {str(alice.id): alice}, random_policy(random.Random(n)))
            for _ in range(40):  # alice plays until her bot is due
                table = await down.host.current(channel.id)
                if table.game.prompt().player != str(alice.id) or await driver.step() is None:
                    break
        up = create_bot(settings, games=discover(), seeder=lambda: 5)
        answered: dict[Any, float] = {}
        real_choose, real_run_due = up.thinker.choose, up.scheduler.run_due

        async def choose(*args: Any, **where: Any) -> Any:
            action = await real_choose(*args, **where)
            answered.setdefault(where.get("table"), time.perf_counter())
            return action

        async def held() -> None:  # SimCord's start waits 5 s at most for the bot to settle
            return None

        up.thinker.choose = choose  # type: ignore[method-assign]
        up.scheduler.run_due = held  # type: ignore[method-assign]
        await env.restart_bot(up)  # started and settled: the worker server is warm
        ready = time.perf_counter()
        await real_run_due()  # the scheduler's first round after the start, as its loop runs it
        await env.settle(timeout=300)
        await down.host.close()
        await up.host.close()
    return {
        "workers": up.thinker.workers,
        "budget": level_budget(),
        "firsts": sorted(t - ready for t in answered.values()),
    }


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Start a thinker as the bot does, then time its decisions (wall seconds)."""
    from bot.config import Settings
    from bot.engine.argo import ArgoGame
    from bot.engine.argoat import ArgoatGame
    from bot.thinking import Thinker

    workers = args.workers if args.workers is not None else Settings(token="x").ai_workers
    by_table = "table" in inspect.signature(Thinker.choose).parameters
    games = [position(cls, seed, 12 + 7 * seed) for seed, cls in enumerate((ArgoGame, ArgoatGame) * 2)]
    thinker = Thinker(workers)

    async def ask(table: int, seed: int) -> float:
        game = games[table]
        seat = game.prompt().player
        started = time.monotonic()
        where = {"table": table} if by_table else {}
        action = await thinker.choose(game, seat, LEVEL, seed, **where)
        assert action in game.legal_actions(seat) or action is None
        return time.monotonic() - started

    try:
        started = time.monotonic()
        if hasattr(thinker, "start"):  # as the bot's start-up does (bot/app.py)
            await thinker.start()
        start_up = time.monotonic() - started
        first = await ask(0, 0)
        later = [await ask(i % TABLES, 1 + i) for i in range(args.later)]
        rounds = []
        for r in range(args.rounds):
            walls = await asyncio.gather(*(ask(t, 100 * (r + 1) + t) for t in range(TABLES)))
            rounds.append(sorted(walls))
    finally:
        thinker.close()
    return {
        "workers": workers,
        "budget": level_budget(),
        "start_up": start_up,
        "first": first,
        "later": later,
        "rounds": rounds,
    }


def worker(args: argparse.Namespace) -> None:
    """Run one variant with the ``bot/`` package under ``args.worker``; print one JSON line."""
    # The tree goes first on the path, and the AI's spawned workers inherit this path: the
    # bench's own tree must not be on it (it would shadow the variant's ``bot``).
    sys.path.insert(0, args.worker)
    import bot.thinking

    assert Path(bot.thinking.__file__).resolve().is_relative_to(Path(args.worker).resolve())
    print(json.dumps(asyncio.run(measure_restart(args) if args.restart else measure(args))))


# ----- the driver ----------------------------------------------------------------------------


def run_variant(root: Path, args: argparse.Namespace, workers: int | None) -> dict[str, Any]:
    """One variant's figures, measured in a fresh Python process."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)]
    command += ["--rounds", str(args.rounds), "--later", str(args.later)]
    if args.restart:
        command.append("--restart")
    if workers is not None:
        command += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": "", "PYTHONHASHSEED": "0"}
    env.pop("AI_WORKERS", None)
    out = subprocess.run(
        command, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(), env=env
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def report_restart(label: str, runs: list[dict[str, Any]]) -> None:
    """Print one variant's restart figures over all its runs."""
    budget = runs[0]["budget"]
    ranks = list(zip(*(r["firsts"] for r in runs), strict=False))
    medians = ", ".join(
        f"{n} {statistics.median(times):.2f} s ({statistics.median(times) / budget:.2f}x)"
        for n, times in zip(("1st", "2nd", "3rd", "4th"), ranks, strict=False)
    )
    worst = max(t for r in runs for t in r["firsts"])
    print(f"{label} ({runs[0]['workers']} AI worker(s), budget {budget} s):")
    print(f"  after a restart, the {TABLES} tables' first bot answers (median of {len(runs)}): {medians}")
    print(f"  worst {worst:.2f} s ({worst / budget:.2f}x the budget)")


def report(label: str, runs: list[dict[str, Any]]) -> None:
    """Print one variant's figures over all its runs."""
    budget = runs[0]["budget"]
    first = statistics.median(r["first"] for r in runs)
    later = statistics.median(t for r in runs for t in r["later"])
    start_up = statistics.median(r["start_up"] for r in runs)
    ranks = list(zip(*(walls for r in runs for walls in r["rounds"]), strict=True))
    worst = max(max(walls) for walls in ranks)
    print(f"{label} ({runs[0]['workers']} AI worker(s)):")
    print(
        f"  start-up {start_up:.2f} s; first decision {first:.2f} s, later ones {later:.2f} s (median):"
        f" first/later {first / later:.2f}x"
    )
    medians = ", ".join(
        f"{n} {statistics.median(walls):.2f} s ({statistics.median(walls) / budget:.2f}x)"
        for n, walls in zip(("1st", "2nd", "3rd", "4th"), ranks, strict=True)
    )
    share = sum(t <= 1.2 * budget for walls in ranks for t in walls) / sum(len(w) for w in ranks)
    print(f"  {TABLES} tables at once, answered (median of {len(ranks[0])}): {medians}")
    print(f"  worst {worst:.2f} s ({worst / budget:.2f}x the budget); within 1.2x the budget: {share:.0%}")


def main() -> None:
    """Parse the arguments, then run either the driver or one variant's worker."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 repeat, 2 rounds, 2 later decisions")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--later", type=int, default=3)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--workers", type=int, default=None, help="also run this tree with N workers")
    parser.add_argument("--restart", action="store_true", help="time the restart path (SimCord)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.quick:
        args.repeats, args.rounds, args.later = 1, 2, 2
    began = time.monotonic()
    load = os.getloadavg()[0]
    variants: list[tuple[str, str, int | None]] = [
        (f"baseline {args.baseline}", "baseline", None),
        ("this tree", "tree", None),
    ]
    if args.workers is not None:
        variants.append((f"this tree, AI_WORKERS={args.workers}", "tree", args.workers))
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _, _ in variants}
    with tempfile.TemporaryDirectory(prefix="ai-wall-") as tmp:
        roots = {
            "baseline": extract(
                args.baseline, Path(tmp) / "baseline", BOT_PATHS if args.restart else ("bot",)
            ),
            "tree": copy_whole(Path(tmp) / "tree") if args.restart else copy_tree(Path(tmp) / "tree"),
        }
        for repeat in range(args.repeats):
            order = variants if repeat % 2 == 0 else variants[::-1]
            for label, root, workers in order:
                runs[label].append(run_variant(roots[root], args, workers))
                print(f"repeat {repeat + 1}: {label} done", file=sys.stderr)
    print(
        f"bench/ai_wall.py: {LEVEL} bots, {args.repeats} repeat(s) x {args.rounds} rounds of {TABLES} "
        f"tables at once, {os.cpu_count()} cores, load average {load:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end"
    )
    for label, _, _ in variants:
        (report_restart if args.restart else report)(label, runs[label])
    print(f"({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
