"""No aimless play: an Argo bot with an Astronaut on a Warehouse it has not used cashes it in
(the evaluation counts a Warehouse Activation in reach, and more once it is banked); Argoat bots
do not shuttle between two cells without gaining anything."""

from __future__ import annotations

import json
from pathlib import Path

from bot.ai import choose_action
from bot.ai.greedy import greedy_action
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


SHUTTLE = Path(__file__).parent / "positions" / "argoat_shuttle.json"
"""A two-player Argoat game at turn 11, saved from bot-vs-bot play of the code before issue 24
(``hard`` at 150 iterations, game seed 11): both bots hold the Moon Fragment, 3 Emeralds and
nothing else, and from here shuttled between the Temple and the Tower (which gives the Moon
they have) turn after turn. From this position that code still shuttled for 8 turns in 4 of
these 5 seeds."""


def turn_ends(game: ArgoatGame, seed: int, turns: int = 8) -> dict[str, list[tuple[object, ...]]]:
    """Both seats played by ``hard`` (150 iterations) until each has ended ``turns`` turns: what
    each seat had at the end of each of its turns (cell, Emeralds, Fragments, Items, peeks, map
    size)."""
    ends: dict[str, list[tuple[object, ...]]] = {p: [] for p in game.players}
    s = game.state
    steps = 0
    while game.result() is None and min(len(e) for e in ends.values()) < turns and steps < 600:
        deciders = [p for p in game.prompt().deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, dict(TIMEOUT))
            continue
        seat, turn = s.seats[s.active], s.turn
        action = choose_action(game, deciders[0], level="hard", seed=seed * 7919 + steps, iterations=150)
        game.apply(deciders[0], action or game.legal_actions(deciders[0])[0])
        steps += 1
        if s.turn != turn:
            kept = (seat.emeralds, tuple(seat.fragments), tuple(seat.items), len(seat.peeks))
            ends[seat.id].append((seat.pos, *kept, len(s.frontiers)))
    return ends


def test_argoat_bots_do_not_shuttle_without_progress_from_a_saved_shuttle():
    for seed in range(5):
        game = ArgoatGame.from_json(json.loads(SHUTTLE.read_text()))
        for who, ends in turn_ends(game, seed).items():
            if game.result() is not None:
                break  # someone won: no shuttle there
            assert len(ends) >= 8, (seed, who)
            cells = {end[0] for end in ends[:8]}
            holdings = {end[1:] for end in ends[:8]}
            assert len(cells) > 2 or len(holdings) > 1, (seed, who, ends[0])
