"""Frontier Actions: the choices each frontier offers when a turn ends, and their resolution.

Action: ``{"type": "end"}`` or ``{"type": "end", "choice": c}`` where ``c`` is ``"pay"`` /
``"pass"`` (Caravan, Hill of Dreams, Fountain of Desire), a Fragment key (Fountain), a cell
``"x,y"`` (Unmarked Trail destination, Labous Snowfields Bleina) or ``"stay"`` (Unmarked Trail).
The Town's action continues with ``{"type": "place", "at": "x,y"}`` for the drawn frontier and,
if it bears the Dragon symbol, for its Dark Forest.
"""

from __future__ import annotations

from bot.engine.core import Action, Event, counted, player_ref

from .data import (
    CARAVAN,
    CAVE,
    EDEN,
    FOUNTAIN,
    FRAGMENT,
    FRAGMENT_BY_KEY,
    FRAGMENT_KEYS,
    FRONTIER_BY_KEY,
    HILL,
    PALACE,
    SNOWFIELDS,
    TEMPLE,
    TOWN,
    TRAIL,
    WASTELAND,
)
from .effects import (
    bleinas_elsewhere,
    card_at,
    draw_item,
    end_turn,
    explore,
    move_bleina,
    pay,
    take_fragment,
    take_from_bank,
)
from .events import event
from .geometry import Coord, fmt, forest_spots, parse, shown
from .state import DREAM, OVER, PLACE_FOREST, PLACE_FRONTIER, Forest, State

FOREST = "forest"
"""The action kind of a Dark Forest card."""

PAY, PASS, STAY = "pay", "pass", "stay"


def action_kind(state: State, at: Coord) -> str:
    """The kind of Frontier Action resolved at ``at`` (see :mod:`.data`), or "forest"."""
    if at in state.forests:
        return FOREST
    return FRONTIER_BY_KEY[state.frontiers[at]].action


def choices(state: State, kind: str) -> list[str | None]:
    """The ways the active player may resolve an action of ``kind`` where they stand.

    ``None`` alone means the action has nothing to choose.
    """
    seat = state.current
    if kind == CARAVAN and seat.emeralds >= 1 and state.supply:
        return [PAY, PASS]
    if kind == HILL and seat.emeralds >= 1 and state.discovery:
        return [PAY, PASS]
    if kind == FOUNTAIN and seat.emeralds >= 2:
        wanted = [f for f in FRAGMENT_KEYS if f not in seat.fragments and state.reliquary[f] > 0]
        if wanted:
            return [*wanted, PASS]
    if kind == SNOWFIELDS:
        sources = bleinas_elsewhere(state, seat.pos)
        if sources:
            return [fmt(b) for b in sources]
    if kind == TRAIL:
        others = trail_destinations(state)
        if others:
            return [*(fmt(t) for t in others), STAY]
    return [None]


def trail_destinations(state: State) -> list[Coord]:
    """Where an Unmarked Trail's action may take the active player, sorted.

    "If only one Unmarked Trail is present, you are not able to use this Frontier Action":
    only cards on the map are present (a trail drawn at the Hill of Dreams is not). The
    destinations are the trails other than the Avatar's own cell and, by Q4, other than the
    cell where the turn began."""
    trails = state.trails()
    if len(trails) < 2:
        return []
    here = state.seats[state.active].pos
    start = state.turn_start()
    return [c for c in trails if c != here and c != start]


END: Action = {"type": "end"}
_CHOOSING = frozenset({CARAVAN, HILL, FOUNTAIN, SNOWFIELDS, TRAIL})
"""The action kinds that may offer a choice (every other kind resolves one way)."""


def end_actions(state: State, kind: str) -> list[Action]:
    """The ``end`` actions for resolving an action of ``kind``."""
    if kind not in _CHOOSING:
        return [END]
    return [END if c is None else {"type": "end", "choice": c} for c in choices(state, kind)]


def resolve(state: State, kind: str, choice: str | None, events: list[Event], dreamt: bool = False) -> None:
    """Resolve the active player's Frontier Action of ``kind``; ends the turn unless the Town
    waits for a placement. ``dreamt`` when the card was drawn by the Hill of Dreams."""
    seat = state.seats[state.active]
    if kind == TOWN:
        _town(state, events)
        return
    if kind == FRAGMENT:
        card = state.drawn if dreamt and state.drawn else state.frontiers[seat.pos]
        key = FRONTIER_BY_KEY[card].fragment
        assert key is not None
        take_fragment(state, seat, key, events)
    elif kind == CAVE:
        take_from_bank(state, seat, events)
    elif kind == CARAVAN:
        if choice == PAY:
            pay(state, seat, 1)
            events.append(
                event(
                    f"{player_ref(seat.id)} pays 1 Emerald at the Caravan.",
                    kind="pay",
                    data={"player": seat.id, "amount": 1},
                )
            )
            draw_item(state, seat, events)
        elif not state.supply:
            events.append(
                event(
                    "The Supply is empty: the Caravan has nothing to sell.",
                    kind="empty",
                    data={"what": "supply"},
                )
            )
    elif kind == TEMPLE:
        state.extra_turns += 1  # said by the turn that follows: "<player> takes another turn."
    elif kind == SNOWFIELDS:
        if choice is not None:
            move_bleina(state, parse(choice), seat.pos)
            events.append(
                event(
                    f"{player_ref(seat.id)} calls a Bleina from {card_at(state, parse(choice))} to "
                    f"{card_at(state, seat.pos)}.",
                    kind="bleina_called",
                    data={"player": seat.id, "from": choice, "to": fmt(seat.pos)},
                )
            )
    elif kind == FOUNTAIN:
        if choice is not None and choice != PASS:
            pay(state, seat, 2)
            events.append(
                event(
                    f"{player_ref(seat.id)} pays 2 Emeralds at the Fountain of Desire for the "
                    f"{FRAGMENT_BY_KEY[choice].name} and returns to the Frontier Town.",
                    kind="pay",
                    data={"player": seat.id, "amount": 2},
                )
            )
            take_fragment(state, seat, choice, events)
            seat.pos = state.town  # Q11: the Town's action is not resolved
    elif kind == HILL:
        if choice == PAY:
            _dream(state, events)
            return
        if not state.discovery:
            events.append(
                event(
                    "The Discovery Deck is empty: the Hill of Dreams shows nothing.",
                    kind="empty",
                    data={"what": "discovery"},
                )
            )
    elif kind == WASTELAND:
        if seat.items:
            events.append(
                event(
                    f"{player_ref(seat.id)} already has Items: the Wasteland gives nothing.",
                    kind="wasteland",
                    data={"player": seat.id},
                )
            )
        else:
            draw_item(state, seat, events)
    elif kind == PALACE:
        _palace(state, events)
    elif kind == TRAIL:
        if choice is not None and choice != STAY:
            seat.pos = parse(choice)
            events.append(
                event(
                    f"{player_ref(seat.id)} follows the Unmarked Trails to the Unmarked Trail "
                    f"{shown(seat.pos)}.",
                    kind="trail",
                    data={"player": seat.id, "to": choice},
                )
            )
    elif kind == FOREST:
        _forest(state, events)
    if dreamt:
        _wake(state, events)
    if state.phase != OVER:
        end_turn(state, events)


def _town(state: State, events: list[Event]) -> None:
    """The Town: draw a frontier and wait for its placement, or go on if it cannot be placed.

    Q5: with the Discovery Deck or the Bank empty the whole action is ignored (no frontier, no
    Emerald)."""
    empty = "discovery" if not state.discovery else "bank" if state.bank <= 0 else None
    if empty is not None:
        deck = "The Discovery Deck" if empty == "discovery" else "The Bank"
        events.append(
            event(
                f"{deck} is empty: the Frontier Town's action is ignored and nothing happens.",
                kind="empty",
                data={"player": state.current.id, "what": empty},
            )
        )
        end_turn(state, events)
        return
    key = state.discovery.pop(0)
    frontier = FRONTIER_BY_KEY[key]
    events.append(
        event(
            f"{player_ref(state.current.id)} draws {frontier.name}.",
            kind="draw",
            data={"player": state.current.id, "frontier": key},
        )
    )
    if state.frontier_spots(frontier.roads):
        state.drawn = key
        state.phase = PLACE_FRONTIER
        return
    state.discovery.append(key)
    events.append(
        event(
            f"{frontier.name} fits nowhere on the map; it goes to the bottom of the Discovery Deck.",
            kind="unplaceable",
            data={"frontier": key},
        )
    )
    _town_finish(state, events)


def place_actions(state: State) -> list[Action]:
    """Where the drawn frontier, or its Dark Forest, may be placed."""
    if state.phase == PLACE_FRONTIER:
        assert state.drawn is not None
        spots = state.frontier_spots(FRONTIER_BY_KEY[state.drawn].roads)
    else:
        assert state.placed is not None
        spots = [cell for cell, _ in forest_spots(state.roads, state.placed)]
    return [{"type": "place", "at": fmt(c)} for c in spots]


def apply_place(state: State, action: Action, events: list[Event]) -> None:
    """Place the drawn frontier or its Dark Forest where the active player chose."""
    at = parse(action["at"])
    who = player_ref(state.current.id)
    if state.phase == PLACE_FRONTIER:
        assert state.drawn is not None
        frontier = FRONTIER_BY_KEY[state.drawn]
        state.place_frontier(at, frontier.key)
        state.drawn = None
        events.append(
            event(
                f"{who} places {frontier.name} at {shown(at)}.",
                kind="place",
                data={"player": state.current.id, "frontier": frontier.key, "at": fmt(at)},
            )
        )
        if frontier.dragon:
            if not state.darkness:
                events.append(
                    event(
                        "The Darkness Deck is empty: no Dark Forest appears.",
                        kind="empty",
                        data={"what": "darkness"},
                    )
                )
            elif forest_spots(state.roads, at):
                state.placed = at
                state.phase = PLACE_FOREST
                return
            else:  # Q7
                events.append(
                    event(
                        f"{frontier.name} bears the Dragon symbol, but no Dark Forest fits next to it.",
                        kind="no_forest",
                        data={"at": fmt(at)},
                    )
                )
        _town_finish(state, events)
        return
    assert state.placed is not None
    road = dict(forest_spots(state.roads, state.placed))[at]
    state.place_forest(Forest(at=at, road=road, content=state.darkness.pop(0)))
    state.placed = None
    events.append(
        event(
            f"{who} places a Dark Forest at {shown(at)}.",
            kind="forest",
            data={"player": state.current.id, "at": fmt(at), "road": road},
        )
    )
    _town_finish(state, events)


def _town_finish(state: State, events: list[Event]) -> None:
    take_from_bank(state, state.current, events)
    end_turn(state, events)


def _dream(state: State, events: list[Event]) -> None:
    """Hill of Dreams: pay, draw a frontier, resolve its action here (or ask how)."""
    seat = state.current
    pay(state, seat, 1)
    key = state.discovery.pop(0)
    state.drawn = key
    frontier = FRONTIER_BY_KEY[key]
    events.append(
        event(
            f"{player_ref(seat.id)} pays 1 Emerald at the Hill of Dreams and draws {frontier.name}.",
            kind="dream",
            data={"player": seat.id, "frontier": key, "amount": 1},
        )
    )
    options = choices(state, frontier.action)
    if options == [None]:
        resolve(state, frontier.action, None, events, dreamt=True)
    else:
        state.phase = DREAM


def dream_actions(state: State) -> list[Action]:
    """The ``end`` actions for the frontier drawn by the Hill of Dreams."""
    assert state.drawn is not None
    return end_actions(state, FRONTIER_BY_KEY[state.drawn].action)


def apply_dream(state: State, action: Action, events: list[Event]) -> None:
    """Resolve the dreamt frontier's action with the chosen option."""
    assert state.drawn is not None
    resolve(state, FRONTIER_BY_KEY[state.drawn].action, action.get("choice"), events, dreamt=True)


def _wake(state: State, events: list[Event]) -> None:
    """The dreamt frontier goes to the bottom of the Discovery Deck (nobody may look: Q6)."""
    assert state.drawn is not None
    state.discovery.append(state.drawn)
    state.drawn = None
    events.append(
        event("The dreamt Frontier goes to the bottom of the Discovery Deck.", kind="wake", data={})
    )


def _palace(state: State, events: list[Event]) -> None:
    """Jeweled Palace: an Emerald from each richest player, or from the Bank if you are one."""
    seat = state.current
    most = max(s.emeralds for s in state.seats)
    if seat.emeralds == most:
        take_from_bank(state, seat, events)
        return
    for other in state.seats:
        if other.emeralds == most and other is not seat:
            other.emeralds -= 1
            seat.emeralds += 1
            events.append(
                event(
                    f"{player_ref(seat.id)} takes an Emerald from {player_ref(other.id)}.",
                    kind="emerald",
                    data={"player": seat.id, "from": other.id, "amount": 1},
                )
            )


def _forest(state: State, events: list[Event]) -> None:
    """Dark Forest: flip it with all eight Fragments, else explore it (paying per marker)."""
    seat = state.current
    who = player_ref(seat.id)
    forest = state.forests[seat.pos]
    where = fmt(forest.at)
    if forest.flipped:
        events.append(
            event(
                f"The Dark Forest {shown(forest.at)} is already face up: nothing happens.",
                kind="forest_empty",
                data={"forest": where},
            )
        )
        return
    if len(seat.fragments) == len(FRAGMENT_KEYS):  # Q9: no payment
        forest.flipped = True
        events.append(
            event(
                f"{who}, holding all eight Fragments, flips the Dark Forest "
                f"{shown(forest.at)}: it is {forest.content}.",
                kind="flip",
                data={"player": seat.id, "forest": where, "content": forest.content},
            )
        )
        if forest.content == EDEN:
            state.winner = state.active
            state.phase = OVER
            events.append(
                event(f"{who} has found Eden and wins the game!", kind="win", data={"player": seat.id})
            )
        return
    if seat.id in forest.markers:
        events.append(
            event(
                f"{who} has already explored the Dark Forest {shown(forest.at)}.",
                kind="forest_known",
                data={"player": seat.id, "forest": where},
            )
        )
        return
    cost = len(forest.markers)  # Q8: the first explorer pays nothing
    if seat.emeralds < cost:
        lost = seat.emeralds
        pay(state, seat, lost)
        if lost == 0:
            loss = "has none, so sees nothing"
        elif lost == 1:
            loss = "loses their only Emerald"
        else:
            loss = f"loses all {lost} of their Emeralds"
        events.append(
            event(
                f"{who} cannot pay {counted(cost, 'Emerald')} to explore the Dark Forest {shown(forest.at)} "
                f"and {loss}.",
                kind="forest_fail",
                data={"player": seat.id, "forest": where, "lost": lost, "cost": cost},
            )
        )
        return
    pay(state, seat, cost)
    how = f"(paying {counted(cost, 'Emerald')})" if cost else "for free (the first to look)"
    explore(state, seat, forest.at, events, how)
