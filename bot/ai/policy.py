"""What the search asks of a game: which moves to consider, how to play a rollout, how to score.

:class:`Policy` is the default for any game: every move but undo/cancel is a candidate, rollouts
are uniformly random, and a position is scored only by the engine's result (each winner gets an
equal share of 1; an unfinished position is a draw). Games with a policy of their own
(``bot/ai/argo.py``, ``bot/ai/argoat.py``) subclass it; :func:`policy_for` picks one by game name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, TypeVar

from bot.ai.budget import need
from bot.engine.core import SYSTEM, TIMEOUT, Action, Game, IllegalAction, Result

SKIPPED: Final = frozenset({"undo", "cancel"})
"""Action types the search never plays when anything else is legal (they only go back)."""


def plain(actions: list[Action]) -> list[Action]:
    """``actions`` without undo and cancel, or all of them when nothing else is legal."""
    kept = [a for a in actions if a.get("type") not in SKIPPED]
    return kept or actions


def decider(game: Game) -> tuple[str, list[Action]] | None:
    """Who acts next in a simulation and their legal actions; None once the game has ended.

    The prompt's main decider acts if they have legal actions. When there is none (``player`` is
    None, as while Argo waits on Time Machine holders) the first waiting player with legal actions
    decides; if nobody can act, :data:`SYSTEM` applies :data:`TIMEOUT`. Optional out-of-turn
    chances beside a main decider (``others`` without a wait) are ignored in simulations."""
    prompt = game.prompt()
    if prompt is None:
        return None
    if prompt.player is not None:
        actions = game.legal_actions(prompt.player)
        if actions:
            return prompt.player, actions
    for other in prompt.others:
        if other != prompt.player:
            actions = game.legal_actions(other)
            if actions:
                return other, actions
    return SYSTEM, [dict(TIMEOUT)]


def timeout(world: Game) -> bool:
    """Apply the timeout as the system; False when the engine refuses it (nothing can go on)."""
    try:
        world.apply(SYSTEM, dict(TIMEOUT))
    except IllegalAction:
        return False
    return True


class Policy:
    """The game-specific knowledge the search uses; this base class knows nothing of any game."""

    rollout_steps: int = 400
    """Decisions a rollout plays at most before the position is scored by :meth:`evaluate`."""

    def begin(self, game: Game, player: str, rng: random.Random) -> None:
        """Called once before each decision's search (a policy may draw per-decision choices)."""

    def candidates(self, game: Game, player: str, actions: list[Action], depth: int) -> list[Action]:
        """The moves the search tree considers for ``player`` (a non-empty part of ``actions``).

        ``depth`` is the node's distance from the root (0: the decision being searched)."""
        return plain(actions)

    def notations(self, game: Game, actions: list[Action]) -> list[str]:
        """``game.notation`` of each of ``actions`` (the search's edge keys); a policy that knows
        the engine may work them out without going through the contract."""
        return [game.notation(a) for a in actions]

    def root_candidates(
        self, world: Game, player: str, actions: list[Action], rng: random.Random, *, short: bool = False
    ) -> list[Action]:
        """The moves searched at the root, chosen once per decision on ``world``, a
        determinised copy (``actions`` are ``player``'s legal actions, which they can see).
        ``short``: the search to come is short (see ``bot.ai.SHORT_SEARCH_S``)."""
        return self.candidates(world, player, actions, 0)

    def need_after(self, world: Game, player: str) -> float:
        """How much the rest of ``player``'s turn is expected to need after the decision now (in
        the units of ``bot.ai.budget.need``), which the decision's share of the turn's time is
        weighed against. By default as much as one 10-way decision."""
        return need(10)

    def planned(
        self, world: Game, player: str, actions: list[Action], optional: bool, rng: random.Random
    ) -> tuple[bool, Action | None]:
        """A decision taken by rule instead of search: ``(True, action)`` (None: let the game go
        on, only when ``optional``), or ``(False, None)`` to search. ``world`` is a determinised
        copy."""
        return False, None

    def rollout_action(self, game: Game, player: str, actions: list[Action], rng: random.Random) -> Action:
        """The move ``player`` plays in a rollout (uniformly random here)."""
        options = plain(actions)
        return options[rng.randrange(len(options))]

    def greedy_action(self, game: Game, player: str, actions: list[Action], rng: random.Random) -> Action:
        """A quick move without search (the easy level's occasional shortcut)."""
        return self.rollout_action(game, player, actions, rng)

    def rollout_start(self, game: Game) -> Any:
        """A marker taken when a rollout starts (passed to :meth:`rollout_over`)."""
        return None

    def rollout_over(self, game: Game, start: Any, steps: int) -> bool:
        """True when the rollout should stop and the position be scored."""
        return steps >= self.rollout_steps

    def rollout(self, world: Game, rng: random.Random) -> list[float]:
        """Play ``world`` on (it is the search's own copy) with :meth:`rollout_action` until
        :meth:`rollout_over`, then score it with :meth:`evaluate`."""
        start = self.rollout_start(world)
        steps = 0
        while not self.rollout_over(world, start, steps):
            step = decider(world)
            if step is None:
                break
            actor, actions = step
            if actor == SYSTEM:
                if not timeout(world):
                    break
                continue
            world.apply(actor, self.rollout_action(world, actor, actions, rng))
            steps += 1
        return self.evaluate(world)

    def evaluate(self, game: Game) -> list[float]:
        """A score in [0, 1] per seat (seat order) for ``game``, finished or not."""
        result = game.result()
        if result is not None:
            return self.outcome(game, result)
        n = len(game.players)
        return [1.0 / n] * n

    def outcome(self, game: Game, result: Result) -> list[float]:
        """The score per seat of a finished game: each winner an equal share of 1."""
        winners = set(result.winners)
        share = 1.0 / len(winners) if winners else 0.0
        return [share if p in winners else 0.0 for p in game.players]


_POLICIES: dict[str, type[Policy]] = {}


P = TypeVar("P", bound=type[Policy])


def register(name: str) -> Callable[[P], P]:
    """Class decorator: the policy for the game called ``name`` (case-insensitive)."""

    def deco(cls: P) -> P:
        _POLICIES[name.lower()] = cls
        return cls

    return deco


def policy_for(game: Game) -> Policy:
    """The policy registered for ``game``'s name, or the plain :class:`Policy`."""
    from bot.ai import argo, argoat  # noqa: F401  (registers the per-game policies)

    cls = _POLICIES.get(type(game).name.lower(), Policy)
    return cls()
