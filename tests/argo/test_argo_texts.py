"""Event and result texts read as plain English: counts of one, a full Alien track."""

from __future__ import annotations

from argo_board import play, setup
from test_argo_aliens import alien_game
from test_argo_end import POD, YELLOW_GONE

from bot.engine.argo.data import ALIEN_TRACKS


def test_the_kill_that_fills_the_alien_track_says_what_full_means():
    free = len(ALIEN_TRACKS[2]) - 2  # medium covers two slots
    dead = ["Blue-Grunt", "Blue-Robot", "Blue-Explorer", "Blue-Pilot", "Blue-Chief", "Yellow-Grunt"]
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Pilot": "N2"}, track=dead[: free - 1])
    events = play(game, "Blue", "move Alien N1 N2")
    kill = next(e.text for e in events if e.kind == "kill")
    assert "score is now full" not in kill
    assert kill.endswith("Every slot of the Alien track now holds a dead Astronaut: the track is full.")
    assert any("the Alien track is full. The Aliens win!" in e.text for e in events)


def test_a_kill_that_leaves_room_gives_the_aliens_score():
    game = alien_game(aliens=["N1"], astronauts={"Yellow-Pilot": "N2"})
    events = play(game, "Blue", "move Alien N1 N2")
    kill = next(e.text for e in events if e.kind == "kill")
    assert kill.endswith(f"The Aliens' score is now {ALIEN_TRACKS[2][3]}.")


def test_the_result_counts_one_activation_in_the_singular():
    game = setup(
        POD,
        players=3,
        pods=[],
        astronauts=dict(YELLOW_GONE),
        scores=[9, 9, 1],
        activations=[1, 2, 0],
        escaped=[0, 1, 0],
        actions_used=1,
    )
    play(game, "Blue", "move Grunt N1")
    details = game.result().details
    assert details["p0"] == "1 activation, 0 escaped"
    assert details["p1"] == "2 activations, 1 escaped"
    assert details["p2"] == "0 activations, 0 escaped"
