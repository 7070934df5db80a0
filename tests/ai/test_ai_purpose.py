"""No aimless play: an Argo bot with an Astronaut on a Warehouse it has not used cashes it in
(the evaluation counts a Warehouse Activation in reach, and more once it is banked); Argoat bots
do not shuttle between two cells without gaining anything."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.ai import choose_action
from bot.ai.argoat import ArgoatPolicy
from bot.ai.greedy import greedy_action
from bot.arena import Repetitions, SeatRecord
from bot.engine.argo.data import WAREHOUSE
from bot.engine.argoat import ArgoatGame
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


POSITIONS = Path(__file__).parent / "positions"
SHUTTLES = {
    "argoat_shuttle.json": "saved from bot-vs-bot play of the code before issue 24 (hard, 150 "
    "iterations, game seed 11, turn 11): both bots hold the Moon and 3 Emeralds and shuttled between "
    "the Temple (another turn) and the Tower (the Moon they have), 7 turns in a row from here",
    "argoat_temple_bounce.json": "saved from the same play of issue 24's first version (game seed "
    "23, turn 16): both bots walk in and out of the Hermit's dead end through the Temple, short of "
    "the Ruler at the Dark Dragon four steps away, 6 turns in a row in 3 of these 4 seeds",
    "argoat_palace.json": "saved from the same play with the pruning of steps that lead nowhere "
    "(game seed 17, turn 3): both bots walk between the Temple and the Jeweled Palace, taking an "
    "Emerald from each other, rather than to the Town, whose Emerald comes after placing the drawn "
    "Frontier (the pruning's look-ahead stopped before it): runs of 6-7 in 3 of these 4 seeds",
}


def longest_repeat_runs(game: ArgoatGame, seed: int, turns: int = 10) -> dict[str, int]:
    """Both seats played by ``hard`` (150 iterations) until each has ended ``turns`` turns: per
    seat, the most turns in a row it ended in a public position it had ended a turn in before."""
    seats = {p: SeatRecord("hard", False, 0) for p in game.players}
    repetitions = Repetitions()
    last = game.view(None)
    steps = 0
    while game.result() is None and min(r.turn_ends for r in seats.values()) < turns and steps < 600:
        deciders = [p for p in game.prompt().deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, dict(TIMEOUT))
        else:
            action = choose_action(game, deciders[0], level="hard", seed=seed * 7919 + steps, iterations=150)
            game.apply(deciders[0], action or game.legal_actions(deciders[0])[0])
            steps += 1
        view = game.view(None)
        if view["turn"] != last["turn"]:
            repetitions.turn_ended(seats[last["active"]], last["active"], view)
        last = view
    return {p: r.longest_repeat_run for p, r in seats.items()}


@pytest.mark.parametrize("name", sorted(SHUTTLES))
def test_argoat_bots_do_not_shuttle_from_saved_shuttles(name):
    for seed in range(4):
        game = ArgoatGame.from_json(json.loads((POSITIONS / name).read_text()))
        runs = longest_repeat_runs(game, seed)
        assert max(runs.values()) <= 2, (name, seed, runs, SHUTTLES[name])


def test_only_a_short_search_drops_the_steps_that_lead_nowhere():
    game = ArgoatGame.from_json(json.loads((POSITIONS / "argoat_temple_bounce.json").read_text()))
    player = game.prompt().player
    legal = game.legal_actions(player)
    policy = ArgoatPolicy()
    every = policy.root_candidates(game, player, legal, random.Random(0))
    short = policy.root_candidates(game, player, legal, random.Random(0), short=True)
    assert [game.notation(a) for a in every] == ["move N", "move S"]  # to the Town, or away
    assert [game.notation(a) for a in short] == ["move N"]
