"""PNG bytes of a board from compressed bands cached between boards, for both games' renderers
(docs/boards.md, "Argoat's PNG from cached bands"; Argo's boards since stop 30).

Most of a board's picture does not change from one board of a game to the next, yet a plain PNG
encode compresses every row again: that encode was the floor the renderer was measured
against. A palette PNG (as Pillow writes it, and as here) filters no row: each row is a zero byte
and the row's palette entries, so the picture's data is the concatenation of its rows, and a
horizontal band of rows can be compressed on its own. Each band of :data:`BAND` rows is
deflated by a fresh compressor and ended with a full flush (ends on a byte), so compressed bands
concatenate into one valid deflate stream; the stream's Adler-32 is combined from the bands'
checksums arithmetically. A band may refer back to the row just above it (given to its
compressor as a preset dictionary: in the stream that row is what comes just before the band),
which keeps most of what a band's fresh start loses (a row is mostly the row above it), but to
nothing earlier. A band is looked up by its place (the picture's width and the band's first row)
and used only if its rows and the row above it are exactly those of the picture there (a byte
comparison, no hash): the PNG decodes to exactly the picture drawn, and its bytes depend only on
that picture (the same picture gives the same bytes, cached or not).

The file is a valid PNG with the chunks Pillow writes for the same picture (IHDR, PLTE, the
image data, IEND); only the compressed data differs from Pillow's encoder's: the same deflate
level, restarted every band (with the row above), so it is about 2 % larger.

Memory: at most :data:`PLACES` band places, :data:`VARIANTS` bands each (the rows, the row above
and their compressed bytes: about 55 KB a band of a 1080 px picture), about 10 MB per drawing
process at most (5 MB for a bot whose pictures are all 1080 px wide).
Thread safety as render/memo.py: a look-up takes no lock; a band is compressed outside any lock
(zlib releases the GIL, so two threads encode in parallel); storing it takes a lock held for a
few dictionary operations.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from PIL import Image

from . import pillow
from .memo import memo, on_clear_all

BAND = 48
"""Rows per band: smaller bands compress fewer rows again but compress worse (each starts
afresh) and cost more per band: over an Argoat game 16-48 rows cost the same CPU (the changes
are spread over the picture's rows), 64 rows more; the PNG grows by about 2 % (32 rows: 3 %)."""
VARIANTS = 3
"""Bands kept per place (several games' maps drawn in one process keep theirs)."""
PLACES = 64
"""Band places kept (a 1080 px picture of 1,400 rows has 30; pictures of one width share them)."""
LEVEL = 3
"""The deflate level (both renderers' ``COMPRESS_LEVEL``, as Pillow's encode of the floor)."""
MEM_LEVEL = 8
"""zlib's memory level (Pillow's PNG encoder uses 9): a band is at most a few tens of KB, and the
smaller hash table a fresh compressor clears and fills makes a band about 10 % cheaper to
compress for the same size."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x5e"
"""A zlib stream's header: deflate, 32 KB window, level 2-5 (as Pillow writes at level 3)."""
_END = b"\x03\x00"
"""An empty final deflate block (fixed codes): ends the stream after the last band."""
_ADLER_BASE = 65521


@dataclass(frozen=True, slots=True)
class _Band:
    """A band of rows: its palette entries, the row above it (its compressor's dictionary; empty
    for the first band), its filtered rows deflated (ended by a full flush), their Adler-32 and
    length."""

    rows: bytes
    above: bytes
    deflated: bytes
    adler: int
    size: int


_BANDS: OrderedDict[tuple[int, int], tuple[_Band, ...]] = OrderedDict()
_STORE = Lock()
_COUNTS = [0, 0]
"""Bands compressed, bands taken from the cache (for tests and the bench)."""


def counts() -> tuple[int, int]:
    """How many bands were compressed and how many were taken from the cache so far."""
    return _COUNTS[0], _COUNTS[1]


def clear() -> None:
    """Forget every cached band."""
    with _STORE:
        _BANDS.clear()


on_clear_all(clear)


def adler_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two pieces of data one after the other, from the first's checksum, the
    second's and the second's length (zlib's ``adler32_combine``)."""
    low1, high1 = first & 0xFFFF, first >> 16
    low = (low1 + (second & 0xFFFF) - 1) % _ADLER_BASE
    high = (high1 + (second >> 16) + length * (low1 - 1)) % _ADLER_BASE
    return (high << 16) | low


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


@memo(8)
def _head(width: int, height: int, palette: bytes) -> bytes:
    """The PNG's signature, IHDR (8-bit palette) and PLTE chunks."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return _SIGNATURE + _chunk(b"IHDR", ihdr) + _chunk(b"PLTE", palette)


_IEND = _chunk(b"IEND", b"")


def _deflate(rows: bytes, above: bytes, width: int) -> _Band:
    """A band compressed on its own but for the row ``above`` it (its dictionary, as the stream
    has it: behind its zero byte): each row behind a zero byte (PNG filter "none")."""
    view = memoryview(rows)
    filtered = b"\x00" + b"\x00".join([view[i : i + width] for i in range(0, len(rows), width)])
    if above:
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, MEM_LEVEL, zdict=b"\x00" + above)
    else:
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, MEM_LEVEL)
    deflated = packer.compress(filtered) + packer.flush(zlib.Z_FULL_FLUSH)
    return _Band(rows, above, deflated, zlib.adler32(filtered), len(filtered))


def _band(place: tuple[int, int], data: bytes, start: int, size: int, width: int) -> _Band:
    """The band of the picture's ``data`` from ``start`` (``size`` bytes) at this place: cached,
    or compressed and stored."""
    kept = _BANDS.get(place, ())  # no lock: one atomic look-up
    top = max(0, start - width)
    for band in kept:
        if (
            len(band.rows) == size
            and data.startswith(band.rows, start)  # the same rows
            and data.startswith(band.above, top)  # and the same row above them
        ):
            _COUNTS[1] += 1
            if band is not kept[0]:
                _store(place, band)
            else:
                try:  # noqa: SIM105 (as render/memo.py: the place stays among the kept)
                    _BANDS.move_to_end(place)
                except KeyError:  # dropped by another thread meanwhile: the band is still good
                    pass
            return band
    band = _deflate(data[start : start + size], data[top:start], width)
    _COUNTS[0] += 1
    _store(place, band)
    return band


def _store(place: tuple[int, int], band: _Band) -> None:
    """Make ``band`` the first kept at ``place`` (at most :data:`VARIANTS` there)."""
    with _STORE:
        kept = _BANDS.get(place, ())
        _BANDS[place] = (band, *(b for b in kept if b is not band))[:VARIANTS]
        _BANDS.move_to_end(place)
        while len(_BANDS) > PLACES:
            _BANDS.popitem(last=False)


def png_bytes(indices: Image.Image, palette: bytes) -> bytes:
    """A palette PNG of ``indices`` (an "L" or "P" image of palette entries) with ``palette``
    (RGB triples), from cached bands where the picture's rows are the same."""
    width, height = indices.size
    data = pillow.pixels(indices)
    parts = [_ZLIB_HEADER]
    adler = 1
    step, end = BAND * width, width * height
    for start in range(0, end, step):
        band = _band((width, start // width), data, start, min(step, end - start), width)
        parts.append(band.deflated)
        adler = adler_combine(adler, band.adler, band.size)
    parts.append(_END)
    parts.append(struct.pack(">I", adler))
    crc = zlib.crc32(b"IDAT")
    for part in parts:
        crc = zlib.crc32(part, crc)
    size = sum(len(part) for part in parts)
    head = _head(width, height, palette) + struct.pack(">I", size) + b"IDAT"
    return b"".join([head, *parts, struct.pack(">I", crc), _IEND])
