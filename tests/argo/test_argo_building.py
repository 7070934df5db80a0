"""The Building phase: what may be placed where, Aliens on new tiles, the display, the end."""

from __future__ import annotations

import pytest
from argo_board import alien_cells, notations, play, player, setup

from bot.engine.argo.station import connected
from bot.engine.core import IllegalAction

LINE = {"N1": "Corridor-I NS", "N2": "Corridor-I NS", "N3": "Corridor-I NS"}


def builds(game, colour="Blue"):
    return [n for n in notations(game, colour) if n.startswith("build")]


def test_module_must_connect_by_facing_connectors():
    game = setup(LINE, phase="build", display=["Lab", "Warehouse", "Corridor-X"], pods=[])
    options = builds(game)
    # the Warehouse has a single door: it must face a door of the station
    assert "build Warehouse N4 doors-S" in options
    assert "build Warehouse N4 doors-N" not in options
    assert "build Warehouse N1E1 doors-W" not in options  # N1 has no east door
    # a new tile may open dead ends on its other sides
    assert "build Lab N4 doors-NES" in options
    for option in options:
        assert option.split()[1] in ("Lab", "Warehouse", "Corridor-X")
    play(game, "Blue", "build Warehouse N4 doors-S")
    assert connected(game.st)


def test_identical_rotations_are_offered_once():
    game = setup(LINE, phase="build", display=["Corridor-X", "Corridor-X-alien", "Lab"], pods=[])
    options = builds(game)
    assert options.count("build Corridor-X N4 doors-NESW") == 1
    assert len(options) == len(set(options))


def test_pod_must_be_three_tiles_away_from_the_waking_room():
    game = setup(LINE, phase="build", display=["Lab"], pods=["Pod-1/2"])
    pods = [n for n in builds(game) if "Pod" in n]
    assert pods == ["build Pod-1/2 N4 doors-S"]
    with pytest.raises(IllegalAction):
        game.apply(
            player(game, "Blue"), {"type": "build", "tile": game.st.pod_stack[0], "cell": [0, -2], "rot": 0}
        )


def test_module_never_connects_only_to_a_pod():
    tiles = dict(LINE, N4="Pod-1/2 S")
    game = setup(tiles, phase="build", display=["Corridor-X"], pods=[])
    cells = {n.split()[2] for n in builds(game)}
    assert "N5" not in cells and "N4E1" not in cells


def test_alien_symbol_brings_an_alien_unless_five_are_out():
    game = setup(LINE, phase="build", display=["Lab"], pods=[])
    play(game, "Blue", "build Lab N4 doors-NES")
    assert alien_cells(game) == ["N4"]
    tiles = dict(LINE, E1="Corridor-I EW", S1="Corridor-I NS", W1="Corridor-X NESW", E2="Corridor-X NESW")
    game = setup(tiles, phase="build", display=["Lab"], pods=[], aliens=["N1", "N2", "N3", "E1", "S1"])
    play(game, "Blue", "build Lab N4 doors-NES")
    assert "N4" not in alien_cells(game) and len(alien_cells(game)) == 5


def test_display_is_refilled_and_the_reveal_is_an_undo_barrier():
    game = setup(
        LINE, phase="build", display=["Lab", "Warehouse", "Laser"], stack=["Infirmary", "Jump-Room"], pods=[]
    )
    events = play(game, "Blue", "build Lab N4 doors-NES")
    view = game.view(None)
    assert [d["token"] for d in view["display"]] == ["Infirmary", "Warehouse", "Laser"]
    assert view["stack_size"] == 1
    assert "reveal" in [e.kind for e in events]
    assert "undo" not in notations(game, "Blue")


def test_building_a_pod_takes_the_top_of_the_face_up_pod_stack():
    game = setup(LINE, phase="build", display=["Lab"], pods=["Pod-1/2", "Pod-2/3"])
    options = builds(game)
    assert not any("Pod-2/3" in o for o in options)
    play(game, "Blue", "build Pod-1/2 N4 doors-S")
    assert game.view(None)["pods"]["next"]["token"] == "Pod-2/3"
    assert "undo" in notations(game, "Blue")  # nothing was revealed


def test_building_is_skipped_when_nothing_is_left():
    game = setup(LINE, phase="build", display=[], stack=[], pods=[])
    assert game.view(None)["phase"] == "actions"
    assert game.view(None)["final_turns_left"] is not None


def test_last_tile_starts_the_final_round():
    game = setup(LINE, phase="build", display=["Lab"], stack=[], pods=[])
    events = play(game, "Blue", "build Lab N4 doors-NES")
    assert "final" in [e.kind for e in events]
    assert game.view(None)["final_turns_left"] == 3  # this turn, then one more each
