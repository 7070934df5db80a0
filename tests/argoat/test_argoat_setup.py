"""Components as data and the set-up for 2–5 players."""

from __future__ import annotations

from collections import Counter

import pytest
from argoat_helpers import PLAYERS, map_problems, new_game

from bot.engine import registry
from bot.engine.argoat import GAME, ArgoatGame
from bot.engine.argoat.data import (
    BANK_SIZE,
    DARK_FORESTS,
    FRAGMENT_COPIES,
    FRAGMENTS,
    FRONTIER_BY_KEY,
    FRONTIERS,
    ITEM_COPIES,
    ITEMS,
    discovery_frontiers,
    starting_frontiers,
)
from bot.engine.argoat.geometry import OPPOSITE, step
from bot.engine.argoat.setup import starting_layouts
from bot.engine.core import IllegalAction

PROXY_SHEET = {
    "Dir Dunes": "Knowledge of the Forge",
    "Mt. Aour": "Knowledge of the World",
    "Lake Heol": "Knowledge of the Sun",
    "Valley of the Holy Dragon": "Knowledge of Life",
    "Village of the Wind Tribe": "Knowledge of Spirits",
    "Hermit's Abode": "Knowledge of Magic",
    "Forest of the Dark Dragon": "Knowledge of the Ruler",
    "Tower of Moonlight": "Knowledge of the Moon",
}


def test_registry_finds_argoat() -> None:
    assert GAME is ArgoatGame
    assert "Argoat" in registry.GameRegistry(registry.discover()).names()
    assert ArgoatGame.min_players == 2 and ArgoatGame.max_players == 5
    spec = ArgoatGame.option_specs[0]
    assert spec.name == "difficulty" and spec.default == "adventurer"
    assert set(spec.choices) == {"journeyman", "adventurer"}
    assert ArgoatGame.rules_summary.count("\n") >= 2


def test_twenty_frontier_cards_as_listed() -> None:
    names = Counter(f.name for f in FRONTIERS)
    assert len(FRONTIERS) == 20
    assert names["Unmarked Trail"] == 3
    assert len(names) == 18  # nineteen frontiers less the Unmarked Trail's two extra copies
    assert "Frontier Town" in names


def test_fragment_frontiers_follow_the_proxy_sheet() -> None:
    by_key = {f.key: f.name for f in FRAGMENTS}
    given = {f.name: by_key[f.fragment] for f in FRONTIERS if f.fragment}
    assert given == PROXY_SHEET


def test_seven_dragon_frontiers() -> None:
    dragons = [f for f in FRONTIERS if f.dragon]
    assert len(dragons) == 7
    assert all(f.key != "town" for f in dragons)


def test_every_frontier_has_roads_on_known_sides() -> None:
    for frontier in FRONTIERS:
        assert frontier.roads and set(frontier.roads) <= set("NESW")
        assert "".join(sorted(frontier.roads, key="NESW".index)) == frontier.roads


@pytest.mark.parametrize("difficulty", ["journeyman", "adventurer"])
def test_both_starting_sets_connect_to_the_town(difficulty: str) -> None:
    layouts = starting_layouts(difficulty)
    assert len(layouts) > 1  # the placement is really random
    for layout in layouts:
        for side, key in zip("NESW", layout, strict=True):
            assert OPPOSITE[side] in FRONTIER_BY_KEY[key].roads


def test_components_counts() -> None:
    assert Counter(DARK_FORESTS) == {"Eden": 1, "Hollow": 3}
    assert len(ITEMS) == 6 and ITEM_COPIES == 3
    assert len(FRAGMENTS) == 8 and FRAGMENT_COPIES == 5
    assert BANK_SIZE == 25


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("difficulty", ["journeyman", "adventurer"])
def test_setup_for_each_player_count(n: int, difficulty: str) -> None:
    game = new_game(n, seed=n * 7, difficulty=difficulty)
    s = game.state
    town = (0, 0)
    assert s.frontiers[town] == "town"
    assert {s.frontiers[step(town, side)] for side in "NESW"} == set(starting_frontiers(difficulty))
    assert map_problems(game) == []
    assert sorted(s.discovery) == sorted(discovery_frontiers(difficulty))
    assert len(s.discovery) == 15
    assert Counter(s.supply) == {i.key: 3 for i in ITEMS}
    assert Counter(s.darkness) == Counter(DARK_FORESTS)
    assert s.bleinas == [town] * (n // 2)
    assert s.reliquary == {f.key: 5 for f in FRAGMENTS}
    assert s.bank == BANK_SIZE - n
    for seat in s.seats:
        assert seat.pos == town
        assert seat.emeralds == 1
        assert s.markers_left(seat.id) == 4
        assert seat.items == [] and seat.fragments == []
    assert [p["colour"] for p in game.view(None)["players"]] == ["Red", "Blue", "Green", "Yellow", "Purple"][
        :n
    ]


def test_first_player_is_random() -> None:
    firsts = {new_game(5, seed=seed).state.active for seed in range(40)}
    assert len(firsts) >= 4


def test_setup_is_deterministic_per_seed() -> None:
    assert new_game(4, seed=9).to_json() == new_game(4, seed=9).to_json()
    assert new_game(4, seed=9).to_json() != new_game(4, seed=10).to_json()


def test_wrong_player_counts_and_options_are_refused() -> None:
    with pytest.raises(IllegalAction):
        ArgoatGame.new(["solo"], 1, {})
    with pytest.raises(IllegalAction):
        ArgoatGame.new([*PLAYERS, "extra"], 1, {})
    with pytest.raises(IllegalAction):
        ArgoatGame.new(["a", "a"], 1, {})
    with pytest.raises(IllegalAction):
        ArgoatGame.new(["a", "b"], 1, {"difficulty": "nightmare"})
    assert ArgoatGame.new(["a", "b"], 1, {"difficulty": "Journeyman"}).state.difficulty == ("journeyman")
