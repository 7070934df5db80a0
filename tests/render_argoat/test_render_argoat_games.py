"""Maps from random legal games (2-5 players, both difficulties) render without error."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.engine.argoat import GAME
from render import argoat

SKIP = frozenset({"undo", "cancel", "withdraw", "decline"})
CASES = [
    (n, difficulty, 100 + 10 * n + i)
    for i, difficulty in enumerate(("journeyman", "adventurer"))
    for n in (2, 3, 4, 5)
]


def _snapshots(players: int, difficulty: str, seed: int) -> list[dict[str, Any]]:
    """Public views along a random game: the first of each phase, and one every 150 actions."""
    ids = [f"p{i}" for i in range(players)]
    options = {spec.name: spec.default for spec in GAME.option_specs}
    options["difficulty"] = difficulty
    game = GAME.new(ids, seed, options)
    rng = random.Random(seed)
    views: list[dict[str, Any]] = []
    seen: set[str] = set()
    for step in range(4000):
        view = game.view(None)
        if view["phase"] not in seen or step % 150 == 0:
            seen.add(view["phase"])
            views.append(view)
        prompt = game.prompt()
        if prompt is None:
            break
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        if rng.random() < 0.03:
            choices = legal  # now and then take a step back
        game.apply(player, rng.choice(choices))
    views.append(game.view(None))
    return views


@pytest.mark.parametrize(("players", "difficulty", "seed"), CASES)
def test_random_game_maps_render(players: int, difficulty: str, seed: int) -> None:
    views = _snapshots(players, difficulty, seed)
    for view in views:
        png = argoat.render_board(view)
        assert len(png) <= 300 * 1024
        img = Image.open(io.BytesIO(png))
        img.load()
        b = view["bounds"]
        assert img.width >= (b["max_x"] - b["min_x"] + 1) * argoat.MIN_CELL
        assert img.height >= (b["max_y"] - b["min_y"] + 1) * argoat.CELL_H
        assert img.width <= 4000 and img.height <= 4000
    assert len({v["phase"] for v in views}) >= 3


@pytest.mark.parametrize("seed", [5, 6])
def test_highlighted_cells_are_the_legal_placements(seed: int) -> None:
    """While a card is being placed, the cells drawn in gold are exactly the cells that
    `place x,y` accepts (the view's `placement_cells`), and the drawn card is shown."""
    options = {spec.name: spec.default for spec in GAME.option_specs}
    game = GAME.new(["a", "b", "c", "d"], seed, options)
    rng = random.Random(seed)
    checked = set()
    for _ in range(3000):
        prompt = game.prompt()
        if prompt is None:
            break
        view = game.view(None)
        gold = argoat._placement_cells(view)
        if view["phase"] in ("place_frontier", "place_forest"):
            legal = {
                tuple(int(v) for v in a["at"].split(","))
                for a in game.legal_actions(prompt.player)
                if a["type"] == "place"
            }
            assert gold == legal
            assert legal <= set(argoat._Layout(view).slots)  # every legal cell is drawn
            if view["phase"] == "place_frontier":
                card = argoat._drawn_card(view)
                assert card is not None and card[0] == view["drawn_card"]["name"]
            checked.add(view["phase"])
        else:
            assert gold == set()
        player = rng.choice(prompt.deciders())
        legal_actions = game.legal_actions(player)
        choices = [a for a in legal_actions if a["type"] not in SKIP] or legal_actions
        game.apply(player, rng.choice(choices))
    assert checked == {"place_frontier", "place_forest"}
