"""Deciding makes no reference cycles, so ``decide`` pauses Python's cycle collector meanwhile
(every copy is freed by reference counting) and gives it back as it found it; on a thread it
leaves the process's collector alone."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import ClassVar

import pytest
from ai_positions import HiddenNim, positions

from bot.ai import LEVELS, decide
from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame
from bot.engine.core import Action, Event


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


class WatchedNim(HiddenNim):
    """HiddenNim that notes whether the cycle collector runs at every move (a game of the
    contract in plain Python: it is called from the search compiled or not), and can fail."""

    seen: ClassVar[list[bool]] = []
    fail: ClassVar[bool] = False

    def apply(self, player: str, action: Action) -> list[Event]:
        WatchedNim.seen.append(gc.isenabled())
        if WatchedNim.fail:
            raise RuntimeError("injected")
        return super().apply(player, action)


def test_the_cycle_collector_is_paused_while_deciding_and_given_back(collector):
    game = WatchedNim.new(["a", "b"], 0, {"pile": 10})
    WatchedNim.seen, WatchedNim.fail = [], False
    gc.enable()
    decide(game, "a", level="hard", seed=1, iterations=20)
    assert len(WatchedNim.seen) >= 20 and not any(WatchedNim.seen)
    assert gc.isenabled()
    gc.disable()  # left off when it was off
    decide(game, "a", level="hard", seed=1, iterations=5)
    assert not gc.isenabled()
    gc.enable()
    WatchedNim.fail = True
    with pytest.raises(RuntimeError, match="injected"):
        decide(game, "a", level="hard", seed=1, iterations=5)
    WatchedNim.fail = False
    assert gc.isenabled()  # given back even when deciding fails
    WatchedNim.seen = []
    thinker = threading.Thread(target=decide, args=(game, "a"), kwargs={"level": "hard", "iterations": 5})
    thinker.start()
    thinker.join()
    assert WatchedNim.seen and all(WatchedNim.seen)  # on a thread, the process keeps its collector
