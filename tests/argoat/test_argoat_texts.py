"""Event and result texts read as plain English when a count is 0 or 1."""

from __future__ import annotations

from argoat_helpers import act, marker, scenario, setup

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
        "<p:ann> explored the Dark Forest at 0,2 for free (the first to look) and placed a Check Marker."
        in (explore_with(0))
    )


def test_one_marker_costs_one_emerald_in_the_singular():
    texts = explore_with(1, "bob")
    assert "<p:ann> explored the Dark Forest at 0,2 (paying 1 Emerald) and placed a Check Marker." in texts
    assert not any("Emeralds)" in t for t in texts)


def test_two_markers_cost_two_emeralds():
    assert any("(paying 2 Emeralds)" in t for t in explore_with(2, "bob", "cid"))


def test_unable_to_pay_one_emerald_with_none():
    texts = explore_with(0, "bob")
    assert (
        "<p:ann> cannot pay 1 Emerald to explore the Dark Forest at 0,2 and has none, so sees nothing."
        in texts
    )


def test_unable_to_pay_loses_the_only_emerald():
    texts = explore_with(1, "bob", "cid")
    assert (
        "<p:ann> cannot pay 2 Emeralds to explore the Dark Forest at 0,2 and loses their only Emerald."
        in texts
    )


def test_unable_to_pay_loses_all_emeralds():
    texts = explore_with(2, "bob", "cid", "dee")
    assert (
        "<p:ann> cannot pay 3 Emeralds to explore the Dark Forest at 0,2 and loses all 2 of their Emeralds."
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
