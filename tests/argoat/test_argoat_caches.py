"""Caches stay bounded: a long game, or a process playing many games, cannot grow memory
without limit (issue 10)."""

from __future__ import annotations

import importlib
import pkgutil
import random

import pytest
from argoat_helpers import PLAYERS

import bot.engine.argoat as argoat_package
from bot.engine.argoat import ArgoatGame, geometry, trades
from bot.engine.argoat import game as game_module


def test_the_turn_prompt_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_module, "TURN_PROMPTS_MAX", 3)
    game = ArgoatGame.new(list(PLAYERS[:4]), 11, {})
    rng = random.Random(11)
    largest = 0
    for step in range(3000):
        prompt = game.prompt()
        if prompt is None:
            break
        largest = max(largest, len(game._turn_prompts))
        assert len(game._turn_prompts) <= 3
        if step % 10 == 0:  # emptying the cache never changes a prompt
            assert ArgoatGame.from_json(game.to_json()).prompt() == prompt
        player = rng.choice(prompt.deciders())
        legal = [a for a in game.legal_actions(player) if a["type"] not in ("undo", "cancel")]
        game.apply(player, rng.choice(legal))
    assert largest == 3  # the bound was reached, so it was tested


def test_a_long_game_keeps_the_turn_prompts_under_the_bound() -> None:
    for seed in range(3):
        game = ArgoatGame.new(list(PLAYERS), seed, {})
        rng = random.Random(seed)
        for _ in range(6000):
            prompt = game.prompt()
            if prompt is None:
                break
            assert len(game._turn_prompts) <= game_module.TURN_PROMPTS_MAX
            player = rng.choice(prompt.deciders())
            game.apply(player, rng.choice(game.legal_actions(player)))


def test_every_module_cache_is_bounded() -> None:
    cached = 0
    for info in pkgutil.iter_modules(argoat_package.__path__):
        module = importlib.import_module(f"{argoat_package.__name__}.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_info", None)):
                cached += 1
                assert value.cache_info().maxsize is not None, value
    assert cached >= 3  # the trade prompts and texts
    for x in range(-80, 80):
        for y in range(-40, 40):
            assert geometry.fmt((x, y)) == f"{x},{y}"
            assert len(geometry._TEXTS) <= geometry.TEXTS_MAX
    for x in range(-80, 80):
        for y in range(-40, 40):
            part = trades._part("give", "explore", f"{x},{y}")
            assert part == {"type": "trade_part", "side": "give", "what": "explore", "which": f"{x},{y}"}
            assert len(trades._PARTS) <= trades.PARTS_MAX
