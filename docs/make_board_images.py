"""Draw the README's example boards with the bot's own renderer.

Plays a seeded game of each with random legal actions (cancel and undo avoided) to the middle
of a game, then writes ``render.board_png`` of the public view, marks of the last turn included:

    .venv/bin/python docs/make_board_images.py   # writes docs/board-argo.png, docs/board-argoat.png
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import render  # noqa: E402
from bot.engine.argo import ArgoGame  # noqa: E402
from bot.engine.argoat import ArgoatGame  # noqa: E402
from bot.engine.core import Game  # noqa: E402

AVOID = ("cancel", "undo", "withdraw", "decline")


def mid_game(game: Game, turns: int, seed: int) -> tuple[dict, dict]:
    """Play ``game`` with random legal actions until ``turns`` turns have begun (or it ends);
    returns the public view then and the one at the start of that last turn."""
    rng = random.Random(seed)
    previous = game.view(None)
    marker = game.turn_marker()
    started = 0
    while game.result() is None and started < turns:
        prompt = game.prompt()
        player = prompt.player if prompt.player is not None else prompt.others[0]
        actions = game.legal_actions(player)
        preferred = [a for a in actions if game.notation(a).split()[0] not in AVOID] or actions
        game.apply(player, rng.choice(preferred))
        if game.turn_marker() != marker:
            marker = game.turn_marker()
            started += 1
            if started < turns:
                previous = game.view(None)
    return game.view(None), previous


def main() -> None:
    games = [
        ("board-argo.png", ArgoGame.new(["p1", "p2", "p3"], 7, {"tm_wait": 0}), 16, 7),
        ("board-argoat.png", ArgoatGame.new(["p1", "p2", "p3", "p4"], 5, {}), 40, 5),
    ]
    for filename, game, turns, seed in games:
        view, previous = mid_game(game, turns, seed)
        png = render.board_png(view, previous)
        assert png, f"no renderer for {view['game']}"
        (ROOT / "docs" / filename).write_bytes(png)
        print(f"docs/{filename}: {view['game']} after turn {view.get('turn')}, {len(png)} bytes")


if __name__ == "__main__":
    main()
