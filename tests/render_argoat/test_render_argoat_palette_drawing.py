"""Argoat maps are composed straight on the fixed palette (no RGB picture mapped onto it before
encoding), and look as they did: the same pictures drawn in RGB and then mapped onto the palette
(the renderer's way before issue 25) differ only in a few edge pixels where see-through sprites
lie on top of each other."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from render import argoat
from render.argoat_palette import drawing_palette
from tests.render_argoat.argoat_games import decision_pairs, public_views

WIDE_SEED = 110  # its map grows to 13 columns: compact cards


def _boards() -> list[tuple[dict, dict | None]]:
    boards: list[tuple[dict, dict | None]] = []
    for seed in (4, WIDE_SEED):
        views = public_views(seed)
        boards += [(v, None) for v in views[:: max(1, len(views) // 12)]]
        pairs = decision_pairs(views)
        boards += [(after, before) for before, after in pairs[:: max(1, len(pairs) // 12)]]
    return boards


def test_maps_are_drawn_on_the_palette_and_look_as_before() -> None:
    pal = drawing_palette()
    compact = marked = 0
    for view, previous in _boards():
        drawn = argoat.draw_board(view, previous)
        assert drawn.mode == "P" and drawn.getpalette() == pal.image.getpalette()
        before = pal.quantize(argoat.draw_board(view, previous, rgb=True))
        assert drawn.size == before.size
        differing = sum(a != b for a, b in zip(drawn.tobytes(), before.tobytes(), strict=True))
        assert differing <= drawn.width * drawn.height // 2000, (view["turn"], differing)  # 0.05 %
        if differing:  # and those few are near the colour they had
            diff = ImageChops.difference(drawn.convert("RGB"), before.convert("RGB"))
            assert sum(diff.convert("L").histogram()[64:]) <= differing // 4 + 1
        png = argoat.render_board(view, previous)
        assert Image.open(io.BytesIO(png)).tobytes() == drawn.tobytes()  # encoded as drawn
        compact += argoat.compact(view)
        marked += previous is not None
    assert compact and marked
