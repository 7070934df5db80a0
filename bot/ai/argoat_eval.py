"""Argoat's evaluation for the search: goals, road distances and a race value per seat.

*Goals* (:func:`goals`): short of Fragments, the Frontiers that give a missing one (the Fountain
of Desire too, with two Emeralds; the Frontier Town while a missing Fragment's Frontier is still
in the Discovery Deck, or with a Book of Wisdom in hand). With all eight: the Dark Forest known to
hide Eden, else every forest not known to be a Hollow. Distances are road steps
(:func:`goal_distances`, a small Dijkstra where each kind of goal carries a detour cost).

*Progress* (:func:`progress`) has no cliff: every Fragment adds one point and the distance to the
next goal only ever adds a bounded bonus that grows as the goal gets nearer — less than one point
in all before the eighth Fragment, up to :data:`FINAL_BONUS` after it. So taking a Fragment always
raises the value, wherever the next goal then lies, and every step towards the goal raises it too.

*Values* (:func:`race_values`): a softmax of the progress across players (a race).

This module reads the Argoat engine's state; the search hands it determinised copies only.
"""

from __future__ import annotations

import heapq
import math

from bot.engine.argoat.data import EDEN, FOUNTAIN, FRAGMENT_KEYS, FRONTIER_BY_KEY, HILL
from bot.engine.argoat.state import Seat, State

Coord = tuple[int, int]

ALL_FRAGMENTS = len(FRAGMENT_KEYS)
FAR = 30
"""Distance used when no goal can be reached."""
SOFTMAX = 1.0
"""Inverse temperature of the race: one Fragment ahead is worth ~0.73 of a two-player race."""
NEAR_BONUS = 0.9
"""Before the eighth Fragment: the bonus for standing on the next goal (less than a Fragment)."""
NEAR_SCALE = 4.0
"""Steps at which that bonus is halved."""
FINAL_BONUS = 3.0
"""With all eight Fragments: the bonus for standing on the goal (Eden, or a forest to flip)."""
FINAL_SCALE = 3.0
"""Steps at which that bonus is halved."""


def fragment_cells(state: State) -> dict[str, list[Coord]]:
    """The cells of the Fragment Frontiers on the map, by Fragment."""
    cells: dict[str, list[Coord]] = {}
    for at, key in state.frontiers.items():
        fragment = FRONTIER_BY_KEY[key].fragment
        if fragment is not None:
            cells.setdefault(fragment, []).append(at)
    return cells


def knowledge(state: State, seat: Seat) -> tuple[Coord | None, set[Coord]]:
    """Where ``seat`` knows Eden is (None if not known) and the forests it knows are Hollows."""
    hollows: set[Coord] = set()
    eden: Coord | None = None
    for at in seat.peeks:
        forest = state.forests.get(at)
        if forest is None:
            continue
        if forest.content == EDEN:
            eden = at
        else:
            hollows.add(at)
    for at, forest in state.forests.items():
        if forest.flipped:
            if forest.content == EDEN:
                eden = at
            else:
                hollows.add(at)
    if eden is None and len(state.forests) == 4 and not state.darkness:
        unknown = [at for at in state.forests if at not in hollows]
        if len(unknown) == 1:
            eden = unknown[0]
    return eden, hollows


def goals(state: State, seat: Seat) -> dict[Coord, int]:
    """The cells ``seat`` wants to reach, each with a detour cost (0: the best kind of goal)."""
    eden, hollows = knowledge(state, seat)
    found: dict[Coord, int] = {}
    if len(seat.fragments) >= ALL_FRAGMENTS:
        if eden is not None:
            return {eden: 0}
        for at, forest in state.forests.items():
            if not forest.flipped and at not in hollows:
                found[at] = 0
        if not found or (len(state.forests) < 4 and state.discovery):
            found[state.town] = 2  # more Dark Forests come with new Frontiers
        return found
    missing = [f for f in FRAGMENT_KEYS if f not in seat.fragments and state.reliquary.get(f, 0) > 0]
    cells = fragment_cells(state)
    for fragment in missing:
        for at in cells.get(fragment, ()):
            found[at] = 0
    if missing and seat.emeralds >= 2:
        for at, key in state.frontiers.items():
            if FRONTIER_BY_KEY[key].action == FOUNTAIN:
                found[at] = min(found.get(at, 9), 1)
    # a missing Fragment's Frontier can still turn up only while the Discovery Deck has cards
    # (whether it is empty is public; which cards it holds follows from the map)
    undiscovered = bool(state.discovery) and any(f not in cells for f in missing)
    if missing and ("book" in seat.items or undiscovered):
        town_cost = 0 if "book" in seat.items else 2
        found[state.town] = min(found.get(state.town, 9), town_cost)
    if undiscovered and seat.emeralds >= 1:
        for at, key in state.frontiers.items():
            if FRONTIER_BY_KEY[key].action == HILL:
                found[at] = min(found.get(at, 9), 2)
    if eden is None and len(seat.fragments) >= 5:
        for at, forest in state.forests.items():
            if not forest.flipped and seat.id not in forest.markers and len(forest.markers) <= seat.emeralds:
                found[at] = min(found.get(at, 9), 3)
    if not found:
        found[state.town] = 2
    return found


def goal_distances(state: State, targets: dict[Coord, int]) -> dict[Coord, int]:
    """Road steps from every cell to the nearest goal plus that goal's detour cost."""
    dist: dict[Coord, int] = {}
    heap = [(cost, at) for at, cost in targets.items() if at in state.roads]
    heapq.heapify(heap)
    while heap:
        d, at = heapq.heappop(heap)
        if at in dist:
            continue
        dist[at] = d
        for _, other in state.exits(at):
            if other not in dist:
                heapq.heappush(heap, (d + 1, other))
    return dist


def distance_bonus(fragments: int, distance: int) -> float:
    """The bonus for being ``distance`` road steps from the next goal: positive, larger when
    nearer, below :data:`NEAR_BONUS` (less than a Fragment) while Fragments are missing."""
    if fragments >= ALL_FRAGMENTS:
        return FINAL_BONUS * FINAL_SCALE / (FINAL_SCALE + distance)
    return NEAR_BONUS * NEAR_SCALE / (NEAR_SCALE + distance)


def progress(state: State, seat: Seat) -> float:
    """How far ``seat`` is on the way to Eden (about one point per Fragment)."""
    fragments = len(seat.fragments)
    eden, hollows = knowledge(state, seat)
    value = float(fragments)
    if eden is not None:
        value += 1.5
    else:
        value += 0.35 * min(len(hollows), 3)
    value += 0.2 * min(seat.emeralds, 4) + 0.25 * min(len(seat.items), 3)
    distance = goal_distances(state, goals(state, seat)).get(seat.pos, FAR)
    return value + distance_bonus(fragments, distance)


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp(SOFTMAX * (v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def race_values(state: State) -> list[float]:
    """A value in [0, 1] per seat of an unfinished game: a softmax of each seat's progress."""
    return _softmax([progress(state, seat) for seat in state.seats])


__all__ = [
    "ALL_FRAGMENTS",
    "FAR",
    "distance_bonus",
    "fragment_cells",
    "goal_distances",
    "goals",
    "knowledge",
    "progress",
    "race_values",
]
