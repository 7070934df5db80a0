"""render/pillow.py, the adapter around the Pillow internals the renderers use: each function
checked pixel by pixel against what Pillow's public API gives. CI runs these at the lowest Pillow
pyproject.toml allows and at the newest (.ci/run)."""

from __future__ import annotations

import ast
import io
import random
from pathlib import Path

from PIL import Image, ImageSequence

from render import pillow


def _noise(mode: str, size: tuple[int, int], seed: int = 1) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes(mode, size, rng.randbytes(size[0] * size[1] * len(mode)))


def test_core_size_crop_and_extrema() -> None:
    img = _noise("L", (17, 9))
    core = pillow.core(img)
    assert core.size == (17, 9)
    box = (3, 2, 11, 7)
    assert pillow.wrap(img, core.crop(box)).tobytes() == img.crop(box).tobytes()
    assert core.crop(box).size == (8, 5)
    assert core.getextrema() == img.getextrema()
    flat = Image.new("L", (4, 4), 77)
    assert pillow.core(flat).crop((1, 1, 3, 3)).getextrema() == (77, 77)


def test_core_paste_writes_through_to_the_image() -> None:
    base = _noise("L", (20, 12), seed=2)
    expected = base.copy()
    sprite = _noise("L", (6, 5), seed=3)
    box = (4, 3, 10, 8)
    pillow.core(base).paste(pillow.core(sprite), box)
    expected.paste(sprite, box[:2])
    assert base.tobytes() == expected.tobytes()


def test_core_paste_with_a_mask_keeps_the_pixels_under_zero() -> None:
    base = _noise("L", (16, 16), seed=4)
    before, expected = base.copy(), base.copy()
    sprite = _noise("L", (8, 8), seed=5)
    mask = Image.frombytes("L", (8, 8), bytes(255 if (i // 8 + i) % 2 else 0 for i in range(64)))
    box = (5, 6, 13, 14)
    pillow.core(base).paste(pillow.core(sprite), box, pillow.core(mask))
    expected.paste(sprite, box[:2], mask)
    assert base.tobytes() == expected.tobytes()
    for i in range(64):  # the mask's zeros kept what was there, its 255s took the sprite
        x, y = box[0] + i % 8, box[1] + i // 8
        inside = (i % 8, i // 8)
        want = sprite.getpixel(inside) if mask.getpixel(inside) else before.getpixel((x, y))
        assert base.getpixel((x, y)) == want


def test_core_point_and_look_up_map_every_value() -> None:
    img = Image.frombytes("L", (256, 2), bytes(range(256)) * 2)
    table = [(v * 7 + 3) % 256 for v in range(256)]
    looked = pillow.look_up(img, table)
    assert looked.mode == "L" and looked.size == img.size
    assert looked.tobytes() == bytes(table) * 2
    assert looked.tobytes() == img.point(table).tobytes()
    assert pillow.wrap(img, pillow.core(img).point(table, None)).tobytes() == bytes(table) * 2
    assert img.tobytes() == bytes(range(256)) * 2  # the source is untouched


def test_wrap_keeps_the_mode_and_the_pixels() -> None:
    for mode in ("L", "RGB", "RGBA"):
        img = _noise(mode, (7, 5), seed=6)
        wrapped = pillow.wrap(img, pillow.core(img).crop((0, 0, 7, 5)))
        assert (wrapped.mode, wrapped.size) == (mode, (7, 5))
        assert wrapped.tobytes() == img.tobytes()


def test_pixels_are_the_pictures_bytes() -> None:
    rng = random.Random(4)
    sizes = (("L", (1080, 1382)), ("P", (33, 7)), ("L", (1, 1)), ("RGB", (50, 3)), ("RGBA", (9, 4)))
    for mode, size in sizes:
        img = Image.frombytes(mode, size, rng.randbytes(size[0] * size[1] * len(mode)))
        assert pillow.pixels(img) == img.tobytes(), (mode, size)
    # an empty picture (Image.frombytes refuses one before Pillow 10.2)
    assert pillow.pixels(Image.new("L", (0, 5))) == b""
    # a crop's core, wrapped: what the Argoat renderer reads under a sprite
    big = _noise("L", (40, 30), seed=7)
    box = (5, 4, 25, 19)
    assert pillow.pixels(pillow.wrap(big, pillow.core(big).crop(box))) == big.crop(box).tobytes()


def _palette_frame(seed: int, size: tuple[int, int], colours: list[int]) -> Image.Image:
    rng = random.Random(seed)
    img = Image.frombytes("P", size, bytes(rng.randrange(8) for _ in range(size[0] * size[1])))
    img.putpalette(colours)
    return img


def test_gif_header_and_frames_read_back_pixel_for_pixel() -> None:
    colours = [v for i in range(256) for v in ((i * 37) % 256, (i * 91) % 256, (i * 13) % 256)]
    free = 200  # no pixel uses it: the second frame's unchanged pixels
    first = _palette_frame(8, (24, 16), colours)
    second = first.copy()
    patch = _palette_frame(9, (10, 6), colours)
    second.paste(patch, (7, 5))
    part = patch.copy()
    part.paste(free, (0, 0, 3, 6))  # its first three columns: unchanged, shown from below
    second.paste(first.crop((7, 5, 10, 11)), (7, 5))
    out = (
        pillow.gif_header(first, loop=0)
        + pillow.gif_frame(first, duration=700)
        + pillow.gif_frame(part, offset=(7, 5), duration=1500, transparency=free)
        + b";"
    )
    gif = Image.open(io.BytesIO(out))
    assert gif.format == "GIF" and gif.size == (24, 16)
    assert gif.info.get("loop") == 0
    frames = [(f.convert("RGB").tobytes(), f.info.get("duration")) for f in ImageSequence.Iterator(gif)]
    assert [d for _, d in frames] == [700, 1500]
    assert frames[0][0] == first.convert("RGB").tobytes()
    assert frames[1][0] == second.convert("RGB").tobytes()


def test_ci_runs_the_render_tests_at_the_lowest_pillow_allowed() -> None:
    """.ci/pillow-min.txt pins pyproject.toml's lower bound for Pillow, with hashes, and .ci/run
    runs the render tests, these and the replays' in a virtualenv that has it."""
    import re
    import tomllib

    root = Path(__file__).resolve().parents[2]
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    (spec,) = [d for d in declared if d.lower().startswith("pillow")]
    lowest = re.search(r">=\s*([0-9.]+)", spec)
    assert lowest is not None, spec
    pins = (root / ".ci" / "pillow-min.txt").read_text()
    pinned = re.findall(r"^pillow==([0-9.]+)", pins, re.M)
    assert len(pinned) == 1 and pinned[0].split(".")[:2] == lowest.group(1).split(".")[:2], (spec, pinned)
    assert pins.count("--hash=sha256:") >= 1
    ci = (root / ".ci" / "run").read_text()
    assert "pip install --require-hashes -r .ci/pillow-min.txt" in ci
    run = ".venv-pillow-min/bin/pytest tests/render_argo tests/render_argoat tests/render_pillow \\\n"
    assert run + "    tests/test_archive_replay.py -p no:cacheprovider" in ci


ATTRIBUTES = {"im", "_new", "_getencoder", "_getdecoder"}
"""Pillow's internal attributes (the image core and the functions around it)."""
MODULES = {"GifImagePlugin", "ImageFile", "_imaging"}
"""Pillow's modules whose helpers only render/pillow.py uses."""


def _pillow_internals(tree: ast.AST) -> list[tuple[int, str]]:
    """Where ``tree`` reads an internal attribute or ``Image.core``, or imports one of them or a
    module of :data:`MODULES` from Pillow."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            image_core = node.attr == "core" and isinstance(node.value, ast.Name) and node.value.id == "Image"
            if node.attr in ATTRIBUTES or image_core:
                found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PIL"):
            names = {(node.module or "").removeprefix("PIL").lstrip(".")} | {a.name for a in node.names}
            found += [(node.lineno, name) for name in sorted(names & (MODULES | ATTRIBUTES))]
        elif isinstance(node, ast.Import):
            modules = {a.name.removeprefix("PIL.") for a in node.names if a.name.startswith("PIL.")}
            found += [(node.lineno, name) for name in sorted(modules & MODULES)]
    return found


def test_only_the_adapter_reaches_into_pillow() -> None:
    """No other module of render/ (nor of the bot) reads one of Pillow's internals or imports
    the modules of :data:`MODULES`: a new use goes through render/pillow.py."""
    root = Path(__file__).resolve().parents[2]
    found = []
    for folder in ("render", "bot", "cogs"):
        for path in sorted((root / folder).rglob("*.py")):
            if path != root / "render" / "pillow.py":
                tree = ast.parse(path.read_text(), str(path))
                found += [f"{path.relative_to(root)}:{line} {name}" for line, name in _pillow_internals(tree)]
    assert not found, found
    # the check itself finds each kind of use
    caught = _pillow_internals(
        ast.parse(
            "from PIL import GifImagePlugin\nimport PIL.ImageFile\nx = img.im.paste\ny = img._new(c)\n"
            "z = Image.core.fill\nfrom PIL.Image import _getencoder\n"
        )
    )
    wanted = ["GifImagePlugin", "ImageFile", "_getencoder", "_new", "core", "im"]
    assert sorted(name for _, name in caught) == wanted, caught
