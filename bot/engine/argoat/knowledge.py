"""What each player knows about the Items another player holds (for determinization).

Item kinds are secret, but a player who hands an Item over in a trade knows the receiver holds
it, until the receiver may have played it or passed it on. :attr:`State.known_items` keeps, for
each observer and holder, a multiset of Item kinds the holder is sure to hold: a lower bound
that stays true whatever the holder did in secret.

- An observer who gives Items in a trade adds them to what they know of the receiver.
- An observer who receives Items of kinds ``G`` from a holder knows one fewer of each of those
  kinds (the holder may have had more than one of a kind; the bound stays safe).
- A holder who plays an Item of kind ``k`` (shown to all) drops one ``k`` from what everybody
  knows of them.
- A holder who hands ``n`` Items (kinds unseen) to someone else lowers each known count of
  theirs by ``n`` for every other observer: any of the known Items may have gone.
"""

from __future__ import annotations

from collections.abc import Iterable

from .data import ITEM_KEYS
from .state import State

_ORDER = {k: i for i, k in enumerate(ITEM_KEYS)}


def _set(state: State, observer: str, holder: str, keys: list[str]) -> None:
    known = state.known_items.setdefault(observer, {})
    if keys:
        known[holder] = sorted(keys, key=_ORDER.__getitem__)
    else:
        known.pop(holder, None)
        if not known:
            del state.known_items[observer]


def _without(keys: list[str], gone: Iterable[str]) -> list[str]:
    left = list(keys)
    for k in gone:
        if k in left:
            left.remove(k)
    return left


def _lowered(keys: list[str], n: int) -> list[str]:
    """Each kind's count lowered by ``n`` (not below zero)."""
    if n <= 0:
        return list(keys)
    return [k for k in dict.fromkeys(keys) for _ in range(max(0, keys.count(k) - n))]


def item_played(state: State, holder: str, key: str) -> None:
    """``holder`` played an Item of kind ``key`` for all to see."""
    for observer in list(state.known_items):
        keys = state.known_items[observer].get(holder)
        if keys and key in keys:
            _set(state, observer, holder, _without(keys, [key]))


def items_traded(state: State, proposer: str, partner: str, given: list[str], received: list[str]) -> None:
    """A trade moved Items ``given`` from ``proposer`` to ``partner`` and ``received`` back."""
    for observer in list(state.known_items):
        if observer in (proposer, partner):
            continue
        known = state.known_items[observer]
        for holder, n in ((proposer, len(given)), (partner, len(received))):
            keys = known.get(holder)
            if keys and n:
                _set(state, observer, holder, _lowered(keys, n))
    for observer, holder, gone, added in (
        (proposer, partner, received, given),
        (partner, proposer, given, received),
    ):
        if not gone and not added:
            continue
        keys = state.known_items.get(observer, {}).get(holder, [])
        _set(state, observer, holder, _without(keys, gone) + list(added))
