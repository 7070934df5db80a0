"""Determinization: a copy of the game where everything one player cannot see is redrawn.

What a player cannot see, and how it is redrawn (docs/argoat-determinize.md has the details):

- the kinds of the other players' Items (their counts are public), except the Items the player
  knows they still hold (:mod:`.knowledge`), and the order and contents of the Supply: every
  Item neither used, nor in the player's hand, nor known to be held is one pool, shuffled and
  dealt back (each other hand to its public size, the rest is the Supply);
- the order of the Discovery Deck (its contents follow from the map and the difficulty), the
  cards put back at its bottom included (Q6: nobody may look at them);
- the contents of the face-down Dark Forests the player has not looked into and of the
  Darkness Deck: the Eden/Hollow cards not accounted for by the player's peeks and the flipped
  forests, shuffled and dealt to those forests (sorted by cell), then to the deck;
- the Item kinds another player has put into the trade they are building;
- what the other players know of each other's hands (dropped: it cannot be redrawn
  consistently and is only a lower bound);
- the game's own generator (reseeded from ``rng``).

Every pool starts from a canonical (sorted) order built only from what the player sees, and
``rng`` is drawn in a fixed order, so the result depends only on the player's view and ``rng``.
"""

from __future__ import annotations

from collections import Counter

from bot.engine.core import RandomSource, Rng

from .data import DARK_FORESTS, ITEM_COPIES, ITEM_KEYS, discovery_frontiers
from .state import State
from .trades import GIVE, ITEM

_ORDER = {k: i for i, k in enumerate(ITEM_KEYS)}


def determinize_state(state: State, player: str, rng: RandomSource) -> State:
    """A copy of ``state`` with everything ``player`` cannot see redrawn from ``rng``."""
    new = state.copy()
    me = new.seat(player)
    _redraw_items(new, me.id, rng)
    _redraw_discovery(new, rng)
    _redraw_forests(new, me.id, rng)
    new.known_items = {player: new.known_items[player]} if player in new.known_items else {}
    new.rng = Rng(rng.randrange(1 << 64))
    return new


def _redraw_items(state: State, player: str, rng: RandomSource) -> None:
    """Deal the Items ``player`` cannot place anew: other hands (to their sizes), the Supply."""
    known = state.known_items.get(player, {})
    pool = Counter({k: ITEM_COPIES for k in ITEM_KEYS})
    pool.subtract(state.used_items)
    pool.subtract(state.seat(player).items)
    for keys in known.values():
        pool.subtract(keys)
    cards = [k for k in ITEM_KEYS for _ in range(pool[k])]
    rng.shuffle(cards)
    for seat in state.seats:
        if seat.id == player:
            continue
        hand = list(known.get(seat.id, []))
        extra = len(seat.items) - len(hand)
        hand += cards[:extra]
        del cards[:extra]
        seat.items = sorted(hand, key=_ORDER.__getitem__)
    state.supply = cards
    _redraw_offered_items(state, player, rng)


def _redraw_offered_items(state: State, player: str, rng: RandomSource) -> None:
    """The Items another proposer put into the trade being built: drawn from their new hand."""
    trade = state.trade
    proposer = state.seats[state.active]
    if trade is None or proposer.id == player:
        return
    offered = [i for i, (side, what, _) in enumerate(trade[1]) if side == GIVE and what == ITEM]
    if not offered:
        return
    hand = list(proposer.items)
    rng.shuffle(hand)
    parts = list(trade[1])
    for index, key in zip(offered, hand, strict=False):
        parts[index] = (GIVE, ITEM, key)
    trade[1] = tuple(parts)


def _redraw_discovery(state: State, rng: RandomSource) -> None:
    """Shuffle the Discovery Deck: its contents are public, its order is not (Q6)."""
    deck = sorted(state.discovery)
    assert Counter(deck) == _discovery_contents(state), "the Discovery Deck holds unexpected cards"
    rng.shuffle(deck)
    state.discovery = deck


def _discovery_contents(state: State) -> Counter[str]:
    """What the Discovery Deck must hold, from the map and the drawn card alone."""
    out = set(state.frontiers.values())
    if state.drawn is not None:
        out.add(state.drawn)
    return Counter(k for k in discovery_frontiers(state.difficulty) if k not in out)


def _redraw_forests(state: State, player: str, rng: RandomSource) -> None:
    """Deal the Dark Forest cards ``player`` has not seen to the unseen forests and the deck."""
    pool = Counter(DARK_FORESTS)
    unseen = []
    for at in sorted(state.forests):
        forest = state.forests[at]
        if forest.flipped or player in forest.markers:
            pool[forest.content] -= 1
        else:
            unseen.append(forest)
    cards = sorted(pool.elements())
    rng.shuffle(cards)
    for forest, content in zip(unseen, cards, strict=False):
        forest.content = content
    state.darkness = cards[len(unseen) :]
