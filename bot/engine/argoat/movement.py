"""Moving the Avatar: the mandatory move, Bleina rides, and their limits within a turn.

Actions: ``{"type": "move", "dir": "N"}`` (one ordinary space) and
``{"type": "bleina", "path": ["N", "E"]}`` (a Bleina ride: two spaces before moving, one
after).
"""

from __future__ import annotations

from bot.engine.core import Action, Event, player_ref

from .effects import move_bleina, name_at, pay
from .geometry import fmt, step
from .state import State


def can_ride_bleina(state: State) -> bool:
    """Whether the active player may start a Bleina ride now (ignoring where it could go)."""
    move = state.move
    seat = state.current
    if move.bleina_used or move.wings:  # once per turn; never with the Wings (Q15)
        return False
    if seat.pos not in state.bleinas:
        return False
    return move.free_bleina or seat.emeralds >= 1


def move_actions(state: State) -> list[Action]:
    """Every movement action open to the active player."""
    move = state.move
    seat = state.current
    first = state.exits(seat.pos)
    actions: list[Action] = []
    if not move.over and not move.bleina_used and move.steps < move.max_steps:
        actions = [{"type": "move", "dir": side} for side, _ in first]
    if can_ride_bleina(state):
        if move.steps:  # after moving: one extra space
            actions += [{"type": "bleina", "path": [side]} for side, _ in first]
        else:  # before moving: two spaces instead of one
            exits = state.exits
            actions += [{"type": "bleina", "path": [side, side2]}
                        for side, cell in first for side2, _ in exits(cell)]
    return actions


def apply_move(state: State, action: Action, events: list[Event]) -> None:
    """Perform a legal movement action."""
    seat = state.current
    start = seat.pos
    if action["type"] == "move":
        seat.pos = step(start, action["dir"])
        state.move.steps += 1
        state.move.moved = True
        events.append(Event(
            f"{player_ref(seat.id)} moves {action['dir']} to {name_at(state, seat.pos)} "
            f"({fmt(seat.pos)}).",
            kind="move", data={"player": seat.id, "from": fmt(start), "to": fmt(seat.pos)}))
        return
    cost = 0 if state.move.free_bleina else 1
    pay(state, seat, cost)
    pos = start
    for side in action["path"]:
        pos = step(pos, side)
    seat.pos = pos
    move_bleina(state, start, pos)
    state.move.bleina_used = True
    state.move.moved = True
    paid = "for free" if cost == 0 else "paying 1 Emerald"
    events.append(Event(
        f"{player_ref(seat.id)} rides a Bleina {' '.join(action['path'])} ({paid}) to "
        f"{name_at(state, pos)} ({fmt(pos)}).",
        kind="bleina", data={"player": seat.id, "from": fmt(start), "to": fmt(pos),
                             "path": list(action["path"]), "paid": cost}))
