"""Event, result, menu and rules-page texts read as plain English and say what the rules say:
counts of one, a full Alien track, pushes, the Escape Pod distance, Robots, deep space."""

from __future__ import annotations

from argo_board import notations, play, player, setup
from test_argo_aliens import alien_game
from test_argo_end import POD, YELLOW_GONE

from bot.engine.argo import ArgoGame
from bot.engine.argo.data import ALIEN_TRACKS, MODULE_EFFECTS
from bot.engine.argo.data import POD as POD_KIND


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


def describe(game, colour: str, notation: str) -> str:
    """The menu description of the last token of ``notation`` (a legal action or the start of
    one) for ``colour``."""
    tokens = tuple(notation.split())
    assert any(tuple(n.split()[: len(tokens)]) == tokens for n in notations(game, colour))
    return game.choice_words(player(game, colour), tokens[:-1], tokens[-1:])[1]


FULL = {"N1": "Teleporter NS", "S1": "Corridor-I NS", "S2": "Corridor-I NS"}


def test_a_full_tile_announces_a_push_only_when_one_follows():
    game = setup(FULL, astronauts={"Yellow-Grunt": "N1", "Yellow-Robot": "S1"}, aliens=["S1"])
    # entering a Teleporter, the mover is teleported on; a non-Grunt meeting an Alien dies
    assert "Here: 🟨 Yellow Grunt (no push: he is teleported on)." in describe(game, "Blue", "move Pilot N1")
    assert "(no push: the Alien kills him)" in describe(game, "Blue", "move Chief S1")
    for notation in ("move Pilot N1", "move Chief S1"):
        assert "a push follows" not in describe(game, "Blue", notation)
    # a Grunt kills the Alien and stays, a Robot ignores it: both push
    assert "(full: a push follows)" in describe(game, "Blue", "move Grunt S1")
    assert "(full: a push follows)" in describe(game, "Blue", "move Robot S1")


def test_the_escape_pod_distance_is_said_the_rulebooks_way():
    # "it must be necessary to Move through at least three other tiles to Move from the Waking
    # Room to the Escape Pod"
    pages = ArgoGame.help_topics()
    assert "passes through at least three other tiles" in pages["building"].text
    assert "must pass through at least three other tiles" in pages["escape-pods"].text
    for page in ("building", "escape-pods"):
        assert "3 tiles from the Waking Room" not in pages[page].text
    game = setup({**FULL, "S3": "Corridor-I NS"}, phase="build", display=["Lab"], pods=["Pod-1/2"])
    builds = [n for n in notations(game, "Blue") if n.startswith("build Pod")]
    assert {b.split()[2] for b in builds} == {"S4"}  # through S1, S2 and S3
    assert describe(game, "Blue", " ".join(builds[0].split()[:2])) == (
        "Seats worth 1 and 2; a Move from the Waking Room to it passes 3+ other tiles."
    )


def test_robots_meeting_aliens_pods_and_teleporters_are_described_fully():
    pages = ArgoGame.help_topics()
    assert "a Robot is never killed" in pages["movement"].text
    game = setup(FULL, astronauts={"Blue-Grunt": "S1"}, aliens=["S2"], phase="alien")
    move = next(n for n in notations(game, "Blue") if n.startswith("move Alien"))
    assert describe(game, "Blue", " ".join(move.split()[:2])) == (
        "Aliens kill whoever they meet but Robots (a Grunt may kill them)."
    )
    assert MODULE_EFFECTS[POD_KIND].endswith("when an Alien comes next to its door with someone aboard.")
    plain = setup(FULL)
    deep = setup(FULL, options={"deep_space": "on"})
    assert "or the Waking Room" in describe(plain, "Blue", "move Pilot N1")
    assert describe(deep, "Blue", "move Pilot N1") == (
        "Entering sends the Astronaut to the other Teleporter; with only one in play he is killed."
    )


def test_the_turn_page_says_aliens_kill_even_when_none_can_move():
    # Rulebook Example 2: "Alien C Moves. Alien A kills the Grunt." — every Alien kills, moved
    # or not, also when no Alien could move.
    text = ArgoGame.help_topics()["turn"].text
    assert "When no Alien can move, the Aliens still kill." in text


def test_a_tile_turned_face_up_is_named_as_printed_not_by_its_notation():
    named = {"Corridor-X-alien": "Cross Corridor with an Alien symbol", "Control-Room": "Control Room"}
    for top, name in named.items():
        game = setup(FULL, phase="build", display=["Lab"], stack=[top], pods=[])
        build = next(n for n in notations(game, "Blue") if n.startswith("build Lab"))
        reveal = [e.text for e in play(game, "Blue", build) if e.kind == "reveal"]
        assert reveal == [f"{name} is turned face up."]
