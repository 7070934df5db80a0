"""The fixed 256-colour palette of Argoat pictures.

A picture is drawn in RGB (smooth text and shapes) and then mapped onto one fixed palette,
which is much faster than an adaptive quantization and keeps the PNG small. The palette is
learnt once per process from two made-up boards that use every sprite, colour and text
style of the renderer (the change marks included), so it follows the art when the art
changes; it depends on nothing but this code, so the same view always gives the same bytes.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from .memo import memo

COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple")
FRAGMENTS = ("forge", "world", "sun", "life", "spirits", "magic", "ruler", "moon")
_ROADS = ("NESW", "NS", "EW", "NE", "ES", "SW", "NW", "NES", "ESW", "NSW", "NEW", "N")


def _player(i: int, x: int, y: int, *, active: bool) -> dict[str, Any]:
    return {
        "id": f"s{i}",
        "seat": i,
        "colour": COLOURS[i],
        "letter": COLOURS[i][0],
        "at": f"{x},{y}",
        "x": x,
        "y": y,
        "emeralds": 3 * i,
        "fragments": list(FRAGMENTS[: 2 * i]),
        "fragment_count": 2 * i,
        "items": i,
        "markers_left": 4 - i % 5,
        "active": active,
    }


def swatch_views() -> list[dict[str, Any]]:
    """Two made-up public views that between them show every kind of thing drawn."""
    frontiers = []
    for n in range(20):
        x, y = n % 5 - 2, n // 5 - 1
        kind = "town" if n == 0 else "trail_1" if n % 7 == 3 else "card"
        frontiers.append(
            {
                "at": f"{x},{y}",
                "x": x,
                "y": y,
                "key": kind,
                "name": "Village of the Wind Tribe" if n % 3 else f"Card {n}",
                "roads": list(_ROADS[n % len(_ROADS)]),
                "dragon": n % 2 == 1,
                "fragment": FRAGMENTS[n % 8] if n % 3 else None,
                "action": "",
            }
        )
    forests = [
        {"at": "3,0", "x": 3, "y": 0, "roads": ["W"], "flipped": False, "markers": list(COLOURS)},
        {
            "at": "3,1",
            "x": 3,
            "y": 1,
            "roads": ["W"],
            "flipped": True,
            "content": "Eden",
            "markers": ["Red", "Yellow"],
        },
        {
            "at": "3,2",
            "x": 3,
            "y": 2,
            "roads": ["W"],
            "flipped": True,
            "content": "Hollow",
            "markers": ["Blue"],
        },
    ]
    players = [_player(i, i - 2, i % 3 - 1, active=i == 1) for i in range(5)]
    base: dict[str, Any] = {
        "game": "Argoat",
        "difficulty": "adventurer",
        "players": players,
        "active": "s1",
        "finished": False,
        "winner": None,
        "turn": 12,
        "phase": "place_forest",
        "prompt": {
            "player": "s2",
            "text": "<p:s1> and <p:s2>: place 1,2 or 0,3 - N E S W",
            "others": ["s1"],
            "others_label": "Withdraw",
            "private": False,
        },
        "frontiers": frontiers,
        "forests": forests,
        "bleinas": ["0,0", "1,1"],
        "decks_empty": {"discovery": False, "supply": False, "darkness": False},
        "bank": 17,
        "reliquary": {k: i % 3 for i, k in enumerate(FRAGMENTS)},
        "discard": {"staff": 1, "wings": 2},
        "movement": {},
        "extra_turns": 1,
        "trade": {
            "from": "s1",
            "to": "s2",
            "stage": "offer",
            "terms": "<p:s1> gives 1 Emerald; <p:s2> gives the Knowledge of the Sun",
            "give": {},
            "ask": {},
        },
        "drawn": None,
        "forest_for": "2,1",
        "bounds": {"min_x": -2, "max_x": 3, "min_y": -1, "max_y": 2},
    }
    over = dict(
        base,
        phase="over",
        active=None,
        finished=True,
        winner="s3",
        prompt=None,
        trade=None,
        forest_for=None,
        extra_turns=0,
        players=[dict(p, active=False) for p in players],
    )
    over["decks_empty"] = {"discovery": True, "supply": True, "darkness": True}
    return [base, over]


@memo(1)
def palette() -> Image.Image:
    """The palette image (mode "P") every Argoat picture is mapped onto."""
    from .argoat import draw_board

    base, over = swatch_views()
    boards = [draw_board(base, previous=over), draw_board(over, previous=base)]
    sheet = Image.new("RGB", (max(b.width for b in boards), sum(b.height for b in boards)))
    y = 0
    for b in boards:
        sheet.paste(b, (0, y))
        y += b.height
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
