"""Levels differ: in a position with one obvious winning move, hard always finds it and easy
sometimes misses it (easy skips the search now and then for a random or quick move)."""

from __future__ import annotations

from bot.ai import LEVELS, choose_action
from bot.engine.argoat.data import FRAGMENT_KEYS
from tests.argoat.argoat_helpers import BASE, marker, scenario
from tests.argoat.argoat_helpers import setup as seat_setup

WIN = {"type": "move", "dir": "N"}


def eden_next_door():
    """Ann holds all eight Fragments, stands on the Forgotten Temple (0,1) and has seen that the
    Dark Forest just north of it (0,2) hides Eden: ``move N`` then ``end`` wins. Moving South
    (the Town), or riding away, does not."""
    game = scenario(BASE, n=2, forests=[("0,2", "S", "Eden")])
    seat_setup(game, "ann", at="0,1", fragments=FRAGMENT_KEYS, emeralds=2)
    marker(game, "0,2", "ann")
    legal = game.legal_actions("ann")
    assert WIN in legal and len(legal) >= 2
    return game


def test_the_winning_position_is_won_by_moving_north_then_ending():
    game = eden_next_door()
    game.apply("ann", WIN)
    game.apply("ann", {"type": "end"})
    result = game.result()
    assert result is not None and result.winners == ("ann",)


def test_hard_always_finds_the_winning_move_and_easy_sometimes_misses_it():
    game = eden_next_door()
    hard = [choose_action(game, "ann", level="hard", seed=s, iterations=80) for s in range(12)]
    assert all(a == WIN for a in hard)
    easy = [choose_action(game, "ann", level="easy", seed=s, iterations=80) for s in range(40)]
    misses = sum(a != WIN for a in easy)
    assert 1 <= misses <= 20, misses


def test_levels_get_more_time_as_they_get_harder():
    assert LEVELS["easy"].budget_s < LEVELS["normal"].budget_s < LEVELS["hard"].budget_s
    assert LEVELS["easy"].budget_s <= 0.3 and LEVELS["hard"].budget_s <= 2.0
    assert LEVELS["easy"].mistakes > 0 and LEVELS["hard"].mistakes == 0
