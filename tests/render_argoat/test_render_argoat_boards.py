"""The Argoat map for Discord: legible 550 px wide, a stable size, change marks, deck flags.

Maps come from seeded random games played through the engine contract (tests/render_argoat/
argoat_games.py). The display width is Discord's inline width, 550 px (docs/boards.md).
"""

from __future__ import annotations

import copy
import itertools
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import ImageChops, ImageFont

import render
from render import argoat, memo
from render import argoat_sprites as sp
from tests.render_argoat.argoat_games import decision_pairs, map_columns, public_views

DISCORD_WIDTH = 550
MIN_DISPLAY_PX = 9


@pytest.fixture(scope="module")
def games() -> dict[int, list[dict[str, Any]]]:
    return {seed: public_views(seed) for seed in (4, 12)}


def _displayed_px(drawing: argoat.Drawing) -> float:
    return min(drawing.fonts) * min(1.0, DISCORD_WIDTH / drawing.image.width)


def _late(views: list[dict[str, Any]]) -> dict[str, Any]:
    full = [v for v in views if len(v["frontiers"]) == 20 and not v["finished"]]
    assert full, "random play did not fill the map"
    return full[len(full) // 2]


def test_late_map_text_is_legible_at_discord_width(games: dict[int, list[dict[str, Any]]]) -> None:
    for views in games.values():
        drawing = argoat.draw(_late(views))
        assert min(drawing.fonts) >= sp.LABEL
        assert _displayed_px(drawing) >= MIN_DISPLAY_PX


def test_every_map_of_a_game_is_legible_while_it_is_at_most_ten_columns_wide(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    """Promise: up to ten columns of cards the picture is 1080 px wide (text 9.2 px at 550);
    a wider map widens the picture and the text shrinks with it (docs/boards.md)."""
    checked = 0
    for views in games.values():
        for before, view in decision_pairs(views)[::3]:
            drawing = argoat.draw(view, before)
            if argoat.layout(view).cols <= 10 and map_columns(view) <= 10:
                assert drawing.image.width == argoat.WIDTH
                assert _displayed_px(drawing) >= MIN_DISPLAY_PX
                checked += 1
            else:
                assert min(drawing.fonts) >= sp.LABEL
    assert checked >= 100


def test_no_font_under_the_label_size_is_ever_loaded(
    games: dict[int, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded: list[int] = []
    real = ImageFont.load_default

    def spy(size: float | None = None) -> Any:
        loaded.append(int(size or 0))
        return real(size)

    monkeypatch.setattr(ImageFont, "load_default", spy)
    memo.clear_all()
    try:
        before, view = decision_pairs(games[4])[-5]
        argoat.render_board(view, before)
        argoat.render_board(games[4][0])
    finally:
        memo.clear_all()
    assert loaded and min(loaded) >= sp.LABEL


def test_map_size_is_stable_over_a_whole_game(games: dict[int, list[dict[str, Any]]]) -> None:
    """Promise: a whole game shows at most 5 different sizes (the frame grows two cards at a
    time and the panels keep room for what comes and goes)."""
    for views in games.values():
        sizes = [(lay.width, lay.height) for lay in map(argoat.layout, views)]
        changes = sum(1 for a, b in itertools.pairwise(sizes) if a != b)
        assert len(set(sizes)) <= 5 and changes <= 5, sorted(set(sizes))
        assert argoat.draw_board(views[-1]).size == sizes[-1]


def test_no_previous_and_an_unchanged_previous_draw_no_marks(games: dict[int, list[dict[str, Any]]]) -> None:
    view = _late(games[4])
    plain = argoat.render_board(view)
    assert argoat.render_board(view, view) == plain
    assert argoat.render_board(view, copy.deepcopy(view)) == plain
    assert argoat.render_board(view, json.loads(json.dumps(view))) == plain


def _card_box(lay: argoat.Layout, cell: tuple[int, int]) -> tuple[int, int, int, int]:
    x, y = lay.origin(*cell)
    return x - 4, y - 4, x + argoat.CELL_W, y + argoat.CELL_H


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_an_avatar_move_is_marked_where_it_happened_and_nowhere_else_on_the_map(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    views = games[12]
    checked = 0
    for before, after in itertools.pairwise(views):
        old = {p["id"]: (p["x"], p["y"]) for p in before["players"]}
        moved = [
            (old[p["id"]], (p["x"], p["y"])) for p in after["players"] if old[p["id"]] != (p["x"], p["y"])
        ]
        same_map = (before["frontiers"], before["forests"], before["bleinas"]) == (
            after["frontiers"],
            after["forests"],
            after["bleinas"],
        )
        if len(moved) != 1 or not same_map or argoat.layout(before).slots != argoat.layout(after).slots:
            continue
        lay = argoat.layout(after)
        diff = ImageChops.difference(argoat.draw_board(after), argoat.draw_board(after, before))
        frm, to = moved[0]
        a, b = _card_box(lay, frm), _card_box(lay, to)
        for box in (a, b):
            assert diff.crop(box).getbbox() is not None
        trail = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        for f in after["frontiers"] + after["forests"]:
            box = _card_box(lay, (f["x"], f["y"]))
            if not _overlaps(box, trail):
                assert diff.crop(box).getbbox() is None, f["at"]
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3


def test_panel_changes_are_framed(games: dict[int, list[dict[str, Any]]]) -> None:
    """An Emerald change shows on the player's panel (a white frame and the difference), and a
    Fragment won is framed on it; nothing changes on the panels of the others."""
    views = games[4]
    checked = panels = 0
    for before, after in itertools.pairwise(views):
        gained = [
            p
            for p, q in zip(before["players"], after["players"], strict=True)
            if q["emeralds"] != p["emeralds"]
        ]
        if len(gained) != 1:
            continue
        marked = argoat.draw(after, before)
        assert marked.marked
        plain = argoat.draw_board(after)
        diff = ImageChops.difference(plain, marked.image)
        lay = argoat.layout(after)
        column = lay.columns[0] if lay.side else None
        if column is not None:
            index = [p["id"] for p in after["players"]].index(gained[0]["id"])
            for i in range(len(after["players"])):
                top = lay.panel_y + i * (argoat.PLAYER_H + argoat.BLOCK_GAP)
                region = (lay.panel_x, top, lay.panel_x + argoat.PANEL_W, top + argoat.PLAYER_H)
                changed = diff.crop(region).getbbox() is not None
                others = after["players"][i]["fragments"] != before["players"][i]["fragments"] or (
                    after["players"][i]["items"] != before["players"][i]["items"]
                )
                assert changed == (i == index or others)
            panels += 1
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3 and panels >= 3


def test_decks_show_whether_they_are_empty_never_their_size(games: dict[int, list[dict[str, Any]]]) -> None:
    """Rule Q6: the picture shows a card back or "empty" for each deck. Views with the older
    ``decks`` counts and views with ``decks_empty`` flags draw the same picture, and the number
    of cards left never changes it."""
    view = copy.deepcopy(_late(games[4]))
    flags = {k: argoat.deck_empty(view, k) for k in ("discovery", "supply", "darkness")}
    with_flags = dict(view, decks_empty=flags)
    with_flags.pop("decks", None)
    counts = dict(view, decks={k: 0 if empty else 7 for k, empty in flags.items()})
    counts.pop("decks_empty", None)
    other_counts = dict(counts, decks={k: 0 if empty else 2 for k, empty in flags.items()})
    png = argoat.render_board(with_flags)
    assert argoat.render_board(counts) == png
    assert argoat.render_board(other_counts) == png
    flipped = dict(with_flags, decks_empty=dict(flags, supply=not flags["supply"]))
    assert argoat.render_board(flipped) != png


def test_boards_drawn_in_threads_match_boards_drawn_one_by_one(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    pairs = decision_pairs(games[12])[::20][:8]
    memo.clear_all()
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda pair: argoat.render_board(pair[1], pair[0]), pairs))
    serial = [argoat.render_board(after, before) for before, after in pairs]
    assert threaded == serial


def test_board_png_passes_previous_on(games: dict[int, list[dict[str, Any]]]) -> None:
    before, after = decision_pairs(games[4])[10]
    png = render.board_png(after, before)
    assert png == argoat.render_board(after, before)
    assert render.board_images(after, before) == [("board.png", png)]
