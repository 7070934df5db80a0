"""The fixed 256-colour palette of Argoat pictures, and drawing onto it.

A picture is composed straight in palette mode on one fixed palette (render/argoat.py): shapes
take the palette entry of their colour, sprites (drawn in RGBA once, smooth text and shapes)
are blended over what lies under them and mapped onto the palette as they are pasted, cached
per background. That gives the picture a whole-image RGB drawing and its mapping onto the
palette would give (docs/boards.md), at a fraction of the cost. The palette is learnt once per
process from two made-up boards drawn in RGB that use every sprite, colour and text style of
the renderer (the change marks included), so it follows the art when the art changes; it
depends on nothing but this code, so the same view always gives the same bytes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from . import argoat_sprites as sp
from . import pillow
from .memo import memo

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple")
FRAGMENTS = ("forge", "world", "sun", "life", "spirits", "magic", "ruler", "moon")
_ROADS = ("NESW", "NS", "EW", "NE", "ES", "SW", "NW", "NES", "ESW", "NSW", "NEW", "N")


def _player(i: int, x: int, y: int, *, active: bool) -> dict[str, Any]:
    return {
        "id": f"s{i}",
        "seat": i,
        "colour": COLOURS[i],
        "letter": COLOURS[i][0],
        "at": f"{x},{y}",
        "x": x,
        "y": y,
        "emeralds": 3 * i,
        "fragments": list(FRAGMENTS[: 2 * i]),
        "fragment_count": 2 * i,
        "items": i,
        "markers_left": 4 - i % 5,
        "active": active,
    }


def swatch_views() -> list[dict[str, Any]]:
    """Two made-up public views that between them show every kind of thing drawn."""
    frontiers = []
    for n in range(20):
        x, y = n % 5 - 2, n // 5 - 1
        kind = "town" if n == 0 else "trail_1" if n % 7 == 3 else "card"
        frontiers.append(
            {
                "at": f"{x},{y}",
                "x": x,
                "y": y,
                "key": kind,
                "name": "Village of the Wind Tribe" if n % 3 else f"Card {n}",
                "roads": list(_ROADS[n % len(_ROADS)]),
                "dragon": n % 2 == 1,
                "fragment": FRAGMENTS[n % 8] if n % 3 else None,
                "action": "",
            }
        )
    forests = [
        {"at": "3,0", "x": 3, "y": 0, "roads": ["W"], "flipped": False, "markers": list(COLOURS)},
        {
            "at": "3,1",
            "x": 3,
            "y": 1,
            "roads": ["W"],
            "flipped": True,
            "content": "Eden",
            "markers": ["Red", "Yellow"],
        },
        {
            "at": "3,2",
            "x": 3,
            "y": 2,
            "roads": ["W"],
            "flipped": True,
            "content": "Hollow",
            "markers": ["Blue"],
        },
    ]
    players = [_player(i, i - 2, i % 3 - 1, active=i == 1) for i in range(5)]
    base: dict[str, Any] = {
        "game": "Argoat",
        "difficulty": "adventurer",
        "players": players,
        "active": "s1",
        "finished": False,
        "winner": None,
        "turn": 12,
        "phase": "place_forest",
        "prompt": {
            "player": "s2",
            "text": "<p:s1> and <p:s2>: place 1,2 or 0,3 - N E S W",
            "others": ["s1"],
            "others_label": "Withdraw",
            "private": False,
        },
        "frontiers": frontiers,
        "forests": forests,
        "bleinas": ["0,0", "1,1"],
        "decks_empty": {"discovery": False, "supply": False, "darkness": False},
        "bank": 17,
        "reliquary": {k: i % 3 for i, k in enumerate(FRAGMENTS)},
        "discard": {"staff": 1, "wings": 2},
        "movement": {},
        "extra_turns": 1,
        "trade": {
            "from": "s1",
            "to": "s2",
            "stage": "offer",
            "terms": "<p:s1> gives 1 Emerald; <p:s2> gives the Knowledge of the Sun",
            "give": {},
            "ask": {},
        },
        "drawn": None,
        "forest_for": "2,1",
        "bounds": {"min_x": -2, "max_x": 3, "min_y": -1, "max_y": 2},
    }
    over = dict(
        base,
        phase="over",
        active=None,
        finished=True,
        winner="s3",
        prompt=None,
        trade=None,
        forest_for=None,
        extra_turns=0,
        players=[dict(p, active=False) for p in players],
    )
    over["decks_empty"] = {"discovery": True, "supply": True, "darkness": True}
    return [base, over]


@memo(1)
def palette() -> Image.Image:
    """The palette image (mode "P") every Argoat picture is mapped onto."""
    from .argoat import draw_board

    base, over = swatch_views()
    boards = [draw_board(base, previous=over, rgb=True), draw_board(over, previous=base, rgb=True)]
    sheet = Image.new("RGB", (max(b.width for b in boards), sum(b.height for b in boards)))
    y = 0
    for b in boards:
        sheet.paste(b, (0, y))
        y += b.height
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _nearest(image: Image.Image, colour: sp.RGB) -> int:
    """The palette entry ``colour`` is mapped to."""
    pixel = Image.new("RGB", (1, 1), colour).quantize(palette=image, dither=Image.Dither.NONE)
    return int(pixel.tobytes()[0])


def _named_colours() -> list[sp.RGB]:
    """Every colour the renderer names (the colours of shapes and of the grounds under sprites)."""
    named = [v for v in vars(sp).values() if isinstance(v, tuple) and len(v) == 3]
    named += list(sp.PLAYER_COLOURS.values()) + list(sp.FRAGMENT_COLOURS.values())
    named += [sp.player_text(c) for c in COLOURS]
    return [c for c in named if all(isinstance(v, int) for v in c)]


@dataclass
class Palette:
    """The learnt palette as drawing needs it: the palette image, each colour's entry, and for
    each entry the colour a ground of that entry was drawn in (to blend sprites over it)."""

    image: Image.Image
    flat: list[int]
    ground: dict[int, sp.RGB]
    _index: dict[sp.RGB, int] = field(default_factory=dict)

    @functools.cached_property
    def ground_flat(self) -> list[int]:
        """The palette with each entry's ground colour (to read a palette picture as drawn)."""
        return [v for i in range(256) for v in self.ground.get(i, (0, 0, 0))]

    @functools.cached_property
    def ground_bands(self) -> tuple[list[int], list[int], list[int]]:
        """Each entry's ground colour, red, green and blue apart (tables of 256)."""
        flat = self.ground_flat
        return flat[0::3], flat[1::3], flat[2::3]

    @functools.cached_property
    def plte(self) -> bytes:
        """The palette as a PNG's PLTE chunk holds it (RGB triples, at most 256)."""
        return bytes(self.flat[: 3 * min(256, len(self.flat) // 3)])

    def indices(self, img: Image.Image) -> Image.Image:
        """An RGB picture mapped onto the palette, as an "L" image of palette entries."""
        mapped = self.quantize(img)
        return Image.frombytes("L", mapped.size, mapped.tobytes())

    def as_drawn(self, indices: Image.Image) -> Image.Image:
        """An "L" image of palette entries in RGB, each entry in its ground colour."""
        red, green, blue = (pillow.look_up(indices, table) for table in self.ground_bands)
        return Image.merge("RGB", (red, green, blue))

    def index(self, colour: sp.RGB) -> int:
        """The palette entry a pixel of ``colour`` is mapped to."""
        found = self._index.get(colour)
        if found is None:
            found = self._index[colour] = _nearest(self.image, colour)
        return found

    def quantize(self, img: Image.Image) -> Image.Image:
        """An RGB picture mapped onto the palette (nearest colour, no dithering)."""
        return img.quantize(palette=self.image, dither=Image.Dither.NONE)


@memo(1)
def drawing_palette() -> Palette:
    """The palette Argoat pictures are composed on (:func:`palette`, ready to draw with)."""
    image = palette()
    flat = image.getpalette() or []
    entries = [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)]
    ground: dict[int, sp.RGB] = {i: (c[0], c[1], c[2]) for i, c in enumerate(entries)}
    best: dict[int, int] = {}
    for colour in sorted(set(_named_colours())):  # a named colour is the ground its entry stands for
        i = _nearest(image, colour)
        dist = sum(abs(a - b) for a, b in zip(colour, entries[i], strict=True))
        if i not in best or dist < best[i]:
            best[i], ground[i] = dist, colour
    return Palette(image, flat, ground)
