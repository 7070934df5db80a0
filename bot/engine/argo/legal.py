"""The legal root actions of each phase: Alien moves, Activations, Time Machine interrupts."""

from __future__ import annotations

from typing import Any

from bot.engine.argo import station
from bot.engine.argo.aliens import alien_move_feasible, alien_targets
from bot.engine.argo.data import (
    CONTROL_ROOM,
    INFIRMARY,
    JUMP_ROOM,
    LAB,
    LASER,
    POD,
    SECURITY_CENTER,
    TILES,
    TIME_MACHINE,
    WAREHOUSE,
)
from bot.engine.argo.modules import can_activate, lab_feasible, lab_targets, laser_targets, time_machine_tile
from bot.engine.argo.movement import moves_for
from bot.engine.argo.state import State
from bot.engine.core import Action


def alien_moves(st: State) -> list[Action]:
    """Every complete Alien move of the Alien phase."""
    out: list[Action] = []
    aliens = st.aliens  # north first, then west first (no sort for a single Alien)
    for src in aliens if len(aliens) < 2 else sorted(aliens, key=lambda t: (st.pos[t][1], st.pos[t][0])):
        for dst in alien_targets(st, src):
            action = {"type": "move", "alien": src, "to": dst}
            if dst not in st.aliens or alien_move_feasible(st, src, dst):
                out.append(action)
    return out


def activation_options(st: State, seat: int, memo: dict[Any, bool] | None = None) -> list[Action]:
    """Every complete Activation ``seat`` could make now (ignoring whose turn it is).

    ``memo``: see movement.moves_for."""
    out: list[Action] = []
    modules = sorted({st.loc[a] for a in st.team(seat) if st.loc[a] >= 0})
    for module in modules:
        activators = can_activate(st, seat, module)
        if not activators:
            continue
        kind = TILES[module].kind
        base: Action = {"type": "activate", "module": module}
        if kind == TIME_MACHINE:
            continue
        if kind == WAREHOUSE:
            out.append(base)
        elif kind == SECURITY_CENTER:
            for pod in sorted(st.pos):
                if TILES[pod].kind == POD and st.occ.get(pod):
                    out.append({**base, "pod": pod})
        elif kind == INFIRMARY:
            for aid in sorted(set(st.track)):
                out.append({**base, "astronaut": aid})
        elif kind == LASER:
            for alien in laser_targets(st, seat):
                out.append({**base, "alien": alien})
        elif kind == LAB:
            for aid, alien in lab_targets(st):
                action = {**base, "astronaut": aid, "alien": alien}
                full = len(st.occ.get(alien, ())) >= TILES[alien].capacity
                if not full or lab_feasible(st, aid, alien):
                    out.append(action)
        elif kind == JUMP_ROOM:
            for aid in activators:
                if moves_for(st, aid, memo):
                    out.append({**base, "astronaut": aid})
        elif kind == CONTROL_ROOM:
            # often a thousand or more: made once per layout (station.geo) and shared
            key = ("control_actions", module)
            found = st.geo.get(key)
            if found is None:
                found = st.geo[key] = [
                    {
                        "type": "activate",
                        "module": module,
                        "tile": tile,
                        "cell": [cell[0], cell[1]],
                        "rot": rot,
                    }
                    for tile, cell, rot in station.control_moves(st)
                ]
            out.extend(found)
    return out


def time_machine_options(st: State, seat: int, memo: dict[Any, bool] | None = None) -> list[Action]:
    """The interrupts ``seat`` may make with the Time Machine now (ignoring timing).

    ``memo``: see movement.moves_for."""
    tm = time_machine_tile(st)
    if tm is None or not can_activate(st, seat, tm):
        return []
    out: list[Action] = []
    for aid in st.team(seat):
        for move in moves_for(st, aid, memo):
            out.append({"type": "timemachine", "do": move})
    for act in activation_options(st, seat, memo):
        out.append({"type": "timemachine", "do": act})
    return out
