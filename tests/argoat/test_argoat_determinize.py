"""clone() and determinize(player, rng): independent copies, and copies with the hidden redrawn."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import fields
from typing import Any

import pytest
from argoat_helpers import BASE, PLAYERS, act, marker, notations, scenario, setup
from test_argoat_properties import check_invariants, check_public_view

from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import EDEN, FRAGMENT_KEYS, FRONTIERS
from bot.engine.argoat.state import State

SKIP = frozenset({"undo", "cancel"})


def _step(game: ArgoatGame, rng: random.Random) -> bool:
    """One random legal action (take-backs excepted); False once the game is over."""
    prompt = game.prompt()
    if prompt is None:
        return False
    player = rng.choice(prompt.deciders())
    legal = game.legal_actions(player)
    game.apply(player, rng.choice([a for a in legal if a["type"] not in SKIP] or legal))
    return True


def _positions(seeds: range, every: int = 23, actions: int = 700) -> list[ArgoatGame]:
    """Copies of random games at regular intervals (all phases, trades, peeks, Items)."""
    found = []
    for seed in seeds:
        n = 2 + seed % 4
        game = ArgoatGame.new(list(PLAYERS[:n]), seed, {"difficulty": ("adventurer", "journeyman")[seed % 2]})
        rng = random.Random(seed)
        for step in range(actions):
            if not _step(game, rng):
                break
            if step % every == 0:
                found.append(ArgoatGame.from_json(game.to_json()))
    return found


POSITIONS = _positions(range(8))


def _dump(game: ArgoatGame) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def _hidden(game: ArgoatGame, player: str) -> Any:
    """Everything ``player`` cannot see (to tell whether a copy redrew it)."""
    s = game.state
    return (
        [seat.items for seat in s.seats if seat.id != player],
        s.supply,
        s.discovery,
        s.darkness,
        [f.content for _, f in sorted(s.forests.items()) if not f.flipped and player not in f.markers],
        s.rng.state,
    )


# -- clone ---------------------------------------------------------------------------------


def test_clone_copies_every_field_and_plays_like_the_original() -> None:
    names = {f.name for f in fields(State)}
    for game in POSITIONS[::3]:
        clone = game.clone()
        assert clone is not game and clone.state is not game.state
        assert names <= set(vars(clone.state))  # a field added to State must be copied too
        assert _dump(clone) == _dump(game)
        assert clone.prompt() == game.prompt()
        for player in game.players:
            assert clone.legal_actions(player) == game.legal_actions(player)
            assert clone.view(player) == game.view(player)


def test_clone_is_independent_both_ways() -> None:
    for index, game in enumerate(POSITIONS[::2]):
        before = _dump(game)
        clone = game.clone()
        rng = random.Random(index)
        for _ in range(60):  # the clone plays on (trades, draws, peeks): the original stays
            if not _step(clone, rng):
                break
        assert _dump(game) == before
        clone_before = _dump(clone)
        for _ in range(60):  # and the other way round
            if not _step(game, rng):
                break
        assert _dump(clone) == clone_before
        check_invariants(clone)
        check_invariants(game)


def test_a_clone_diverges_without_corrupting_the_map_caches() -> None:
    # two copies placing different frontiers on the same cell keep their own map data
    for game in POSITIONS:
        if game.state.phase == "place_frontier" and len(game.legal_actions(game.state.current.id)) > 1:
            break
    else:
        pytest.skip("no placement with a choice among the positions")
    player = game.state.current.id
    first, second = game.legal_actions(player)[:2]
    a, b = game.clone(), game.clone()
    a.apply(player, first)
    b.apply(player, second)
    for copy in (a, b, game):
        fresh = ArgoatGame.from_json(copy.to_json())
        for who in copy.players:
            assert copy.legal_actions(who) == fresh.legal_actions(who)
        for roads in {f.roads for f in FRONTIERS}:
            assert copy.state.frontier_spots(roads) == fresh.state.frontier_spots(roads)


# -- determinize -------------------------------------------------------------------------


def test_determinize_keeps_what_the_player_sees() -> None:
    for index, game in enumerate(POSITIONS):
        for player in game.players:
            copy = game.determinize(player, random.Random(index))
            assert copy.view(player) == game.view(player)
            assert copy.view(None) == game.view(None)
            assert copy.prompt() == game.prompt()
            assert copy.legal_actions(player) == game.legal_actions(player)
            assert copy.secrets_text(player) == game.secrets_text(player)


def test_determinize_conserves_every_component() -> None:
    for index, game in enumerate(POSITIONS):
        for player in game.players:
            copy = game.determinize(player, random.Random(index))
            check_invariants(copy)  # Items, Emeralds, Fragments, map, markers, deck sizes
            check_public_view(copy)
            s, t = game.state, copy.state
            every = (
                Counter(t.discovery) + Counter(t.frontiers.values()) + Counter([t.drawn] if t.drawn else [])
            )
            assert every == Counter(f.key for f in FRONTIERS)  # each frontier exactly once
            contents = [f.content for f in t.forests.values()] + t.darkness
            assert contents.count(EDEN) == 1 and len(contents) == 4
            for old, new in zip(s.seats, t.seats, strict=True):
                assert (new.emeralds, new.fragments, len(new.items)) == (
                    old.emeralds,
                    old.fragments,
                    len(old.items),
                )
            assert t.bank == s.bank and t.reliquary == s.reliquary and t.used_items == s.used_items


def test_determinize_redraws_the_hidden_and_keeps_the_seen() -> None:
    redrawn = 0
    for index, game in enumerate(POSITIONS):
        for player in game.players:
            copies = [game.determinize(player, random.Random(index * 100 + k)) for k in range(4)]
            hidden = [json.dumps(_hidden(c, player)) for c in copies]
            redrawn += len(set(hidden)) > 1  # different seeds, different hidden worlds
            me = game.state.seat(player)
            for copy in copies:
                assert copy.state.seat(player).items == me.items
                for at in me.peeks:
                    assert copy.state.forests[at].content == game.state.forests[at].content
                for at, forest in game.state.forests.items():
                    if forest.flipped:
                        assert copy.state.forests[at].content == forest.content
    assert redrawn >= len(POSITIONS)  # not a plain copy


def test_seen_hollow_keeps_eden_elsewhere_and_seen_eden_stays() -> None:
    forests = [("0,3", "S", "Hollow"), ("-1,2", "E", "Eden")]
    cards = {**BASE, "0,2": "dark_dragon"}
    game = scenario(cards, forests=forests)
    marker(game, "0,3", "ann")
    marker(game, "-1,2", "bob")
    for seed in range(30):
        ann = game.determinize("ann", random.Random(seed)).state
        assert ann.forests[(0, 3)].content == "Hollow"  # she saw it
        assert [f.content for f in ann.forests.values()].count(EDEN) + ann.darkness.count(EDEN) == 1
        bob = game.determinize("bob", random.Random(seed)).state
        assert bob.forests[(-1, 2)].content == EDEN  # he saw Eden: it stays
        assert EDEN not in bob.darkness and bob.forests[(0, 3)].content == "Hollow"
    seen = {game.determinize("ann", random.Random(seed)).state.forests[(-1, 2)].content for seed in range(30)}
    assert seen == {EDEN, "Hollow"}  # Ann has not looked there: either may be drawn


def _give_item(game: ArgoatGame, giver: str, taker: str, item: str) -> None:
    colour = game.state.seat(taker).colour
    act(game, giver, f"trade {colour}")
    act(game, giver, f"trade give item {item.capitalize()}")
    act(game, giver, "trade propose")
    act(game, taker, "accept")


def test_items_a_player_gave_away_are_known_until_they_may_have_gone() -> None:
    game = scenario(BASE, n=4)
    setup(game, "ann", items=["staff", "eye"])
    setup(game, "bob", items=["water"])
    _give_item(game, "ann", "bob", "staff")
    assert sorted(game.state.seat("bob").items) == ["staff", "water"]
    for seed in range(20):  # Ann knows Bob holds her Staff; his other Item is redrawn
        bob = game.determinize("ann", random.Random(seed)).state.seat("bob")
        assert "staff" in bob.items and len(bob.items) == 2
    others = {tuple(game.determinize("ann", random.Random(s)).state.seat("bob").items) for s in range(20)}
    assert len(others) > 1
    # Cid does not know it: his copies give Bob any two Items
    assert any(
        "staff" not in game.determinize("cid", random.Random(s)).state.seat("bob").items for s in range(20)
    )
    # Bob passes one Item on to Cid (its kind unseen by Ann): the Staff may be gone
    act(game, "ann", "move S")
    act(game, "ann", "end")  # Bob's turn; he is still on the Town with Cid
    _give_item(game, "bob", "cid", game.state.seat("bob").items[0])
    assert "bob" not in game.state.known_items.get("ann", {})
    assert game.state.known_items["bob"]["cid"]  # Bob knows what he gave Cid


def test_an_item_played_is_no_longer_known() -> None:
    game = scenario(BASE, n=3)
    setup(game, "ann", items=["water"])
    _give_item(game, "ann", "bob", "water")
    assert game.state.known_items == {"ann": {"bob": ["water"]}}
    act(game, "ann", "move S")
    act(game, "ann", "end")
    act(game, "bob", "use Water")
    assert game.state.known_items == {}


def test_another_players_trade_offer_is_redrawn_from_their_new_hand() -> None:
    game = scenario(BASE, n=3)
    setup(game, "ann", items=["staff", "eye"])
    act(game, "ann", "trade Blue")
    act(game, "ann", "trade give item Staff")
    act(game, "ann", "trade propose")
    for seed in range(20):
        copy = game.determinize("bob", random.Random(seed))
        (part,) = copy.state.trade[1]
        assert part[2] in copy.state.seat("ann").items
        assert copy.view("bob") == game.view("bob")
        copy.apply("bob", {"type": "accept"})  # the copied offer can be carried out
        check_invariants(copy)
    assert game.determinize("ann", random.Random(0)).state.trade[1] == game.state.trade[1]


def _hidden_twin(game: ArgoatGame, player: str, seed: int) -> ArgoatGame:
    """The same game with everything ``player`` cannot see changed (built on the JSON)."""
    rng = random.Random(seed)
    data = json.loads(json.dumps(game.to_json()))
    state = data["state"]
    known = state.get("known_items", {}).get(player, {})
    pool = list(state["supply"])
    sizes = {}
    for seat in state["seats"]:
        if seat["id"] == player:
            continue
        kept = list(known.get(seat["id"], []))
        rest = list(seat["items"])
        for k in kept:
            rest.remove(k)
        pool += rest
        sizes[seat["id"]] = (kept, len(rest))
    rng.shuffle(pool)
    for seat in state["seats"]:
        if seat["id"] in sizes:
            kept, extra = sizes[seat["id"]]
            seat["items"] = sorted(
                kept + pool[:extra], key=lambda k: "staff book eye wings water flute".index(k)
            )
            del pool[:extra]
    state["supply"] = pool
    trade = state["trade"]
    proposer = state["seats"][state["active"]]
    if trade is not None and proposer["id"] != player:
        hand = list(proposer["items"])
        rng.shuffle(hand)
        for part in trade[1]:
            if part[0] == "give" and part[1] == "item":
                part[2] = hand.pop()
    rng.shuffle(state["discovery"])
    unseen = [f for f in state["forests"] if not f["flipped"] and player not in f["markers"]]
    contents = [f["content"] for f in unseen] + state["darkness"]
    rng.shuffle(contents)
    for forest, content in zip(unseen, contents, strict=False):
        forest["content"] = content
    state["darkness"] = contents[len(unseen) :]
    state["known_items"] = {player: known} if known else {}
    state["rng"] = rng.randrange(1 << 64)
    return ArgoatGame.from_json(data)


def test_determinize_depends_only_on_what_the_player_sees() -> None:
    differed = 0
    for index, game in enumerate(POSITIONS):
        for player in game.players:
            twin = _hidden_twin(game, player, index)
            assert twin.view(player) == game.view(player)
            differed += _dump(twin) != _dump(game)
            for seed in (index, index + 1000):
                a = game.determinize(player, random.Random(seed))
                b = twin.determinize(player, random.Random(seed))
                assert _dump(a) == _dump(b), (index, player)
    assert differed >= len(POSITIONS)  # the twins really hid different things


def test_a_determinized_game_plays_on_to_a_legal_end() -> None:
    ended = 0
    for index, game in enumerate(POSITIONS[::4]):
        if game.prompt() is None:
            continue
        player = game.players[index % len(game.players)]
        copy = game.determinize(player, random.Random(index))
        rng = random.Random(index)
        for step in range(40000):
            if not _step(copy, rng):
                break
            if step % 50 == 0:
                check_invariants(copy)
        result = copy.result()
        assert result is not None, "random play did not finish the determinized game"
        (winner,) = result.winners
        assert sorted(copy.state.seat(winner).fragments) == sorted(FRAGMENT_KEYS)
        assert [f.content for f in copy.state.forests.values() if f.flipped].count(EDEN) == 1
        check_invariants(copy)
        ended += 1
    assert ended >= 5


def test_determinize_refuses_a_stranger() -> None:
    game = scenario(BASE)
    with pytest.raises(ValueError):
        game.determinize("zed", random.Random(0))
    assert notations(game, "ann")
