"""The engine contract: JSON, refusals, cancel, undo, notation, view, events."""

from __future__ import annotations

import json

import pytest
from argo_board import notations, play, player, setup, where

from bot.engine.argo import COMPILED, ArgoGame
from bot.engine.core import IllegalAction, format_text

BASE = {"N1": "Corridor-T NES", "N2": "Corridor-I NS", "N1E1": "Corridor-L SW", "E1": "Corridor-L NW"}


def roundtrip(game: ArgoGame) -> None:
    data = game.to_json()
    text = json.dumps(data)
    again = ArgoGame.from_json(json.loads(text))
    assert again.to_json() == data
    assert again.legal_actions(game.players[0]) == game.legal_actions(game.players[0])
    assert again.prompt() == game.prompt()


def test_json_roundtrip_in_the_middle_of_a_decision_and_of_a_hold():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"})
    play(game, "Blue", "move Grunt N1")
    assert game.st.pending is not None
    roundtrip(game)
    game = ArgoGame.new(["a", "b", "c"], 3, {"tm_wait": 3, "deep_space": "on"})
    roundtrip(game)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "move", "astronaut": 0, "path": [99]},
        {"type": "move"},
        {"type": "fly"},
        {"type": "undo"},
        {"type": "cancel"},
        {"type": "pass"},
        {"type": "timemachine", "do": {"type": "move", "astronaut": 5, "path": [0]}},
    ],
)
def test_refused_action_changes_nothing(bad):
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"})
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(player(game, "Blue"), bad)
    assert str(info.value).endswith(".")
    assert game.to_json() == before


@pytest.mark.skipif(COMPILED, reason="a compiled engine's functions cannot be patched")
def test_an_internal_error_leaves_the_game_as_it_was(monkeypatch):
    # an engine bug in the middle of a resolution must not leave a half-applied action behind
    from bot.engine.argo import resolution

    game = setup(BASE, astronauts={"Yellow-Chief": "N1"}, aliens=["N2"])
    play(game, "Blue", "move Pilot N1")  # a push decision is pending
    before = game.to_json()
    real = resolution.dispatch

    def broken(ctx, root):
        real(ctx, root)
        raise RuntimeError("boom")

    monkeypatch.setattr(resolution, "dispatch", broken)
    with pytest.raises(RuntimeError):
        play(game, "Blue", "push Yellow-Chief N2")  # the kill is resolved, then the bug
    assert game.to_json() == before
    monkeypatch.setattr(resolution, "dispatch", real)
    play(game, "Blue", "push Yellow-Chief N2")
    assert game.st.scores == [2, 0]


def test_wrong_player_and_stranger_are_refused():
    game = setup(BASE)
    before = game.to_json()
    move = game.legal_actions(player(game, "Blue"))[0]
    with pytest.raises(IllegalAction, match="not your turn"):
        game.apply(player(game, "Yellow"), move)
    with pytest.raises(IllegalAction, match="not playing"):
        game.apply("stranger", move)
    assert game.to_json() == before


def test_undo_takes_back_own_actions_within_the_turn():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"}, aliens=["N2"])
    assert "undo" not in notations(game, "Blue")
    start = game.to_json()
    events = play(game, "Blue", "move Pilot N1", "push Yellow-Chief N2")
    assert game.st.scores == [2, 0]
    assert "undo" in notations(game, "Blue")
    undo = play(game, "Blue", "undo")
    assert undo[0].kind == "undo" and undo[0].data["points_delta"] == {"p0": -2}
    assert game.to_json()["loc"] == start["loc"]
    assert game.st.scores == [0, 0]
    assert "undo" not in notations(game, "Blue")
    assert any(e.kind == "kill" for e in events)


def test_undo_stops_at_the_end_of_the_turn():
    game = setup(BASE, actions_used=1)
    play(game, "Blue", "move Grunt N1")
    assert game.view(None)["active_colour"] == "Yellow"
    assert "undo" not in notations(game, "Yellow")


def test_cancel_is_offered_only_before_commit():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"})
    assert "cancel" not in notations(game, "Blue")
    play(game, "Blue", "move Grunt N1")
    assert "cancel" in notations(game, "Blue")
    play(game, "Blue", "push Yellow-Chief N2")
    assert "cancel" not in notations(game, "Blue")
    assert where(game, "Yellow-Chief") == "N2"


def test_notation_tokens_and_parse():
    game = ArgoGame.new(["a", "b", "c", "d"], 9, {})
    who = game.prompt().player
    texts = [game.notation(a) for a in game.legal_actions(who)]
    assert len(set(texts)) == len(texts)
    assert all(len(tok) <= 80 for t in texts for tok in t.split())
    assert {t.split()[0] for t in texts} <= {"build", "undo"}
    action = game.legal_actions(who)[0]
    assert game.parse(who, "  " + game.notation(action).upper() + " ") == action
    with pytest.raises(IllegalAction):
        game.parse(who, "fly away")


def test_build_options_are_shared_by_copies_and_their_notations_are_those_of_equal_actions():
    game = ArgoGame.new(["a", "b", "c", "d"], 9, {})
    who = game.prompt().player
    builds = game.legal_actions(who)
    assert builds[0]["type"] == "build"
    world = game.clone()
    assert all(x is y for x, y in zip(world.legal_actions(who), builds, strict=True))
    fresh = ArgoGame.from_json(json.loads(json.dumps(game.to_json())))
    assert fresh.legal_actions(who) == builds
    for _ in range(2):  # the second time from the notations remembered for this layout
        for action in builds:
            text = game.notation(action)
            assert text == world.notation(action) == fresh.notation(json.loads(json.dumps(action)))
    other = next(a for a in builds if a["cell"] != builds[0]["cell"])
    assert game.notation({**builds[0], "cell": other["cell"]}) != game.notation(builds[0])
    game.apply(who, builds[0])
    assert world.legal_actions(who) == builds  # the copy still offers its builds
    assert [world.notation(a) for a in builds] == [fresh.notation(a) for a in fresh.legal_actions(who)]


def test_view_is_complete_and_json_safe():
    game = setup(BASE, astronauts={"Blue-Grunt": "N1"}, aliens=["N2"], tokens={"N1": ["Yellow"]})
    view = game.view(None)
    json.dumps(view)
    for key in (
        "game",
        "players",
        "active",
        "finished",
        "tiles",
        "astronauts",
        "aliens",
        "display",
        "stack_size",
        "pods",
        "alien_track",
        "phase",
        "turn",
        "prompt",
    ):
        assert key in view
    assert view["game"] == "Argo" and view["finished"] is False
    assert view["players"][0]["id"] == "p0" and view["players"][0]["colour"] == "Blue"
    tile = next(t for t in view["tiles"] if t["coord"] == "N1")
    assert tile["tokens"] == ["Yellow"] and tile["capacity"] == 1
    assert set(tile["doors"]) == {"N", "E", "S", "W"}
    wr = next(t for t in view["tiles"] if t["coord"] == "WR")
    assert wr["capacity"] is None and wr["kind"] == "waking_room"
    grunt = next(a for a in view["astronauts"] if a["id"] == "Blue-Grunt")
    assert grunt["coord"] == "N1" and grunt["status"] == "station"
    assert view["aliens"] == [{"tile": game.st.cell[(0, -2)], "cell": [0, -2], "coord": "N2"}]
    assert view["prompt"]["player"] == "p0"
    assert game.view("p1") == view


def test_view_never_reveals_the_stack_order():
    game = ArgoGame.new(["a", "b"], 4, {})
    other = ArgoGame.from_json(game.to_json())
    other.st.stack.reverse()
    assert other.st.stack != game.st.stack
    assert other.view(None) == game.view(None)


def test_events_name_players_by_reference():
    game = setup(BASE, astronauts={"Yellow-Chief": "N1"}, aliens=["N2"])
    events = play(game, "Blue", "move Pilot N1", "push Yellow-Chief N2")
    kill = next(e for e in events if e.kind == "kill")
    assert "<p:p1>" in kill.text and "<p:p0>" in kill.text
    assert format_text(kill.text, {"p0": "Ann", "p1": "Bob"}).startswith("Bob's Chief")
    assert all(e.public for e in events)
    assert game.result() is None


def test_refusals_say_why():
    game = setup(BASE, turn=1)
    who = player(game, "Blue")
    with pytest.raises(IllegalAction, match="only action is a Move"):
        game.apply(who, {"type": "activate", "module": 0})
    game = setup(BASE)
    move = game.parse(who, "move Grunt N1")
    game.apply(who, move)
    with pytest.raises(IllegalAction, match="already made a Move"):
        game.apply(who, {"type": "move", "astronaut": 0, "path": [0]})
    with pytest.raises(IllegalAction, match="must move an Astronaut"):
        game.apply(who, {"type": "build", "tile": 1, "cell": [5, 5], "rot": 0})


def test_shuffled_stack_differs_between_seeds():
    displays = {tuple(ArgoGame.new(["a", "b"], s, {}).st.display) for s in range(8)}
    assert len(displays) > 1
