"""Benchmark: how strong and how fast the bots are (issue 11's targets), with 95% intervals.

Run ``python bench/ai_strength.py [--jobs 2] [--scale 1.0] [--seed 0]``. Two-player games, the
bots at their production time budgets (CPU seconds per decision; see ``bot/ai/__init__.py``):

* Argoat ``hard`` against ``random``: how often hard reaches Eden first (target >= 95%);
* Argo ``hard`` against ``random``: how often hard ends with more points (target >= 95%);
* Argo: how often the Aliens win a table of two ``hard`` bots, against a table of two ``random``
  players (target: far less often);
* ``hard`` against ``easy`` in both games (target: hard wins >= 70%; for Argo "wins" means more
  points than easy, the Aliens' victories included);
* CPU time per searched decision, p50 and p95, of ``hard`` (target p95 <= 2 s) and ``easy``
  (target p95 <= 0.3 s), over every game above.

Seats alternate between games. ``--scale`` multiplies every game count (0.25 for a quick look).
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import LEVELS
from bot.arena import GameRecord, percentile, run_games, wilson

Runs = list[tuple[list[int], GameRecord]]


def rate(label: str, hits: int, n: int, target: str) -> str:
    lo, hi = wilson(hits, n)
    share = hits / max(n, 1)
    return f"{label:<58} {hits:>3}/{n:<3} = {share:>4.0%}  [95% CI {lo:>4.0%}–{hi:>4.0%}]  target {target}"


def bot_seat(order: list[int], bot: int) -> int:
    return order.index(bot)


def wins(runs: Runs, bot: int) -> int:
    return sum(record.seats[bot_seat(order, bot)].won for order, record in runs)


def more_points(runs: Runs, bot: int) -> int:
    count = 0
    for order, record in runs:
        mine = record.seats[bot_seat(order, bot)].score
        others = [s.score for i, s in enumerate(record.seats) if i != bot_seat(order, bot)]
        count += mine > max(others)
    return count


def times(runs_by_level: dict[str, list[float]], levels: list[str], runs: Runs) -> None:
    for order, record in runs:
        for bot, level in enumerate(levels):
            runs_by_level.setdefault(level, []).extend(record.seats[bot_seat(order, bot)].searched_ms)


def main() -> None:
    """Play every experiment and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=None, help="override every budget (smoke runs only)")
    args = parser.parse_args()

    def games(n: int) -> int:
        return max(2, round(n * args.scale))

    started = time.perf_counter()
    print(f"bench/ai_strength.py {' '.join(sys.argv[1:])}  ({datetime.date.today().isoformat()})")
    print("budgets (CPU s per decision): " + ", ".join(f"{k} {v.budget_s}" for k, v in LEVELS.items()))
    decision_ms: dict[str, list[float]] = {}
    lines = []

    def play(game: str, levels: list[str], n: int, offset: int) -> Runs:
        t0 = time.perf_counter()
        runs = run_games(
            game, levels, games(n), seed=args.seed + offset, jobs=args.jobs, budget_s=args.budget
        )
        times(decision_ms, levels, runs)
        unfinished = sum(not r.finished for _, r in runs)
        note = f", {unfinished} unfinished" if unfinished else ""
        print(
            f"  played {game} {','.join(levels)}: {len(runs)} games in {time.perf_counter() - t0:.0f} s{note}"
        )
        sys.stdout.flush()
        return runs

    runs = play("Argoat", ["hard", "random"], 18, 1000)
    lines.append(rate("Argoat hard vs random: hard reaches Eden first", wins(runs, 0), len(runs), ">= 95%"))

    runs = play("Argo", ["hard", "random"], 18, 2000)
    lines.append(
        rate("Argo hard vs random: hard ends with more points", more_points(runs, 0), len(runs), ">= 95%")
    )
    aliens_vs_random = sum(r.nobody_won for _, r in runs)
    lines.append(rate("Argo hard vs random: the Aliens win", aliens_vs_random, len(runs), "(for reference)"))

    runs = play("Argo", ["hard", "hard"], 10, 3000)
    lines.append(
        rate(
            "Argo two hard bots: the Aliens win",
            sum(r.nobody_won for _, r in runs),
            len(runs),
            "far below random",
        )
    )
    runs = play("Argo", ["random", "random"], 300, 4000)
    lines.append(
        rate(
            "Argo two random players: the Aliens win",
            sum(r.nobody_won for _, r in runs),
            len(runs),
            "(baseline)",
        )
    )

    runs = play("Argoat", ["hard", "easy"], 14, 5000)
    lines.append(rate("Argoat hard vs easy: hard reaches Eden first", wins(runs, 0), len(runs), ">= 70%"))
    runs = play("Argo", ["hard", "easy"], 16, 6000)
    lines.append(
        rate("Argo hard vs easy: hard ends with more points", more_points(runs, 0), len(runs), ">= 70%")
    )
    lines.append(rate("Argo hard vs easy: hard wins the game", wins(runs, 0), len(runs), "(for reference)"))

    print()
    for line in lines:
        print(line)
    for level, target in (("hard", 2000), ("easy", 300)):
        values = decision_ms.get(level, [])
        print(
            f"{level} CPU ms per searched decision: p50 {percentile(values, 50):.0f}, "
            f"p95 {percentile(values, 95):.0f}, max {max(values, default=0):.0f} "
            f"over {len(values)} decisions (target p95 <= {target})"
        )
    print(f"total {time.perf_counter() - started:.0f} s wall with {args.jobs} job(s)")


if __name__ == "__main__":
    main()
