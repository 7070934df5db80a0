"""The Argoat map picture: a public view drawn as a PNG for Discord.

Discord shows an image attachment at most 550 px wide (less on a phone), so the picture is
1080 px wide and every text on it is at least 18 px: 9 px or more once shown 550 px wide
(docs/boards.md). The map shows the frontier cards (names, roads, Dragon symbols, the cell
coordinates typed in commands), the Dark Forests (face down, or flipped when the view says so)
with their Check Markers, the Avatars and Bleina, and the empty cells a card may go to. Beside
it (or under it, once the map is too wide) one panel per player, the decks (whether each is
empty, never its size: rule Q6), the Bank, the Reliquary, the Items played and what is being
drawn or traded. On top: the turn and whose it is.

Given ``previous`` (an earlier public view of the same game) the changes since then are marked
in white with a black edge. It reads only public views, so it cannot show a secret.
"""

from __future__ import annotations

import io
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from . import argoat_sprites as sp
from . import pillow
from .argoat_marks import Changes, changes, deck_empty
from .argoat_palette import Palette, drawing_palette
from .memo import memo, on_clear_all
from .png_bands import png_bytes

WIDTH = 1080
"""Width of the picture (wider only for a map of more than thirteen columns)."""
F = sp.LABEL
"""The smallest text on the picture (18 px)."""
MARGIN = 6
HEADER_H = 44
RULER = 28
CELL_W, CELL_H = 104, 116
"""A map cell: the card (100 x 112) and the gap around it."""
COMPACT_W = 80
"""A map cell of a wide map: a narrower card (76 x 112), so that 13 columns fit 1080 px."""
GAP = 4
MIN_CELL = COMPACT_W
"""The narrowest a map cell gets (for callers that check the map's minimum cell size)."""
PANEL_W = 312
PLAYER_H = 98
BLOCK_GAP = 8
COLUMN_GAP = 10
AVATAR = 28
STEP = 2
"""The map's frame grows by this many cells at a time, so the picture keeps its size."""
MAP_ROOM = WIDTH - 2 * MARGIN - RULER
"""Room for the map's columns when it takes the whole width."""
WIDE_COLS = MAP_ROOM // CELL_W
"""Columns of full-size cards that fit 1080 px (10)."""
COMPACT_COLS = MAP_ROOM // COMPACT_W
"""Columns of compact cards that fit 1080 px (13); a wider map widens the picture."""
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

Box = tuple[int, int, int, int]


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


def _placement_cells(view: dict[str, Any]) -> set[tuple[int, int]]:
    """The cells where the pending placement may go (the view's ``placement_cells``)."""
    if view.get("phase") not in ("place_frontier", "place_forest"):
        return set()
    return {_cell(c) for c in view.get("placement_cells") or []}


def map_columns(view: dict[str, Any]) -> int:
    """Columns of placed cards (the view's ``bounds``: it only grows during a game)."""
    b = view["bounds"]
    return b["max_x"] - b["min_x"] + 1


def compact(view: dict[str, Any]) -> bool:
    """Whether the map is drawn with compact cards: once its placed cards and the ring of empty
    cells around them (at most one more column on each side) may not fit ten full-size columns.
    Decided from the placed cards only, which never shrink, so a game's map switches once and
    never back (the empty cells come and go from turn to turn)."""
    return map_columns(view) + 2 > WIDE_COLS


def _stepped(n: int) -> int:
    return max(STEP, -(-n // STEP) * STEP)


# --- canvas ----------------------------------------------------------------------------------


class _Same:
    """A sprite as a cache key: the very same image object (it keeps the image alive, so its
    identity cannot be reused while the cache entry exists)."""

    __slots__ = ("img",)

    def __init__(self, img: Image.Image) -> None:
        self.img = img

    def __hash__(self) -> int:
        return id(self.img)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.img is self.img


class _Sprite:
    """What pasting a sprite on the palette needs, kept with the sprite: its size, whether it
    covers what lies under it (then its palette entries), and the ground it was last blended
    over with that blend (most sprites land on one ground again and again)."""

    __slots__ = ("h", "img", "last", "mapped", "w")

    def __init__(self, img: Image.Image) -> None:
        self.img = img  # kept alive while this is kept: its id is not reused meanwhile
        self.w, self.h = img.size
        opaque = img.mode != "RGBA" or img.getchannel("A").getextrema()[0] == 255
        self.mapped = pillow.core(drawing_palette().indices(img.convert("RGB"))) if opaque else None
        """The opaque sprite's palette entries (Pillow's image core), else None."""
        self.last: tuple[int, pillow.Core, pillow.Core] | None = None
        """The ground it was last blended over, the blend and its mask (image cores); one
        attribute, replaced whole, so another thread never reads half of it."""


SPRITES = 2048
"""How many sprites' palette versions are kept (as many as the memos they replace kept: a
sprite, at most 100 x 112 px, its palette entries when opaque and its last blend; two whole
games use about 1,300)."""
_SPRITES: OrderedDict[int, _Sprite] = OrderedDict()


def _sprite(img: Image.Image) -> _Sprite:
    """The palette version of a sprite (a cached image: the same object every time it is asked
    for), made the first time. As render/memo.py: a look-up takes no lock (a sprite made twice
    by two threads at once is the same)."""
    key = id(img)
    got = _SPRITES.get(key)
    if got is not None and got.img is img:
        try:  # noqa: SIM105 (as render/memo.py)
            _SPRITES.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile: still good
            pass
        return got
    got = _Sprite(img)
    _SPRITES[key] = got
    while len(_SPRITES) > SPRITES:
        try:
            _SPRITES.popitem(last=False)
        except KeyError:  # emptied by another thread meanwhile
            break
    return got


on_clear_all(_SPRITES.clear)


@memo(256)
def _blend_lut(colour: sp.RGB, ground: int) -> list[int]:
    """For each opacity 0-255: the palette entry of ``colour`` at that opacity over the ground
    (blended as a paste blends it)."""
    pal = drawing_palette()
    strip = Image.new("RGB", (256, 1), pal.ground[ground])
    ink = Image.new("RGBA", (256, 1), colour)
    ink.putalpha(Image.frombytes("L", (256, 1), bytes(range(256))))
    strip.paste(ink, (0, 0), ink)
    return list(pal.indices(strip).tobytes())


_SEEN = [0] + [255] * 255
"""Opacity to mask: every pixel not fully transparent."""


@memo(8192)
def _on_ground(sprite: _Same, ground: int) -> tuple[Image.Image, Image.Image]:
    """A sprite with transparency blended over a ground of one palette entry and mapped onto the
    palette, with the mask of its pixels that are not fully transparent."""
    alpha = sprite.img.getchannel("A")
    mask = pillow.look_up(alpha, _SEEN)
    colours = sprite.img.convert("RGB").getcolors(1)
    if colours:  # one colour at many opacities (text): a table from opacity to palette entry
        rgb = colours[0][1]
        assert isinstance(rgb, tuple)  # an RGB image's colours are (r, g, b)
        return pillow.look_up(alpha, _blend_lut((rgb[0], rgb[1], rgb[2]), ground)), mask
    pal = drawing_palette()
    img = Image.new("RGB", sprite.img.size, pal.ground[ground])
    img.paste(sprite.img, (0, 0), sprite.img)
    return pal.indices(img), mask


@memo(2048)
def _on_grounds(sprite: _Same, size: tuple[int, int], offset: tuple[int, int], under: bytes) -> Image.Image:
    """A sprite with transparency blended over a mixed ground (palette entries ``under``, an
    area of ``size`` the sprite covers from ``offset``) and mapped onto the palette."""
    pal = drawing_palette()
    img = pal.as_drawn(Image.frombytes("L", size, under))
    img.paste(sprite.img, offset, sprite.img)
    return pal.indices(img)


class _PaletteDraw:
    """``ImageDraw`` on the palette picture, taking colours as RGB (shapes are not smoothed, so
    a shape's pixels are its colour's palette entry)."""

    def __init__(self, img: Image.Image, pal: Palette, canvas: _Canvas) -> None:
        self._draw = ImageDraw.Draw(img)
        self._pal = pal
        self._canvas = canvas

    def _inks(self, xy: Any, kw: dict[str, Any]) -> dict[str, Any]:
        touched = self._canvas.touched
        if touched is not None:
            pad = int(kw.get("width", 1)) + 2
            xs, ys = xy[0::2], xy[1::2]
            touched.append((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))
        for key in ("fill", "outline"):
            if kw.get(key) is not None:
                kw[key] = self._pal.index(kw[key])
        return kw

    def rectangle(self, xy: Any, **kw: Any) -> None:
        self._draw.rectangle(xy, **self._inks(xy, kw))

    def rounded_rectangle(self, xy: Any, radius: float = 0, **kw: Any) -> None:
        self._draw.rounded_rectangle(xy, radius, **self._inks(xy, kw))

    def line(self, xy: Any, **kw: Any) -> None:
        self._draw.line(xy, **self._inks(xy, kw))

    def ellipse(self, xy: Any, **kw: Any) -> None:
        self._draw.ellipse(xy, **self._inks(xy, kw))


@dataclass(frozen=True, slots=True)
class _Shifted:
    """A block's lines of text, placed at (x, y)."""

    texts: tuple[tuple[str, Box], ...]
    x: int
    y: int


class _Canvas:
    """A picture on the fixed Argoat palette with pasting helpers (an RGB picture with
    ``rgb=True``, to learn the palette from); it records every font size it draws text at.

    The palette picture is composed as an "L" image of palette entries (no palette to copy
    with every crop) and becomes a palette image, byte for byte, when done (:meth:`image`)."""

    def __init__(self, w: int, h: int, rgb: bool = False) -> None:
        self.pal = None if rgb else drawing_palette()
        self.draw: Any
        if self.pal is None:
            self.img = Image.new("RGB", (w, h), sp.BG)
            self.draw = ImageDraw.Draw(self.img)
        else:
            self.img = Image.new("L", (w, h), self.pal.index(sp.BG))
            self.draw = _PaletteDraw(self.img, self.pal, self)
        self.fonts: set[int] = set()
        self.texts: list[tuple[str, Box] | _Shifted] = []
        """The lines of text drawn, in order; a block's lines are kept as the block's, moved
        (:meth:`all_texts` lists them all: a PNG needs none of them)."""
        self.touched: list[Box] | None = None
        """When a list: the boxes drawn on since it was set (shapes and pastes)."""

    def paste(self, sprite: Image.Image, x: int, y: int) -> None:
        """Paste a sprite (blended where it is transparent). Sprites are cached images: their
        palette versions are cached with them."""
        if self.pal is None:
            if self.touched is not None:
                self.touched.append((x, y, x + sprite.width, y + sprite.height))
            self.img.paste(sprite, (x, y), sprite if sprite.mode == "RGBA" else None)
            return
        got = _sprite(sprite)
        if self.touched is not None:
            self.touched.append((x, y, x + got.w, y + got.h))
        if got.mapped is not None:  # Pillow's image core: the same paste, without its wrapper
            pillow.core(self.img).paste(got.mapped, (x, y, x + got.w, y + got.h))
        else:
            self._blend(got, x, y)

    def all_texts(self) -> tuple[tuple[str, Box], ...]:
        """Every line of text drawn, with its box, in the order drawn."""
        out: list[tuple[str, Box]] = []
        for entry in self.texts:
            if isinstance(entry, _Shifted):
                out += [(text, _moved(box, entry.x, entry.y)) for text, box in entry.texts]
            else:
                out.append(entry)
        return tuple(out)

    def image(self) -> Image.Image:
        """The finished picture (a palette image, or RGB)."""
        if self.pal is None:
            return self.img
        img = self.img.convert("P")  # the same bytes (an "L" image keeps its values as "P")
        img.putpalette(self.pal.flat)
        return img

    def _blend(self, got: _Sprite, x: int, y: int) -> None:
        core = pillow.core(self.img)  # the same crop and paste, without their wrappers
        width, height = core.size
        box = (max(x, 0), max(y, 0), min(x + got.w, width), min(y + got.h, height))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        low, high = core.crop(box).getextrema()
        if low == high:  # one ground: the blend is cached
            last = got.last
            if last is None or last[0] != low:
                mapped, mask = _on_ground(_Same(got.img), low)
                got.last = last = (low, pillow.core(mapped), pillow.core(mask))
            core.paste(last[1], (x, y, x + got.w, y + got.h), last[2])
            return
        # the same sprite often lands on one mixed ground
        under = pillow.pixels(pillow.wrap(self.img, core.crop(box)))
        size, offset = (box[2] - box[0], box[3] - box[1]), (x - box[0], y - box[1])
        core.paste(pillow.core(_on_grounds(_Same(got.img), size, offset, under)), box)

    def text(self, text: str, x: int, y: int, size: int, colour: sp.RGB, bold: bool = False) -> int:
        """Draw one line with its left at ``x``; return the x after it."""
        t = sp.text_sprite(text, size, colour, bold)
        self.paste(t, x, y)
        self.fonts.add(size)
        self.texts.append((text, (x, y, x + t.width, y + t.height)))
        return x + t.width

    def avatar(self, colour: str, letter: str, size: int, ring: bool, x: int, y: int) -> Image.Image:
        icon = sp.avatar_icon(colour, letter, size, ring)
        self.paste(icon, x, y)
        if letter:
            self.fonts.add(sp.avatar_letter_px(size))
        return icon

    def marker(self, colour: str, letter: str, size: int, x: int, y: int) -> None:
        self.paste(sp.marker_icon(colour, letter, size), x, y)
        if letter and sp.marker_letter_px(size):
            self.fonts.add(sp.marker_letter_px(size))

    def card_back(self, size: int, fill: sp.RGB, mark: str, x: int, y: int) -> Image.Image:
        icon = sp.card_back_icon(size, fill, mark)
        self.paste(icon, x, y)
        if mark:
            self.fonts.add(sp.card_back_mark_px(size))
        return icon


@dataclass
class _Spots:
    """Where things were drawn, for the change marks."""

    tokens: dict[str, Box] = field(default_factory=dict)
    bleinas: dict[tuple[int, int], list[Box]] = field(default_factory=dict)
    markers: dict[tuple[int, int], list[Box]] = field(default_factory=dict)
    emeralds: dict[str, Box] = field(default_factory=dict)
    items: dict[str, Box] = field(default_factory=dict)
    fragments: dict[tuple[str, str], Box] = field(default_factory=dict)
    bank: Box | None = None
    reliquary: dict[str, Box] = field(default_factory=dict)
    decks: dict[str, Box] = field(default_factory=dict)
    played: Box | None = None


# --- layout ----------------------------------------------------------------------------------


@dataclass
class Layout:
    """The picture's size and where the map and the panels go."""

    width: int
    height: int
    side: bool
    """The panels are beside the map (else under it, in columns)."""
    min_x: int
    max_y: int
    map_x: int
    map_y: int
    cols: int
    rows: int
    panel_x: int
    panel_y: int
    columns: list[list[tuple[int, Any]]]
    column_w: int
    slots: list[tuple[int, int]]
    cell_w: int = CELL_W
    """Width of a map cell: :data:`CELL_W`, or :data:`COMPACT_W` for a wide map."""

    @property
    def card_w(self) -> int:
        """Width of a card on the map."""
        return self.cell_w - GAP

    def origin(self, x: int, y: int) -> tuple[int, int]:
        """Top-left pixel of the card at cell (x, y)."""
        return (
            self.map_x + (x - self.min_x) * self.cell_w + GAP // 2,
            self.map_y + (self.max_y - y) * CELL_H + GAP // 2,
        )


class _Layout(Layout):
    """The layout of a view (kept under its old name for callers)."""

    def __init__(self, view: dict[str, Any]) -> None:
        lay = layout(view)
        self.__dict__.update(lay.__dict__)


def _extent(view: dict[str, Any], slots: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    b = view["bounds"]
    xs = [b["min_x"], b["max_x"]] + [c[0] for c in slots]
    ys = [b["min_y"], b["max_y"]] + [c[1] for c in slots]
    return min(xs), max(xs), min(ys), max(ys)


def layout(view: dict[str, Any]) -> Layout:
    """Where everything goes. The map's frame grows two cells at a time and the panels' heights
    depend only on the number of players and on what is going on, so the picture keeps its size
    from turn to turn."""
    placing = view.get("phase") in ("place_frontier", "place_forest")
    slots: list[tuple[int, int]] = []
    if placing or not deck_empty(view, "discovery"):
        slots = sorted(set(_open_cells(view)) | _placement_cells(view))
    x0, x1, y0, y1 = _extent(view, slots)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    frame_rows = _stepped(rows)
    map_y = HEADER_H + MARGIN + RULER
    side_room = WIDTH - 2 * MARGIN - RULER - PANEL_W - MARGIN
    side_cols = side_room // CELL_W
    if cols <= side_cols:
        frame_cols = min(_stepped(cols), side_cols)
        column = _blocks(view, PANEL_W)
        panel_h = _height(column)
        height = max(HEADER_H + MARGIN + panel_h + MARGIN, map_y + frame_rows * CELL_H + MARGIN)
        map_x = MARGIN + RULER + (side_room - frame_cols * CELL_W) // 2
        panel_x = WIDTH - MARGIN - PANEL_W
        map_h = height - map_y - MARGIN
        map_y += max(0, (map_h - frame_rows * CELL_H) // 2)
        return _centred(
            Layout(WIDTH, height, True, x0, y1, map_x, map_y, frame_cols, frame_rows, panel_x,
                   HEADER_H + MARGIN, [column], PANEL_W, slots),
            cols, rows,
        )  # fmt: skip
    cell_w, wide_cols = (COMPACT_W, COMPACT_COLS) if compact(view) else (CELL_W, WIDE_COLS)
    frame_cols = min(_stepped(cols), wide_cols) if cols <= wide_cols else cols
    width = max(WIDTH, 2 * MARGIN + RULER + frame_cols * cell_w)
    n = 3
    column_w = (width - 2 * MARGIN - (n - 1) * COLUMN_GAP) // n
    columns = _pack(_blocks(view, column_w, split=True), n)
    panel_y = map_y + frame_rows * CELL_H + MARGIN
    height = panel_y + max(_height(c) for c in columns) + MARGIN
    map_x = MARGIN + RULER + (width - 2 * MARGIN - RULER - frame_cols * cell_w) // 2
    return _centred(
        Layout(width, height, False, x0, y1, map_x, map_y, frame_cols, frame_rows, MARGIN, panel_y,
               columns, column_w, slots, cell_w),
        cols, rows,
    )  # fmt: skip


def _centred(lay: Layout, cols: int, rows: int) -> Layout:
    """Put the cards in the middle of the (stepped) frame."""
    lay.min_x -= (lay.cols - cols) // 2
    lay.max_y += (lay.rows - rows) // 2
    return lay


def _height(column: list[tuple[int, Any]]) -> int:
    return sum(h for h, _ in column) + BLOCK_GAP * max(0, len(column) - 1)


def _pack(blocks: list[tuple[int, Any]], n: int) -> list[list[tuple[int, Any]]]:
    """Blocks in reading order cut into ``n`` columns so that the tallest is as short as possible."""
    start, cols = 0, []
    for end in _cuts(tuple(h for h, _ in blocks), n):
        cols.append(blocks[start:end])
        start = end
    return cols


@memo(64)
def _cuts(heights: tuple[int, ...], n: int) -> tuple[int, ...]:
    """Where :func:`_pack` cuts blocks of these heights (the end of each column)."""
    blocks = [(h, None) for h in heights]
    best: list[list[tuple[int, Any]]] | None = None
    best_ends: list[int] = [len(blocks)]
    total = len(blocks)

    def cuts(start: int, left: int) -> list[list[int]]:
        if left == 1:
            return [[total]]
        return [[end, *rest] for end in range(start, total + 1) for rest in cuts(end, left - 1)]

    for ends in cuts(0, n):
        cols, start = [], 0
        for end in ends:
            cols.append(blocks[start:end])
            start = end
        if best is None or max(_height(c) for c in cols) < max(_height(c) for c in best):
            best, best_ends = cols, ends
    return tuple(best_ends)


# --- entry points ----------------------------------------------------------------------------


@dataclass
class Drawing:
    """A drawn map: the picture (palette mode), the font sizes of every text on it, and each line of text
    drawn directly (not baked into a card) with its box (x0, y0, x1, y1)."""

    image: Image.Image
    fonts: frozenset[int]
    marked: bool
    texts: tuple[tuple[str, Box], ...] = ()


def draw(view: dict[str, Any], previous: dict[str, Any] | None = None, *, rgb: bool = False) -> Drawing:
    """The public Argoat view drawn on the fixed palette, with the changes since ``previous``
    (``rgb=True``: drawn in RGB, as the palette is learnt from)."""
    cv, marked = _compose(view, previous, rgb)
    return Drawing(cv.image(), frozenset(cv.fonts), marked, cv.all_texts())


def _compose(view: dict[str, Any], previous: dict[str, Any] | None, rgb: bool) -> tuple[_Canvas, bool]:
    """The canvas with the view drawn on it, and whether changes are marked."""
    lay = layout(view)
    ch = changes(previous, view)
    cv = _Canvas(lay.width, lay.height, rgb)
    spots = _Spots()
    _draw_header(cv, view, lay.width, bool(ch))
    _draw_map(cv, view, lay, spots)
    _draw_pieces(cv, view, lay, spots, ch)
    _draw_panels(cv, view, lay, spots, ch)
    if ch:
        _draw_marks(cv, view, lay, spots, ch)
    _keep_names_readable(cv, view, lay)
    return cv, bool(ch)


def draw_board(
    view: dict[str, Any], previous: dict[str, Any] | None = None, *, rgb: bool = False
) -> Image.Image:
    """The public Argoat view drawn as a palette image (an RGB one with ``rgb=True``)."""
    return draw(view, previous, rgb=rgb).image


def render_board(view: dict[str, Any], previous: dict[str, Any] | None = None) -> bytes:
    """The public Argoat view drawn as PNG bytes; changes since ``previous`` are marked.

    The picture is the one :func:`draw_board` gives; its PNG is put together from compressed
    bands of rows cached between maps (render/png_bands.py), not by Pillow's encoder."""
    cv, _marked = _compose(view, previous, False)
    assert cv.pal is not None
    return png_bytes(cv.img, cv.pal.plte)


def encode(img: Image.Image) -> bytes:
    """PNG bytes of a drawn board by Pillow's encoder (already on the fixed palette: no
    conversion); the floor the renderer is measured against."""
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


# --- header ----------------------------------------------------------------------------------


def _player_by_id(view: dict[str, Any], pid: str | None) -> dict[str, Any] | None:
    for p in view["players"]:
        if p["id"] == pid:
            return p
    return None


def _mark_key(cv: _Canvas, x: int, y: int) -> None:
    cv.draw.rectangle((x, y, x + 20, y + 20), outline=sp.BLACK, width=5)
    cv.draw.rectangle((x + 1, y + 1, x + 19, y + 19), outline=sp.HILITE, width=3)


def _draw_header(cv: _Canvas, view: dict[str, Any], width: int, marked: bool) -> None:
    winner = _player_by_id(view, view.get("winner"))
    active = _player_by_id(view, view.get("active"))
    args = (
        f"{str(view.get('difficulty', '')).capitalize()} · Turn {view.get('turn', 0)}",
        marked,
        (winner["colour"], winner["letter"]) if winner is not None else None,
        bool(view.get("finished")) or active is None,
        (active["colour"], active["letter"]) if active is not None else None,
        PHASE_WORDS.get(str(view.get("phase")), str(view.get("phase"))),
    )
    _put(cv, _paint_header, width, HEADER_H, args, 0, 0, _Spots())


def _paint_header(
    cv: _Canvas, x0: int, y0: int, width: int, spots: _Spots, turn: str, marked: bool,
    winner: tuple[str, str] | None, over: bool, active: tuple[str, str] | None, phase: str,
) -> None:  # fmt: skip
    cv.draw.rectangle((0, 0, width, HEADER_H - 1), fill=sp.PANEL)
    cv.draw.line((0, HEADER_H - 1, width, HEADER_H - 1), fill=sp.PANEL_EDGE, width=1)
    x = cv.text("ARGOAT", MARGIN + 4, 6, 24, sp.GOLD, True) + 14
    x = cv.text(turn, x, 9, 20, sp.MUTED)
    x += 20
    if marked:
        note = "changed since last turn"
        cv.text(note, width - MARGIN - sp.text_width(note, F) - 2, 11, F, sp.TEXT)
        _mark_key(cv, width - MARGIN - sp.text_width(note, F) - 30, 12)
    if winner is not None:
        icon = cv.avatar(winner[0], winner[1], 30, False, x, 6)
        cv.text(f"{winner[0]} wins!", x + icon.width + 8, 9, 20, sp.GOLD, True)
    elif over or active is None:
        cv.text("Game over", x, 9, 20, sp.GOLD, True)
    else:
        icon = cv.avatar(active[0], active[1], 30, True, x, 3)
        x += icon.width + 8
        x = cv.text(active[0], x, 9, 20, sp.player_text(active[0]), True)
        cv.text(f"  {phase}", x, 10, 20, sp.TEXT)


# --- map -------------------------------------------------------------------------------------


def _per_row(n: int, width: int) -> int:
    """How many of ``n`` tokens go in one row on a card ``width`` wide (see _token_positions)."""
    full = 4 if width >= CELL_W - GAP - 4 else 3
    return full if n <= 2 * full else -(-n // 2)


def _token_positions(
    n: int, size: int, pitch: int, width: int, bottom: int, left: int
) -> list[tuple[int, int]]:
    """Top-left corners for ``n`` tokens of ``size`` in rows of up to four (three on a compact
    card; closer than ``pitch`` when a row is full, overlapping only their rims), the last row
    ending at ``bottom``, centred in ``width``."""
    if n == 0:
        return []
    per_row = _per_row(n, width)
    rows = [min(per_row, n - i) for i in range(0, n, per_row)]
    out = []
    y = bottom - len(rows) * (size - 2) - 2
    for count in rows:
        step = pitch
        if count > 1 and (count - 1) * step + size > width:
            step = (width - size) // (count - 1)
        row_w = (count - 1) * step + size
        x = left + (width - row_w) // 2
        for _ in range(count):
            out.append((x, y))
            x += step
        y += size - 2
    return out


_FrontierRow = tuple[int, int, str, tuple[str, ...], bool, str | None, str]
"""A placed Frontier card: x, y, name, roads, Dragon, Fragment, kind."""


@dataclass(frozen=True)
class _MapBase:
    """What the map shows without its pieces, and where (the memo's key of the map's block)."""

    geometry: tuple[int, ...]
    """The layout's map_x, cols, rows, min_x, max_y, cell_w and the block's size."""
    slots: tuple[tuple[int, int], ...]
    strong: frozenset[tuple[int, int]]
    frontiers: tuple[_FrontierRow, ...]
    forests: tuple[tuple[int, int, tuple[str, ...], str | None, tuple[tuple[str, str], ...]], ...]
    """x, y, roads, content (when flipped), Check Markers (colour, letter)."""
    forest_for: str | None


MAP_BLOCKS = 8
"""How many maps without their pieces are kept (one byte a pixel, at most about 1.5 MB each:
12 MB; most maps of a game share theirs with the map before)."""


def _frontier_rows(view: dict[str, Any]) -> tuple[_FrontierRow, ...]:
    """The placed Frontier cards as in :class:`_MapBase`."""
    return tuple(
        (f["x"], f["y"], f["name"], tuple(f["roads"]), bool(f["dragon"]), f.get("fragment"), _kind(f["key"]))
        for f in view["frontiers"]
    )


def _map_base(view: dict[str, Any], lay: Layout, size: tuple[int, int]) -> _MapBase:
    letters = {p["colour"]: p["letter"] for p in view["players"]}
    return _MapBase(
        (lay.map_x, lay.cols, lay.rows, lay.min_x, lay.max_y, lay.cell_w, *size),
        tuple(lay.slots),
        frozenset(_placement_cells(view)),
        _frontier_rows(view),
        tuple(
            (
                f["x"],
                f["y"],
                tuple(f["roads"]),
                f.get("content") if f.get("flipped") else None,
                tuple((c, letters.get(c, c[:1])) for c in f.get("markers", [])),
            )
            for f in view["forests"]
        ),
        view.get("forest_for"),
    )


@memo(MAP_BLOCKS)
def _map_block(base: _MapBase) -> _Block:
    """The map without its pieces, drawn on its own from the top of its column rulers; name
    plates included."""
    map_x, cols, rows, min_x, max_y, cell_w, w, h = base.geometry
    lay = Layout(w, h, False, min_x, max_y, map_x, RULER, cols, rows, 0, 0, [], 0, list(base.slots), cell_w)
    cv = _Canvas(w, h)
    spots = _Spots()
    _paint_map_base(cv, base, lay, spots)
    _paste_plates(cv, base.frontiers, lay, {})
    return _drawn_block(cv, spots)


def _draw_map(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots) -> None:
    """The map without its pieces (a cached block on the palette)."""
    if cv.pal is None:  # drawing in RGB (to learn the palette): no cache
        _paint_map_base(cv, _map_base(view, lay, (0, 0)), lay, spots)
    else:  # the block from the top of the column rulers to the frame's bottom right corner
        top = lay.map_y - RULER
        size = (
            min(cv.img.width, lay.map_x + lay.cols * lay.cell_w + GAP),
            min(cv.img.height, lay.map_y + lay.rows * CELL_H + GAP) - top,
        )
        _place(cv, _map_block(_map_base(view, lay, size)), 0, top, spots)
        cv.touched = []  # from here on, the name plates that something covers are pasted again


def _paint_map_base(cv: _Canvas, base: _MapBase, lay: Layout, spots: _Spots) -> None:
    """The map without its pieces: rulers, road joins, empty cells, cards and Check Markers."""
    cw, ch = lay.card_w, CELL_H - GAP
    # only columns and rows where a card or an empty place is drawn are named (the map keeps
    # empty room to grow into, so that its size stays put, but that room is not a place)
    drawn = {(f[0], f[1]) for f in (*base.frontiers, *base.forests)} | set(base.slots)
    used_x, used_y = {c[0] for c in drawn}, {c[1] for c in drawn}
    for c in range(lay.cols):
        x = lay.min_x + c
        if x not in used_x:
            continue
        label = str(x)
        ox, _ = lay.origin(x, lay.max_y)
        cv.text(label, ox + (cw - sp.text_width(label, F)) // 2, lay.map_y - RULER + 2, F, sp.MUTED)
    for r in range(lay.rows):
        y = lay.max_y - r
        if y not in used_y:
            continue
        label = str(y)
        _, oy = lay.origin(lay.min_x, y)
        cv.text(label, lay.map_x - sp.text_width(label, F) - 6, oy + (ch - 22) // 2, F, sp.MUTED)

    frontiers = {(f[0], f[1]): f for f in base.frontiers}
    forests = {(f[0], f[1]): f for f in base.forests}
    road_w = max(4, round(min(cw, ch) * 0.17) - 2)
    roads: list[tuple[int, int, tuple[str, ...]]] = [(f[0], f[1], f[3]) for f in base.frontiers]
    roads += [(f[0], f[1], f[2]) for f in base.forests]
    for x, y, sides in roads:  # road joins across the gaps
        ox, oy = lay.origin(x, y)
        for side in sides:
            if side == "E" and ((x + 1, y) in frontiers or (x + 1, y) in forests):
                box = (ox + cw - 2, oy + ch // 2 - road_w // 2, ox + cw + GAP + 1, oy + ch // 2 + road_w // 2)
                cv.draw.rectangle(box, fill=sp.ROAD)
            if side == "N" and ((x, y + 1) in frontiers or (x, y + 1) in forests):
                box = (ox + cw // 2 - road_w // 2, oy - GAP - 2, ox + cw // 2 + road_w // 2, oy + 1)
                cv.draw.rectangle(box, fill=sp.ROAD)

    for x, y in base.slots:
        ox, oy = lay.origin(x, y)
        cv.paste(sp.empty_slot(f"{x},{y}", cw, ch, (x, y) in base.strong), ox, oy)
        cv.fonts.add(F)

    for x, y, name, card_roads, dragon, fragment, kind in base.frontiers:
        ox, oy = lay.origin(x, y)
        tag = sp.coord_tag(f"{x},{y}")
        cv.paste(sp.frontier_card(name, card_roads, dragon, fragment, kind, cw, ch, tag.width), ox, oy)
        cv.fonts.add(F)
        cv.paste(tag, ox + sp.TAG_X, oy + sp.TAG_X)

    for x, y, forest_roads, content, markers in base.forests:
        ox, oy = lay.origin(x, y)
        cv.paste(sp.forest_card(forest_roads, content, cw, ch), ox, oy)
        if content:
            cv.fonts.add(F)
        cv.paste(sp.coord_tag(f"{x},{y}"), ox + sp.TAG_X, oy + sp.TAG_X)
        ms = 22
        boxes = []
        left = ox + max(3, cw - 4 - 3 * (ms + 2))
        for i, (colour, letter) in enumerate(markers):
            row, col = divmod(i, 3)
            mx, my = left + col * (ms + 2), oy + (54 if content else 28) + row * (ms + 2)
            cv.marker(colour, letter, ms, mx, my)
            boxes.append((mx, my, mx + ms, my + ms))
        spots.markers[(x, y)] = boxes

    if base.forest_for:
        ox, oy = lay.origin(*_cell(base.forest_for))
        cv.draw.rounded_rectangle((ox - 3, oy - 3, ox + cw + 2, oy + ch + 2), 10, outline=sp.GOLD, width=3)


def _draw_pieces(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots, changed: Changes) -> None:
    """Move lines, then the Avatars and Bleina on the map."""
    cw, ch = lay.card_w, CELL_H - GAP
    if changed:
        _draw_trails(cv, view, lay, changed)
    active_id = view.get("active")
    tokens: dict[tuple[int, int], list[tuple[str, Any]]] = {}
    for b in view.get("bleinas", []):
        tokens.setdefault(_cell(b), []).append(("", None))
    for p in sorted(view["players"], key=lambda p: p["id"] == active_id):
        tokens.setdefault((p["x"], p["y"]), []).append((p["id"], p))
    for (x, y), entries in tokens.items():
        ox, oy = lay.origin(x, y)
        size = AVATAR + 6
        one_row = len(entries) <= _per_row(len(entries), cw - 4)
        bottom = oy + ch + (2 if one_row else -1)  # one row sits as low as the card allows
        pos = _token_positions(len(entries), size, AVATAR + 3, cw - 4, bottom, ox + 2)
        for (pid, p), (tx, ty) in zip(entries, pos, strict=True):
            if p is not None:
                ring = pid == active_id
                icon = sp.avatar_icon(p["colour"], p["letter"], AVATAR, ring)
                off = (size - icon.width) // 2
                cv.avatar(p["colour"], p["letter"], AVATAR, ring, tx + off, ty + off)
                spots.tokens[pid] = (tx + off, ty + off, tx + off + icon.width, ty + off + icon.width)
            else:
                off = (size - AVATAR) // 2
                cv.paste(sp.bleina_icon(AVATAR), tx + off, ty + off)
                spots.bleinas.setdefault((x, y), []).append(
                    (tx + off, ty + off, tx + off + AVATAR, ty + off + AVATAR)
                )


def _keep_names_readable(cv: _Canvas, view: dict[str, Any], lay: Layout) -> None:
    """Paste each card's name plate again over what was drawn on it: a move line and the change
    marks pass under the names, and so does the rim of a single row of pieces on a card whose
    name takes three lines. A card with two rows of pieces keeps them on top (they need the room).
    On the palette the map's block already has its plates: only those that something drawn
    since covers are pasted again."""
    pieces: dict[tuple[int, int], int] = {}
    for cell in [*(_cell(b) for b in view.get("bleinas", [])), *((p["x"], p["y"]) for p in view["players"])]:
        pieces[cell] = pieces.get(cell, 0) + 1
    _paste_plates(cv, _frontier_rows(view), lay, pieces)


def _paste_plates(
    cv: _Canvas,
    frontiers: tuple[_FrontierRow, ...],
    lay: Layout,
    pieces: dict[tuple[int, int], int],
) -> None:
    """Paste the name plates of ``frontiers`` (as in :class:`_MapBase`) again, but on cards
    with two rows of pieces, and (when the canvas records what it drew on) only where
    something covers them."""
    cw, ch = lay.card_w, CELL_H - GAP
    touched = cv.touched
    near: dict[tuple[int, int], list[Box]] | None = None
    if touched is not None:  # what was drawn since the map's block, by the cells it reaches
        near = {}
        for box in touched:
            cols = range((box[0] - lay.map_x) // lay.cell_w, (box[2] - 1 - lay.map_x) // lay.cell_w + 1)
            for r in range((box[1] - lay.map_y) // CELL_H, (box[3] - 1 - lay.map_y) // CELL_H + 1):
                for c in cols:
                    near.setdefault((lay.min_x + c, lay.max_y - r), []).append(box)
    for row in frontiers:
        if near is not None:
            touched = near.get((row[0], row[1]))  # a plate lies in its cell: only these may cover it
            if touched is None:
                continue
        n = pieces.get((row[0], row[1]), 0)
        if n > _per_row(n, cw - 4):
            continue
        ox, oy = lay.origin(row[0], row[1])
        (bx0, by0, bx1, by1), plate = _card_plate(row, cw, ch)
        x0, y0, x1, y1 = bx0 + ox, by0 + oy, bx1 + ox, by1 + oy
        if touched is not None and not any(
            x0 < t2 and t0 < x1 and y0 < t3 and t1 < y1 for t0, t1, t2, t3 in touched
        ):  # nothing drawn since the map's block overlaps the plate
            continue
        cv.paste(plate, x0, y0)


PLATES = 128
"""How many name plates of placed cards are kept (a game places 20 cards; at most about 26 KB
each: under 3.5 MB)."""


@memo(PLATES)
def _card_plate(row: _FrontierRow, cw: int, ch: int) -> tuple[Box, Image.Image]:
    """Where a placed Frontier card's name plate is on the card, and the plate (its pixels), to
    paste again over what covers it."""
    x, y, name, roads, dragon, fragment, kind = row
    tag = sp.coord_tag(f"{x},{y}")
    box = sp.plate_box(name, dragon, fragment, cw, tag.width)
    card = sp.frontier_card(name, roads, dragon, fragment, kind, cw, ch, tag.width)
    return box, card.crop(box)


def _kind(key: str) -> str:
    if key == "town":
        return "town"
    if key.startswith("trail"):
        return "trail"
    return "frontier"


# --- panels ----------------------------------------------------------------------------------


def _box(cv: _Canvas, x: int, y: int, w: int, h: int, edge: sp.RGB, width: int = 1) -> None:
    """A panel's box, drawn on the background (on the palette: a cached one pasted)."""
    if cv.pal is None:
        cv.draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), 8, fill=sp.PANEL, outline=edge, width=width)
    else:
        cv.img.paste(_box_image(w, h, edge, width), (x, y))


@memo(64)
def _box_image(w: int, h: int, edge: sp.RGB, width: int) -> Image.Image:
    """A panel's box on the background, on the palette."""
    cv = _Canvas(w, h)
    cv.draw.rounded_rectangle((0, 0, w - 1, h - 1), 8, fill=sp.PANEL, outline=edge, width=width)
    return cv.img


def _blocks(view: dict[str, Any], w: int, split: bool = False) -> list[tuple[int, Any]]:
    """The panel's blocks, each (height, draw(cv, x, y, spots, changes)), in reading order."""
    blocks: list[tuple[int, Any]] = []
    for p in view["players"]:
        blocks.append((PLAYER_H, lambda cv, x, y, s, ch, p=p: _draw_player(cv, view, p, x, y, w, s, ch)))
    blocks += _supply_blocks(view, w, split)
    return blocks


def _draw_panels(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots, ch: Changes) -> None:
    touched, cv.touched = cv.touched, None  # the panels are off the map: they cover no name plate
    x = lay.panel_x
    for column in lay.columns:
        y = lay.panel_y
        for h, draw in column:
            draw(cv, x, y, spots, ch)
            y += h + BLOCK_GAP
        x += lay.column_w + COLUMN_GAP
    cv.touched = touched


@dataclass(frozen=True)
class _Seat:
    """What a player's panel shows (all of it: the panel is cached by it)."""

    id: str
    colour: str
    letter: str
    active: bool
    deciding: bool
    winner: bool
    markers_left: int
    emeralds: int
    delta: int
    items: int
    at: str
    fragments: frozenset[str]


@dataclass(frozen=True)
class _Block:
    """A part of the picture drawn on its own (a panel, the header, the map without its pieces):
    palette entries, what it drew where, its font sizes and its lines of text."""

    image: Image.Image
    spots: _Spots
    fonts: frozenset[int]
    texts: tuple[tuple[str, Box], ...]


def _drawn_block(cv: _Canvas, spots: _Spots) -> _Block:
    return _Block(cv.img, spots, frozenset(cv.fonts), cv.all_texts())


@memo(256)
def _player_panel(seat: _Seat, w: int) -> _Block:
    """A player's panel on the palette (most panels stay the same from one map to the next)."""
    cv = _Canvas(w, PLAYER_H)
    spots = _Spots()
    _paint_player(cv, seat, 0, 0, w, spots)
    return _drawn_block(cv, spots)


def _moved(box: Box, x: int, y: int) -> Box:
    return (box[0] + x, box[1] + y, box[2] + x, box[3] + y)


def _place(cv: _Canvas, block: _Block, x: int, y: int, spots: _Spots) -> None:
    """Paste a block drawn on its own at (x, y), with its fonts, texts and spots."""
    w, h = block.image.size
    # Pillow's image core: the same paste, without its wrapper
    pillow.core(cv.img).paste(pillow.core(block.image), (x, y, x + w, y + h))
    if cv.touched is not None:
        cv.touched.append((x, y, x + w, y + h))
    cv.fonts |= block.fonts
    if block.texts:
        cv.texts.append(_Shifted(block.texts, x, y))
    got = block.spots
    for name in ("tokens", "emeralds", "items", "fragments", "reliquary", "decks"):
        boxes = getattr(got, name)
        if boxes:
            getattr(spots, name).update({k: _moved(b, x, y) for k, b in boxes.items()})
    for name in ("bleinas", "markers"):
        lists = getattr(got, name)
        if lists:
            getattr(spots, name).update({k: [_moved(b, x, y) for b in bs] for k, bs in lists.items()})
    if got.bank is not None:
        spots.bank = _moved(got.bank, x, y)
    if got.played is not None:
        spots.played = _moved(got.played, x, y)


def _draw_player(
    cv: _Canvas, view: dict[str, Any], p: dict[str, Any], x: int, y: int, w: int, spots: _Spots, ch: Changes
) -> None:
    seat = _Seat(
        p["id"], p["colour"], p["letter"], bool(p.get("active")),
        (view.get("prompt") or {}).get("player") == p["id"], view.get("winner") == p["id"],
        int(p["markers_left"]), int(p["emeralds"]), int(ch.emeralds.get(p["id"]) or 0), int(p["items"]),
        str(p["at"]), frozenset(p.get("fragments", [])),
    )  # fmt: skip
    if cv.pal is None:  # drawing in RGB (to learn the palette): no cache
        _paint_player(cv, seat, x, y, w, spots)
        return
    _place(cv, _player_panel(seat, w), x, y, spots)


def _paint_player(cv: _Canvas, p: _Seat, x: int, y: int, w: int, spots: _Spots) -> None:
    colour = p.colour
    rgb = sp.player_rgb(colour)
    deciding, active, winner = p.deciding, p.active, p.winner
    lit = active or deciding or winner
    _box(cv, x, y, w, PLAYER_H - 2, rgb if lit else sp.PANEL_EDGE, 3 if lit else 1)
    cv.draw.rectangle((x + 4, y + 8, x + 7, y + PLAYER_H - 12), fill=rgb)
    icon = cv.avatar(colour, p.letter, 30, active, x + 12, y + 5)
    tx = cv.text(colour, x + 14 + icon.width + 6, y + 6, 20, sp.player_text(colour), True)
    tag = "WINS" if winner else "TO PLAY" if active else "DECIDING" if deciding else ""
    if tag:
        t = sp.text_sprite(tag, F, sp.INK if colour == "Yellow" or winner else sp.WHITE, True)
        cv.draw.rounded_rectangle(
            (tx + 8, y + 8, tx + 8 + t.width + 8, y + 32), 5, fill=sp.GOLD if winner else rgb
        )
        cv.paste(t, tx + 12, y + 8)
        cv.fonts.add(F)
    cv.paste(sp.marker_row(colour, p.markers_left, 14, 17), x + w - 10 - 4 * 17, y + 12)
    # Emeralds, Items (a count only), where the Avatar is
    ry = y + 40
    cv.paste(sp.emerald_icon(22), x + 12, ry)
    nx = cv.text(str(p.emeralds), x + 38, ry - 1, F, sp.TEXT, True)
    spots.emeralds[p.id] = (x + 10, ry - 2, nx + 3, ry + 23)
    delta = p.delta
    if delta:
        nx = cv.text(f"{delta:+d}", nx + 9, ry - 1, F, sp.HILITE, True)
    ix = max(nx + 12, x + 76)
    back = cv.card_back(22, sp.ITEM_BACK, "", ix, ry)
    n_items = p.items
    ex = cv.text(f"{n_items} Item{'' if n_items == 1 else 's'}", ix + back.width + 4, ry - 1, F, sp.TEXT)
    spots.items[p.id] = (ix - 2, ry - 2, ex + 3, ry + 23)
    at = f"at {p.at}"
    cv.text(at, x + w - 10 - sp.text_width(at, F), ry - 1, F, sp.MUTED)
    # the eight Fragments, lit when held
    fy = y + 68
    held = p.fragments
    cv.paste(sp.fragment_row(tuple(key in held for key in sp.FRAGMENT_KEYS), 25, 29), x + 12, fy)
    for i, key in enumerate(sp.FRAGMENT_KEYS):
        fx = x + 12 + i * 29
        spots.fragments[(p.id, key)] = (fx, fy, fx + 25, fy + 25)
    cv.text(f"{len(held)}/8", x + 12 + 8 * 29 + 4, fy + 1, F, sp.GOLD if len(held) == 8 else sp.MUTED)


def _supply_blocks(view: dict[str, Any], w: int, split: bool) -> list[tuple[int, Any]]:
    """Decks and Bank; the Reliquary; then the Items played, the drawn card, the turn so far
    and the trade (each only when there is something to say)."""
    names = _names(view)
    empties = tuple(deck_empty(view, key) for key in ("discovery", "supply", "darkness"))  # Q6
    bank = view.get("bank", 0)
    rel = view.get("reliquary", {})
    left = tuple(rel.get(key, 0) for key in sp.FRAGMENT_KEYS)
    trade = view.get("trade")
    head = ""
    if trade:
        a = names.get(trade.get("from"), "?")
        b = names.get(trade.get("to"), "?")
        stage = "offered" if trade.get("stage") == "offer" else "being built"
        head = sp.ellipsize(f"Trade {a} - {b} ({stage})", F, w - 20)
    drawn = view.get("drawn")
    info_args = (
        tuple(_played_lines(view, w - 20)),
        str(drawn) if drawn else "",
        _drawn_card(view),
        _movement_line(view, w - 20),
        head,
        tuple(_trade_lines(view, names, w - 20) if trade else []),
    )
    return [
        (DECKS_H, lambda cv, x, y, s, ch: _put(cv, _paint_decks, w, DECKS_H, (empties, bank), x, y, s)),
        (REL_H, lambda cv, x, y, s, ch: _put(cv, _paint_reliquary, w, REL_H, (left,), x, y, s)),
        (INFO_H, lambda cv, x, y, s, ch: _put(cv, _paint_info, w, INFO_H, info_args, x, y, s)),
    ]


PANEL_BLOCKS = 128
"""How many panel blocks and headers are kept (each at most about 70 KB: under 9 MB)."""
DECKS_H = 4 * 26 + 12
REL_H = 30 + 4 * 26


@memo(PANEL_BLOCKS)
def _block(paint: Any, w: int, h: int, args: tuple[Any, ...]) -> _Block:
    """A panel block drawn on its own by ``paint`` from ``args`` (what it shows)."""
    cv = _Canvas(w, h)
    spots = _Spots()
    paint(cv, 0, 0, w, spots, *args)
    return _drawn_block(cv, spots)


def _put(
    cv: _Canvas, paint: Any, w: int, h: int, args: tuple[Any, ...], x: int, y: int, spots: _Spots
) -> None:
    """Draw a panel block at (x, y): pasted from the cache on the palette, painted in RGB."""
    if cv.pal is None:
        paint(cv, x, y, w, spots, *args)
    else:
        _place(cv, _block(paint, w, h, args), x, y, spots)


def _paint_decks(
    cv: _Canvas, x: int, y: int, w: int, spots: _Spots, empties: tuple[bool, ...], bank: int
) -> None:
    _box(cv, x, y, w, DECKS_H, sp.PANEL_EDGE)
    cy = y + 6
    for empty, (label, key, fill, mark) in zip(empties, (
        ("Discovery", "discovery", sp.CARD_EDGE, "F"),
        ("Supply", "supply", sp.ITEM_BACK, "?"),
        ("Darkness", "darkness", sp.FOREST, "D"),
    ), strict=True):  # fmt: skip
        if empty:  # Q6: a card back or "empty", never a count
            cv.paste(sp.empty_deck_icon(24), x + 12, cy)
        else:
            cv.card_back(24, fill, mark, x + 12, cy)
        end = cv.text(label, x + 36, cy, F, sp.TEXT)
        if empty:
            end = cv.text("empty", end + 8, cy, F, sp.MUTED)
        spots.decks[key] = (x + 9, cy - 2, end + 3, cy + 25)
        cy += 26
    cv.paste(sp.emerald_icon(22), x + 12, cy + 1)
    bx = cv.text(f"Bank {bank}", x + 38, cy, F, sp.TEXT)
    spots.bank = (x + 9, cy - 2, bx + 3, cy + 25)
    cv.paste(sp.bleina_icon(24), bx + 16, cy)
    cv.text("Bleina", bx + 44, cy, F, sp.MUTED)
    rose = sp.compass(64)
    cv.paste(rose, x + w - 10 - rose.width, y + 8)
    cv.fonts.add(F)


def _paint_reliquary(cv: _Canvas, x: int, y: int, w: int, spots: _Spots, left: tuple[int, ...]) -> None:
    _box(cv, x, y, w, REL_H, sp.PANEL_EDGE)
    cv.text("Reliquary (Fragments left)", x + 10, y + 4, F, sp.MUTED)
    col_w = (w - 20) // 2
    for i, (key, n) in enumerate(zip(sp.FRAGMENT_KEYS, left, strict=True)):
        col, row = divmod(i, 4)
        ex, ey = x + 10 + col * col_w, y + 30 + row * 26
        cv.paste(sp.fragment_icon(key, 22, n > 0), ex, ey)
        cv.text(f"{i + 1} {key.capitalize()}", ex + 28, ey - 1, F, sp.TEXT)
        cv.text(str(n), ex + col_w - 12 - sp.text_width(str(n), F), ey - 1, F, sp.TEXT)
        spots.reliquary[key] = (ex - 2, ey - 2, ex + col_w - 8, ey + 24)


def _paint_info(
    cv: _Canvas, x: int, y: int, w: int, spots: _Spots,
    lines: tuple[str, ...], drawn: str, card: tuple[str, tuple[str, ...], bool, str | None, str] | None,
    move: str, head: str, trade_lines: tuple[str, ...],
) -> None:  # fmt: skip
    _box(cv, x, y, w, INFO_H, sp.PANEL_EDGE)
    cy = y + 6
    for i, line in enumerate(lines):
        end = cv.text(line, x + 10, cy, F, sp.MUTED)
        box = spots.played or (x + 8, cy - 1, end + 2, cy + 21)
        spots.played = (box[0], box[1], max(box[2], end + 2), cy + 21 if i else box[3])
        cy += 22
    if drawn:
        cv.text("Drawn Frontier", x + 10, cy, F, sp.GOLD, True)
        if card is not None:
            cw, chh = CELL_W - GAP, CELL_H - GAP
            cv.paste(sp.frontier_card(*card, cw, chh), x + 10, cy + 24)
            cv.fonts.add(F)
            tx = x + cw + 20
            roads = "Roads: " + " ".join(card[1]) if card[1] else "No roads"
            for i, line in enumerate(sp.wrap(roads, F, x + w - 10 - tx)[:3]):
                cv.text(line, tx, cy + 28 + i * 22, F, sp.MUTED)
            cy += _card_h() + 30
        else:
            cv.text(drawn, x + 150, cy, F, sp.TEXT)
            cy += 24
    if move:
        cv.text(move, x + 10, cy, F, sp.TEXT)
        cy += 22
    if head:
        cv.text(head, x + 10, cy, F, sp.GOLD)
        cy += 24
        for line in trade_lines:
            cv.text(line, x + 10, cy, F, sp.TEXT)
            cy += 21


INFO_H = 8 + 2 * 22 + 22 + max(CELL_H - GAP + 30, 24 + 3 * 21) + 6
"""The last panel block always keeps room for two lines of Items played, the turn so far and
a drawn card or a trade, so the picture does not change size when one comes or goes."""


def _card_h() -> int:
    """Height of a card drawn in the panel."""
    return CELL_H - GAP


def _played_lines(view: dict[str, Any], width: int) -> list[str]:
    """The Items played so far (public once played), wrapped for the panel."""
    discard = view.get("discard") or {}
    if not discard:
        return []
    played = ", ".join(f"{ITEM_WORDS.get(k, k)} {n}" for k, n in discard.items())
    return list(_wrapped(f"Items played: {played}", width, 2, False))


def _movement_line(view: dict[str, Any], width: int) -> str:
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
        parts.append("free Bleina")
    if view.get("extra_turns"):
        parts.append(f"extra turns: {view['extra_turns']}")
    return sp.ellipsize("This turn: " + ", ".join(parts), F, width) if parts else ""


def _trade_lines(view: dict[str, Any], names: dict[str, str], width: int) -> list[str]:
    """The trade's terms wrapped for the panel (at most three lines)."""
    return list(_wrapped(_plain(str((view.get("trade") or {}).get("terms", "")), names), width, 3, True))


@memo(64)
def _wrapped(text: str, width: int, most: int, cut: bool) -> tuple[str, ...]:
    """The first ``most`` lines of ``text`` wrapped at 18 px in ``width``; with ``cut``, when
    it takes more, the last line is the rest cut to fit with "...". (The panel's texts change
    seldom from one map to the next: each is wrapped once.)"""
    lines, rest = sp.wrap_head(text, F, width, most)
    if rest and cut:
        lines = [*lines[:-1], sp.ellipsize(f"{lines[-1]} {rest}", F, width)]
    return tuple(lines)


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


# --- change marks ----------------------------------------------------------------------------


def _ring(cv: _Canvas, box: Box, pad: int = 3) -> None:
    x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad - 1, box[3] + pad - 1
    cv.draw.ellipse((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=sp.BLACK, width=5)
    cv.draw.ellipse((x0, y0, x1, y1), outline=sp.HILITE, width=3)


def _frame(cv: _Canvas, box: Box, pad: int = 0) -> None:
    """A white frame with a black edge drawn just outside ``box`` (grown by ``pad``)."""
    x0, y0, x1, y1 = box[0] - pad - 4, box[1] - pad - 4, box[2] + pad + 3, box[3] + pad + 3
    cv.draw.rectangle((x0, y0, x1, y1), outline=sp.BLACK, width=4)
    cv.draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=sp.HILITE, width=2)


def _trail(cv: _Canvas, start: tuple[int, int], end: tuple[int, int]) -> None:
    """Where a piece came from: a dot on its old cell and a line to where it is now."""
    cv.draw.line((*start, *end), fill=sp.BLACK, width=5)
    cv.draw.line((*start, *end), fill=sp.HILITE, width=2)
    sx, sy = start
    cv.draw.ellipse((sx - 7, sy - 7, sx + 7, sy + 7), fill=sp.HILITE, outline=sp.BLACK, width=2)


def _draw_trails(cv: _Canvas, view: dict[str, Any], lay: Layout, ch: Changes) -> None:
    """Lines from where moved pieces came from to the cells they reached, under the pieces."""
    cw, chh = lay.card_w, CELL_H - GAP

    def centre(cell: tuple[int, int], low: bool = False) -> tuple[int, int]:
        ox, oy = lay.origin(*cell)
        return ox + cw // 2, oy + (chh - AVATAR // 2 - 6 if low else chh // 2)

    at = {p["id"]: (p["x"], p["y"]) for p in view["players"]}
    for pid, was in sorted(ch.moved.items()):
        if pid in at:
            _trail(cv, centre(was, True), centre(at[pid], True))
    for cell, came in sorted(ch.bleina_arrivals.items()):
        if came is not None:
            _trail(cv, centre(came, True), centre(cell, True))


def _centre(box: Box) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def _draw_marks(cv: _Canvas, view: dict[str, Any], lay: Layout, spots: _Spots, ch: Changes) -> None:
    cw, chh = lay.card_w, CELL_H - GAP

    arrived: dict[tuple[int, int], int] = {}
    for cell in ch.bleina_arrivals:
        arrived[cell] = arrived.get(cell, 0) + 1
    for cell in sorted(ch.new_cards):
        ox, oy = lay.origin(*cell)
        _frame(cv, (ox, oy, ox + cw, oy + chh), -3)
    for pid in sorted(ch.moved):
        if pid in spots.tokens:
            _ring(cv, spots.tokens[pid])
    for cell, n in sorted(arrived.items()):
        for box in spots.bleinas.get(cell, [])[-n:]:
            _frame(cv, box)
    for cell, n in sorted(ch.markers.items()):
        for box in spots.markers.get(cell, [])[-n:]:
            _frame(cv, box, -1)
    for pid in sorted(ch.emeralds):
        if pid in spots.emeralds:
            _frame(cv, spots.emeralds[pid])
    for pid in sorted(ch.items):
        if pid in spots.items:
            _frame(cv, spots.items[pid])
    for pid, keys in sorted({**ch.fragments_won}.items()):
        for key in sorted(keys):
            if (pid, key) in spots.fragments:
                _frame(cv, spots.fragments[(pid, key)], -1)
    for pid, keys in sorted(ch.fragments_lost.items()):
        for key in sorted(keys):
            if (pid, key) in spots.fragments:
                _frame(cv, spots.fragments[(pid, key)], -1)
    if ch.bank and spots.bank is not None:
        _frame(cv, spots.bank)
    for key in sorted(ch.reliquary):
        if key in spots.reliquary:
            _frame(cv, spots.reliquary[key])
    for key in sorted(ch.decks):
        if key in spots.decks:
            _frame(cv, spots.decks[key])
    if ch.played and spots.played is not None:
        _frame(cv, spots.played)
