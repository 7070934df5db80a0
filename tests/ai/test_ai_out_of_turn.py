"""Out-of-turn chances: None only for an optional chance, a pass instead of None when the game
waits; trade offers are answered by search (accept what helps, decline what hurts)."""

from __future__ import annotations

import pytest

from bot.ai import LEVEL_NAMES, choose_action, decide
from tests.argo.argo_board import player, setup
from tests.argoat.argoat_helpers import BASE, act, scenario
from tests.argoat.argoat_helpers import setup as seat_setup

STATION = {
    "N1": "Time-Machine NS",
    "N2": "Corridor-T ESW",
    "N2E1": "Corridor-I EW",
    "N2W1": "Corridor-I EW",
    "E1": "Corridor-I EW",
    "E2": "Warehouse W",
    "S1": "Corridor-I NS",
    "S2": "Corridor-I NS",
}


def time_machine_game(**options):
    return setup(
        STATION,
        astronauts={"Yellow-Pilot": "N1"},
        aliens=["N2E1", "S2"],
        begin=True,
        options=options,
    )


def test_an_optional_time_machine_chance_may_be_left():
    game = time_machine_game()
    blue, yellow = player(game, "Blue"), player(game, "Yellow")
    prompt = game.prompt()
    assert prompt.player == blue and prompt.others == (yellow,)
    legal = game.legal_actions(yellow)
    assert legal and all(a["type"] == "timemachine" for a in legal)
    answers = []
    for level in LEVEL_NAMES:
        for seed in range(3):
            action = choose_action(game, yellow, level=level, seed=seed, iterations=30)
            assert action is None or action in legal
            answers.append(action)
    assert choose_action(game, yellow, level="random", seed=0) is None
    # the main decider always gets an action
    for level in LEVEL_NAMES:
        assert choose_action(game, blue, level=level, seed=1, iterations=10) in game.legal_actions(blue)


def test_the_search_weighs_waiting_against_interrupting():
    game = time_machine_game()
    yellow = player(game, "Yellow")
    action, search = decide(game, yellow, level="hard", seed=2, iterations=120)
    assert search is not None
    assert "(wait)" in search.visits
    assert any(key.startswith("timemachine") for key in search.visits)
    best = max(search.visits, key=search.visits.get)
    assert (action is None) == (best == "(wait)")


def test_a_waiting_player_passes_rather_than_answer_none():
    game = time_machine_game(tm_wait=1)
    yellow = player(game, "Yellow")
    prompt = game.prompt()
    assert prompt.player is None and prompt.others == (yellow,)
    legal = game.legal_actions(yellow)
    assert {"type": "pass"} in legal
    for level in LEVEL_NAMES:
        for seed in range(3):
            action = choose_action(game, yellow, level=level, seed=seed, iterations=30)
            assert action is not None and action in legal


def offer(gives: list[str], asks: list[str]):
    """Ann (Red) offers Bob (Blue), both on the Town, a trade made of these parts."""
    game = scenario(BASE, n=2)
    seat_setup(game, "ann", fragments=["sun", "moon"], emeralds=2)
    seat_setup(game, "bob", fragments=["forge", "world"], emeralds=2)
    act(game, "ann", "trade Blue")
    for part in gives:
        act(game, "ann", f"trade give {part}")
    for part in asks:
        act(game, "ann", f"trade ask {part}")
    act(game, "ann", "trade propose")
    prompt = game.prompt()
    assert prompt.player == "bob" and prompt.others == ("ann",)
    return game


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_proposer_may_let_the_offer_stand(level):
    game = offer(["fragment Sun"], ["fragment Forge"])
    for seed in range(3):
        action = choose_action(game, "ann", level=level, seed=seed, iterations=20)
        assert action is None or action == {"type": "withdraw"}
        answer = choose_action(game, "bob", level=level, seed=seed, iterations=20)
        assert answer is not None and answer["type"] in ("accept", "decline")


def test_a_gift_is_accepted_and_a_robbery_declined():
    gift = offer(["fragment Sun", "fragment Moon"], [])
    robbery = offer([], ["fragment Forge", "fragment World", "emerald"])
    for seed in range(3):
        assert choose_action(gift, "bob", level="hard", seed=seed, iterations=60) == {"type": "accept"}
        assert choose_action(robbery, "bob", level="hard", seed=seed, iterations=60) == {"type": "decline"}
