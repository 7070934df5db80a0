"""Movement: connectors, capacity, pushing, Aliens on entry, Teleporters, Explorer, Robot."""

from __future__ import annotations

import pytest
from argo_board import alien_cells, notations, play, player, setup, where

from bot.engine.core import IllegalAction

# WR at the centre; N1 is a T-corridor open N, E, S.
BASE = {
    "N1": "Corridor-T NES",
    "N2": "Corridor-I NS",
    "N1E1": "Corridor-L SW",
    "E1": "Corridor-L NW",
}


def test_moves_only_through_facing_connectors():
    game = setup(
        {"N1": "Corridor-I NS", "E1": "Corridor-L NW", "N1E1": "Corridor-I NS"},
        astronauts={"Blue-Grunt": "N1", "Blue-Robot": "E1"},
    )
    moves = notations(game, "Blue")
    assert "move Grunt WR" in moves
    assert "move Grunt N1E1" not in moves  # a wall between N1 and N1E1
    assert "move Robot N1E1" in moves  # E1's north door faces N1E1's south door
    with pytest.raises(IllegalAction):
        play(game, "Blue", "move Grunt N1E1")


def test_waking_room_has_no_capacity_limit():
    game = setup(BASE, astronauts={"Blue-Grunt": "N1"})
    assert len(game.st.occ[0]) == 9
    events = play(game, "Blue", "move Grunt WR")
    assert "push" not in [e.kind for e in events]
    assert len(game.st.occ[0]) == 10 and game.st.pending is None


def test_push_is_decided_step_by_step_and_can_be_cancelled():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"})
    before = game.to_json()
    play(game, "Blue", "move Grunt N1")
    prompt = game.prompt()
    assert prompt.player == player(game, "Blue") and "full" in prompt.text
    assert sorted(notations(game, "Blue")) == ["cancel", "push Yellow-Chief N1E1", "push Yellow-Chief N2"]
    # nothing has changed yet
    assert where(game, "Blue-Grunt") == "WR"
    play(game, "Blue", "cancel")
    assert game.to_json()["loc"] == before["loc"]
    assert game.prompt().text.startswith("<p:p0> (Blue): action 1")
    play(game, "Blue", "move Grunt N1", "push Yellow-Chief N2")
    assert where(game, "Blue-Grunt") == "N1"
    assert where(game, "Yellow-Chief") == "N2"


def test_push_never_back_to_the_pushers_tile_nor_into_a_dead_end():
    tiles = {"N1": "Corridor-T NES", "N2": "Corridor-end-alien S", "N1E1": "Corridor-end-alien W"}
    game = setup(tiles, astronauts={"Yellow-Chief": "N1", "Yellow-Explorer": "N2", "Yellow-Robot": "N1E1"})
    moves = notations(game, "Blue")
    assert not any(m.startswith("move Grunt N1") for m in moves)
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(player(game, "Blue"), {"type": "move", "astronaut": 0, "path": [game.st.cell[(0, -1)]]})
    assert game.to_json() == before


def test_push_chain_and_push_into_the_waking_room():
    game = setup(BASE, astronauts={"Blue-Grunt": "N2", "Yellow-Chief": "N1", "Yellow-Pilot": "N1E1"})
    play(game, "Blue", "move Grunt N1")
    # from N1 the Chief may go to N1E1 (full) or the Waking Room, never back to N2
    assert sorted(notations(game, "Blue")) == ["cancel", "push Yellow-Chief N1E1", "push Yellow-Chief WR"]
    play(game, "Blue", "push Yellow-Chief N1E1")
    # the Pilot in N1E1 can only be pushed on to E1 (not back to N1): forced, so automatic
    assert where(game, "Yellow-Chief") == "N1E1"
    assert where(game, "Yellow-Pilot") == "E1"
    assert game.prompt().text.startswith("<p:p0> (Blue): action 2")


def test_pushed_into_an_escape_pod_takes_a_seat():
    tiles = {"N1": "Corridor-T NES", "N1E1": "Pod-1/2 W", "N2": "Corridor-end-alien S"}
    game = setup(tiles, astronauts={"Yellow-Chief": "N1", "Yellow-Grunt": "N2"})
    play(game, "Blue", "move Robot N1")
    assert where(game, "Yellow-Chief") == "pod:N1E1"


def test_entering_a_tile_with_an_alien_kills_and_scores():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"}, aliens=["N2"])
    events = play(game, "Blue", "move Pilot N1", "push Yellow-Chief N2")
    kill = next(e for e in events if e.kind == "kill")
    assert where(game, "Yellow-Chief") == "dead"
    assert kill.data["points"] == 2 and kill.data["scorer"] == "p0"
    assert game.st.scores == [2, 0]
    assert alien_cells(game) == ["N2"]


def test_own_astronaut_walking_into_an_alien_scores_nothing():
    game = setup(BASE, astronauts={"Blue-Pilot": "N1"}, aliens=["N2"])
    events = play(game, "Blue", "move Pilot N2")
    assert where(game, "Blue-Pilot") == "dead"
    assert game.st.scores == [0, 0]
    assert not any("points" in e.data for e in events)
    assert game.st.track == [3]


def test_grunt_kills_the_alien_when_moved_or_pushed_in():
    game = setup(BASE, astronauts={"Blue-Grunt": "N1"}, aliens=["N2"])
    play(game, "Blue", "move Grunt N2")
    assert alien_cells(game) == [] and where(game, "Blue-Grunt") == "N2"
    assert game.st.scores == [1, 0]
    game = setup(BASE, astronauts={"Yellow-Grunt": "N1"}, aliens=["N2"])
    play(game, "Blue", "move Robot N1", "push Yellow-Grunt N2")
    assert alien_cells(game) == [] and where(game, "Yellow-Grunt") == "N2"
    assert game.st.scores == [1, 0]


def test_robot_ignores_aliens():
    game = setup(BASE, astronauts={"Blue-Robot": "N1"}, aliens=["N2"])
    play(game, "Blue", "move Robot N2")
    assert where(game, "Blue-Robot") == "N2" and alien_cells(game) == ["N2"]


def test_explorer_moves_up_to_two_tiles_through_a_full_tile():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"})
    moves = notations(game, "Blue")
    assert "move Explorer N1>N2" in moves and "move Explorer N1>N1E1" in moves
    assert "move Explorer N1>WR" not in moves  # not back to where she started
    play(game, "Blue", "move Explorer N1>N2")
    assert where(game, "Blue-Explorer") == "N2" and where(game, "Yellow-Chief") == "N1"


def test_explorer_stops_on_an_alien_teleporter_or_pod():
    tiles = dict(BASE, N2="Teleporter NS")
    game = setup(tiles, aliens=["N1E1"])
    moves = notations(game, "Blue")
    assert "move Explorer N1>N1E1" in moves
    assert not any(m.startswith("move Explorer N1>N1E1>") for m in moves)
    assert not any(m.startswith("move Explorer N1>N2>") for m in moves)
    game = setup(dict(BASE, N1="Corridor-X NESW"), aliens=["N1"])
    assert not any(m.startswith("move Explorer N1>") for m in notations(game, "Blue"))


TELE = {
    "N1": "Corridor-I NS",
    "N2": "Teleporter NS",
    "S1": "Corridor-I NS",
    "S2": "Teleporter NS",
    "S3": "Corridor-I NS",
}


def test_teleporter_sends_the_entering_astronaut_to_the_players_choice():
    game = setup(TELE, astronauts={"Blue-Chief": "N1"})
    play(game, "Blue", "move Chief N2")
    assert sorted(notations(game, "Blue")) == ["cancel", "teleport S2", "teleport WR"]
    events = play(game, "Blue", "teleport S2")
    assert where(game, "Blue-Chief") == "S2"
    assert "teleport" in [e.kind for e in events]


def test_teleport_happens_before_the_alien_and_pushes_on_arrival():
    game = setup(TELE, astronauts={"Blue-Chief": "N1", "Yellow-Pilot": "S2"}, aliens=["N2"])
    play(game, "Blue", "move Chief N2", "teleport S2")
    # S2 is full: the Pilot is pushed to S1 or S3 (both fine)
    assert sorted(notations(game, "Blue")) == ["cancel", "push Yellow-Pilot S1", "push Yellow-Pilot S3"]
    play(game, "Blue", "push Yellow-Pilot S3")
    assert where(game, "Blue-Chief") == "S2" and where(game, "Yellow-Pilot") == "S3"
    assert alien_cells(game) == ["N2"]


def test_teleported_onto_an_alien_is_killed():
    game = setup(TELE, astronauts={"Blue-Pilot": "N1"}, aliens=["S2"])
    play(game, "Blue", "move Pilot N2", "teleport S2")
    assert where(game, "Blue-Pilot") == "dead"


def test_pushed_into_a_teleporter_is_teleported():
    game = setup(TELE, astronauts={"Yellow-Pilot": "N1"})
    play(game, "Blue", "move Grunt N1")
    assert sorted(notations(game, "Blue")) == ["cancel", "teleport S2", "teleport WR"]
    play(game, "Blue", "teleport S2")
    assert where(game, "Yellow-Pilot") == "S2"


def test_leaving_a_teleporter_does_not_teleport():
    game = setup(TELE, astronauts={"Blue-Pilot": "N2"})
    play(game, "Blue", "move Pilot N1")
    assert where(game, "Blue-Pilot") == "N1"


def test_aliens_are_never_teleported():
    game = setup(TELE, aliens=["N1"], phase="alien")
    play(game, "Blue", "move Alien N1 N2")
    assert alien_cells(game) == ["N2"]


def test_deep_space_variant():
    one = {"N1": "Corridor-I NS", "N2": "Teleporter NS"}
    game = setup(one, astronauts={"Yellow-Chief": "N1"}, options={"deep_space": "on"})
    events = play(game, "Blue", "move Pilot N1")
    assert where(game, "Yellow-Chief") == "dead"
    assert game.st.scores == [2, 0]
    assert any("deep space" in e.text for e in events)
    # without the variant the lone Teleporter sends to the Waking Room
    game = setup(one, astronauts={"Yellow-Chief": "N1"})
    play(game, "Blue", "move Pilot N1")
    assert where(game, "Yellow-Chief") == "WR"
    # with two Teleporters in the variant: only the other Teleporter, never the Waking Room
    game = setup(TELE, astronauts={"Blue-Chief": "N1"}, options={"deep_space": "on"})
    play(game, "Blue", "move Chief N2")
    assert where(game, "Blue-Chief") == "S2"


def test_grunt_teleported_onto_an_alien_kills_it():
    game = setup(TELE, astronauts={"Blue-Grunt": "N1"}, aliens=["S2"])
    play(game, "Blue", "move Grunt N2", "teleport S2")
    assert where(game, "Blue-Grunt") == "S2" and alien_cells(game) == []
    assert game.st.scores == [1, 0]
