"""Plain-word names of players, Astronauts and tiles for events and prompts."""

from __future__ import annotations

from bot.engine.argo.data import COLOURS, CORRIDOR, POD, ROLES, TEAM_SIZE, TILES, WAKING_ROOM
from bot.engine.argo.geometry import label
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


def who(st: State, seat: int) -> str:
    """A player reference with the team colour, e.g. ``"<p:42> (Blue)"``."""
    return f"{player_ref(st.players[seat])} ({COLOURS[seat]})"


def astro(st: State, aid: int) -> str:
    """An Astronaut in words, e.g. ``"<p:42>'s Grunt"``."""
    return f"{player_ref(st.players[owner(aid)])}'s {ROLES[role(aid)]}"


def place(st: State, tile: int) -> str:
    """A tile in words, e.g. ``"the Lab (N2)"`` or ``"the Corridor at N2E1"``."""
    info = TILES[tile]
    if info.kind == WAKING_ROOM:
        return "the Waking Room"
    where = label(st.pos[tile]) if tile in st.pos else "?"
    if info.kind == CORRIDOR:
        return f"the Corridor at {where}"
    if info.kind == POD:
        return f"the Escape Pod {info.seats[0]}/{info.seats[1]} at {where}"
    return f"the {info.name} ({where})"
