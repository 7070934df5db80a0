"""Argoat's PNG is put together from compressed bands of rows cached between maps
(render/png_bands.py): it must decode to exactly the picture drawn (the pixels and palette of
Pillow's encode of it), stay a valid PNG with Pillow's other chunks, and its bytes must not
depend on what the cache held."""

from __future__ import annotations

import io
import random
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from render import argoat, memo, png_bands
from tests.render_argoat.argoat_games import public_views

PALETTE = bytes(random.Random(5).randrange(256) for _ in range(768))


def _chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (type, data), each CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = [], 8
    while pos < len(png):
        (n,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + n]
        (crc,) = struct.unpack(">I", png[pos + 8 + n : pos + 12 + n])
        assert crc == zlib.crc32(kind + data), kind
        out.append((kind, data))
        pos += 12 + n
    assert pos == len(png) and out[0][0] == b"IHDR" and out[-1] == (b"IEND", b"")
    return out


def _rows(png: bytes) -> bytes:
    """The PNG's image data inflated with zlib alone (the whole stream, its checksum checked)."""
    stream = zlib.decompressobj()
    raw = stream.decompress(b"".join(data for kind, data in _chunks(png) if kind == b"IDAT"))
    assert stream.eof and not stream.unused_data
    return raw


def _picture(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("L", (width, height), 7)
    for _ in range(20):  # rectangles and noise: bands that compress well and badly
        x, y = rng.randrange(width), rng.randrange(height)
        img.paste(rng.randrange(256), (x, y, min(width, x + rng.randrange(1, 300)), min(height, y + 40)))
    noise = Image.frombytes("L", (width, 10), rng.randbytes(width * 10))
    img.paste(noise, (0, height // 2))
    return img


def _decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.mode == "P"
    return img


def _pillow(img: Image.Image, palette: bytes) -> bytes:
    pic = img.convert("P")
    pic.putpalette(palette)
    buf = io.BytesIO()
    pic.save(buf, "PNG", compress_level=argoat.COMPRESS_LEVEL)
    return buf.getvalue()


def test_adler_combine_is_the_checksum_of_the_data_joined() -> None:
    rng = random.Random(1)
    for first_n, second_n in ((0, 0), (0, 9), (9, 0), (1, 1), (70_000, 5), (3, 200_000), (65_521, 65_521)):
        first, second = rng.randbytes(first_n), bytes([255]) * second_n
        combined = png_bands.adler_combine(zlib.adler32(first), zlib.adler32(second), second_n)
        assert combined == zlib.adler32(first + second), (first_n, second_n)


def test_bands_decode_to_the_picture_and_its_palette_as_pillows_encode() -> None:
    png_bands.clear()
    for width, height in ((1080, 1382), (1, 1), (7, png_bands.BAND), (33, 2 * png_bands.BAND + 1)):
        img = _picture(width, height, width + height)
        png = png_bands.png_bytes(img, PALETTE)
        ours, pillows = _decoded(png), _decoded(_pillow(img, PALETTE))
        assert ours.size == pillows.size == (width, height)
        assert ours.tobytes() == pillows.tobytes() == img.tobytes()
        assert ours.getpalette() == pillows.getpalette()
        # the chunks Pillow writes, but for the image data: that is one stream of filter-0 rows
        assert [c for c in _chunks(png) if c[0] != b"IDAT"] == [
            c for c in _chunks(_pillow(img, PALETTE)) if c[0] != b"IDAT"
        ]
        raw = _rows(png)
        assert raw == b"".join(b"\x00" + img.tobytes()[y * width : (y + 1) * width] for y in range(height))


def test_a_changed_row_in_a_cached_band_is_encoded_anew() -> None:
    png_bands.clear()
    img = _picture(1080, 400, 3)
    first = png_bands.png_bytes(img, PALETTE)
    built, reused = png_bands.counts()
    assert png_bands.png_bytes(img, PALETTE) == first
    assert png_bands.counts() == (built, reused + -(-400 // png_bands.BAND))  # every band reused
    changed = img.copy()
    changed.putpixel((539, png_bands.BAND + 5), (img.getpixel((539, png_bands.BAND + 5)) + 1) % 256)
    png = png_bands.png_bytes(changed, PALETTE)
    assert _decoded(png).tobytes() == changed.tobytes() != img.tobytes()
    assert png_bands.counts()[0] == built + 1  # only the band with the changed row
    shorter = img.crop((0, 0, 1080, 400 - 7))  # the last band shorter: its place is shared
    assert _decoded(png_bands.png_bytes(shorter, PALETTE)).tobytes() == shorter.tobytes()


def test_a_map_from_cached_bands_is_the_map_encoded_afresh() -> None:
    """Maps of a game drawn one after the other (bands reused) give the same bytes as the same
    maps with the band cache emptied before each, and decode to what Pillow's encode gives."""
    views = public_views(4)[:240]
    png_bands.clear()
    built, reused = png_bands.counts()
    compared = 0
    for i, view in enumerate(views):
        previous = views[i - 3] if i >= 3 else None
        warm = argoat.render_board(view, previous)
        if i % 8:
            continue
        png_bands.clear()
        assert argoat.render_board(view, previous) == warm, i
        drawn = argoat.draw_board(view, previous)
        pillows = _decoded(argoat.encode(drawn))
        ours = _decoded(warm)
        assert ours.tobytes() == pillows.tobytes() == drawn.tobytes(), i
        assert ours.getpalette() == pillows.getpalette(), i
        _rows(warm)
        compared += 1
    assert compared == 30
    now_built, now_reused = png_bands.counts()
    assert now_reused - reused > now_built - built  # most bands came from the cache


def test_bands_encoded_in_threads_match_bands_encoded_one_by_one() -> None:
    pictures = [_picture(1080, 700, seed % 3) for seed in range(12)]
    for img, seed in zip(pictures, range(12), strict=True):  # same places, different rows
        img.paste(seed, (0, 300, 1080, 330))
    memo.clear_all()
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda img: png_bands.png_bytes(img, PALETTE), pictures))
    png_bands.clear()
    serial = [png_bands.png_bytes(img, PALETTE) for img in pictures]
    assert threaded == serial
    assert [_decoded(png).tobytes() for png in threaded] == [img.tobytes() for img in pictures]


def test_the_band_cache_is_bounded() -> None:
    png_bands.clear()
    for width in range(100, 100 + 3 * png_bands.PLACES, 3):
        png_bands.png_bytes(_picture(width, 2 * png_bands.BAND, width), PALETTE)
    assert len(png_bands._BANDS) == png_bands.PLACES
    for seed in range(png_bands.VARIANTS + 3):
        png_bands.png_bytes(_picture(64, 64, seed), PALETTE)
    assert max(len(kept) for kept in png_bands._BANDS.values()) == png_bands.VARIANTS
    memo.clear_all()
    assert not png_bands._BANDS


def test_a_band_in_use_is_not_the_one_dropped() -> None:
    png_bands.clear()
    hot = _picture(50, png_bands.BAND, 1)
    png_bands.png_bytes(hot, PALETTE)
    for width in range(100, 100 + 2 * png_bands.PLACES):
        png_bands.png_bytes(_picture(width, png_bands.BAND, width), PALETTE)  # one place each
        built = png_bands.counts()[0]
        png_bands.png_bytes(hot, PALETTE)
        assert png_bands.counts()[0] == built  # taken from the cache every time


def test_a_band_is_taken_from_the_cache_only_under_the_same_row() -> None:
    """A band is compressed with the row above it as its dictionary (it may copy from that
    row): a cached band is taken again only when that row is the same too, else the PNG would
    decode to the changed row's bytes where the band copied the old ones."""
    png_bands.clear()
    width, band = 200, png_bands.BAND
    img = _picture(width, 3 * band, 8)
    last = img.crop((0, band - 1, width, band))  # the second band: rows like the first band's last
    for y in range(band, 2 * band):
        img.paste(last, (0, y))
    png_bands.png_bytes(img, PALETTE)
    built, reused = png_bands.counts()
    changed = img.copy()
    changed.paste(Image.frombytes("L", (width, 1), random.Random(9).randbytes(width)), (0, band - 1))
    png = png_bands.png_bytes(changed, PALETTE)
    assert _decoded(png).tobytes() == changed.tobytes() != img.tobytes()
    assert png_bands.counts() == (built + 2, reused + 1)  # the changed band and the one under it
