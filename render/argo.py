"""The Argo board picture: the public view (docs/argo-view.md) drawn as a PNG.

Left: the station on its grid, rows and columns labelled with the cell names of the notation
(docs/argo-notation.md), empty cells where a tile could connect outlined. Right: the players
with their teams, the score track, the Alien track under its difficulty cover, the face-up
Modules, the next Escape Pod, the stack, the launched Pods and a legend. On top: the turn,
whose turn it is, the phase and what is being decided.

Only the public view is read. The board is composed in palette mode from cached sprites
(render/argo_paint.py), which keeps a late-game board well under the time and size budgets.
"""

from __future__ import annotations

import io
import math
import re
from typing import Any

from PIL import Image, ImageDraw

from render import argo_paint as P
from render.argo_paint import RGB

MARGIN = 16
PANEL_W = 468
HEADER_H = 66
LABEL_W = 36
LABEL_H = 24
ROLE_ORDER = ("Grunt", "Robot", "Explorer", "Pilot", "Chief")
PHASE_NAME = {
    "alien": "Alien phase",
    "build": "Building phase",
    "actions": "Actions phase",
    "ended": "Game over",
}
COMPRESS_LEVEL = 3


# --------------------------------------------------------------------------------------------
# Small drawing helpers on a palette canvas


class _Canvas:
    """A palette image with pasting helpers for text and masked sprites."""

    def __init__(self, w: int, h: int, bg: RGB) -> None:
        self.img = Image.new("P", (w, h), P.idx(bg))
        self.img.putpalette(P.FLAT_PALETTE)
        self.draw = ImageDraw.Draw(self.img)

    def rect(
        self, box: tuple[int, int, int, int], fill: RGB, outline: RGB | None = None, width: int = 1
    ) -> None:
        self.draw.rectangle(
            box, fill=P.idx(fill), outline=None if outline is None else P.idx(outline), width=width
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
        return spr.width

    def sprite(self, spr: tuple[Image.Image, Image.Image] | Image.Image, x: int, y: int) -> None:
        if isinstance(spr, tuple):
            self.img.paste(spr[0], (x, y), spr[1])
        else:
            self.img.paste(spr, (x, y))


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """``text`` cut short with an ellipsis to fit ``width`` pixels."""
    if P.text_width(text, size, bold) <= width:
        return text
    while text and P.text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _split_token(name: str, size: int, width: int) -> list[str]:
    """A notation name on one or two lines, broken after a hyphen (``Corridor-T`` / ``-alien``)."""
    if P.text_width(name, size) <= width or "-" not in name:
        return [_fit(name, size, width)]
    cut = name.rfind("-")
    if cut <= 0:
        return [_fit(name, size, width)]
    first, second = name[:cut], name[cut:]
    if P.text_width(first, size) > width and "-" in first:
        cut = name.find("-") + 1
        first, second = name[:cut], name[cut:]
    return [_fit(first, size, width), _fit(second, size, width)]


def _names(view: dict[str, Any]) -> dict[str, str]:
    return {str(p["id"]): str(p["colour"]) for p in view.get("players", [])}


def _format(text: str, names: dict[str, str]) -> str:
    """Player references ``<p:id>`` (and a following ``(Colour)``) replaced by the colour."""
    return re.sub(r"<p:([^>]+)>(?: \((\w+)\))?", lambda m: names.get(m.group(1), "?"), text)


def _astro(aid: str) -> tuple[str, str]:
    """(colour, role letter) of an Astronaut id such as ``"Blue-Grunt"``."""
    colour, _, role = aid.partition("-")
    return colour, role[:1]


# --------------------------------------------------------------------------------------------
# Station


def _cell_size(cols: int, rows: int) -> int:
    """Tile side in pixels for a station of ``cols`` x ``rows`` tiles (plus half a ring)."""
    return max(84, min(136, 1040 // (cols + 1), 860 // (rows + 1)))


def _visible(c: int, s: int, half: int, extent: int) -> tuple[int, int]:
    """The part of grid column (or row) ``c`` left after cropping ``half`` on both sides."""
    lo = max(0, c * s - half)
    hi = min(extent, (c + 1) * s - half)
    return lo, hi


def _draw_station(
    cv: _Canvas, view: dict[str, Any], ox: int, oy: int, s: int, x0: int, y0: int, cols: int, rows: int
) -> None:
    """The station at ``(ox, oy)``: tiles, build spots, and the row and column labels around it.

    The grid has a ring of cells around the tiles (for the build spots), of which only the
    inner half is shown.
    """
    tiles = view.get("tiles", [])
    by_cell = {tuple(t["cell"]): t for t in tiles}
    half = s // 2
    width, height = cols * s - 2 * half, rows * s - 2 * half
    sub = _Canvas(cols * s, rows * s, P.SPACE)
    facing = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
    spots: set[tuple[int, int]] = set()
    for t in tiles:
        cx, cy = t["cell"]
        for side, (dx, dy) in facing.items():
            if t["doors"].get(side) and (cx + dx, cy + dy) not in by_cell:
                spots.add((cx + dx, cy + dy))
    geo = P.TileGeometry(s)
    for cx, cy in sorted(spots):
        sub.sprite(P.build_spot_sprite(s), (cx - x0) * s, (cy - y0) * s)
    for t in tiles:
        cx, cy = t["cell"]
        _draw_tile(sub, t, (cx - x0) * s, (cy - y0) * s, s, geo)
    cv.img.paste(sub.img.crop((half, half, half + width, half + height)), (ox, oy))
    lh = P.line_height(geo.font)
    for cx, cy in sorted(spots):
        xl, xh = _visible(cx - x0, s, half, width)
        yl, yh = _visible(cy - y0, s, half, height)
        cv.text(
            ox + (xl + xh) // 2,
            oy + (yl + yh - lh) // 2,
            _coord(cx, cy),
            geo.font,
            P.FAINT,
            P.SPACE,
            align="center",
        )
    for c in range(cols):
        x = c + x0
        xl, xh = _visible(c, s, half, width)
        if x == 0:
            _origin_mark(cv, ox + (xl + xh) // 2, oy - LABEL_H // 2 - 1)
        else:
            name = f"E{x}" if x > 0 else f"W{-x}"
            cx = ox + (xl + xh) // 2
            cv.text(cx, oy - LABEL_H + 1, name, 15, P.DIM, P.SPACE, bold=True, align="center")
    for r in range(rows):
        y = r + y0
        yl, yh = _visible(r, s, half, height)
        if y == 0:
            _origin_mark(cv, ox - 18, oy + (yl + yh) // 2)
        else:
            name = f"S{y}" if y > 0 else f"N{-y}"
            cv.text(ox - 8, oy + (yl + yh) // 2 - 9, name, 15, P.DIM, P.SPACE, bold=True, align="right")


def _origin_mark(cv: _Canvas, x: int, y: int) -> None:
    """The ``·`` label of the Waking Room's row or column: a bold dot."""
    cv.draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=P.idx(P.ACCENT))


def _coord(x: int, y: int) -> str:
    if x == 0 and y == 0:
        return "WR"
    row = f"N{-y}" if y < 0 else (f"S{y}" if y > 0 else "")
    col = f"E{x}" if x > 0 else (f"W{-x}" if x < 0 else "")
    return row + col


def _tile_sprite(t: dict[str, Any], s: int, show_name: bool = True) -> Image.Image:
    doors = "".join(side for side in "NESW" if t.get("doors", {}).get(side))
    return P.tile_sprite(
        t["kind"],
        doors,
        s,
        int(t.get("capacity") or 0),
        bool(t.get("alien_symbol")),
        bool(t.get("activatable")),
        bool(t.get("no_robot")),
        tuple(t.get("seats") or ()),
        show_name,
    )


def _draw_tile(cv: _Canvas, t: dict[str, Any], px: int, py: int, s: int, geo: P.TileGeometry) -> None:
    kind = t["kind"]
    floor = P.FLOOR.get(kind, P.CORR_HULL)
    cv.sprite(_tile_sprite(t, s, show_name=kind != "waking_room"), px, py)
    ink = P.ink_on(floor)
    cv.text(px + geo.pad, py + geo.label_y, t.get("coord", ""), geo.font, ink, floor, bold=True)
    if t.get("activatable"):
        for (ax, ay), colour in zip(geo.activation_slots(), t.get("tokens", []), strict=False):
            if colour in P.TEAM:
                cv.sprite(P.activation_slot(geo.act, floor, colour), px + ax, py + ay)
    occupants = [a for a in t.get("occupants", []) if _astro(a)[0] in P.TEAM]
    if kind == "waking_room":
        _draw_waking_room(cv, occupants, px, py, s, geo, floor)
    else:
        slots = geo.occupant_slots(kind, max(len(occupants), int(t.get("capacity") or 1)))
        for (x, y), aid in zip(slots, occupants, strict=False):
            colour, letter = _astro(aid)
            cv.sprite(P.token_sprite(colour, letter, geo.token, floor), px + x, py + y)
    if t.get("alien"):
        ax, ay = geo.alien_pos(kind, bool(occupants))
        size = geo.alien if kind == "corridor" else geo.room_alien
        cv.sprite(P.alien_sprite(size, floor), px + ax, py + ay)


def _draw_waking_room(
    cv: _Canvas, occupants: list[str], px: int, py: int, s: int, geo: P.TileGeometry, floor: RGB
) -> None:
    ink = P.ink_on(floor)
    room = s - 2 * geo.pad - P.text_width("WR", geo.font, True) - 2
    title = "Waking Room" if P.text_width("Waking Room", 13) <= room else "Waking"
    cv.text(px + s - geo.pad, py + geo.label_y + 1, title, 13, ink, floor, align="right")
    teams: dict[str, list[str]] = {}
    for aid in occupants:
        teams.setdefault(_astro(aid)[0], []).append(aid)
    top = geo.label_y + P.line_height(geo.font)
    width = s - 2 * geo.pad + 4
    height = s - geo.pad + 2 - top
    if not teams:
        cx, cy = s // 2, (top + s - geo.pad) // 2
        spr = P.icon_sprite("waking_room", round(s * 0.3), floor)
        cv.sprite(spr, px + cx - spr.width // 2, py + cy - spr.height // 2)
        return
    rows = list(teams.values())
    longest = max(len(row) for row in rows)
    size = min(geo.token, (width - 2 * (longest - 1)) // longest, (height - 2 * (len(rows) - 1)) // len(rows))
    if size < 18:
        # A crowd: rows and tokens overlap a little rather than shrink too far.
        size = max(
            12,
            min(geo.token, int(height / (1 + 0.8 * (len(rows) - 1))), int(width / (1 + 0.8 * (longest - 1)))),
        )
    step_y = min(size + 2, (height - size) // (len(rows) - 1)) if len(rows) > 1 else 0
    y = py + top + (height - size - step_y * (len(rows) - 1)) // 2
    for row in rows:
        step = min(size + 2, (width - size) // (len(row) - 1)) if len(row) > 1 else 0
        x = px + (s - size - step * (len(row) - 1)) // 2
        for aid in row:
            colour, letter = _astro(aid)
            cv.sprite(P.token_sprite(colour, letter, size, floor), x, y)
            x += step
        y += step_y


# --------------------------------------------------------------------------------------------
# Panel


def _section(cv: _Canvas, x: int, y: int, title: str, extra: str = "") -> int:
    cv.text(x, y, title.upper(), 13, P.DIM, P.PANEL, bold=True)
    if extra:
        cv.text(x + PANEL_W - 24, y, extra, 13, P.DIM, P.PANEL, align="right")
    cv.line((x, y + 19, x + PANEL_W - 24, y + 19), P.RULE)
    return y + 26


def _player_rows(cv: _Canvas, view: dict[str, Any], x: int, y: int) -> int:
    players = view.get("players", [])
    astronauts = {a["id"]: a for a in view.get("astronauts", [])}
    active = view.get("active")
    w = PANEL_W - 24
    for p in players:
        colour = p["colour"]
        bg = P.PANEL_HI if p["id"] == active and not view.get("finished") else P.CARD
        cv.rect((x, y, x + w - 1, y + 55), bg)
        if bg == P.PANEL_HI:
            cv.rect((x, y, x + 3, y + 55), P.ACCENT)
        cv.sprite(P.token_sprite(colour, "", 22, bg), x + 10, y + 8)
        cv.text(x + 38, y + 8, colour, 17, P.TEXT, bg, bold=True)
        if p.get("first_player"):
            cv.text(x + 40 + P.text_width(colour, 17, True), y + 11, "1st", 13, P.DIM, bg)
        stats = f"{p.get('activations', 0)} act · {p.get('escaped', 0)} esc · {p.get('dead', 0)} dead"
        cv.text(x + 10, y + 34, stats, 13, P.DIM, bg)
        cv.text(x + 186, y + 6, str(p.get("score", 0)), 26, P.ACCENT, bg, bold=True, align="right")
        cv.text(x + 186, y + 36, "pts", 13, P.DIM, bg, align="right")
        tx = x + w - 5 * 50 + 6
        for role in ROLE_ORDER:
            a = astronauts.get(f"{colour}-{role}")
            status = a.get("status") if a else None
            where = {
                "station": (a or {}).get("coord") or "?",
                "pod": f"pod {(a or {}).get('seat_value')}",
                "dead": "dead",
                "escaped": "esc",
            }.get(str(status), "")
            dim = status in ("dead", "escaped")
            token = P.token_sprite(colour, role[0], 26, bg, faded=dim, crossed=status == "dead")
            cv.sprite(token, tx + 12, y + 5)
            cv.text(tx + 25, y + 34, where, 13, P.DIM if dim else P.TEXT, bg, align="center")
            tx += 50
        y += 60
    return y


def _score_track(cv: _Canvas, view: dict[str, Any], x: int, y: int) -> int:
    players = view.get("players", [])
    alien_score = (view.get("alien_track") or {}).get("score")
    scores = [int(p.get("score", 0)) for p in players] + [int(alien_score or 0)]
    top = max([20, *scores])
    top = int(math.ceil((top + 1) / 10) * 10)
    w = PANEL_W - 24 - 20
    bx, by = x + 10, y + 14 + 11 * max(len(players), 1)

    def pos(v: int) -> int:
        return bx + round(v * w / top)

    stacks: dict[int, int] = {}
    for p in players:
        v = int(p.get("score", 0))
        level = stacks.get(v, 0)
        stacks[v] = level + 1
        cv.sprite(P.token_sprite(p["colour"], "", 15, P.PANEL), pos(v) - 7, by - 19 - level * 11)
    cv.rect((bx, by - 2, bx + w, by + 2), P.RULE)
    for v in range(0, top + 1, 5):
        cv.line((pos(v), by - 4, pos(v), by + 4), P.DIM)
        cv.text(pos(v), by + 6, str(v), 13, P.DIM, P.PANEL, align="center")
    for v in range(0, top + 1):
        cv.line((pos(v), by - 2, pos(v), by + 2), P.DIM)
    if alien_score is not None:
        cv.sprite(P.alien_sprite(20, P.PANEL), pos(int(alien_score)) - 10, by + 22)
    return by + 46


def _alien_track(cv: _Canvas, view: dict[str, Any], x: int, y: int) -> int:
    track = view.get("alien_track") or {}
    slots = track.get("slots") or []
    if not slots:
        return y
    n = len(slots)
    sw = min(32, (PANEL_W - 24) // n)
    h = 58
    current = None
    for i, slot in enumerate(slots):
        if not slot.get("covered") and not slot.get("astronaut"):
            current = i
            break
    for i, slot in enumerate(slots):
        sx = x + i * sw
        bg = P.SLOT
        cv.rect((sx, y, sx + sw - 3, y + h), bg, P.RULE)
        cv.text(
            sx + (sw - 2) // 2, y + 3, str(slot.get("value", "")), 13, P.TEXT, bg, bold=True, align="center"
        )
        body = slot.get("astronaut")
        if body:
            colour, letter = _astro(body)
            if colour in P.TEAM:
                ts = min(24, sw - 6)
                cv.sprite(P.token_sprite(colour, letter, ts, bg), sx + (sw - 2 - ts) // 2, y + 26)
    covered = int(track.get("covered") or 0)
    if covered:
        cw = covered * sw - 3
        cv.sprite(P.hatch_sprite(cw, h + 1), x, y)
        label = {1: "EASY", 2: "MED.", 3: "HARD"}.get(covered, "")
        if label and P.text_width(label, 13, True) <= cw - 4:
            cv.text(x + cw // 2, y + h // 2 - 8, label, 13, P.DARK, P.COVER, bold=True, align="center")
    if current is not None:
        sx = x + current * sw
        cv.rect((sx - 1, y - 1, sx + sw - 2, y + h + 1), P.ACCENT, None)
        cv.rect((sx + 1, y + 1, sx + sw - 4, y + h - 1), P.SLOT, P.ACCENT, 2)
        cv.text(
            sx + (sw - 2) // 2,
            y + 3,
            str(slots[current].get("value", "")),
            13,
            P.ACCENT,
            P.SLOT,
            bold=True,
            align="center",
        )
        cv.sprite(P.alien_sprite(22, P.SLOT), sx + (sw - 2) // 2 - 11, y + 27)
    return y + h + 10


def _supply(cv: _Canvas, view: dict[str, Any], x: int, y: int) -> int:
    size = 84
    step = 90
    tx = x
    for t in view.get("display", [])[:3]:
        cv.sprite(_tile_sprite(t, size), tx, y)
        for i, line in enumerate(_split_token(str(t.get("token", "")), 13, step - 4)):
            cv.text(tx + size // 2, y + size + 3 + i * 16, line, 13, P.TEXT, P.PANEL, align="center")
        tx += step
    for _ in range(len(view.get("display", [])[:3]), 3):
        cv.sprite(P.build_spot_sprite(size), tx, y)
        tx += step
    pods = view.get("pods") or {}
    nxt = pods.get("next")
    tx = x + 3 * step
    if nxt:
        cv.sprite(_tile_sprite(nxt, size), tx, y)
        cv.text(tx + size // 2, y + size + 3, str(nxt.get("token", "")), 13, P.TEXT, P.PANEL, align="center")
        more = len(pods.get("stack") or []) - 1
        cv.text(
            tx + size // 2,
            y + size + 19,
            f"+{more} more" if more else "last Pod",
            13,
            P.DIM,
            P.PANEL,
            align="center",
        )
    else:
        cv.sprite(P.build_spot_sprite(size), tx, y)
        cv.text(tx + size // 2, y + size + 3, "no Pod", 13, P.DIM, P.PANEL, align="center")
    tx += step
    cv.sprite(P.stack_sprite(size - 16), tx, y + 8)
    cv.text(
        tx + (size - 16) // 2,
        y + size + 3,
        f"stack {view.get('stack_size', 0)}",
        13,
        P.TEXT,
        P.PANEL,
        align="center",
    )
    return y + size + 40


def _launched(cv: _Canvas, view: dict[str, Any], x: int, y: int) -> int:
    for entry in (view.get("pods") or {}).get("launched", []):
        pod = entry.get("pod") or {}
        cv.text(x, y + 5, str(pod.get("token", "Pod")), 13, P.TEXT, P.PANEL)
        tx = x + 70
        seats = pod.get("seats") or []
        for i, aid in enumerate(entry.get("occupants", [])):
            colour, letter = _astro(aid)
            if colour not in P.TEAM:
                continue
            cv.sprite(P.token_sprite(colour, letter, 22, P.PANEL), tx, y + 1)
            value = seats[i] if i < len(seats) else "?"
            cv.text(tx + 26, y + 5, f"{value}", 13, P.DIM, P.PANEL)
            tx += 48
        if not entry.get("occupants"):
            cv.text(tx, y + 5, "(empty)", 13, P.DIM, P.PANEL)
        y += 26
    return y


def _legend(cv: _Canvas, x: int, y: int) -> int:
    tx = x
    for role in ROLE_ORDER:
        cv.sprite(P.token_sprite("Blue", role[0], 20, P.PANEL), tx, y)
        tx += 24
        tx += cv.text(tx, y + 2, role, 13, P.TEXT, P.PANEL) + 12
    y += 28
    tx = x
    for colour in P.TEAM:
        cv.sprite(P.token_sprite(colour, "", 18, P.PANEL), tx, y + 1)
        tx += 22
        tx += cv.text(tx, y + 2, colour, 13, P.TEXT, P.PANEL) + 14
    cv.sprite(P.alien_sprite(22, P.PANEL), tx, y - 2)
    tx += 26
    cv.text(tx, y + 2, "Alien", 13, P.TEXT, P.PANEL)
    y += 28
    tx = x
    cv.sprite(P.icon_sprite("alien_symbol", 18, P.PANEL), tx, y + 1)
    tx += 22
    tx += cv.text(tx, y + 2, "brings an Alien", 13, P.TEXT, P.PANEL) + 14
    cv.sprite(P.icon_sprite("no_robot", 18, P.PANEL), tx, y + 1)
    tx += 22
    tx += cv.text(tx, y + 2, "no Robot", 13, P.TEXT, P.PANEL) + 14
    cv.sprite(P.seat_sprite(18, P.PANEL), tx, y + 1)
    tx += 22
    cv.text(tx, y + 2, "free place", 13, P.TEXT, P.PANEL)
    y += 28
    tx = x
    cv.sprite(P.activation_slot(14, P.PANEL, None), tx + 2, y + 3)
    tx += 22
    tx += cv.text(tx, y + 2, "Activation place", 13, P.TEXT, P.PANEL) + 14
    _door_chip(cv, tx, y + 5)
    tx += 34
    cv.text(tx, y + 2, "connector (door)", 13, P.TEXT, P.PANEL)
    return y + 24


def _door_chip(cv: _Canvas, x: int, y: int) -> None:
    cv.rect((x, y, x + 27, y + 9), P.DOOR_YELLOW, P.DOOR_BLACK)
    for i in range(x + 3, x + 27, 7):
        cv.draw.polygon([(i, y + 9), (i + 3, y + 9), (i + 6, y), (i + 3, y)], fill=P.idx(P.DOOR_BLACK))


def _draw_panel(view: dict[str, Any]) -> Image.Image:
    cv = _Canvas(PANEL_W, 1600, P.PANEL)
    x = 12
    y = 10
    y = _section(cv, x, y, "Players", f"turn {view.get('turn', 1)}")
    y = _player_rows(cv, view, x, y) + 6
    y = _section(cv, x, y, "Score track")
    y = _score_track(cv, view, x, y - 8) + 4
    track = view.get("alien_track") or {}
    difficulty = str((view.get("options") or {}).get("difficulty", ""))
    score = track.get("score")
    extra = "track full: Aliens win" if track.get("full") else f"Aliens score {score}"
    y = _section(cv, x, y, f"Alien track · {difficulty}", extra)
    y = _alien_track(cv, view, x, y)
    y = _section(cv, x, y, "Build", "face-up Modules · next Pod · stack")
    y = _supply(cv, view, x, y)
    launched = (view.get("pods") or {}).get("launched", [])
    if launched:
        y = _section(cv, x, y, "Launched Pods")
        y = _launched(cv, view, x, y) + 6
    y = _section(cv, x, y, "Legend")
    y = _legend(cv, x, y) + 10
    return cv.img.crop((0, 0, PANEL_W, y))


# --------------------------------------------------------------------------------------------
# Header


def _draw_header(cv: _Canvas, view: dict[str, Any], width: int) -> None:
    names = _names(view)
    cv.rect((0, 0, width - 1, HEADER_H - 1), P.PANEL)
    cv.line((0, HEADER_H - 1, width - 1, HEADER_H - 1), P.RULE)
    x = MARGIN
    x += cv.text(x, 9, "ARGO", 24, P.ACCENT, P.PANEL, bold=True) + 18
    x += cv.text(x, 13, f"Turn {view.get('turn', 1)}", 18, P.TEXT, P.PANEL, bold=True) + 18
    if view.get("finished"):
        result = view.get("result") or {}
        text = "Aliens win" if view.get("alien_victory") else "Game over"
        winners = [names.get(str(w), str(w)) for w in result.get("winners", [])]
        if winners:
            text = ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)
        cv.text(x, 13, text, 18, P.ACCENT, P.PANEL, bold=True)
        line = " ".join(
            s
            for s in (
                _format(str(result.get("text") or ""), names),
                "Ended: " + _format(str(view.get("end_reason") or ""), names),
            )
            if s
        )
    else:
        colour = view.get("active_colour")
        if colour in P.TEAM:
            cv.sprite(P.token_sprite(colour, "", 22, P.PANEL), x, 10)
            x += 28
            x += cv.text(x, 13, f"{colour} to play", 18, P.TEXT, P.PANEL, bold=True) + 18
        phase = str(view.get("phase", ""))
        label = PHASE_NAME.get(phase, phase)
        if phase == "actions":
            label += f": {view.get('actions_used', 0)} of {view.get('actions_allowed', 0)} used"
        chips = [(label, P.PANEL_HI)]
        prompt = view.get("prompt") or {}
        others = [names.get(str(o), "?") for o in prompt.get("others") or []]
        if prompt.get("kind") == "time_machine":
            chips.append(("Time Machine interrupt", P.PANEL_HI))
        elif prompt.get("kind") == "time_machine_wait":
            chips.append(("waiting for Time Machine decisions", P.PANEL_HI))
        if others and prompt.get("kind") != "time_machine":
            what = str(prompt.get("others_label") or "Time Machine")
            chips.append((f"{what}: {', '.join(others)} may interrupt", P.CARD))
        if view.get("final_turns_left") is not None:
            chips.append((f"final turns: {view['final_turns_left']}", P.CARD))
        if view.get("first_round"):
            chips.append(("first round: one Move", P.CARD))
        limit = width - MARGIN - 140
        for text, bg in chips:
            if x + P.text_width(text, 14) + 16 <= limit:
                x += _chip(cv, x, 10, text, bg) + 8
        line = _format(str(prompt.get("text") or ""), names)
    opts = view.get("options") or {}
    right = f"{opts.get('difficulty', '')}" + (" · deep space" if opts.get("deep_space") == "on" else "")
    cv.text(width - MARGIN, 15, right, 14, P.DIM, P.PANEL, align="right")
    if line:
        cv.text(MARGIN, 42, _fit(line, 14, width - 2 * MARGIN), 14, P.DIM, P.PANEL)


def _chip(cv: _Canvas, x: int, y: int, text: str, bg: RGB) -> int:
    w = P.text_width(text, 14) + 16
    cv.rect((x, y, x + w, y + 24), bg, P.RULE)
    cv.text(x + 8, y + 4, text, 14, P.TEXT, bg)
    return w


# --------------------------------------------------------------------------------------------
# Public entry points


def draw_board(view: dict[str, Any]) -> Image.Image:
    """The board picture of a public Argo view, as a palette image."""
    tiles = view.get("tiles") or []
    if tiles:
        xs = [t["cell"][0] for t in tiles]
        ys = [t["cell"][1] for t in tiles]
        bx0, bx1, by0, by1 = min(xs), max(xs), min(ys), max(ys)
    else:
        bx0 = bx1 = by0 = by1 = 0
    x0, y0 = bx0 - 1, by0 - 1
    cols, rows = bx1 - bx0 + 3, by1 - by0 + 3
    s = _cell_size(cols - 2, rows - 2)
    half = s // 2
    panel = _draw_panel(view)
    station_w = MARGIN + LABEL_W + cols * s - 2 * half + MARGIN
    station_h = LABEL_H + rows * s - 2 * half
    width = station_w + PANEL_W + MARGIN
    height = HEADER_H + MARGIN + max(station_h, panel.height) + MARGIN
    cv = _Canvas(width, height, P.SPACE)
    _draw_header(cv, view, width)
    ox, oy = MARGIN + LABEL_W, HEADER_H + MARGIN + LABEL_H
    _draw_station(cv, view, ox, oy, s, x0, y0, cols, rows)
    px = station_w
    cv.rect((px - 1, HEADER_H, width - 1, height - 1), P.PANEL)
    cv.img.paste(panel, (px, HEADER_H + MARGIN // 2))
    return cv.img


def render_board(view: dict[str, Any]) -> bytes:
    """The PNG picture of a public Argo view (docs/argo-view.md)."""
    buf = io.BytesIO()
    draw_board(view).save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
