"""No aimless play: an Argo bot with an Astronaut on a Warehouse it has not used cashes it in
(the evaluation counts a Warehouse Activation in reach, and more once it is banked)."""

from __future__ import annotations

from bot.ai import choose_action
from bot.ai.greedy import greedy_action
from bot.engine.argo.data import WAREHOUSE
from bot.engine.core import SYSTEM, TIMEOUT
from tests.argo.argo_board import player, setup

STATION = {
    "N1": "Corridor-I NS",
    "N2": "Corridor-T ESW",
    "N2E1": "Corridor-I EW",
    "E1": "Corridor-I EW",
    "E2": "Warehouse W",
    "S1": "Corridor-I NS",
    "S2": "Corridor-I NS",
}


def test_a_bot_on_an_unused_warehouse_activates_it_within_two_turns():
    for level in ("normal", "hard"):
        for seed in range(3):
            people = {"Blue-Pilot": "E2", "Blue-Grunt": "S1", "Yellow-Grunt": "N1"}
            game = setup(STATION, astronauts=people, turn=5)
            blue = player(game, "Blue")
            warehouse = next(t for t in game.st.pos if game.st.kind(t) == WAREHOUSE)
            start = game.st.turn
            while game.st.turn < start + 4 and game.result() is None:  # two turns each
                prompt = game.prompt()
                if prompt.player is None:
                    game.apply(SYSTEM, dict(TIMEOUT))
                    continue
                if prompt.player == blue:
                    action = choose_action(game, blue, level=level, seed=seed, iterations=100)
                else:
                    action = greedy_action(game, prompt.player, seed)
                game.apply(prompt.player, action)
            assert 0 in game.st.tokens.get(warehouse, ()), (level, seed)
            assert game.st.scores[0] >= 2, (level, seed)
