"""Pillow behind one adapter: the few internals of Pillow the renderers use, each in one place.

The renderers otherwise use Pillow's public API, and their one font comes from render/fonts.py.
What is here reaches past that API, for speed on the hot paths of drawing a board or writing a
replay, and is what a new Pillow release may move:

* the *image core* (``Image.Image.im``, Pillow's ``ImagingCore``): the pixels without the Python
  wrapper. Pasting, cropping and looking pixels up through it skips the wrapper's checks, copies
  and (for ``point``) its rounding of every table entry; :func:`core` hands it out typed as
  :class:`Core` (only the calls the renderers make), :func:`wrap` turns one back into an image;
* the raw encoder (``Image._getencoder``), to read a picture's bytes in one piece
  (:func:`pixels`);
* the GIF writer's frame helpers (``GifImagePlugin.getheader`` / ``getdata``), to write a replay
  one frame at a time (:func:`gif_header`, :func:`gif_frame`).

tests/render_pillow/ checks each function pixel by pixel, and CI runs those tests and the render
tests at the lowest Pillow pyproject.toml allows (.ci/pillow-min.txt) and at the newest.
"""

from __future__ import annotations

from typing import Protocol, cast

from PIL import GifImagePlugin, Image

Box = tuple[int, int, int, int]


class Core(Protocol):
    """Pillow's image core (an ``ImagingCore``): the calls the renderers make on it."""

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels."""
        ...

    def paste(self, source: Core, box: Box, mask: Core | None = None, /) -> None:
        """Paste ``source`` (its size that of ``box``) into ``box``, where ``mask`` is non-zero."""
        ...

    def crop(self, box: Box, /) -> Core:
        """A copy of the pixels in ``box``."""
        ...

    def getextrema(self) -> tuple[int, int]:
        """The lowest and the highest value (a one-band image)."""
        ...

    def point(self, table: list[int], mode: None, /) -> Core:
        """Every value through ``table`` (256 whole numbers for a one-band 8-bit image)."""
        ...


def core(img: Image.Image) -> Core:
    """The image core of ``img`` (its pixels; shared with it, not copied)."""
    return cast(Core, img.im)


def wrap(like: Image.Image, pixels: Core) -> Image.Image:
    """An image around the image core ``pixels``, with the mode and info of ``like`` (as
    Pillow's own methods wrap their results: ``Image._new``)."""
    return like._new(cast("Image.core.ImagingCore", pixels))


def look_up(img: Image.Image, table: list[int]) -> Image.Image:
    """A one-band 8-bit image through a table of 256 whole numbers: ``Image.point`` without
    its rounding of every entry, which costs more than the look-up on a small image."""
    return img._new(img.im.point(table, None))


def pixels(img: Image.Image) -> bytes:
    """The picture's bytes, as ``img.tobytes()`` gives them; a one-band 8-bit picture ("L",
    "P") read in one piece (``tobytes`` reads 64 KB at a time and joins the pieces: twice the
    copying, and for a picture of 1.5 MB about 0.1 ms more), any other through ``tobytes``, as
    is every picture if the raw encoder is not as expected."""
    width, height = img.size
    if width * height == 0:
        return b""
    try:
        reader = Image._getencoder(img.mode, "raw", img.mode)
    except (AttributeError, OSError):  # Pillow's internals changed: read it as tobytes does
        return img.tobytes()
    try:
        reader.setimage(img.im, (0, 0, width, height))
        _done, status, data = reader.encode(width * height + 1)
    finally:
        reader.cleanup()
    if status != 1 or len(data) != width * height:  # not the whole picture at once (or not 8-bit)
        return img.tobytes()
    return bytes(data)


def gif_header(image: Image.Image, *, loop: int = 0) -> bytes:
    """The start of a GIF whose frames are palette images with the palette of ``image``: the
    header, the logical screen (``image``'s size), the global palette and the looping
    extension (``loop`` times; 0, endlessly)."""
    header, _ = GifImagePlugin.getheader(image, None, {"loop": loop})
    return b"".join(header)


def gif_frame(
    image: Image.Image,
    *,
    duration: int,
    offset: tuple[int, int] = (0, 0),
    disposal: int = 1,
    transparency: int | None = None,
) -> bytes:
    """One frame of a GIF begun with :func:`gif_header`: the palette image ``image`` at ``offset``
    on the screen, shown for ``duration`` ms, left in place (``disposal`` 1) for the next, the
    palette slot ``transparency`` (if any) showing the frames below."""
    params: dict[str, int] = {"duration": duration, "disposal": disposal}
    if transparency is not None:
        params["transparency"] = transparency
    return b"".join(GifImagePlugin.getdata(image, offset=offset, **params))
