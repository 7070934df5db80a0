"""The Argo edition this engine plays: every tile, Escape Pod, Alien track and difficulty.

The rulebook does not print the tiles, so this module defines them; docs/rules-notes.md
explains each choice. Door masks are given for rotation 0 (see geometry.py for the sides).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.engine.argo.geometry import E, N, S, W

ROLES: Final[tuple[str, ...]] = ("Grunt", "Robot", "Explorer", "Pilot", "Chief")
GRUNT: Final = 0
ROBOT: Final = 1
EXPLORER: Final = 2
PILOT: Final = 3
CHIEF: Final = 4
TEAM_SIZE: Final = len(ROLES)

COLOURS: Final[tuple[str, ...]] = ("Blue", "Yellow", "Red", "Green")
"""Team colour by seat."""

MAX_ALIENS: Final = 5
UNLIMITED: Final = 99
"""The capacity used for the Waking Room, which has no limit."""

# Tile kinds.
WAKING_ROOM: Final = "waking_room"
CORRIDOR: Final = "corridor"
TELEPORTER: Final = "teleporter"
LAB: Final = "lab"
CONTROL_ROOM: Final = "control_room"
JUMP_ROOM: Final = "jump_room"
TIME_MACHINE: Final = "time_machine"
LASER: Final = "laser"
INFIRMARY: Final = "infirmary"
WAREHOUSE: Final = "warehouse"
SECURITY_CENTER: Final = "security_center"
CORE_ROOM: Final = "core_room"
SAFE_ROOM: Final = "safe_room"
POD: Final = "pod"

ACTIVATABLE: Final[frozenset[str]] = frozenset(
    {
        LAB,
        CONTROL_ROOM,
        JUMP_ROOM,
        TIME_MACHINE,
        LASER,
        INFIRMARY,
        WAREHOUSE,
        SECURITY_CENTER,
    }
)
"""Kinds of Module that can be Activated. The Core Room and the Safe Room work on their own and
have no Activation effect (see docs/rules-notes.md)."""

NO_ROBOT: Final[frozenset[str]] = frozenset({LAB, LASER})
"""Modules a Robot may not Activate."""

NOT_ROOMS: Final[frozenset[str]] = frozenset({WAKING_ROOM, CORRIDOR, POD})
"""Kinds of tile that are not Rooms (a Teleporter is one): the Laser can only shoot into a Room
(see docs/rules-notes.md)."""

ALIEN_FORBIDDEN: Final[frozenset[str]] = frozenset({WAKING_ROOM, POD, SAFE_ROOM})
"""Tiles no Alien may enter, be pushed into or be placed on."""


@dataclass(frozen=True)
class TileType:
    """One printed tile: its kind, names, capacity, doors at rotation 0, Alien symbol, seats."""

    id: int
    kind: str
    name: str
    """Display name ("Lab", "Corridor")."""
    token: str
    """Name used in notations; tiles with the same token are identical in play."""
    capacity: int
    doors: int
    alien: bool = False
    seats: tuple[int, ...] = ()
    """Seat values of an Escape Pod, lowest first (empty for Modules)."""
    min_players: int = 2


def _corridor(i: int, shape: str, doors: int, alien: bool) -> TileType:
    token = f"Corridor-{shape}" + ("-alien" if alien else "")
    return TileType(i, CORRIDOR, "Corridor", token, 1, doors, alien)


def _room(i: int, kind: str, name: str, capacity: int, doors: int, alien: bool) -> TileType:
    return TileType(i, kind, name, name.replace(" ", "-"), capacity, doors, alien)


def _build_tiles() -> tuple[TileType, ...]:
    tiles: list[TileType] = [
        TileType(0, WAKING_ROOM, "Waking Room", "Waking-Room", UNLIMITED, N | E | S | W),
        _room(1, TELEPORTER, "Teleporter", 1, N | S, False),
        _room(2, TELEPORTER, "Teleporter", 1, N | S, False),
        _room(3, LAB, "Lab", 2, N | E | S, True),
        _room(4, CONTROL_ROOM, "Control Room", 2, N | S, False),
        _room(5, JUMP_ROOM, "Jump Room", 1, N | E | S | W, False),
        _room(6, TIME_MACHINE, "Time Machine", 2, N | S, False),
        _room(7, LASER, "Laser", 1, N | E | W, True),
        _room(8, INFIRMARY, "Infirmary", 2, N | E | S, False),
        _room(9, WAREHOUSE, "Warehouse", 2, N, True),
        _room(10, SECURITY_CENTER, "Security Center", 1, N | E, False),
        _room(11, CORE_ROOM, "Core Room", 2, N | E | S | W, True),
        _room(12, SAFE_ROOM, "Safe Room", 2, N | S, False),
    ]
    shapes = [
        # (shape, doors, how many plain, how many with an Alien symbol)
        ("I", N | S, 3, 2),
        ("L", N | E, 3, 1),
        ("T", N | E | W, 3, 2),
        ("X", N | E | S | W, 1, 1),
        ("end", N, 0, 2),
    ]
    i = len(tiles)
    for shape, doors, plain, alien in shapes:
        for has_alien in [False] * plain + [True] * alien:
            tiles.append(_corridor(i, shape, doors, has_alien))
            i += 1
    pods = [
        # (seat values, fewest players the pod is used with)
        ((1, 2), 2),
        ((1, 3), 3),
        ((2, 3), 2),
        ((2, 4), 2),
        ((3, 4), 3),
        ((3, 5), 2),
    ]
    for seats, min_players in pods:
        name = f"Pod-{seats[0]}/{seats[1]}"
        tiles.append(TileType(i, POD, "Escape Pod", name, len(seats), N, False, seats, min_players))
        i += 1
    return tuple(tiles)


TILES: Final[tuple[TileType, ...]] = _build_tiles()
"""Every tile by id: 0 is the Waking Room, then 30 Modules, then 6 Escape Pods."""

WAKING_ROOM_ID: Final = 0
MODULE_IDS: Final[tuple[int, ...]] = tuple(t.id for t in TILES if t.kind not in (WAKING_ROOM, POD))
POD_IDS: Final[tuple[int, ...]] = tuple(t.id for t in TILES if t.kind == POD)
SETUP_CORRIDOR_IDS: Final[tuple[int, ...]] = tuple(t.id for t in TILES if t.kind == CORRIDOR and not t.alien)
"""Corridors without an Alien symbol: four of them are drawn at set-up."""


def pods_for(players: int) -> list[int]:
    """The Escape Pod stack for a player count, top first (lowest value on top)."""
    pods = [TILES[p] for p in POD_IDS if TILES[p].min_players <= players]
    pods.sort(key=lambda t: (sum(t.seats), max(t.seats), t.id))
    return [t.id for t in pods]


ALIEN_TRACKS: Final[dict[int, tuple[int, ...]]] = {
    2: (1, 2, 3, 4, 5, 6, 8, 10, 12),
    3: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14),
    4: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16),
}
"""The value printed on each slot of the Alien score track, by player count."""

DIFFICULTIES: Final[dict[str, int]] = {"easy": 1, "medium": 2, "hard": 3}
"""How many slots at the start of the Alien track each difficulty token covers."""

MODULE_EFFECTS: Final[dict[str, str]] = {
    WAKING_ROOM: "Where every team starts. No capacity limit; no Alien may ever enter.",
    CORRIDOR: "A passage for 1 Astronaut (and 1 Alien). No effect; cannot be Activated.",
    TELEPORTER: "Entering sends the Astronaut on to another Teleporter or the Waking Room.",
    LAB: "Activate: swap an Astronaut (not a Robot) with an Alien; the Alien kills at once.",
    CONTROL_ROOM: "Activate: move and/or turn one tile of the station, with what is on it.",
    JUMP_ROOM: "Activate: the Astronaut on it makes two Moves, as one action.",
    TIME_MACHINE: "Activate on someone else's turn: one Move or Activation out of turn.",
    LASER: "Activate: kill an Alien in a Room (not a Corridor) next to one of your Astronauts.",
    INFIRMARY: "Activate: bring a dead Astronaut back from the Alien track to the Waking Room.",
    WAREHOUSE: "Activate: score 2 points (4 with your Chief on it).",
    SECURITY_CENTER: "Activate: launch an Escape Pod that has at least one passenger.",
    CORE_ROOM: "Your Astronauts here since the start of your turn die at its end.",
    SAFE_ROOM: "Aliens can never enter or be pushed into it.",
    POD: "Seats for 2. Leaves when full, or when an Alien comes next to its door with someone aboard.",
}
"""One line per kind of tile, for menus and the rules pages (at most 100 characters each)."""

ROLE_ABILITIES: Final[dict[str, str]] = {
    "Grunt": "Kills an Alien he meets; an Alien kills him only if no other non-Robot is there.",
    "Robot": "Aliens ignore him and he ignores them; cannot Activate the Lab or the Laser.",
    "Explorer": "Moves up to two tiles with one Move action.",
    "Pilot": "Entering an empty Escape Pod: stay, leave alone at once, or move the Pod.",
    "Chief": "Worth double: 2 points to his killer, twice his seat when he escapes.",
}
"""One line per Astronaut role, for menus and the rules pages (at most 100 characters each)."""
