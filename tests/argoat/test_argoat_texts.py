"""Event, result and menu texts read as plain English when a count is 0 or 1, and say what will
happen (Q5, Q9)."""

from __future__ import annotations

from argoat_helpers import act, beside_town, marker, notations, scenario, setup

from bot.engine.argoat.data import FRAGMENT_KEYS

FOREST_MAP = {"0,0": "town", "0,1": "lake"}
FOREST = [("0,2", "S", "Hollow")]


def explore_with(emeralds: int, *markers: str) -> list[str]:
    """Ann walks onto the Dark Forest at 0,2 (with ``markers`` on it) holding ``emeralds``."""
    game = scenario(FOREST_MAP, forests=FOREST, n=4)
    setup(game, "ann", at="0,1", emeralds=emeralds)
    if markers:
        marker(game, "0,2", *markers)
    act(game, "ann", "move N")
    return [e.text for e in act(game, "ann", "end") if e.to is None]


def test_the_first_explorer_explores_for_free():
    assert (
        "<p:ann> explored the Dark Forest (0,2) for free (the first to look) and placed a Check Marker."
        in (explore_with(0))
    )


def test_one_marker_costs_one_emerald_in_the_singular():
    texts = explore_with(1, "bob")
    assert "<p:ann> explored the Dark Forest (0,2) (paying 1 Emerald) and placed a Check Marker." in texts
    assert not any("Emeralds)" in t for t in texts)


def test_two_markers_cost_two_emeralds():
    assert any("(paying 2 Emeralds)" in t for t in explore_with(2, "bob", "cid"))


def test_unable_to_pay_one_emerald_with_none():
    texts = explore_with(0, "bob")
    assert (
        "<p:ann> cannot pay 1 Emerald to explore the Dark Forest (0,2) and has none, so sees nothing."
        in texts
    )


def test_unable_to_pay_loses_the_only_emerald():
    texts = explore_with(1, "bob", "cid")
    assert (
        "<p:ann> cannot pay 2 Emeralds to explore the Dark Forest (0,2) and loses their only Emerald."
        in texts
    )


def test_unable_to_pay_loses_all_emeralds():
    texts = explore_with(2, "bob", "cid", "dee")
    assert (
        "<p:ann> cannot pay 3 Emeralds to explore the Dark Forest (0,2) and loses all 2 of their Emeralds."
        in texts
    )


def test_the_result_counts_one_emerald_in_the_singular():
    game = scenario(FOREST_MAP, forests=[("0,2", "S", "Eden")], n=3)
    setup(
        game,
        "ann",
        at="0,1",
        fragments=["forge", "world", "sun", "life", "spirits", "magic", "ruler", "moon"],
    )
    setup(game, "bob", emeralds=1)
    setup(game, "cid", emeralds=2)
    act(game, "ann", "move N")
    act(game, "ann", "end")
    result = game.result()
    assert result is not None and result.winners == ("ann",)
    assert result.details["bob"] == "1 Emerald" and result.details["cid"] == "2 Emeralds"
    assert result.text.endswith("found Eden after 1 turn.")


def words(game, player: str, notation: str) -> tuple[str, str]:
    """The menu label and description of ``notation`` chosen in one step by ``player``."""
    assert notation in notations(game, player)
    return game.choice_words(player, (), tuple(notation.split()))


def test_q5_an_end_of_turn_that_does_nothing_is_labelled_so():
    # Q5: "you ignore the Frontier Action and nothing happens. The same is true if the Bank is
    # empty and a Frontier Action directs you to take Emeralds."
    town = scenario({"0,0": "town", "0,1": "lake"})
    setup(town, "ann", at="0,1")
    act(town, "ann", "move S")
    assert words(town, "ann", "end")[0] == "🏁 End turn: Frontier Town draws a frontier"
    town.state.bank = 0
    town.touch()
    label, note = words(town, "ann", "end")
    assert label == "🏁 End turn on Frontier Town: nothing (the Bank is empty)"
    assert note == "The Bank is empty: the action is ignored."
    town.state.bank, town.state.discovery = 5, []
    town.touch()
    label = words(town, "ann", "end")[0]
    assert label == "🏁 End turn on Frontier Town: nothing (the Discovery Deck is empty)"
    for key in ("cave", "palace"):
        game, side = beside_town(key)
        act(game, "ann", f"move {side}")
        assert "nothing" not in words(game, "ann", "end")[0]
        game.state.bank = 0
        game.touch()
        name = "Glittering Cave" if key == "cave" else "Jeweled Palace"
        assert words(game, "ann", "end")[0] == f"🏁 End turn on {name}: nothing (the Bank is empty)"


def test_q9_with_all_eight_fragments_a_dark_forest_costs_nothing():
    # Q9: with all eight Fragments you pay nothing and flip the forest.
    game = scenario(FOREST_MAP, forests=FOREST, n=4)
    marker(game, "0,2", "bob", "cid")
    setup(game, "ann", at="0,1", emeralds=0)
    note = words(game, "ann", "move N")[1]
    assert note == "A Dark Forest: exploring costs 2 Emeralds (one per Check Marker)."
    setup(game, "ann", at="0,1", emeralds=0, fragments=FRAGMENT_KEYS)
    game.touch()
    note = words(game, "ann", "move N")[1]
    assert note == "A Dark Forest: with all 8 Fragments you pay nothing and flip it."
    assert "costs" not in note


def test_an_extra_turn_is_said_in_one_line():
    game, side = beside_town("temple")
    act(game, "ann", f"move {side}")
    said = [e.text for e in act(game, "ann", "end") if e.to is None]
    assert said == ["<p:ann> ends their move on Forgotten Temple (0,1).", "<p:ann> takes another turn."]
    assert game.prompt().player == "ann"
