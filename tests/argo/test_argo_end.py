"""End of the game and scoring: the four endings, the Aliens' victory, tie-breaks."""

from __future__ import annotations

import random

from argo_board import play, setup, where

from bot.engine.argo.data import ALIEN_TRACKS

POD = {
    "N1": "Corridor-I NS",
    "N2": "Corridor-I NS",
    "N3": "Corridor-I NS",
    "N4": "Pod-2/4 S",
    "E1": "Corridor-I EW",
}

YELLOW_GONE = {
    "Yellow-Grunt": "dead",
    "Yellow-Robot": "escaped",
    "Yellow-Explorer": "dead",
    "Yellow-Pilot": "escaped",
    "Yellow-Chief": "escaped",
}


def test_game_ends_when_every_pod_has_left():
    game = setup(POD, pods=[], astronauts={"Blue-Grunt": "N3", "Yellow-Chief": "N4"})
    play(game, "Blue", "move Grunt N4")
    result = game.result()
    assert result is not None
    assert "every Escape Pod" in game.view(None)["end_reason"]
    assert result.scores == {"p0": 4, "p1": 4}
    assert game.prompt() is None


def test_game_ends_when_a_player_cannot_move_at_the_start_of_his_turn():
    game = setup(POD, pods=["Pod-1/2"], astronauts=YELLOW_GONE, actions_used=1, scores=[3, 9])
    play(game, "Blue", "move Grunt N1")
    result = game.result()
    assert result is not None
    assert "no Astronaut left" in game.view(None)["end_reason"]
    assert result.winners == ("p1",)


def test_astronauts_in_pods_cannot_move_so_they_end_the_game_too():
    seated = dict(YELLOW_GONE, **{"Yellow-Chief": "N4"})
    game = setup(POD, pods=["Pod-1/2"], astronauts=seated, actions_used=1)
    play(game, "Blue", "move Grunt N1")
    assert game.result() is not None
    assert where(game, "Yellow-Chief") == "pod:N4"  # lost with the station: no points


def test_final_round_after_the_last_tile():
    game = setup(POD, players=3, phase="build", display=["Lab"], stack=[], pods=[])
    play(game, "Blue", "build Lab E2 doors-ESW")
    rng = random.Random(1)
    turns = []
    while game.result() is None:
        view = game.view(None)
        if not turns or turns[-1] != view["turn"]:
            turns.append(view["turn"])
        who = game.prompt().player
        options = [a for a in game.legal_actions(who) if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(options))
    # the builder's turn, then one more for each of the three players
    assert len(turns) == 4
    assert "last tile" in game.view(None)["end_reason"]


def test_aliens_win_with_more_points_than_the_best_player():
    game = setup(POD, pods=[], astronauts=dict(YELLOW_GONE), scores=[3, 2], actions_used=1, track=[])
    alien = ALIEN_TRACKS[2][2 + 2]  # the two dead Yellow astronauts
    assert alien > 3
    play(game, "Blue", "move Grunt N1")
    result = game.result()
    assert result.winners == ()
    assert "Aliens win" in result.text
    assert game.view(None)["alien_victory"] is True


def test_tie_breaks_activations_then_escaped_then_shared():
    def finish(scores, activations, escaped):
        game = setup(
            POD,
            players=3,
            pods=[],
            astronauts=dict(YELLOW_GONE),
            scores=scores,
            activations=activations,
            escaped=escaped,
            actions_used=1,
        )
        play(game, "Blue", "move Grunt N1")
        return game.result()

    assert finish([9, 9, 1], [2, 1, 0], [0, 3, 0]).winners == ("p0",)
    assert finish([9, 9, 1], [1, 1, 0], [0, 3, 0]).winners == ("p1",)
    assert finish([9, 9, 1], [1, 1, 0], [2, 2, 0]).winners == ("p0", "p1")
    assert "share" in finish([9, 9, 1], [1, 1, 0], [2, 2, 0]).text


def test_the_final_ranking_lists_every_player_with_the_tie_breaks_that_decided():
    game = setup(
        POD,
        players=3,
        pods=[],
        astronauts=dict(YELLOW_GONE),
        scores=[9, 9, 4],
        activations=[1, 2, 5],
        escaped=[3, 0, 0],
        actions_used=1,
    )
    play(game, "Blue", "move Grunt N1")
    result = game.result()
    assert result is not None and result.winners == ("p1",)
    assert result.ranked() == ["p1", "p0", "p2"]  # 9 points and 2 activations, 9 and 1, then 4
    assert result.details["p1"] == "2 activations, 0 escaped"
    assert result.details["p0"] == "1 activation, 3 escaped"
