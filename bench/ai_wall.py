"""Benchmark: how long players wait for bots, in wall time, when several tables' bots decide at
once, and how long the first decision after a start takes; this tree against a baseline, side by
side in one run.

Run ``python bench/ai_wall.py [--quick] [--repeats N] [--rounds R] [--baseline C] [--workers N]``.

Each variant runs in a fresh Python process with its own copy of ``bot/``, through the same path
as the bot: a ``bot.thinking.Thinker`` with the bot's default number of AI workers (the default of
``AI_WORKERS``), started as the bot's start-up starts it, then asked for ``hard`` decisions:

* **start**: the first decision right after the start-up, then ``--later`` single decisions
  one after the other (later ones: the worker is up);
* **four tables at once**: ``--rounds`` times, the bots of four tables (two Argo, two Argoat,
  two players each) decide at the same moment; every decision's wall time from asking to answer.

Variants: ``baseline``, the ``bot/`` package of commit ``C`` (default 4bee06f: before issue 25,
one FIFO worker spawned at the first bot move, CPU-time budgets), extracted with ``git archive``;
``this tree`` with its default pool (``min(4, cores)`` workers, started and warmed at start-up,
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
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # not the tree's root: see worker()

from argo_games import copy_tree, extract

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


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Start a thinker as the bot does, then time its decisions (wall seconds)."""
    from bot.ai import LEVELS
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
        "budget": LEVELS[LEVEL].budget_s,
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
    print(json.dumps(asyncio.run(measure(args))))


# ----- the driver ----------------------------------------------------------------------------


def run_variant(root: Path, args: argparse.Namespace, workers: int | None) -> dict[str, Any]:
    """One variant's figures, measured in a fresh Python process."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)]
    command += ["--rounds", str(args.rounds), "--later", str(args.later)]
    if workers is not None:
        command += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": "", "PYTHONHASHSEED": "0"}
    env.pop("AI_WORKERS", None)
    out = subprocess.run(
        command, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(), env=env
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


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
            "baseline": extract(args.baseline, Path(tmp) / "baseline"),
            "tree": copy_tree(Path(tmp) / "tree"),
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
        report(label, runs[label])
    print(f"({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
