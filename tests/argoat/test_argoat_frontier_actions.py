"""Every Frontier Action as printed, the Town's placements and the Dark Forests."""

from __future__ import annotations

import pytest
from argoat_helpers import (
    act,
    beside_town,
    bleinas,
    end_on,
    kinds,
    map_problems,
    marker,
    notations,
    scenario,
    setup,
    stack,
    texts,
    xy,
)

from bot.engine.argoat.data import FRONTIER_BY_KEY, FRONTIERS, ITEM_BY_KEY
from bot.engine.argoat.geometry import fits

FRAGMENT_FRONTIERS = [f.key for f in FRONTIERS if f.fragment]
FOREST_AT_TOWN = [
    ("0,1", "S", "Hollow"),
    ("1,0", "W", "Hollow"),
    ("0,-1", "N", "Hollow"),
    ("-1,0", "E", "Eden"),
]
"""A Town boxed in by four Dark Forests: no frontier can ever be placed."""


# -- the Town ----------------------------------------------------------------------------


def test_town_draws_a_frontier_places_it_and_gives_an_emerald() -> None:
    game, _ = beside_town("temple")
    setup(game, "ann", at="0,1")
    stack(game, discovery=["palace"])
    act(game, "ann", "move S")
    events = act(game, "ann", "end")
    assert "draw" in kinds(events)
    assert game.state.phase == "place_frontier" and game.state.drawn == "palace"
    spots = [n.split()[1] for n in notations(game, "ann")]
    assert all(n.startswith("place ") for n in notations(game, "ann"))
    assert "0,2" in spots and "0,-1" in spots and "1,0" not in spots
    assert "undo" not in notations(game, "ann")  # the draw was random: a barrier
    for spot in spots:
        assert fits(game.state.roads, xy(spot), "NS")
    events = act(game, "ann", "place 0,2")
    assert game.state.frontiers[(0, 2)] == "palace"
    assert game.state.roads[(0, 2)] == FRONTIER_BY_KEY["palace"].roads  # never rotated
    assert game.state.seat("ann").emeralds == 2
    assert game.state.current.id == "bob"
    assert map_problems(game) == []
    assert {"place", "emerald", "turn"} <= set(kinds(events))


def test_placement_roads_must_match_every_neighbour() -> None:
    roads = {(0, 0): "NESW", (1, 1): "W"}
    # (0,1): S meets the Town's N road, E faces a W road: needs roads S and E, nothing else
    assert fits(roads, (0, 1), "ES")
    assert fits(roads, (0, 1), "NES")
    assert not fits(roads, (0, 1), "S")  # the road at 1,1 would be cut off by a blank side
    assert not fits(roads, (0, 1), "NE")  # its own road... and the Town's N road cut off
    assert not fits(roads, (0, 0), "NESW")  # occupied
    assert not fits(roads, (3, 3), "NESW")  # joins nothing


def test_a_dragon_frontier_brings_a_dark_forest_connected_to_it() -> None:
    game, _ = beside_town("temple")
    setup(game, "ann", at="0,1")
    stack(game, discovery=["lake"], darkness=["Eden", "Hollow", "Hollow", "Hollow"])
    act(game, "ann", "move S")
    act(game, "ann", "end")
    act(game, "ann", "place 0,2")
    assert game.state.phase == "place_forest"
    assert notations(game, "ann") == ["place 0,3"]  # only the lake's open road
    events = act(game, "ann", "place 0,3")
    forest = game.state.forests[(0, 3)]
    assert forest.road == "S" and forest.content == "Eden" and not forest.flipped
    assert game.state.darkness == ["Hollow"] * 3
    assert "forest" in kinds(events) and game.state.current.id == "bob"
    assert map_problems(game) == []
    public = game.view(None)["forests"]
    assert public == [{"at": "0,3", "x": 0, "y": 3, "roads": ["S"], "flipped": False, "markers": []}]


def test_a_frontier_that_fits_nowhere_goes_to_the_bottom() -> None:
    game = scenario({"0,0": "town"}, forests=FOREST_AT_TOWN)
    setup(game, "ann", at="0,1")
    top = game.state.discovery[0]
    act(game, "ann", "move S")
    events = act(game, "ann", "end")
    assert "unplaceable" in kinds(events)
    assert game.state.discovery[-1] == top
    assert game.state.seat("ann").emeralds == 2
    assert game.state.current.id == "bob"


# -- Fragment frontiers ------------------------------------------------------------------


@pytest.mark.parametrize("key", FRAGMENT_FRONTIERS)
def test_fragment_frontier_gives_its_fragment_once(key: str) -> None:
    fragment = FRONTIER_BY_KEY[key].fragment
    game, side = beside_town(key)
    act(game, "ann", f"move {side}")
    act(game, "ann", "end")
    assert game.state.seat("ann").fragments == [fragment]
    assert game.state.reliquary[fragment] == 4


def test_no_duplicate_fragment_and_the_reliquary_can_run_out() -> None:
    game, side = beside_town("lake")
    setup(game, "ann", fragments=["sun"])
    act(game, "ann", f"move {side}")
    events = act(game, "ann", "end")
    assert game.state.seat("ann").fragments == ["sun"]
    assert game.state.reliquary["sun"] == 4
    assert "already has" in " ".join(texts(events))
    game, side = beside_town("lake")
    game.state.reliquary["sun"] = 0
    act(game, "ann", f"move {side}")
    events = act(game, "ann", "end")
    assert game.state.seat("ann").fragments == []
    assert "empty" in kinds(events)


# -- Glittering Cave, Caravan, Forgotten Temple, Labous Snowfields -----------------------


def test_glittering_cave_takes_an_emerald_from_the_bank() -> None:
    game, events = end_on("cave")
    assert game.state.seat("ann").emeralds == 2
    assert "emerald" in kinds(events)


def test_caravan_sells_an_item_for_an_emerald() -> None:
    game, side = beside_town("caravan")
    stack(game, supply=["eye"])
    act(game, "ann", f"move {side}")
    assert notations(game, "ann")[-3:] == ["end pay", "end pass", "undo"]
    events = act(game, "ann", "end pay")
    assert game.state.seat("ann").items == ["eye"]
    assert game.state.seat("ann").emeralds == 0
    eye = ITEM_BY_KEY["eye"]
    assert texts(events, "ann") == [f"You drew the Eye of the Dark Dragon. {eye.summary}"]
    assert "Without paying" in eye.summary and "When: on your turn" in eye.summary
    assert "<p:ann> drew an Item." in texts(events)


def test_caravan_may_be_declined_and_needs_an_emerald() -> None:
    game, side = beside_town("caravan")
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pass")
    assert game.state.seat("ann").items == [] and game.state.seat("ann").emeralds == 1
    game, side = beside_town("caravan")
    setup(game, "ann", emeralds=0)
    act(game, "ann", f"move {side}")
    assert "end pay" not in notations(game, "ann") and "end" in notations(game, "ann")


def test_forgotten_temple_gives_another_turn() -> None:
    game, events = end_on("temple")
    assert game.state.current.id == "ann"
    assert game.state.turn == 2
    assert "extra_turn" in kinds(events)
    game.state.discovery = []  # the Town will only give an Emerald
    act(game, "ann", "move S")
    act(game, "ann", "end")
    assert game.state.current.id == "bob"


def test_labous_snowfields_calls_a_bleina_of_your_choice() -> None:
    game, side = beside_town("snowfields", n=4)
    bleinas(game, "0,0", "0,0")
    act(game, "ann", f"move {side}")
    assert "end 0,0" in notations(game, "ann") and "end" not in notations(game, "ann")
    act(game, "ann", "end 0,0")
    assert side == "E" and game.state.bleinas == [(0, 0), (1, 0)]


def test_labous_snowfields_without_a_bleina_elsewhere_does_nothing() -> None:
    game, side = beside_town("snowfields")
    bleinas(game, "1,0")
    act(game, "ann", f"move {side}")
    assert notations(game, "ann")[-2:] == ["end", "undo"]
    act(game, "ann", "end")
    assert game.state.bleinas == [(1, 0)]


# -- Fountain of Desire, Hill of Dreams, Wasteland, Jeweled Palace, Unmarked Trail -------


def test_fountain_of_desire_sells_a_fragment_and_sends_you_home() -> None:
    game, side = beside_town("fountain")
    setup(game, "ann", emeralds=2, fragments=["forge"])
    act(game, "ann", f"move {side}")
    choices = [n for n in notations(game, "ann") if n.startswith("end")]
    assert "end Forge" not in choices and "end Moon" in choices and "end pass" in choices
    events = act(game, "ann", "end Moon")
    ann = game.state.seat("ann")
    assert ann.fragments == ["forge", "moon"] and ann.emeralds == 0 and ann.pos == (0, 0)
    assert "draw" not in kinds(events)  # Q11


def test_hill_of_dreams_resolves_a_drawn_frontier_then_buries_it() -> None:
    game, side = beside_town("hill")
    stack(game, discovery=["cave"])
    size = len(game.state.discovery)
    act(game, "ann", f"move {side}")
    events = act(game, "ann", "end pay")
    assert game.state.seat("ann").emeralds == 1  # paid one, the Cave gave one
    assert game.state.discovery[-1] == "cave" and len(game.state.discovery) == size
    assert {"dream", "emerald", "wake"} <= set(kinds(events))
    assert game.state.current.id == "bob"


def test_hill_of_dreams_asks_when_the_drawn_action_has_a_choice() -> None:
    game, side = beside_town("hill")
    setup(game, "ann", emeralds=2)
    stack(game, discovery=["caravan"], supply=["book"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pay")
    assert game.state.phase == "dream"
    assert notations(game, "ann") == ["end pay", "end pass"]
    act(game, "ann", "end pay")
    assert game.state.seat("ann").items == ["book"]
    assert game.state.discovery[-1] == "caravan"


def test_wasteland_gives_an_item_only_to_the_empty_handed() -> None:
    game, side = beside_town("wasteland")
    stack(game, supply=["flute"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end")
    assert game.state.seat("ann").items == ["flute"]
    game, side = beside_town("wasteland")
    setup(game, "ann", items=["book"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end")
    assert game.state.seat("ann").items == ["book"]


def test_jeweled_palace_takes_from_the_richest() -> None:
    game, side = beside_town("palace", n=4)
    setup(game, "bob", emeralds=3)
    setup(game, "cid", emeralds=2)
    act(game, "ann", f"move {side}")
    act(game, "ann", "end")
    assert [s.emeralds for s in game.state.seats] == [2, 2, 2, 1]


def test_jeweled_palace_takes_from_each_tied_richest() -> None:
    game, side = beside_town("palace", n=4)
    setup(game, "bob", emeralds=3)
    setup(game, "cid", emeralds=3)
    act(game, "ann", f"move {side}")
    act(game, "ann", "end")
    assert [s.emeralds for s in game.state.seats] == [3, 2, 2, 1]


def test_jeweled_palace_pays_the_richest_from_the_bank() -> None:
    game, side = beside_town("palace")
    setup(game, "ann", emeralds=4)
    bank = game.state.bank
    act(game, "ann", f"move {side}")
    act(game, "ann", "end")
    assert game.state.seat("ann").emeralds == 5 and game.state.bank == bank - 1


TRAILS = {"0,0": "town", "0,1": "trail_3", "1,0": "trail_2", "0,2": "trail_1"}


def test_unmarked_trail_moves_you_to_another_trail() -> None:
    game = scenario(TRAILS)
    act(game, "ann", "move N")
    ends = [n for n in notations(game, "ann") if n.startswith("end")]
    assert ends == ["end 0,2", "end 1,0", "end stay"]
    events = act(game, "ann", "end 1,0")
    assert game.state.seat("ann").pos == (1, 0)
    assert "trail" in kinds(events)


def test_a_single_unmarked_trail_has_no_action() -> None:
    game, side = beside_town("trail_2")
    act(game, "ann", f"move {side}")
    assert [n for n in notations(game, "ann") if n.startswith("end")] == ["end"]


# -- Dark Forests ------------------------------------------------------------------------

FOREST_MAP = {"0,0": "town", "0,1": "lake"}
FOREST = [("0,2", "S", "Hollow")]


def test_exploring_a_dark_forest_costs_one_emerald_per_marker() -> None:
    game = scenario(FOREST_MAP, forests=FOREST, n=4)
    setup(game, "ann", at="0,1", emeralds=3)
    marker(game, "0,2", "bob", "cid")
    bank = game.state.bank
    act(game, "ann", "move N")
    events = act(game, "ann", "end")
    ann = game.state.seat("ann")
    assert ann.emeralds == 1 and game.state.bank == bank + 2
    assert game.state.forests[(0, 2)].markers == ["bob", "cid", "ann"]
    assert ann.peeks == [(0, 2)]
    assert texts(events, "ann") == ["The Dark Forest (0,2) hides Hollow."]
    assert game.state.markers_left("ann") == 3


def test_unable_to_pay_you_lose_all_emeralds_and_see_nothing() -> None:
    game = scenario(FOREST_MAP, forests=FOREST, n=4)
    setup(game, "ann", at="0,1", emeralds=1)
    marker(game, "0,2", "bob", "cid")
    act(game, "ann", "move N")
    events = act(game, "ann", "end")
    ann = game.state.seat("ann")
    assert ann.emeralds == 0 and ann.peeks == []
    assert "ann" not in game.state.forests[(0, 2)].markers
    assert texts(events, "ann") == [] and "forest_fail" in kinds(events)


def test_a_forest_you_already_marked_does_nothing() -> None:
    game = scenario(FOREST_MAP, forests=FOREST)
    setup(game, "ann", at="0,1", emeralds=2)
    marker(game, "0,2", "ann")
    act(game, "ann", "move N")
    act(game, "ann", "end")
    assert game.state.seat("ann").emeralds == 2
    assert game.state.forests[(0, 2)].markers == ["ann"]


def test_a_dreamt_labous_snowfields_calls_a_bleina_to_the_hill() -> None:
    game, side = beside_town("hill")
    setup(game, "ann", emeralds=2)
    stack(game, discovery=["snowfields"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pay")
    assert notations(game, "ann") == ["end 0,0"]
    act(game, "ann", "end 0,0")
    assert game.state.bleinas == [game.state.seat("ann").pos]
    assert game.state.discovery[-1] == "snowfields"


def test_unmarked_trail_drawn_at_the_hill_of_dreams_is_not_present() -> None:
    # "If only one Unmarked Trail is present, you are not able to use this Frontier Action":
    # the trail drawn at the Hill of Dreams is not on the map, so it is not a second one.
    game = scenario({"0,0": "town", "1,0": "hill", "-1,0": "trail_2"})
    setup(game, "ann", emeralds=2)
    stack(game, discovery=["trail_3"])
    act(game, "ann", "move E")
    events = act(game, "ann", "end pay")
    assert "dream" in kinds(events) and "trail" not in kinds(events)
    assert game.state.seat("ann").pos == (1, 0) and game.state.seat("ann").emeralds == 1
    assert game.state.discovery[-1] == "trail_3"
    assert game.prompt().player == "bob"


def test_unmarked_trail_drawn_at_the_hill_leads_to_any_trail_present() -> None:
    # two trails on the map: the dreamt trail's action can take you to either
    game = scenario({"0,0": "town", "1,0": "hill", "-1,0": "trail_2", "0,1": "trail_3"})
    setup(game, "ann", emeralds=2)
    stack(game, discovery=["trail_1"])
    act(game, "ann", "move E")
    act(game, "ann", "end pay")
    assert notations(game, "ann") == ["end -1,0", "end 0,1", "end stay"]
    act(game, "ann", "end -1,0")
    assert game.state.seat("ann").pos == (-1, 0)


def test_a_dreamt_fountain_sells_a_fragment_and_sends_you_home() -> None:
    game, side = beside_town("hill")
    setup(game, "ann", emeralds=3)
    stack(game, discovery=["fountain"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pay")
    assert "end Ruler" in notations(game, "ann") and "end pass" in notations(game, "ann")
    events = act(game, "ann", "end Ruler")
    ann = game.state.seat("ann")
    assert ann.fragments == ["ruler"] and ann.emeralds == 0 and ann.pos == (0, 0)
    assert "draw" not in kinds(events) and game.state.current.id == "bob"
