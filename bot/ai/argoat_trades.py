"""Argoat trades by rule, not by search: what a bot proposes, and when.

A trade is planned on determinised copies of what the proposer sees. Every draft of at most
:data:`MAX_PARTS` parts in which the proposer gives something is tried in each of
:data:`SAMPLES` worlds: the partner model accepts when accepting (in its best way) leaves the
partner's race value higher than declining, and the proposer's gain is its own value after the
trade minus its value now (declining or cancelling leaves the game as it is). A draft is worth
proposing only when the partner model accepts it in more than half the worlds *and* the
proposer's expected gain (the gain times the chance of acceptance) beats cancelling by
:data:`GAIN_MARGIN`. The one-ply model is optimistic (a bot partner searches, and sees that
helping a rival can cost it the race later), so the best such draft (:data:`CHECKED`) is also
put to a short search of the partner (:data:`PARTNER_ITERATIONS` iterations, in the first
world); the best one that search accepts is built one part at a time, gives first, and proposed.

The bot keeps no memory between decisions, so the plan is recomputed at every step of the
draft. Its worlds are drawn from a generator seeded by the public situation (turn, proposer,
partner), not by the decision's seed: every step of one trade sees the same worlds and so
follows the same plan (no start-then-cancel loops). The game's own record of this turn's offers
(``state.offered``, public) keeps a bot from proposing twice to the same player in one turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.ai.argoat_eval import progress, race_values, state_of
from bot.ai.search import ISMCTS
from bot.engine.argoat.state import DRAFT, TURN, State
from bot.engine.argoat.trades import GIVE
from bot.engine.core import Action, Game, IllegalAction

MAX_PARTS = 2
"""Parts a bot's trade has at most."""
SAMPLES = 3
"""Worlds each draft is tried in."""
GAIN_MARGIN = 0.005
"""How much more than cancelling (in race value, 0..1) a proposal must be expected to gain."""
PARTNER_MARGIN = 0.02
"""How much the partner's own progress must gain for a trade to be proposed (it helps both)."""
CHECKED = 1
"""The best drafts (by the one-ply model) that are checked against a short search of the partner."""
PARTNER_ITERATIONS = 40
"""Iterations of that search."""
PROPOSE: Action = {"type": "propose"}
CANCEL: Action = {"type": "cancel"}


@dataclass(frozen=True)
class Plan:
    """A trade worth proposing: the parts to add to the current draft, in order."""

    partner: str
    parts: tuple[Action, ...]
    accepted: float
    """Share of the sampled worlds in which the partner model accepts."""
    gain: float
    """The proposer's expected gain over cancelling (race value)."""


def _state(game: Game) -> State:
    return state_of(game)


def _worlds(world: Game, player: str, partner: str) -> list[Game]:
    state = _state(world)
    rng = random.Random(f"trade:{state.turn}:{player}:{partner}")
    return [world.determinize(player, random.Random(rng.getrandbits(64))) for _ in range(SAMPLES)]


def _in_draft(world: Game, player: str, partner: str) -> Game:
    """A copy of ``world`` with a trade with ``partner`` being drafted."""
    copy = world.clone()
    if _state(copy).phase == TURN:
        copy.apply(player, {"type": "trade", "with": partner})
    return copy


def _parts(draft: Game, player: str) -> list[Action]:
    return [a for a in draft.legal_actions(player) if a["type"] == "trade_part"]


def _extensions(draft: Game, player: str) -> list[tuple[Action, ...]]:
    """The part sequences the bot may still add to the draft (gives before asks)."""
    state = _state(draft)
    assert state.trade is not None
    current = tuple(state.trade[1])
    gives_now = any(part[0] == GIVE for part in current)
    found: list[tuple[Action, ...]] = []
    if current and gives_now:
        found.append(())
    if len(current) >= MAX_PARTS:
        return found
    room = MAX_PARTS - len(current)
    for part in _parts(draft, player):
        gives = gives_now or part["side"] == GIVE
        if gives:
            found.append((part,))
        if room >= 2 and part["side"] == GIVE:
            after = draft.clone()
            after.apply(player, part)
            found.extend((part, ask) for ask in _parts(after, player) if ask["side"] != GIVE)
    return found


def _try(draft: Game, player: str, partner: str, parts: tuple[Action, ...]) -> tuple[bool, float]:
    """Whether the partner model accepts ``parts`` added to the draft, and the proposer's gain in
    its own value. The partner model: accepting (in the way best for it) raises the partner's
    value by the proposer's own evaluation, and the partner gets something it can see (its own
    progress rises: not a trade that only moves the race)."""
    copy = draft.clone()
    try:
        for part in parts:
            copy.apply(player, part)
        state = _state(copy)
        seats = [s.id for s in state.seats]
        me, them = seats.index(player), seats.index(partner)
        now = race_values(state)
        theirs = progress(state, state.seats[them])
        copy.apply(player, PROPOSE)
    except IllegalAction:
        return False, 0.0
    best: list[float] | None = None
    gained = 0.0
    for answer in copy.legal_actions(partner):
        if answer["type"] != "accept":
            continue
        after = copy.clone()
        after.apply(partner, answer)
        state = _state(after)
        values = race_values(state)
        if values[them] > now[them] and (best is None or values[them] > best[them]):
            best = values
            gained = progress(state, state.seats[them]) - theirs
    if best is None or gained <= PARTNER_MARGIN:
        return False, 0.0
    return True, best[me] - now[me]


def _partner_accepts(draft: Game, player: str, partner: str, parts: tuple[Action, ...]) -> bool:
    """Whether a short search of ``partner`` (as a bot partner would run it) accepts."""
    from bot.ai.policy import policy_for  # at call time: the Argoat policy imports this module

    copy = draft.clone()
    for part in parts:
        copy.apply(player, part)
    copy.apply(player, PROPOSE)
    answers = copy.legal_actions(partner)
    state = _state(copy)
    assert state.trade is not None
    # seeded by the whole offer, not by how much of it was drafted already: every step of the
    # draft gets the same answer (a different one would start and cancel the trade forever)
    rng = random.Random(f"answer:{state.turn}:{player}:{partner}:{sorted(map(str, state.trade[1]))}")
    search = ISMCTS(copy, partner, policy_for(copy), rng, answers)
    action = search.run(iterations=PARTNER_ITERATIONS).action
    return action is not None and action["type"] == "accept"


def plan(world: Game, player: str, partner: str) -> Plan | None:
    """The best trade for ``player`` to build and propose to ``partner`` now, or None.

    ``world`` is a determinised copy (TURN phase, or a draft with ``partner`` under way)."""
    drafts = [_in_draft(w, player, partner) for w in _worlds(world, player, partner)]
    found: list[Plan] = []
    for parts in _extensions(drafts[0], player):
        accepted = 0
        gain = 0.0
        for draft in drafts:
            ok, value = _try(draft, player, partner, parts)
            if ok:
                accepted += 1
                gain += value
        share = accepted / len(drafts)
        expected = gain / len(drafts)
        if share > 0.5 and expected > GAIN_MARGIN:
            found.append(Plan(partner, parts, share, expected))
    found.sort(key=lambda p: -p.gain)  # stable: equal gains keep the legal order
    for candidate in found[:CHECKED]:
        if _partner_accepts(drafts[0], player, partner, candidate.parts):
            return candidate
    return None


def start(world: Game, player: str, actions: list[Action]) -> Action | None:
    """The ``trade`` action to start, at the start of a planned trade, or None (no trade worth
    proposing with anyone here who has not had an offer from ``player`` this turn)."""
    state = _state(world)
    best: Plan | None = None
    for action in actions:
        if action["type"] != "trade" or action["with"] in state.offered:
            continue
        found = plan(world, player, action["with"])
        if found is not None and (best is None or found.gain > best.gain) and _follows(world, player, found):
            best = found
    return None if best is None else {"type": "trade", "with": best.partner}


def _follows(world: Game, player: str, found: Plan) -> bool:
    """Whether the draft steps, each decided afresh by :func:`next_step` as the real decisions
    will be (they see the same view), end in proposing: a plan that would be cancelled halfway
    is not started (it would be started again and again)."""
    draft = _in_draft(world, player, found.partner)
    for _ in range(MAX_PARTS + 1):
        step = next_step(draft, player)
        kind: str = step["type"]
        if kind != "trade_part":
            return kind == "propose"
        draft.apply(player, step)
    return False


def next_step(world: Game, player: str) -> Action:
    """In a draft: the next part of the planned trade, ``propose`` once it is complete, or
    ``cancel`` when nothing is worth proposing."""
    state = _state(world)
    assert state.phase == DRAFT and state.trade is not None
    found = plan(world, player, str(state.trade[0]))
    if found is None:
        return CANCEL
    return found.parts[0] if found.parts else PROPOSE


__all__ = ["GAIN_MARGIN", "MAX_PARTS", "Plan", "next_step", "plan", "start"]
