"""Property tests: random legal play (trades included) never breaks an invariant."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from argoat_helpers import PLAYERS, map_problems
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import (
    BANK_SIZE,
    FRAGMENT_COPIES,
    FRAGMENT_KEYS,
    FRONTIER_BY_KEY,
    FRONTIERS,
    ITEM_BY_KEY,
    ITEM_COPIES,
    ITEM_KEYS,
)
from bot.engine.argoat.geometry import frontier_spots
from bot.engine.argoat.notation import VERBS
from bot.engine.core import Event, IllegalAction

ITEM_WORDS = re.compile(
    r"\b(" + "|".join([k for k in ITEM_KEYS] + [ITEM_BY_KEY[k].name for k in ITEM_KEYS]) + r")\b",
    re.IGNORECASE,
)
FOREST_WORDS = re.compile(r"\b(Eden|Hollow)\b")
BACKWARDS = frozenset({"undo", "cancel", "withdraw", "decline"})


def item_words(text: str) -> set[str]:
    """Item keys named in ``text`` (by key, token or full name)."""
    found = set()
    for match in ITEM_WORDS.findall(text):
        word = match.lower()
        found.add(next(k for k in ITEM_KEYS if word in (k, ITEM_BY_KEY[k].name.lower())))
    return found


def check_invariants(game: ArgoatGame) -> None:
    """Conservation, markers, map, positions, deck sizes."""
    s = game.state
    n = len(s.seats)
    assert s.bank >= 0 and all(seat.emeralds >= 0 for seat in s.seats)
    assert s.bank + sum(seat.emeralds for seat in s.seats) == BANK_SIZE
    for f in FRAGMENT_KEYS:
        holders = sum(f in seat.fragments for seat in s.seats)
        assert s.reliquary[f] >= 0 and s.reliquary[f] + holders == FRAGMENT_COPIES
    for seat in s.seats:
        assert len(seat.fragments) == len(set(seat.fragments))
    items = Counter(s.supply) + Counter(s.used_items)
    for seat in s.seats:
        items += Counter(seat.items)
    assert items == {k: ITEM_COPIES for k in ITEM_KEYS}
    for forest in s.forests.values():
        assert len(forest.markers) == len(set(forest.markers))
    for seat in s.seats:
        marked = {at for at, f in s.forests.items() if seat.id in f.markers}
        assert set(seat.peeks) == marked and len(seat.peeks) == len(marked)
        assert s.markers_left(seat.id) >= 0
        assert seat.pos in s.roads
    assert map_problems(game) == []
    assert len(s.bleinas) == n // 2 and all(b in s.roads for b in s.bleinas)
    placed = len(s.frontiers) - 1 + (1 if s.drawn else 0)
    assert placed + len(s.discovery) == len(FRONTIERS) - 1
    assert len(s.forests) + len(s.darkness) == 4
    for observer, known in s.known_items.items():  # what a player knows another holds is true
        for holder, keys in known.items():
            assert keys and observer != holder
            assert not Counter(keys) - Counter(s.seat(holder).items), (observer, holder, keys)


def check_public_view(game: ArgoatGame) -> None:
    """The public view names no held Item and no face-down forest's content; it shows the
    drawn card and exactly the cells a pending placement may take."""
    view = game.view(None)
    assert "you" not in view
    if view["phase"] in ("place_frontier", "place_forest"):
        assert view["placement_cells"] == [
            a["at"] for a in game.legal_actions(view["active"]) if a["type"] == "place"
        ]
        assert view["placement_cells"]
    else:
        assert view["placement_cells"] == []
    card = view["drawn_card"]
    assert (card is None) == (view["drawn"] is None)
    if card is not None:
        assert card["key"] == view["drawn"] and card["name"] == FRONTIER_BY_KEY[card["key"]].name
    view = dict(view, discard={}, movement={})  # both name only Items already played
    for forest in view["forests"]:
        assert ("content" in forest) == forest["flipped"]
    hidden = dict(view, forests=[f for f in view["forests"] if not f["flipped"]])
    text = json.dumps(hidden)
    assert not item_words(text), text
    assert not FOREST_WORDS.search(text)
    for player in game.players:
        mine = game.view(player)
        assert set(mine) - set(view) == {"you"}
        assert {p["at"] for p in mine["you"]["peeks"]} == {
            f"{at[0]},{at[1]}" for at in game.state.seat(player).peeks
        }


def check_choices(game: ArgoatGame) -> None:
    """Notations unique, parseable, short, verb first; public prompts reveal no secret."""
    prompt = game.prompt()
    assert prompt is not None
    assert not item_words(prompt.text) and not FOREST_WORDS.search(prompt.text)
    for player in prompt.deciders():
        legal = game.legal_actions(player)
        assert legal, f"{player} must be able to act"
        written = [game.notation(a) for a in legal]
        assert len(written) == len(set(written))
        for action, text in zip(legal, written, strict=True):
            tokens = text.split()
            assert tokens[0] in VERBS and all(len(t) <= 80 for t in tokens)
            assert game.parse(player, text) == action
            json.dumps(action)
        public = not prompt.private or player != prompt.player
        if public:
            for text in written:
                assert not item_words(text), text
                assert not FOREST_WORDS.search(text)
        elif prompt.secret_verbs:  # split: what is offered in public names no secret either
            for text in written:
                if text.split()[0] not in prompt.secret_verbs:
                    assert not item_words(text), text
                    assert not FOREST_WORDS.search(text)
        for other in written:  # no option is a prefix of another (menus narrow token by token)
            assert not any(t != other and t.startswith(other + " ") for t in written)
    for player in game.players:
        if player not in prompt.deciders():
            assert game.legal_actions(player) == []


def check_events(game: ArgoatGame, action: dict[str, Any], events: list[Event]) -> None:
    """Public events name no secret: only the Item being played, forest contents once flipped."""
    used = {action["item"]} if action["type"] == "use" else set()
    for event in events:
        json.dumps(event.data)
        if event.to is not None:
            assert event.to in game.players
            continue
        assert item_words(event.text) <= used, event.text
        if event.kind not in ("flip", "win"):
            assert not FOREST_WORDS.search(event.text), event.text
            assert "content" not in event.data
        assert event.data.get("item") in used | {None}


def check_caches(game: ArgoatGame) -> None:
    """What the game caches between actions (legal actions, prompts, trade menus, moves,
    placement cells) equals what a fresh copy without any cache computes."""
    fresh = ArgoatGame.from_json(game.to_json())
    clone = game.clone()
    assert clone.to_json() == game.to_json()
    assert fresh.prompt() == game.prompt() == clone.prompt()
    for player in game.players:
        assert fresh.legal_actions(player) == game.legal_actions(player) == clone.legal_actions(player)
    s = game.state
    for roads in {f.roads for f in FRONTIERS}:
        assert s.frontier_spots(roads) == frontier_spots(s.roads, roads)


def play(
    players: list[str], seed: int, difficulty: str, actions: int, checks: bool = True
) -> tuple[ArgoatGame, list[tuple[str, dict[str, Any]]]]:
    """Random legal play with every check after every action; returns the game and its log."""
    game = ArgoatGame.new(players, seed, {"difficulty": difficulty})
    rng = random.Random(seed)
    log: list[tuple[str, dict[str, Any]]] = []
    for step in range(actions):
        prompt = game.prompt()
        if prompt is None:
            break
        if checks:
            check_choices(game)
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        if rng.random() < 0.75:  # take-backs are legal too, but mostly let play go on
            legal = [a for a in legal if a["type"] not in BACKWARDS] or legal
        action = rng.choice(legal)
        if checks and step % 25 == 0:
            before = json.dumps(game.to_json())
            with pytest.raises(IllegalAction):
                game.apply(player, {"type": "move", "dir": "up"})
            assert json.dumps(game.to_json()) == before
        events = game.apply(player, action)
        log.append((player, action))
        if checks:
            check_events(game, action, events)
            check_invariants(game)
            check_public_view(game)
            if step % 5 == 0:
                check_caches(game)
    return game, log


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**40), n=st.integers(2, 5), difficulty=st.sampled_from(["journeyman", "adventurer"])
)
def test_random_play_keeps_every_invariant(seed: int, n: int, difficulty: str) -> None:
    players = list(PLAYERS[:n])
    game, log = play(players, seed, difficulty, actions=250)
    assert log
    # determinism: the same actions on the same seed give the same game
    replay = ArgoatGame.new(players, seed, {"difficulty": difficulty})
    for player, action in log:
        replay.apply(player, action)
    assert replay.to_json() == game.to_json()
    # JSON round trip, and the copy plays on exactly like the original
    copy = ArgoatGame.from_json(json.loads(json.dumps(game.to_json())))
    assert copy.to_json() == game.to_json()
    assert copy.view(None) == game.view(None)
    if game.prompt() is not None:
        player = game.prompt().player or game.prompt().deciders()[0]
        for action in game.legal_actions(player)[:3]:
            a, b = ArgoatGame.from_json(copy.to_json()), ArgoatGame.from_json(copy.to_json())
            assert a.apply(player, action) == b.apply(player, action)
            assert a.to_json() == b.to_json()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**40), n=st.integers(2, 5))
def test_random_games_end_or_reach_the_turn_cap(seed: int, n: int) -> None:
    game = ArgoatGame.new(list(PLAYERS[:n]), seed, {})
    rng = random.Random(seed)
    cap = 400
    while game.prompt() is not None and game.state.turn <= cap:
        prompt = game.prompt()
        assert prompt is not None
        player = rng.choice(prompt.deciders())
        game.apply(player, rng.choice(game.legal_actions(player)))
    result = game.result()
    if result is None:
        assert game.state.turn > cap
    else:
        assert len(result.winners) == 1
        winner = game.state.seat(result.winners[0])
        assert sorted(winner.fragments) == sorted(FRAGMENT_KEYS)
        assert game.view(None)["finished"]
    check_invariants(game)
    check_public_view(game)
