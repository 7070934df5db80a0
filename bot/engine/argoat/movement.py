"""Moving the Avatar: the mandatory move, Bleina rides, and their limits within a turn.

Actions: ``{"type": "move", "dir": "N"}`` (one ordinary space) and
``{"type": "bleina", "path": ["N", "E"]}`` (a Bleina ride: two spaces before moving, one
after).
"""

from __future__ import annotations

from bot.engine.core import Action, Event, player_ref

from .effects import move_bleina, name_at, pay
from .events import event
from .geometry import OFFSETS, Coord, fmt, step
from .state import MOVES, RIDES, State


def move_actions(state: State) -> list[Action]:
    """Every movement action open to the active player (a new list).

    Q4: none that would leave the Avatar stuck on the frontier where the turn began."""
    move = state.move
    seat = state.seats[state.active]
    pos = seat.pos
    walk = not move.over and not move.bleina_used and move.steps < move.max_steps
    ride = 0
    if (
        not move.bleina_used
        and not move.wings  # once per turn; never with the Wings (Q15)
        and pos in state.bleinas
        and (move.free_bleina or seat.emeralds >= 1)
    ):
        ride = 1 if move.steps else 2  # after moving: one extra space; before: two
    walks, rides = state.move_lists(pos)
    actions = list(walks) if walk else []
    start = pos if not move.moved else state.start
    if ride == 1:
        actions += rides
    elif ride == 2:  # a ride uses up the movement: never one back to the start
        actions += state.long_rides(pos, onward=start == pos)
    if start is None or start == pos or not actions:
        return actions
    dx, dy = start[0] - pos[0], start[1] - pos[1]
    distance = abs(dx) + abs(dy)
    if distance == 1:  # a walk or a one-space ride could end on the start
        side = _SIDE_TO[dx, dy]
        walk_back = can_leave(state, start, move.steps + 1)
        back_walk, back_ride = MOVES[side], RIDES[side]
        return [a for a in actions if a is not back_ride and (walk_back or a is not back_walk)]
    if distance == 2 and ride == 2:  # a two-space ride could end on the start
        return [a for a in actions if a["type"] != "bleina" or _ride_end(pos, a) != start]
    return actions


_SIDE_TO: dict[Coord, str] = {offset: side for side, offset in OFFSETS.items()}


def _ride_end(pos: Coord, action: Action) -> Coord:
    for side in action["path"]:
        pos = step(pos, side)
    return pos


def can_leave(state: State, cell: Coord, steps: int, over: bool = False, ridden: bool = False) -> bool:
    """Whether the active player, on ``cell`` after ``steps`` ordinary spaces (``over``: no
    more ordinary movement; ``ridden``: the turn's Bleina ride is used), could still walk on or
    ride a Bleina away from there this turn."""
    move = state.move
    if not over and not ridden and steps < move.max_steps:
        return True
    return (
        not ridden
        and not move.wings
        and cell in state.bleinas
        and (move.free_bleina or state.seats[state.active].emeralds >= 1)
    )


def apply_move(state: State, action: Action, events: list[Event]) -> None:
    """Perform a legal movement action."""
    seat = state.seats[state.active]
    start = seat.pos
    if not state.move.moved:
        state.start = start  # Q4: where the turn began
    if action["type"] == "move":
        side = action["dir"]
        dx, dy = OFFSETS[side]
        seat.pos = end = (start[0] + dx, start[1] + dy)
        move = state.move
        move.steps += 1
        move.moved = True
        to = fmt(end)
        events.append(
            event(
                f"{player_ref(seat.id)} moves {side} to {name_at(state, end)} ({to}).",
                kind="move",
                data={"player": seat.id, "from": fmt(start), "to": to},
            )
        )
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
    events.append(
        event(
            f"{player_ref(seat.id)} rides a Bleina {' '.join(action['path'])} ({paid}) to "
            f"{name_at(state, pos)} ({fmt(pos)}).",
            kind="bleina",
            data={
                "player": seat.id,
                "from": fmt(start),
                "to": fmt(pos),
                "path": list(action["path"]),
                "paid": cost,
            },
        )
    )
