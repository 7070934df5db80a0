"""The Alien phase: moving and pushing Aliens, Aliens killing, the Alien track."""

from __future__ import annotations

from argo_board import alien_cells, kinds, notations, play, player, setup, where

from bot.engine.argo.data import ALIEN_TRACKS

STATION = {
    "N1": "Corridor-I NS",
    "N2": "Lab NES",
    "N3": "Corridor-I NS",
    "N2E1": "Corridor-L SW",
    "S1": "Corridor-I NS",
    "S2": "Safe-Room NS",
    "E1": "Corridor-I EW",
    "E2": "Corridor-L NW",
}


def alien_game(**kw):
    kw.setdefault("phase", "alien")
    return setup(STATION, **kw)


def test_aliens_never_enter_waking_room_pods_or_safe_room():
    game = alien_game(aliens=["N1", "S1"])
    moves = notations(game, "Blue")
    assert moves == ["move Alien N1 N2"]  # S1 is stuck between the Waking Room and the Safe Room


def test_alien_move_is_mandatory_and_phase_order():
    game = alien_game(aliens=["E1"])
    assert game.view(None)["phase"] == "alien"
    assert sorted(notations(game, "Blue")) == ["move Alien E1 E2"]
    play(game, "Blue", "move Alien E1 E2")
    assert game.view(None)["phase"] == "build"
    options = notations(game, "Blue")
    assert "undo" in options
    assert all(n.startswith("build") for n in options if n != "undo")


def test_alien_pushes_alien_and_the_active_player_decides():
    game = alien_game(aliens=["N1", "N2"])
    play(game, "Blue", "move Alien N1 N2")
    assert sorted(notations(game, "Blue")) == ["cancel", "push Alien N2E1", "push Alien N3"]
    play(game, "Blue", "push Alien N3")
    assert alien_cells(game) == ["N2", "N3"]


def test_alien_push_into_a_dead_end_is_not_allowed():
    tiles = {"N1": "Corridor-I NS", "N2": "Corridor-end-alien S", "E1": "Corridor-I EW"}
    game = setup(tiles, aliens=["N1", "N2", "E1"], phase="alien")
    assert "move Alien N1 N2" not in notations(game, "Blue")


def test_alien_kills_the_only_astronaut_and_scores():
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Chief": "N2"})
    events = play(game, "Blue", "move Alien N1 N2")
    assert where(game, "Yellow-Chief") == "dead"
    assert game.st.scores == [2, 0]
    assert "kill" in kinds(events)
    assert game.view(None)["alien_track"]["slots"][2]["astronaut"] == "Yellow-Chief"


def test_active_player_chooses_the_victim():
    game = alien_game(players=3, aliens=["N1"], astronauts={"Yellow-Pilot": "N2", "Red-Chief": "N2"})
    play(game, "Blue", "move Alien N1 N2")
    assert sorted(notations(game, "Blue")) == ["cancel", "kill Red-Chief", "kill Yellow-Pilot"]
    play(game, "Blue", "kill Yellow-Pilot")
    assert where(game, "Yellow-Pilot") == "dead" and where(game, "Red-Chief") == "N2"
    assert game.st.scores == [1, 0, 0]


def test_grunt_is_killed_last_and_two_grunts_kill_the_alien():
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Grunt": "N2", "Blue-Explorer": "N2"})
    events = play(game, "Blue", "move Alien N1 N2")
    assert where(game, "Blue-Explorer") == "dead"  # even the active player's own
    assert where(game, "Yellow-Grunt") == "N2"
    assert game.st.scores == [0, 0]  # suicide scores nothing
    assert not any("points" in e.data for e in events)
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Grunt": "N2", "Blue-Grunt": "N2"})
    play(game, "Blue", "move Alien N1 N2")
    assert alien_cells(game) == []
    assert where(game, "Yellow-Grunt") == "N2" and where(game, "Blue-Grunt") == "N2"
    assert game.st.scores == [1, 0]
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Grunt": "N2", "Yellow-Robot": "N2"})
    play(game, "Blue", "move Alien N1 N2")
    assert where(game, "Yellow-Grunt") == "dead" and where(game, "Yellow-Robot") == "N2"


def test_rulebook_example_1():
    """Alien A moves and kills the Pilot. Alien B could not be moved."""
    game = alien_game(aliens=["N1", "S1"], astronauts={"Yellow-Pilot": "N2"})
    assert all(n.startswith("move Alien N1") for n in notations(game, "Blue"))
    play(game, "Blue", "move Alien N1 N2")
    assert where(game, "Yellow-Pilot") == "dead"
    assert alien_cells(game) == ["N2", "S1"]


def test_rulebook_example_2():
    """Alien C moves. Alien A kills the Grunt. Alien C does not kill the Robot."""
    game = alien_game(aliens=["N2", "E1"], astronauts={"Yellow-Grunt": "N2", "Yellow-Robot": "E2"})
    play(game, "Blue", "move Alien E1 E2")
    assert where(game, "Yellow-Grunt") == "dead"
    assert where(game, "Yellow-Robot") == "E2"
    assert alien_cells(game) == ["E2", "N2"]


def test_aliens_kill_even_when_none_can_move():
    tiles = {"S1": "Corridor-I NS", "S2": "Safe-Room NS"}
    game = setup(tiles, aliens=["S1"], astronauts={"Yellow-Pilot": "S1"}, phase="alien")
    assert where(game, "Yellow-Pilot") == "dead"
    assert game.view(None)["phase"] == "build"


def test_alien_entering_next_to_an_occupied_pod_launches_it():
    tiles = dict(STATION, N2E1="Pod-1/2 W")
    game = setup(tiles, aliens=["N1"], astronauts={"Yellow-Chief": "N2E1"}, phase="alien")
    events = play(game, "Blue", "move Alien N1 N2")
    assert where(game, "Yellow-Chief") == "escaped"
    assert game.st.scores == [0, 2]
    assert "launch" in kinds(events)
    assert "N2E1" not in [t["coord"] for t in game.view(None)["tiles"]]


def test_empty_pod_does_not_launch():
    tiles = dict(STATION, N2E1="Pod-1/2 W")
    game = setup(tiles, aliens=["N1"], phase="alien")
    play(game, "Blue", "move Alien N1 N2")
    assert "N2E1" in [t["coord"] for t in game.view(None)["tiles"]]


def test_full_alien_track_ends_the_game_at_once():
    values = ALIEN_TRACKS[2]
    free = len(values) - 2  # medium covers two slots
    dead = [
        "Blue-Grunt",
        "Blue-Robot",
        "Blue-Explorer",
        "Blue-Pilot",
        "Blue-Chief",
        "Yellow-Grunt",
        "Yellow-Robot",
    ][: free - 1]
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Pilot": "N2"}, track=dead)
    assert game.view(None)["alien_track"]["score"] == values[-1]
    play(game, "Blue", "move Alien N1 N2")
    result = game.result()
    assert result is not None and result.winners == ()
    assert "Aliens win" in result.text
    assert game.prompt() is None and game.legal_actions(player(game, "Blue")) == []


def test_aliens_are_never_pushed_into_pods_or_the_safe_room():
    tiles = {
        "N1": "Corridor-I NS",
        "N2": "Lab NES",
        "N3": "Safe-Room NS",
        "N2E1": "Pod-1/2 W",
        "E1": "Corridor-I EW",
    }
    game = setup(tiles, aliens=["N1", "N2", "E1"], phase="alien")
    assert "move Alien N1 N2" not in notations(game, "Blue")
    assert "move Alien N2 N3" not in notations(game, "Blue")
    assert not any(n.endswith(" WR") for n in notations(game, "Blue"))
