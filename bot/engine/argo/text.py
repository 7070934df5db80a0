"""Plain-word names of players, Astronauts and tiles for events and prompts."""

from __future__ import annotations

from typing import Final

from bot.engine.argo.data import COLOURS, CORRIDOR, POD, ROLES, TEAM_SIZE, TILES, WAKING_ROOM
from bot.engine.argo.geometry import Cell, label
from bot.engine.argo.state import State
from bot.engine.core import player_ref


def owner(aid: int) -> int:
    """The seat owning an Astronaut."""
    return aid // TEAM_SIZE


def role(aid: int) -> int:
    """The role index of an Astronaut (see data.ROLES)."""
    return aid % TEAM_SIZE


def astro_key(aid: int) -> str:
    """A stable id for an Astronaut, e.g. ``"Blue-Grunt"``."""
    return f"{COLOURS[owner(aid)]}-{ROLES[role(aid)]}"


# Texts are built on every event: small memos, emptied when they grow (player ids vary).
_WHO: Final[dict[tuple[str, int], str]] = {}
_ASTRO: Final[dict[tuple[str, int], str]] = {}
_PLACE: Final[dict[tuple[int, Cell | None], str]] = {}
_LIMIT: Final = 4096


def who(st: State, seat: int) -> str:
    """A player reference with the team colour, e.g. ``"<p:42> (Blue)"``."""
    key = (st.players[seat], seat)
    text = _WHO.get(key)
    if text is None:
        if len(_WHO) > _LIMIT:
            _WHO.clear()
        text = _WHO[key] = f"{player_ref(key[0])} ({COLOURS[seat]})"
    return text


def astro(st: State, aid: int) -> str:
    """An Astronaut in words, e.g. ``"<p:42>'s Grunt"``."""
    key = (st.players[aid // TEAM_SIZE], aid)
    text = _ASTRO.get(key)
    if text is None:
        if len(_ASTRO) > _LIMIT:
            _ASTRO.clear()
        text = _ASTRO[key] = f"{player_ref(key[0])}'s {ROLES[role(aid)]}"
    return text


def place(st: State, tile: int) -> str:
    """A tile in words, e.g. ``"the Lab (N2)"`` or ``"the Corridor at N2E1"``."""
    cell = st.pos.get(tile)
    key = (tile, cell)
    text = _PLACE.get(key)
    if text is None:
        if len(_PLACE) > _LIMIT:
            _PLACE.clear()
        text = _PLACE[key] = _place(tile, cell)
    return text


def place_first(st: State, tile: int) -> str:
    """:func:`place` at the start of a sentence: only its first letter raised, so names and cells
    keep their capitals ("The Escape Pod 3/4 at W2", never "The escape pod 3/4 at w2")."""
    text = place(st, tile)
    return text[:1].upper() + text[1:]


CORRIDOR_SHAPES: Final = {"I": "Straight", "L": "Corner", "T": "T", "X": "Cross", "end": "Dead-end"}
"""The shape of a Corridor in words, by the shape part of its notation token."""


def printed_name(tile: int) -> str:
    """A tile as a player reads it, never its notation token: "Control Room", "Escape Pod 2/3",
    "Cross Corridor with an Alien symbol"."""
    info = TILES[tile]
    if info.kind == POD:
        return f"Escape Pod {info.seats[0]}/{info.seats[1]}"
    if info.kind == CORRIDOR:
        shape = CORRIDOR_SHAPES[info.token.split("-")[1]]
        return f"{shape} Corridor" + (" with an Alien symbol" if info.alien else "")
    return info.name


def _place(tile: int, cell: Cell | None) -> str:
    info = TILES[tile]
    if info.kind == WAKING_ROOM:
        return "the Waking Room"
    where = label(cell) if cell is not None else "?"
    if info.kind == CORRIDOR:
        return f"the Corridor at {where}"
    if info.kind == POD:
        return f"the Escape Pod {info.seats[0]}/{info.seats[1]} at {where}"
    return f"the {info.name} ({where})"
