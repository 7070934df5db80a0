"""The Argo board picture: a valid, bounded PNG that depends only on the public view."""

from __future__ import annotations

import copy
import io
import json
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from bot.engine.argo import GAME
from bot.engine.core import SYSTEM, TIMEOUT
from render import argo_paint
from render.argo import draw_board, render_board

MAX_BYTES = 300 * 1024


def _step(game: Any, rng: random.Random) -> None:
    prompt = game.prompt()
    deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
    if not deciders:
        game.apply(SYSTEM, TIMEOUT)
        return
    who = deciders[0]
    options = game.legal_actions(who)
    plain = [a for a in options if a["type"] not in ("undo", "cancel")]
    game.apply(who, rng.choice(plain or options))


def _game(seed: int, players: int = 4, steps: int = 0, options: dict[str, Any] | None = None) -> Any:
    game = GAME.new([str(i + 1) for i in range(players)], seed, options or {})
    rng = random.Random(seed)
    for _ in range(steps):
        if game.result() is not None:
            break
        _step(game, rng)
    return game


def _late_view(seed: int) -> dict[str, Any]:
    """The running game's view with the most tiles in a seeded random 4-player game."""
    game = _game(seed)
    rng = random.Random(seed)
    best = game.view(None)
    while game.result() is None:
        _step(game, rng)
        view = game.view(None)
        if not view["finished"] and len(view["tiles"]) >= len(best["tiles"]):
            best = view
    return best


@pytest.fixture(scope="module")
def views() -> dict[str, dict[str, Any]]:
    finished = _game(2, steps=10_000)
    assert finished.result() is not None
    return {
        "early": _game(1).view(None),
        "mid": _game(3, steps=60).view(None),
        "late": _late_view(7),
        "finished": finished.view(None),
        "two_players_hard": _game(4, players=2, steps=80, options={"difficulty": "hard"}).view(None),
    }


@pytest.mark.parametrize("name", ["early", "mid", "late", "finished", "two_players_hard"])
def test_png_is_valid_and_bounded(views: dict[str, dict[str, Any]], name: str) -> None:
    data = render_board(views[name])
    assert len(data) <= MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    assert 700 <= img.width <= 2400
    assert 500 <= img.height <= 2400


def test_late_board_is_wide_enough_for_preview_and_full(views: dict[str, dict[str, Any]]) -> None:
    view = views["late"]
    assert len(view["tiles"]) >= 30
    img = draw_board(view)
    assert 1000 <= img.width <= 1700


def test_same_view_same_bytes(views: dict[str, dict[str, Any]]) -> None:
    for view in views.values():
        first = render_board(view)
        assert render_board(view) == first
        assert render_board(json.loads(json.dumps(view))) == first


def test_render_does_not_change_the_view(views: dict[str, dict[str, Any]]) -> None:
    view = views["late"]
    before = copy.deepcopy(view)
    render_board(view)
    assert view == before


def test_board_png_dispatches_to_the_argo_renderer(views: dict[str, dict[str, Any]]) -> None:
    assert render.board_png(views["mid"]) == render_board(views["mid"])


def test_stack_order_never_shows() -> None:
    game = _game(5, steps=30)
    state = game.to_json()
    assert len(state["stack"]) > 2
    shuffled = dict(state, stack=list(reversed(state["stack"])))
    other = GAME.from_json(json.loads(json.dumps(shuffled)))
    assert render_board(other.view(None)) == render_board(game.view(None))


def _diff_box(a: dict[str, Any], b: dict[str, Any]) -> tuple[int, int, int, int] | None:
    ia, ib = draw_board(a).convert("RGB"), draw_board(b).convert("RGB")
    assert ia.size == ib.size
    return ImageChops.difference(ia, ib).getbbox()


def test_an_alien_is_drawn_on_its_tile(views: dict[str, dict[str, Any]]) -> None:
    view = views["early"]
    changed = copy.deepcopy(view)
    corridor = next(t for t in changed["tiles"] if t["coord"] == "N1")
    corridor["alien"] = True
    changed["aliens"] = [{"tile": corridor["id"], "cell": corridor["cell"], "coord": "N1"}]
    box = _diff_box(view, changed)
    assert box is not None
    assert box[2] - box[0] <= 136 and box[3] - box[1] <= 136


def test_scores_and_active_player_are_drawn(views: dict[str, dict[str, Any]]) -> None:
    view = views["mid"]
    scored = copy.deepcopy(view)
    scored["players"][1]["score"] += 3
    assert _diff_box(view, scored) is not None
    other = copy.deepcopy(view)
    other["active"], other["active_colour"] = other["players"][2]["id"], other["players"][2]["colour"]
    assert _diff_box(view, other) is not None


def test_canvas_grows_with_the_station(views: dict[str, dict[str, Any]]) -> None:
    view = views["early"]
    small = draw_board(view)
    far = copy.deepcopy(view)
    for t in far["tiles"]:
        if t["coord"] == "E1":
            t["cell"], t["coord"] = [14, 0], "E14"
        if t["coord"] == "S1":
            t["cell"], t["coord"] = [0, 12], "S12"
    big = draw_board(far)
    assert big.width > small.width and big.height > small.height
    # 16 columns and 14 rows of at least 84 px tiles fit (half a ring of build spots around).
    assert big.width >= 15 * 84 and big.height >= 13 * 84


def test_team_tokens_differ_in_shape_not_only_colour() -> None:
    masks = [argo_paint.token_sprite(c, "G", 24, argo_paint.PANEL)[1] for c in argo_paint.TEAM]
    for i, a in enumerate(masks):
        for b in masks[i + 1 :]:
            assert ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is not None


def test_palette_holds_every_named_colour() -> None:
    assert len(argo_paint.PALETTE) <= 256
    for colour in [*argo_paint.TEAM.values(), *argo_paint.FLOOR.values(), argo_paint.ALIEN]:
        assert argo_paint.idx(colour) < 256


def test_boards_from_cached_bands_are_the_pictures_drawn():
    """render_board encodes from bands of rows cached between boards (render/png_bands.py): every
    board of a game, one after another as the bot draws them, decodes to exactly the picture
    drawn (its pixels and palette as Pillow's own encode gives them), and bands were reused."""
    from render import png_bands
    from tests.render_argo.argo_games import public_views

    png_bands.clear()
    built, reused = png_bands.counts()
    views = public_views(7)
    for previous, view in zip([None, *views], views, strict=False):
        picture = draw_board(view, previous)
        pillow = io.BytesIO()
        picture.save(pillow, "PNG", compress_level=3)
        ours = Image.open(io.BytesIO(render_board(view, previous)))
        theirs = Image.open(io.BytesIO(pillow.getvalue()))
        assert (ours.mode, ours.size) == (theirs.mode, theirs.size) == ("P", picture.size)
        assert ours.tobytes() == theirs.tobytes() == picture.tobytes()
        assert ours.getpalette() == theirs.getpalette()
    assert png_bands.counts()[1] - reused > png_bands.counts()[0] - built  # mostly reused
