"""Small effects shared by frontier actions, Items and trades, each reporting its events."""

from __future__ import annotations

from bot.engine.core import Event, player_ref

from .data import FRAGMENT_BY_KEY, FRONTIER_BY_KEY, ITEM_BY_KEY
from .events import event
from .geometry import Coord, fmt, shown
from .state import OVER, TURN, Movement, Seat, State


def name_at(state: State, at: Coord) -> str:
    """The card name at ``at`` ("Dark Forest" for a forest)."""
    if at in state.forests:
        return "the Dark Forest"
    return FRONTIER_BY_KEY[state.frontiers[at]].name


def card_at(state: State, at: Coord) -> str:
    """The card at ``at`` as texts name it, with its coordinate in parentheses: "Lake Heol (1,0)",
    "the Dark Forest (2,1)"."""
    return f"{name_at(state, at)} {shown(at)}"


def take_from_bank(state: State, seat: Seat, events: list[Event]) -> None:
    """``seat`` takes one Emerald from the Bank; nothing happens if it is empty (Q5)."""
    if state.bank <= 0:
        events.append(
            event(
                f"The Bank is empty: {player_ref(seat.id)} gets no Emerald.",
                kind="empty",
                data={"player": seat.id, "what": "bank"},
            )
        )
        return
    state.bank -= 1
    seat.emeralds += 1
    events.append(
        event(
            f"{player_ref(seat.id)} takes an Emerald from the Bank.",
            kind="emerald",
            data={"player": seat.id, "amount": 1},
        )
    )


def pay(state: State, seat: Seat, amount: int) -> None:
    """``seat`` returns ``amount`` Emeralds to the Bank."""
    seat.emeralds -= amount
    state.bank += amount


def take_fragment(state: State, seat: Seat, key: str, events: list[Event]) -> bool:
    """``seat`` takes Fragment ``key`` from the Reliquary unless they have it or none is left."""
    fragment = FRAGMENT_BY_KEY[key]
    if key in seat.fragments:
        events.append(
            event(
                f"{player_ref(seat.id)} already has the {fragment.name}.",
                kind="fragment",
                data={"player": seat.id, "fragment": key, "taken": False},
            )
        )
        return False
    if state.reliquary[key] <= 0:
        events.append(
            event(
                f"No {fragment.name} is left in the Reliquary.",
                kind="empty",
                data={"player": seat.id, "what": "reliquary", "fragment": key},
            )
        )
        return False
    state.reliquary[key] -= 1
    seat.add_fragment(key)
    events.append(
        event(
            f"{player_ref(seat.id)} takes the {fragment.name}.",
            kind="fragment",
            data={"player": seat.id, "fragment": key, "taken": True},
        )
    )
    return True


def draw_item(state: State, seat: Seat, events: list[Event]) -> None:
    """``seat`` draws the top Item of the Supply (secretly); nothing if it is empty (Q5)."""
    if not state.supply:
        events.append(
            event(
                "The Supply is empty: no Item is drawn.",
                kind="empty",
                data={"player": seat.id, "what": "supply"},
            )
        )
        return
    key = state.supply.pop(0)
    seat.add_item(key)
    events.append(event(f"{player_ref(seat.id)} drew an Item.", kind="item_drawn", data={"player": seat.id}))
    events.append(
        event(
            f"You drew the {ITEM_BY_KEY[key].name}. {ITEM_BY_KEY[key].summary}",
            to=seat.id,
            kind="item_drawn",
            data={"player": seat.id, "item": key},
        )
    )


def explore(state: State, seat: Seat, at: Coord, events: list[Event], how: str) -> None:
    """``seat`` looks at the Dark Forest at ``at`` secretly and places a Check Marker there."""
    forest = state.forests[at]
    forest.markers.append(seat.id)
    seat.peeks.append(at)
    events.append(
        event(
            f"{player_ref(seat.id)} explored the Dark Forest {shown(at)} {how} and placed a Check Marker.",
            kind="explore",
            data={"player": seat.id, "forest": fmt(at)},
        )
    )
    events.append(
        event(
            f"The Dark Forest {shown(at)} hides {forest.content}.",
            to=seat.id,
            kind="peek",
            data={"forest": fmt(at), "content": forest.content},
        )
    )


def move_bleina(state: State, source: Coord, target: Coord) -> None:
    """Move one Bleina from ``source`` to ``target``."""
    state.bleinas.remove(source)
    state.bleinas.append(target)
    state.bleinas.sort()


def bleinas_elsewhere(state: State, at: Coord) -> list[Coord]:
    """The distinct cells other than ``at`` holding a Bleina, sorted."""
    return sorted({b for b in state.bleinas if b != at})


def end_turn(state: State, events: list[Event]) -> None:
    """Finish the active player's turn: lapse any proposal, then start the next turn."""
    state.trade = None
    state.undo.clear()
    state.drawn = None
    state.placed = None
    if state.winner is not None:
        state.phase = OVER
        return
    extra = state.extra_turns > 0
    if extra:
        state.extra_turns -= 1
    else:
        state.active = (state.active + 1) % len(state.seats)
    state.turn += 1
    state.move = Movement()
    state.start = None
    state.offered = []
    state.phase = TURN
    who = state.seats[state.active].id
    data = {"player": who, "turn": state.turn}
    if extra:  # said once: "takes another turn" is the start of the new turn
        events.append(event(f"{player_ref(who)} takes another turn.", kind="extra_turn", data=data))
    else:
        events.append(event(f"It is {player_ref(who)}'s turn.", kind="turn", data=data))
