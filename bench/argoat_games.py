"""Benchmark: random full Argoat games per second on one core.

Run ``python bench/argoat_games.py [--games N] [--cap TURNS] [--seed S]``. Each game seats 2–5
players (cycling), uses both difficulties, and plays uniformly random legal actions of a random
decider (undo and cancel excepted: a random player taking moves back only loops) until someone
flips Eden or the turn cap is reached, which counts as a stalled game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.argoat import ArgoatGame

PLAYERS = ("p1", "p2", "p3", "p4", "p5")
DIFFICULTIES = ("adventurer", "journeyman")
SKIP = frozenset({"undo", "cancel"})


@dataclass
class Outcome:
    """How one random game went."""

    finished: bool
    turns: int
    actions: int


def play_one(seed: int, players: int, difficulty: str, cap: int) -> Outcome:
    """Play one random game; stop at the first win or after ``cap`` turns."""
    game = ArgoatGame.new(PLAYERS[:players], seed, {"difficulty": difficulty})
    rng = random.Random(seed)
    state = game.state
    actions = 0
    while True:
        prompt = game.prompt()
        if prompt is None:
            return Outcome(True, state.turn, actions)
        if state.turn > cap:
            return Outcome(False, cap, actions)
        if prompt.others:  # a trade on offer: the partner answers or the proposer withdraws
            deciders = prompt.deciders()
            player = deciders[0] if len(deciders) == 1 else rng.choice(deciders)
        else:
            player = prompt.player
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
        actions += 1


def main(argv: list[str] | None = None) -> None:
    """Play the games and print games per second (and what they looked like)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--cap", type=int, default=300, help="turn cap (a stalled game)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    outcomes: list[Outcome] = []
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.games):
        outcomes.append(play_one(args.seed + i, 2 + i % 4, DIFFICULTIES[i % 2], args.cap))
    wall = time.perf_counter() - start
    elapsed = time.process_time() - cpu_start  # CPU time of this one process: one core
    finished = [o for o in outcomes if o.finished]
    actions = sum(o.actions for o in outcomes)
    turns = sorted(o.turns for o in finished)
    median = turns[len(turns) // 2] if turns else 0
    print(
        f"{len(outcomes)} random games (2-5 players, turn cap {args.cap}): "
        f"{elapsed:.2f} s of CPU ({wall:.2f} s wall)"
    )
    print(
        f"  finished: {len(finished)}, stalled at the cap: {len(outcomes) - len(finished)}, "
        f"median turns of finished games: {median}"
    )
    print(f"  {actions / elapsed:,.0f} actions per second, {actions / len(outcomes):.0f} actions per game")
    print(f"{len(outcomes) / elapsed:.1f} games per second")


if __name__ == "__main__":
    main()
