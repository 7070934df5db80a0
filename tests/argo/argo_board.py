"""Test helper: build an Argo game in a chosen position from a compact description."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.engine.argo import ArgoGame
from bot.engine.argo.data import (
    COLOURS,
    MODULE_IDS,
    POD,
    ROLES,
    TEAM_SIZE,
    TILES,
    WAKING_ROOM_ID,
    pods_for,
)
from bot.engine.argo.geometry import distinct_rotations, doors_text, label
from bot.engine.argo.state import ESCAPED, TRACK
from bot.engine.core import Action, Event

PLAYERS = ("p0", "p1", "p2", "p3")


def cell_of(text: str) -> tuple[int, int]:
    """The cell a label such as "N2E1" or "WR" names."""
    if text == "WR":
        return (0, 0)
    x = y = 0
    i = 0
    while i < len(text):
        letter = text[i]
        j = i + 1
        while j < len(text) and (text[j].isdigit()):
            j += 1
        value = int(text[i + 1 : j])
        if letter == "N":
            y = -value
        elif letter == "S":
            y = value
        elif letter == "E":
            x = value
        elif letter == "W":
            x = -value
        i = j
    return (x, y)


def aid_of(name: str) -> int:
    """The astronaut id of "Blue-Grunt"."""
    colour, role = name.split("-")
    return COLOURS.index(colour) * TEAM_SIZE + ROLES.index(role)


def setup(
    tiles: Mapping[str, str],
    *,
    players: int = 2,
    astronauts: Mapping[str, str] | None = None,
    aliens: Iterable[str] = (),
    active: str = "Blue",
    phase: str = "actions",
    turn: int | None = None,
    actions_used: int = 0,
    display: Iterable[str] | None = None,
    stack: Iterable[str] | None = None,
    pods: Iterable[str] | None = None,
    track: Iterable[str] = (),
    tokens: Mapping[str, Iterable[str]] | None = None,
    options: Mapping[str, Any] | None = None,
    scores: Iterable[int] | None = None,
    activations: Iterable[int] | None = None,
    escaped: Iterable[int] | None = None,
    begin: bool = False,
) -> ArgoGame:
    """A game whose station is ``tiles`` ({"N1": "Corridor-I NS", ...}) besides the Waking Room.

    Astronauts not named in ``astronauts`` ({"Blue-Grunt": "N1" | "dead" | "escaped"}) stay in
    the Waking Room; those on a Pod take its seats in the order given. ``display`` and ``stack``
    name tile tokens; by default the unused Modules fill them. ``begin`` starts the active
    player's turn from its beginning (Time Machine moment, Alien phase).
    """
    game = ArgoGame.new(PLAYERS[:players], 1, {"tm_wait": 0, **(options or {})})  # holds only when asked
    st = game.st
    for tile in list(st.pos):
        if tile != WAKING_ROOM_ID:
            st.remove(tile)
    used: set[int] = {WAKING_ROOM_ID}

    def take(token: str) -> int:
        # a corridor's Alien symbol only matters when it is built: fall back on the other kind
        for wanted in (token, token + "-alien", token.removesuffix("-alien")):
            for info in TILES:
                if info.token == wanted and info.id not in used:
                    used.add(info.id)
                    return info.id
        raise ValueError(f"no free tile {token}")

    for where, spec in tiles.items():
        token, doors = spec.split()
        tile = take(token)
        rots = [r for r, mask in distinct_rotations(TILES[tile].doors) if doors_text(mask) == doors]
        if not rots:
            raise ValueError(f"{token} cannot have doors {doors}")
        st.place(tile, cell_of(where), rots[0])
    n = players
    st.loc = [WAKING_ROOM_ID] * (n * TEAM_SIZE)
    st.occ = {WAKING_ROOM_ID: ()}
    st.track = []
    for aid in range(n * TEAM_SIZE):
        st.occ[WAKING_ROOM_ID] = (*st.occ[WAKING_ROOM_ID], aid)
    for name, where in (astronauts or {}).items():
        aid = aid_of(name)
        st.occ[WAKING_ROOM_ID] = tuple(a for a in st.occ[WAKING_ROOM_ID] if a != aid)
        if where == "dead":
            st.loc[aid] = TRACK
            st.track.append(aid)
        elif where == "escaped":
            st.loc[aid] = ESCAPED
        else:
            tile = st.cell[cell_of(where)]
            st.loc[aid] = tile
            st.occ[tile] = (*st.occ.get(tile, ()), aid)
    for name in track:
        aid = aid_of(name)
        st.occ[WAKING_ROOM_ID] = tuple(a for a in st.occ[WAKING_ROOM_ID] if a != aid)
        st.loc[aid] = TRACK
        st.track.append(aid)
    st.aliens = tuple(sorted(st.cell[cell_of(w)] for w in aliens))
    free_modules = [t for t in MODULE_IDS if t not in used]
    if display is None:
        st.display = free_modules[:3]
    else:
        st.display = [take(tok) for tok in display]
    if stack is None:
        st.stack = [t for t in free_modules if t not in st.display and t not in used]
    else:
        st.stack = [take(tok) for tok in stack]
    if pods is None:
        st.pod_stack = [p for p in pods_for(n) if p not in used]
    else:
        st.pod_stack = [take(tok) for tok in pods]
    st.tokens = {}
    for where, colours in (tokens or {}).items():
        st.tokens[st.cell[cell_of(where)]] = tuple(COLOURS.index(c) for c in colours)
    st.launched = []
    st.scores = list(scores) if scores is not None else [0] * n
    st.activations = list(activations) if activations is not None else [0] * n
    st.escaped = list(escaped) if escaped is not None else [0] * n
    st.active = COLOURS.index(active)
    st.turn = n if turn is None else turn
    st.phase = phase
    st.actions_used = actions_used
    st.moved = ()
    st.core_start = ()
    st.final_turns = None
    st.finished = False
    st.pending = None
    st.window = None
    st.hold = None
    game._clear()
    events: list[Event] = []
    if begin:
        game._begin_turn(events)
    game._auto(events)
    game._new_base()
    return game


def player(game: ArgoGame, colour: str) -> str:
    """The player id of a colour."""
    return game.players[COLOURS.index(colour)]


def notations(game: ArgoGame, colour: str) -> list[str]:
    """The notations of a colour's legal actions."""
    who = player(game, colour)
    return [game.notation(a) for a in game.legal_actions(who)]


def play(game: ArgoGame, colour: str, *texts: str) -> list[Event]:
    """Apply each notation in turn for ``colour``; all events returned."""
    events: list[Event] = []
    who = player(game, colour)
    for text in texts:
        events.extend(game.apply(who, game.parse(who, text)))
    return events


def where(game: ArgoGame, name: str) -> str:
    """Where an astronaut is: a cell label, "pod:<label>", "dead" or "escaped"."""
    st = game.st
    tile = st.loc[aid_of(name)]
    if tile == TRACK:
        return "dead"
    if tile == ESCAPED:
        return "escaped"
    text = label(st.pos[tile])
    return f"pod:{text}" if TILES[tile].kind == POD else text


def alien_cells(game: ArgoGame) -> list[str]:
    """Labels of the tiles holding an Alien, sorted."""
    return sorted(label(game.st.pos[t]) for t in game.st.aliens)


def kinds(events: list[Event]) -> list[str]:
    """The kinds of a list of events."""
    return [e.kind for e in events]


def action_for(game: ArgoGame, colour: str, text: str) -> Action:
    """The legal action of ``colour`` with notation ``text``."""
    return game.parse(player(game, colour), text)
