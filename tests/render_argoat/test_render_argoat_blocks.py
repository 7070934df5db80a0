"""Argoat maps are pasted together from cached blocks (the map without its pieces, the header,
the panel blocks), each cached by what it shows: a map drawn from blocks that earlier maps of
the game left in the caches is byte for byte the map drawn with those caches empty."""

from __future__ import annotations

from typing import Any

from render import argoat
from tests.render_argoat.argoat_games import public_views

WIDE_SEED = 110  # its map grows to 13 columns: compact cards
BLOCK_CACHES = (
    argoat._map_block,
    argoat._block,
    argoat._player_panel,
    argoat._box_image,
    argoat._cuts,
    argoat._card_plate,
)


def _clear_blocks() -> None:
    for cache in BLOCK_CACHES:
        cache.cache_clear()  # type: ignore[attr-defined]


def test_a_map_from_cached_blocks_is_the_map_drawn_afresh() -> None:
    compared = compact = 0
    for seed, views in ((4, public_views(4)[:360]), (WIDE_SEED, public_views(WIDE_SEED)[-240:])):
        _clear_blocks()
        for i, view in enumerate(views):
            previous = views[i - 3] if i >= 3 else None
            warm = argoat.draw(view, previous)
            if i % 6:
                continue
            _clear_blocks()
            fresh = argoat.draw(view, previous)
            assert warm.image.tobytes() == fresh.image.tobytes(), (seed, i)
            assert (warm.fonts, warm.texts) == (fresh.fonts, fresh.texts), (seed, i)
            compared += 1
            compact += argoat.compact(view)
    assert compared >= 90 and compact
    assert argoat._map_block.cache_len() <= argoat.MAP_BLOCKS  # type: ignore[attr-defined]


def test_a_sprite_pasted_over_ground_after_ground_is_blended_over_each() -> None:
    """A sprite keeps its last blend with it: pasted over one ground, another, a mixed one and
    the first again, each paste gives the pixels of the same paste with every cache empty."""
    from render import argoat_sprites as sp
    from render import memo

    grounds = (sp.PANEL, sp.PARCHMENT, sp.FOREST, sp.PANEL, sp.PARCHMENT)

    def pasted(sprite_of: Any, fresh: bool) -> list[bytes]:
        out = []
        for i, ground in enumerate(grounds):
            if fresh:
                memo.clear_all()
            sprite = sprite_of()
            cv = argoat._Canvas(2 * sprite.width, sprite.height)
            cv.draw.rectangle((0, 0, 2 * sprite.width, sprite.height), fill=ground)
            if i == 2:  # a mixed ground: half the sprite over another colour
                cv.draw.rectangle((0, 0, sprite.width // 2, sprite.height), fill=sp.PANEL)
            cv.paste(sprite, 0, 0)
            out.append(cv.img.tobytes())
        return out

    for sprite_of in (
        lambda: sp.text_sprite("Turn 12", 20, sp.MUTED),
        lambda: sp.avatar_icon("Red", "R", 28, True),
        lambda: sp.bleina_icon(28),
    ):
        memo.clear_all()
        warm = pasted(sprite_of, False)
        assert warm == pasted(sprite_of, True)
        assert len(set(warm)) == len(grounds) - 2  # each ground shows (the first two twice)
