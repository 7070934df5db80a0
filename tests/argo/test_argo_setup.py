"""Set-up, components and the table options."""

from __future__ import annotations

import pytest
from argo_board import setup

from bot.engine.argo import GAME, ArgoGame
from bot.engine.argo.data import (
    ALIEN_TRACKS,
    CORRIDOR,
    DIFFICULTIES,
    MODULE_IDS,
    POD,
    POD_IDS,
    TILES,
    WAKING_ROOM,
    pods_for,
)
from bot.engine.argo.geometry import OPPOSITE, SIDES, step
from bot.engine.argo.station import linked
from bot.engine.core import IllegalAction, parse_options
from bot.engine.registry import discover


def test_registry_finds_argo():
    assert GAME is ArgoGame
    assert ArgoGame in discover()
    assert ArgoGame.name == "Argo"
    assert (ArgoGame.min_players, ArgoGame.max_players) == (2, 4)
    assert ArgoGame.rules_summary.count("\n") >= 1


def test_option_specs():
    specs = {s.name: s for s in ArgoGame.option_specs}
    assert specs["difficulty"].choices == ("easy", "medium", "hard")
    assert specs["difficulty"].default == "medium"
    assert specs["deep_space"].choices == ("off", "on")
    assert specs["deep_space"].default == "off"
    assert (specs["tm_wait"].default, specs["tm_wait"].minimum, specs["tm_wait"].maximum) == (120, 0, 1440)
    assert parse_options(ArgoGame.option_specs, "difficulty=hard tm_wait=5") == {
        "difficulty": "hard",
        "deep_space": "off",
        "tm_wait": 5,
    }


def test_components():
    assert len([t for t in TILES if t.kind != POD]) == 31
    kinds = [TILES[t].kind for t in MODULE_IDS]
    assert kinds.count("teleporter") == 2
    for kind in (
        "lab",
        "control_room",
        "jump_room",
        "time_machine",
        "laser",
        "infirmary",
        "warehouse",
        "security_center",
        "core_room",
        "safe_room",
    ):
        assert kinds.count(kind) == 1
    assert kinds.count(CORRIDOR) == 18
    plain = [t for t in MODULE_IDS if TILES[t].kind == CORRIDOR and not TILES[t].alien]
    assert len(plain) >= 4
    assert all(TILES[t].capacity == 1 for t in MODULE_IDS if TILES[t].kind == CORRIDOR)
    assert all(TILES[t].capacity in (1, 2) for t in MODULE_IDS)
    assert not any(TILES[t].alien for t in MODULE_IDS if TILES[t].kind == "safe_room")
    # corridors and dead ends for variety
    assert any(bin(TILES[t].doors).count("1") == 1 for t in MODULE_IDS)
    pods = [TILES[p] for p in POD_IDS]
    assert len(pods) == 6 and all(len(p.seats) == 2 for p in pods)
    assert sorted(p.min_players for p in pods) == [2, 2, 2, 2, 3, 3]
    # tiles that share a notation token are identical in play
    by_token: dict[str, tuple] = {}
    for t in TILES:
        shape = (t.kind, t.capacity, t.doors, t.alien, t.seats)
        assert by_token.setdefault(t.token, shape) == shape


def test_pod_stack_order():
    two = pods_for(2)
    four = pods_for(4)
    assert len(two) == 4 and len(four) == 6
    assert all(TILES[p].min_players == 2 for p in two)
    values = [sum(TILES[p].seats) for p in four]
    assert values == sorted(values)  # lowest on top, highest at the bottom


def test_alien_tracks_and_difficulty():
    assert DIFFICULTIES == {"easy": 1, "medium": 2, "hard": 3}
    for n, values in ALIEN_TRACKS.items():
        assert list(values) == sorted(values)
        assert len(values) - 3 < 5 * n  # the track can fill before everybody dies
    game = ArgoGame.new(["a", "b", "c"], 3, {"difficulty": "hard"})
    view = game.view(None)
    assert view["alien_track"]["covered"] == 3
    assert view["alien_track"]["score"] == ALIEN_TRACKS[3][3]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_new_game_setup(n):
    game = ArgoGame.new([f"u{i}" for i in range(n)], 7, {})
    st = game.st
    assert st.pos[0] == (0, 0) and TILES[0].kind == WAKING_ROOM
    # four corridors without Alien symbol, one at each door, connected to the Waking Room
    starters = [st.cell[step((0, 0), side)] for side in SIDES]
    for side, tile in zip(SIDES, starters, strict=True):
        assert TILES[tile].kind == CORRIDOR and not TILES[tile].alien
        assert st.doors[tile] & OPPOSITE[side]
    assert sorted(linked(st, 0)) == sorted(starters)
    assert len(st.pos) == 5
    # every Astronaut in the Waking Room
    assert len(st.occ[0]) == 5 * n
    view = game.view(None)
    assert len(view["display"]) == 3
    assert view["stack_size"] == 30 - 4 - 3
    assert len(view["pods"]["stack"]) == (4 if n == 2 else 6)
    assert view["aliens"] == []
    assert view["phase"] == "build"  # no Alien yet: the Alien phase is skipped
    assert [p["colour"] for p in view["players"]] == ["Blue", "Yellow", "Red", "Green"][:n]
    assert game.prompt().player == view["active"]


def test_first_player_and_corridors_are_seeded():
    firsts = {ArgoGame.new(["a", "b", "c", "d"], seed, {}).st.first_player for seed in range(30)}
    assert len(firsts) > 1
    a = ArgoGame.new(["a", "b"], 5, {}).to_json()
    b = ArgoGame.new(["a", "b"], 5, {}).to_json()
    assert a == b
    layouts = {str(ArgoGame.new(["a", "b"], s, {}).to_json()["tiles"]) for s in range(10)}
    assert len(layouts) > 1


def test_bad_player_counts_and_options():
    with pytest.raises(IllegalAction):
        ArgoGame.new(["a"], 1, {})
    with pytest.raises(IllegalAction):
        ArgoGame.new(["a", "b", "c", "d", "e"], 1, {})
    with pytest.raises(IllegalAction):
        ArgoGame.new(["a", "b"], 1, {"difficulty": "insane"})
    with pytest.raises(IllegalAction):
        ArgoGame.new(["a", "b"], 1, {"tm_wait": 1441})


def test_setup_helper_builds_positions():
    game = setup({"N1": "Corridor-I NS", "N2": "Lab NES"}, aliens=["N2"], astronauts={"Blue-Grunt": "N1"})
    st = game.st
    assert len(st.pos) == 3
    assert game.view(None)["aliens"][0]["coord"] == "N2"
