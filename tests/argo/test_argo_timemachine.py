"""The Time Machine: out-of-turn interrupts, the waiting option, the rulebook example."""

from __future__ import annotations

import pytest
from argo_board import alien_cells, notations, play, player, setup, where

from bot.engine.core import SYSTEM, TIMEOUT, IllegalAction

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


def tm_game(**kw):
    kw.setdefault("astronauts", {"Yellow-Pilot": "N1"})
    kw.setdefault("aliens", ["N2E1", "S2"])
    return setup(STATION, begin=True, **kw)


def test_interrupt_at_the_start_of_another_players_turn():
    game = tm_game()
    prompt = game.prompt()
    assert prompt.player == player(game, "Blue")
    assert prompt.others == (player(game, "Yellow"),)
    assert prompt.others_label == "Time Machine"
    yellow = notations(game, "Yellow")
    assert "timemachine move Yellow-Pilot WR" in yellow
    assert all(n.startswith("timemachine ") for n in yellow)
    play(game, "Yellow", "timemachine move Yellow-Pilot WR")
    assert where(game, "Yellow-Pilot") == "WR"
    tm = next(t for t in game.view(None)["tiles"] if t["kind"] == "time_machine")
    assert tm["tokens"] == ["Yellow"]
    assert game.st.activations == [0, 1]
    # Blue resumes his Alien phase
    assert game.prompt().player == player(game, "Blue")
    assert game.view(None)["phase"] == "alien"


def test_rulebook_time_machine_example():
    """Blue wants to move Alien A; Yellow interrupts and moves the Pilot; Blue may choose anew."""
    game = tm_game(aliens=["N2W1", "N2", "S2"])
    play(game, "Blue", "move Alien N2W1 N2")  # Alien A pushes the Alien in N2: a decision
    assert game.st.pending is not None
    assert game.prompt().others == (player(game, "Yellow"),)
    play(game, "Yellow", "timemachine move Yellow-Pilot WR")
    # the chain was cancelled as a whole; Blue is back at the start of his Alien phase
    assert game.st.pending is None
    assert alien_cells(game) == ["N2", "N2W1", "S2"]
    options = notations(game, "Blue")
    assert "move Alien N2W1 N2" in options and "move Alien S2 S1" in options
    play(game, "Blue", "move Alien S2 S1")
    assert alien_cells(game) == ["N2", "N2W1", "S1"]


def test_interrupt_between_the_two_actions_and_not_during_own_turn():
    game = tm_game(aliens=["S2"])
    play(game, "Blue", "move Alien S2 S1")
    assert game.prompt().others == ()  # not between the Alien phase and the building
    build = next(n for n in notations(game, "Blue") if n.startswith("build"))
    play(game, "Blue", build)
    assert game.prompt().others == ()
    play(game, "Blue", "move Grunt E1")
    assert game.prompt().others == (player(game, "Yellow"),)
    play(game, "Yellow", "timemachine move Yellow-Pilot N2")
    assert "undo" not in notations(game, "Blue")  # the interrupt is an undo barrier
    play(game, "Blue", "move Robot N1")
    # Yellow's own turn: no Time Machine for Yellow
    assert game.view(None)["active_colour"] == "Yellow"
    assert not any(n.startswith("timemachine") for n in notations(game, "Yellow"))


def test_time_machine_activates_another_module_out_of_turn():
    game = tm_game(astronauts={"Yellow-Pilot": "N1", "Yellow-Chief": "E2"})
    assert "timemachine activate Warehouse" in notations(game, "Yellow")
    play(game, "Yellow", "timemachine activate Warehouse")
    assert game.st.scores == [0, 4]
    assert game.st.activations == [0, 2]


def test_time_machine_twice_per_game_by_different_players():
    game = tm_game(astronauts={"Yellow-Pilot": "N1"}, tokens={"N1": ["Yellow"]})
    assert game.prompt().others == ()
    game = tm_game(players=3, astronauts={"Yellow-Pilot": "N1", "Red-Pilot": "N1"}, tokens={"N1": ["Yellow"]})
    assert game.prompt().others == (player(game, "Red"),)


def test_waiting_option_holds_each_moment():
    game = tm_game(aliens=["S2"], options={"tm_wait": 2})
    prompt = game.prompt()
    assert prompt.player is None and prompt.timeout == 120
    assert prompt.others == (player(game, "Yellow"),)
    assert game.legal_actions(player(game, "Blue")) == []
    assert "pass" in notations(game, "Yellow")
    play(game, "Yellow", "pass")
    assert game.prompt().player == player(game, "Blue")
    assert game.prompt().others == ()  # the moment has passed
    play(game, "Blue", "move Alien S2 S1")
    build = next(n for n in notations(game, "Blue") if n.startswith("build"))
    play(game, "Blue", build, "move Grunt E1")
    assert game.prompt().player is None  # held again between the two actions
    game.apply(SYSTEM, TIMEOUT)
    assert game.prompt().player == player(game, "Blue")
    with pytest.raises(IllegalAction):
        game.apply(SYSTEM, TIMEOUT)


def test_interrupt_during_a_hold_then_hold_again_for_the_others():
    game = tm_game(
        players=3, aliens=["S2"], options={"tm_wait": 1}, astronauts={"Yellow-Pilot": "N1", "Red-Pilot": "N1"}
    )
    assert set(game.prompt().others) == {player(game, "Yellow"), player(game, "Red")}
    play(game, "Yellow", "timemachine move Yellow-Pilot WR")
    prompt = game.prompt()
    assert prompt.player is None and prompt.others == (player(game, "Red"),)
    play(game, "Red", "pass")
    assert game.prompt().player == player(game, "Blue")


def test_a_pass_is_an_undo_barrier():
    game = tm_game(aliens=["S2"], options={"tm_wait": 2})
    play(game, "Yellow", "pass")
    play(game, "Blue", "move Alien S2 S1")
    assert "undo" in notations(game, "Blue")  # own action after the barrier
    build = next(n for n in notations(game, "Blue") if n.startswith("build Pod"))
    play(game, "Blue", build, "move Grunt E1")
    assert game.prompt().player is None
    play(game, "Yellow", "pass")
    assert "undo" not in notations(game, "Blue")


def test_interrupter_may_cancel_his_interrupt():
    game = tm_game(astronauts={"Yellow-Pilot": "N1", "Blue-Chief": "N2"})
    before = game.to_json()
    play(game, "Yellow", "timemachine move Yellow-Pilot N2")
    assert game.prompt().player == player(game, "Yellow")
    assert "cancel" in notations(game, "Yellow")
    play(game, "Yellow", "cancel")
    assert game.to_json()["loc"] == before["loc"]
    assert game.prompt().player == player(game, "Blue")
    assert game.prompt().others == (player(game, "Yellow"),)
