"""Animated replays: the public boards of a game, one frame per turn, as one animated GIF.

Each frame is the board picture of a public view (``render.board_png``, with what changed since
the previous frame marked) under a caption strip naming the turn and who played it; the last
frame of a finished game holds the final ranking in a panel below the board, where it covers
nothing (every frame of such a replay has that band: empty but on the last). The animation is
made to fit Discord's upload limit: smaller frames first, then one frame per round (docs/boards.md,
"Replays", says why GIF and these sizes).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

import render
from render import pillow
from render.fonts import font as scalable_font

UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's attachment limit (10 MiB)."""
BUDGET = UPLOAD_LIMIT - 256 * 1024
"""What a replay may weigh: the limit, less room for the rest of the upload."""
WIDTHS = (720, 540)
"""Frame widths tried, widest first: 720 px reads well when opened, 540 px is what Discord shows
inline anyway (about 550 px)."""
FRAME_MS = 700
LAST_FRAME_MS = 5000
CAPTION_SIZE = 26
"""Caption text size on the full-size (1080 px) board, so 17 px at 720 and 13 px at 540."""
CAPTION_FG = (232, 236, 244)
CAPTION_DIM = (150, 160, 175)


@dataclass
class Frame:
    """One frame: a public view and the lines captioning it (the first one in bold colour)."""

    view: dict[str, Any]
    caption: list[str]
    ranking: list[str] = field(default_factory=list)
    """The final ranking (the last frame of a finished game): how the game ended, then one line
    per player; drawn in a panel below the board."""


@dataclass
class Animation:
    """An animated replay: the file, and how it was made to fit."""

    data: bytes
    frames: int
    every: int
    """1: a frame per turn; n: one frame every n turns (a round)."""
    width: int
    fits: bool
    """False if even the smallest form is over the budget (it is then not posted)."""
    filename: str = "replay.gif"


def _fit_text(text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut (with an ellipsis) to ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits, by bisection
    while low < high:
        middle = (low + high + 1) // 2
        if font.getlength(text[:middle] + "…") <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


class _Boards:
    """Board pictures (PNG) drawn on demand, each marking what changed since the frame shown
    before it, and kept for the next form tried."""

    def __init__(self, frames: Sequence[Frame]) -> None:
        self._frames = frames
        self._drawn: dict[tuple[int, int | None], bytes] = {}

    def picture(self, index: int, before: int | None) -> bytes:
        key = (index, before)
        if key not in self._drawn:
            previous = self._frames[before].view if before is not None else None
            png = render.board_png(self._frames[index].view, previous)
            if png is None:
                raise ValueError(f"no renderer for {self._frames[index].view.get('game')}")
            self._drawn[key] = png
        return self._drawn[key]


def _caption_height(lines: int, size: int) -> int:
    return lines * (size + size // 3) + size // 2


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, broken between words (a word longer than a
    line is cut with an ellipsis)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(_fit_text(word, font, width))
    return lines or [""]


def _panel_lines(ranking: Sequence[str], width: int) -> list[tuple[str, bool]]:
    """The ranking panel's text at frame ``width``, wrapped: ``(line, first)``, where ``first``
    marks the lines of the panel's first entry (how the game ended, drawn brighter)."""
    size = max(10, round(CAPTION_SIZE * width / 1080))
    face = scalable_font(size)
    found = []
    for index, entry in enumerate(ranking):
        found += [(line, index == 0) for line in _wrap(entry, face, width - 2 * size)]
    return found


def panel_height(ranking: Sequence[str], width: int) -> int:
    """The height of the ranking panel below the board at frame ``width`` (0 without a ranking)."""
    if not ranking:
        return 0
    size = max(10, round(CAPTION_SIZE * width / 1080))
    return len(_panel_lines(ranking, width)) * (size + size // 3) + size


def _compose(
    board: Image.Image, frame: Frame, width: int, height: int, palette: Palette, lines: int, panel: int = 0
) -> Image.Image:
    """One frame at ``width`` x ``height``: the caption strip, the board scaled to fit, and below
    it a band of ``panel`` pixels for the final ranking (empty on a frame without one), so that
    the ranking covers no part of the board."""
    scale = width / board.width
    size = max(10, round(CAPTION_SIZE * width / 1080))
    top = _caption_height(lines, size)
    rgb = board.convert("RGB")
    background = rgb.getpixel((2, 2))
    canvas = Image.new("RGB", (width, height), background)
    shown = rgb.resize((width, max(1, round(board.height * scale))), Image.Resampling.BOX)
    canvas.paste(shown, (0, top))
    draw = ImageDraw.Draw(canvas)
    face = scalable_font(size)
    y = size // 4
    for index, line in enumerate(frame.caption[:lines]):
        fill = CAPTION_FG if index == 0 else CAPTION_DIM
        draw.text((size // 2, y), _fit_text(line, face, width - size), font=face, fill=fill)
        y += size + size // 3
    if frame.ranking and panel:
        y0 = height - panel
        draw.rectangle((0, y0, width - 1, height - 1), fill=background)
        draw.line((size // 2, y0 + 1, width - size // 2, y0 + 1), fill=CAPTION_DIM, width=2)
        y = y0 + size // 2
        for line, first in _panel_lines(frame.ranking, width):
            draw.text((size, y), line, font=face, fill=CAPTION_FG if first else CAPTION_DIM)
            y += size + size // 3
    out = canvas.quantize(palette=palette.image, dither=Image.Dither.NONE)
    kept = Image.frombytes("P", out.size, out.tobytes().translate(palette.table))
    kept.putpalette(palette.image.getpalette() or [])
    return kept


@dataclass(frozen=True)
class Palette:
    """The one palette of every frame, with a slot kept free to mark unchanged pixels."""

    image: Image.Image
    """A 1x1 palette image to quantize onto."""
    free: int
    """The slot no frame pixel uses (transparent in every frame after the first)."""
    table: bytes
    """Pixel index translation that moves a pixel off ``free`` to the slot of the same colour."""


def _palette(first: Image.Image) -> Palette:
    """The board's own palette (both games draw from a fixed palette of 256 colours, which has
    the caption's dark and light colours or close ones). A slot repeating an earlier colour is
    kept free; if every colour is different, the last slot gives its colour up (its pixels take
    the closest other colour)."""
    source = first if first.mode == "P" else first.convert("RGB").quantize(256, dither=Image.Dither.NONE)
    colours = list(source.getpalette() or [])[: 256 * 3]
    colours += [0] * (256 * 3 - len(colours))
    slots = [tuple(colours[i : i + 3]) for i in range(0, 256 * 3, 3)]
    repeated = [i for i, c in enumerate(slots) if slots.index(c) != i]
    if repeated:
        free, same = repeated[-1], slots.index(slots[repeated[-1]])
    else:
        free, same = 255, 254
        colours[free * 3 : free * 3 + 3] = colours[same * 3 : same * 3 + 3]
    image = Image.new("P", (1, 1))
    image.putpalette(colours)
    table = bytes(same if i == free else i for i in range(256))
    return Palette(image, free, table)


def chosen_frames(total: int, every: int) -> list[int]:
    """The indexes of the frames kept when showing every ``every``-th one (and always the last)."""
    chosen = list(range(0, total, every))
    if chosen[-1] != total - 1:
        chosen.append(total - 1)
    return chosen


def encode(
    frames: Sequence[Frame],
    boards: _Boards,
    width: int,
    chosen: Sequence[int],
    lines: int,
    *,
    first_after: int | None = None,
    sizes: list[int] | None = None,
) -> bytes:
    """The GIF of the ``chosen`` frames at ``width``, each board marking what changed since the
    chosen frame before it (the first: since ``first_after``, else the frame before it).
    ``sizes`` collects the bytes each frame took."""
    first = first_after if first_after is not None else (chosen[0] - 1 if chosen[0] else None)
    befores = [first, *chosen[:-1]]
    pictures = [boards.picture(i, before) for i, before in zip(chosen, befores, strict=True)]
    palette = _palette(Image.open(io.BytesIO(pictures[0])))
    tallest = 0
    for png in pictures:
        w, h = Image.open(io.BytesIO(png)).size  # reads the header only
        tallest = max(tallest, round(h * width / w))
    size = max(10, round(CAPTION_SIZE * width / 1080))
    panel = max(panel_height(frames[i].ranking, width) for i in chosen)
    height = tallest + _caption_height(lines, size) + panel
    images = (
        _compose(Image.open(io.BytesIO(png)), frames[i], width, height, palette, lines, panel)
        for png, i in zip(pictures, chosen, strict=True)
    )
    durations = [FRAME_MS] * (len(chosen) - 1) + [LAST_FRAME_MS]
    return write_gif(images, durations, palette.free, sizes)


def _indexes(image: Image.Image) -> Image.Image:
    return Image.frombytes("L", image.size, image.tobytes())


def write_gif(
    images: Iterable[Image.Image], durations: Sequence[int], free: int, sizes: list[int] | None = None
) -> bytes:
    """An endlessly looping GIF of palette ``images`` sharing one palette, written one frame at a
    time so that a long replay never holds more than two frames in memory: after the first,
    each frame is the box that changed since the frame before, its unchanged pixels in the
    transparent slot ``free`` (which no pixel uses), which compresses well."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    unchanged = bytes(255 if i == 0 else 0 for i in range(256))
    for image, duration in zip(images, durations, strict=True):
        if previous is None:
            out.write(pillow.gif_header(image, loop=0))
            frame = pillow.gif_frame(image, duration=duration, disposal=1)
        else:
            difference = ImageChops.difference(_indexes(previous), _indexes(image))
            box = difference.getbbox() or (0, 0, 1, 1)
            part = image.crop(box)
            part.paste(free, mask=difference.crop(box).point(unchanged))
            offset = (box[0], box[1])
            frame = pillow.gif_frame(part, offset=offset, duration=duration, disposal=1, transparency=free)
        before = out.tell()
        out.write(frame)
        if sizes is not None:
            sizes.append(out.tell() - before)
        previous = image
    out.write(b";")
    return out.getvalue()


SAMPLE_RUN = 4
"""Consecutive frames per sample when a form's size is estimated before it is encoded."""


def estimate(frames: Sequence[Frame], boards: _Boards, width: int, chosen: Sequence[int], lines: int) -> int:
    """The size a form's GIF will about have, from two short runs of its frames encoded alone
    (mid-game and the end, where boards are biggest): one whole frame, then each further frame
    costs what it changes (the runs' mean)."""
    count = len(chosen)
    firsts, deltas = [], []
    for start in (count // 2, count - SAMPLE_RUN):
        sizes: list[int] = []
        encode(
            frames,
            boards,
            width,
            chosen[start : start + SAMPLE_RUN],
            lines,
            first_after=chosen[start - 1],
            sizes=sizes,
        )
        firsts.append(sizes[0])
        deltas.extend(sizes[1:])
    return round(max(firsts) + (count - 1) * sum(deltas) / max(len(deltas), 1))


def _forms(turns: int, players: int) -> list[tuple[int, int]]:
    """``(every, width)`` in order of preference: every turn (wide, then narrow), then one frame
    per round, then every second round, ... down to two frames."""
    forms = [(1, width) for width in WIDTHS]
    every = max(players, 2)
    while True:
        forms += [(every, width) for width in WIDTHS]
        if turns // every < 2:
            return forms
        every *= 2


def animate(frames: Sequence[Frame], *, players: int, budget: int = BUDGET) -> Animation:
    """The replay of ``frames`` as an animated GIF within ``budget`` bytes, in the first form of
    :func:`_forms` that fits. A long form is estimated first (:func:`estimate`) and skipped
    without being drawn whole when clearly too big. ``fits`` is False if nothing fits."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    boards = _Boards(frames)
    lines = max(len(f.caption) for f in frames)
    forms = _forms(len(frames), players)
    tried = Animation(b"", 0, 1, WIDTHS[0], False)
    for number, (every, width) in enumerate(forms):
        chosen = chosen_frames(len(frames), every)
        last = number == len(forms) - 1
        long = not last and len(chosen) > 3 * SAMPLE_RUN
        if long and estimate(frames, boards, width, chosen, lines) > budget * 1.1:
            continue
        data = encode(frames, boards, width, chosen, lines)
        tried = Animation(data, len(chosen), every, width, len(data) <= budget)
        if tried.fits:
            return tried
    return tried
