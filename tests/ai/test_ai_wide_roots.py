"""Wide roots: an Argo position where the Control Room offers some 170–190 moves still gets a
meaningful search (the Control Room's moves are pruned to the best few after one ply), so the
same move comes out for every seed. Before, each move got a handful of visits and the most
visited one was a matter of luck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.ai import decide
from bot.ai.argo import CONTROL_ROOM_KEEP, _is_control_room
from bot.engine.argo import ArgoGame

POSITIONS = Path(__file__).parent / "positions"


def saved(name: str) -> ArgoGame:
    """A position saved from a seeded game (``tests/ai/positions/``)."""
    return ArgoGame.from_json(json.loads((POSITIONS / name).read_text()))


@pytest.mark.parametrize("name", ["argo_control_room_a.json", "argo_control_room_b.json"])
def test_a_control_room_position_gets_the_same_move_for_every_seed(name):
    game = saved(name)
    player = game.prompt().player
    legal = game.legal_actions(player)
    assert sum(_is_control_room(a) for a in legal) > 150
    chosen = []
    for seed in range(4):
        action, search = decide(game, player, level="hard", seed=seed, iterations=300)
        assert search is not None
        assert sum(1 for key in search.visits if key.startswith("activate Control-Room")) <= CONTROL_ROOM_KEEP
        chosen.append(game.notation(action))
    assert len(set(chosen)) == 1, chosen
