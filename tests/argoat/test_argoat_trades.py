"""Trades: built step by step, proposed, accepted atomically, declined or withdrawn."""

from __future__ import annotations

import json

import pytest
from argoat_helpers import BASE, act, kinds, marker, notations, refuses, scenario, setup, texts

from bot.engine.argoat.data import ITEM_BY_KEY
from bot.engine.argoat.effects import end_turn
from bot.engine.argoat.game import ArgoatGame
from bot.engine.core import SYSTEM, TIMEOUT, IllegalAction

FOREST_MAP = {**BASE, "0,2": "lake"}
FORESTS = [("0,3", "S", "Eden")]


def trading_game() -> ArgoatGame:
    """Ann (active) and Bob on the Town with something of everything to trade."""
    game = scenario(FOREST_MAP, forests=FORESTS)
    setup(game, "ann", emeralds=2, fragments=["sun"], items=["staff", "eye"])
    setup(game, "bob", emeralds=1, fragments=["moon"], items=["book"])
    marker(game, "0,3", "ann")
    return game


def test_trade_parts_are_offered_one_legal_step_at_a_time() -> None:
    game = trading_game()
    assert "trade Blue" in notations(game, "ann")
    assert "trade Green" in notations(game, "ann")  # Cid is here too, with an Emerald
    act(game, "ann", "trade Blue")
    assert notations(game, "ann") == [
        "trade give emerald",
        "trade give fragment Sun",
        "trade give explore 0,3",
        "trade give item Staff",
        "trade give item Eye",
        "trade ask emerald",
        "trade ask fragment Moon",
        "trade ask item",
        "cancel",
        "undo",
    ]
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade give emerald")
    options = notations(game, "ann")
    assert "trade give emerald" not in options  # Ann has only two
    assert "trade ask emerald" not in options  # Emeralds go one way in a trade
    assert "trade propose" in options
    assert game.prompt().private  # the options name Ann's Items


def test_a_trade_is_always_built_in_private() -> None:
    game = scenario(FOREST_MAP, forests=FORESTS)
    setup(game, "ann", emeralds=2, items=[])
    setup(game, "bob", emeralds=1, fragments=["moon"])
    assert not game.prompt().private  # nothing secret in Ann's turn options
    act(game, "ann", "trade Blue")
    assert game.prompt().private  # the builder is shown to Ann only
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    assert game.prompt().player == "bob" and not game.prompt().private  # Bob's answer is public


def test_sharing_fragments_takes_copies_from_the_reliquary() -> None:
    game = trading_game()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give fragment Sun")
    act(game, "ann", "trade ask fragment Moon")
    act(game, "ann", "trade propose")
    act(game, "bob", "accept")
    s = game.state
    assert s.seat("ann").fragments == ["sun", "moon"]
    assert s.seat("bob").fragments == ["sun", "moon"]  # the giver keeps theirs
    assert s.reliquary["sun"] == 3 and s.reliquary["moon"] == 3


def test_letting_the_other_explore_a_dark_forest() -> None:
    game = trading_game()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give explore 0,3")
    act(game, "ann", "trade ask emerald")
    act(game, "ann", "trade propose")
    events = act(game, "bob", "accept")
    assert game.state.forests[(0, 3)].markers == ["ann", "bob"]
    assert texts(events, "bob") == ["The Dark Forest (0,3) hides Eden."]
    assert texts(events, "ann") == []
    assert not any("Eden" in t for t in texts(events))
    assert game.state.seat("ann").emeralds == 3 and game.state.seat("bob").emeralds == 0


def test_items_change_hands_face_down() -> None:
    game = trading_game()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give item Staff")
    act(game, "ann", "trade propose")
    offer = game.prompt()
    assert offer.player == "bob" and "Staff" not in offer.text and "1 Item" in offer.text
    assert not offer.private  # Bob's answers name nothing secret
    assert "Staff" not in json.dumps(game.view("bob"))
    events = act(game, "bob", "accept")
    assert game.state.seat("bob").items == ["staff", "book"]
    assert game.state.seat("ann").items == ["eye"]
    staff = ITEM_BY_KEY["staff"]
    assert texts(events, "bob") == [
        f"In the trade you received the Staff of Guidance.\nStaff of Guidance: {staff.summary}"
    ]
    assert all("Staff" not in t for t in texts(events))


def test_asking_for_one_of_your_items_lets_the_giver_choose() -> None:
    game = trading_game()
    setup(game, "bob", items=["book", "water", "water"])
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade ask item")
    act(game, "ann", "trade propose")
    prompt = game.prompt()
    assert prompt.player == "bob" and prompt.private
    assert prompt.others == ("ann",) and prompt.others_label == "Withdraw"
    assert notations(game, "bob") == ["accept Book", "accept Water", "decline"]
    assert notations(game, "ann") == ["withdraw"]
    events = act(game, "bob", "accept Water")
    assert game.state.seat("ann").items == ["staff", "eye", "water"]
    assert game.state.seat("bob").items == ["book", "water"]
    water = ITEM_BY_KEY["water"]
    assert texts(events, "ann") == [
        f"In the trade you received the Water of Life.\nWater of Life: {water.summary}"
    ]


def test_asking_for_two_items_offers_each_combination() -> None:
    game = trading_game()
    setup(game, "bob", items=["book", "water", "water"])
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade ask item")
    act(game, "ann", "trade ask item")
    act(game, "ann", "trade propose")
    assert notations(game, "bob") == ["accept Book Water", "accept Water Water", "decline"]


def test_accepting_is_atomic_and_cannot_be_undone() -> None:
    game = trading_game()
    setup(game, "bob", at="0,1")
    act(game, "ann", "move N")
    assert "undo" in notations(game, "ann")
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    events = act(game, "bob", "accept")
    assert "trade" in kinds(events)
    assert "undo" not in notations(game, "ann")  # a trade is a barrier


def test_declining_or_withdrawing_leaves_everything_as_it_was() -> None:
    game = trading_game()
    before = json.dumps(game.to_json()["state"]["seats"])
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    events = act(game, "bob", "decline")
    assert "trade_declined" in kinds(events)
    assert json.dumps(game.to_json()["state"]["seats"]) == before
    assert game.state.phase == "turn" and game.prompt().player == "ann"
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    events = act(game, "ann", "withdraw")
    assert "trade_withdrawn" in kinds(events)
    assert json.dumps(game.to_json()["state"]["seats"]) == before


def test_cancel_and_undo_while_building() -> None:
    game = trading_game()
    before = game.to_json()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade ask fragment Moon")
    act(game, "ann", "undo")
    assert game.state.trade == ["bob", (("give", "emerald", None),)]
    act(game, "ann", "cancel")
    assert game.to_json() == before


def test_only_the_partner_answers_and_only_the_proposer_withdraws() -> None:
    game = trading_game()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    assert "Only" in refuses(game, "cid", {"type": "accept"})
    refuses(game, "ann", {"type": "accept"})
    refuses(game, "bob", {"type": "withdraw"})
    refuses(game, "ann", {"type": "end"})


def test_feasibility_is_checked_again_at_accept_time() -> None:
    game = trading_game()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give fragment Sun")
    act(game, "ann", "trade propose")
    game.state.reliquary["sun"] = 0  # e.g. the last copy went elsewhere
    game.touch()
    assert notations(game, "bob") == ["decline"]
    assert "no longer" in game.prompt().text
    refuses(game, "bob", {"type": "accept"})


def test_a_pending_proposal_lapses_when_the_turn_ends() -> None:
    game = trading_game()
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    assert notations(game, "ann") == ["withdraw"]  # Ann cannot end her turn meanwhile
    end_turn(game.state, [])
    game.touch()
    assert game.state.trade is None and game.state.phase == "turn"
    assert game.state.current.id == "bob"


def test_no_trade_without_anything_to_trade() -> None:
    game = scenario(BASE)
    for seat in game.state.seats:
        setup(game, seat.id, emeralds=0)
    assert not [n for n in notations(game, "ann") if n.startswith("trade")]


def test_asking_to_explore_the_partners_dark_forest() -> None:
    game = scenario(FOREST_MAP, forests=FORESTS)
    marker(game, "0,3", "bob")
    act(game, "ann", "trade Blue")
    assert "trade ask explore 0,3" in notations(game, "ann")
    act(game, "ann", "trade ask explore 0,3")
    act(game, "ann", "trade give emerald")
    act(game, "ann", "trade propose")
    events = act(game, "bob", "accept")
    assert game.state.forests[(0, 3)].markers == ["bob", "ann"]
    assert texts(events, "ann") == ["The Dark Forest (0,3) hides Eden."]
    assert game.view("ann")["you"]["peeks"] == [{"at": "0,3", "content": "Eden"}]


def test_an_offer_waits_trade_wait_minutes_then_a_timeout_declines_it() -> None:
    game = trading_game()
    assert game.state.trade_wait == 60  # the option's default
    for part in ("trade Blue", "trade give emerald", "trade ask fragment Moon"):
        act(game, "ann", part)
    assert game.prompt().timeout is None  # building a trade is never timed
    before = json.dumps(game.state.seats[0].__dict__, default=list)
    act(game, "ann", "trade propose")
    offer = game.prompt()
    assert offer.player == "bob" and offer.timeout == 60 * 60 and offer.timer_key
    events = game.apply(SYSTEM, TIMEOUT)
    assert [e.kind for e in events] == ["trade_declined"] and events[0].data["expired"]
    assert "did not answer" in events[0].text and "counts as declined" in events[0].text
    assert game.prompt().player == "ann" and game.state.trade is None
    assert json.dumps(game.state.seats[0].__dict__, default=list) == before  # nothing changed hands
    with pytest.raises(IllegalAction):
        game.apply(SYSTEM, TIMEOUT)  # nothing waits now


def test_trade_wait_is_a_table_option_and_zero_means_an_offer_waits_for_its_answer() -> None:
    spec = {s.name: s for s in ArgoatGame.option_specs}["trade_wait"]
    assert (spec.default, spec.minimum, spec.maximum) == (60, 0, 1440)
    game = ArgoatGame.new(["ann", "bob"], 3, {"trade_wait": 5})
    assert game.state.trade_wait == 5
    assert ArgoatGame.from_json(json.loads(json.dumps(game.to_json()))).state.trade_wait == 5
    game = trading_game()
    game.state.trade_wait = 0
    for part in ("trade Blue", "trade give emerald", "trade propose"):
        act(game, "ann", part)
    assert game.prompt().player == "bob" and game.prompt().timeout is None
    with pytest.raises(IllegalAction):
        game.apply(SYSTEM, TIMEOUT)


def test_a_second_offer_in_the_same_turn_gets_a_timer_of_its_own_and_offers_are_recorded() -> None:
    game = trading_game()
    for part in ("trade Blue", "trade give emerald", "trade propose"):
        act(game, "ann", part)
    first = game.prompt().timer_key
    act(game, "bob", "decline")
    for part in ("trade Blue", "trade give emerald", "trade propose"):
        act(game, "ann", part)
    assert game.prompt().timer_key != first
    assert game.state.offered == ["bob", "bob"]
    act(game, "bob", "decline")
    end_turn(game.state, [])
    game.touch()
    assert game.state.offered == []
