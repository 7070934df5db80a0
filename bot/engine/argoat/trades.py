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

from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from bot.engine.core import Action, Event, player_ref

from . import knowledge
from .data import FRAGMENT_BY_KEY, FRAGMENT_KEYS, ITEM_BY_KEY, ITEM_KEYS
from .effects import explore
from .events import event
from .geometry import fmt, parse
from .state import Seat, State

GIVE, ASK = "give", "ask"
EMERALD, FRAGMENT, EXPLORE, ITEM = "emerald", "fragment", "explore", "item"
Part = tuple[str, str, Any]
Parts = tuple[Part, ...]


_PARTS: dict[tuple[str, str, str | None], Action] = {}
"""Every ``trade_part`` action made so far, shared (actions are never changed once made); the
possible parts are few (Fragments, Items, cells near the Town), and the table is emptied if it
ever holds :data:`PARTS_MAX`."""
PARTS_MAX = 4096


def _part(side: str, what: str, which: str | None = None) -> Action:
    key = (side, what, which)
    action = _PARTS.get(key)
    if action is None:
        if len(_PARTS) >= PARTS_MAX:
            _PARTS.clear()
        action = {"type": "trade_part", "side": side, "what": what}
        if which is not None:
            action["which"] = which
        _PARTS[key] = action
    return action


_FRAGMENT_PARTS = {side: {f: _part(side, FRAGMENT, f) for f in FRAGMENT_KEYS} for side in (GIVE, ASK)}
_GIVE_ITEM_PARTS = {k: _part(GIVE, ITEM, k) for k in ITEM_KEYS}
_EMERALD_PARTS = {side: _part(side, EMERALD) for side in (GIVE, ASK)}
_ASK_ITEM_PART = _part(ASK, ITEM)


Tally = dict[str, tuple[int, list[Any], list[Any], list[Any]]]
"""Per side (give / ask): the Emeralds, the Fragments shared, the forests to explore, the Items
(their keys for ``give``, ``None`` for ``ask``)."""


_NO_PARTS: Tally = {GIVE: (0, [], [], []), ASK: (0, [], [], [])}


def _tally(parts: Parts) -> Tally:
    """The trade's parts sorted out per side, in one pass (only read, never changed)."""
    if not parts:
        return _NO_PARTS
    give: list[Any] = [0, [], [], []]
    ask: list[Any] = [0, [], [], []]
    for side, what, which in parts:
        t = give if side == GIVE else ask
        if what == EMERALD:
            t[0] += 1
        elif what == FRAGMENT:
            t[1].append(which)
        elif what == EXPLORE:
            t[2].append(which)
        elif what == ITEM:
            t[3].append(which)
    return {GIVE: (give[0], give[1], give[2], give[3]), ASK: (ask[0], ask[1], ask[2], ask[3])}


class SideMenu(NamedTuple):
    """What one side of a trade could give at all, fixed while the trade is being built
    (nothing but the trade changes then): the parts still open follow from the parts chosen."""

    side: str
    emeralds: int
    """The giver's Emeralds."""
    fragments: list[tuple[str, Action]]
    """Fragments the giver holds and the taker lacks, with copies left in the Reliquary."""
    markers: int
    """Check Markers the taker has left (each explored forest takes one)."""
    cells: list[tuple[str, Action]]
    """Face-down forests the giver has a marker on and the taker has not, by cell."""
    items: list[tuple[str, int, Action]]
    """(give side) each Item kind the giver holds, with how many."""
    item_count: int
    """How many Items the giver holds."""


def side_menu(state: State, giver: Seat, taker: Seat, side: str) -> SideMenu:
    """The :class:`SideMenu` of ``giver`` (``side`` names the giver's role)."""
    reliquary = state.reliquary
    theirs = taker.fragments
    fragment_parts = _FRAGMENT_PARTS[side]
    fragments = [(f, fragment_parts[f]) for f in giver.fragments if f not in theirs and reliquary[f] > 0]
    cells = []
    markers = 0
    forests = state.forests
    if forests:
        gid, tid = giver.id, taker.id
        for at in sorted(forests):
            forest = forests[at]
            if not forest.flipped and gid in forest.markers and tid not in forest.markers:
                cell = fmt(at)
                cells.append((cell, _part(side, EXPLORE, cell)))
        if cells:
            markers = state.markers_left(tid)
    held = giver.items
    items = []
    if held and side == GIVE:
        items = [(k, held.count(k), _GIVE_ITEM_PARTS[k]) for k in ITEM_KEYS if k in held]
    return SideMenu(side, giver.emeralds, fragments, markers, cells, items, len(held))


def _side_options(menu: SideMenu, tally: Tally) -> list[Action]:
    """Parts the giver of ``menu`` could still add to the parts in ``tally``."""
    side = menu.side
    emeralds, shared, looks, given = tally[side]
    other_emeralds = tally[ASK if side == GIVE else GIVE][0]
    options: list[Action] = []
    if menu.emeralds > emeralds and not other_emeralds:
        options.append(_EMERALD_PARTS[side])
    for f, action in menu.fragments:
        if f not in shared:
            options.append(action)
    if menu.cells and menu.markers > len(looks):
        for cell, action in menu.cells:
            if cell not in looks:
                options.append(action)
    if side == GIVE:
        for k, count, action in menu.items:
            if count > given.count(k):
                options.append(action)
    elif menu.item_count > len(given):
        options.append(_ASK_ITEM_PART)
    return options


def menus(state: State, proposer: Seat, partner: Seat) -> tuple[SideMenu, SideMenu]:
    """What the proposer could give, and what they could ask of ``partner``."""
    return side_menu(state, proposer, partner, GIVE), side_menu(state, partner, proposer, ASK)


def menu_actions(menu: tuple[SideMenu, SideMenu], parts: Parts) -> list[Action]:
    """Every part the proposer may add to ``parts``, given the trade's :func:`menus`."""
    tally = _tally(parts)
    return _side_options(menu[0], tally) + _side_options(menu[1], tally)


def part_actions(state: State, proposer: Seat, partner: Seat, parts: Parts) -> list[Action]:
    """Every part the proposer may add to the trade now."""
    return menu_actions(menus(state, proposer, partner), parts)


def can_trade(state: State, me: Seat, other: Seat) -> bool:
    """Whether a trade between the two could have at least one part."""
    if me.emeralds or other.emeralds or me.items or other.items:
        return True
    return bool(part_actions(state, me, other, ()))


def partners(state: State) -> list[Seat]:
    """Players the active player may start a trade with: on the same frontier (Q3), with at
    least one possible part."""
    me = state.seats[state.active]
    here = me.pos
    return [s for s in state.seats if s.pos == here and s is not me and can_trade(state, me, s)]


def start_actions(state: State) -> list[Action]:
    """The ``trade`` actions that start building a trade."""
    return [{"type": "trade", "with": s.id} for s in partners(state)]


def problem(state: State, proposer: Seat, partner: Seat, parts: Parts) -> str | None:
    """Why the trade cannot be carried out now, or None if it can."""
    return _problem(state, proposer, partner, _tally(parts))


def _problem(state: State, proposer: Seat, partner: Seat, tally: Tally) -> str | None:
    for side, giver, taker in ((GIVE, proposer, partner), (ASK, partner, proposer)):
        emeralds, fragments, looks, _ = tally[side]
        if giver.emeralds < emeralds:
            return f"{player_ref(giver.id)} no longer has enough Emeralds."
        for f in fragments:
            if f not in giver.fragments or f in taker.fragments or state.reliquary[f] <= 0:
                return f"The {FRAGMENT_BY_KEY[f].name} can no longer be shared."
        if not looks:
            continue
        if len(looks) > state.markers_left(taker.id):
            return f"{player_ref(taker.id)} has too few Check Markers left."
        for where in looks:
            forest = state.forests.get(parse(where))
            if (
                forest is None
                or forest.flipped
                or giver.id not in forest.markers
                or taker.id in forest.markers
            ):
                return f"The Dark Forest ({where}) can no longer be explored in this trade."
    given = tally[GIVE][3]
    for k in set(given):
        if proposer.items.count(k) < given.count(k):
            return f"{player_ref(proposer.id)} no longer has the Items offered."
    if len(partner.items) < len(tally[ASK][3]):
        return f"{player_ref(partner.id)} no longer has enough Items."
    return None


def accept_actions(state: State) -> list[Action]:
    """The partner's ways to accept the pending trade (one per choice of Items to hand over)."""
    assert state.trade is not None
    partner = state.seat(state.trade[0])
    tally = _tally(state.trade[1])
    if _problem(state, state.seats[state.active], partner, tally) is not None:
        return []
    wanted = len(tally[ASK][3])
    if not wanted:
        return [{"type": "accept"}]
    hand = sorted(partner.items, key=ITEM_KEYS.index)
    picks = sorted(set(combinations(hand, wanted)), key=lambda c: [ITEM_KEYS.index(k) for k in c])
    return [{"type": "accept", "items": list(pick)} for pick in picks]


def _summary(parts: Parts, side: str, names: bool) -> list[str]:
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
            words.append(f"a look at the Dark Forest ({which})")
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


@lru_cache(maxsize=2048)
def describe(proposer: str, partner: str, parts: Parts, names: bool = False) -> str:
    """The trade in words; Item kinds appear only with ``names`` (for the proposer alone).
    Remembered: the same few trades recur."""
    return (
        f"{player_ref(proposer)} gives {_join(_summary(parts, GIVE, names))}; "
        f"{player_ref(partner)} gives {_join(_summary(parts, ASK, names))}"
    )


def public_data(parts: Parts) -> dict[str, Any]:
    """The trade's terms without any secret (Item counts only)."""
    terms: dict[str, dict[str, Any]] = {
        side: {"emeralds": 0, "fragments": [], "explore": [], "items": 0} for side in (GIVE, ASK)
    }
    for side, what, which in parts:
        t = terms[side]
        if what == EMERALD:
            t["emeralds"] += 1
        elif what == FRAGMENT:
            t["fragments"].append(which)
        elif what == EXPLORE:
            t["explore"].append(which)
        elif what == ITEM:
            t["items"] += 1
    return terms


def execute(state: State, chosen: list[str], events: list[Event]) -> None:
    """Carry out the accepted trade atomically; ``chosen`` are the Items the partner hands over."""
    assert state.trade is not None
    proposer = state.current
    partner = state.seat(state.trade[0])
    parts = state.trade[1]
    events.append(
        event(
            f"{player_ref(proposer.id)} traded with {player_ref(partner.id)}: "
            f"{describe(proposer.id, partner.id, parts)}.",
            kind="trade",
            data={"from": proposer.id, "to": partner.id, **public_data(parts)},
        )
    )
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
            explore(state, taker, parse(which), events, f"through a trade with {player_ref(giver.id)}")
        elif what == ITEM and side == GIVE:
            giver.items.remove(which)
            taker.add_item(which)
            received[taker.id].append(which)
    for key in chosen:
        partner.items.remove(key)
        proposer.add_item(key)
        received[proposer.id].append(key)
    if received[partner.id] or chosen:
        knowledge.items_traded(state, proposer.id, partner.id, received[partner.id], list(chosen))
    for who, kinds in received.items():
        if kinds:
            names = _join([f"the {ITEM_BY_KEY[k].name}" for k in kinds])
            what = "".join(f"\n{ITEM_BY_KEY[k].name}: {ITEM_BY_KEY[k].summary}" for k in dict.fromkeys(kinds))
            events.append(
                event(
                    f"In the trade you received {names}.{what}",
                    to=who,
                    kind="item_received",
                    data={"items": list(kinds)},
                )
            )
    state.trade = None
