"""The explicit check every level makes before searching: a win one or two of its own decisions away.

The check plays on ``game.determinize(player, rng)`` copies only (never the real game): a move
counts as winning when, in every sampled world, it wins at once or it leaves ``player`` to
decide again and one of their next moves wins. Requiring every sample keeps a gamble on hidden
information (an unexplored Dark Forest that might hide Eden) from passing for a sure win, and
keeps the answer a function of what the player sees and of the seed.
"""

from __future__ import annotations

import random

from bot.engine.core import Action, Game, IllegalAction

SAMPLES = 2
"""Determinised worlds a move must win in."""
SECOND_STEP_BUDGET = 400
"""At most this many second moves are tried per world (wide Argo turns skip the deep check)."""


def winning_action(
    game: Game, player: str, options: list[Action], rng: random.Random, samples: int = SAMPLES
) -> Action | None:
    """The first of ``options`` that wins within two of ``player``'s decisions in every sampled
    world of ``player``'s information set, or None."""
    worlds = [game.determinize(player, random.Random(rng.getrandbits(64))) for _ in range(samples)]
    deep = len(options) * max(len(_own_options(worlds[0], player)), 1) <= SECOND_STEP_BUDGET
    found: Action | None = None
    for depth in (1, 2) if deep else (1,):
        for action in options:
            if all(_wins(world, player, action, depth) for world in worlds):
                found = action
                break
        if found is not None:
            break
    return found


def _own_options(world: Game, player: str) -> list[Action]:
    return [a for a in world.legal_actions(player) if a.get("type") not in ("undo", "cancel")]


def _won(world: Game, player: str) -> bool | None:
    """True: ``player`` won; False: the game ended otherwise; None: it goes on."""
    result = world.result()
    if result is None:
        return None
    return player in result.winners


def _wins(world: Game, player: str, action: Action, depth: int) -> bool:
    copy = world.clone()
    try:
        copy.apply(player, action)
    except IllegalAction:
        return False
    won = _won(copy, player)
    if won is not None:
        return won
    if depth < 2:
        return False
    prompt = copy.prompt()
    if prompt is None or prompt.player != player:
        return False
    for second in _own_options(copy, player):
        again = copy.clone()
        try:
            again.apply(player, second)
        except IllegalAction:
            continue
        if _won(again, player):
            return True
    return False


__all__ = ["winning_action"]
