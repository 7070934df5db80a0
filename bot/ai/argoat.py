"""Argoat knowledge for the search: a goal-directed rollout policy and a race evaluation.

*Goals.* A player short of Fragments heads for the Frontiers that give a missing one (the
Fountain of Desire too, with two Emeralds; the Frontier Town to discover new Frontiers while some
Fragment Frontier is still in the deck, or with a Book of Wisdom in hand). A player holding all
eight heads for the Dark Forest they know hides Eden, else for the nearest one not known to be
a Hollow. Distances are road steps (:func:`goal_distances`, a small Dijkstra over the map where
each kind of goal carries a detour cost).

*Evaluation* (a value in [0, 1] per seat): each player's progress is their Fragments, what they
know of Eden, a little for Emeralds and Items, minus the road distance to their next goal; the
values are a softmax of the progress (a race: ahead of the others is what counts). Eden found is
1 for the winner and 0 for the others.

*Rollouts* follow the goals: use a Book in the Town, Water of Life, an Eye on an unexplored
forest, Wings or a Staff when they bring the goal nearer; step along the road that gets closest
(sometimes a random one); end the turn once moved, choosing the Frontier Action's option that
helps (a missing Fragment at the Fountain, the Trail nearest the goal, ...). Rollouts never start
trades; a trade on offer is answered by comparing the evaluation after accepting and declining.
Each player plays two turns, then the position is scored.

*Trades in the tree.* Below the root the search never starts a trade (a declined trade leaves
the game as it was, so trading could loop). At the root the bot may start one in about a third
of its decisions (drawn from its seed, so a declined proposal is not repeated forever), builds
it with at most two parts per search, and proposes it only if the partner, searched as a player
maximising their own value, is expected to accept. It proposes to each partner at most once per
turn, and never a trade in which only the partner gives (an absent person's answer is a wait, and
a gift asked for is noise).

This module reads the Argoat engine's state (``game.state``) for speed; it only ever sees the
determinised copies the search hands it.
"""

from __future__ import annotations

import heapq
import math
import random
from typing import Any

from bot.ai.policy import Policy, plain, register
from bot.engine.argoat.data import (
    CARAVAN,
    EDEN,
    FOUNTAIN,
    FRAGMENT_KEYS,
    FRONTIER_BY_KEY,
    HILL,
    TRAIL,
)
from bot.engine.argoat.geometry import OFFSETS, parse
from bot.engine.argoat.state import DRAFT, OFFER, PLACE_FOREST, PLACE_FRONTIER, TURN, Seat, State
from bot.engine.argoat.trades import GIVE
from bot.engine.core import Action, Game

Coord = tuple[int, int]

ALL_FRAGMENTS = len(FRAGMENT_KEYS)
FAR = 30
"""Distance used when no goal can be reached."""
SOFTMAX = 1.0
"""Inverse temperature of the race: one Fragment ahead is worth ~0.73 of a two-player race."""
TRADE_CHANCE = 0.35
"""Chance that the bot considers starting a trade at a decision where it could."""
DRAFT_PARTS = 2
"""Parts the search adds to a trade before it must propose it."""
EXPLORATION = 0.15
"""Chance a rollout move is a random one instead of the goal-directed one."""


def _fragment_cells(state: State) -> dict[str, list[Coord]]:
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
        if not found or len(state.forests) < 4:
            found[state.town] = 2  # more Dark Forests come with new Frontiers
        return found
    missing = [f for f in FRAGMENT_KEYS if f not in seat.fragments and state.reliquary.get(f, 0) > 0]
    cells = _fragment_cells(state)
    for fragment in missing:
        for at in cells.get(fragment, ()):
            found[at] = 0
    if missing and seat.emeralds >= 2:
        for at, key in state.frontiers.items():
            if FRONTIER_BY_KEY[key].action == FOUNTAIN:
                found[at] = min(found.get(at, 9), 1)
    undiscovered = any(f not in cells for f in missing)
    if missing and ("book" in seat.items or undiscovered):
        town_cost = 0 if "book" in seat.items else 2
        found[state.town] = min(found.get(state.town, 9), town_cost)
    if undiscovered and seat.emeralds >= 1 and state.discovery:
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
    if fragments >= ALL_FRAGMENTS:
        value += 1.0 - 0.5 * min(distance, 10)
    else:
        value -= 0.15 * min(distance, 10)
    return value


def _softmax(values: list[float]) -> list[float]:
    top = max(values)
    weights = [math.exp(SOFTMAX * (v - top)) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _destination(pos: Coord, action: Action) -> Coord:
    x, y = pos
    for side in action["path"] if action["type"] == "bleina" else (action["dir"],):
        dx, dy = OFFSETS[side]
        x, y = x + dx, y + dy
    return x, y


class ArgoatPolicy(Policy):
    """Argoat: goal-directed rollouts of two turns each, scored as a race to Eden."""

    rollout_rounds = 2
    rollout_steps = 80

    def __init__(self) -> None:
        self.may_trade = False

    def begin(self, game: Game, player: str, rng: random.Random) -> None:
        """Decide once per decision whether trades may be started at the root."""
        self.may_trade = rng.random() < TRADE_CHANCE

    # ----- evaluation -------------------------------------------------------------------------

    def evaluate(self, game: Game) -> list[float]:
        """1 for the winner once Eden is found; else a softmax of each player's progress."""
        result = game.result()
        if result is not None:
            return self.outcome(game, result)
        state: State = game.state  # type: ignore[attr-defined]
        return _softmax([progress(state, seat) for seat in state.seats])

    # ----- the tree ---------------------------------------------------------------------------

    def candidates(self, game: Game, player: str, actions: list[Action], depth: int) -> list[Action]:
        """No undo; cancel only to drop a trade at the root; trades started only at the root
        (and only when :meth:`begin` allowed it); at most two parts before proposing."""
        state: State = game.state  # type: ignore[attr-defined]
        if state.phase == DRAFT:
            assert state.trade is not None
            parts = len(state.trade[1])
            gives = _gives(state)
            kept = []
            for a in actions:
                kind = a["type"]
                if kind == "undo" or (kind == "propose" and not gives):
                    continue
                if kind == "cancel" and depth > 0 and (gives or parts < DRAFT_PARTS):
                    continue
                if kind == "trade_part" and parts >= DRAFT_PARTS and depth > 0:
                    continue
                kept.append(a)
            return kept or [a for a in actions if a["type"] == "cancel"] or actions
        if state.phase == OFFER and player != state.trade[0]:  # type: ignore[index]
            return actions  # the proposer's withdrawal (at the root only)
        allow_trade = depth == 0 and self.may_trade
        kept = [
            a
            for a in plain(actions)
            if a["type"] != "trade" or (allow_trade and a["with"] not in state.offered)
        ]
        return kept or actions

    # ----- rollouts ---------------------------------------------------------------------------

    def rollout_start(self, game: Game) -> Any:
        """The turn counter when the rollout starts."""
        return game.state.turn  # type: ignore[attr-defined]

    def rollout_over(self, game: Game, start: Any, steps: int) -> bool:
        """Every player has had two turns, or the step cap is reached."""
        state: State = game.state  # type: ignore[attr-defined]
        return steps >= self.rollout_steps or state.turn - start >= self.rollout_rounds * len(state.seats)

    def rollout_action(self, game: Game, player: str, actions: list[Action], rng: random.Random) -> Action:
        """The goal-directed move (a random one now and then)."""
        return self._choose(game, player, actions, rng, EXPLORATION)

    def greedy_action(self, game: Game, player: str, actions: list[Action], rng: random.Random) -> Action:
        """The goal-directed move, without random steps."""
        return self._choose(game, player, actions, rng, 0.0)

    def _choose(
        self, game: Game, player: str, actions: list[Action], rng: random.Random, explore: float
    ) -> Action:
        state: State = game.state  # type: ignore[attr-defined]
        phase = state.phase
        if phase == OFFER:
            if player != state.trade[0]:  # type: ignore[index]
                return actions[0]
            return self._answer(game, player, actions)
        if phase == DRAFT:
            propose = next((a for a in actions if a["type"] == "propose"), None)
            if propose is not None and _gives(state):
                return propose
            parts = [
                a for a in actions if a["type"] == "trade_part" and (propose is None or a["side"] == GIVE)
            ]
            if parts:
                return parts[rng.randrange(len(parts))]
            return next((a for a in actions if a["type"] == "cancel"), actions[0])
        options = [a for a in actions if a["type"] not in ("undo", "cancel", "trade")] or actions
        if len(options) == 1:
            return options[0]
        if phase in (PLACE_FRONTIER, PLACE_FOREST):
            return self._place(state, options, rng)
        if phase != TURN:  # the Hill of Dreams' drawn card
            return self._end_choice(state, options, rng)
        return self._turn(state, options, rng, explore)

    def _answer(self, game: Game, player: str, actions: list[Action]) -> Action:
        """Accept (in the best way) only if it leaves ``player`` better off than declining."""
        seat = game.players.index(player)
        best, best_value = actions[-1], -1.0
        for action in actions:
            world = game.clone()
            world.apply(player, action)
            value = self.evaluate(world)[seat]
            if value > best_value:
                best, best_value = action, value
        return best

    def _place(self, state: State, options: list[Action], rng: random.Random) -> Action:
        """Place near the Frontier Town (new Frontiers are easier to reach there)."""
        weights = []
        for action in options:
            x, y = parse(action["at"])
            weights.append(1.0 / (1 + abs(x) + abs(y)))
        return _weighted(options, weights, rng)

    def _turn(self, state: State, options: list[Action], rng: random.Random, explore: float) -> Action:
        me = state.seats[state.active]
        dist = goal_distances(state, goals(state, me))
        here = dist.get(me.pos, FAR)
        uses = [a for a in options if a["type"] == "use"]
        item = self._item(state, me, uses, dist, here)
        if item is not None:
            return item
        moves = [a for a in options if a["type"] in ("move", "bleina")]
        ends = [a for a in options if a["type"] == "end"]
        if moves and explore and rng.random() < explore:
            return moves[rng.randrange(len(moves))] if not ends or rng.random() < 0.5 else ends[0]
        ranked = []
        for index, action in enumerate(moves):
            if action["type"] == "bleina" and me.emeralds < 2 and not state.move.free_bleina:
                continue  # keep the last Emerald: exploring and the Fountain need them
            d = dist.get(_destination(me.pos, action), FAR)
            ranked.append((d, action["type"] != "move", index))
        if ends and (not ranked or min(ranked)[0] >= here):
            return self._end_choice(state, ends, rng)
        if ranked:
            return moves[min(ranked)[2]]
        return moves[rng.randrange(len(moves))] if moves else options[0]

    def _item(
        self, state: State, me: Seat, uses: list[Action], dist: dict[Coord, int], here: int
    ) -> Action | None:
        if not uses:
            return None
        for action in uses:
            item, target = action["item"], action.get("target")
            if item == "book" and target is not None:
                return action
            if item == "water":
                return action
            if item == "eye" and target is not None:
                eden, _ = knowledge(state, me)
                if eden is None:
                    return action
            if item == "staff" and target is not None and dist.get(parse(target), FAR) + 1 < here:
                return action
            if item == "wings" and not state.move.moved and here >= 2 and len(me.fragments) >= 6:
                return action
        return None

    def _end_choice(self, state: State, ends: list[Action], rng: random.Random) -> Action:
        if len(ends) == 1:
            return ends[0]
        me = state.seats[state.active]
        kind = FRONTIER_BY_KEY[state.drawn].action if state.drawn else None
        if kind is None and me.pos in state.frontiers:
            kind = FRONTIER_BY_KEY[state.frontiers[me.pos]].action
        choices = {a.get("choice"): a for a in ends}
        if kind == FOUNTAIN:
            wanted = [a for c, a in choices.items() if c not in (None, "pass")]
            return wanted[rng.randrange(len(wanted))] if wanted else ends[0]
        if kind == CARAVAN:
            return choices.get("pay" if me.emeralds >= 2 else "pass", ends[0])
        if kind == HILL:
            cells = _fragment_cells(state)
            hoping = any(f not in me.fragments and f not in cells for f in FRAGMENT_KEYS)
            return choices.get("pay" if hoping else "pass", ends[0])
        if kind == TRAIL:
            dist = goal_distances(state, goals(state, me))
            best, best_d = choices.get("stay", ends[0]), dist.get(me.pos, FAR)
            for choice, action in choices.items():
                if choice not in (None, "stay"):
                    d = dist.get(parse(choice), FAR)
                    if d < best_d:
                        best, best_d = action, d
            return best
        return ends[rng.randrange(len(ends))]


def _gives(state: State) -> bool:
    """Whether the trade being built has the proposer give something (a bot never proposes a
    trade in which only the partner gives)."""
    assert state.trade is not None
    return any(part[0] == GIVE for part in state.trade[1])


def _weighted(options: list[Action], weights: list[float], rng: random.Random) -> Action:
    pick = rng.random() * sum(weights)
    for action, weight in zip(options, weights, strict=True):
        pick -= weight
        if pick <= 0:
            return action
    return options[-1]


__all__ = ["ArgoatPolicy", "goal_distances", "goals", "knowledge", "progress"]


register("Argoat")(ArgoatPolicy)  # not a decorator: mypyc cannot compile a decorated subclass
