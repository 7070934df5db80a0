"""The Argoat map for Discord: legible 550 px wide, a stable size, change marks, deck flags.

Maps come from seeded random games played through the engine contract (tests/render_argoat/
argoat_games.py); seed 110's map grows to 13 columns (cards and empty cells), wider than ten
full-size cards. The display width is Discord's inline width, 550 px (docs/boards.md).
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
from bot.engine.argoat.data import FRONTIERS
from render import argoat, memo
from render import argoat_sprites as sp
from render.argoat_palette import drawing_palette
from tests.render_argoat.argoat_games import decision_pairs, map_columns, public_views

DISCORD_WIDTH = 550
MIN_DISPLAY_PX = 9
WIDE_SEED = 110
"""A seeded game whose map (cards and the empty cells around them) reaches 13 columns."""


@pytest.fixture(scope="module")
def games() -> dict[int, list[dict[str, Any]]]:
    return {seed: public_views(seed) for seed in (4, 12, WIDE_SEED)}


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


def _drawn_columns(view: dict[str, Any]) -> int:
    """Columns of the map as drawn: the placed cards and the empty cells around them."""
    xs = [c[0] for c in argoat.layout(view).slots]
    b = view["bounds"]
    return max([b["max_x"], *xs]) - min([b["min_x"], *xs]) + 1


def test_every_map_of_a_game_is_legible_while_it_is_at_most_thirteen_columns_wide(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    """Promise: up to thirteen columns of cards and empty cells the picture is 1080 px wide
    (text 9.2 px at 550; more than ten columns are drawn with compact cards); only a wider map
    widens the picture (docs/boards.md). The seeded games include maps of 11 to 13 columns."""
    checked = wide = 0
    for views in games.values():
        for before, view in decision_pairs(views)[::3]:
            drawing = argoat.draw(view, before)
            assert min(drawing.fonts) >= sp.LABEL
            columns = _drawn_columns(view)
            if columns <= argoat.COMPACT_COLS:
                assert drawing.image.width == argoat.WIDTH, columns
                assert _displayed_px(drawing) >= MIN_DISPLAY_PX
                checked += 1
                wide += columns > 10
            else:
                assert drawing.image.width > argoat.WIDTH
    assert checked >= 100 and wide >= 30, (checked, wide)
    assert argoat.COMPACT_COLS >= 13


def test_a_map_switches_to_compact_cards_once_and_never_back(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    """The card width is decided from the placed cards (which only grow), so a game's map goes
    from full-size to compact cards at most once, before it needs more than ten columns, and
    the switch itself never changes the picture's size."""
    switched = 0
    for views in games.values():
        lays = [argoat.layout(v) for v in views]
        widths = [lay.cell_w for lay in lays]
        assert set(widths) <= {argoat.CELL_W, argoat.COMPACT_W}
        assert widths == sorted(widths, reverse=True)
        for view, lay in zip(views, lays, strict=True):
            if _drawn_columns(view) > 10:
                assert lay.cell_w == argoat.COMPACT_W
        for (a, b), (va, vb) in zip(itertools.pairwise(lays), itertools.pairwise(views), strict=True):
            if a.cell_w != b.cell_w:
                switched += 1
                same_map = map_columns(va) == map_columns(vb) and va["bounds"] == vb["bounds"]
                assert not same_map
    assert switched >= 1


def test_compact_cards_keep_names_coordinates_and_symbols_apart() -> None:
    """On a compact card every card name fits in at most three 18 px lines inside the card,
    below the corner icons, and the icons never cover the coordinate tag, whatever the cell."""
    w, h = argoat.COMPACT_W - argoat.GAP, argoat.CELL_H - argoat.GAP
    for name in {f.name for f in FRONTIERS}:
        lines = sp.card_lines(name, w)
        assert 1 <= len(lines) <= sp.NAME_MAX_LINES, name
        assert all(sp.text_width(line, sp.LABEL) <= w - 4 for line in lines), lines
        text = ""
        for line in lines:
            text = text[:-1] + line if text.endswith("-") else f"{text} {line}".strip()
        words = name.split()
        assert [word for word in words if word in text.split()] == text.split(), lines  # no word made up
        assert {word for word in words if word not in text.split()} <= sp.FILLERS, lines  # none lost
    for x, y in itertools.product(range(-12, 13), repeat=2):
        tag = sp.coord_tag(f"{x},{y}")
        tag_box = (sp.TAG_X, sp.TAG_X, sp.TAG_X + tag.width, sp.TAG_X + tag.height)
        for n in (1, 2):
            spots, plate_top = sp.card_icon_spots(w, tag.width, n)
            for ix, iy in spots:
                icon = (ix, iy, ix + sp.CARD_ICON, iy + sp.CARD_ICON)
                assert not _overlaps(icon, tag_box), (x, y, spots)
                assert ix >= 0 and icon[2] <= w and icon[3] < plate_top
            assert plate_top + sp.NAME_LINE * sp.NAME_MAX_LINES + 5 <= h


def test_compact_card_tokens_stay_on_their_card_and_show_their_letters() -> None:
    """Up to six tokens on a compact card sit in two rows of three, each on the card and
    overlapping the next by its rim only (the seat letter in its middle stays clear)."""
    cw = argoat.COMPACT_W - argoat.GAP
    size = argoat.AVATAR + 6
    for n in range(1, 8):
        pos = argoat._token_positions(n, size, argoat.AVATAR + 3, cw - 4, 111, 2)
        assert all(x >= 2 and x + size <= cw - 2 for x, _ in pos), (n, pos)
        steps = [b[0] - a[0] for a, b in itertools.pairwise(pos) if a[1] == b[1]]
        if n <= 6:
            assert len({y for _, y in pos}) == (1 if n <= 3 else 2)
            assert all(step >= size - 16 for step in steps), (n, steps)


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
    return x - 4, y - 4, x + lay.cell_w, y + argoat.CELL_H


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("seed", [12, WIDE_SEED])
def test_an_avatar_move_is_marked_where_it_happened_and_nowhere_else_on_the_map(
    games: dict[int, list[dict[str, Any]]], seed: int
) -> None:
    """Also on compact cards (seed 110, once its map is wide)."""
    views = games[seed]
    if seed == WIDE_SEED:
        views = [v for v in views if argoat.layout(v).cell_w == argoat.COMPACT_W]
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


def _names_on_cards(view: dict[str, Any], drawing: argoat.Drawing) -> list[tuple[str, bool]]:
    """(card name, whether its name plate is drawn exactly as on the bare card) for every card
    holding at most one row of pieces."""
    lay = argoat.layout(view)
    cw, chh = lay.card_w, argoat.CELL_H - argoat.GAP
    pieces: dict[tuple[int, int], int] = {}
    for p in view["players"]:
        pieces[(p["x"], p["y"])] = pieces.get((p["x"], p["y"]), 0) + 1
    for b in view.get("bleinas", []):
        cell = argoat._cell(b)
        pieces[cell] = pieces.get(cell, 0) + 1
    out = []
    for f in view["frontiers"]:
        cell = (f["x"], f["y"])
        if pieces.get(cell, 0) > argoat._per_row(pieces.get(cell, 0), cw - 4):
            continue
        tag = sp.coord_tag(f"{f['x']},{f['y']}")
        kind = "town" if f["key"] == "town" else "trail" if f["key"].startswith("trail") else "frontier"
        card = sp.frontier_card(
            f["name"], tuple(f["roads"]), bool(f["dragon"]), f.get("fragment"), kind, cw, chh, tag.width
        )
        box = sp.plate_box(f["name"], bool(f["dragon"]), f.get("fragment"), cw, tag.width)
        ox, oy = lay.origin(*cell)
        shown = drawing.image.crop((ox + box[0], oy + box[1], ox + box[2], oy + box[3]))
        plate = drawing_palette().quantize(card.crop(box).convert("RGB"))  # as drawn on the palette
        out.append((f["name"], ImageChops.difference(shown, plate).getbbox() is None))
    return out


def test_move_lines_and_avatars_never_cover_a_card_name(games: dict[int, list[dict[str, Any]]]) -> None:
    """A move line runs under the names it crosses ("Glittering Cave"), and a row of Avatars
    leaves the third line of a three-line name readable ("Forest of the Dark Dragon")."""
    checked = three_lines = 0
    for views in games.values():
        for before, view in decision_pairs(views)[::6]:
            lay = argoat.layout(view)
            for name, intact in _names_on_cards(view, argoat.draw(view, before)):
                assert intact, name
                checked += 1
                three_lines += len(sp.card_lines(name, lay.card_w)) == 3
    assert checked > 150 and three_lines > 0


def test_only_places_on_the_map_are_named_on_its_rulers(games: dict[int, list[dict[str, Any]]]) -> None:
    """The map keeps empty room to grow into; its rulers name only the columns and rows that
    hold a card or an empty place to explore."""
    for views in games.values():
        for view in views[::25]:
            lay = argoat.layout(view)
            drawn = {(f["x"], f["y"]) for f in (*view["frontiers"], *view["forests"])} | set(lay.slots)
            texts = argoat.draw(view).texts
            right = lay.map_x + lay.cols * lay.cell_w
            ruler = [(int(t), box) for t, box in texts if t.lstrip("-").isdigit()]
            columns = [n for n, box in ruler if box[3] <= lay.map_y and lay.map_x <= box[0] < right]
            bottom = lay.map_y + lay.rows * argoat.CELL_H
            rows = [n for n, box in ruler if box[2] <= lay.map_x and lay.map_y <= box[1] < bottom]
            assert set(columns) == {c[0] for c in drawn} and set(rows) == {c[1] for c in drawn}
