"""Cached procedural sprites for the Argoat map: fonts, text, cards, tokens and icons.

Every sprite is a pure function of its arguments (all hashable) and is kept in a thread-safe
LRU cache (``render.memo``), so a board drawn again only pays for pasting. Shapes are drawn at a
larger scale and shrunk, which gives them smooth edges; text is drawn at its final size, never
under ``LABEL`` (18 px) so that it stays readable on a board shown 550 px wide.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from .fonts import font, text_box
from .memo import memo

RGB = tuple[int, int, int]

SS = 3
"""Supersampling factor for shapes."""
LABEL = 18
"""The smallest text on the board."""
HILITE: RGB = (255, 255, 255)
"""Change marks: white with a black edge (told apart by brightness and shape, not hue)."""

# Palette of the picture.
BG: RGB = (30, 41, 48)
PANEL: RGB = (43, 56, 66)
PANEL_EDGE: RGB = (70, 86, 98)
TEXT: RGB = (236, 238, 240)
MUTED: RGB = (160, 172, 182)
INK: RGB = (43, 33, 24)
PARCHMENT: RGB = (234, 220, 180)
TOWN: RGB = (238, 200, 110)
TRAIL: RGB = (214, 206, 184)
CARD_EDGE: RGB = (107, 83, 53)
PLATE: RGB = (248, 241, 222)
ROAD: RGB = (176, 136, 84)
ROAD_EDGE: RGB = (120, 88, 50)
FOREST: RGB = (31, 61, 43)
FOREST_DARK: RGB = (18, 40, 27)
FOREST_LIGHT: RGB = (52, 96, 66)
FOREST_TEXT: RGB = (207, 227, 201)
EDEN: RGB = (250, 236, 150)
EDEN_EDGE: RGB = (214, 160, 30)
HOLLOW: RGB = (120, 112, 100)
DRAGON: RGB = (150, 28, 28)
GOLD: RGB = (240, 190, 60)
EMERALD: RGB = (46, 204, 113)
EMERALD_DARK: RGB = (20, 120, 62)
ITEM_BACK: RGB = (122, 78, 150)
DIM: RGB = (78, 90, 100)
DIM_GLYPH: RGB = (110, 122, 132)
SLOT: RGB = (92, 110, 122)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
BLEINA: RGB = (246, 242, 230)
BLEINA_EDGE: RGB = (70, 60, 50)

PLAYER_COLOURS: dict[str, RGB] = {
    "Red": (214, 40, 40),
    "Blue": (31, 111, 209),
    "Green": (42, 157, 58),
    "Yellow": (242, 194, 0),
    "Purple": (142, 68, 173),
}
PLAYER_INK: dict[str, RGB] = {"Yellow": BLACK}

FRAGMENT_KEYS: tuple[str, ...] = (
    "forge",
    "world",
    "sun",
    "life",
    "spirits",
    "magic",
    "ruler",
    "moon",
)
FRAGMENT_COLOURS: dict[str, RGB] = {
    "forge": (217, 98, 43),
    "world": (47, 127, 193),
    "sun": (240, 179, 35),
    "life": (58, 166, 85),
    "spirits": (72, 186, 192),
    "magic": (155, 89, 208),
    "ruler": (192, 57, 43),
    "moon": (108, 122, 170),
}


def player_rgb(colour: str) -> RGB:
    """The drawing colour of a player's seat colour name."""
    return PLAYER_COLOURS.get(colour, (128, 128, 128))


def player_text(colour: str) -> RGB:
    """A lighter shade of a player's colour for text on the dark panels."""
    r, g, b = player_rgb(colour)
    return (r + (255 - r) * 2 // 5, g + (255 - g) * 2 // 5, b + (255 - b) * 2 // 5)


def player_ink(colour: str) -> RGB:
    """The text colour that reads well on a player's colour."""
    return PLAYER_INK.get(colour, WHITE)


@memo(4096)
def text_width(text: str, size: int) -> int:
    """Advance width of ``text`` in pixels at ``size``."""
    return int(font(size).getlength(text)) + 1


@memo(2048)
def text_sprite(text: str, size: int, colour: RGB, bold: bool = False) -> Image.Image:
    """``text`` as an RGBA image, one line, tightly sized in width, ascent-aligned."""
    f = font(size)
    stroke = 1 if bold else 0
    width = text_width(text, size) + 2 * stroke + 1
    ascent, descent = f.getmetrics()
    img = Image.new("RGBA", (max(1, width), ascent + descent + 2 * stroke), (*colour, 0))
    ImageDraw.Draw(img).text(
        (stroke, stroke),
        text,
        font=f,
        fill=(*colour, 255),
        stroke_width=stroke,
        stroke_fill=(*colour, 255),
    )
    return img


def wrap(text: str, size: int, width: int) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a long word stays whole)."""
    return wrap_head(text, size, width)[0]


def wrap_head(text: str, size: int, width: int, most: int | None = None) -> tuple[list[str], str]:
    """The first ``most`` lines of :func:`wrap` (the same lines; all of them when ``most`` is
    None), and the words after them joined by spaces ("" when there are none): the words after
    are not measured."""
    lines: list[str] = []
    line = ""
    words = text.split()
    for i, word in enumerate(words):
        trial = f"{line} {word}" if line else word
        if not line or text_width(trial, size) <= width:
            line = trial
            continue
        lines.append(line)
        if len(lines) == most:
            return lines, " ".join(words[i:])
        line = word
    if line:
        lines.append(line)
    return lines, ""


def ellipsize(text: str, size: int, width: int) -> str:
    """``text`` cut with "..." so that it fits in ``width``: its longest start that fits with
    "..." after it (found by halving: a longer start is never narrower)."""
    if text_width(text, size) <= width:
        return text
    fits, over = 0, len(text) + 1  # text[:fits] + "..." fits (or fits is 0); text[:over] does not
    while over - fits > 1:
        mid = (fits + over) // 2
        if text_width(text[:mid] + "...", size) <= width:
            fits = mid
        else:
            over = mid
    return text[:fits].rstrip() + "..."


def _shrink(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    return img.resize(size, Image.Resampling.LANCZOS)


def _scaled(points: list[tuple[float, float]], x: float, y: float, s: float) -> list[tuple[float, float]]:
    return [(x + px * s, y + py * s) for px, py in points]


# --- glyphs drawn in a unit box --------------------------------------------------------------

_DRAGON_WING = [
    (0.10, 0.30),
    (0.42, 0.18),
    (0.55, 0.05),
    (0.60, 0.22),
    (0.92, 0.20),
    (0.78, 0.42),
    (0.88, 0.62),
    (0.66, 0.55),
    (0.58, 0.78),
    (0.46, 0.56),
    (0.28, 0.70),
    (0.30, 0.48),
]


def _glyph(draw: ImageDraw.ImageDraw, key: str, x: float, y: float, s: float, fill: tuple) -> None:
    """Draw the symbol of a Fragment ``key`` into the box (x, y, s, s)."""

    def box(a: float, b: float, c: float, d: float) -> tuple[float, float, float, float]:
        return (x + a * s, y + b * s, x + c * s, y + d * s)

    lw = max(1, round(s * 0.09))
    if key == "forge":  # anvil
        draw.polygon(
            _scaled(
                [
                    (0.12, 0.30),
                    (0.88, 0.30),
                    (0.80, 0.45),
                    (0.62, 0.48),
                    (0.62, 0.66),
                    (0.78, 0.80),
                    (0.22, 0.80),
                    (0.38, 0.66),
                    (0.38, 0.48),
                    (0.20, 0.44),
                ],
                x,
                y,
                s,
            ),
            fill=fill,
        )
    elif key == "world":  # globe
        draw.ellipse(box(0.14, 0.14, 0.86, 0.86), outline=fill, width=lw)
        draw.ellipse(box(0.36, 0.14, 0.64, 0.86), outline=fill, width=lw)
        draw.line([box(0.14, 0.5, 0.86, 0.5)[:2], box(0.14, 0.5, 0.86, 0.5)[2:]], fill=fill, width=lw)
    elif key == "sun":  # disc with rays
        draw.ellipse(box(0.32, 0.32, 0.68, 0.68), fill=fill)
        for a, b, c, d in (
            (0.5, 0.06, 0.5, 0.22),
            (0.5, 0.78, 0.5, 0.94),
            (0.06, 0.5, 0.22, 0.5),
            (0.78, 0.5, 0.94, 0.5),
            (0.19, 0.19, 0.29, 0.29),
            (0.71, 0.71, 0.81, 0.81),
            (0.19, 0.81, 0.29, 0.71),
            (0.71, 0.29, 0.81, 0.19),
        ):
            draw.line([(x + a * s, y + b * s), (x + c * s, y + d * s)], fill=fill, width=lw)
    elif key == "life":  # leaf
        draw.polygon(
            _scaled(
                [(0.20, 0.82), (0.22, 0.45), (0.42, 0.22), (0.84, 0.14), (0.78, 0.56), (0.56, 0.78)], x, y, s
            ),
            fill=fill,
        )
    elif key == "spirits":  # flame-like wisp
        draw.polygon(
            _scaled(
                [
                    (0.50, 0.08),
                    (0.70, 0.40),
                    (0.78, 0.64),
                    (0.64, 0.88),
                    (0.36, 0.88),
                    (0.22, 0.64),
                    (0.34, 0.46),
                    (0.42, 0.58),
                    (0.44, 0.30),
                ],
                x,
                y,
                s,
            ),
            fill=fill,
        )
    elif key == "magic":  # five-pointed star
        pts = [
            (0.50, 0.06),
            (0.61, 0.38),
            (0.94, 0.38),
            (0.67, 0.58),
            (0.78, 0.92),
            (0.50, 0.71),
            (0.22, 0.92),
            (0.33, 0.58),
            (0.06, 0.38),
            (0.39, 0.38),
        ]
        draw.polygon(_scaled(pts, x, y, s), fill=fill)
    elif key == "ruler":  # crown
        draw.polygon(
            _scaled(
                [
                    (0.10, 0.78),
                    (0.10, 0.30),
                    (0.32, 0.52),
                    (0.50, 0.20),
                    (0.68, 0.52),
                    (0.90, 0.30),
                    (0.90, 0.78),
                ],
                x,
                y,
                s,
            ),
            fill=fill,
        )
    elif key == "moon":  # crescent
        draw.ellipse(box(0.12, 0.12, 0.84, 0.84), fill=fill)
        draw.ellipse(box(0.34, 0.04, 0.96, 0.66), fill=(0, 0, 0, 0))


@memo(64)
def fragment_icon(key: str, size: int, lit: bool) -> Image.Image:
    """A Fragment as a small card (RGBA): its colour and symbol when ``lit``, grey otherwise."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = big * 0.2
    if lit:
        d.rounded_rectangle(
            (0, 0, big - 1, big - 1), r, fill=FRAGMENT_COLOURS[key] + (255,), outline=(*WHITE, 255), width=SS
        )
        glyph_colour: tuple = (*WHITE, 255)
    else:
        d.rounded_rectangle(
            (0, 0, big - 1, big - 1), r, fill=(*DIM, 255), outline=(*DIM_GLYPH, 255), width=SS
        )
        glyph_colour = (*DIM_GLYPH, 255)
    layer = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    _glyph(ImageDraw.Draw(layer), key, big * 0.16, big * 0.16, big * 0.68, glyph_colour)
    # the moon's bite is transparent in the layer; composite keeps the card colour there
    img.alpha_composite(layer)
    return _shrink(img, (size, size))


@memo(32)
@memo(512)
def fragment_row(lit: tuple[bool, ...], size: int, step: int) -> Image.Image:
    """The eight Fragments side by side, ``step`` px apart, each lit or not (RGBA): one sprite
    for a player's row instead of eight."""
    img = Image.new("RGBA", (step * (len(lit) - 1) + size, size), (0, 0, 0, 0))
    for i, (key, on) in enumerate(zip(FRAGMENT_KEYS, lit, strict=False)):
        img.paste(fragment_icon(key, size, on), (i * step, 0))
    return img


@memo(64)
def marker_row(colour: str, left: int, size: int, step: int) -> Image.Image:
    """A player's four Check Markers, ``step`` px apart: ``left`` still to place, then the empty
    slots (RGBA)."""
    img = Image.new("RGBA", (step * 3 + size, size), (0, 0, 0, 0))
    for i in range(4):
        icon = marker_icon(colour, "", size) if i < left else marker_slot(size, colour)
        img.paste(icon, (i * step, 0))
    return img


def dragon_icon(size: int) -> Image.Image:
    """The Dragon symbol (RGBA): a red roundel with a white wing."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, big - 1, big - 1), fill=(*DRAGON, 255), outline=(*GOLD, 255), width=max(1, SS * 2))
    d.polygon(_scaled(_DRAGON_WING, big * 0.12, big * 0.14, big * 0.76), fill=(*WHITE, 255))
    return _shrink(img, (size, size))


@memo(32)
def emerald_icon(size: int) -> Image.Image:
    """An Emerald (RGBA): a faceted green gem."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    outer = _scaled([(0.28, 0.12), (0.72, 0.12), (0.94, 0.38), (0.50, 0.92), (0.06, 0.38)], 0, 0, big)
    d.polygon(outer, fill=(*EMERALD, 255), outline=(*EMERALD_DARK, 255), width=SS)
    d.polygon(
        _scaled([(0.28, 0.12), (0.72, 0.12), (0.62, 0.38), (0.38, 0.38)], 0, 0, big),
        fill=(150, 240, 185, 255),
    )
    d.line(_scaled([(0.06, 0.38), (0.94, 0.38)], 0, 0, big), fill=(*EMERALD_DARK, 255), width=SS)
    return _shrink(img, (size, size))


def card_back_mark_px(size: int) -> int:
    """Font size of the mark on a card back of height ``size``."""
    return max(LABEL, size * 2 // 3)


@memo(32)
def card_back_icon(size: int, fill: RGB, mark: str) -> Image.Image:
    """A face-down card (RGBA) of colour ``fill`` with a one-character ``mark``."""
    w, h = round(size * 0.74), size
    img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, w * SS - 1, h * SS - 1), SS * 3, fill=(*fill, 255), outline=(*WHITE, 255), width=SS
    )
    d.rounded_rectangle(
        (SS * 3, SS * 3, w * SS - 1 - SS * 3, h * SS - 1 - SS * 3),
        SS * 2,
        outline=(255, 255, 255, 120),
        width=SS,
    )
    img = _shrink(img, (w, h))
    if mark:
        t = text_sprite(mark, card_back_mark_px(size), WHITE, True)
        img.alpha_composite(t, (max(0, (w - t.width) // 2), max(0, (h - t.height) // 2)))
    return img


@memo(16)
def empty_deck_icon(size: int) -> Image.Image:
    """The place of an empty deck (RGBA): a dashed card outline."""
    w, h = round(size * 0.74), size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for i in range(0, 2 * (w + h), 6):
        for a in (i, i + 1, i + 2):
            if a < w:
                d.point([(a, 0), (a, h - 1)], fill=(*SLOT, 255))
            elif a - w < h:
                d.point([(0, a - w), (w - 1, a - w)], fill=(*SLOT, 255))
    return img


def avatar_letter_px(size: int) -> int:
    """Font size of the seat letter on an Avatar of ``size``."""
    return max(LABEL, round(size * 0.62))


@memo(64)
def avatar_icon(colour: str, letter: str, size: int, ring: bool) -> Image.Image:
    """A player's Avatar (RGBA): a disc in the seat colour with the seat letter; ``ring``
    adds a bright halo (the player to act)."""
    pad = 3 if ring else 0
    full = size + 2 * pad
    big = full * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if ring:
        d.ellipse((0, 0, big - 1, big - 1), fill=(*WHITE, 255))
        d.ellipse((SS, SS, big - 1 - SS, big - 1 - SS), fill=(*BLACK, 255))
    o = pad * SS
    d.ellipse(
        (o, o, big - 1 - o, big - 1 - o),
        fill=(*player_rgb(colour), 255),
        outline=(*WHITE, 255) if not ring else (*BLACK, 255),
        width=SS * 2,
    )
    img = _shrink(img, (full, full))
    if letter:
        fs = avatar_letter_px(size)
        t = text_sprite(letter, fs, player_ink(colour), True)
        top = text_box(font(fs), letter)[1]
        ascent, _ = font(fs).getmetrics()
        img.alpha_composite(
            t, (max(0, (full - t.width) // 2 + 1), max(0, (full - (ascent - top)) // 2 - top))
        )
    return img


def marker_letter_px(size: int) -> int:
    """Font size of the seat letter on a Check Marker of ``size`` (0: no letter)."""
    return LABEL if size >= 20 else 0


@memo(64)
def marker_icon(colour: str, letter: str, size: int) -> Image.Image:
    """A Check Marker (RGBA): a square in the seat colour with the seat letter (from 20 px)."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, big - 1, big - 1), SS * 2, fill=(*player_rgb(colour), 255), outline=(*WHITE, 255), width=SS
    )
    img = _shrink(img, (size, size))
    fs = marker_letter_px(size)
    if fs and letter:
        t = text_sprite(letter, fs, player_ink(colour), True)
        top = text_box(font(fs), letter)[1]
        ascent, _ = font(fs).getmetrics()
        img.alpha_composite(
            t, (max(0, (size - t.width) // 2 + 1), max(0, (size - (ascent - top)) // 2 - top))
        )
    return img


@memo(16)
def marker_slot(size: int, colour: str) -> Image.Image:
    """An empty Check Marker slot (RGBA): a hollow square edged in the seat colour."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (SS, SS, big - 1 - SS, big - 1 - SS), SS * 2, outline=(*player_rgb(colour), 255), width=SS * 2
    )
    return _shrink(img, (size, size))


@memo(32)
def bleina_icon(size: int) -> Image.Image:
    """A Bleina (RGBA): a cream, horned, woolly beast in profile."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    e = (*BLEINA_EDGE, 255)
    f = (*BLEINA, 255)
    # a dark badge behind it so it reads on any ground
    d.rounded_rectangle(
        (0, 0, big - 1, big - 1), big * 0.25, fill=(60, 52, 44, 255), outline=(*WHITE, 255), width=SS
    )
    for lx in (0.30, 0.45, 0.60, 0.72):  # legs
        d.line([(big * lx, big * 0.62), (big * lx, big * 0.86)], fill=f, width=SS * 2)
    d.ellipse((big * 0.18, big * 0.36, big * 0.80, big * 0.70), fill=f, outline=e, width=SS)
    d.ellipse((big * 0.62, big * 0.20, big * 0.88, big * 0.46), fill=f, outline=e, width=SS)
    d.polygon(
        [(big * 0.66, big * 0.24), (big * 0.60, big * 0.08), (big * 0.72, big * 0.20)], fill=(*GOLD, 255)
    )
    d.polygon(
        [(big * 0.80, big * 0.22), (big * 0.84, big * 0.06), (big * 0.88, big * 0.24)], fill=(*GOLD, 255)
    )
    d.ellipse((big * 0.74, big * 0.28, big * 0.79, big * 0.33), fill=e)
    return _shrink(img, (size, size))


# --- cards -----------------------------------------------------------------------------------


def _road_layer(w: int, h: int, roads: tuple[str, ...], width_frac: float) -> Image.Image:
    """Roads from the centre to the named edges (RGBA, supersampled size)."""
    bw, bh = w * SS, h * SS
    img = Image.new("RGBA", (bw, bh), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    cx, cy = bw / 2, bh / 2
    half = min(bw, bh) * width_frac / 2
    edge = SS * 2
    ends = {"N": (cx, 0), "S": (cx, bh), "E": (bw, cy), "W": (0, cy)}

    def arm(side: str, inset: float) -> tuple[float, float, float, float]:
        ex, ey = ends[side]
        if side in "NS":
            return (cx - half + inset, min(cy, ey), cx + half - inset, max(cy, ey))
        return (min(cx, ex), cy - half + inset, max(cx, ex), cy + half - inset)

    straight = set(roads) in ({"N", "S"}, {"E", "W"})
    hub = 1.7 if len(roads) == 1 else 1.0
    for side in roads:
        d.rectangle(arm(side, 0), fill=(*ROAD_EDGE, 255))
    if roads and not straight:
        r = half * hub
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*ROAD_EDGE, 255))
    for side in roads:
        d.rectangle(arm(side, edge), fill=(*ROAD, 255))
    if roads and not straight:
        r = half * hub - edge
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(*ROAD, 255))
    return img


def _card_base(
    w: int, h: int, fill: RGB, edge: RGB, roads: tuple[str, ...], road_frac: float, bg: RGB
) -> Image.Image:
    """A rounded card of ``fill`` with roads, on ``bg``, supersampled then shrunk (RGB)."""
    bw, bh = w * SS, h * SS
    img = Image.new("RGBA", (bw, bh), (*bg, 255))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, bw - 1, bh - 1), min(bw, bh) * 0.07, fill=(*fill, 255), outline=(*edge, 255), width=SS * 2
    )
    img.alpha_composite(_road_layer(w, h, roads, road_frac))
    return _shrink(img.convert("RGB"), (w, h))


NAME_LINE = 19
"""Line pitch of card names (18 px text)."""


def name_lines(name: str, width: int) -> list[str]:
    """A card name broken into lines no wider than ``width`` at 18 px (a long word stays whole)."""
    return wrap(name, LABEL, width)


NAME_MAX_LINES = 3
FILLERS = frozenset({"of", "the"})
"""Words a narrow card leaves out when the whole name takes more than three lines."""
BREAKS: dict[str, str] = {
    "Forgotten": "For-got-ten",
    "Fountain": "Foun-tain",
    "Glittering": "Glit-ter-ing",
    "Snowfields": "Snow-fields",
    "Moonlight": "Moon-light",
    "Unmarked": "Un-marked",
    "Wasteland": "Waste-land",
}
"""Where the long words of the card names may be hyphenated on a narrow (compact) card; any
other word too wide for its card is cut where it fits."""


def _pieces(word: str, width: int) -> list[str]:
    """``word`` as it goes on lines ``width`` wide: whole when it fits, else hyphenated at the
    last break that fits (from :data:`BREAKS`; between any two letters, two at least on each
    side, for other words), and so on."""
    known = BREAKS.get(word)
    rest = known.split("-") if known else list(word)
    out: list[str] = []
    while text_width("".join(rest), LABEL) > width:
        for i in range(len(rest) - 1, 0, -1):
            head = "".join(rest[:i]) + "-"
            if text_width(head, LABEL) <= width and (known or min(i, len(rest) - i) >= 2):
                out.append(head)
                rest = rest[i:]
                break
        else:
            break
    return [*out, "".join(rest)]


def _hyphen_wrap(words: list[str], width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in words:
        for i, piece in enumerate(_pieces(word, width)):
            trial = f"{line} {piece}" if line and i == 0 else line + piece
            if not line or (i == 0 and text_width(trial, LABEL) <= width):
                line = trial
            else:
                lines.append(line)
                line = piece
    if line:
        lines.append(line)
    return lines


@memo(256)
def card_lines(name: str, w: int) -> tuple[str, ...]:
    """A card name on the plate of a card ``w`` wide, at most three 18 px lines. A full-size
    card wraps it at word breaks; a narrow (compact) card also hyphenates words too wide for it
    and, if the name still takes more than three lines, leaves out "of" and "the" (the last
    line is cut with "..." only if even that does not fit)."""
    room = w - 4
    lines = name_lines(name, w - 12)
    if len(lines) <= NAME_MAX_LINES and all(text_width(line, LABEL) <= room for line in lines):
        return tuple(lines)
    words = name.split()
    lines = _hyphen_wrap(words, room)
    if len(lines) > NAME_MAX_LINES:
        lines = _hyphen_wrap([x for x in words if x.lower() not in FILLERS] or words, room)
    if len(lines) > NAME_MAX_LINES:
        cut = NAME_MAX_LINES - 1
        lines = [*lines[:cut], ellipsize(" ".join(lines[cut:]), LABEL, room)]
    return tuple(lines)


def _plate(img: Image.Image, lines: list[str], cx: int, top: int, fill: RGB, edge: RGB, ink: RGB) -> int:
    """Draw centred 18 px ``lines`` on a rounded plate; return the plate's bottom."""
    w = min(img.width - 2, max(text_width(line, LABEL) for line in lines) + 8)
    h = NAME_LINE * len(lines) + 5
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((cx - w // 2, top, cx - w // 2 + w, top + h), 5, fill=fill, outline=edge, width=1)
    y = top + 1
    for line in lines:
        t = text_sprite(line, LABEL, ink, False)
        img.paste(t, (cx - t.width // 2, y), t)
        y += NAME_LINE
    return top + h


CARD_ICON = 20
TAG_X = 3
"""The coordinate tag's offset from a card's top-left corner (both ways)."""
PLATE_TOP = 25
"""Where a card's name plate starts (under the cell name and the corner icons)."""


@memo(128)
def frontier_card(
    name: str,
    roads: tuple[str, ...],
    dragon: bool,
    fragment: str | None,
    kind: str,
    w: int,
    h: int,
    tag_w: int = 0,
) -> Image.Image:
    """A face-up Frontier card (RGB on the map background): its roads, its name on a plate,
    the Dragon symbol top right and the Fragment it gives beside it. ``tag_w`` is the width of
    the coordinate tag pasted at the top left (:func:`coord_tag`): an icon with no room beside
    it goes on a second row, right-aligned, and the plate starts under it."""
    fill = TOWN if kind == "town" else TRAIL if kind == "trail" else PARCHMENT
    img = _card_base(w, h, fill, CARD_EDGE, roads, 0.17, BG)
    icons = ([dragon_icon(CARD_ICON)] if dragon else []) + (
        [fragment_icon(fragment, CARD_ICON, True)] if fragment else []
    )
    spots, plate_top = card_icon_spots(w, tag_w, len(icons))
    for icon, spot in zip(icons, spots, strict=True):
        img.paste(icon, spot, icon)
    _plate(img, list(card_lines(name, w)), w // 2, plate_top, PLATE, CARD_EDGE, INK)
    return img


def plate_box(
    name: str, dragon: bool, fragment: str | None, w: int, tag_w: int = 0
) -> tuple[int, int, int, int]:
    """Where :func:`frontier_card` draws the name plate on a card ``w`` wide, as (x0, y0, x1,
    y1) from the card's top-left corner (the edge included)."""
    lines = card_lines(name, w)
    pw = min(w - 2, max(text_width(line, LABEL) for line in lines) + 8)
    top = card_icon_spots(w, tag_w, int(dragon) + int(fragment is not None))[1]
    x0 = w // 2 - pw // 2
    return x0, top, x0 + pw + 1, top + NAME_LINE * len(lines) + 6


def card_icon_spots(w: int, tag_w: int, n: int) -> tuple[list[tuple[int, int]], int]:
    """Top-left corners of ``n`` corner icons on a card ``w`` wide whose coordinate tag is
    ``tag_w`` wide (0: no tag), and where the name plate starts. The icons go right-aligned on
    the top row, right of the tag; one with no room there starts a second row under it."""
    right, top, free = w - 4, 3, (TAG_X + tag_w + 2 if tag_w else 0)
    spots = []
    for _ in range(n):
        if right - CARD_ICON < free:
            right, top, free = w - 4, top + CARD_ICON + 2, 0
        spots.append((right - CARD_ICON, top))
        right -= CARD_ICON + 2
    return spots, PLATE_TOP if top == 3 else top + CARD_ICON + 2


def _trees(d: ImageDraw.ImageDraw, bw: int, bh: int) -> None:
    spots = [
        (0.18, 0.30, 0.16),
        (0.82, 0.32, 0.15),
        (0.14, 0.74, 0.17),
        (0.86, 0.76, 0.16),
        (0.34, 0.86, 0.12),
        (0.66, 0.88, 0.12),
        (0.30, 0.12, 0.11),
        (0.70, 0.12, 0.11),
    ]
    for fx, fy, fr in spots:
        x, y, r = fx * bw, fy * bh, fr * min(bw, bh)
        d.polygon(
            [(x, y - r * 1.2), (x + r * 0.8, y + r * 0.6), (x - r * 0.8, y + r * 0.6)],
            fill=(*FOREST_LIGHT, 255),
        )
        d.rectangle((x - r * 0.12, y + r * 0.6, x + r * 0.12, y + r), fill=(*FOREST_DARK, 255))


@memo(64)
def forest_card(roads: tuple[str, ...], content: str | None, w: int, h: int) -> Image.Image:
    """A Dark Forest (RGB on the map background): face down (``content`` None) with trees,
    or flipped to Eden or Hollow (then named on a plate); its single road shown."""
    bw, bh = w * SS, h * SS
    if content is None:
        fill, edge = FOREST, FOREST_DARK
    elif content == "Eden":
        fill, edge = EDEN, EDEN_EDGE
    else:
        fill, edge = HOLLOW, (80, 74, 66)
    img = Image.new("RGBA", (bw, bh), (*BG, 255))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        (0, 0, bw - 1, bh - 1), min(bw, bh) * 0.07, fill=(*fill, 255), outline=(*edge, 255), width=SS * 3
    )
    if content is None:
        _trees(d, bw, bh)
    elif content == "Eden":
        for fx, fy in ((0.2, 0.25), (0.8, 0.22), (0.15, 0.78), (0.85, 0.8), (0.5, 0.9)):
            r = min(bw, bh) * 0.045
            x, y = fx * bw, fy * bh
            for ox, oy in ((0, -r), (r, 0), (0, r), (-r, 0)):
                d.ellipse(
                    (x + ox - r * 0.8, y + oy - r * 0.8, x + ox + r * 0.8, y + oy + r * 0.8),
                    fill=(236, 120, 160, 255),
                )
            d.ellipse((x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), fill=(*GOLD, 255))
    img.alpha_composite(_road_layer(w, h, roads, 0.12))
    out = _shrink(img.convert("RGB"), (w, h))
    if content is not None:
        label, ink, plate, pedge = (
            ("EDEN", INK, PLATE, EDEN_EDGE)
            if content == "Eden"
            else ("Hollow", INK, (200, 192, 180), (80, 74, 66))
        )
        _plate(out, [label], w // 2, PLATE_TOP, plate, pedge, ink)
    return out


@memo(128)
def coord_tag(text: str, highlight: bool = False) -> Image.Image:
    """A cell's coordinates ``x,y`` as a small dark tag (RGBA), 18 px text."""
    t = text_sprite(text, LABEL, GOLD if highlight else WHITE, False)
    f = font(LABEL)
    top = text_box(f, "0")[1]
    ascent, _ = f.getmetrics()
    h = ascent - top + 6
    img = Image.new("RGBA", (t.width + 5, h), (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, img.width - 1, h - 1), 4, fill=(30, 30, 34, 225))
    img.alpha_composite(t, (2, 3 - top))
    return img


@memo(64)
def empty_slot(text: str, w: int, h: int, strong: bool) -> Image.Image:
    """An empty cell where a card may be placed (RGB on the map background): a dashed outline
    with the cell's coordinates in the middle."""
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    colour = GOLD if strong else SLOT
    dash, gap = 8, 6
    for i in range(0, max(w, h), dash + gap):
        if i < w:
            j = min(w - 1, i + dash)
            d.line([(i, 0), (j, 0)], fill=colour, width=2)
            d.line([(i, h - 2), (j, h - 2)], fill=colour, width=2)
        if i < h:
            j = min(h - 1, i + dash)
            d.line([(0, i), (0, j)], fill=colour, width=2)
            d.line([(w - 2, i), (w - 2, j)], fill=colour, width=2)
    t = text_sprite(text, LABEL, colour, strong)
    img.paste(t, ((w - t.width) // 2, (h - t.height) // 2), t)
    return img


@memo(4)
def compass(size: int) -> Image.Image:
    """A compass rose (RGBA) with the direction tokens N, E, S, W used by ``move`` (18 px)."""
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = big / 2
    arm, w = big * 0.26, big * 0.07
    for (dx, dy), fill in (((0, -1), GOLD), ((1, 0), MUTED), ((0, 1), MUTED), ((-1, 0), MUTED)):
        tip = (c + dx * arm, c + dy * arm)
        left = (c - dy * w, c + dx * w)
        right = (c + dy * w, c - dx * w)
        d.polygon([tip, left, (c, c), right], fill=(*fill, 255))
    img = _shrink(img, (size, size))
    f = font(LABEL)
    top = text_box(f, "N")[1]
    ascent, _ = f.getmetrics()
    gh = ascent - top
    for letter, (px, py) in (("N", (0.5, 0.0)), ("S", (0.5, 1.0)), ("E", (1.0, 0.5)), ("W", (0.0, 0.5))):
        t = text_sprite(letter, LABEL, GOLD if letter == "N" else TEXT, letter == "N")
        x = round(px * (size - t.width))
        y = round(py * (size - gh)) - top
        img.alpha_composite(t, (max(0, x), max(0, y)))
    return img
