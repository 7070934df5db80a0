"""Warming the Argoat caches: the palette, fonts and sprites, before the first map.

The palette is learnt from made-up boards (render/argoat_palette.py); drawing them also builds
most sprites. The tokens, markers, coordinate tags and empty cells a real map uses are built
here too. Frontier cards are built the first time a card is seen (their names come from the
game's data, which the renderer never imports).
"""

from __future__ import annotations

from . import argoat
from . import argoat_sprites as sp
from .argoat_palette import COLOURS, palette, swatch_views


def warm_up() -> None:
    """Fill the Argoat caches and learn the palette."""
    for size in (sp.LABEL, 20, 24):
        sp.font(size)
    palette()
    cw, ch = argoat.CELL_W - argoat.GAP, argoat.CELL_H - argoat.GAP
    for colour in COLOURS:
        for ring in (False, True):
            sp.avatar_icon(colour, colour[0], argoat.AVATAR, ring)
            sp.avatar_icon(colour, colour[0], 30, ring)
        sp.marker_icon(colour, colour[0], 22)
        sp.marker_icon(colour, "", 14)
        sp.marker_slot(14, colour)
    for x in range(-10, 11):
        for y in range(-10, 11):
            sp.coord_tag(f"{x},{y}")
    for roads in ("N", "E", "S", "W"):
        sp.forest_card((roads,), None, cw, ch)
        sp.forest_card((roads,), None, argoat.COMPACT_W - argoat.GAP, ch)
    base, over = swatch_views()
    argoat.render_board(base, over)
