"""Seeded random Argoat games for the render tests: every public view along the way."""

from __future__ import annotations

import random
from typing import Any

from bot.engine.argoat import GAME

SKIP = frozenset({"undo", "cancel", "withdraw", "decline"})
STEP_CAP = 20_000
"""Safety net of this driver only."""


def public_views(seed: int, players: int = 5) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a seeded random game
    (now and then a step is taken back, as players do)."""
    options = {spec.name: spec.default for spec in GAME.option_specs}
    game = GAME.new([str(i + 1) for i in range(players)], seed, options)
    rng = random.Random(seed)
    views = [game.view(None)]
    for _ in range(STEP_CAP):
        prompt = game.prompt()
        if prompt is None:
            break
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        choices = [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(legal if rng.random() < 0.03 else choices))
        views.append(game.view(None))
    return views


def decision_pairs(views: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(board at a player's previous decision, board now) for each turn start."""
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


def map_columns(view: dict[str, Any]) -> int:
    b = view["bounds"]
    return b["max_x"] - b["min_x"] + 1
