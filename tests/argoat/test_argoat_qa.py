"""One test per answer of the rulebook's Q&A (Q1–Q15)."""

from __future__ import annotations

import json
import random

import pytest
from argoat_helpers import (
    BASE,
    act,
    beside_town,
    bleinas,
    kinds,
    map_problems,
    marker,
    new_game,
    notations,
    refuses,
    scenario,
    setup,
    stack,
    texts,
)

from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import FRAGMENT_KEYS, FRONTIER_BY_KEY, ITEM_BY_KEY
from bot.engine.argoat.geometry import OPPOSITE, fmt, step
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


def _rides(game, player: str) -> list[str]:
    return [n for n in notations(game, player) if n.startswith("move bleina")]


def test_q4_a_bleina_ride_may_not_bring_you_back_where_the_turn_began() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", emeralds=2)  # the one Bleina stands on the Town with Ann
    rides = _rides(game, "ann")
    assert "move bleina N N" in rides
    for ride in rides:  # no there-and-back ride such as "move bleina N S"
        first, second = ride.split()[2:]
        assert OPPOSITE[first] != second
    assert "Q4" in refuses(game, "ann", {"type": "bleina", "path": ["N", "S"]})
    # nor a one-space ride back after walking away
    game = scenario(CHAIN)
    setup(game, "ann", emeralds=2)
    bleinas(game, "0,1")
    act(game, "ann", "move N")
    assert _rides(game, "ann") == ["move bleina N"]
    assert "Q4" in refuses(game, "ann", {"type": "bleina", "path": ["S"]})


def test_q4_back_on_the_starting_frontier_you_must_move_on() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["wings"])
    act(game, "ann", "use Wings")
    act(game, "ann", "move N")
    act(game, "ann", "move S")  # a third space is left, so coming back is allowed...
    assert game.state.seat("ann").pos == (0, 0)
    assert not [n for n in notations(game, "ann") if n.startswith("end")]  # ...but not ending here
    assert "Q4" in refuses(game, "ann", {"type": "end"})
    assert "where the turn began" in game.prompt().text
    act(game, "ann", "move W")
    assert "end pay" in notations(game, "ann")  # the Caravan


def test_q4_a_walk_back_to_the_start_needs_a_way_out() -> None:
    for emeralds, allowed in ((0, False), (1, True)):
        game = scenario(CHAIN, n=4)
        setup(game, "ann", items=["staff"], emeralds=emeralds)
        bleinas(game, "0,0", "0,1")
        act(game, "ann", "use Staff 0,1")  # before moving: the move is still to make
        assert ("move S" in notations(game, "ann")) is allowed  # back to the Town, the start
        if allowed:  # a Bleina on the Town would carry her away again
            act(game, "ann", "move S")
            assert not [n for n in notations(game, "ann") if n.startswith("end")]
            assert _rides(game, "ann") == ["move bleina N", "move bleina E", "move bleina S", "move bleina W"]


def test_q4_the_staff_back_to_the_start_and_the_only_forced_ending_there() -> None:
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff"], emeralds=0)
    bleinas(game, "0,0")
    act(game, "ann", "move N")
    assert "use Staff 0,0" not in notations(game, "ann")  # no Emerald: she would be stuck
    game = scenario(CHAIN)
    setup(game, "ann", items=["staff"], emeralds=1)
    bleinas(game, "0,0")
    act(game, "ann", "move N")
    act(game, "ann", "use Staff 0,0")  # with an Emerald the Bleina could carry her away
    assert "end" not in notations(game, "ann") and _rides(game, "ann")
    # she trades her last Emerald away: no walk or ride is left, so ending here is possible
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    act(game, "bob", "accept")
    assert _rides(game, "ann") == [] and "end" in notations(game, "ann")
    events = act(game, "ann", "end")
    assert "draw" in kinds(events)  # the Town's action is resolved as usual


def test_q4_an_unmarked_trail_does_not_lead_back_where_the_turn_began() -> None:
    game = scenario(TRAILS)
    setup(game, "ann", at="0,1")
    act(game, "ann", "move N")
    assert [n for n in notations(game, "ann") if n.startswith("end")] == ["end 1,0", "end stay"]
    refuses(game, "ann", {"type": "end", "choice": "0,1"})


def test_q5_the_frontier_town_with_an_empty_discovery_deck_is_ignored() -> None:
    # Q5: "you ignore the Frontier Action and nothing happens": no frontier and no Emerald.
    game = scenario(CHAIN)
    game.state.discovery = []
    setup(game, "ann", at="0,1")
    bank = game.state.bank
    act(game, "ann", "move S")
    events = act(game, "ann", "end")
    assert "draw" not in kinds(events) and "emerald" not in kinds(events) and "empty" in kinds(events)
    assert game.state.seat("ann").emeralds == 1 and game.state.bank == bank
    assert game.prompt().player == "bob"


def test_q5_the_frontier_town_with_an_empty_bank_is_ignored() -> None:
    game = scenario(CHAIN)
    setup(game, "cid", emeralds=game.state.seat("cid").emeralds + game.state.bank)
    assert game.state.bank == 0
    setup(game, "ann", at="0,1")
    deck = list(game.state.discovery)
    act(game, "ann", "move S")
    events = act(game, "ann", "end")
    assert "draw" not in kinds(events) and "empty" in kinds(events)
    assert game.state.discovery == deck and len(game.state.frontiers) == len(CHAIN)
    assert game.state.seat("ann").emeralds == 1 and game.prompt().player == "bob"


def test_q5_empty_decks_supply_and_bank_do_nothing() -> None:
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
    # Bank empty: the Glittering Cave gives nothing, nor the Palace to its richest player.
    for key in ("cave", "palace"):
        game, side = beside_town(key)
        game.state.bank = 0
        act(game, "ann", f"move {side}")
        events = act(game, "ann", "end")
        assert game.state.seat("ann").emeralds == 1 and "empty" in kinds(events)
    # Hill of Dreams: a dreamt Wasteland with the Supply empty gives nothing either.
    game, side = beside_town("hill")
    stack(game, discovery=["wasteland"])
    game.state.supply = []
    act(game, "ann", f"move {side}")
    events = act(game, "ann", "end pay")
    assert "dream" in kinds(events) and "empty" in kinds(events) and game.state.seat("ann").items == []
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
        assert view["decks_empty"] == {"discovery": False, "supply": False, "darkness": False}
        text = json.dumps(view)
        for key in game.state.discovery:  # no card still in the deck is named anywhere
            assert f'"{key}"' not in text
            assert FRONTIER_BY_KEY[key].name not in text


def _shorter_decks(game: ArgoatGame) -> ArgoatGame:
    """The same game with the bottom half of the Discovery Deck and of the Supply gone."""
    data = json.loads(json.dumps(game.to_json()))
    state = data["state"]
    for deck in ("discovery", "supply"):
        state[deck] = state[deck][: max(1, len(state[deck]) // 2)]
    return ArgoatGame.from_json(data)


def test_q6_no_deck_size_in_any_view_or_event() -> None:
    # Q6: "Can I check the number of cards in each deck ...? No, you may not." Two games that
    # differ only in their decks' sizes look the same, and stay so while the same actions are
    # played (until one of the shorter decks runs out, which is visible at the table).
    for seed in (1, 2, 3):
        game = new_game(4, seed=seed)
        twin = _shorter_decks(game)
        assert len(twin.state.discovery) < len(game.state.discovery)
        rng = random.Random(seed)
        for _ in range(600):
            if any(getattr(twin.state, d)[:1] != getattr(game.state, d)[:1] for d in ("discovery", "supply")):
                break  # a card put back at the bottom comes up sooner in the shorter deck
            for player in (None, *game.players):
                assert game.view(player) == twin.view(player)
            prompt = game.prompt()
            if prompt is None:
                break
            player = rng.choice(prompt.deciders())
            legal = [a for a in game.legal_actions(player) if a["type"] not in ("undo", "cancel")]
            assert legal == [a for a in twin.legal_actions(player) if a["type"] not in ("undo", "cancel")]
            action = rng.choice(legal)
            events, twin_events = game.apply(player, action), twin.apply(player, action)
            assert [(e.text, e.to, e.kind, e.data) for e in events] == [
                (e.text, e.to, e.kind, e.data) for e in twin_events
            ]
    # an empty deck shows as empty, and only that
    game, _ = beside_town("caravan")
    game.state.supply = []
    game.touch()
    assert game.view(None)["decks_empty"] == {"discovery": False, "supply": True, "darkness": False}


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
    assert texts(events, "ann") == ["The Dark Forest (0,3) hides Hollow."]


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
    bleinas(game, "0,1")
    act(game, "ann", "use Staff 0,1")
    assert "move bleina N N" in notations(game, "ann")
    act(game, "ann", "move bleina N N")
    assert game.state.seat("ann").pos == (0, 3) and game.state.bleinas == [(0, 3)]
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
