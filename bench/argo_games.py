"""Benchmark: random full 4-player Argo games.

Run ``python bench/argo_games.py [games] [seed]``. Each decision picks a random legal action
(seeded), avoiding cancel and undo most of the time so that games end. Prints games per second
and the slowest single decision (legal_actions + apply).
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.argo import ArgoGame
from bot.engine.core import SYSTEM, TIMEOUT


def play(seed: int) -> tuple[float, int, str, bool]:
    """One random game: its slowest decision (s), decisions, end reason, Alien victory."""
    game = ArgoGame.new(["a", "b", "c", "d"], seed, {})
    rng = random.Random(seed)
    slowest = 0.0
    decisions = 0
    while game.result() is None:
        prompt = game.prompt()
        started = time.perf_counter()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            continue
        who = deciders[0] if rng.random() < 0.9 else rng.choice(deciders)
        options = game.legal_actions(who)
        plain = [a for a in options if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(plain if plain and rng.random() > 0.02 else options))
        slowest = max(slowest, time.perf_counter() - started)
        decisions += 1
    result = game.result()
    assert result is not None
    return slowest, decisions, game.st.end_reason, not result.winners


def main() -> None:
    """Play the games and print the figures."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    started = time.perf_counter()
    slowest = 0.0
    decisions = 0
    endings: Counter[str] = Counter()
    alien_wins = 0
    for seed in range(first, first + games):
        worst, count, reason, aliens = play(seed)
        slowest = max(slowest, worst)
        decisions += count
        endings[re.sub(r"<p:[^>]+> \(\w+\)", "a player", reason)] += 1
        alien_wins += aliens
    elapsed = time.perf_counter() - started
    print(f"{games} random 4-player games in {elapsed:.2f} s: {games / elapsed:.1f} games/s")
    print(f"{decisions / games:.0f} decisions per game; slowest decision {slowest * 1000:.1f} ms")
    print(f"Alien victories: {alien_wins}/{games}")
    for reason, count in endings.most_common():
        print(f"  {count:4d}  {reason}")


if __name__ == "__main__":
    main()
