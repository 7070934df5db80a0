"""The one font boards and replays draw with: Pillow's built-in scalable font."""

from __future__ import annotations

from PIL import ImageFont

from render.memo import memo


@memo(32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font at ``size`` pixels (no system font files needed).

    Pillow's wheels always have FreeType, and then ``load_default(size=...)`` is scalable; a
    Pillow built without it would give a fixed bitmap font that ignores ``size``, so that is an
    error here rather than a board drawn at the wrong scale."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("this Pillow has no FreeType support: boards need its scalable font")
    return loaded


def text_box(face: ImageFont.FreeTypeFont, text: str) -> tuple[int, int, int, int]:
    """The ink box of ``text`` in ``face`` in whole pixels: left, top, right, bottom."""
    left, top, right, bottom = face.getbbox(text)
    return int(left), int(top), int(right), int(bottom)
