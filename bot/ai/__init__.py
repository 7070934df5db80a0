"""Computer players for any game of the engine contract: :func:`choose_action` is the entry point.

The search (``search.py``) is Information Set MCTS over ``game.determinize(player, rng)`` copies,
so a decision depends only on what ``player`` may see and on the seed. Each game may bring a
rollout policy and an evaluation (``argo.py``, ``argoat.py``); other games get uniformly random
rollouts scored by the engine's result. See ``docs/ai.md``.
"""

from __future__ import annotations

import gc
import random
import threading
import time
from dataclasses import dataclass

from bot.ai.budget import TurnLedger, allotment, need
from bot.ai.policy import Policy, plain, policy_for
from bot.ai.search import ISMCTS, SearchResult
from bot.ai.wins import winning_action
from bot.engine.core import Action, Game


@dataclass(frozen=True)
class Level:
    """How a level plays: its time budget and how often it makes a deliberate mistake."""

    name: str
    turn_budget_s: float
    """Wall-clock seconds for all the decisions of one of the bot's turns, shared among them by
    need (``bot.ai.budget``); ``iterations=`` replaces it in tests."""
    mistakes: float = 0.0
    """Chance of skipping the search for a quick policy move or a random one."""
    random_share: float = 0.5
    """Of those mistakes, the share that are uniformly random (the rest are the policy's move)."""


LEVELS: dict[str, Level] = {
    "easy": Level("easy", turn_budget_s=0.25, mistakes=0.35),
    "normal": Level("normal", turn_budget_s=0.6),
    "hard": Level("hard", turn_budget_s=1.25),
}
"""The search levels; ``random`` (uniformly random legal actions) is handled apart."""

LEVEL_NAMES: tuple[str, ...] = ("random", *LEVELS)

SHORT_SEARCH_S = 1.0
"""A decision given less time than this (``budget_s``) is short: too short to tell one step of
tempo from noise, so the policy may prune the root harder (Argoat's steps that lead nowhere)."""
SHORT_TURN_S = 2.0
"""The same for a level whose turn budget is below this (``easy``, ``normal``)."""
SHORT_SEARCH_ITERATIONS = 500
"""The same for a search given a number of iterations."""


def choose_action(
    game: Game,
    player: str,
    *,
    level: str = "normal",
    seed: int = 0,
    budget_s: float | None = None,
    iterations: int | None = None,
    turn_left_s: float | None = None,
) -> Action | None:
    """The action ``player`` takes now: one of ``game.legal_actions(player)``, or None.

    None means "I do not act": only when ``player`` is not the prompt's main decider and has no
    ``pass`` (an optional out-of-turn chance, e.g. Argo's Time Machine without a hold), and the
    bot prefers to let the game go on. A single legal action is returned without search.
    ``iterations`` runs that many search iterations at most (deterministic for a given view of
    the game, seed and level). Otherwise wall time bounds the search: ``budget_s`` seconds for
    this decision, or else its share of ``turn_left_s``, what is left of the bot's turn budget
    (the level's whole turn budget when not given: a decision at the start of a turn). Either way
    the search stops early once its choice cannot change (see docs/ai.md, "Time").
    """
    action, _ = decide(
        game,
        player,
        level=level,
        seed=seed,
        budget_s=budget_s,
        iterations=iterations,
        turn_left_s=turn_left_s,
    )
    return action


def decide(
    game: Game,
    player: str,
    *,
    level: str = "normal",
    seed: int = 0,
    budget_s: float | None = None,
    iterations: int | None = None,
    turn_left_s: float | None = None,
) -> tuple[Action | None, SearchResult | None]:
    """:func:`choose_action` with the search's statistics (None when no search ran).

    Only the prompt and ``player``'s own legal actions are read from ``game``; the root's
    candidates, the check for a win within two of the bot's decisions, decisions by rule (Argoat's
    trades), easy's quick moves and the search all work on determinised copies."""
    # Deciding makes no reference cycles (tests/ai/test_ai_cycles.py checks it): every copy is
    # freed as soon as it is dropped, so Python's cycle collector, which would walk the young
    # copies hundreds of times a second (3 % of a search's work), is paused meanwhile. Only on
    # a process's main thread (an AI worker, a bench): the collector is the whole process's, and
    # a bot thinking on a thread beside its event loop keeps it running for the loop.
    paused = gc.isenabled() and threading.current_thread() is threading.main_thread()
    if paused:
        gc.disable()
    try:
        return _decide(game, player, level, seed, budget_s, iterations, turn_left_s)
    finally:
        if paused:
            gc.enable()


def _decide(
    game: Game,
    player: str,
    level: str,
    seed: int,
    budget_s: float | None,
    iterations: int | None,
    turn_left_s: float | None,
) -> tuple[Action | None, SearchResult | None]:
    started = time.perf_counter()
    if level != "random" and level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVEL_NAMES)}")
    prompt = game.prompt()
    legal = game.legal_actions(player)
    if prompt is None or not legal:
        return None, None
    main = prompt.player == player
    passing = next((a for a in legal if a.get("type") == "pass"), None)
    optional = not main and passing is None  # an out-of-turn chance the bot may let go
    rng = random.Random(f"{seed}:{level}")
    if level == "random":
        if optional:
            return None, None
        options = plain(legal)
        return options[rng.randrange(len(options))], None
    if len(legal) == 1 and not optional:
        return legal[0], None
    policy = policy_for(game)
    # Everything below decides from this copy of what the player may know, never from ``game``.
    world = game.determinize(player, random.Random(rng.getrandbits(64)))
    policy.begin(world, player, rng)
    spec = LEVELS[level]
    if iterations is not None:
        short = iterations < SHORT_SEARCH_ITERATIONS
    elif budget_s is not None:
        short = budget_s < SHORT_SEARCH_S
    else:
        short = spec.turn_budget_s < SHORT_TURN_S
    options = policy.root_candidates(world, player, legal, rng, short=short)
    if not optional and (len(options) > 1 or spec.mistakes):  # a slip could miss even a lone win
        win = winning_action(game, player, options, rng)
        if win is not None:
            return win, None
    decided, planned = policy.planned(world, player, legal, optional, rng)
    if decided:
        return planned, None
    if len(options) == 1 and not optional and not spec.mistakes:
        return options[0], None
    if spec.mistakes and rng.random() < spec.mistakes:
        if optional:
            return None, None
        if rng.random() < spec.random_share:
            # a beginner's slip: any move the tree could consider, not only the root's best ones
            anything = policy.candidates(world, player, legal, 0)
            return anything[rng.randrange(len(anything))], None
        return policy.greedy_action(world, player, options, rng), None
    if len(options) == 1 and not optional:
        return options[0], None
    search = ISMCTS(game, player, policy, rng, options, allow_wait=optional)
    if iterations is not None:
        result = search.run(iterations=iterations)
    else:
        if budget_s is None:
            left = spec.turn_budget_s if turn_left_s is None else turn_left_s
            later = policy.need_after(world, player)
            budget_s = allotment(left, need(len(options)), later, spec.turn_budget_s)
        result = search.run(deadline=started + budget_s)
    return result.action, result


__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "SHORT_SEARCH_ITERATIONS",
    "SHORT_SEARCH_S",
    "SHORT_TURN_S",
    "Level",
    "Policy",
    "TurnLedger",
    "choose_action",
    "decide",
    "policy_for",
]
