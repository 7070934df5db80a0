"""The Argoat map picture: a valid, bounded, deterministic PNG of the public view."""

from __future__ import annotations

import copy
import io
import json
import random
from typing import Any

import pytest
from PIL import Image

import render
from bot.engine.argoat import GAME
from render import argoat

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 300 * 1024
SKIP = frozenset({"undo", "cancel", "withdraw", "decline"})


def _options(difficulty: str | None = None) -> dict[str, Any]:
    options = {spec.name: spec.default for spec in GAME.option_specs}
    if difficulty is not None:
        options["difficulty"] = difficulty
    return options


def _late_view(seed: int = 3) -> dict[str, Any]:
    """A 5-player public view with every frontier placed, the game still running."""
    game = GAME.new(["1", "2", "3", "4", "5"], seed, _options())
    rng = random.Random(seed)
    last = None
    for _ in range(20000):
        prompt = game.prompt()
        if prompt is None:
            break
        view = game.view(None)
        if len(view["frontiers"]) == 20 and view["phase"] == "turn":
            last = view
            break
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
    assert last is not None, "random play did not fill the map"
    return last


@pytest.fixture(scope="module")
def late_view() -> dict[str, Any]:
    return _late_view()


@pytest.fixture(scope="module")
def early_view() -> dict[str, Any]:
    return GAME.new(["a", "b", "c"], 7, _options("journeyman")).view(None)


def _open(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    Image.open(io.BytesIO(png)).verify()
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.format == "PNG"
    return img


def test_late_game_map_is_a_small_png_of_sane_size(late_view: dict[str, Any]) -> None:
    png = argoat.render_board(late_view)
    img = _open(png)
    assert len(png) <= MAX_BYTES
    assert 1000 <= img.width <= 1800
    assert 700 <= img.height <= 1600
    b = late_view["bounds"]
    assert img.width >= (b["max_x"] - b["min_x"] + 1) * argoat.MIN_CELL
    assert img.height >= (b["max_y"] - b["min_y"] + 1) * argoat.CELL_H


def test_starting_map_is_a_png(early_view: dict[str, Any]) -> None:
    png = argoat.render_board(early_view)
    img = _open(png)
    assert len(png) <= MAX_BYTES
    assert 1000 <= img.width <= 1800 and 700 <= img.height <= 1600


def test_render_package_dispatches_to_argoat(early_view: dict[str, Any]) -> None:
    assert render.board_png(early_view) == argoat.render_board(early_view)


def test_same_view_gives_identical_bytes(late_view: dict[str, Any]) -> None:
    first = argoat.render_board(late_view)
    again = argoat.render_board(copy.deepcopy(late_view))
    from_json = argoat.render_board(json.loads(json.dumps(late_view)))
    assert first == again == from_json


def test_rendering_does_not_change_the_view(late_view: dict[str, Any]) -> None:
    before = json.dumps(late_view, sort_keys=True)
    argoat.render_board(late_view)
    assert json.dumps(late_view, sort_keys=True) == before


def test_a_different_view_gives_a_different_picture(late_view: dict[str, Any]) -> None:
    moved = copy.deepcopy(late_view)
    moved["players"][0]["emeralds"] += 1
    assert argoat.render_board(moved) != argoat.render_board(late_view)


def test_canvas_grows_with_a_long_map(late_view: dict[str, Any]) -> None:
    """Twenty frontiers in one row and the forests below still fit on the picture (the panels
    then go under the map)."""
    view = copy.deepcopy(late_view)
    for i, f in enumerate(view["frontiers"]):
        f["x"], f["y"], f["at"] = i - 10, 0, f"{i - 10},0"
    for i, f in enumerate(view["forests"]):
        f["x"], f["y"], f["at"] = i * 3 - 10, -1, f"{i * 3 - 10},-1"
        f["roads"] = ["N"]
    for p in view["players"]:
        p["x"], p["y"], p["at"] = 9, 0, "9,0"
    view["bleinas"] = ["-10,0", "9,0"]
    view["bounds"] = {"min_x": -10, "max_x": 9, "min_y": -1, "max_y": 0}
    img = _open(argoat.render_board(view))
    assert argoat.layout(view).cell_w == argoat.COMPACT_W
    assert img.width >= 20 * argoat.COMPACT_W > argoat.WIDTH
    assert img.height >= 2 * argoat.CELL_H + argoat.PLAYER_H
    assert not argoat.layout(view).side


def test_private_view_renders_like_the_public_one() -> None:
    """Even a player's own view (with Items and peeks) draws only the public part."""
    game = GAME.new(["a", "b", "c"], 11, _options())
    rng = random.Random(11)
    for _ in range(400):
        prompt = game.prompt()
        if prompt is None:
            break
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
    private = game.view("a")
    assert "you" in private
    assert argoat.render_board(private) == argoat.render_board(game.view(None))
