"""Cached sprites for the Argo board: the fixed palette, text, Astronaut / Alien tokens and tiles.

Everything here is a pure function of small hashable arguments, cached with the thread-safe
``render.memo.memo``. Sprites are drawn once in RGB (shapes supersampled for smooth edges), then
mapped onto one fixed palette, so the board itself is composed in palette ("P") mode by pasting:
fast to build and to compress. A tile is composed from cached parts (floor, door stripes, marks),
so the handful of parts is built once and a new tile costs a few pastes.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render.fonts import font, text_box
from render.memo import memo

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


PASSAGE_EDGE: RGB = _mix(CORR_FLOOR, DARK, 0.35)
HILITE: RGB = (255, 255, 255)
"""Change marks: white with a black edge, told apart by brightness and shape, not by hue."""


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
        HILITE,
        PASSAGE_EDGE,
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


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` drawn by :func:`text_sprite`."""
    return text_sprite(text, size, TEXT, PANEL, bold).width


@memo(4096)
def text_sprite(text: str, size: int, fg: RGB, bg: RGB, bold: bool = False) -> Image.Image:
    """``text`` on a ``bg`` rectangle as a palette image, ``size`` px tall font, tight width."""
    f = font(size)
    left, _, right, _ = text_box(f, text)
    ascent, descent = f.getmetrics()
    w = max(1, right - min(left, 0) + (1 if bold else 0) + 1)
    h = ascent + descent
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    d.text((-min(left, 0), 0), text, font=f, fill=fg)
    if bold:
        d.text((-min(left, 0) + 1, 0), text, font=f, fill=fg)
    return to_palette(img)


@memo(32)
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


_MASK_LUT = [255 if a > 40 else 0 for a in range(256)]


def _finish(big: Image.Image, size: tuple[int, int], bg: RGB) -> tuple[Image.Image, Image.Image]:
    """Downsample an RGBA drawing, flatten it on ``bg``: (palette sprite, paste mask)."""
    small = big.resize(size, Image.Resampling.LANCZOS)
    alpha = small.getchannel("A")
    flat = Image.new("RGB", size, bg)
    flat.paste(small, (0, 0), alpha)
    mask = alpha.point(_MASK_LUT).convert("1")
    return to_palette(flat), mask


@memo(64)
def _token_shape(colour: str, size: int, faded: bool, crossed: bool) -> Image.Image:
    """A token's shape, antialiased, on a transparent ground (RGBA); shared by every floor."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = _mix(TEAM[colour], SLOT, 0.55) if faded else TEAM[colour]
    lw = max(SS, round(size * SS * 0.07))
    m = lw / 2 + SS * 0.5
    draw_shape(d, TEAM_SHAPE[colour], (m, m, size * SS - m, size * SS - m), fill, OUTLINE, lw)
    if crossed:
        k = size * SS * 0.2
        d.line((k, k, size * SS - k, size * SS - k), fill=CROSS_RED, width=lw)
        d.line((k, size * SS - k, size * SS - k, k), fill=CROSS_RED, width=lw)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@memo(1024)
def token_sprite(
    colour: str, letter: str, size: int, bg: RGB, faded: bool = False, crossed: bool = False
) -> tuple[Image.Image, Image.Image]:
    """An Astronaut token: its team's colour and shape with the role letter; (sprite, mask)."""
    small = _token_shape(colour, size, faded, crossed)
    alpha = small.getchannel("A")
    flat = Image.new("RGB", (size, size), bg)
    flat.paste(small, (0, 0), alpha)
    mask = alpha.point(_MASK_LUT).convert("1")
    if letter:
        ink = TEXT if faded else TEAM_INK[colour]
        f = font(token_letter_px(size))
        dd = ImageDraw.Draw(flat)
        left, top, right, bottom = text_box(f, letter)
        x = (size - (right - left)) / 2 - left
        y = (size - (bottom - top)) / 2 - top
        dd.text((x, y), letter, font=f, fill=ink)
        dd.text((x + 1, y), letter, font=f, fill=ink)
    return to_palette(flat), mask


@memo(128)
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


@memo(128)
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


@memo(64)
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


@memo(64)
def icon_sprite(kind: str, size: int, bg: RGB) -> Image.Image:
    """A stand-alone icon (for the legend) on ``bg``."""
    big = Image.new("RGB", (size * SS, size * SS), bg)
    _icon(ImageDraw.Draw(big), kind, size * SS / 2, size * SS / 2, size * SS * 0.42, ink_on(bg), bg)
    return to_palette(big.resize((size, size), Image.Resampling.LANCZOS))


# --------------------------------------------------------------------------------------------
# Tiles


TOKEN = 30
"""Side of an Astronaut token on the station: its role letter is drawn at 18 px."""
LABEL = 18
"""Font size of every label on the board (cell names, numbers, names)."""


def token_letter_px(size: int) -> int:
    """Font size of the letter (or number) inside a token of side ``size``."""
    return max(9, round(size * 0.6))


class TileGeometry:
    """Where things go inside a tile of side ``size`` (pixels from the tile's top-left).

    Top: the cell name (18 px). Bottom: the Astronauts (30 px tokens, two side by side). Between
    them a band for the room's icon (or the Alien), with the Activation places on its right and
    the printed Alien symbol / no-Robot mark on its left.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.hull = max(3, round(size * 0.06))
        self.door_len = round(size * 0.40)
        self.pad = self.hull + 2
        self.label_top = self.hull - 3
        self.token = min(TOKEN, (size - 2 * self.pad - 3) // 2)
        self.band_top = self.hull + 16 if size >= 64 else self.pad
        self.band_bottom = size - self.pad - self.token
        self.act = max(9, round(size * 0.15))
        self.alien = round(size * 0.42)
        self.room_alien = max(16, min(round(size * 0.38), self.band_bottom - self.band_top + 10))

    def occupant_slots(self, kind: str, capacity: int) -> list[tuple[int, int]]:
        """Top-left corners of the places for Astronaut tokens."""
        s, t = self.size, self.token
        if kind == "corridor":
            return [((s - t) // 2, (s - t) // 2 + 2)]
        y = s - self.pad - t
        if capacity == 1:
            return [((s - t) // 2, y)]
        gap = max(3, min(round(s * 0.1), s - 2 * self.pad - 2 * t))
        x0 = (s - 2 * t - gap) // 2
        return [(x0, y), (x0 + t + gap, y)][: max(1, capacity)]

    def activation_slots(self) -> list[tuple[int, int]]:
        """Top-left corners of the two Activation token places (right end of the icon band)."""
        s, a = self.size, self.act
        x = s - self.pad - a
        cy = (self.band_top + self.band_bottom) // 2
        return [(x, cy - a - 1), (x, cy + 1)]

    def icon_centre(self) -> tuple[float, float, float]:
        """Centre and radius of a room's icon."""
        s = self.size
        band = self.band_bottom - self.band_top
        return s / 2, (self.band_top + self.band_bottom) / 2, max(4.0, min(band / 2 - 1, s * 0.14))

    def mark_centres(self) -> list[tuple[float, float]]:
        """Centres of the small printed marks (Alien symbol, no-Robot) on the left of the band."""
        r = self.size * 0.085
        cy = (self.band_top + self.band_bottom) / 2
        x = self.pad + r
        return [(x, cy - r - 1), (x, cy + r + 1)] if self.band_bottom - self.band_top > 4 * r else [(x, cy)]

    def alien_pos(self, kind: str, occupied: bool) -> tuple[int, int]:
        """Top-left corner of the Alien figure on this tile."""
        s, a = self.size, self.alien
        if kind == "corridor":
            if occupied:
                return s - self.hull - a + 3, self.hull
            return (s - a) // 2, (s - a) // 2 + 2
        a = self.room_alien
        return (s - a) // 2, (self.band_top + self.band_bottom - a) // 2


@memo(16)
def _stripe_patch(w: int, h: int, k: float) -> Image.Image:
    """A yellow/black hazard-striped connector of ``w`` x ``h`` (supersampled pixels), RGB."""
    patch = Image.new("RGB", (w, h), DOOR_YELLOW)
    d = ImageDraw.Draw(patch)
    step = k * 8
    band = step / 2
    i = -float(w + h)
    while i < w + h:
        d.polygon([(i, h), (i + band, h), (i + band + h, 0), (i + h, 0)], fill=DOOR_BLACK)
        i += step
    d.rectangle((0, 0, w - 1, h - 1), outline=DOOR_BLACK, width=max(1, round(k * 1.2)))
    return patch


def _door_box(side: str, s: float, length: float, depth: float) -> tuple[float, float, float, float]:
    a = (s - length) / 2
    if side == "N":
        return (a, 0, a + length, depth)
    if side == "S":
        return (a, s - depth, a + length, s)
    if side == "W":
        return (0, a, depth, a + length)
    return (s - depth, a, s, a + length)


@memo(64)
def door_sprite(side: str, size: int) -> tuple[Image.Image, tuple[int, int]]:
    """The striped connector on ``side`` of a tile of ``size``: (palette patch, top-left)."""
    geo = TileGeometry(size)
    depth = geo.hull + 2 * size / 100
    x0, y0, x1, y1 = _door_box(side, size * SS, geo.door_len * SS, depth * SS)
    w, h = round(x1 - x0), round(y1 - y0)
    k = SS * size / 100
    patch = _stripe_patch(max(w, h), min(w, h), k)
    if side in "WE":
        patch = patch.transpose(Image.Transpose.ROTATE_90)
    small = patch.resize((max(1, round(w / SS)), max(1, round(h / SS))), Image.Resampling.LANCZOS)
    return to_palette(small), (round(x0 / SS), round(y0 / SS))


@memo(64)
def floor_sprite(kind: str, size: int) -> Image.Image:
    """A tile without its connectors: hull and floor, and the room's icon; palette image."""
    geo = TileGeometry(size)
    s = size * SS
    k = SS * size / 100
    floor = FLOOR[kind]
    img = Image.new("RGB", (s, s), SPACE)
    d = ImageDraw.Draw(img)
    gap = SS
    hull = geo.hull * SS
    if kind == "corridor":
        d.rectangle((gap, gap, s - gap, s - gap), fill=CORR_HULL)
        d.rectangle((gap, gap, s - gap, s - gap), outline=HULL_EDGE, width=round(k * 2))
    else:
        radius = s * (0.16 if kind == "pod" else 0.05)
        d.rounded_rectangle(
            (gap, gap, s - gap, s - gap), radius=radius, fill=HULL, outline=HULL_EDGE, width=round(k * 2)
        )
        d.rounded_rectangle((hull, hull, s - hull, s - hull), radius=max(0, radius - hull), fill=floor)
    if kind not in ("corridor", "pod", "waking_room"):
        cx, cy, r = geo.icon_centre()
        _icon(d, kind, cx * SS, cy * SS, r * SS, ink_on(floor), floor)
    return to_palette(img.resize((size, size), Image.Resampling.LANCZOS))


@memo(64)
def mark_sprite(kind: str, size: int, floor: RGB) -> Image.Image:
    """A small printed mark (``alien_symbol`` or ``no_robot``) for a tile of ``size`` on ``floor``."""
    r = size * 0.085
    side = max(6, round(2 * r + 2))
    big = Image.new("RGB", (side * SS, side * SS), floor)
    _icon(ImageDraw.Draw(big), kind, side * SS / 2, side * SS / 2, r * SS, ink_on(floor), floor)
    return to_palette(big.resize((side, side), Image.Resampling.LANCZOS))


def _passage(img: Image.Image, doors: str, size: int) -> None:
    """A corridor's walkway: a centre square and an arm to each door, outlined (drawn in place)."""
    d = ImageDraw.Draw(img)
    geo = TileGeometry(size)
    half = geo.door_len / 2
    c = size / 2
    lo, hi = round(c - half), round(c + half) - 1
    arms = {"N": (lo, 0, hi, c), "S": (lo, c, hi, size - 1), "W": (0, lo, c, hi), "E": (c, lo, size - 1, hi)}
    boxes = [(lo, lo, hi, hi)] + [arms[side] for side in doors]
    edge = idx(PASSAGE_EDGE)
    w = max(1, round(size * 0.015))
    for x0, y0, x1, y1 in boxes:
        d.rectangle((x0 - w, y0 - w, x1 + w, y1 + w), fill=edge)
    for box in boxes:
        d.rectangle(box, fill=idx(CORR_FLOOR))


@memo(512)
def tile_sprite(
    kind: str,
    doors: str,
    size: int,
    capacity: int,
    alien_symbol: bool,
    activatable: bool,
    no_robot: bool,
) -> Image.Image:
    """One tile as printed, without its cell name and pieces: floor, striped connectors on
    ``doors`` (e.g. ``"NES"``), icon, free places for its capacity, Activation token places,
    Alien symbol and no-Robot mark; a palette image of ``size`` x ``size``."""
    geo = TileGeometry(size)
    floor = FLOOR[kind]
    out = floor_sprite(kind, size).copy()
    if kind == "corridor":
        _passage(out, doors, size)
    for side in doors:
        patch, pos = door_sprite(side, size)
        out.paste(patch, pos)
    marks = [m for m, on in (("alien_symbol", alien_symbol), ("no_robot", no_robot)) if on]
    if kind == "corridor" and marks:
        spr = mark_sprite(marks[0], size, CORR_HULL)
        out.paste(spr, (size - geo.hull - spr.width - 1, size - geo.hull - spr.height - 1))
    else:
        for (mx, my), mark in zip(geo.mark_centres(), marks, strict=False):
            spr = mark_sprite(mark, size, floor)
            out.paste(spr, (round(mx - spr.width / 2), round(my - spr.height / 2)))
    if capacity and kind != "waking_room":
        for x, y in geo.occupant_slots(kind, capacity):
            ring = seat_sprite(geo.token, CORR_FLOOR if kind == "corridor" else floor)
            out.paste(ring[0], (x, y), ring[1])
    if activatable:
        for x, y in geo.activation_slots():
            spr, mask = activation_slot(geo.act, floor, None)
            out.paste(spr, (x, y), mask)
    return out


@memo(64)
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


@memo(32)
def hatch_sprite(w: int, h: int) -> Image.Image:
    """The difficulty cover over the first slots of the Alien track: a hatched plate."""
    img = Image.new("RGB", (w * SS, h * SS), COVER)
    d = ImageDraw.Draw(img)
    for i in range(-h * SS, w * SS, 9 * SS):
        d.line((i, h * SS, i + h * SS, 0), fill=_mix(COVER, DARK, 0.25), width=2 * SS)
    d.rectangle((0, 0, w * SS - 1, h * SS - 1), outline=OUTLINE, width=2 * SS)
    return to_palette(img.resize((w, h), Image.Resampling.LANCZOS))


@memo(32)
def build_spot_sprite(size: int) -> Image.Image:
    """An empty cell next to a connector, where a tile could be built: a dashed outline."""
    s = size * SS
    img = Image.new("RGB", (s, s), SPACE)
    d = ImageDraw.Draw(img)
    m = 4 * SS
    dash = s / 14
    w = SS * 2
    pos: float = m
    while pos < s - m:
        end = min(pos + dash * 0.55, s - m)
        for seg in ((pos, m, end, m), (pos, s - m, end, s - m), (m, pos, m, end), (s - m, pos, s - m, end)):
            d.line(seg, fill=RING, width=w)
        pos += dash
    return to_palette(img.resize((size, size), Image.Resampling.LANCZOS))
