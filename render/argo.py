"""The Argo board picture: the public view (docs/argo-view.md) drawn as a PNG for Discord.

Discord shows an image attachment at most 550 px wide (less on a phone), so the picture is
1080 px wide and every text on it is at least 18 px: 9 px or more once shown 550 px wide
(docs/boards.md). The station is drawn on its grid with the cell names of the notation
(docs/argo-notation.md) on every tile and every empty cell where a tile could go; next to it
(or under it, once the station is too wide) the players with their Astronauts, the Alien
track, the face-up Modules, the launched Pods and a legend. On top: the turn and whose it is.

Given ``previous`` (an earlier public view of the same game) the changes since then are marked
in white with a black edge (docs/boards.md). Only public views are read. The board is composed
in palette mode from cached sprites (render/argo_paint.py) and saved as one palette PNG.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from render import argo_paint as P
from render.argo_marks import Changes, changes
from render.argo_paint import RGB
from render.png_bands import png_bytes

WIDTH = 1080
"""Width of the picture (wider only for a station of more than 11 columns of tiles)."""
CELL = 80
RING = 54
"""How much of the ring of empty cells around the station is shown (enough for a cell name)."""
MARGIN = 12
HEADER_H = 44
ROW_LABEL_W = 38
COL_LABEL_H = 26
PANEL_W = 410
COLUMN_GAP = 12
SCORE_FRAME_PAD = 5
"""How far the frame of a changed score reaches beyond the number."""
BLOCK_GAP = 6
F = P.LABEL
"""The size of every text on the board (18 px; headings are larger)."""
STEP = 2
"""The station's frame grows by this many cells at a time, so the picture keeps its size."""
ROLE_ORDER = ("Grunt", "Robot", "Explorer", "Pilot", "Chief")
MODULE_NAMES = {
    "lab": "Lab",
    "control_room": "Control Room",
    "jump_room": "Jump Room",
    "time_machine": "Time Machine",
    "laser": "Laser",
    "infirmary": "Infirmary",
    "warehouse": "Warehouse",
    "security_center": "Security Center",
    "core_room": "Core Room",
    "safe_room": "Safe Room",
    "teleporter": "Teleporter",
}
PHASE_NAME = {"alien": "Alien phase", "build": "Building phase", "actions": "Actions", "ended": "Game over"}
COMPRESS_LEVEL = 3
_FACING = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


# --------------------------------------------------------------------------------------------
# Canvas


class _Canvas:
    """A palette image with pasting helpers; it records every font size it draws text at."""

    def __init__(self, w: int, h: int, bg: RGB) -> None:
        self.img = Image.new("P", (w, h), P.idx(bg))
        self.img.putpalette(P.FLAT_PALETTE)
        self.draw = ImageDraw.Draw(self.img)
        self.fonts: set[int] = set()
        self.texts: list[tuple[str, tuple[int, int, int, int]]] = []

    def rect(
        self, box: tuple[int, int, int, int], fill: RGB | None, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.draw.rectangle(
            box,
            fill=None if fill is None else P.idx(fill),
            outline=None if outline is None else P.idx(outline),
            width=width,
        )

    def line(self, xy: tuple[int, int, int, int], fill: RGB, width: int = 1) -> None:
        self.draw.line(xy, fill=P.idx(fill), width=width)

    def text(
        self, x: int, y: int, text: str, size: int, fg: RGB, bg: RGB, bold: bool = False, align: str = "left"
    ) -> int:
        """Paste ``text`` with its top at ``y``; ``x`` is its left, centre or right edge."""
        spr = P.text_sprite(text, size, fg, bg, bold)
        if align == "center":
            x -= spr.width // 2
        elif align == "right":
            x -= spr.width
        self.img.paste(spr, (x, y))
        self.fonts.add(size)
        self.texts.append((text, (x, y, x + spr.width, y + spr.height)))
        return spr.width

    def token(self, colour: str, letter: str, size: int, bg: RGB, x: int, y: int, **kw: bool) -> None:
        """An Astronaut token (its letter, if any, is text too)."""
        spr, mask = P.token_sprite(colour, letter, size, bg, **kw)
        self.img.paste(spr, (x, y), mask)
        if letter:
            self.fonts.add(P.token_letter_px(size))

    def sprite(self, spr: tuple[Image.Image, Image.Image] | Image.Image, x: int, y: int) -> None:
        if isinstance(spr, tuple):
            self.img.paste(spr[0], (x, y), spr[1])
        else:
            self.img.paste(spr, (x, y))


@dataclass
class _Spots:
    """Where things were drawn, for the change marks: boxes as (x0, y0, x1, y1)."""

    astronauts: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    panel_tokens: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    aliens: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)
    activations: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    scores: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    slots: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    launched: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    display: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut short with an ellipsis to fit ``width`` pixels."""
    if P.text_width(text, size, bold) <= width:
        return text
    while text and P.text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def printed_name(tile: dict[str, Any]) -> str:
    """A tile of the view as printed on it ("Control Room", "Corridor", "Escape Pod 2/3"), never
    its notation token."""
    seats = tile.get("seats")
    if tile.get("kind") == "pod" and seats:
        return f"Escape Pod {'/'.join(str(v) for v in seats)}"
    return str(tile.get("name", ""))


def _split_name(name: str, size: int, width: int) -> list[str]:
    """A tile's name on one or two lines, broken at the last space that lets the first fit."""
    if P.text_width(name, size) <= width or " " not in name:
        return [_fit(name, size, width)]
    words = name.split(" ")
    for cut in range(len(words) - 1, 0, -1):
        first = " ".join(words[:cut])
        if P.text_width(first, size) <= width:
            return [first, _fit(" ".join(words[cut:]), size, width)]
    return [_fit(words[0], size, width), _fit(" ".join(words[1:]), size, width)]


def _names(view: dict[str, Any]) -> dict[str, str]:
    return {str(p["id"]): str(p["colour"]) for p in view.get("players", [])}


def _format(text: str, names: dict[str, str]) -> str:
    """Player references ``<p:id>`` (and a following ``(Colour)``) replaced by the colour."""
    return re.sub(r"<p:([^>]+)>(?: \((\w+)\))?", lambda m: names.get(m.group(1), "?"), text)


def _astro(aid: str) -> tuple[str, str]:
    """(colour, role letter) of an Astronaut id such as ``"Blue-Grunt"``."""
    colour, _, role = aid.partition("-")
    return colour, role[:1]


def _coord(x: int, y: int) -> str:
    if x == 0 and y == 0:
        return "WR"
    row = f"N{-y}" if y < 0 else (f"S{y}" if y > 0 else "")
    col = f"E{x}" if x > 0 else (f"W{-x}" if x < 0 else "")
    return row + col


def _tile_sprite(t: dict[str, Any], s: int) -> Image.Image:
    doors = "".join(side for side in "NESW" if t.get("doors", {}).get(side))
    return P.tile_sprite(
        t["kind"],
        doors,
        s,
        int(t.get("capacity") or 0),
        bool(t.get("alien_symbol")),
        bool(t.get("activatable")),
        bool(t.get("no_robot")),
    )


# --------------------------------------------------------------------------------------------
# Layout


@dataclass
class Layout:
    """The picture's size and where the station and the panel go."""

    width: int
    height: int
    side: bool
    """The panel is beside the station (else under it, in two columns)."""
    min_x: int
    min_y: int
    ox: int
    """Left edge of the station's frame (the ring of empty cells included)."""
    oy: int
    frame_cols: int
    frame_rows: int
    panel_x: int
    panel_y: int
    panel_w: int

    def cell_box(self, x: int, y: int) -> tuple[int, int]:
        """Top-left pixel of grid cell (x, y)."""
        return self.ox + RING + (x - self.min_x) * CELL, self.oy + RING + (y - self.min_y) * CELL


def _extent(view: dict[str, Any]) -> tuple[int, int, int, int]:
    tiles = view.get("tiles") or []
    if not tiles:
        return 0, 0, 0, 0
    xs = [t["cell"][0] for t in tiles]
    ys = [t["cell"][1] for t in tiles]
    return min(xs), max(xs), min(ys), max(ys)


def _stepped(n: int) -> int:
    return max(STEP, math.ceil(n / STEP) * STEP)


def layout(view: dict[str, Any]) -> Layout:
    """The layout of ``view``'s picture. It depends only on the station's extent (in steps of
    two cells) and the panel's contents, so the size stays put while the station grows."""
    bx0, bx1, by0, by1 = _extent(view)
    cols, rows = bx1 - bx0 + 1, by1 - by0 + 1
    frame_rows = _stepped(rows)
    frame_h = frame_rows * CELL + 2 * RING
    top = HEADER_H + MARGIN + COL_LABEL_H
    side_room = WIDTH - PANEL_W - 2 * MARGIN - ROW_LABEL_W
    side_cols = (side_room - 2 * RING) // CELL
    if cols <= side_cols:
        frame_cols = min(_stepped(cols), side_cols)
        panel_h = _stacked_height(_blocks(view, PANEL_W - 2 * MARGIN))
        height = max(HEADER_H + MARGIN // 2 + panel_h + MARGIN, top + frame_h + MARGIN)
        return _place(
            view, WIDTH, height, True, MARGIN + ROW_LABEL_W, side_room, top, height - top - MARGIN, cols,
            rows, frame_cols, frame_rows, WIDTH - PANEL_W, HEADER_H + MARGIN // 2, PANEL_W,
        )  # fmt: skip
    wide_room = WIDTH - 2 * MARGIN - ROW_LABEL_W
    wide_cols = (wide_room - 2 * RING) // CELL
    frame_cols = min(_stepped(cols), wide_cols) if cols <= wide_cols else _stepped(cols)
    width = max(WIDTH, MARGIN + ROW_LABEL_W + frame_cols * CELL + 2 * RING + MARGIN)
    col_w = (width - 2 * MARGIN - COLUMN_GAP) // 2
    left, right = _columns(view, col_w)
    below_h = max(_stacked_height(left), _stacked_height(right))
    panel_y = top + frame_h + MARGIN
    height = panel_y + below_h + MARGIN
    area_w = width - 2 * MARGIN - ROW_LABEL_W
    return _place(
        view, width, height, False, MARGIN + ROW_LABEL_W, area_w, top, frame_h, cols, rows, frame_cols,
        frame_rows, MARGIN, panel_y, col_w,
    )  # fmt: skip


def _stacked_height(blocks: list[Block]) -> int:
    return sum(h for h, _ in blocks) + BLOCK_GAP * max(0, len(blocks) - 1)


def _place(
    view: dict[str, Any],
    width: int,
    height: int,
    side: bool,
    area_x: int,
    area_w: int,
    area_y: int,
    area_h: int,
    cols: int,
    rows: int,
    frame_cols: int,
    frame_rows: int,
    panel_x: int,
    panel_y: int,
    panel_w: int,
) -> Layout:
    """Centre the station's tiles in the frame and the frame in its area."""
    bx0, _, by0, _ = _extent(view)
    frame_w, frame_h = frame_cols * CELL + 2 * RING, frame_rows * CELL + 2 * RING
    ox = area_x + (area_w - frame_w) // 2
    oy = area_y + max(0, (area_h - frame_h) // 2)
    min_x = bx0 - (frame_cols - cols) // 2
    min_y = by0 - (frame_rows - rows) // 2
    return Layout(
        width, height, side, min_x, min_y, ox, oy, frame_cols, frame_rows, panel_x, panel_y, panel_w
    )


# --------------------------------------------------------------------------------------------
# Station


def _draw_station(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots) -> None:
    """Tiles, build spots (empty cells next to a connector, with their names) and the row and
    column names around the frame."""
    tiles = view.get("tiles", [])
    by_cell = {tuple(t["cell"]): t for t in tiles}
    frame = (
        lay.ox,
        lay.oy,
        lay.ox + lay.frame_cols * CELL + 2 * RING,
        lay.oy + lay.frame_rows * CELL + 2 * RING,
    )
    build_spots: set[tuple[int, int]] = set()
    for t in tiles:
        cx, cy = t["cell"]
        for side, (dx, dy) in _FACING.items():
            if t["doors"].get(side) and (cx + dx, cy + dy) not in by_cell:
                build_spots.add((cx + dx, cy + dy))
    spot = P.build_spot_sprite(CELL)
    for cx, cy in sorted(build_spots):
        px, py = lay.cell_box(cx, cy)
        box = _clip((px, py, px + CELL, py + CELL), frame)
        if box is None:
            continue
        cv.img.paste(spot.crop((box[0] - px, box[1] - py, box[2] - px, box[3] - py)), box[:2])
        lh = P.line_height(F)
        cv.text(
            (box[0] + box[2]) // 2,
            (box[1] + box[3] - lh) // 2,
            _coord(cx, cy),
            F,
            P.FAINT,
            P.SPACE,
            align="center",
        )
    geo = P.TileGeometry(CELL)
    for t in tiles:
        px, py = lay.cell_box(*t["cell"])
        _draw_tile(cv, t, px, py, geo, spots)
    # only rows and columns where something is drawn are named: the frame keeps empty room for
    # the station to grow into (so the picture keeps its size), but that room is not a place
    used = {tuple(t["cell"]) for t in tiles} | build_spots
    used_x, used_y = {c[0] for c in used}, {c[1] for c in used}
    for c in range(-1, lay.frame_cols + 1):
        x = lay.min_x + c
        if x not in used_x:
            continue
        px, _ = lay.cell_box(x, 0)
        box = _clip((px, frame[1], px + CELL, frame[1] + 1), frame)
        if box is None:
            continue
        mid = (box[0] + box[2]) // 2
        if x == 0:
            _origin_mark(cv, mid, lay.oy - COL_LABEL_H // 2)
        else:
            cv.text(
                mid, lay.oy - COL_LABEL_H, f"E{x}" if x > 0 else f"W{-x}", F, P.DIM, P.SPACE, True, "center"
            )
    for r in range(-1, lay.frame_rows + 1):
        y = lay.min_y + r
        if y not in used_y:
            continue
        _, py = lay.cell_box(0, y)
        box = _clip((frame[0], py, frame[0] + 1, py + CELL), frame)
        if box is None:
            continue
        mid = (box[1] + box[3]) // 2
        if y == 0:
            _origin_mark(cv, lay.ox - 14, mid)
        else:
            name = f"S{y}" if y > 0 else f"N{-y}"
            cv.text(lay.ox - 6, mid - P.line_height(F) // 2, name, F, P.DIM, P.SPACE, True, "right")


def _clip(
    box: tuple[int, int, int, int], frame: tuple[int, int, int, int]
) -> tuple[int, int, int, int] | None:
    x0, y0 = max(box[0], frame[0]), max(box[1], frame[1])
    x1, y1 = min(box[2], frame[2]), min(box[3], frame[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _origin_mark(cv: _Canvas, x: int, y: int) -> None:
    """The label of the Waking Room's row or column: a bold dot."""
    cv.draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=P.idx(P.ACCENT))


def _draw_tile(cv: _Canvas, t: dict[str, Any], px: int, py: int, geo: P.TileGeometry, spots: _Spots) -> None:
    kind = t["kind"]
    floor = P.FLOOR.get(kind, P.CORR_HULL)
    cv.sprite(_tile_sprite(t, geo.size), px, py)
    if t.get("activatable"):
        boxes = []
        for (ax, ay), colour in zip(geo.activation_slots(), t.get("tokens", []), strict=False):
            if colour in P.TEAM:
                cv.sprite(P.activation_slot(geo.act, floor, colour), px + ax, py + ay)
                boxes.append((px + ax, py + ay, px + ax + geo.act, py + ay + geo.act))
        spots.activations[int(t["id"])] = boxes
    if kind == "pod":
        for (x, y), value in zip(geo.occupant_slots(kind, 2), t.get("seats") or (), strict=False):
            cv.text(
                px + x + geo.token // 2,
                py + y - P.line_height(F) + 3,
                str(value),
                F,
                P.DARK,
                floor,
                True,
                "center",
            )
    occupants = [a for a in t.get("occupants", []) if _astro(a)[0] in P.TEAM]
    if kind == "waking_room":
        _draw_waking_room(cv, occupants, px, py, geo, floor, spots)
    else:
        slots = geo.occupant_slots(kind, max(len(occupants), int(t.get("capacity") or 1)))
        bg = P.CORR_FLOOR if kind == "corridor" else floor
        for (x, y), aid in zip(slots, occupants, strict=False):
            colour, letter = _astro(aid)
            cv.token(colour, letter, geo.token, bg, px + x, py + y)
            spots.astronauts[aid] = (px + x, py + y, px + x + geo.token, py + y + geo.token)
    if t.get("alien"):
        ax, ay = geo.alien_pos(kind, bool(occupants))
        size = geo.alien if kind == "corridor" else geo.room_alien
        bg = (
            P.CORR_FLOOR
            if kind == "corridor" and not occupants
            else (P.CORR_HULL if kind == "corridor" else floor)
        )
        cv.sprite(P.alien_sprite(size, bg), px + ax, py + ay)
        spots.aliens[tuple(t["cell"])] = (px + ax, py + ay, px + ax + size, py + ay + size)
    # the cell's name last, so that no Alien or Astronaut hides its end ("N1E7" read as "N1E")
    cv.text(px + geo.pad, py + geo.label_top, str(t.get("coord", "")), F, P.ink_on(floor), floor, bold=True)


def _draw_waking_room(
    cv: _Canvas,
    occupants: list[str],
    px: int,
    py: int,
    geo: P.TileGeometry,
    floor: RGB,
    spots: _Spots,
) -> None:
    """Up to four Astronauts are drawn one by one; a crowd as one token per team carrying the
    number of its Astronauts here (the player rows say which ones)."""
    s, t = geo.size, geo.token
    top = geo.label_top + P.line_height(F) - 3
    bottom = s - geo.pad
    if not occupants:
        spr = P.icon_sprite("waking_room", round(s * 0.34), floor)
        cv.sprite(spr, px + (s - spr.width) // 2, py + top + (bottom - top - spr.height) // 2)
        return
    if len(occupants) <= 4:
        entries = [(aid, *_astro(aid)) for aid in occupants]
    else:
        teams: dict[str, int] = {}
        for aid in occupants:
            teams[_astro(aid)[0]] = teams.get(_astro(aid)[0], 0) + 1
        entries = [("", colour, str(n)) for colour, n in teams.items()]
    gap = min(6, s - 2 * geo.pad - 2 * t)
    x0 = px + (s - 2 * t - gap) // 2
    rows = (len(entries) + 1) // 2
    step_y = min(t + 2, bottom - top - t)
    for i, (aid, colour, letter) in enumerate(entries):
        row, col = divmod(i, 2)
        in_row = min(2, len(entries) - 2 * row)
        x = x0 + col * (t + gap) + (0 if in_row == 2 else (t + gap) // 2)
        y = py + bottom - t - (rows - 1 - row) * step_y
        cv.token(colour, letter, t, floor, x, y)
        if aid:
            spots.astronauts[aid] = (x, y, x + t, y + t)


# --------------------------------------------------------------------------------------------
# Panel blocks: each is (height, draw(cv, view, x, y, w, spots)).

Block = tuple[int, Any]
ROW_H = 60
TITLE_H = 28


def _title(cv: _Canvas, x: int, y: int, w: int, title: str, extra: str = "") -> int:
    cv.text(x, y, title, F, P.DIM, P.PANEL, bold=True)
    if extra:
        cv.text(
            x + w, y, _fit(extra, F, w - P.text_width(title, F, True) - 12), F, P.DIM, P.PANEL, align="right"
        )
    cv.line((x, y + 23, x + w, y + 23), P.RULE)
    return y + TITLE_H


def _players_block(view: dict[str, Any], w: int) -> Block:
    n = len(view.get("players", []))

    def draw(cv: _Canvas, x: int, y: int, spots: _Spots) -> None:
        astronauts = {a["id"]: a for a in view.get("astronauts", [])}
        active = view.get("active")
        for p in view.get("players", []):
            colour = p["colour"]
            lit = p["id"] == active and not view.get("finished")
            bg = P.PANEL_HI if lit else P.CARD
            cv.rect((x, y, x + w - 1, y + ROW_H - 4), bg)
            if lit:
                cv.rect((x, y, x + 3, y + ROW_H - 4), P.ACCENT)
            cv.token(colour, "", 22, bg, x + 8, y + 5)
            nx = x + 36 + cv.text(x + 36, y + 2, colour, F, P.TEXT, bg, bold=True)
            if p.get("first_player"):
                cv.text(nx + 6, y + 2, "1st", F, P.DIM, bg)
            score = str(p.get("score", 0))
            sw = cv.text(x + 8, y + 26, score, 24, P.ACCENT, bg, bold=True)
            spots.scores[p["id"]] = (x + 6, y + 28, x + 10 + sw, y + 28 + 24)
            tx = x + 10 + sw + SCORE_FRAME_PAD + 6  # clear of the frame a changed score gets
            tx += cv.text(tx, y + 31, "pts", F, P.DIM, bg) + 8
            cv.text(tx, y + 31, f"{p.get('activations', 0)} act", F, P.DIM, bg)
            slot = min(64, (w - 116) // 5)
            rx = x + w - 5 * slot
            for role in ROLE_ORDER:
                aid = f"{colour}-{role}"
                a = astronauts.get(aid) or {}
                status = a.get("status")
                where = {
                    "station": a.get("coord") or "?",
                    "pod": f"pod {a.get('seat_value')}",
                    "dead": "dead",
                    "escaped": "esc",
                }.get(str(status), "")
                dim = status in ("dead", "escaped")
                tx0 = rx + (slot - P.TOKEN) // 2
                cv.token(colour, role[0], P.TOKEN, bg, tx0, y + 1, faded=dim, crossed=status == "dead")
                spots.panel_tokens[aid] = (tx0, y + 1, tx0 + P.TOKEN, y + 1 + P.TOKEN)
                cv.text(rx + slot // 2, y + 31, where, F, P.DIM if dim else P.TEXT, bg, align="center")
                rx += slot
            y += ROW_H

    return n * ROW_H + 6, draw


def _track_block(view: dict[str, Any], w: int) -> Block:
    track = view.get("alien_track") or {}
    slots = track.get("slots") or []
    if not slots:
        return 0, lambda *a: None
    h = 50

    def draw(cv: _Canvas, x: int, y: int, spots: _Spots) -> None:
        difficulty = str((view.get("options") or {}).get("difficulty", ""))
        score = track.get("score")
        extra = "full: Aliens win" if track.get("full") else f"Aliens score {score}"
        y = _title(cv, x, y, w, f"Alien track · {difficulty}", extra)
        n = len(slots)
        sw = min(40, w // n)
        current = next(
            (i for i, s in enumerate(slots) if not s.get("covered") and not s.get("astronaut")), None
        )
        for i, slot in enumerate(slots):
            sx = x + i * sw
            cv.rect((sx, y, sx + sw - 3, y + h), P.SLOT, P.RULE)
            value = str(slot.get("value", ""))
            cv.text(sx + (sw - 2) // 2, y + 1, value, F, P.TEXT, P.SLOT, bold=True, align="center")
            body = slot.get("astronaut")
            if body and _astro(body)[0] in P.TEAM:
                ts = min(20, sw - 6)
                cv.token(_astro(body)[0], "", ts, P.SLOT, sx + (sw - 2 - ts) // 2, y + 25)
                spots.slots[i] = (sx, y, sx + sw - 3, y + h)
        covered = int(track.get("covered") or 0)
        if covered:
            cw = covered * sw - 3
            cv.sprite(P.hatch_sprite(cw, h + 1), x, y)
            label = {1: "EASY", 2: "MED.", 3: "HARD"}.get(covered, "")
            if label and P.text_width(label, F, True) <= cw - 4:
                cv.text(x + cw // 2, y + h // 2 - 11, label, F, P.DARK, P.COVER, bold=True, align="center")
        if current is not None:
            sx = x + current * sw
            cv.rect((sx - 1, y - 1, sx + sw - 2, y + h + 1), None, P.ACCENT, 3)
            cv.sprite(P.alien_sprite(min(24, sw - 4), P.SLOT), sx + (sw - 2 - min(24, sw - 4)) // 2, y + 24)

    return TITLE_H + h + 10, draw


def _supply_block(view: dict[str, Any], w: int) -> Block:
    size = 56
    col = w // 3

    def draw(cv: _Canvas, x: int, y: int, spots: _Spots) -> None:
        y = _title(cv, x, y, w, "Build", f"stack {view.get('stack_size', 0)}")
        display = view.get("display", [])[:3]
        for i in range(3):
            cx = x + i * col + col // 2
            if i < len(display):
                t = display[i]
                cv.sprite(_tile_sprite(t, size), cx - size // 2, y)
                spots.display[int(t["id"])] = (cx - size // 2, y, cx + size // 2, y + size)
                for k, line in enumerate(_split_name(printed_name(t), F, col - 4)):
                    cv.text(cx, y + size + 1 + k * 20, line, F, P.TEXT, P.PANEL, align="center")
            else:
                cv.sprite(P.build_spot_sprite(size), cx - size // 2, y)
        y += size + 46
        pods = view.get("pods") or {}
        nxt = pods.get("next")
        if nxt:
            cv.sprite(_tile_sprite(nxt, 40), x, y)
            spots.display[int(nxt["id"])] = (x, y, x + 40, y + 40)
            more = len(pods.get("stack") or []) - 1
            tx = x + 48 + cv.text(x + 48, y + 8, f"Next: {printed_name(nxt)}", F, P.TEXT, P.PANEL)
            cv.text(tx + 10, y + 8, f"+{more} more" if more else "the last", F, P.DIM, P.PANEL)
        else:
            cv.text(x, y + 8, "No Escape Pod left to build", F, P.DIM, P.PANEL)

    return TITLE_H + size + 46 + 44, draw


def _launched_block(view: dict[str, Any], w: int) -> Block:
    """The launched Pods; room for three is always kept, so the picture keeps its size."""
    launched = (view.get("pods") or {}).get("launched", [])
    rows = max(3, len(launched))

    def draw(cv: _Canvas, x: int, y: int, spots: _Spots) -> None:
        y = _title(cv, x, y, w, "Launched Pods", "" if launched else "none yet")
        for entry in launched:
            pod = entry.get("pod") or {}
            cv.text(x, y + 5, printed_name(pod).removeprefix("Escape ") if pod else "Pod", F, P.TEXT, P.PANEL)
            tx = x + 84
            seats = pod.get("seats") or []
            for i, aid in enumerate(entry.get("occupants", [])):
                colour, letter = _astro(aid)
                if colour not in P.TEAM:
                    continue
                cv.token(colour, letter, P.TOKEN, P.PANEL, tx, y)
                value = seats[i] if i < len(seats) else "?"
                tx += P.TOKEN + 4 + cv.text(tx + P.TOKEN + 4, y + 5, f"{value}", F, P.DIM, P.PANEL) + 12
            if not entry.get("occupants"):
                cv.text(tx, y + 5, "(empty)", F, P.DIM, P.PANEL)
            if pod.get("id") is not None:
                spots.launched[int(pod["id"])] = (x - 4, y - 2, x + w, y + P.TOKEN + 2)
            y += P.TOKEN + 4

    return TITLE_H + rows * (P.TOKEN + 4) + 4, draw


def _legend_block(view: dict[str, Any], w: int) -> Block:
    per_row = max(1, w // 170)
    kinds = list(MODULE_NAMES)
    grid_rows = math.ceil(len(kinds) / per_row)
    roles = [(r[0], r) for r in ROLE_ORDER]
    role_rows = (
        1 if sum(P.text_width(a, F, True) + 5 + P.text_width(b, F) + 12 for a, b in roles) - 12 <= w else 2
    )

    def draw(cv: _Canvas, x: int, y: int, spots: _Spots) -> None:
        y = _title(cv, x, y, w, "Legend")
        tx, ty = x, y
        for letter, role in roles:
            width = P.text_width(letter, F, True) + 5 + P.text_width(role, F)
            if tx + width > x + w:
                tx, ty = x, ty + 24
            cv.text(tx, ty, letter, F, P.ACCENT, P.PANEL, bold=True)
            cv.text(tx + P.text_width(letter, F, True) + 5, ty, role, F, P.TEXT, P.PANEL)
            tx += width + 12
        y += 24 * role_rows + 2
        cw = w // per_row
        for i, kind in enumerate(kinds):
            cx, cy = x + (i % per_row) * cw, y + (i // per_row) * 26
            cv.sprite(P.icon_sprite(kind, 22, P.PANEL), cx, cy)
            cv.text(cx + 28, cy, MODULE_NAMES[kind], F, P.TEXT, P.PANEL)
        y += grid_rows * 26 + 2
        cv.sprite(P.icon_sprite("alien_symbol", 20, P.PANEL), x, y + 1)
        tx = x + 26 + cv.text(x + 26, y, "brings an Alien", F, P.TEXT, P.PANEL) + 16
        cv.sprite(P.icon_sprite("no_robot", 20, P.PANEL), tx, y + 1)
        cv.text(tx + 26, y, "no Robot", F, P.TEXT, P.PANEL)

    return TITLE_H + 24 * role_rows + 2 + grid_rows * 26 + 2 + 26, draw


def _blocks(view: dict[str, Any], w: int) -> list[Block]:
    return [
        (h, d)
        for h, d in (
            _players_block(view, w),
            _track_block(view, w),
            _supply_block(view, w),
            _launched_block(view, w),
            _legend_block(view, w),
        )
        if h
    ]


def _columns(view: dict[str, Any], w: int) -> tuple[list[Block], list[Block]]:
    """The panel under a wide station: its blocks in reading order, cut into two columns so
    that the taller one is as short as possible."""
    blocks = _blocks(view, w)
    cuts = [(blocks[:i], blocks[i:]) for i in range(1, len(blocks))]
    return min(cuts, key=lambda c: (max(_stacked_height(c[0]), _stacked_height(c[1])), -len(c[0])))


def _draw_panel(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots) -> None:
    if lay.side:
        cv.rect((lay.panel_x - 1, HEADER_H, lay.width - 1, lay.height - 1), P.PANEL)
        x, y, w = lay.panel_x + MARGIN, lay.panel_y, lay.panel_w - 2 * MARGIN
        for h, draw in _blocks(view, w):
            draw(cv, x, y, spots)
            y += h + BLOCK_GAP
        return
    cv.rect((0, lay.panel_y - MARGIN // 2, lay.width - 1, lay.height - 1), P.PANEL)
    left, right = _columns(view, lay.panel_w)
    for column, x in ((left, MARGIN), (right, MARGIN + lay.panel_w + COLUMN_GAP)):
        y = lay.panel_y
        for h, draw in column:
            draw(cv, x, y, spots)
            y += h + BLOCK_GAP


# --------------------------------------------------------------------------------------------
# Header


def _draw_header(cv: _Canvas, view: dict[str, Any], width: int, marked: bool) -> None:
    names = _names(view)
    cv.rect((0, 0, width - 1, HEADER_H - 1), P.PANEL)
    cv.line((0, HEADER_H - 1, width - 1, HEADER_H - 1), P.RULE)
    x = MARGIN
    x += cv.text(x, 8, "ARGO", 24, P.ACCENT, P.PANEL, bold=True) + 16
    x += cv.text(x, 10, f"Turn {view.get('turn', 1)}", 20, P.TEXT, P.PANEL, bold=True) + 16
    limit = width - MARGIN
    if marked:
        note = "changed since last turn"
        limit -= P.text_width(note, F) + 30
        _mark_sample(cv, limit + 4, 12)
        cv.text(width - MARGIN, 10, note, F, P.TEXT, P.PANEL, align="right")
        limit -= 12
    if view.get("finished"):
        result = view.get("result") or {}
        text = "Aliens win" if view.get("alien_victory") else "Game over"
        winners = [names.get(str(w), str(w)) for w in result.get("winners", [])]
        if winners:
            text = ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)
        cv.text(x, 10, _fit(text, 20, limit - x, True), 20, P.ACCENT, P.PANEL, bold=True)
        return
    colour = view.get("active_colour")
    if colour in P.TEAM:
        cv.token(colour, "", 22, P.PANEL, x, 11)
        x += 28
        x += cv.text(x, 10, f"{colour} to play", 20, P.TEXT, P.PANEL, bold=True) + 14
    phase = str(view.get("phase", ""))
    label = PHASE_NAME.get(phase, phase)
    if phase == "actions":
        label += f" {view.get('actions_used', 0)} of {view.get('actions_allowed', 0)}"
    chips = [label]
    prompt = view.get("prompt") or {}
    if prompt.get("kind") == "time_machine":
        chips.append("Time Machine interrupt")
    elif prompt.get("kind") == "time_machine_wait":
        chips.append("waiting: Time Machine")
    if view.get("final_turns_left") is not None:
        chips.append(f"final turns: {view['final_turns_left']}")
    if view.get("first_round"):
        chips.append("first round: one Move")
    for text in chips:
        w = P.text_width(text, F) + 14
        if x + w <= limit:
            cv.rect((x, 8, x + w, 36), P.PANEL_HI, P.RULE)
            cv.text(x + 7, 9, text, F, P.TEXT, P.PANEL_HI)
            x += w + 8


def _mark_sample(cv: _Canvas, x: int, y: int) -> None:
    """The change mark (a white frame with a black edge) as a key in the header."""
    cv.rect((x, y, x + 20, y + 20), None, P.OUTLINE, 5)
    cv.rect((x + 1, y + 1, x + 19, y + 19), None, P.HILITE, 3)


# --------------------------------------------------------------------------------------------
# Change marks


def _centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def _ring(cv: _Canvas, box: tuple[int, int, int, int], pad: int = 4) -> None:
    x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad - 1, box[3] + pad - 1
    cv.draw.ellipse((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=P.idx(P.OUTLINE), width=5)
    cv.draw.ellipse((x0, y0, x1, y1), outline=P.idx(P.HILITE), width=3)


def _frame(cv: _Canvas, box: tuple[int, int, int, int], pad: int = 0) -> None:
    """A white frame with a black edge drawn just inside ``box`` grown by ``pad``."""
    x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad - 1, box[3] + pad - 1
    cv.rect((x0, y0, x1, y1), None, P.OUTLINE, 5)
    cv.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), None, P.HILITE, 3)


def _dashed_frame(cv: _Canvas, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box[0] + 3, box[1] + 3, box[2] - 4, box[3] - 4
    for a in range(x0, x1, 12):
        cv.line((a, y0, min(a + 6, x1), y0), P.HILITE, 2)
        cv.line((a, y1, min(a + 6, x1), y1), P.HILITE, 2)
    for a in range(y0, y1, 12):
        cv.line((x0, a, x0, min(a + 6, y1)), P.HILITE, 2)
        cv.line((x1, a, x1, min(a + 6, y1)), P.HILITE, 2)


def _trail(cv: _Canvas, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Where a piece came from: a dot on its old cell and a line to where it is now."""
    cv.draw.line((*start, *end), fill=P.idx(P.OUTLINE), width=5)
    cv.draw.line((*start, *end), fill=P.idx(P.HILITE), width=2)
    sx, sy = start
    cv.draw.ellipse((sx - 7, sy - 7, sx + 7, sy + 7), fill=P.idx(P.HILITE), outline=P.idx(P.OUTLINE), width=2)


def _draw_marks(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots, ch: Changes) -> None:
    def cell_centre(cell: tuple[int, int]) -> tuple[int, int]:
        px, py = lay.cell_box(*cell)
        return px + CELL // 2, py + CELL // 2

    def cell_box(cell: tuple[int, int]) -> tuple[int, int, int, int]:
        px, py = lay.cell_box(*cell)
        return px, py, px + CELL, py + CELL

    tiles = {int(t["id"]): t for t in view.get("tiles", [])}
    for cell in sorted(ch.vacated):
        _dashed_frame(cv, cell_box(cell))
    for tid, was in sorted(ch.moved_tiles.items()):
        if tid in tiles and was is not None:
            _trail(cv, cell_centre(was), cell_centre(tuple(tiles[tid]["cell"])))
    for aid, was in sorted(ch.moved.items()):
        if aid in spots.astronauts and was is not None:
            _trail(cv, cell_centre(was), _centre(spots.astronauts[aid]))
    for cell, was in sorted(ch.alien_arrivals.items()):
        if was is not None and cell in spots.aliens:
            _trail(cv, cell_centre(was), _centre(spots.aliens[cell]))
    for tid in sorted(ch.new_tiles | set(ch.moved_tiles)):
        if tid in tiles:
            _frame(cv, cell_box(tuple(tiles[tid]["cell"])))
    for aid in sorted(ch.moved):
        if aid in spots.astronauts:
            _ring(cv, spots.astronauts[aid])
    for cell in sorted(ch.alien_arrivals):
        if cell in spots.aliens:
            _ring(cv, spots.aliens[cell], 2)
    for cell in sorted(ch.alien_departures | set(ch.died_at.values())):
        cx, cy = cell_centre(cell)
        cv.draw.ellipse(
            (cx - 7, cy - 7, cx + 7, cy + 7), fill=P.idx(P.HILITE), outline=P.idx(P.OUTLINE), width=2
        )
    for tid, n in sorted(ch.activations.items()):
        for box in spots.activations.get(tid, [])[-n:]:
            _ring(cv, box, 3)
    for aid in sorted(ch.died | set(ch.moved)):
        if aid in spots.panel_tokens:
            _ring(cv, spots.panel_tokens[aid], 2)
    for pid in sorted(ch.scores):
        if pid in spots.scores:
            _frame(cv, spots.scores[pid], SCORE_FRAME_PAD)
    for i in sorted(ch.track_slots):
        if i in spots.slots:
            _frame(cv, spots.slots[i], 1)
    for tid in sorted(ch.launched):
        if tid in spots.launched:
            _frame(cv, spots.launched[tid])
    for tid in sorted(ch.display):
        if tid in spots.display:
            _frame(cv, spots.display[tid], 2)


# --------------------------------------------------------------------------------------------
# Public entry points


@dataclass
class Drawing:
    """A drawn board: the palette image, the font sizes of every text on it, and each text line
    drawn with its box (x0, y0, x1, y1)."""

    image: Image.Image
    fonts: frozenset[int]
    marked: bool
    texts: tuple[tuple[str, tuple[int, int, int, int]], ...] = ()


def draw(view: dict[str, Any], previous: dict[str, Any] | None = None) -> Drawing:
    """The board picture of a public Argo view, with the changes since ``previous`` marked."""
    lay = layout(view)
    ch = changes(previous, view)
    cv = _Canvas(lay.width, lay.height, P.SPACE)
    spots = _Spots()
    _draw_header(cv, view, lay.width, bool(ch))
    _draw_station(cv, view, lay, spots)
    _draw_panel(cv, view, lay, spots)
    if ch:
        _draw_marks(cv, view, lay, spots, ch)
    return Drawing(cv.img, frozenset(cv.fonts), bool(ch), tuple(cv.texts))


def draw_board(view: dict[str, Any], previous: dict[str, Any] | None = None) -> Image.Image:
    """The board picture of a public Argo view, as a palette image."""
    return draw(view, previous).image


def render_board(view: dict[str, Any], previous: dict[str, Any] | None = None) -> bytes:
    """The PNG picture of a public Argo view (docs/argo-view.md); changes since ``previous``
    (an earlier public view of the same game) are marked. Encoded from bands of rows cached
    between boards (render/png_bands.py), not by Pillow's encoder: the same pixels and palette."""
    img = draw_board(view, previous)
    return png_bytes(img, bytes(img.getpalette("RGB") or ()))
