"""The six Items: effects and timing as printed."""

from __future__ import annotations

from argoat_helpers import BASE, act, bleinas, kinds, marker, notations, scenario, setup, texts

from bot.engine.argoat.data import FRAGMENT_KEYS

CHAIN = {**BASE, "0,2": "lake", "0,3": "palace"}
"""The Adventurer map plus a road north: Town 0,0 → Temple 0,1 → Lake 0,2 → Palace 0,3."""


def test_staff_before_moving_makes_the_move_optional() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff"])
    bleinas(game, "0,2")
    assert "use Staff 0,2" in notations(game, "ann")
    events = act(game, "ann", "use Staff 0,2")
    assert game.state.seat("ann").pos == (0, 2)
    assert "item_used" in kinds(events) and "teleport" in kinds(events)
    assert game.state.bleinas == [(0, 2)]  # the Bleina stays (Q10)
    options = notations(game, "ann")
    assert "end" in options  # no need to move any more
    assert "move N" in options  # ...but you may


def test_staff_after_moving_ends_ordinary_movement() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff"])
    bleinas(game, "0,3")
    act(game, "ann", "move N")
    act(game, "ann", "use Staff 0,3")
    assert game.state.seat("ann").pos == (0, 3)
    options = notations(game, "ann")
    assert not [o for o in options if o.startswith("move ") and "bleina" not in o]
    assert "end" in options


def test_staff_needs_a_bleina_on_another_frontier() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff"])
    assert not [n for n in notations(game, "ann") if n.startswith("use")]


def test_book_of_wisdom_only_in_the_town() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["book"], fragments=["sun"])
    uses = [n for n in notations(game, "ann") if n.startswith("use")]
    assert "use Book Sun" not in uses and "use Book Moon" in uses and len(uses) == 7
    act(game, "ann", "use Book Moon")
    assert game.state.seat("ann").fragments == ["sun", "moon"]
    game = scenario(CHAIN)
    setup(game, "ann", items=["book"], at="0,1")
    assert not [n for n in notations(game, "ann") if n.startswith("use")]


def test_book_of_wisdom_has_no_effect_with_all_eight() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["book"], fragments=FRAGMENT_KEYS)
    events = act(game, "ann", "use Book")
    assert "no_effect" in kinds(events)
    assert game.state.seat("ann").items == []


def test_eye_of_the_dark_dragon_peeks_for_free() -> None:
    game = scenario(CHAIN, forests=[("0,4", "S", "Eden")], n=4)
    marker(game, "0,4", "bob", "cid")
    setup(game, "ann", items=["eye"], emeralds=0)
    assert "use Eye 0,4" in notations(game, "ann")
    events = act(game, "ann", "use Eye 0,4")
    assert game.state.forests[(0, 4)].markers == ["bob", "cid", "ann"]
    assert texts(events, "ann") == ["The Dark Forest (0,4) hides Eden."]
    assert not any("Eden" in t for t in texts(events))
    assert "use Eye 0,4" not in notations(game, "ann")


def test_wings_of_the_holy_dragon_up_to_three_spaces() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["wings", "wings"])
    act(game, "ann", "use Wings")
    assert "use Wings" not in notations(game, "ann")  # a second one would add nothing
    act(game, "ann", "move N")
    assert "end" in notations(game, "ann")  # one space is enough
    act(game, "ann", "move N")
    act(game, "ann", "move N")
    assert game.state.seat("ann").pos == (0, 3)
    assert not [n for n in notations(game, "ann") if n.startswith("move")]


def test_wings_after_one_space_allow_two_more() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["wings"])
    act(game, "ann", "move N")
    act(game, "ann", "use Wings")
    act(game, "ann", "move N")
    act(game, "ann", "move N")
    assert game.state.seat("ann").pos == (0, 3)
    assert "move N" not in notations(game, "ann")


def test_water_of_life_gives_another_turn() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["water"])
    act(game, "ann", "use Water")
    act(game, "ann", "move S")
    events = act(game, "ann", "end")
    assert game.state.current.id == "ann" and "extra_turn" in kinds(events)


def test_flute_of_cleansing_calls_a_bleina_and_makes_riding_free() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["flute"], emeralds=0)
    bleinas(game, "0,3")
    assert "use Flute 0,3" in notations(game, "ann")
    act(game, "ann", "use Flute 0,3")
    assert game.state.bleinas == [(0, 0)]
    assert "move bleina N N" in notations(game, "ann")
    act(game, "ann", "move bleina N N")
    assert game.state.seat("ann").emeralds == 0
    assert game.state.bleinas == [(0, 2)]


def test_flute_with_no_bleina_elsewhere_only_frees_the_ride() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["flute"], emeralds=0)
    assert "use Flute" in notations(game, "ann")
    act(game, "ann", "use Flute")
    act(game, "ann", "move bleina N N")
    assert game.state.seat("ann").pos == (0, 2)


def test_using_items_is_public_and_discards_them() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["water", "water"])
    events = act(game, "ann", "use Water")
    assert texts(events) == ["<p:ann> uses the Water of Life."]
    assert game.state.seat("ann").items == ["water"]
    assert game.view(None)["discard"] == {"water": 1}
    act(game, "ann", "use Water")
    assert game.state.extra_turns == 2
