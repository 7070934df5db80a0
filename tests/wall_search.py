"""A search in its own process for tests/test_thinking_wall.py: it imports everything, says
``ready``, waits for a line on stdin, then makes one ``hard`` Argo decision with the wall budget
given on the command line and prints its wall and CPU seconds as JSON."""

from __future__ import annotations

import json
import random
import sys
import time

from bot.ai import decide
from bot.engine.argo import ArgoGame


def main() -> None:
    budget = float(sys.argv[1])
    game = ArgoGame.new(("a", "b"), 4, {})
    rng = random.Random(4)
    for _ in range(20):  # into the game, where a decision has a few options
        player = game.prompt().player
        game.apply(player, rng.choice(game.legal_actions(player)))
    player = game.prompt().player
    decide(game, player, level="hard", seed=0, iterations=2)  # imports and tables, as a warm worker
    print("ready", flush=True)
    sys.stdin.readline()
    wall, cpu = time.perf_counter(), time.process_time()
    action, result = decide(game, player, level="hard", seed=1, budget_s=budget)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    legal = action in game.legal_actions(player)
    print(json.dumps({"wall": wall, "cpu": cpu, "legal": legal, "searched": result is not None}), flush=True)


if __name__ == "__main__":
    main()
