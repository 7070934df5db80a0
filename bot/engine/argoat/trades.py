"""Trades, built one part at a time so every step is an enumerable action.

A trade is ``[partner_id, parts]``; each part is ``[side, what, which]`` where ``side`` is
``"give"`` (the active player, the proposer, gives it) or ``"ask"`` (the partner gives it),
``what`` is ``"emerald"``, ``"fragment"`` (a shared copy from the Reliquary), ``"explore"`` (a
look at a Dark Forest) or ``"item"``, and ``which`` is a Fragment key, a cell ``"x,y"``, an
Item key (given Items only: the proposer picks which card) or ``None``.

Actions: ``{"type": "trade", "with": id}`` starts building, ``{"type": "trade_part", "side",
"what"[, "which"]}`` adds a part, ``{"type": "propose"}`` offers it; the partner answers with
``{"type": "accept"[, "items": [...]]}`` or ``{"type": "decline"}``; the proposer may
``{"type": "withdraw"}``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from bot.engine.core import Action, Event, player_ref

from .data import FRAGMENT_BY_KEY, ITEM_BY_KEY, ITEM_KEYS
from .effects import explore
from .geometry import fmt, parse
from .state import Seat, State

GIVE, ASK = "give", "ask"
EMERALD, FRAGMENT, EXPLORE, ITEM = "emerald", "fragment", "explore", "item"
Part = list[Any]


def _count(parts: list[Part], side: str, what: str) -> int:
    return sum(1 for p in parts if p[0] == side and p[1] == what)


def _which(parts: list[Part], side: str, what: str) -> list[Any]:
    return [p[2] for p in parts if p[0] == side and p[1] == what]


def _part(side: str, what: str, which: str | None = None) -> Action:
    action: Action = {"type": "trade_part", "side": side, "what": what}
    if which is not None:
        action["which"] = which
    return action


def _side_options(state: State, giver: Seat, taker: Seat, parts: list[Part],
                  side: str) -> list[Action]:
    """Parts ``giver`` could still add for ``taker`` (``side`` names the giver's role)."""
    emeralds = other_emeralds = items = 0
    shared: list[str] = []
    looks: list[str] = []
    given: list[str] = []
    for part_side, what, which in parts:
        if part_side != side:
            if what == EMERALD:
                other_emeralds += 1
        elif what == EMERALD:
            emeralds += 1
        elif what == FRAGMENT:
            shared.append(which)
        elif what == EXPLORE:
            looks.append(which)
        else:
            items += 1
            given.append(which)
    options: list[Action] = []
    if giver.emeralds > emeralds and not other_emeralds:
        options.append(_part(side, EMERALD))
    reliquary = state.reliquary
    options.extend(
        _part(side, FRAGMENT, f) for f in giver.fragments
        if f not in taker.fragments and f not in shared and reliquary[f] > 0)
    if state.forests and state.markers_left(taker.id) > len(looks):
        options.extend(
            _part(side, EXPLORE, fmt(at)) for at, forest in sorted(state.forests.items())
            if not forest.flipped and giver.id in forest.markers
            and taker.id not in forest.markers and fmt(at) not in looks)
    if side == GIVE:
        if giver.items:
            options.extend(_part(GIVE, ITEM, k) for k in ITEM_KEYS
                           if giver.items.count(k) > given.count(k))
    elif len(giver.items) > items:
        options.append(_part(ASK, ITEM))
    return options


def part_actions(state: State, proposer: Seat, partner: Seat, parts: list[Part]) -> list[Action]:
    """Every part the proposer may add to the trade now."""
    return (_side_options(state, proposer, partner, parts, GIVE)
            + _side_options(state, partner, proposer, parts, ASK))


def _can_trade(state: State, me: Seat, other: Seat) -> bool:
    """Whether a trade between the two could have at least one part."""
    if me.emeralds or other.emeralds or me.items or other.items:
        return True
    return bool(part_actions(state, me, other, []))


def partners(state: State) -> list[Seat]:
    """Players the active player may start a trade with: on the same frontier (Q3), with at
    least one possible part."""
    me = state.current
    return [s for s in state.seats
            if s is not me and s.pos == me.pos and _can_trade(state, me, s)]


def start_actions(state: State) -> list[Action]:
    """The ``trade`` actions that start building a trade."""
    return [{"type": "trade", "with": s.id} for s in partners(state)]


def problem(state: State, proposer: Seat, partner: Seat, parts: list[Part]) -> str | None:
    """Why the trade cannot be carried out now, or None if it can."""
    for side, giver, taker in ((GIVE, proposer, partner), (ASK, partner, proposer)):
        if giver.emeralds < _count(parts, side, EMERALD):
            return f"{player_ref(giver.id)} no longer has enough Emeralds."
        for f in _which(parts, side, FRAGMENT):
            if f not in giver.fragments or f in taker.fragments or state.reliquary[f] <= 0:
                return f"The {FRAGMENT_BY_KEY[f].name} can no longer be shared."
        looks = _which(parts, side, EXPLORE)
        if len(looks) > state.markers_left(taker.id):
            return f"{player_ref(taker.id)} has too few Check Markers left."
        for where in looks:
            forest = state.forests.get(parse(where))
            if (forest is None or forest.flipped or giver.id not in forest.markers
                    or taker.id in forest.markers):
                return f"The Dark Forest at {where} can no longer be explored in this trade."
    for k in set(_which(parts, GIVE, ITEM)):
        if proposer.items.count(k) < _which(parts, GIVE, ITEM).count(k):
            return f"{player_ref(proposer.id)} no longer has the Items offered."
    if len(partner.items) < _count(parts, ASK, ITEM):
        return f"{player_ref(partner.id)} no longer has enough Items."
    return None


def accept_actions(state: State) -> list[Action]:
    """The partner's ways to accept the pending trade (one per choice of Items to hand over)."""
    assert state.trade is not None
    partner = state.seat(state.trade[0])
    parts = state.trade[1]
    if problem(state, state.current, partner, parts) is not None:
        return []
    wanted = _count(parts, ASK, ITEM)
    if not wanted:
        return [{"type": "accept"}]
    hand = sorted(partner.items, key=ITEM_KEYS.index)
    picks = sorted(set(combinations(hand, wanted)),
                   key=lambda c: [ITEM_KEYS.index(k) for k in c])
    return [{"type": "accept", "items": list(pick)} for pick in picks]


def _summary(parts: list[Part], side: str, names: bool) -> list[str]:
    """Plain words for what one side gives (Item kinds only when ``names``)."""
    words: list[str] = []
    emeralds = 0
    kinds: list[str] = []
    for part_side, what, which in parts:
        if part_side != side:
            continue
        if what == EMERALD:
            emeralds += 1
        elif what == FRAGMENT:
            words.append(f"the {FRAGMENT_BY_KEY[which].name}")
        elif what == EXPLORE:
            words.append(f"a look at the Dark Forest at {which}")
        else:
            kinds.append(which)
    if emeralds:
        words.insert(0, f"{emeralds} Emerald" + ("s" if emeralds > 1 else ""))
    if side == GIVE and names:
        words.extend(f"the {ITEM_BY_KEY[k].name}" for k in kinds)
    elif side == GIVE and kinds:
        words.append(f"{len(kinds)} Item" + ("s" if len(kinds) > 1 else ""))
    elif kinds:
        words.append(f"{len(kinds)} of their Items (their choice)")
    return words


def _join(words: list[str]) -> str:
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def describe(proposer: str, partner: str, parts: list[Part], names: bool = False) -> str:
    """The trade in words; Item kinds appear only with ``names`` (for the proposer alone)."""
    return (f"{player_ref(proposer)} gives {_join(_summary(parts, GIVE, names))}; "
            f"{player_ref(partner)} gives {_join(_summary(parts, ASK, names))}")


def public_data(parts: list[Part]) -> dict[str, Any]:
    """The trade's terms without any secret (Item counts only)."""
    def terms(s: str) -> dict[str, Any]:
        """What one side gives."""
        return {"emeralds": _count(parts, s, EMERALD), "fragments": _which(parts, s, FRAGMENT),
                "explore": _which(parts, s, EXPLORE), "items": _count(parts, s, ITEM)}
    return {"give": terms(GIVE), "ask": terms(ASK)}


def execute(state: State, chosen: list[str], events: list[Event]) -> None:
    """Carry out the accepted trade atomically; ``chosen`` are the Items the partner hands over."""
    assert state.trade is not None
    proposer = state.current
    partner = state.seat(state.trade[0])
    parts = state.trade[1]
    events.append(Event(f"{player_ref(proposer.id)} traded with {player_ref(partner.id)}: "
                        f"{describe(proposer.id, partner.id, parts)}.", kind="trade",
                        data={"from": proposer.id, "to": partner.id, **public_data(parts)}))
    received: dict[str, list[str]] = {proposer.id: [], partner.id: []}
    for side, what, which in parts:
        giver, taker = (proposer, partner) if side == GIVE else (partner, proposer)
        if what == EMERALD:
            giver.emeralds -= 1
            taker.emeralds += 1
        elif what == FRAGMENT:
            state.reliquary[which] -= 1
            taker.add_fragment(which)
        elif what == EXPLORE:
            explore(state, taker, parse(which), events,
                    f"through a trade with {player_ref(giver.id)}")
        elif what == ITEM and side == GIVE:
            giver.items.remove(which)
            taker.add_item(which)
            received[taker.id].append(which)
    for key in chosen:
        partner.items.remove(key)
        proposer.add_item(key)
        received[proposer.id].append(key)
    for who, kinds in received.items():
        if kinds:
            names = _join([f"the {ITEM_BY_KEY[k].name}" for k in kinds])
            events.append(Event(f"In the trade you received {names}.", to=who,
                                kind="item_received", data={"items": list(kinds)}))
    state.trade = None
