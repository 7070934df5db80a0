"""Benchmark: random full Argoat games, timed in CPU seconds on one core.

Run ``python bench/argoat_games.py [--games N] [--cap TURNS] [--seed S]``. Each game seats 2–5
players (cycling), alternates the difficulties, and plays uniformly random legal actions of a
random decider (undo and cancel excepted: a random player taking moves back only loops) until
someone flips Eden. A game still running after ``--cap`` turns is cut and reported apart: only
finished games count towards games per second. The default cap is high enough that random
games practically always finish (random play is slow to find Eden, not stuck).

``--compare DIR`` also times the engine of another checkout (e.g. ``git worktree add /tmp/base
<commit>``) on the same seeds: the two run alternately, ``--rounds`` times each, each in its own
process, and the medians are printed side by side. Different rules in the two checkouts give
different games from the same seeds, so compare actions per second first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("p1", "p2", "p3", "p4", "p5")
DIFFICULTIES = ("adventurer", "journeyman")
SKIP = frozenset({"undo", "cancel"})


@dataclass
class Outcome:
    """How one random game went."""

    finished: bool
    turns: int
    actions: int
    cpu: float


def play_one(game_class: type, seed: int, players: int, difficulty: str, cap: int) -> Outcome:
    """Play one random game; stop at the first win or after ``cap`` turns."""
    import random

    start = time.process_time()
    game = game_class.new(PLAYERS[:players], seed, {"difficulty": difficulty})
    rng = random.Random(seed)
    state = game.state
    actions = 0
    while True:
        prompt = game.prompt()
        if prompt is None:
            return Outcome(True, state.turn, actions, time.process_time() - start)
        if state.turn > cap:
            return Outcome(False, state.turn, actions, time.process_time() - start)
        if prompt.others:  # a trade on offer: the partner answers or the proposer withdraws
            deciders = prompt.deciders()
            player = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        else:
            player = prompt.player
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
        actions += 1


def run(root: Path, games: int, cap: int, seed: int) -> dict[str, float]:
    """Play the games with the engine of checkout ``root``; figures as a dict."""
    sys.path.insert(0, str(root))
    from bot.engine.argoat import ArgoatGame

    outcomes = [play_one(ArgoatGame, seed + i, 2 + i % 4, DIFFICULTIES[i % 2], cap) for i in range(games)]
    done = [o for o in outcomes if o.finished]
    cut = [o for o in outcomes if not o.finished]
    turns = sorted(o.turns for o in done)
    return {
        "games": games,
        "finished": len(done),
        "cut": len(cut),
        "finished_cpu": sum(o.cpu for o in done),
        "finished_actions": sum(o.actions for o in done),
        "cut_cpu": sum(o.cpu for o in cut),
        "cut_actions": sum(o.actions for o in cut),
        "median_turns": turns[len(turns) // 2] if turns else 0,
        "p90_turns": turns[int(len(turns) * 0.9)] if turns else 0,
        "max_turns": turns[-1] if turns else 0,
    }


def describe(figures: dict[str, float], cap: int) -> str:
    """The figures of one run in words."""
    f = figures
    lines = [
        f"{f['games']:.0f} random games (2-5 players, turn cap {cap}): "
        f"{f['finished']:.0f} finished, {f['cut']:.0f} cut at the cap",
        f"  finished: {f['finished_cpu']:.2f} s CPU, {f['finished_actions'] / max(1, f['finished']):.0f} "
        f"actions per game, turns median {f['median_turns']:.0f} / 90th percentile "
        f"{f['p90_turns']:.0f} / max {f['max_turns']:.0f}",
    ]
    if f["cut"]:
        lines.append(
            f"  cut at the cap: {f['cut_cpu']:.2f} s CPU, {f['cut_actions']:.0f} actions (not counted)"
        )
    lines.append(
        f"  {rate(f, 'actions'):,.0f} actions per second, {rate(f, 'games'):.1f} finished games per second"
    )
    return "\n".join(lines)


def rate(figures: dict[str, float], what: str) -> float:
    """Finished games, or actions of finished games, per CPU second."""
    cpu = figures["finished_cpu"]
    if not cpu:
        return 0.0
    return (figures["finished"] if what == "games" else figures["finished_actions"]) / cpu


def _child(root: Path, args: argparse.Namespace) -> dict[str, float]:
    command = [
        sys.executable,
        __file__,
        "--games",
        str(args.games),
        "--cap",
        str(args.cap),
        "--seed",
        str(args.seed),
        "--root",
        str(root),
        "--json",
    ]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def main(argv: list[str] | None = None) -> None:
    """Play the games and print the figures (and a comparison with another checkout)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--cap", type=int, default=5000, help="turn cap: a game still running is cut")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", type=Path, help="another checkout to time side by side")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each (with --compare)")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(run(args.root, args.games, args.cap, args.seed)))
        return
    if args.compare is None:
        print(describe(run(args.root, args.games, args.cap, args.seed), args.cap))
        return
    results: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    for _ in range(args.rounds):
        results["this"].append(_child(ROOT, args))
        results["other"].append(_child(args.compare.resolve(), args))
    for name, root in (("this", ROOT), ("other", args.compare.resolve())):
        runs = results[name]
        actions = [rate(r, "actions") for r in runs]
        games = [rate(r, "games") for r in runs]
        print(f"{root}:")
        print(describe(runs[0], args.cap))
        print(
            f"  over {len(runs)} runs: actions per second median {statistics.median(actions):,.0f} "
            f"(range {min(actions):,.0f}-{max(actions):,.0f}); finished games per second median "
            f"{statistics.median(games):.1f}"
        )
    ratio = statistics.median(rate(r, "actions") for r in results["this"]) / statistics.median(
        rate(r, "actions") for r in results["other"]
    )
    print(f"actions per second, this / other: {ratio:.2f}")


if __name__ == "__main__":
    main()
