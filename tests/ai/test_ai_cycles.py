"""Deciding makes no reference cycles, so ``decide`` pauses Python's cycle collector meanwhile
(every copy is freed by reference counting) and gives it back as it found it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from ai_positions import positions

from bot.ai import LEVELS, decide, search
from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame


@pytest.fixture
def collector() -> Iterator[None]:
    """The cycle collector as the test found it, whatever the test does."""
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.parametrize(
    ("cls", "players", "seed", "options"),
    [(ArgoGame, 2, 3, {}), (ArgoGame, 4, 5, {"tm_wait": 1}), (ArgoatGame, 3, 8, {}), (ArgoatGame, 5, 9, {})],
)
def test_deciding_leaves_no_cyclic_garbage(collector, cls, players, seed, options):
    decided = 0
    for game in positions(cls, players, seed, count=4, every=9, **options):
        gc.collect()
        gc.disable()
        for player in game.prompt().deciders():
            for level in LEVELS:
                decide(game, player, level=level, seed=decided, iterations=60)
                decided += 1
        assert gc.collect() == 0  # nothing that only the cycle collector could have freed
        gc.enable()
    assert decided >= 12


def test_the_cycle_collector_is_paused_while_deciding_and_given_back(collector, monkeypatch):
    game = positions(ArgoGame, 2, 7, count=1, every=20)[0]
    player = game.prompt().player
    seen: list[bool] = []
    iterate = search.ISMCTS._iterate

    def watched(self: search.ISMCTS) -> None:
        seen.append(gc.isenabled())
        iterate(self)

    monkeypatch.setattr(search.ISMCTS, "_iterate", watched)
    gc.enable()
    decide(game, player, level="hard", seed=1, iterations=20)
    assert seen == [False] * 20
    assert gc.isenabled()
    gc.disable()  # left off when it was off
    decide(game, player, level="hard", seed=1, iterations=5)
    assert not gc.isenabled()

    def failing(self: search.ISMCTS) -> None:
        raise RuntimeError("injected")

    monkeypatch.setattr(search.ISMCTS, "_iterate", failing)
    gc.enable()
    with pytest.raises(RuntimeError, match="injected"):
        decide(game, player, level="hard", seed=1, iterations=5)
    assert gc.isenabled()  # given back even when the search fails
