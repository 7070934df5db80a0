"""Boards from random legal Argo games (2, 3 and 4 players, every difficulty) render cleanly."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.engine.argo import GAME
from bot.engine.core import SYSTEM, TIMEOUT
from render.argo import render_board

MAX_BYTES = 300 * 1024
STEP_CAP = 3000
"""Safety net of this test driver only."""


def _views(seed: int, players: int, options: dict[str, Any], every: int) -> list[dict[str, Any]]:
    """Public views every ``every`` decisions of a seeded random game, and its last view."""
    game = GAME.new([f"p{i}" for i in range(players)], seed, options)
    rng = random.Random(seed)
    out = [game.view(None)]
    for step in range(1, STEP_CAP):
        if game.result() is not None:
            break
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            continue
        who = deciders[0] if rng.random() < 0.85 else rng.choice(deciders)
        options_ = game.legal_actions(who)
        plain = [a for a in options_ if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(plain if plain and rng.random() > 0.03 else options_))
        if step % every == 0:
            out.append(game.view(None))
    out.append(game.view(None))
    return out


def _check(view: dict[str, Any]) -> None:
    data = render_board(view)
    assert len(data) <= MAX_BYTES
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    # The whole station fits: at least one 84 px column per station column.
    b = view["bounds"]
    assert img.width >= (b["max_x"] - b["min_x"] + 1) * 84
    assert img.height >= (b["max_y"] - b["min_y"] + 1) * 84


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_seeded_games_render(players: int, difficulty: str) -> None:
    seed = 100 * players + ["easy", "medium", "hard"].index(difficulty)
    views = _views(seed, players, {"difficulty": difficulty}, every=17)
    assert len(views) >= 3
    for view in views:
        _check(view)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([2, 3, 4]),
    difficulty=st.sampled_from(["easy", "medium", "hard"]),
    deep_space=st.sampled_from(["off", "on"]),
    tm_wait=st.sampled_from([0, 5]),
)
def test_random_games_render(seed: int, players: int, difficulty: str, deep_space: str, tm_wait: int) -> None:
    options = {"difficulty": difficulty, "deep_space": deep_space, "tm_wait": tm_wait}
    views = _views(seed, players, options, every=29)
    for view in views:
        _check(view)
