"""Turn structure: phases in order, the two actions and their combinations, the first turn."""

from __future__ import annotations

from argo_board import notations, play, player, setup, where

from bot.engine.argo import ArgoGame

STATION = {
    "N1": "Corridor-I NS",
    "N2": "Warehouse S",
    "E1": "Corridor-T NEW",
    "N1E1": "Infirmary ESW",
    "E2": "Corridor-I EW",
}


def test_first_turn_is_one_move_only():
    game = ArgoGame.new(["a", "b", "c"], 11, {})
    first = game.prompt().player
    colour = game.view(None)["active_colour"]
    build = next(a for a in game.legal_actions(first) if a["type"] == "build")
    game.apply(first, build)
    options = game.legal_actions(first)
    assert {a["type"] for a in options} <= {"move", "undo"}
    move = next(a for a in options if a["type"] == "move")
    game.apply(first, move)
    view = game.view(None)
    assert view["active"] != first and view["active_colour"] != colour
    assert view["turn"] == 2


def test_first_round_has_no_activation():
    game = setup(STATION, astronauts={"Blue-Chief": "N2"}, turn=1)
    options = notations(game, "Blue")
    assert not any(o.startswith("activate") for o in options)
    assert game.view(None)["actions_allowed"] == 1


def test_two_moves_of_different_astronauts():
    game = setup(STATION)
    play(game, "Blue", "move Grunt N1")
    options = notations(game, "Blue")
    assert not any(o.startswith("move Grunt") for o in options)
    assert game.view(None)["actions_used"] == 1
    play(game, "Blue", "move Robot E1")
    assert game.view(None)["active_colour"] == "Yellow"


def test_move_then_activate_and_activate_then_move():
    game = setup(STATION, astronauts={"Blue-Chief": "N1"})
    play(game, "Blue", "move Chief N2", "activate Warehouse")
    assert game.st.scores[0] == 4
    assert game.view(None)["active_colour"] == "Yellow"
    game = setup(STATION, astronauts={"Blue-Chief": "N2"})
    play(game, "Blue", "activate Warehouse", "move Chief N1")
    assert where(game, "Blue-Chief") == "N1"
    assert game.view(None)["active_colour"] == "Yellow"


def test_activate_two_different_modules():
    game = setup(STATION, astronauts={"Blue-Pilot": "N2", "Blue-Chief": "N1E1"}, track=["Yellow-Grunt"])
    play(game, "Blue", "activate Warehouse")
    assert not any(o.startswith("activate Warehouse") for o in notations(game, "Blue"))
    play(game, "Blue", "activate Infirmary Yellow-Grunt")
    assert game.st.scores[0] == 2
    assert game.st.activations[0] == 2
    assert game.view(None)["active_colour"] == "Yellow"


def test_actions_are_mandatory():
    game = setup(STATION)
    assert all(a["type"] in ("move", "activate") for a in game.legal_actions(player(game, "Blue")))


def test_turn_order_is_clockwise_and_phases_run_in_order():
    game = setup(STATION, players=3, active="Red", aliens=["E2"], phase="actions", actions_used=1)
    play(game, "Red", "move Grunt N1")
    view = game.view(None)
    assert view["active_colour"] == "Blue"
    assert view["phase"] == "alien"
