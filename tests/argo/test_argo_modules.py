"""Module Activation and every Module's effect."""

from __future__ import annotations

from argo_board import alien_cells, notations, play, setup, where

from bot.engine.argo.data import ALIEN_TRACKS
from bot.engine.argo.station import connected


def activations(game, colour="Blue"):
    return [n for n in notations(game, colour) if n.startswith("activate")]


HOUSE = {"N1": "Corridor-I NS", "N2": "Warehouse S", "E1": "Corridor-I EW"}


def test_activation_needs_an_own_astronaut_on_the_module():
    game = setup(HOUSE, astronauts={"Yellow-Chief": "N2"})
    assert activations(game) == []
    game = setup(HOUSE, astronauts={"Blue-Robot": "N2"})
    assert activations(game) == ["activate Warehouse"]
    play(game, "Blue", "activate Warehouse")
    tile = next(t for t in game.view(None)["tiles"] if t["coord"] == "N2")
    assert tile["tokens"] == ["Blue"]


def test_module_twice_per_game_by_different_players():
    game = setup(HOUSE, players=3, astronauts={"Blue-Robot": "N2"}, tokens={"N2": ["Blue"]})
    assert activations(game) == []  # Blue already activated it
    game = setup(HOUSE, players=3, astronauts={"Blue-Robot": "N2"}, tokens={"N2": ["Yellow"]})
    assert activations(game) == ["activate Warehouse"]
    game = setup(HOUSE, players=3, astronauts={"Blue-Robot": "N2"}, tokens={"N2": ["Yellow", "Red"]})
    assert activations(game) == []  # two tokens: exhausted


def test_corridors_teleporters_core_and_safe_room_cannot_be_activated():
    tiles = {"N1": "Core-Room NESW", "N2": "Safe-Room NS", "E1": "Teleporter NS", "W1": "Corridor-X NESW"}
    game = setup(tiles, astronauts={"Blue-Chief": "N1", "Blue-Pilot": "N2", "Blue-Grunt": "W1"})
    assert activations(game) == []


def test_warehouse_scores_two_or_four_with_the_chief():
    game = setup(HOUSE, astronauts={"Blue-Pilot": "N2"})
    play(game, "Blue", "activate Warehouse")
    assert game.st.scores[0] == 2
    game = setup(HOUSE, astronauts={"Blue-Pilot": "N2", "Blue-Chief": "N2"})
    events = play(game, "Blue", "activate Warehouse")
    assert game.st.scores[0] == 4
    assert events[0].data["points"] == 4


LAB = {
    "N1": "Corridor-I NS",
    "N2": "Lab NES",
    "N3": "Corridor-I NS",
    "N2E1": "Corridor-L SW",
    "S1": "Control-Room NS",
    "S2": "Safe-Room NS",
}


def test_lab_swaps_an_astronaut_and_an_alien_and_the_alien_kills():
    game = setup(
        LAB, astronauts={"Blue-Pilot": "N2", "Yellow-Chief": "S1", "Yellow-Explorer": "S1"}, aliens=["N3"]
    )
    options = activations(game)
    assert "activate Lab Yellow-Explorer N3" in options
    play(game, "Blue", "activate Lab Yellow-Explorer N3")
    assert where(game, "Yellow-Explorer") == "N3"
    assert alien_cells(game) == ["S1"]
    assert where(game, "Yellow-Chief") == "dead"
    assert game.st.scores[0] == 2


def test_lab_limits():
    game = setup(LAB, astronauts={"Blue-Robot": "N2", "Yellow-Pilot": "N1"}, aliens=["N3"])
    assert activations(game) == []  # a Robot cannot activate the Lab
    game = setup(
        LAB,
        astronauts={"Blue-Pilot": "N2", "Yellow-Robot": "N1", "Yellow-Chief": "S2", "Red-Grunt": "N2E1"},
        players=3,
        aliens=["N3"],
    )
    options = activations(game)
    assert not any("Robot" in o for o in options)  # Robots are never swapped
    assert not any("Yellow-Chief" in o for o in options)  # no Alien into the Safe Room
    assert not any(" Grunt " in o for o in options if "Blue" in o)
    # nobody in the Waking Room can be swapped either
    assert not any(o.endswith("WR") for o in options)
    assert "activate Lab Red-Grunt N3" in options


def test_lab_swap_on_a_teleporter_does_not_teleport():
    tiles = dict(LAB, N3="Teleporter NS", S3="Teleporter NS")
    tiles["S2"] = "Corridor-I NS"
    game = setup(tiles, astronauts={"Blue-Pilot": "N2", "Yellow-Chief": "N1"}, aliens=["N3"])
    play(game, "Blue", "activate Lab Yellow-Chief N3")
    assert where(game, "Yellow-Chief") == "N3"
    assert alien_cells(game) == ["N1"]


def test_lab_swap_into_a_full_tile_pushes_and_is_offered_only_if_the_push_can_end():
    # The Astronaut arrives on the Alien's tile first; if it is full he pushes as in a Move.
    tiles = dict(LAB, E2="Corridor-end W", E1="Corridor-L NE", N1E1="Corridor-end S")
    del tiles["N2E1"]
    people = {"Blue-Pilot": "N2", "Yellow-Chief": "E2", "Yellow-Grunt": "E1", "Yellow-Explorer": "N1E1"}
    game = setup(tiles, astronauts=people, aliens=["E2", "N3"])
    options = activations(game)
    # for the Pilot, E2 -> E1 -> N1E1 is a dead end, all full: no swap with the Alien on E2
    assert "activate Lab Pilot E2" not in options
    assert "activate Lab Pilot N3" in options
    # a Yellow Astronaut of the chain frees his own tile (the Alien takes it): the chain ends there
    assert "activate Lab Yellow-Grunt E2" in options and "activate Lab Yellow-Explorer E2" in options
    # with room at the end of the chain the swap is offered, and the Chief is pushed out
    people["Yellow-Explorer"] = "WR"
    game = setup(tiles, astronauts=people, aliens=["E2", "N3"])
    assert "activate Lab Pilot E2" in activations(game)
    play(game, "Blue", "activate Lab Pilot E2")
    assert where(game, "Blue-Pilot") == "E2"
    assert where(game, "Yellow-Chief") == "E1"
    assert where(game, "Yellow-Grunt") == "N1E1"


CONTROL = {
    "N1": "Corridor-I NS",
    "N2": "Control-Room NS",
    "E1": "Corridor-I EW",
    "S1": "Corridor-I NS",
    "S2": "Corridor-I NS",
    "S3": "Pod-1/2 N",
}


def test_control_room_moves_a_tile_with_its_contents():
    game = setup(CONTROL, astronauts={"Blue-Pilot": "N2", "Yellow-Chief": "E1"}, aliens=["E1"])
    options = activations(game)
    assert "activate Control-Room E1 W1 doors-EW" in options
    play(game, "Blue", "activate Control-Room E1 W1 doors-EW")
    assert where(game, "Yellow-Chief") == "W1"
    assert alien_cells(game) == ["W1"]


def test_control_room_never_splits_the_station_nor_moves_pods_or_waking_room():
    game = setup(CONTROL, astronauts={"Blue-Pilot": "N2"})
    options = activations(game)
    assert not any(o.startswith("activate Control-Room WR") for o in options)
    assert not any(o.startswith("activate Control-Room S3 ") for o in options)
    # N1 holds the Control Room to the station; S2 holds the Pod
    assert not any(o.startswith("activate Control-Room N1 ") for o in options)
    assert not any(o.startswith("activate Control-Room S2 ") for o in options)
    assert "activate Control-Room E1 E1 doors-NS" not in options  # would cut E1 off
    # turning the Control Room itself around keeps it connected by its south door only
    assert "activate Control-Room N2 N2 doors-NS" not in options  # no change at all
    for option in options:
        trial = setup(CONTROL, astronauts={"Blue-Pilot": "N2"})
        play(trial, "Blue", option)
        assert connected(trial.st)


JUMP = {
    "N1": "Jump-Room NESW",
    "N2": "Corridor-I NS",
    "N3": "Corridor-I NS",
    "N4": "Corridor-I NS",
    "N5": "Corridor-I NS",
}


def test_jump_room_moves_the_activator_twice_as_one_action():
    game = setup(JUMP, astronauts={"Blue-Grunt": "N1"})
    play(game, "Blue", "activate Jump-Room Grunt")
    assert "move Grunt N2" in notations(game, "Blue")
    play(game, "Blue", "move Grunt N2")
    play(game, "Blue", "move Grunt N3")
    assert where(game, "Blue-Grunt") == "N3"
    assert game.view(None)["actions_used"] == 1


def test_jump_room_second_move_is_part_of_the_effect_not_optional():
    # "Activate the Jump Room to Move the Astronaut that Activated it twice."
    game = setup(JUMP, astronauts={"Blue-Grunt": "N1"})
    play(game, "Blue", "activate Jump-Room Grunt", "move Grunt N2")
    assert game.st.pending is not None  # the effect is not over after one Move
    assert sorted(notations(game, "Blue")) == ["cancel", "move Grunt N1", "move Grunt N3"]
    assert "pass" not in notations(game, "Blue")


def test_jump_room_second_move_is_skipped_only_when_none_exists():
    # The Grunt jumps into a Teleporter and arrives in the other one, whose only door leads into
    # a full dead end: no second Move exists, so the effect ends after one Move.
    tiles = {
        "N1": "Jump-Room NESW",
        "N2": "Teleporter NS",
        "E3": "Teleporter EW",
        "E2": "Corridor-end E",
    }
    game = setup(tiles, astronauts={"Blue-Grunt": "N1", "Yellow-Chief": "E2"})
    play(game, "Blue", "activate Jump-Room Grunt", "move Grunt N2")
    assert sorted(notations(game, "Blue")) == ["cancel", "teleport E3", "teleport WR"]
    events = play(game, "Blue", "teleport E3")
    assert where(game, "Blue-Grunt") == "E3"
    assert game.st.pending is None
    assert any(e.kind == "move" and "no second move" in e.text for e in events)
    assert game.view(None)["actions_used"] == 1
    # arriving in the Waking Room instead leaves one second Move (back to N1): it is made
    game = setup(tiles, astronauts={"Blue-Grunt": "N1", "Yellow-Chief": "E2"})
    events = play(game, "Blue", "activate Jump-Room Grunt", "move Grunt N2", "teleport WR")
    assert where(game, "Blue-Grunt") == "N1"
    assert not any("no second move" in e.text for e in events)


def test_jump_room_explorer_moves_two_by_two():
    game = setup(JUMP, astronauts={"Blue-Explorer": "N1"})
    play(game, "Blue", "activate Jump-Room Explorer", "move Explorer N2>N3", "move Explorer N4>N5")
    assert where(game, "Blue-Explorer") == "N5"


LASER = {
    "N1": "Laser NES",
    "N2": "Control-Room EW",  # a Room behind the Laser's north wall (its doors face W and N2E1)
    "N2E1": "Corridor-L SW",
    "N1E1": "Corridor-X NESW",
    "E1": "Corridor-T NEW",
    "E2": "Corridor-T NEW",
    "N1E2": "Infirmary ESW",
    "W1": "Corridor-L NE",
    "N1W1": "Teleporter NS",
}


def test_laser_kills_an_alien_in_a_room_orthogonally_adjacent_to_your_astronauts():
    # "Activate to kill an Alien in a Room orthogonally adjacent to one of your Astronauts or to
    # your Robot."
    game = setup(
        LASER,
        astronauts={"Blue-Grunt": "N1", "Blue-Robot": "E2"},
        aliens=["N2", "N1E2", "N1E1", "N1W1"],
    )
    options = activations(game)
    # N2 (Control Room) is next to the Laser across a wall; N1E2 (Infirmary) is next to the
    # Robot on E2; N1W1 (a Teleporter) is a Room too. N1E1 (a Corridor) is not a Room.
    assert sorted(options) == ["activate Laser N1E2", "activate Laser N1W1", "activate Laser N2"]
    play(game, "Blue", "activate Laser N1E2")
    assert alien_cells(game) == ["N1E1", "N1W1", "N2"]
    assert game.st.scores[0] == 1


def test_laser_shoots_an_alien_on_a_teleporter_but_not_in_a_corridor():
    # The rulebook calls the Teleporter a Room ("before the Astronaut actually enters the Room");
    # only Corridors are not Rooms.
    game = setup(LASER, astronauts={"Blue-Grunt": "N1"}, aliens=["N1E1", "N1W1"])
    assert activations(game) == ["activate Laser N1W1"]
    play(game, "Blue", "activate Laser N1W1")
    assert alien_cells(game) == ["N1E1"]
    assert game.st.scores[0] == 1
    game = setup(LASER, astronauts={"Blue-Grunt": "N1"}, aliens=["N1E1"])
    assert activations(game) == []


def test_robot_cannot_fire_the_laser():
    game = setup(LASER, astronauts={"Blue-Robot": "N1"}, aliens=["N2"])
    assert activations(game) == []


INFIRMARY = {"N1": "Infirmary NES", "E1": "Corridor-I EW"}


def test_infirmary_revives_and_the_alien_score_drops():
    game = setup(
        INFIRMARY, astronauts={"Blue-Pilot": "N1"}, track=["Yellow-Grunt", "Blue-Chief", "Yellow-Pilot"]
    )
    values = ALIEN_TRACKS[2]
    assert game.view(None)["alien_track"]["score"] == values[2 + 3]
    assert sorted(activations(game)) == [
        "activate Infirmary Chief",
        "activate Infirmary Yellow-Grunt",
        "activate Infirmary Yellow-Pilot",
    ]
    play(game, "Blue", "activate Infirmary Yellow-Grunt")
    assert where(game, "Yellow-Grunt") == "WR"
    track = game.view(None)["alien_track"]
    assert track["score"] == values[2 + 2]
    # the last Astronaut on the track fills the freed slot
    assert [s["astronaut"] for s in track["slots"][2:4]] == ["Yellow-Pilot", "Blue-Chief"]


SECURITY = {"N1": "Security-Center NE", "N1E1": "Pod-1/2 W", "E1": "Corridor-I EW"}


def test_security_center_launches_a_non_empty_pod():
    game = setup(SECURITY, astronauts={"Blue-Grunt": "N1", "Yellow-Chief": "N1E1"})
    assert activations(game) == ["activate Security-Center N1E1"]
    play(game, "Blue", "activate Security-Center N1E1")
    assert where(game, "Yellow-Chief") == "escaped"
    assert game.st.scores == [0, 2]
    game = setup(SECURITY, astronauts={"Blue-Grunt": "N1"})
    assert activations(game) == []  # an empty pod does not take off


def test_core_room_kills_astronauts_who_stayed_a_whole_turn():
    tiles = {"N1": "Core-Room NESW", "E1": "Corridor-I EW", "S1": "Corridor-I NS"}
    game = setup(
        tiles,
        astronauts={"Blue-Grunt": "N1", "Yellow-Chief": "N1"},
        begin=True,
        phase="build",
        pods=[],
        display=[],
        stack=[],
    )
    play(game, "Blue", "move Robot E1", "move Chief S1")
    assert where(game, "Blue-Grunt") == "dead"
    assert where(game, "Yellow-Chief") == "N1"  # only the active player's Astronauts
    assert game.st.scores == [0, 0]


def test_core_room_spares_astronauts_who_arrived_this_turn():
    tiles = {"N1": "Core-Room NESW", "E1": "Corridor-I EW", "N2": "Corridor-I NS"}
    game = setup(tiles, begin=True, phase="build", pods=[], display=[], stack=[])
    play(game, "Blue", "move Grunt N1", "move Robot E1")
    assert where(game, "Blue-Grunt") == "N1"
