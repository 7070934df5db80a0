"""Escape Pods and the Pilot."""

from __future__ import annotations

import pytest
from argo_board import kinds, notations, play, setup, where

from bot.engine.core import IllegalAction

PODS = {
    "N1": "Corridor-I NS",
    "N2": "Corridor-I NS",
    "N3": "Corridor-I NS",
    "N4": "Pod-2/4 S",
    "E1": "Corridor-I EW",
    "S1": "Corridor-I NS",
}


def test_first_astronaut_takes_the_lowest_seat_and_is_locked_in():
    game = setup(PODS, astronauts={"Blue-Chief": "N3"})
    play(game, "Blue", "move Chief N4")
    assert where(game, "Blue-Chief") == "pod:N4"
    chief = next(a for a in game.view(None)["astronauts"] if a["id"] == "Blue-Chief")
    assert (chief["seat"], chief["seat_value"]) == (0, 2)
    assert not any(n.startswith("move Chief") for n in notations(game, "Blue"))


def test_full_pod_takes_off_and_scores_seat_values_chief_double():
    game = setup(PODS, astronauts={"Blue-Grunt": "N3", "Yellow-Chief": "N4"})
    events = play(game, "Blue", "move Grunt N4")
    assert where(game, "Yellow-Chief") == "escaped" and where(game, "Blue-Grunt") == "escaped"
    assert game.st.scores == [4, 4]  # Grunt on the 4 seat; Chief doubles the 2 seat
    assert kinds(events).count("score") == 2
    view = game.view(None)
    assert view["players"][0]["escaped"] == 1
    assert view["pods"]["launched"][0]["occupants"] == ["Yellow-Chief", "Blue-Grunt"]


def test_pilot_announces_her_choice_on_entering_an_empty_pod():
    game = setup(PODS, astronauts={"Blue-Pilot": "N3"}, aliens=["S1"])
    options = [n for n in notations(game, "Blue") if n.startswith("move Pilot N4")]
    assert "move Pilot N4 stay" in options and "move Pilot N4 leave" in options
    relocations = [o for o in options if " relocate " in o]
    assert "move Pilot N4 relocate E2 doors-W" in relocations  # nearer than three tiles is fine
    assert "move Pilot N4 relocate S2 doors-N" not in relocations  # S1 holds an Alien
    assert "move Pilot N4 relocate N4 doors-S" not in relocations  # that is where it is


def test_pilot_leaves_alone():
    game = setup(PODS, astronauts={"Blue-Pilot": "N3"})
    events = play(game, "Blue", "move Pilot N4 leave")
    assert where(game, "Blue-Pilot") == "escaped"
    assert game.st.scores == [2, 0]
    assert "launch" in kinds(events)


def test_pilot_relocates_the_pod():
    game = setup(PODS, astronauts={"Blue-Pilot": "N3"})
    play(game, "Blue", "move Pilot N4 relocate E2 doors-W")
    assert where(game, "Blue-Pilot") == "pod:E2"
    coords = [t["coord"] for t in game.view(None)["tiles"]]
    assert "E2" in coords and "N4" not in coords


def test_pilot_stays_and_the_choice_is_final():
    game = setup(PODS, astronauts={"Blue-Pilot": "N3"})
    play(game, "Blue", "move Pilot N4 stay")
    assert where(game, "Blue-Pilot") == "pod:N4"
    assert not any("Pilot" in n for n in notations(game, "Blue"))


def test_pilot_entering_an_occupied_pod_has_no_choice():
    game = setup(PODS, astronauts={"Blue-Pilot": "N3", "Yellow-Grunt": "N4"})
    options = [n for n in notations(game, "Blue") if n.startswith("move Pilot N4")]
    assert options == ["move Pilot N4"]


def test_pilot_pushed_into_an_empty_pod_chooses_too():
    game = setup(PODS, astronauts={"Yellow-Pilot": "N3", "Blue-Grunt": "N2"})
    play(game, "Blue", "move Grunt N3")
    options = notations(game, "Blue")
    assert "push Yellow-Pilot N4 leave" in options
    play(game, "Blue", "push Yellow-Pilot N4 leave")
    assert where(game, "Yellow-Pilot") == "escaped"
    assert game.st.scores == [0, 2]


def test_move_without_the_announced_choice_is_refused():
    game = setup(PODS, astronauts={"Blue-Pilot": "N3"})
    before = game.to_json()
    pod = game.st.cell[(0, -4)]
    with pytest.raises(IllegalAction):
        game.apply("p0", {"type": "move", "astronaut": 3, "path": [pod]})
    assert game.to_json() == before


def test_pilot_may_turn_the_pod_in_place_towards_another_module():
    tiles = dict(PODS, N3="Corridor-T NES", N3E1="Corridor-L NW", N4E1="Corridor-L SW")
    game = setup(tiles, astronauts={"Blue-Pilot": "N3"})
    options = notations(game, "Blue")
    assert "move Pilot N4 relocate N4 doors-E" in options
