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
from typing import cast

from bot.engine.argoat.data import EDEN, FOUNTAIN, FRAGMENT_KEYS, FRONTIER_BY_KEY, HILL
from bot.engine.argoat.game import ArgoatGame
from bot.engine.argoat.state import Seat, State
from bot.engine.core import Game

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
FINAL_BONUS = 4.5
"""With all eight Fragments: the bonus for standing on Eden, less ``FINAL_BONUS / FAR`` for each
step expected before it (:func:`eden_steps`): a step counts the same however far Eden may be
(0.15, about what an opponent's turn is worth while it gathers Fragments)."""
FINAL_EMERALD = 0.05
"""With all eight Fragments an Emerald only pays for a Bleina ride: less than a step."""
DECK_WALK = 3.0
"""Steps from the Town to a Dark Forest that a new Dragon Frontier brings (about)."""
OWN = 0.1
"""The share of a seat's value that is its own progress, whatever the others' (:func:`race_values`)."""
OWN_SCALE = 15.0
"""About the most progress a seat can show (eight Fragments, Eden known, on it, Items)."""
HASTE = 0.15
"""With all eight Fragments, the share of a seat's value that only measures how near it is to
finishing (:func:`race_values`)."""


def state_of(game: Game) -> State:
    """The Argoat engine's state of ``game`` (an Argoat game: the AI reads it directly, for
    speed). Only typed, not checked: ``cast`` returns its argument as it is."""
    return cast(ArgoatGame, game).state


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
        for at in candidates(state, hollows):
            found[at] = 0
        if not found:
            found[state.town] = 0  # Eden is still in the Darkness Deck: new Frontiers bring it
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


def candidates(state: State, hollows: set[Coord]) -> list[Coord]:
    """The Dark Forests on the map that may hide Eden for a player who knows ``hollows``."""
    return [at for at, forest in state.forests.items() if not forest.flipped and at not in hollows]


def road_steps(state: State, start: Coord) -> dict[Coord, int]:
    """Road steps from ``start`` to every cell it leads to (breadth first)."""
    dist = {start: 0}
    queue = [start]
    index = 0
    while index < len(queue):
        at = queue[index]
        index += 1
        further = dist[at] + 1
        for _, other in state.exits(at):
            if other not in dist:
                dist[other] = further
                queue.append(other)
    return dist


def dragons_left(state: State) -> int:
    """Dragon Frontiers still in the Discovery Deck (its contents follow from the map: public)."""
    return sum(1 for key in state.discovery if FRONTIER_BY_KEY[key].dragon)


def eden_steps(state: State, seat: Seat) -> float:
    """With all eight Fragments: the road steps ``seat`` can expect to walk before it stands on
    Eden, from what it knows. Eden known: the distance to it. Otherwise every card that may hide
    it — each forest on the map not known to be a Hollow, each card of the Darkness Deck (its
    size is public) — hides it with the same chance; the forests are visited nearest first, and
    a card still in the deck costs the walk to the Town and the draws until its Dragon Frontier
    comes (two turns a draw), then a few steps to the new forest. At most :data:`FAR`."""
    eden, hollows = knowledge(state, seat)
    if eden is not None:
        return float(road_steps(state, seat.pos).get(eden, FAR))
    open_forests = candidates(state, hollows)
    deck = len(state.darkness)
    unknown = len(open_forests) + deck
    if unknown == 0:
        return float(FAR)
    chance = 1.0 / unknown
    expected = 0.0
    walked = 0.0
    here = seat.pos
    left = list(open_forests)
    while left:
        dist = road_steps(state, here)
        nearest = min(left, key=lambda at: (dist.get(at, FAR), at))
        walked += dist.get(nearest, FAR)
        expected += chance * min(walked, float(FAR))
        left.remove(nearest)
        here = nearest
    if deck:
        dragons = dragons_left(state)
        if dragons == 0:
            drawing = float(FAR)  # no Dragon Frontier can come: the deck's forests never do
        else:
            draws = (len(state.discovery) + 1) / (dragons + 1) * (min(deck, dragons) + 1) / 2
            drawing = road_steps(state, here).get(state.town, FAR) + 2.0 * draws + DECK_WALK
        expected += deck * chance * min(walked + drawing, float(FAR))
    return min(expected, float(FAR))


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


def distance_bonus(fragments: int, distance: float) -> float:
    """The bonus for being ``distance`` road steps from the next goal (with all eight Fragments:
    the steps expected before standing on Eden, :func:`eden_steps`): positive, larger when
    nearer, below :data:`NEAR_BONUS` (less than a Fragment) while Fragments are missing."""
    if fragments >= ALL_FRAGMENTS:
        return FINAL_BONUS * max(0.0, 1.0 - distance / FAR)
    return NEAR_BONUS * NEAR_SCALE / (NEAR_SCALE + distance)


def finish(state: State, seat: Seat) -> float:
    """In [0, 1]: how close ``seat`` is to finishing (1 on Eden), 0 short of a Fragment."""
    if len(seat.fragments) < ALL_FRAGMENTS:
        return 0.0
    return max(0.0, 1.0 - eden_steps(state, seat) / FAR)


def progress(state: State, seat: Seat) -> float:
    """How far ``seat`` is on the way to Eden (about one point per Fragment)."""
    fragments = len(seat.fragments)
    eden, hollows = knowledge(state, seat)
    value = float(fragments)
    if eden is not None:
        value += 1.5
    else:
        value += 0.35 * min(len(hollows), 3)
    if fragments >= ALL_FRAGMENTS:
        value += FINAL_EMERALD * min(seat.emeralds, 4) + 0.25 * min(len(seat.items), 3)
        return value + distance_bonus(fragments, eden_steps(state, seat))
    value += 0.2 * min(seat.emeralds, 4) + 0.25 * min(len(seat.items), 3)
    distance = goal_distances(state, goals(state, seat)).get(seat.pos, FAR)
    return value + distance_bonus(fragments, distance)


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp(SOFTMAX * (v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def race_values(state: State) -> list[float]:
    """A value in [0, 1] per seat of an unfinished game. Mostly the race: a softmax of each
    seat's progress. Then a share :data:`OWN` of the seat's own progress (:func:`own`), which
    is not zero-sum: a trade in which both sides gain (a Fragment for a Fragment) is worth
    something to both even between two players, where the race alone makes every trade a loss
    for one of them. And for a seat with all eight Fragments a share :data:`HASTE` of how near
    it is to finishing (:func:`finish`): the race alone saturates once a seat leads by a few
    Fragments (every move then looks alike, and a bot with the game in hand wandered for twenty
    turns); this keeps each step towards Eden worth something however far ahead it is."""
    shown = [progress(state, seat) for seat in state.seats]
    race = _softmax(shown)
    values = []
    for index, seat in enumerate(state.seats):
        haste = HASTE if len(seat.fragments) >= ALL_FRAGMENTS else 0.0
        value = (1.0 - OWN - haste) * race[index] + OWN * own(shown[index])
        if haste:
            value += haste * finish(state, seat)
        values.append(value)
    return values


def own(shown: float) -> float:
    """A seat's progress on a scale of [0, 1] (:data:`OWN_SCALE`)."""
    return min(1.0, max(0.0, shown / OWN_SCALE))


__all__ = [
    "ALL_FRAGMENTS",
    "FAR",
    "candidates",
    "distance_bonus",
    "eden_steps",
    "finish",
    "fragment_cells",
    "goal_distances",
    "goals",
    "knowledge",
    "own",
    "progress",
    "race_values",
    "road_steps",
]
