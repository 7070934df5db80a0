"""Cached sprites for the Argo board: the fixed palette, text, Astronaut / Alien tokens and tiles.

Everything here is a pure function of small hashable arguments, cached with ``lru_cache``. Sprites
are drawn once in RGB (shapes supersampled for smooth edges), then mapped onto one fixed palette,
so the board itself is composed in palette ("P") mode by pasting: fast to build and to compress.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# --------------------------------------------------------------------------------------------
# Colours

SPACE: RGB = (13, 17, 27)
PANEL: RGB = (24, 30, 44)
PANEL_HI: RGB = (40, 52, 78)
CARD: RGB = (33, 41, 59)
RULE: RGB = (58, 70, 96)
RING: RGB = (44, 55, 78)
TEXT: RGB = (232, 236, 244)
DIM: RGB = (150, 162, 186)
FAINT: RGB = (92, 106, 134)
DARK: RGB = (16, 18, 24)
OUTLINE: RGB = (10, 12, 18)
HULL: RGB = (86, 95, 112)
HULL_EDGE: RGB = (50, 57, 72)
CORR_HULL: RGB = (46, 52, 66)
CORR_FLOOR: RGB = (112, 121, 139)
DOOR_YELLOW: RGB = (247, 200, 34)
DOOR_BLACK: RGB = (22, 22, 22)
ALIEN: RGB = (214, 70, 222)
ALIEN_DARK: RGB = (120, 24, 132)
EYE: RGB = (250, 250, 250)
SLOT: RGB = (30, 34, 44)
COVER: RGB = (92, 98, 112)
ACCENT: RGB = (255, 214, 92)
NO_ROBOT_RED: RGB = (230, 40, 40)
CROSS_RED: RGB = (222, 44, 52)

TEAM: dict[str, RGB] = {
    "Blue": (54, 124, 246),
    "Yellow": (250, 204, 24),
    "Red": (232, 58, 58),
    "Green": (44, 182, 90),
}
TEAM_INK: dict[str, RGB] = {"Blue": TEXT, "Yellow": DARK, "Red": TEXT, "Green": DARK}
TEAM_SHAPE: dict[str, str] = {"Blue": "circle", "Yellow": "square", "Red": "diamond", "Green": "hexagon"}
"""Each team also has its own token shape, so colour-blind players can tell the teams apart."""

FLOOR: dict[str, RGB] = {
    "waking_room": (62, 78, 106),
    "teleporter": (28, 106, 118),
    "lab": (98, 72, 136),
    "control_room": (42, 84, 142),
    "jump_room": (138, 92, 38),
    "time_machine": (122, 54, 108),
    "laser": (140, 46, 46),
    "infirmary": (58, 118, 90),
    "warehouse": (106, 84, 60),
    "security_center": (72, 98, 54),
    "core_room": (126, 116, 26),
    "safe_room": (92, 100, 114),
    "pod": (190, 196, 208),
    "corridor": CORR_HULL,
}

SHORT_NAME: dict[str, str] = {
    "waking_room": "Waking Room",
    "teleporter": "Teleporter",
    "lab": "Lab",
    "control_room": "Control Rm",
    "jump_room": "Jump Room",
    "time_machine": "Time Mach.",
    "laser": "Laser",
    "infirmary": "Infirmary",
    "warehouse": "Warehouse",
    "security_center": "Security",
    "core_room": "Core Room",
    "safe_room": "Safe Room",
    "pod": "Pod",
    "corridor": "Corridor",
}


def ink_on(bg: RGB) -> RGB:
    """Text colour readable on ``bg`` (dark on light floors, light otherwise)."""
    r, g, b = bg
    return DARK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else TEXT


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# --------------------------------------------------------------------------------------------
# The fixed palette: every colour above, plus short ramps between the pairs that meet at
# anti-aliased edges (text on its backgrounds, outlines on floors, letters on tokens).


def _build_palette() -> list[RGB]:
    base: list[RGB] = [
        SPACE,
        PANEL,
        PANEL_HI,
        CARD,
        RULE,
        RING,
        TEXT,
        DIM,
        FAINT,
        DARK,
        OUTLINE,
        HULL,
        HULL_EDGE,
        CORR_HULL,
        CORR_FLOOR,
        DOOR_YELLOW,
        DOOR_BLACK,
        ALIEN,
        ALIEN_DARK,
        EYE,
        SLOT,
        COVER,
        ACCENT,
        NO_ROBOT_RED,
        CROSS_RED,
        (255, 255, 255),
        *TEAM.values(),
        *FLOOR.values(),
        *(_mix(c, SLOT, 0.55) for c in TEAM.values()),
    ]
    backgrounds = [SPACE, PANEL, PANEL_HI, CARD, SLOT, COVER, *FLOOR.values()]
    pairs: list[tuple[RGB, RGB, int]] = []
    for bg in backgrounds:
        pairs.append((ink_on(bg), bg, 3))
        pairs.append((OUTLINE, bg, 2))
    for bg in (SPACE, PANEL, PANEL_HI, CARD):
        pairs += [(DIM, bg, 2), (FAINT, bg, 1), (ACCENT, bg, 2)]
    for colour, ink in zip(TEAM.values(), TEAM_INK.values(), strict=True):
        pairs += [(colour, OUTLINE, 2), (ink, colour, 2)]
    pairs += [
        (ALIEN, OUTLINE, 2),
        (EYE, ALIEN, 1),
        (DOOR_YELLOW, DOOR_BLACK, 1),
        (CORR_FLOOR, CORR_HULL, 1),
        (DOOR_YELLOW, HULL, 1),
        (HULL, HULL_EDGE, 1),
        (RING, SPACE, 1),
        (FAINT, SPACE, 1),
    ]
    colours = list(dict.fromkeys(base))
    for fg, bg, steps in pairs:
        for i in range(1, steps + 1):
            c = _mix(bg, fg, i / (steps + 1))
            if all(sum(abs(c[k] - o[k]) for k in range(3)) > 9 for o in colours):
                colours.append(c)
    if len(colours) > 256:
        raise RuntimeError(f"Argo palette has {len(colours)} colours")
    return colours


PALETTE: list[RGB] = _build_palette()
_INDEX: dict[RGB, int] = {c: i for i, c in enumerate(PALETTE)}
FLAT_PALETTE: list[int] = [v for c in PALETTE for v in c] + [0, 0, 0] * (256 - len(PALETTE))
_PAL_IMAGE = Image.new("P", (1, 1))
_PAL_IMAGE.putpalette(FLAT_PALETTE[: 3 * len(PALETTE)] + list(PALETTE[0]) * (256 - len(PALETTE)))


def idx(colour: RGB) -> int:
    """The palette index of one of the named colours."""
    return _INDEX[colour]


def to_palette(img: Image.Image) -> Image.Image:
    """An RGB image mapped onto the fixed palette (nearest colour, no dithering)."""
    out = img.quantize(palette=_PAL_IMAGE, dither=Image.Dither.NONE)
    out.putpalette(FLAT_PALETTE)
    return out


# --------------------------------------------------------------------------------------------
# Text


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font at ``size`` pixels (no system font files needed)."""
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn by :func:`text_sprite`."""
    return text_sprite(text, size, TEXT, PANEL, bold).width


@lru_cache(maxsize=4096)
def text_sprite(text: str, size: int, fg: RGB, bg: RGB, bold: bool = False) -> Image.Image:
    """``text`` on a ``bg`` rectangle as a palette image, ``size`` px tall font, tight width."""
    f = font(size)
    left, _, right, _ = f.getbbox(text)
    ascent, descent = f.getmetrics()
    w = max(1, right - min(left, 0) + (1 if bold else 0) + 1)
    h = ascent + descent
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    d.text((-min(left, 0), 0), text, font=f, fill=fg)
    if bold:
        d.text((-min(left, 0) + 1, 0), text, font=f, fill=fg)
    return to_palette(img)


def line_height(size: int) -> int:
    """Height of a :func:`text_sprite` line at ``size``."""
    ascent, descent = font(size).getmetrics()
    return ascent + descent


# --------------------------------------------------------------------------------------------
# Shapes

SS = 4
"""Supersampling factor for shapes."""


def _shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    if shape == "diamond":
        r *= 1.12
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "hexagon":
        r *= 1.04
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in range(0, 360, 60)
        ]
    raise ValueError(shape)


def draw_shape(
    d: ImageDraw.ImageDraw,
    shape: str,
    box: tuple[float, float, float, float],
    fill: RGB,
    outline: RGB | None,
    width: int,
) -> None:
    """A team shape (circle, square, diamond, hexagon) filling ``box``."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if shape == "circle":
        d.ellipse(box, fill=fill, outline=outline, width=width)
    elif shape == "square":
        inset = r * 0.1
        d.rounded_rectangle(
            (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
            radius=r * 0.25,
            fill=fill,
            outline=outline,
            width=width,
        )
    else:
        pts = _shape_points(shape, cx, cy, r)
        d.polygon(pts, fill=fill)
        if outline is not None:
            d.line([*pts, pts[0], pts[1]], fill=outline, width=width, joint="curve")


def _finish(big: Image.Image, size: tuple[int, int], bg: RGB) -> tuple[Image.Image, Image.Image]:
    """Downsample an RGBA drawing, flatten it on ``bg``: (palette sprite, paste mask)."""
    small = big.resize(size, Image.Resampling.LANCZOS)
    alpha = small.getchannel("A")
    flat = Image.new("RGB", size, bg)
    flat.paste(small, (0, 0), alpha)
    mask = alpha.point(lambda a: 255 if a > 40 else 0).convert("1")
    return to_palette(flat), mask


@lru_cache(maxsize=512)
def token_sprite(
    colour: str, letter: str, size: int, bg: RGB, faded: bool = False, crossed: bool = False
) -> tuple[Image.Image, Image.Image]:
    """An Astronaut token: its team's colour and shape with the role letter; (sprite, mask)."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = TEAM[colour]
    ink = TEAM_INK[colour]
    if faded:
        fill = _mix(fill, SLOT, 0.55)
        ink = TEXT
    lw = max(SS, round(size * SS * 0.07))
    m = lw / 2 + SS * 0.5
    draw_shape(d, TEAM_SHAPE[colour], (m, m, size * SS - m, size * SS - m), fill, OUTLINE, lw)
    if crossed:
        k = size * SS * 0.2
        d.line((k, k, size * SS - k, size * SS - k), fill=CROSS_RED, width=lw)
        d.line((k, size * SS - k, size * SS - k, k), fill=CROSS_RED, width=lw)
    sprite, mask = _finish(big, (size, size), bg)
    if letter:
        rgb = sprite.convert("RGB")
        fs = max(9, round(size * 0.6))
        f = font(fs)
        dd = ImageDraw.Draw(rgb)
        left, top, right, bottom = f.getbbox(letter)
        x = (size - (right - left)) / 2 - left
        y = (size - (bottom - top)) / 2 - top
        dd.text((x, y), letter, font=f, fill=ink)
        dd.text((x + 1, y), letter, font=f, fill=ink)
        sprite = to_palette(rgb)
    return sprite, mask


@lru_cache(maxsize=128)
def alien_sprite(size: int, bg: RGB) -> tuple[Image.Image, Image.Image]:
    """An Alien figure: magenta head with big eyes and tentacles; (sprite, mask)."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    lw = max(SS, round(s * 0.06))
    # antennae
    for side in (-1, 1):
        x0 = s / 2 + side * s * 0.16
        x1 = s / 2 + side * s * 0.30
        d.line((x0, s * 0.30, x1, s * 0.08), fill=OUTLINE, width=lw * 2)
        d.line((x0, s * 0.30, x1, s * 0.08), fill=ALIEN, width=lw)
        d.ellipse((x1 - s * 0.07, s * 0.02, x1 + s * 0.07, s * 0.16), fill=ALIEN, outline=OUTLINE, width=lw)
    # body: dome with a wavy hem of tentacles
    body = [(s * 0.12, s * 0.56)]
    for i in range(5):
        xa = s * (0.12 + 0.152 * i)
        body += [(xa + s * 0.038, s * 0.92), (xa + s * 0.114, s * 0.92), (xa + s * 0.152, s * 0.76)]
    body += [(s * 0.88, s * 0.56)]
    d.polygon(body, fill=ALIEN)
    d.line([*body, body[0]], fill=OUTLINE, width=lw, joint="curve")
    d.pieslice((s * 0.12, s * 0.18, s * 0.88, s * 0.94), 180, 360, fill=ALIEN)
    d.arc((s * 0.12, s * 0.18, s * 0.88, s * 0.94), 180, 360, fill=OUTLINE, width=lw)
    d.rectangle((s * 0.12 + lw, s * 0.5, s * 0.88 - lw, s * 0.62), fill=ALIEN)
    # eyes
    for side in (-1, 1):
        ex = s / 2 + side * s * 0.15
        d.ellipse(
            (ex - s * 0.11, s * 0.36, ex + s * 0.11, s * 0.60),
            fill=EYE,
            outline=OUTLINE,
            width=max(1, lw // 2),
        )
        d.ellipse(
            (ex - s * 0.045 + side * s * 0.02, s * 0.44, ex + s * 0.045 + side * s * 0.02, s * 0.55),
            fill=OUTLINE,
        )
    return _finish(big, (size, size), bg)


@lru_cache(maxsize=128)
def activation_slot(size: int, bg: RGB, colour: str | None) -> tuple[Image.Image, Image.Image]:
    """An Activation token place: an empty ring, or the token in a player's colour and shape."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    lw = max(SS, round(s * 0.1))
    if colour is None:
        d.ellipse((lw, lw, s - lw, s - lw), outline=_mix(bg, TEXT, 0.55), width=lw)
    else:
        draw_shape(d, TEAM_SHAPE[colour], (lw / 2, lw / 2, s - lw / 2, s - lw / 2), TEAM[colour], OUTLINE, lw)
    return _finish(big, (size, size), bg)


@lru_cache(maxsize=64)
def seat_sprite(size: int, bg: RGB) -> tuple[Image.Image, Image.Image]:
    """A free place for one Astronaut (capacity marker): a dashed ring."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    lw = max(SS, round(s * 0.07))
    colour = _mix(bg, TEXT, 0.45) if ink_on(bg) == TEXT else _mix(bg, DARK, 0.45)
    for a in range(0, 360, 30):
        d.arc((lw, lw, s - lw, s - lw), a, a + 18, fill=colour, width=lw)
    return _finish(big, (size, size), bg)


# --------------------------------------------------------------------------------------------
# Icons (drawn at supersampled scale into a box)


def _icon(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fg: RGB, bg: RGB) -> None:
    lw = max(2, round(r * 0.16))
    if kind == "teleporter":
        for k in (1.0, 0.68, 0.36):
            d.ellipse((cx - r * k, cy - r * k * 0.55, cx + r * k, cy + r * k * 0.55), outline=fg, width=lw)
        d.line((cx, cy - r, cx, cy - r * 0.3), fill=fg, width=lw)
    elif kind == "lab":
        neck = r * 0.28
        d.polygon(
            [
                (cx - neck, cy - r),
                (cx + neck, cy - r),
                (cx + neck, cy - r * 0.25),
                (cx + r * 0.85, cy + r * 0.9),
                (cx - r * 0.85, cy + r * 0.9),
                (cx - neck, cy - r * 0.25),
            ],
            fill=fg,
        )
        d.polygon(
            [
                (cx - r * 0.42, cy + r * 0.25),
                (cx + r * 0.42, cy + r * 0.25),
                (cx + r * 0.68, cy + r * 0.72),
                (cx - r * 0.68, cy + r * 0.72),
            ],
            fill=ALIEN,
        )
    elif kind == "control_room":
        d.arc((cx - r, cy - r, cx + r, cy + r), 200, 500, fill=fg, width=lw)
        ax, ay = cx + r * math.cos(math.radians(140)), cy + r * math.sin(math.radians(140))
        head = [(ax - r * 0.38, ay - r * 0.05), (ax + r * 0.3, ay - r * 0.2), (ax - r * 0.02, ay + r * 0.42)]
        d.polygon(head, fill=fg)
        d.rectangle((cx - r * 0.35, cy - r * 0.35, cx + r * 0.35, cy + r * 0.35), outline=fg, width=lw)
    elif kind == "jump_room":
        for k in (0.0, 0.55):
            y0 = cy + r * 0.25 - r * k * 1.2
            d.line(
                (cx - r * 0.8, y0 + r * 0.45, cx, y0 - r * 0.2, cx + r * 0.8, y0 + r * 0.45),
                fill=fg,
                width=lw + 1,
                joint="curve",
            )
        d.line((cx - r * 0.8, cy + r * 0.95, cx + r * 0.8, cy + r * 0.95), fill=fg, width=lw)
    elif kind == "time_machine":
        d.line((cx - r * 0.7, cy - r, cx + r * 0.7, cy - r), fill=fg, width=lw)
        d.line((cx - r * 0.7, cy + r, cx + r * 0.7, cy + r), fill=fg, width=lw)
        d.polygon([(cx - r * 0.6, cy - r), (cx + r * 0.6, cy - r), (cx, cy)], outline=fg, width=lw)
        d.polygon([(cx, cy), (cx + r * 0.6, cy + r), (cx - r * 0.6, cy + r)], fill=fg)
    elif kind == "laser":
        d.ellipse((cx - r * 0.75, cy - r * 0.75, cx + r * 0.75, cy + r * 0.75), outline=fg, width=lw)
        d.ellipse((cx - r * 0.2, cy - r * 0.2, cx + r * 0.2, cy + r * 0.2), fill=fg)
        for a in range(0, 360, 90):
            c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
            d.line(
                (cx + c * r * 0.45, cy + s * r * 0.45, cx + c * r * 1.05, cy + s * r * 1.05),
                fill=fg,
                width=lw,
            )
    elif kind == "infirmary":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(250, 250, 250))
        k = r * 0.24
        d.rectangle((cx - k, cy - r * 0.66, cx + k, cy + r * 0.66), fill=CROSS_RED)
        d.rectangle((cx - r * 0.66, cy - k, cx + r * 0.66, cy + k), fill=CROSS_RED)
    elif kind == "warehouse":
        d.rectangle((cx - r * 0.85, cy - r * 0.7, cx + r * 0.85, cy + r * 0.85), outline=fg, width=lw)
        d.line((cx - r * 0.85, cy - r * 0.7, cx + r * 0.85, cy + r * 0.85), fill=fg, width=lw)
        d.line((cx - r * 0.85, cy + r * 0.85, cx + r * 0.85, cy - r * 0.7), fill=fg, width=lw)
        d.line((cx - r, cy - r * 0.7, cx + r, cy - r * 0.7), fill=fg, width=lw * 2)
    elif kind == "security_center":
        d.polygon(
            [
                (cx - r * 0.8, cy - r * 0.8),
                (cx, cy - r),
                (cx + r * 0.8, cy - r * 0.8),
                (cx + r * 0.7, cy + r * 0.2),
                (cx, cy + r),
                (cx - r * 0.7, cy + r * 0.2),
            ],
            fill=fg,
        )
        d.line(
            (cx - r * 0.35, cy, cx - r * 0.05, cy + r * 0.32, cx + r * 0.4, cy - r * 0.3),
            fill=bg,
            width=lw,
            joint="curve",
        )
    elif kind == "core_room":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(245, 214, 40), outline=DARK, width=max(1, lw // 2))
        blade = (cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85)
        for a in (-90, 30, 150):
            d.pieslice(blade, a - 30, a + 30, fill=DARK)
        d.ellipse((cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3), fill=(245, 214, 40))
        d.ellipse((cx - r * 0.17, cy - r * 0.17, cx + r * 0.17, cy + r * 0.17), fill=DARK)
    elif kind == "safe_room":
        d.arc((cx - r * 0.5, cy - r, cx + r * 0.5, cy + r * 0.1), 180, 360, fill=fg, width=lw + 1)
        d.line((cx - r * 0.5, cy - r * 0.45, cx - r * 0.5, cy - r * 0.1), fill=fg, width=lw + 1)
        d.line((cx + r * 0.5, cy - r * 0.45, cx + r * 0.5, cy - r * 0.1), fill=fg, width=lw + 1)
        d.rounded_rectangle((cx - r * 0.8, cy - r * 0.15, cx + r * 0.8, cy + r), radius=r * 0.15, fill=fg)
        d.ellipse((cx - r * 0.15, cy + r * 0.25, cx + r * 0.15, cy + r * 0.55), fill=bg)
    elif kind == "waking_room":
        for k in (-1, 0, 1):
            x = cx + k * r * 0.7
            d.rounded_rectangle(
                (x - r * 0.26, cy - r * 0.9, x + r * 0.26, cy + r * 0.9),
                radius=r * 0.26,
                outline=fg,
                width=lw,
            )
    elif kind == "alien_symbol":
        d.ellipse((cx - r, cy - r * 0.9, cx + r, cy + r), fill=ALIEN, outline=OUTLINE, width=max(1, lw // 2))
        for side in (-1, 1):
            ex = cx + side * r * 0.4
            d.ellipse((ex - r * 0.28, cy - r * 0.3, ex + r * 0.28, cy + r * 0.3), fill=EYE)
    elif kind == "no_robot":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(250, 250, 250), outline=NO_ROBOT_RED, width=lw)
        d.rectangle((cx - r * 0.42, cy - r * 0.3, cx + r * 0.42, cy + r * 0.4), fill=DARK)
        d.rectangle((cx - r * 0.2, cy - r * 0.58, cx + r * 0.2, cy - r * 0.36), fill=DARK)
        d.line((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), fill=NO_ROBOT_RED, width=lw)


@lru_cache(maxsize=64)
def icon_sprite(kind: str, size: int, bg: RGB) -> Image.Image:
    """A stand-alone icon (for the legend) on ``bg``."""
    big = Image.new("RGB", (size * SS, size * SS), bg)
    _icon(ImageDraw.Draw(big), kind, size * SS / 2, size * SS / 2, size * SS * 0.42, ink_on(bg), bg)
    return to_palette(big.resize((size, size), Image.Resampling.LANCZOS))


# --------------------------------------------------------------------------------------------
# Tiles


class TileGeometry:
    """Where things go inside a tile of side ``size`` (pixels from the tile's top-left)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hull = max(4, round(size * 0.06))
        self.door_len = round(size * 0.40)
        self.font = 13 if size < 112 else 14
        self.pad = self.hull + 3
        self.label_y = self.hull + 1
        self.token = max(18, round(size * 0.25))
        self.act = max(13, round(size * 0.15))
        self.alien = round(size * 0.38)
        self.room_alien = round(size * 0.34)

    def occupant_slots(self, kind: str, capacity: int) -> list[tuple[int, int]]:
        """Top-left corners of the places for Astronaut tokens."""
        s, t = self.size, self.token
        if kind == "corridor":
            return [((s - t) // 2, (s - t) // 2)]
        y = s - self.pad - t
        if kind == "pod":
            gap = round(s * 0.12)
            x0 = (s - 2 * t - gap) // 2
            return [(x0, y), (x0 + t + gap, y)][:capacity]
        if capacity == 1:
            return [((s - t) // 2, y)]
        gap = max(4, round(s * 0.05))
        x0 = (s - 2 * t - gap) // 2
        return [(x0, y), (x0 + t + gap, y)]

    def activation_slots(self) -> list[tuple[int, int]]:
        """Top-left corners of the two Activation token places (top-right corner)."""
        s, a = self.size, self.act
        x1 = s - self.pad - a
        return [(x1 - a - 2, self.label_y + 1), (x1, self.label_y + 1)]

    def icon_centre(self) -> tuple[float, float, float]:
        """Centre and radius of a room's icon."""
        s = self.size
        return s / 2, s * 0.38, s * 0.12

    def alien_pos(self, kind: str, occupied: bool) -> tuple[int, int]:
        """Top-left corner of the Alien figure on this tile."""
        s, a = self.size, self.alien
        if kind == "corridor":
            if occupied:
                return s - self.hull - a + 2, s - self.hull - a + 2
            return (s - a) // 2, (s - a) // 2
        a = self.room_alien
        return (s - a) // 2, round(s * 0.53) - a


def _stripes(img: Image.Image, box: tuple[float, float, float, float], k: float) -> None:
    """A yellow/black hazard-striped connector filling ``box`` of ``img``."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = x1 - x0, y1 - y0
    patch = Image.new("RGB", (w, h), DOOR_YELLOW)
    d = ImageDraw.Draw(patch)
    step = k * 8
    band = step / 2
    i = -float(w + h)
    while i < w + h:
        d.polygon([(i, h), (i + band, h), (i + band + h, 0), (i + h, 0)], fill=DOOR_BLACK)
        i += step
    d.rectangle((0, 0, w - 1, h - 1), outline=DOOR_BLACK, width=max(1, round(k * 1.2)))
    img.paste(patch, (x0, y0))


def _door_box(side: str, s: float, length: float, depth: float) -> tuple[float, float, float, float]:
    a = (s - length) / 2
    if side == "N":
        return (a, 0, a + length, depth)
    if side == "S":
        return (a, s - depth, a + length, s)
    if side == "W":
        return (0, a, depth, a + length)
    return (s - depth, a, s, a + length)


@lru_cache(maxsize=512)
def tile_sprite(
    kind: str,
    doors: str,
    size: int,
    capacity: int,
    alien_symbol: bool,
    activatable: bool,
    no_robot: bool,
    seats: tuple[int, ...] = (),
    show_name: bool = True,
) -> Image.Image:
    """One tile as printed: floor, hull, striped connectors on ``doors`` (e.g. ``"NES"``), icon,
    short name, free places for its capacity, Activation token places, Alien symbol, no-Robot
    mark and Pod seat values; a palette image of ``size`` x ``size``."""
    geo = TileGeometry(size)
    s = size * SS
    k = SS * size / 100
    floor = FLOOR[kind]
    img = Image.new("RGB", (s, s), SPACE)
    d = ImageDraw.Draw(img)
    gap = SS
    hull = geo.hull * SS
    depth = hull + 2 * k
    if kind == "corridor":
        d.rectangle((gap, gap, s - gap, s - gap), fill=CORR_HULL)
        d.rectangle((gap, gap, s - gap, s - gap), outline=HULL_EDGE, width=round(k * 2))
        half = geo.door_len * SS / 2
        c = s / 2
        lo, hi = c - half, c + half
        arms = {"N": (lo, 0, hi, c), "S": (lo, c, hi, s), "W": (0, lo, c, hi), "E": (c, lo, s, hi)}
        passage = [(lo, lo, hi, hi)] + [arms[side] for side in doors]
        w = round(k * 1.5)
        edge = _mix(CORR_FLOOR, DARK, 0.35)
        for x0, y0, x1, y1 in passage:  # the passage's outline, then its floor over it
            d.rectangle((x0 - w, y0 - w, x1 + w, y1 + w), fill=edge)
        for box in passage:
            d.rectangle(box, fill=CORR_FLOOR)
    else:
        radius = s * (0.16 if kind == "pod" else 0.05)
        d.rounded_rectangle(
            (gap, gap, s - gap, s - gap), radius=radius, fill=HULL, outline=HULL_EDGE, width=round(k * 2)
        )
        d.rounded_rectangle((hull, hull, s - hull, s - hull), radius=max(0, radius - hull), fill=floor)
    for side in doors:
        _stripes(img, _door_box(side, s, geo.door_len * SS, depth), k)
    fg = ink_on(floor)
    if kind not in ("corridor", "pod") and show_name:
        cx, cy, r = geo.icon_centre()
        _icon(d, kind, cx * SS, cy * SS, r * SS, fg, floor)
    if alien_symbol:
        r = size * 0.075 * SS
        if kind == "corridor":
            ax, ay = s - geo.pad * SS - r, geo.label_y * SS + r + k * 2
        else:
            ax, ay = geo.pad * SS + r, geo.icon_centre()[1] * SS
        _icon(d, "alien_symbol", ax, ay, r, fg, floor)
    if no_robot:
        r = size * 0.075 * SS
        _icon(d, "no_robot", s - geo.pad * SS - r, geo.icon_centre()[1] * SS, r, fg, floor)
    img = img.resize((size, size), Image.Resampling.LANCZOS)
    d = ImageDraw.Draw(img)
    if kind not in ("corridor",) and show_name:
        label = SHORT_NAME[kind] if kind != "pod" else "Escape Pod"
        fs = geo.font
        f = font(fs)
        while f.getlength(label) > size - 2 * geo.pad and fs > 11:
            fs -= 1
            f = font(fs)
        y = round(size * 0.52) if kind != "pod" else geo.label_y + line_height(geo.font) - 1
        x = (size - f.getlength(label)) / 2
        d.text((x, y), label, font=f, fill=fg)
    if kind == "pod":
        slots = geo.occupant_slots(kind, len(seats))
        fs = geo.font + 3
        f = font(fs)
        for (x, y), value in zip(slots, seats, strict=False):
            t = str(value)
            tw = f.getlength(t)
            ty = y - line_height(fs) + 1
            d.text((x + (geo.token - tw) / 2, ty), t, font=f, fill=DARK)
            d.text((x + (geo.token - tw) / 2 + 1, ty), t, font=f, fill=DARK)
    out = to_palette(img)
    # Free places for Astronauts (capacity) and Activation token places.
    if capacity and kind != "waking_room":
        for x, y in geo.occupant_slots(kind, capacity):
            spr, mask = seat_sprite(geo.token, floor)
            out.paste(spr, (x, y), mask)
    if activatable:
        for x, y in geo.activation_slots():
            spr, mask = activation_slot(geo.act, floor, None)
            out.paste(spr, (x, y), mask)
    return out


@lru_cache(maxsize=64)
def stack_sprite(size: int) -> Image.Image:
    """The face-down Module stack: a few offset tile backs."""
    s = size * SS
    img = Image.new("RGB", (s, s), PANEL)
    d = ImageDraw.Draw(img)
    k = SS * size / 100
    for i in range(3, -1, -1):
        off = i * 5 * k
        box = (off + 2 * k, 14 * k - off + 2 * k, s - 20 * k + off, s - off)
        d.rounded_rectangle(box, radius=6 * k, fill=(52, 60, 80), outline=OUTLINE, width=round(2 * k))
    return to_palette(img.resize((size, size), Image.Resampling.LANCZOS))


@lru_cache(maxsize=32)
def hatch_sprite(w: int, h: int) -> Image.Image:
    """The difficulty cover over the first slots of the Alien track: a hatched plate."""
    img = Image.new("RGB", (w * SS, h * SS), COVER)
    d = ImageDraw.Draw(img)
    for i in range(-h * SS, w * SS, 9 * SS):
        d.line((i, h * SS, i + h * SS, 0), fill=_mix(COVER, DARK, 0.25), width=2 * SS)
    d.rectangle((0, 0, w * SS - 1, h * SS - 1), outline=OUTLINE, width=2 * SS)
    return to_palette(img.resize((w, h), Image.Resampling.LANCZOS))


@lru_cache(maxsize=32)
def build_spot_sprite(size: int) -> Image.Image:
    """An empty cell next to a connector, where a tile could be built: a dashed outline."""
    s = size * SS
    img = Image.new("RGB", (s, s), SPACE)
    d = ImageDraw.Draw(img)
    m = 4 * SS
    dash = s / 14
    w = SS * 2
    pos = m
    while pos < s - m:
        end = min(pos + dash * 0.55, s - m)
        for seg in ((pos, m, end, m), (pos, s - m, end, s - m), (m, pos, m, end), (s - m, pos, s - m, end)):
            d.line(seg, fill=RING, width=w)
        pos += dash
    return to_palette(img.resize((size, size), Image.Resampling.LANCZOS))
