"""Argoat knowledge for the search: a goal-directed rollout policy, the race evaluation
(``argoat_eval.py``) and trades by rule (``argoat_trades.py``).

*Rollouts* follow the goals: use a Book in the Town, Water of Life, an Eye on an unexplored
forest, Wings or a Staff when they bring the goal nearer; step along the road that gets closest
(sometimes a random one); end the turn once moved, choosing the Frontier Action's option that
helps (a missing Fragment at the Fountain, the Trail nearest the goal, ...). Rollouts never start
trades; a trade on offer is answered by comparing the evaluation after accepting and declining.
Each player plays two turns, then the position is scored.

*Trades* are never searched: :mod:`bot.ai.argoat_trades` decides whether to start one, builds it
part by part and proposes it only when the partner model accepts it and it gains the proposer
enough. An offer once made stands (nothing in the game changes while it waits for the answer), so
the proposer lets it stand without a search. The partner of an offer searches accept against
decline like any other decision.

This module reads the Argoat engine's state (``game.state``) for speed; it only ever sees the
determinised copies the search hands it.
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai import argoat_trades
from bot.ai.argoat_eval import (
    ALL_FRAGMENTS,
    FAR,
    eden_steps,
    fragment_cells,
    goal_distances,
    goals,
    knowledge,
    progress,
    race_values,
    state_of,
)
from bot.ai.policy import Policy, plain, register
from bot.engine.argoat.data import CARAVAN, FOUNTAIN, FRAGMENT_KEYS, FRONTIER_BY_KEY, HILL, TRAIL
from bot.engine.argoat.geometry import OFFSETS, parse
from bot.engine.argoat.state import DRAFT, DREAM, OFFER, PLACE_FOREST, PLACE_FRONTIER, TURN, Seat, State
from bot.engine.argoat.trades import GIVE
from bot.engine.core import Action, Game

Coord = tuple[int, int]

EXPLORATION = 0.15
"""Chance a rollout move is a random one instead of the goal-directed one."""


PRUNE_MARGIN = 0.01
"""How much worse than the best step (progress after ending the turn) a step leading away from
the goals may be and still be searched at the root."""
EXTRA_TURN = 1.0
"""What an extra turn counts for in :func:`_worth_ending_after` (keeps the Temple's step)."""


def _worth_ending_after(world: Game, player: str, step: Action) -> float:
    """The bot's progress after ``step`` and the best way to end its turn there (more when the
    Frontier grants another turn), on a copy of ``world`` (a determinised copy itself)."""
    moved = world.clone()
    moved.apply(player, step)
    ends: list[Action | None] = [a for a in moved.legal_actions(player) if a["type"] == "end"]
    best = -FAR * 1.0
    for end in ends or [None]:
        after = moved.clone() if end is not None else moved
        if end is not None:
            after.apply(player, end)
            _finish_frontier_action(after, player)
        state = state_of(after)
        seat = state.seat(player)
        value = progress(state, seat)
        if end is not None and state.phase == TURN and state.seats[state.active].id == player:
            value += EXTRA_TURN
        best = max(best, value)
    return best


def _finish_frontier_action(game: Game, player: str) -> None:
    """Play out the choices a Frontier Action left ``player`` (where a drawn Frontier or a Dark
    Forest goes, a dreamt action), each its first option, so that what the action brings at its
    end (the Town's Emerald) is counted."""
    state = state_of(game)
    for _ in range(4):
        if state.phase not in (PLACE_FRONTIER, PLACE_FOREST, DREAM) or state.seats[state.active].id != player:
            return
        options = game.legal_actions(player)
        if not options:
            return
        game.apply(player, options[0])


def _towards_eden(state: State, actions: list[Action]) -> list[Action]:
    """With all eight Fragments only the game's end counts: the steps and Bleina rides that do
    not bring the active seat nearer to Eden (in the steps it can expect, :func:`eden_steps`)
    are left out when one does. Items, trades and ending the turn stay."""
    seat = state.seats[state.active]
    steps = [a for a in actions if a["type"] in ("move", "bleina")]
    if len(seat.fragments) < ALL_FRAGMENTS or len(steps) < 2:
        return actions
    here = seat.pos
    now = eden_steps(state, seat)
    after: dict[int, float] = {}
    try:
        for action in steps:
            seat.pos = _destination(here, action)
            after[id(action)] = eden_steps(state, seat)
    finally:
        seat.pos = here
    if min(after.values()) >= now:
        return actions
    return [a for a in actions if after.get(id(a), -1.0) < now]


def _pure_demand(state: State) -> bool:
    """Whether the trade on offer asks the partner for something and gives it nothing."""
    assert state.trade is not None
    parts = state.trade[1]
    return bool(parts) and all(part[0] != GIVE for part in parts)


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

    # ----- evaluation -------------------------------------------------------------------------

    def evaluate(self, game: Game) -> list[float]:
        """1 for the winner once Eden is found; else a softmax of each player's progress."""
        result = game.result()
        if result is not None:
            return self.outcome(game, result)
        state = state_of(game)
        return race_values(state)

    # ----- the tree ---------------------------------------------------------------------------

    def candidates(self, game: Game, player: str, actions: list[Action], depth: int) -> list[Action]:
        """No undo, no trade started (trades are planned by rule, see :meth:`planned`); in a
        draft (never reached by the search itself) only cancelling."""
        state = state_of(game)
        if state.phase == DRAFT:
            return [a for a in actions if a["type"] == "cancel"] or actions
        if state.phase == OFFER:
            assert state.trade is not None  # an offer is a trade
            if player != state.trade[0]:
                return actions  # the proposer's withdrawal
        kept = [a for a in plain(actions) if a["type"] != "trade"] or actions
        if depth == 0 and state.phase == TURN and state.seats[state.active].id == player:
            return _towards_eden(state, kept)
        return kept

    def planned(
        self, world: Game, player: str, actions: list[Action], optional: bool, rng: random.Random
    ) -> tuple[bool, Action | None]:
        """Trades by rule: an offer made stands; a draft follows the trade plan; a turn starts
        a trade when one is worth proposing to someone here not yet offered one this turn."""
        state = state_of(world)
        active = state.seats[state.active].id
        if state.phase == OFFER:
            if optional and player == active:
                return True, None  # nothing changes while the offer waits: it stands
            if not optional and _pure_demand(state):
                decline = next((a for a in actions if a["type"] == "decline"), None)
                if decline is not None:
                    return True, decline  # something for nothing is never worth giving
            return False, None
        if player != active or optional:
            return False, None
        if state.phase == DRAFT:
            return True, argoat_trades.next_step(world, player)
        if state.phase == TURN and any(a["type"] == "trade" for a in actions):
            start = argoat_trades.start(world, player, actions)
            if start is not None:
                return True, start
        return False, None

    def root_candidates(
        self, world: Game, player: str, actions: list[Action], rng: random.Random, *, short: bool = False
    ) -> list[Action]:
        """The tree's candidates; before a short search, less the steps that lead nowhere: a
        step or Bleina ride that takes the bot further from its goals is dropped when ending the
        turn there leaves it worse off than another step would (its Frontier gives nothing it
        lacks, no extra turn). A short search finds such a step about as good as the right one
        and, with no memory between decisions, can walk back and forth between two cells for
        turns on end. A long one tells them apart, and has reasons of its own to step away now
        and then: pruning for ``hard`` too cost it wins (docs/ai.md)."""
        options = self.candidates(world, player, actions, 0)
        state = state_of(world)
        steps = [a for a in options if a["type"] in ("move", "bleina")]
        if not short or state.phase != TURN or len(steps) < 2 or state.seats[state.active].id != player:
            return options
        seat = state.seats[state.active]
        dist = goal_distances(state, goals(state, seat))
        here = dist.get(seat.pos, FAR)
        worth = {id(a): _worth_ending_after(world, player, a) for a in steps}
        best = max(worth.values())
        return [
            a
            for a in options
            if id(a) not in worth
            or worth[id(a)] >= best - PRUNE_MARGIN
            or dist.get(_destination(seat.pos, a), FAR) <= here
        ]

    # ----- rollouts ---------------------------------------------------------------------------

    def rollout_start(self, game: Game) -> Any:
        """The turn counter when the rollout starts."""
        return state_of(game).turn

    def rollout_over(self, game: Game, start: Any, steps: int) -> bool:
        """Every player has had two turns, or the step cap is reached."""
        state = state_of(game)
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
        state = state_of(game)
        phase = state.phase
        if phase == OFFER:
            assert state.trade is not None  # an offer is a trade
            if player != state.trade[0]:
                return actions[0]
            return self._answer(game, player, actions)
        if phase == DRAFT:  # rollouts never start a trade; a draft is dropped
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
            cells = fragment_cells(state)
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


def _weighted(options: list[Action], weights: list[float], rng: random.Random) -> Action:
    pick = rng.random() * sum(weights)
    for action, weight in zip(options, weights, strict=True):
        pick -= weight
        if pick <= 0:
            return action
    return options[-1]


__all__ = ["ArgoatPolicy"]


register("Argoat")(ArgoatPolicy)  # not a decorator: mypyc cannot compile a decorated subclass
