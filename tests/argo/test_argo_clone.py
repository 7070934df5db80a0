"""clone() and determinize(player, rng): independent copies, and the hidden stack order redrawn."""

from __future__ import annotations

import json
import random
from collections import Counter

from argo_board import play, setup

from bot.engine.argo import ArgoGame
from bot.engine.core import SYSTEM, TIMEOUT, Rng


def advance(game: ArgoGame, rng: random.Random, steps: int) -> None:
    """Play up to ``steps`` random legal actions (undo and cancel avoided)."""
    for _ in range(steps):
        if game.result() is not None:
            return
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            continue
        who = rng.choice(deciders)
        options = game.legal_actions(who)
        plain = [a for a in options if a["type"] not in ("undo", "cancel")] or options
        game.apply(who, rng.choice(plain))


def play_to_end(game: ArgoGame, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(4000):
        if game.result() is not None:
            return
        advance(game, rng, 1)
    raise AssertionError("the game did not end")


def test_clone_is_independent_of_the_original():
    game = ArgoGame.new(["a", "b", "c", "d"], 11, {})
    advance(game, random.Random(1), 40)
    before = json.dumps(game.to_json(), sort_keys=True)
    copy = game.clone()
    assert json.dumps(copy.to_json(), sort_keys=True) == before
    assert copy.prompt() == game.prompt()
    for p in game.players:
        assert copy.legal_actions(p) == game.legal_actions(p)
    advance(copy, random.Random(2), 30)
    assert json.dumps(copy.to_json(), sort_keys=True) != before
    assert json.dumps(game.to_json(), sort_keys=True) == before
    # and the other way round
    copy_before = json.dumps(copy.to_json(), sort_keys=True)
    advance(game, random.Random(3), 30)
    assert json.dumps(copy.to_json(), sort_keys=True) == copy_before


def test_clone_in_the_middle_of_a_decision_keeps_undo_and_pending_apart():
    base = {"N1": "Corridor-T NES", "N2": "Corridor-I NS", "N1E1": "Corridor-L SW", "E1": "Corridor-L NW"}
    game = setup(base, astronauts={"Yellow-Chief": "N1"})
    play(game, "Blue", "move Grunt N1")
    assert game.st.pending is not None
    before = game.to_json()
    copy = game.clone()
    play(copy, "Blue", "push Yellow-Chief N2")
    assert copy.st.pending is None and game.to_json() == before
    play(game, "Blue", "cancel")
    play(game, "Blue", "move Pilot N1", "push Yellow-Chief N1E1")
    assert "undo" in [game.notation(a) for a in game.legal_actions("p0")]
    after_game = game.to_json()
    copy2 = game.clone()
    play(copy2, "Blue", "undo")
    assert game.to_json() == after_game


def test_determinize_keeps_the_public_view_and_the_stack_contents():
    for seed in range(6):
        game = ArgoGame.new(["a", "b", "c"], seed, {})
        advance(game, random.Random(seed), 25)
        for player in game.players:
            copy = game.determinize(player, random.Random(seed * 7 + 1))
            assert copy.view(None) == game.view(None)
            assert copy.view(player) == game.view(player)
            assert Counter(copy.st.stack) == Counter(game.st.stack)
            assert copy.st.display == game.st.display
            for p in game.players:  # the same choices, but a copy to look ahead never takes back
                assert copy.legal_actions(p) == [a for a in game.legal_actions(p) if a["type"] != "undo"]


def test_determinize_redraws_the_stack_order():
    game = ArgoGame.new(["a", "b", "c", "d"], 5, {})
    orders = {tuple(game.determinize("a", random.Random(s)).st.stack) for s in range(10)}
    assert len(orders) > 1
    assert len(game.st.stack) > 10


def test_games_differing_only_in_hidden_order_give_the_same_copy():
    game = ArgoGame.new(["a", "b", "c", "d"], 21, {"tm_wait": 1})
    advance(game, random.Random(4), 30)
    data = game.to_json()
    other_data = json.loads(json.dumps(data))
    other_data["stack"] = list(reversed(other_data["stack"]))
    other_data["rng"] = (other_data["rng"] + 12345) % (1 << 64)
    if other_data["undo_base"] is not None:
        other_data["undo_base"]["stack"] = list(other_data["stack"])
        other_data["undo_base"]["rng"] = other_data["rng"]
    other = ArgoGame.from_json(other_data)
    assert other.to_json() != game.to_json()
    assert other.view(None) == game.view(None)
    for source in (lambda: random.Random(99), lambda: Rng(99)):
        one = game.determinize("b", source())
        two = other.determinize("b", source())
        assert json.dumps(one.to_json(), sort_keys=True) == json.dumps(two.to_json(), sort_keys=True)
    # a different rng state gives a different copy
    three = game.determinize("b", random.Random(100))
    assert three.to_json() != game.determinize("b", random.Random(99)).to_json()


def test_undo_snapshot_holds_the_same_stack_as_the_game():
    # determinize relies on it: every reveal is an undo barrier
    for seed in range(4):
        game = ArgoGame.new(["a", "b"], seed, {})
        rng = random.Random(seed)
        for _ in range(300):
            if game.result() is not None:
                break
            data = game.to_json()
            assert data["undo_base"] is None or data["undo_base"]["stack"] == data["stack"]
            advance(game, rng, 1)


def test_a_determinized_game_plays_on_to_a_legal_end():
    for seed in range(4):
        game = ArgoGame.new(["a", "b", "c", "d"][: 2 + seed % 3], seed, {"tm_wait": seed % 2})
        advance(game, random.Random(seed), 20 + 10 * seed)
        copy = game.determinize(game.players[0], random.Random(seed))
        play_to_end(copy, seed + 50)
        result = copy.result()
        assert result is not None and set(result.scores) == set(copy.players)
        assert game.result() is None  # the original did not move
        data = copy.to_json()
        assert ArgoGame.from_json(json.loads(json.dumps(data))).to_json() == data


def test_copies_never_see_later_changes_along_random_games():
    # Copies share containers until one side writes: play on and check every earlier copy.
    for seed in range(6):
        options = {"tm_wait": seed % 2, "deep_space": "on" if seed % 3 == 0 else "off"}
        game = ArgoGame.new(["a", "b", "c", "d"][: 2 + seed % 3], seed, options)
        rng = random.Random(seed)
        kept: list[tuple[ArgoGame, str]] = []
        for step in range(400):
            if game.result() is not None:
                break
            if step % 3 == 0:
                copy = game.clone()
                kept.append((copy, json.dumps(copy.to_json(), sort_keys=True)))
            advance(game, rng, 1)
        for copy, text in kept:
            assert json.dumps(copy.to_json(), sort_keys=True) == text
        # and a copy played on by itself does not change the game it came from
        done = json.dumps(game.to_json(), sort_keys=True)
        for copy, _ in kept[-5:]:
            advance(copy, random.Random(seed + 1), 40)
        assert json.dumps(game.to_json(), sort_keys=True) == done
