"""Seeded random Argo games for the render tests: every public view along the way."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.argo import GAME
from bot.engine.core import SYSTEM, TIMEOUT

STEP_CAP = 20_000
"""Safety net of this driver only."""


def public_views(seed: int, players: int = 4, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a seeded random game."""
    game = GAME.new([str(i + 1) for i in range(players)], seed, options or {})
    rng = random.Random(seed)
    views = [game.view(None)]
    for _ in range(STEP_CAP):
        if game.result() is not None:
            break
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
        else:
            who = deciders[0]
            options_ = game.legal_actions(who)
            plain = [a for a in options_ if a["type"] not in ("undo", "cancel")]
            game.apply(who, rng.choice(plain or options_))
        views.append(game.view(None))
    return views


def late_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """The running game's view with the most tiles (the latest of those)."""
    running = [v for v in views if not v["finished"]]
    most = max(len(v["tiles"]) for v in running)
    return [v for v in running if len(v["tiles"]) == most][-1]


def decision_pairs(views: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(board at a player's previous decision, board now) for each turn start: what the host
    shows the player whose turn begins."""
    last_seen: dict[str, dict[str, Any]] = {}
    pairs = []
    active = None
    for view in views:
        player = view.get("active")
        if player is not None and player != active and player in last_seen:
            pairs.append((last_seen[player], view))
        if player is not None:
            last_seen[player] = view
        active = player
    return pairs
