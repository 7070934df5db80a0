"""The Argo board for Discord: legible 550 px wide, a stable size, change marks, thread safety.

Boards come from seeded random games played through the engine contract (tests/render_argo/
argo_games.py). The display width is Discord's inline width, 550 px (docs/boards.md).
"""

from __future__ import annotations

import copy
import io
import itertools
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageFont

import render
from render import argo, memo
from render import argo_paint as P
from tests.render_argo.argo_games import decision_pairs, late_view, public_views

DISCORD_WIDTH = 550
MIN_DISPLAY_PX = 9


@pytest.fixture(scope="module")
def games() -> dict[int, list[dict[str, Any]]]:
    return {seed: public_views(seed) for seed in (7, 11)}


def _displayed_px(drawing: argo.Drawing) -> float:
    """The smallest text on the board once Discord shows it 550 px wide."""
    width = drawing.image.width
    return min(drawing.fonts) * min(1.0, DISCORD_WIDTH / width)


def test_late_board_text_is_legible_at_discord_width(games: dict[int, list[dict[str, Any]]]) -> None:
    for views in games.values():
        view = late_view(views)
        assert len(view["tiles"]) >= 25
        drawing = argo.draw(view)
        assert min(drawing.fonts) >= P.LABEL
        assert _displayed_px(drawing) >= MIN_DISPLAY_PX


def test_every_board_of_a_game_is_legible(games: dict[int, list[dict[str, Any]]]) -> None:
    """Every board of two whole games, marks included (each against the previous decision)."""
    for views in games.values():
        for before, view in decision_pairs(views):
            drawing = argo.draw(view, before)
            assert _displayed_px(drawing) >= MIN_DISPLAY_PX, (drawing.image.size, sorted(drawing.fonts))


def test_no_font_under_the_label_size_is_ever_loaded(
    games: dict[int, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """From empty caches, every font the renderer loads (for text drawn directly or baked into
    a sprite) is at least 18 px: the recorded sizes above are not the whole story otherwise."""
    loaded: list[int] = []
    real = ImageFont.load_default

    def spy(size: float | None = None) -> Any:
        loaded.append(int(size or 0))
        return real(size)

    monkeypatch.setattr(ImageFont, "load_default", spy)
    memo.clear_all()
    try:
        views = games[7]
        before, view = decision_pairs(views)[-1]
        argo.render_board(view, before)
        argo.render_board(views[0])
    finally:
        memo.clear_all()
    assert loaded and min(loaded) >= P.LABEL


def test_board_size_is_stable_over_a_whole_game(games: dict[int, list[dict[str, Any]]]) -> None:
    """Promise: the width never changes while the station is at most 11 tiles wide, and a whole
    game shows at most 6 different sizes (the height grows two rows of tiles at a time)."""
    for views in games.values():
        sizes = [(lay.width, lay.height) for lay in map(argo.layout, views)]
        widest = max(v["bounds"]["max_x"] - v["bounds"]["min_x"] + 1 for v in views)
        assert widest <= 11
        assert {w for w, _ in sizes} == {argo.WIDTH}
        changes = sum(1 for a, b in itertools.pairwise(sizes) if a != b)
        assert len(set(sizes)) <= 6 and changes <= 6, sorted(set(sizes))
        # the layout is the size of the picture actually drawn
        assert argo.draw_board(views[-1]).size == sizes[-1]


def test_no_previous_and_an_unchanged_previous_draw_no_marks(games: dict[int, list[dict[str, Any]]]) -> None:
    view = late_view(games[7])
    plain = argo.render_board(view)
    assert argo.render_board(view, view) == plain
    assert argo.render_board(view, copy.deepcopy(view)) == plain
    assert argo.render_board(view, json.loads(json.dumps(view))) == plain
    assert not argo.draw(view, copy.deepcopy(view)).marked


def _rgb(img: Image.Image) -> Image.Image:
    return img.convert("RGB")


def _cell_box(lay: argo.Layout, cell: tuple[int, int]) -> tuple[int, int, int, int]:
    x, y = lay.cell_box(*cell)
    return x, y, x + argo.CELL, y + argo.CELL


def _segment_box(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    ax, ay = (a[0] + a[2]) // 2, (a[1] + a[3]) // 2
    bx, by = (b[0] + b[2]) // 2, (b[1] + b[3]) // 2
    return (
        min(ax, bx) - argo.CELL // 2,
        min(ay, by) - argo.CELL // 2,
        max(ax, bx) + argo.CELL // 2,
        max(ay, by) + argo.CELL // 2,
    )


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _moves(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Astronauts that went from one station cell to another, read straight from the views."""
    old = {a["id"]: a for a in before["astronauts"]}
    out = []
    for a in after["astronauts"]:
        b = old[a["id"]]
        if a["status"] == b["status"] == "station" and a["cell"] != b["cell"]:
            out.append((tuple(b["cell"]), tuple(a["cell"])))
    return out


def test_a_move_is_marked_where_it_happened_and_nowhere_else_on_the_station(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    views = games[7]
    checked = 0
    for before, after in itertools.pairwise(views):
        moves = _moves(before, after)
        same_tiles = {t["id"]: (t["cell"], t["rotation"]) for t in before["tiles"]} == {
            t["id"]: (t["cell"], t["rotation"]) for t in after["tiles"]
        }
        aliens_same = before["aliens"] == after["aliens"]
        if len(moves) != 1 or not same_tiles or not aliens_same:
            continue
        lay = argo.layout(after)
        plain = _rgb(argo.draw_board(after))
        marked = _rgb(argo.draw_board(after, before))
        diff = ImageChops.difference(plain, marked)
        frm, to = moves[0]
        for cell in (frm, to):
            assert diff.crop(_cell_box(lay, cell)).getbbox() is not None, cell
        trail = _segment_box(_cell_box(lay, frm), _cell_box(lay, to))
        for t in after["tiles"]:
            box = _cell_box(lay, tuple(t["cell"]))
            if tuple(t["cell"]) in (frm, to) or _overlaps(box, trail):
                continue
            assert diff.crop(box).getbbox() is None, t["coord"]
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3


def test_a_new_tile_is_framed_in_white(games: dict[int, list[dict[str, Any]]]) -> None:
    views = games[11]
    checked = 0
    for before, after in itertools.pairwise(views):
        new = {t["id"] for t in after["tiles"]} - {t["id"] for t in before["tiles"]}
        if len(new) != 1:
            continue
        tile = next(t for t in after["tiles"] if t["id"] in new)
        x0, y0, x1, y1 = _cell_box(argo.layout(after), tuple(tile["cell"]))
        marked = _rgb(argo.draw_board(after, before))
        plain = _rgb(argo.draw_board(after))
        edge = [(x, y0 + 2) for x in range(x0 + 4, x1 - 4, 7)] + [
            (x0 + 2, y) for y in range(y0 + 4, y1 - 4, 7)
        ]
        assert all(marked.getpixel(p) == P.HILITE for p in edge)
        assert not all(plain.getpixel(p) == P.HILITE for p in edge)
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3


def test_marks_name_no_secret() -> None:
    """The Module stack's order is Argo's only secret; two games differing only in it draw the
    same marked boards."""
    views = public_views(5, players=3)
    before, after = decision_pairs(views)[3]
    from bot.engine.argo import GAME

    game = GAME.new(["1", "2", "3"], 5, {})
    state = game.to_json()
    twin = GAME.from_json(json.loads(json.dumps(dict(state, stack=list(reversed(state["stack"]))))))
    assert render.board_png(twin.view(None), before) == render.board_png(game.view(None), before)
    assert argo.render_board(after, before) == render.board_png(after, before)


def test_boards_drawn_in_threads_match_boards_drawn_one_by_one(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    pairs = decision_pairs(games[11])[::6][:8]
    memo.clear_all()
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda pair: argo.render_board(pair[1], pair[0]), pairs))
    serial = [argo.render_board(after, before) for before, after in pairs]
    assert threaded == serial


def test_warm_up_builds_what_a_real_board_needs(games: dict[int, list[dict[str, Any]]]) -> None:
    """After ``render.warm_up()`` a real game's boards need few new sprites (labels mostly)."""
    memo.clear_all()
    start = memo.builds()
    argo.render_board(games[7][0])
    cold = memo.builds() - start
    memo.clear_all()
    render.warm_up()
    start = memo.builds()
    argo.render_board(games[7][0])
    warm = memo.builds() - start
    assert cold >= 100
    assert warm <= cold // 4, (cold, warm)


def test_board_png_and_board_images_dispatch_with_previous(games: dict[int, list[dict[str, Any]]]) -> None:
    before, after = decision_pairs(games[7])[5]
    png = render.board_png(after, before)
    assert png == argo.render_board(after, before)
    assert png != render.board_png(after)
    assert render.board_images(after, before) == [("board.png", png)]
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.mode == "P"


def _transitions(views: list[dict[str, Any]], test: Any) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(a, b) for a, b in itertools.pairwise(views) if test(a, b)]


def _box_differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def test_deaths_are_marked_in_the_player_rows_and_on_the_alien_track(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    def died(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
        before = {x["id"]: x["status"] for x in a["astronauts"]}
        return {x["id"] for x in b["astronauts"] if x["status"] == "dead" and before[x["id"]] != "dead"}

    pairs = _transitions(games[7], lambda a, b: bool(died(a, b)))
    assert len(pairs) >= 3
    for before, after in pairs[:3]:
        marked, plain = argo.draw(after, before), argo.draw(after)
        spots = argo._Spots()
        lay = argo.layout(after)
        cv = argo._Canvas(lay.width, lay.height, P.SPACE)
        argo._draw_panel(cv, after, lay, spots)
        for aid in died(before, after):
            assert _box_differs(marked.image, plain.image, spots.panel_tokens[aid])
        slot = next(
            i for i, s in enumerate(after["alien_track"]["slots"]) if s["astronaut"] in died(before, after)
        )
        assert _box_differs(marked.image, plain.image, spots.slots[slot])


def test_a_launched_pod_leaves_a_dashed_frame_and_is_framed_in_the_panel() -> None:
    views = public_views(11)
    pairs = _transitions(views, lambda a, b: len(b["pods"]["launched"]) > len(a["pods"]["launched"]))
    assert pairs
    for before, after in pairs:
        pod = after["pods"]["launched"][-1]["pod"]
        was = next(t for t in before["tiles"] if t["id"] == pod["id"])
        lay = argo.layout(after)
        marked, plain = argo.draw_board(after, before), argo.draw_board(after)
        assert _box_differs(marked, plain, _cell_box(lay, tuple(was["cell"])))
        spots = argo._Spots()
        argo._draw_panel(argo._Canvas(lay.width, lay.height, P.SPACE), after, lay, spots)
        assert _box_differs(marked, plain, spots.launched[pod["id"]])


def test_a_tile_moved_by_the_control_room_is_framed_on_its_new_cell() -> None:
    views = public_views(1)

    def moved(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
        old = {t["id"]: t for t in a["tiles"]}
        return [
            t
            for t in b["tiles"]
            if t["id"] in old
            and (t["cell"], t["rotation"]) != (old[t["id"]]["cell"], old[t["id"]]["rotation"])
        ]

    pairs = _transitions(views, lambda a, b: bool(moved(a, b)))
    assert pairs
    for before, after in pairs:
        lay = argo.layout(after)
        marked = _rgb(argo.draw_board(after, before))
        for tile in moved(before, after):
            x0, y0, x1, _ = _cell_box(lay, tuple(tile["cell"]))
            assert all(marked.getpixel((x, y0 + 2)) == P.HILITE for x in range(x0 + 4, x1 - 4, 9))


def test_the_build_display_names_tiles_as_printed_not_by_notation(
    games: dict[int, list[dict[str, Any]]],
) -> None:
    """Face-up Modules and the next Escape Pod are named as printed ("Corridor", "Control Room",
    "Escape Pod 1/2"), never by their notation tokens ("Corridor-end-alien", "Pod-2/3")."""
    tokens = {t["token"] for views in games.values() for v in views for t in v.get("display", [])}
    tokens |= {
        t["token"]
        for views in games.values()
        for v in views
        for t in [(v.get("pods") or {}).get("next") or {}]
        if t
    }
    assert any("-" in token for token in tokens)  # hyphenated tokens were on offer
    shown: set[str] = set()
    for views in games.values():
        for view in views[::3]:
            texts = [text for text, _ in argo.draw(view).texts]
            shown.update(texts)
            hyphenated = [t for t in texts if (t in tokens and "-" in t) or "Pod-" in t or "-alien" in t]
            assert not hyphenated, hyphenated
    assert "Corridor" in shown and any(t.startswith("Next: Escape Pod ") for t in shown)


def test_a_changed_score_is_framed_clear_of_its_pts(games: dict[int, list[dict[str, Any]]]) -> None:
    """The frame of a changed score leaves "pts" beside it readable ("6 ots" before)."""
    framed = 0
    for views in games.values():
        for before, view in decision_pairs(views):
            if [p["score"] for p in before["players"]] == [p["score"] for p in view["players"]]:
                continue
            marked, plain = argo.draw(view, before), argo.draw(view)
            boxes = [box for text, box in marked.texts if text == "pts"]
            assert boxes == [box for text, box in plain.texts if text == "pts"]
            for box in boxes:
                assert not _box_differs(_rgb(marked.image), _rgb(plain.image), box), box
            framed += 1
    assert framed >= 5


def _build_spots(view: dict[str, Any]) -> set[tuple[int, int]]:
    taken = {tuple(t["cell"]) for t in view["tiles"]}
    facing = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    return {
        (t["cell"][0] + dx, t["cell"][1] + dy)
        for t in view["tiles"]
        for side, (dx, dy) in facing.items()
        if t["doors"].get(side) and (t["cell"][0] + dx, t["cell"][1] + dy) not in taken
    }


def test_only_places_of_the_station_are_named_on_its_rulers(games: dict[int, list[dict[str, Any]]]) -> None:
    """The frame keeps empty room to grow into; its rulers name only the rows and columns that
    hold a tile or a place to build (no "S6", "S7" under a station ending at S5)."""
    for views in games.values():
        for view in views[::40]:
            lay = argo.layout(view)
            places = {tuple(t["cell"]) for t in view["tiles"]} | _build_spots(view)
            texts = argo.draw(view).texts
            columns = {t for t, box in texts if box[3] <= lay.oy and t[:1] in "EW" and t[1:].isdigit()}
            rows = {t for t, box in texts if box[2] <= lay.ox and t[:1] in "NS" and t[1:].isdigit()}
            want_cols = {f"E{x}" if x > 0 else f"W{-x}" for x, _ in places if x}
            want_rows = {f"S{y}" if y > 0 else f"N{-y}" for _, y in places if y}
            assert columns == want_cols and rows == want_rows


def test_no_alien_or_astronaut_hides_the_end_of_a_cell_name(games: dict[int, list[dict[str, Any]]]) -> None:
    """Every tile's cell name is drawn whole, on top of what stands on the tile ("N1E7", not
    "N1E" with an Alien over the 7)."""
    crowded = 0
    for views in games.values():
        for view in views[::10]:
            drawing = argo.draw(view)
            image = _rgb(drawing.image)
            lay = argo.layout(view)
            for t in view["tiles"]:
                name = str(t["coord"])
                floor = P.FLOOR.get(t["kind"], P.CORR_HULL)
                label = _rgb(P.text_sprite(name, argo.F, P.ink_on(floor), floor, True))
                x0, y0, x1, y1 = _cell_box(lay, tuple(t["cell"]))
                here = [
                    b for text, b in drawing.texts if text == name and x0 <= b[0] < x1 and y0 <= b[1] < y1
                ]
                assert len(here) == 1, (name, here)
                box = here[0]
                shown = image.crop(box)
                assert ImageChops.difference(shown, label).getbbox() is None, name
                crowded += bool(t.get("alien") or t.get("occupants"))
    assert crowded > 20
