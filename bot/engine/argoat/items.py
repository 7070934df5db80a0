"""Using Items: which uses are open to the active player, and their effects.

Action: ``{"type": "use", "item": key}`` plus ``"target"`` when the Item needs one (a cell
``"x,y"`` for the Staff, Eye and Flute, a Fragment key for the Book).
"""

from __future__ import annotations

from bot.engine.core import Action, Event, player_ref

from . import knowledge
from .data import FRAGMENT_KEYS, ITEM_BY_KEY, ITEM_KEYS
from .effects import bleinas_elsewhere, card_at, explore, move_bleina, take_fragment
from .events import event
from .geometry import fmt, parse
from .movement import can_leave
from .state import State


def _use(item: str, target: str | None = None) -> Action:
    action: Action = {"type": "use", "item": item}
    if target is not None:
        action["target"] = target
    return action


def item_actions(state: State) -> list[Action]:
    """Every Item use open to the active player now (one per distinct kind and target)."""
    seat = state.current
    move = state.move
    actions: list[Action] = []
    for item in ITEM_KEYS:
        if item not in seat.items:
            continue
        if item == "staff":
            targets = bleinas_elsewhere(state, seat.pos)
            start = state.turn_start()
            if start in targets and not _staff_may_return(state):
                targets.remove(start)
            actions.extend(_use(item, fmt(b)) for b in targets)
        elif item == "book":
            if seat.pos == state.town:
                wanted = [f for f in FRAGMENT_KEYS if f not in seat.fragments and state.reliquary[f] > 0]
                actions.extend(_use(item, f) for f in wanted)
                if not wanted:  # "If you already possess all eight, this Item has no effect."
                    actions.append(_use(item))
        elif item == "eye":
            actions.extend(
                _use(item, fmt(at))
                for at, forest in sorted(state.forests.items())
                if not forest.flipped and seat.id not in forest.markers
            )
        elif item == "wings":
            if not move.wings and not move.bleina_used and not move.over:
                actions.append(_use(item))
        elif item == "water":
            actions.append(_use(item))
        elif item == "flute":
            sources = bleinas_elsewhere(state, seat.pos)
            actions.extend(_use(item, fmt(b)) for b in sources)
            if not sources:
                actions.append(_use(item))
    return actions


def _staff_may_return(state: State) -> bool:
    """Q4: whether a Staff of Guidance may take the active player back to the frontier where
    the turn began (only if a walk or a ride could take them away again)."""
    move = state.move
    if move.steps == 0 and not move.bleina_used:
        return True  # a Staff used before moving leaves the ordinary move to make
    start = state.start
    assert start is not None
    return can_leave(state, start, move.steps, over=True, ridden=move.bleina_used)


def apply_item(state: State, action: Action, events: list[Event]) -> None:
    """Play a legal Item use: the card is shown, its effect resolves, the card is discarded."""
    seat = state.current
    item = action["item"]
    target = action.get("target")
    seat.items.remove(item)
    state.used_items.append(item)
    if state.known_items:
        knowledge.item_played(state, seat.id, item)
    who = player_ref(seat.id)
    events.append(
        event(
            f"{who} uses the {ITEM_BY_KEY[item].name}.",
            kind="item_used",
            data={"player": seat.id, "item": item, "target": target},
        )
    )
    move = state.move
    if item == "staff":
        assert target is not None
        start = seat.pos
        if not move.moved:
            state.start = start  # Q4: where the turn began
        seat.pos = parse(target)
        if move.steps == 0 and not move.bleina_used:
            move.moved = True  # "you may choose whether or not you wish to move"
        else:
            move.over = True
        events.append(
            event(
                f"{who} travels to {card_at(state, seat.pos)}, where a Bleina is.",
                kind="teleport",
                data={"player": seat.id, "from": fmt(start), "to": target},
            )
        )
    elif item == "book":
        if target is None:
            events.append(
                event(
                    "The Book of Wisdom has no effect.",
                    kind="no_effect",
                    data={"player": seat.id, "item": item},
                )
            )
        else:
            take_fragment(state, seat, target, events)
    elif item == "eye":
        assert target is not None
        explore(state, seat, parse(target), events, "with the Eye of the Dark Dragon")
    elif item == "wings":
        move.wings = True
        move.max_steps = 3
    elif item == "water":
        state.extra_turns += 1
    elif item == "flute":
        move.free_bleina = True
        if target is not None:
            move_bleina(state, parse(target), seat.pos)
            events.append(
                event(
                    f"{who} calls a Bleina from {card_at(state, parse(target))} to "
                    f"{card_at(state, seat.pos)}.",
                    kind="bleina_called",
                    data={"player": seat.id, "from": target, "to": fmt(seat.pos)},
                )
            )
