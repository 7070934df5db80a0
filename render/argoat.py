"""The Argoat map picture: a public view drawn as a PNG.

The picture shows the frontier grid (names, roads, Dragon symbols, cell coordinates as typed in
commands), the Dark Forests (face down, or flipped when the view says so) with their Check
Markers, the Avatars and Bleina, one panel per player, the decks, the Bank, the Reliquary and
whose turn it is. It reads only the public view, so it cannot show a secret.
"""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image, ImageDraw

from . import argoat_sprites as sp

MARGIN = 14
HEADER_H = 70
PANEL_W = 372
PLAYER_H = 104
GAP = 6
"""Gap between neighbouring cards."""
RULER = 26
MIN_CELL, MAX_CELL = 104, 168
MAP_W_TARGET, MAP_H_TARGET = 1160, 980
MIN_WIDTH = 1000
DRAWN_CARD = 96
COMPRESS_LEVEL = 3

PHASE_WORDS = {
    "turn": "to play",
    "draft": "building a trade",
    "offer": "trade offered",
    "place_frontier": "placing a Frontier",
    "place_forest": "placing a Dark Forest",
    "dream": "Hill of Dreams",
    "over": "game over",
}
ITEM_WORDS = {
    "staff": "Staff",
    "book": "Book",
    "eye": "Eye",
    "wings": "Wings",
    "water": "Water",
    "flute": "Flute",
}
_REF = re.compile(r"<p:([^>]*)>")
_SIDES = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _cell(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def _names(view: dict[str, Any]) -> dict[str, str]:
    return {p["id"]: p["colour"] for p in view.get("players", [])}


def _plain(text: str, names: dict[str, str]) -> str:
    """``text`` with player references replaced by seat colours."""
    return _REF.sub(lambda m: names.get(m.group(1), "?"), text)


def _open_cells(view: dict[str, Any]) -> list[tuple[int, int]]:
    """Empty cells that a road from a placed frontier leads to (where a card may go)."""
    taken = {(f["x"], f["y"]) for f in view["frontiers"]}
    taken |= {(f["x"], f["y"]) for f in view["forests"]}
    cells = set()
    for f in view["frontiers"]:
        for side in f["roads"]:
            dx, dy = _SIDES[side]
            c = (f["x"] + dx, f["y"] + dy)
            if c not in taken:
                cells.add(c)
    return sorted(cells)


class _Layout:
    """Where everything goes: the grid extent, the card size and the canvas size."""

    def __init__(self, view: dict[str, Any]) -> None:
        b = view["bounds"]
        phase = view.get("phase")
        placing = phase in ("place_frontier", "place_forest")
        self.placing = placing
        self.slots: list[tuple[int, int]] = []
        if placing or not view["decks_empty"]["discovery"]:
            self.slots = sorted(set(_open_cells(view)) | _placement_cells(view))
        xs = [b["min_x"], b["max_x"]] + [c[0] for c in self.slots]
        ys = [b["min_y"], b["max_y"]] + [c[1] for c in self.slots]
        self.min_x, self.max_x, self.min_y, self.max_y = min(xs), max(xs), min(ys), max(ys)
        cols = self.max_x - self.min_x + 1
        rows = self.max_y - self.min_y + 1
        cell = min(MAX_CELL, MAP_W_TARGET // cols, MAP_H_TARGET // rows)
        self.cell = max(MIN_CELL, cell // 4 * 4)
        self.map_x = MARGIN + RULER
        self.map_y = HEADER_H + MARGIN + RULER
        self.map_w = cols * self.cell
        self.map_h = rows * self.cell
        self.panel_x = self.map_x + self.map_w + MARGIN
        self.width = max(MIN_WIDTH, self.panel_x + PANEL_W + MARGIN)
        if self.width > self.panel_x + PANEL_W + MARGIN:  # centre a small map
            shift = (self.width - (self.panel_x + PANEL_W + MARGIN)) // 2
            self.map_x += shift
            self.panel_x = self.width - PANEL_W - MARGIN
        n = len(view["players"])
        self.side_h = n * (PLAYER_H + 8) + _supplies_height(view)
        self.height = HEADER_H + MARGIN + max(RULER + self.map_h, self.side_h) + MARGIN

    def origin(self, x: int, y: int) -> tuple[int, int]:
        """Top-left pixel of the card at cell (x, y)."""
        return (
            self.map_x + (x - self.min_x) * self.cell + GAP // 2,
            self.map_y + (self.max_y - y) * self.cell + GAP // 2,
        )


def render_board(view: dict[str, Any]) -> bytes:
    """The public Argoat view drawn as PNG bytes."""
    return encode(draw_board(view))


def encode(img: Image.Image) -> bytes:
    """PNG bytes of a drawn board, mapped onto the fixed Argoat palette."""
    from .argoat_palette import palette

    pal = img.quantize(palette=palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


def draw_board(view: dict[str, Any]) -> Image.Image:
    """The public Argoat view drawn as an RGB image."""
    lay = _Layout(view)
    img = Image.new("RGB", (lay.width, lay.height), sp.BG)
    draw = ImageDraw.Draw(img)
    names = _names(view)
    _draw_header(img, draw, view, names, lay.width)
    _draw_map(img, draw, view, lay)
    y = HEADER_H + MARGIN
    for player in view["players"]:
        _draw_player(img, draw, view, player, lay.panel_x, y)
        y += PLAYER_H + 8
    _draw_supplies(img, draw, view, names, lay.panel_x, y)
    return img


# --- header ----------------------------------------------------------------------------------


def _paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    if sprite.mode == "RGBA":
        img.paste(sprite, (x, y), sprite)
    else:
        img.paste(sprite, (x, y))


def _text(img: Image.Image, text: str, x: int, y: int, size: int, colour: sp.RGB, bold: bool = False) -> int:
    """Draw one line; return the x after it."""
    t = sp.text_sprite(text, size, colour, bold)
    img.paste(t, (x, y), t)
    return x + t.width


def _player_by_id(view: dict[str, Any], pid: str | None) -> dict[str, Any] | None:
    for p in view["players"]:
        if p["id"] == pid:
            return p
    return None


def _draw_header(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], width: int
) -> None:
    draw.rectangle((0, 0, width, HEADER_H - 1), fill=sp.PANEL)
    draw.line((0, HEADER_H - 1, width, HEADER_H - 1), fill=sp.PANEL_EDGE, width=1)
    x = _text(img, "ARGOAT", MARGIN, 8, 26, sp.GOLD, True)
    x = _text(
        img,
        f"  {str(view.get('difficulty', '')).capitalize()}  ·  Turn {view.get('turn', 0)}",
        x,
        14,
        18,
        sp.MUTED,
    )
    x += 24
    winner = _player_by_id(view, view.get("winner"))
    active = _player_by_id(view, view.get("active"))
    if winner is not None:
        icon = sp.avatar_icon(winner["colour"], winner["letter"], 30, False)
        _paste(img, icon, x, 6)
        _text(img, f"{winner['colour']} wins!", x + 38, 9, 22, sp.GOLD, True)
    elif view.get("finished") or active is None:
        _text(img, "Game over", x, 9, 22, sp.GOLD, True)
    else:
        icon = sp.avatar_icon(active["colour"], active["letter"], 30, True)
        _paste(img, icon, x, 4)
        x += icon.width + 8
        phase = PHASE_WORDS.get(str(view.get("phase")), str(view.get("phase")))
        x = _text(
            img, f"{active['colour']} ({active['letter']})", x, 9, 22, sp.player_text(active["colour"]), True
        )
        _text(img, f"  {phase}", x, 13, 18, sp.TEXT)
    rose = sp.compass(62)
    _paste(img, rose, width - MARGIN - rose.width, 4)
    prompt = view.get("prompt")
    if prompt and prompt.get("text"):
        line = sp.ellipsize(_plain(str(prompt["text"]), names), 15, width - 3 * MARGIN - rose.width)
        _text(img, line, MARGIN, 44, 15, sp.TEXT)


# --- map -------------------------------------------------------------------------------------


def _token_positions(
    n: int, size: int, width: int, bottom: int, left: int, max_rows: int = 2, height: int = 0
) -> list[tuple[int, int]]:
    """Top-left corners for ``n`` tokens of ``size`` in at most ``max_rows`` rows ending at
    ``bottom``, centred in ``width``. Rows that do not fit in ``height`` overlap a little
    sideways instead."""
    if n == 0:
        return []
    per_row = max(1, (width + 2) // (size + 2))
    if -(-n // per_row) * (size + 2) > max(height, size + 2):
        per_row = max(per_row, 1 + (width - size) * 10 // (size * 7))
    if n > per_row * max_rows:
        per_row = -(-n // max_rows)
    rows = [min(per_row, n - i) for i in range(0, n, per_row)]
    out = []
    y = bottom - len(rows) * (size + 2) + 2
    for count in rows:
        pitch = size + 2
        if count > 1 and count * pitch - 2 > width:
            pitch = (width - size) // (count - 1)
        row_w = (count - 1) * pitch + size
        x = left + (width - row_w) // 2
        for _ in range(count):
            out.append((x, y))
            x += pitch
        y += size + 2
    return out


def _draw_map(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], lay: _Layout) -> None:
    c = lay.cell
    card = c - GAP
    # rulers
    for x in range(lay.min_x, lay.max_x + 1):
        t = sp.text_sprite(str(x), 14, sp.MUTED)
        ox, _ = lay.origin(x, lay.max_y)
        img.paste(t, (ox + (card - t.width) // 2, lay.map_y - RULER + 4), t)
    for y in range(lay.min_y, lay.max_y + 1):
        t = sp.text_sprite(str(y), 14, sp.MUTED)
        _, oy = lay.origin(lay.min_x, y)
        img.paste(t, (lay.map_x - t.width - 6, oy + (card - t.height) // 2), t)

    frontiers = {(f["x"], f["y"]): f for f in view["frontiers"]}
    forests = {(f["x"], f["y"]): f for f in view["forests"]}
    road_w = max(4, round(card * 0.17) - 2)

    # road joins across the gaps between cards
    for (x, y), f in list(frontiers.items()) + list(forests.items()):
        ox, oy = lay.origin(x, y)
        for side in f["roads"]:
            if side == "E" and ((x + 1, y) in frontiers or (x + 1, y) in forests):
                draw.rectangle(
                    (
                        ox + card - 2,
                        oy + card // 2 - road_w // 2,
                        ox + card + GAP + 1,
                        oy + card // 2 + road_w // 2,
                    ),
                    fill=sp.ROAD,
                )
            if side == "N" and ((x, y + 1) in frontiers or (x, y + 1) in forests):
                draw.rectangle(
                    (ox + card // 2 - road_w // 2, oy - GAP - 2, ox + card // 2 + road_w // 2, oy + 1),
                    fill=sp.ROAD,
                )

    strong = _placement_cells(view)
    for x, y in lay.slots:
        ox, oy = lay.origin(x, y)
        _paste(img, sp.empty_slot(f"{x},{y}", card, (x, y) in strong), ox, oy)

    tag_size = 14 if c < 140 else 15
    active_id = view.get("active")
    for (x, y), f in frontiers.items():
        ox, oy = lay.origin(x, y)
        sprite = sp.frontier_card(
            f["name"], tuple(f["roads"]), bool(f["dragon"]), f.get("fragment"), _kind(f["key"]), card
        )
        img.paste(sprite, (ox, oy))
        _paste(img, sp.coord_tag(f"{x},{y}", tag_size, False), ox + 4, oy + 4)

    for (x, y), f in forests.items():
        ox, oy = lay.origin(x, y)
        content = f.get("content") if f.get("flipped") else None
        img.paste(sp.forest_card(tuple(f["roads"]), content, card), (ox, oy))
        _paste(img, sp.coord_tag(f"{x},{y}", tag_size, False), ox + 4, oy + 4)
        markers = f.get("markers", [])
        if markers:
            ms = max(18, min(24, card // 6))
            letters = {p["colour"]: p["letter"] for p in view["players"]}
            pos = _token_positions(len(markers), ms, card - 8, oy + 26 + ms, ox + 4, 1)
            for colour, (mx, my) in zip(markers, pos, strict=True):
                _paste(img, sp.marker_icon(colour, letters.get(colour, colour[:1]), ms), mx, my)

    forest_for = view.get("forest_for")
    if forest_for:
        fx, fy = _cell(forest_for)
        ox, oy = lay.origin(fx, fy)
        draw.rounded_rectangle((ox - 3, oy - 3, ox + card + 2, oy + card + 2), 10, outline=sp.GOLD, width=3)

    # Avatars and Bleina, grouped by cell
    tokens: dict[tuple[int, int], list[Image.Image]] = {}
    size = max(24, min(34, card // 4 - 2))
    for p in view["players"]:
        ring = p["id"] == active_id
        tokens.setdefault((p["x"], p["y"]), []).append(sp.avatar_icon(p["colour"], p["letter"], size, ring))
    for b in view.get("bleinas", []):
        tokens.setdefault(_cell(b), []).append(sp.bleina_icon(size))
    for (x, y), sprites in tokens.items():
        ox, oy = lay.origin(x, y)
        step = size + 6
        pos = _token_positions(len(sprites), step, card - 6, oy + card - 3, ox + 3, height=card * 9 // 20)
        for s, (tx, ty) in zip(sprites, pos, strict=True):
            off = (step - s.width) // 2
            _paste(img, s, tx + off, ty + off)


def _kind(key: str) -> str:
    if key == "town":
        return "town"
    if key.startswith("trail"):
        return "trail"
    return "frontier"


# --- side panels -----------------------------------------------------------------------------


def _box(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, edge: sp.RGB, width: int = 1) -> None:
    draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), 8, fill=sp.PANEL, outline=edge, width=width)


def _draw_player(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], p: dict[str, Any], x: int, y: int
) -> None:
    colour = p["colour"]
    rgb = sp.player_rgb(colour)
    deciding = (view.get("prompt") or {}).get("player") == p["id"]
    active = bool(p.get("active"))
    winner = view.get("winner") == p["id"]
    lit = active or deciding or winner
    _box(draw, x, y, PANEL_W, PLAYER_H, rgb if lit else sp.PANEL_EDGE, 3 if lit else 1)
    draw.rectangle((x + 4, y + 10, x + 8, y + PLAYER_H - 11), fill=rgb)
    icon = sp.avatar_icon(colour, p["letter"], 42, active)
    _paste(img, icon, x + 16 + (48 - icon.width) // 2, y + 10 + (48 - icon.height) // 2)
    at = f"at {p['at']}"
    _text(img, at, x + 40 - sp.text_width(at, 14) // 2, y + 66, 14, sp.MUTED)
    cx = x + 76
    tx = _text(img, colour, cx, y + 7, 20, sp.player_text(colour), True)
    tag = "WINS" if winner else "TO PLAY" if active else "DECIDING" if deciding else ""
    if tag:
        t = sp.text_sprite(tag, 13, sp.INK if colour == "Yellow" or winner else sp.WHITE, True)
        draw.rounded_rectangle(
            (tx + 10, y + 10, tx + 10 + t.width + 10, y + 10 + 20), 5, fill=sp.GOLD if winner else rgb
        )
        img.paste(t, (tx + 15, y + 11), t)
    # resources: Emeralds, Items (a count only), Check Markers left
    ry = y + 38
    _paste(img, sp.emerald_icon(22), cx, ry)
    nx = _text(img, str(p["emeralds"]), cx + 26, ry + 1, 17, sp.TEXT)
    ix = max(nx + 12, cx + 58)
    back = sp.card_back_icon(22, sp.ITEM_BACK, "?")
    _paste(img, back, ix, ry)
    n_items = int(p["items"])
    _text(img, f"{n_items} Item{'' if n_items == 1 else 's'}", ix + back.width + 5, ry + 1, 16, sp.TEXT)
    left = int(p["markers_left"])
    mx = x + PANEL_W - 12 - 4 * 20
    for i in range(4):
        s = sp.marker_icon(colour, p["letter"], 18) if i < left else sp.marker_slot(18, colour)
        _paste(img, s, mx + i * 20, ry + 2)
    label = sp.text_sprite("Markers", 14, sp.MUTED)
    _paste(img, label, mx - label.width - 4, ry + 2)
    # the eight Fragments, lit when held
    fy = y + 68
    held = set(p.get("fragments", []))
    for i, key in enumerate(sp.FRAGMENT_KEYS):
        _paste(img, sp.fragment_icon(key, 27, key in held), cx + i * 31, fy)
    _text(img, f"{len(held)}/8", cx + 8 * 31 + 4, fy + 4, 16, sp.GOLD if len(held) == 8 else sp.MUTED)


def _supplies_height(view: dict[str, Any]) -> int:
    h = 12 + 34 + 12 + 26 + 4 * 28 + 10 + 24
    if view.get("discard"):
        h += 4 + 20 * len(_played_lines(view))
    if view.get("drawn"):
        h += DRAWN_CARD + 30 if _drawn_card(view) else 24
    if view.get("trade"):
        h += 24 + 19 * len(_trade_lines(view, _names(view)))
    if _movement_line(view):
        h += 22
    return h


def _draw_supplies(
    img: Image.Image, draw: ImageDraw.ImageDraw, view: dict[str, Any], names: dict[str, str], x: int, y: int
) -> None:
    h = _supplies_height(view)
    _box(draw, x, y, PANEL_W, h, sp.PANEL_EDGE)
    cx = x + 12
    cy = y + 12
    empty = view.get("decks_empty", {})
    for label, key, fill, mark in (
        ("Discovery", "discovery", sp.CARD_EDGE, "F"),
        ("Supply", "supply", sp.ITEM_BACK, "?"),
        ("Darkness", "darkness", sp.FOREST, "D"),
    ):
        icon = sp.card_back_icon(30, fill, mark)
        if not empty.get(key, False):  # Q6: a card back, never the number of cards
            _paste(img, icon, cx, cy)
        _text(img, label, cx + icon.width + 5, cy - 1, 14, sp.MUTED)
        if empty.get(key, False):
            _text(img, "empty", cx + icon.width + 5, cy + 13, 17, sp.MUTED)
        cx += 112
    cy += 34 + 12
    gem = sp.emerald_icon(22)
    _paste(img, gem, x + 12, cy)
    bx = _text(img, f"Bank {view.get('bank', 0)}", x + 40, cy + 1, 17, sp.TEXT)
    bl = sp.bleina_icon(24)
    _paste(img, bl, bx + 24, cy - 1)
    _text(img, "Bleina", bx + 52, cy + 2, 15, sp.MUTED)
    cy += 26
    _text(img, "Reliquary (Fragments left)", x + 12, cy, 15, sp.MUTED)
    cy += 22
    rel = view.get("reliquary", {})
    for i, key in enumerate(sp.FRAGMENT_KEYS):
        col, row = divmod(i, 4)
        ex, ey = x + 12 + col * 178, cy + row * 28
        _paste(img, sp.fragment_icon(key, 24, rel.get(key, 0) > 0), ex, ey)
        _text(img, f"{i + 1} {key.capitalize()}", ex + 30, ey + 3, 15, sp.TEXT)
        n = str(rel.get(key, 0))
        _text(img, n, ex + 150 - sp.text_width(n, 16), ey + 3, 16, sp.TEXT)
    cy += 4 * 28 + 6
    for line in _played_lines(view):
        _text(img, line, x + 12, cy, 14, sp.MUTED)
        cy += 20
    if view.get("discard"):
        cy += 4
    drawn = view.get("drawn")
    if drawn:
        card = _drawn_card(view)
        _text(img, "Drawn Frontier", x + 12, cy, 15, sp.GOLD, True)
        if card is not None:
            sprite = sp.frontier_card(*card, DRAWN_CARD)
            img.paste(sprite, (x + 12, cy + 22))
            lines = sp.wrap(card[0], 16, PANEL_W - DRAWN_CARD - 40)
            for i, line in enumerate(lines[:3]):
                _text(img, line, x + DRAWN_CARD + 24, cy + 24 + i * 20, 16, sp.TEXT)
            roads = "Roads: " + " ".join(card[1]) if card[1] else "No roads"
            _text(img, roads, x + DRAWN_CARD + 24, cy + 26 + len(lines[:3]) * 20, 14, sp.MUTED)
            cy += DRAWN_CARD + 30
        else:
            _text(img, str(drawn), x + 140, cy, 15, sp.TEXT)
            cy += 24
    move = _movement_line(view)
    if move:
        _text(img, move, x + 12, cy, 15, sp.TEXT)
        cy += 22
    trade = view.get("trade")
    if trade:
        a = names.get(trade.get("from"), "?")
        b = names.get(trade.get("to"), "?")
        stage = "offered" if trade.get("stage") == "offer" else "being built"
        _text(img, f"Trade {a} - {b} ({stage})", x + 12, cy, 16, sp.GOLD)
        cy += 24
        for line in _trade_lines(view, names):
            _text(img, line, x + 12, cy, 14, sp.TEXT)
            cy += 19


def _placement_cells(view: dict[str, Any]) -> set[tuple[int, int]]:
    """The cells where the pending placement may go (the view's ``placement_cells``)."""
    if view.get("phase") not in ("place_frontier", "place_forest"):
        return set()
    return {_cell(c) for c in view.get("placement_cells") or []}


def _played_lines(view: dict[str, Any]) -> list[str]:
    """The Items played so far (public once played), wrapped for the side panel."""
    discard = view.get("discard") or {}
    if not discard:
        return []
    played = ", ".join(f"{ITEM_WORDS.get(k, k)} {n}" for k, n in discard.items())
    return sp.wrap(f"Items played: {played}", 14, PANEL_W - 24)[:2]


def _movement_line(view: dict[str, Any]) -> str:
    """The active player's turn so far in a few words (empty when there is nothing to say)."""
    if view.get("finished") or not view.get("active"):
        return ""
    m = view.get("movement") or {}
    parts = []
    if m.get("moved") or m.get("steps"):
        parts.append(f"moved {m.get('steps', 0)}/{m.get('max_steps', 1)}")
    if m.get("wings"):
        parts.append("Wings")
    if m.get("bleina_used"):
        parts.append("Bleina used")
    if m.get("free_bleina"):
        parts.append("free Bleina (Flute)")
    if view.get("extra_turns"):
        parts.append(f"extra turns owed: {view['extra_turns']}")
    return ("This turn: " + ", ".join(parts)) if parts else ""


def _trade_lines(view: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The trade's terms wrapped for the side panel (at most three lines)."""
    terms = _plain(str((view.get("trade") or {}).get("terms", "")), names)
    lines = sp.wrap(terms, 14, PANEL_W - 24)
    if len(lines) > 3:
        lines = [*lines[:2], sp.ellipsize(" ".join(lines[2:]), 14, PANEL_W - 24)]
    return lines


def _drawn_card(view: dict[str, Any]) -> tuple[str, tuple[str, ...], bool, str | None, str] | None:
    """The printed face of the face-up Frontier card awaiting placement or resolution (its
    name, roads, Dragon symbol, Fragment, kind), from the view's ``drawn_card``."""
    card = view.get("drawn_card")
    if not card:
        return None
    return (
        str(card["name"]),
        tuple(card["roads"]),
        bool(card["dragon"]),
        card.get("fragment"),
        _kind(str(card["key"])),
    )
