"""One test per answer of the rulebook's Q&A (Q1–Q15)."""

from __future__ import annotations

import json

import pytest
from argoat_helpers import (
    BASE,
    act,
    beside_town,
    bleinas,
    kinds,
    map_problems,
    marker,
    notations,
    refuses,
    scenario,
    setup,
    stack,
    texts,
)

from bot.engine.argoat.data import FRAGMENT_KEYS, FRONTIER_BY_KEY, ITEM_BY_KEY
from bot.engine.argoat.geometry import fmt, step
from bot.engine.core import IllegalAction

CHAIN = {**BASE, "0,2": "lake", "0,3": "palace"}
TRAILS = {"0,0": "town", "0,1": "trail_3", "1,0": "trail_2", "0,2": "trail_1"}
KNOWN_TYPES = {
    "move",
    "bleina",
    "use",
    "trade",
    "trade_part",
    "propose",
    "accept",
    "decline",
    "withdraw",
    "end",
    "place",
    "cancel",
    "undo",
}


def test_q1_items_cannot_be_discarded() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["book", "wings"], at="0,1")  # the Book is useless here
    assert {a["type"] for a in game.legal_actions("ann")} <= KNOWN_TYPES
    assert not [n for n in notations(game, "ann") if "Book" in n]
    refuses(game, "ann", {"type": "discard", "item": "book"})
    act(game, "ann", "move N")
    act(game, "ann", "end")
    assert game.state.seat("ann").items == ["book", "wings"]


def test_q2_items_are_never_shown_to_other_players() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff", "water"])
    setup(game, "bob", items=["eye"])
    bob_view = json.dumps(game.view("bob"))
    for kind in ("staff", "water", "Staff", "Water"):
        assert kind not in bob_view
    assert game.view("bob")["players"][0]["items"] == 2
    assert game.view("ann")["you"]["items"] == ["staff", "water"]
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give item Water")
    act(game, "ann", "trade propose")
    assert "Water" not in game.prompt().text
    assert "Water" not in json.dumps(game.view(None))
    assert "Water" in game.view("ann")["you"]["trade_terms"]


def test_q3_trades_only_with_players_on_the_same_frontier() -> None:
    game = scenario(CHAIN)
    setup(game, "bob", at="0,1")
    assert "trade Blue" not in notations(game, "ann")
    assert "trade Green" in notations(game, "ann")
    assert "Q3" in refuses(game, "ann", {"type": "trade", "with": "bob"})
    act(game, "ann", "move N")
    assert "trade Blue" in notations(game, "ann")
    assert "trade Green" not in notations(game, "ann")


def test_q4_you_must_move_every_turn() -> None:
    game = scenario(CHAIN)
    assert not [n for n in notations(game, "ann") if n.startswith("end")]
    assert "Q4" in refuses(game, "ann", {"type": "end"})
    with pytest.raises(IllegalAction, match=r"You must move before ending your turn \(Q4\)\. 'end' is not"):
        game.parse("ann", "end")  # a typed move gets the rule's reason too
    act(game, "ann", "move N")
    assert "end" in notations(game, "ann")


def test_q5_empty_decks_supply_and_bank_do_nothing() -> None:
    # Discovery Deck empty: the Town only gives its Emerald.
    game = scenario(CHAIN)
    game.state.discovery = []
    setup(game, "ann", at="0,1")
    act(game, "ann", "move S")
    events = act(game, "ann", "end")
    assert "draw" not in kinds(events) and game.state.seat("ann").emeralds == 2
    # Supply empty: the Caravan offers nothing to buy, the Wasteland gives nothing.
    for key in ("caravan", "wasteland"):
        game, side = beside_town(key)
        game.state.supply = []
        act(game, "ann", f"move {side}")
        assert [n for n in notations(game, "ann") if n.startswith("end")] == ["end"]
        act(game, "ann", "end")
        assert game.state.seat("ann").items == [] and game.state.seat("ann").emeralds == 1
    # Hill of Dreams with an empty Discovery Deck.
    game, side = beside_town("hill")
    game.state.discovery = []
    act(game, "ann", f"move {side}")
    assert [n for n in notations(game, "ann") if n.startswith("end")] == ["end"]
    # Bank empty: the Glittering Cave gives nothing.
    game, side = beside_town("cave")
    game.state.bank = 0
    act(game, "ann", f"move {side}")
    events = act(game, "ann", "end")
    assert game.state.seat("ann").emeralds == 1 and "empty" in kinds(events)
    # Darkness Deck empty: a Dragon frontier brings no Dark Forest.
    game = scenario(BASE)
    setup(game, "ann", at="0,1")
    stack(game, discovery=["lake"], darkness=[])
    act(game, "ann", "move S")
    act(game, "ann", "end")
    events = act(game, "ann", "place 0,2")
    assert game.state.forests == {} and "empty" in kinds(events)
    assert game.state.current.id == "bob"


def test_q6_deck_contents_and_the_dreamt_card_stay_hidden() -> None:
    game, side = beside_town("hill")
    stack(game, discovery=["cave"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pay")
    assert game.state.discovery[-1] == "cave"
    for player in (None, "ann", "bob"):
        view = game.view(player)
        assert set(view["decks"]) == {"discovery", "supply", "darkness"}
        assert all(isinstance(n, int) for n in view["decks"].values())
        text = json.dumps(view)
        for key in game.state.discovery:  # no card still in the deck is named anywhere
            assert f'"{key}"' not in text
            assert FRONTIER_BY_KEY[key].name not in text


Q7_MAP = {
    "0,0": "town",
    "0,1": "temple",
    "-1,1": "trail_1",
    "-1,2": "trail_3",
    "-1,3": "dark_dragon",
    "0,3": "fountain",
}
"""Lake Heol fits at 0,2 between the Temple and the Fountain, with no room for a forest."""


def test_q7_a_dragon_frontier_with_no_room_for_a_dark_forest() -> None:
    game = scenario(Q7_MAP)
    setup(game, "ann", at="0,1")
    stack(game, discovery=["lake"])
    darkness = list(game.state.darkness)
    act(game, "ann", "move S")
    act(game, "ann", "end")
    assert "place 0,2" in notations(game, "ann")
    events = act(game, "ann", "place 0,2")
    assert "no_forest" in kinds(events)
    assert game.state.forests == {} and game.state.darkness == darkness
    assert game.state.current.id == "bob" and map_problems(game) == []


FOREST_MAP = {**BASE, "0,2": "lake"}


def test_q8_the_first_explorer_pays_nothing() -> None:
    game = scenario(FOREST_MAP, forests=[("0,3", "S", "Hollow")])
    setup(game, "ann", at="0,2", emeralds=0)
    act(game, "ann", "move N")
    events = act(game, "ann", "end")
    assert game.state.forests[(0, 3)].markers == ["ann"]
    assert texts(events, "ann") == ["The Dark Forest at 0,3 hides Hollow."]


def test_q9_with_all_eight_fragments_no_payment_and_the_forest_flips() -> None:
    game = scenario(FOREST_MAP, forests=[("0,3", "S", "Hollow")], n=4)
    marker(game, "0,3", "bob", "cid")
    setup(game, "ann", at="0,2", emeralds=0, fragments=FRAGMENT_KEYS)
    act(game, "ann", "move N")
    events = act(game, "ann", "end")
    forest = game.state.forests[(0, 3)]
    assert forest.flipped and "flip" in kinds(events)
    assert game.state.seat("ann").emeralds == 0
    assert game.result() is None  # a Hollow: the game goes on
    assert game.view(None)["forests"][0]["content"] == "Hollow"  # and it stays face up


def test_q10_trail_and_item_movement_leave_the_bleina_behind() -> None:
    game = scenario(TRAILS)
    bleinas(game, "0,1")
    act(game, "ann", "move N")
    act(game, "ann", "end 1,0")
    assert game.state.seat("ann").pos == (1, 0) and game.state.bleinas == [(0, 1)]
    game = scenario(CHAIN, n=4)
    setup(game, "ann", items=["staff"])
    bleinas(game, "0,0", "0,2")
    act(game, "ann", "use Staff 0,2")
    assert game.state.bleinas == [(0, 0), (0, 2)]


def test_q11_the_fountain_sends_you_home_without_the_town_action() -> None:
    game, side = beside_town("fountain")
    setup(game, "ann", emeralds=2)
    size = len(game.state.discovery)
    act(game, "ann", f"move {side}")
    events = act(game, "ann", "end Sun")
    assert game.state.seat("ann").pos == (0, 0)
    assert len(game.state.discovery) == size and "draw" not in kinds(events)
    assert game.state.current.id == "bob"


def test_q12_no_trading_while_resolving_a_dreamt_frontier() -> None:
    game, side = beside_town("hill")
    setup(game, "bob", at=fmt(step((0, 0), side)), emeralds=5)
    stack(game, discovery=["fountain"])
    act(game, "ann", f"move {side}")
    assert "trade Blue" in notations(game, "ann")
    events = act(game, "ann", "end pay")  # Ann's last Emerald: the Fountain cannot be paid
    assert game.state.seat("ann").fragments == [] and game.state.current.id == "bob"
    assert "dream" in kinds(events)
    # with Emeralds to spare, the dreamt Fountain asks, and only about itself
    game, side = beside_town("hill")
    setup(game, "bob", at=fmt(step((0, 0), side)), emeralds=5)
    setup(game, "ann", emeralds=3)
    stack(game, discovery=["fountain"])
    act(game, "ann", f"move {side}")
    act(game, "ann", "end pay")
    options = notations(game, "ann")
    assert options and all(o.startswith("end ") for o in options)
    assert "Q12" in refuses(game, "ann", {"type": "trade", "with": "bob"})


def test_q13_what_a_frontier_action_brings_waits_for_your_next_turn() -> None:
    game, side = beside_town("snowfields")
    bleinas(game, "0,0")
    act(game, "ann", f"move {side}")
    act(game, "ann", "end 0,0")
    assert game.state.bleinas == [(1, 0)] and game.legal_actions("ann") == []
    game = scenario(BASE, n=2)
    stack(game, supply=["water"])
    act(game, "ann", "move W")
    act(game, "ann", "end pay")
    assert game.state.seat("ann").items == ["water"] and game.legal_actions("ann") == []
    act(game, "bob", "move S")
    act(game, "bob", "end")
    assert "use Water" in notations(game, "ann")


def test_q14_after_the_staff_you_may_still_ride_a_bleina() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff"])
    bleinas(game, "0,2")
    act(game, "ann", "use Staff 0,2")
    assert "move bleina S S" in notations(game, "ann")
    act(game, "ann", "move bleina S S")
    assert game.state.seat("ann").pos == (0, 0) and game.state.bleinas == [(0, 0)]
    # ...but not if a Bleina already carried you before the Staff
    game = scenario(CHAIN, n=4)
    setup(game, "ann", items=["staff"], emeralds=2)
    bleinas(game, "0,0", "0,3")
    act(game, "ann", "move bleina N N")
    act(game, "ann", "use Staff 0,3")
    assert not [n for n in notations(game, "ann") if "bleina" in n]


def test_q15_wings_do_not_stack_with_a_bleina() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["wings"], emeralds=3)
    act(game, "ann", "use Wings")
    assert "Q15" in refuses(game, "ann", {"type": "bleina", "path": ["N", "N"]})
    for _ in range(3):
        assert not [n for n in notations(game, "ann") if "bleina" in n]
        act(game, "ann", "move N")
    assert not [n for n in notations(game, "ann") if "bleina" in n]
    game = scenario(CHAIN)
    setup(game, "ann", items=["wings"], emeralds=3)
    act(game, "ann", "move bleina N N")
    assert "use Wings" not in notations(game, "ann")
    assert ITEM_BY_KEY["wings"].name == "Wings of the Holy Dragon"
