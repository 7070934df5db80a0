"""Warming the Argo sprite caches: build what an ordinary board uses before the first one.

The caches are filled by drawing a made-up board (every room kind, every door side, Astronauts
of every colour and role, Aliens, Activation tokens, a crowded Waking Room, launched Pods and
change marks) and by building the tokens each room's floor can carry. Nothing here is read
from a game: the made-up board only has to look like one to the renderer.
"""

from __future__ import annotations

from typing import Any

from render import argo
from render import argo_paint as P

_KINDS = (
    "teleporter",
    "lab",
    "control_room",
    "jump_room",
    "time_machine",
    "laser",
    "infirmary",
    "warehouse",
    "security_center",
    "core_room",
    "safe_room",
    "pod",
    "corridor",
)
_DOORS = ("NESW", "NS", "EW", "NE", "ES", "SW", "NW", "NES", "ESW", "NSW", "NEW", "N", "E", "S", "W")
_COLOURS = ("Blue", "Yellow", "Red", "Green")


def _coord(x: int, y: int) -> str:
    return argo._coord(x, y)


def _tile(tid: int, kind: str, x: int, y: int, doors: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": tid,
        "kind": kind,
        "token": kind.replace("_", "-").title(),
        "capacity": extra.get("capacity", 1 if kind == "corridor" else 2),
        "doors": {side: side in doors for side in "NESW"},
        "doors_text": doors,
        "alien_symbol": extra.get("alien_symbol", False),
        "activatable": kind not in ("corridor", "pod", "waking_room", "safe_room"),
        "no_robot": kind in ("lab", "laser"),
        "seats": extra.get("seats", []),
        "cell": [x, y],
        "coord": _coord(x, y),
        "rotation": extra.get("rotation", 0),
        "tokens": extra.get("tokens", []),
        "occupants": extra.get("occupants", []),
        "alien": extra.get("alien", False),
    }


def swatch_view(turn: int = 1) -> dict[str, Any]:
    """A made-up public Argo view that shows every kind of thing the renderer draws."""
    roles = argo.ROLE_ORDER
    tiles = [
        _tile(
            0,
            "waking_room",
            0,
            0,
            "NESW",
            capacity=None,
            occupants=[f"{c}-{r}" for c in _COLOURS for r in roles],
        )
    ]
    astronauts: list[dict[str, Any]] = []
    for i, kind in enumerate(_KINDS):
        x, y = i % 5 - 2, i // 5 + 1
        occupants = [f"{_COLOURS[i % 4]}-{roles[i % 5]}", f"{_COLOURS[(i + 1) % 4]}-{roles[(i + 2) % 5]}"]
        tiles.append(
            _tile(
                i + 1,
                kind,
                x,
                y,
                _DOORS[(i + turn) % len(_DOORS)],
                alien_symbol=i % 3 == 0,
                alien=i % 4 == 1,
                tokens=list(_COLOURS[: i % 3]),
                occupants=occupants[: 1 if kind == "corridor" else 2],
                seats=[1 + i % 3, 3 + i % 2] if kind == "pod" else [],
            )
        )
    for c in _COLOURS:
        for r in roles:
            astronauts.append(
                {"id": f"{c}-{r}", "colour": c, "role": r, "status": "station", "cell": [0, 0], "coord": "WR"}
            )
    astronauts[0].update(status="dead", cell=None, coord=None)
    astronauts[1].update(status="pod", seat_value=3, cell=None, coord=None)
    astronauts[2].update(status="escaped", cell=None, coord=None)
    pod = _tile(40, "pod", 0, 0, "N", seats=[2, 4])
    slots = [{"value": v, "covered": i < 2, "astronaut": "Blue-Grunt" if i == 3 else None} for i, v in
             enumerate([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16])]  # fmt: skip
    return {
        "game": "Argo",
        "players": [
            {"id": str(i), "colour": c, "score": 3 * i + turn, "activations": i, "first_player": i == 0}
            for i, c in enumerate(_COLOURS)
        ],
        "active": "1",
        "active_colour": "Yellow",
        "finished": False,
        "turn": turn,
        "first_round": turn == 1,
        "phase": "actions",
        "actions_used": 1,
        "actions_allowed": 2,
        "final_turns_left": 2,
        "options": {"difficulty": "medium", "deep_space": "off"},
        "tiles": tiles,
        "astronauts": astronauts,
        "aliens": [{"cell": t["cell"]} for t in tiles if t["alien"]],
        "display": [
            _tile(50 + k, kind, 0, 0, "NES") for k, kind in enumerate(("lab", "corridor", "warehouse"))
        ],
        "stack_size": 12,
        "pods": {
            "stack": [pod, pod],
            "next": pod,
            "launched": [{"pod": pod, "occupants": ["Red-Pilot", "Green-Chief"]}],
        },
        "alien_track": {"slots": slots, "covered": 2, "score": 3, "full": False},
        "prompt": {"kind": "actions", "others": []},
    }


def warm_up() -> None:
    """Fill the Argo caches: fonts, tile parts, tokens on every floor, and one drawn board."""
    for size in (P.LABEL, 20, 22, 24):
        P.font(size)
    floors = [*P.FLOOR.values(), P.CORR_FLOOR, P.PANEL, P.PANEL_HI, P.CARD, P.SLOT]
    for bg in floors:
        for colour in _COLOURS:
            for letter in ("G", "R", "E", "P", "C", "1", "2", "3", "4", "5"):
                P.token_sprite(colour, letter, P.TOKEN, bg)
    for bg in (P.PANEL, P.PANEL_HI, P.CARD, P.SLOT):
        for colour in _COLOURS:
            for size in (20, 22):
                P.token_sprite(colour, "", size, bg)
        for n in range(41):
            P.text_sprite(str(n), 24, P.ACCENT, bg, True)
    for bg in P.FLOOR.values():
        for owner in (*_COLOURS, None):
            P.activation_slot(P.TileGeometry(argo.CELL).act, bg, owner)
    for x in range(-8, 9):
        for y in range(-8, 9):
            P.text_sprite(_coord(x, y), P.LABEL, P.FAINT, P.SPACE, False)
            P.text_sprite(_coord(x, y), P.LABEL, P.TEXT, P.CORR_HULL, True)
    before, after = swatch_view(1), swatch_view(2)
    argo.render_board(after, before)
    argo.render_board(before)
