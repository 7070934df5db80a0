"""Every AI choice is legal, the search never changes the game it is given, and the entry point
answers the cases that need no search (single action, unknown level, random level)."""

from __future__ import annotations

import _random
import json
import random

import pytest
from ai_positions import HiddenNim, positions

from bot.ai import LEVEL_NAMES, choose_action, decide
from bot.ai.argo import ArgoPolicy
from bot.ai.policy import Policy
from bot.ai.search import Draws, below
from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame

CASES = [
    (ArgoGame, 2, 11, {}),
    (ArgoGame, 3, 4, {"tm_wait": 1}),
    (ArgoGame, 4, 5, {}),
    (ArgoatGame, 2, 7, {}),
    (ArgoatGame, 3, 8, {"difficulty": "journeyman"}),
    (ArgoatGame, 5, 9, {}),
]


@pytest.mark.parametrize(("cls", "players", "seed", "options"), CASES)
def test_every_choice_is_legal_and_leaves_the_game_alone(cls, players, seed, options):
    every = 6 if cls is ArgoGame else 23
    found = positions(cls, players, seed, count=10, every=every, **options)
    assert len(found) >= 8
    checked = 0
    for game in found:
        prompt = game.prompt()
        before = json.dumps(game.to_json(), sort_keys=True)
        for player in prompt.deciders():
            legal = game.legal_actions(player)
            if not legal:
                continue
            for k, level in enumerate(LEVEL_NAMES):
                action = choose_action(game, player, level=level, seed=checked + k, iterations=6)
                if action is None:
                    assert player != prompt.player
                    assert all(a["type"] != "pass" for a in legal)
                else:
                    assert action in legal, (level, game.notation(action))
                checked += 1
        assert json.dumps(game.to_json(), sort_keys=True) == before, "the search changed the real game"
    assert checked >= 30


def test_the_same_seed_gives_the_same_decision_and_statistics():
    game = next(
        g for g in positions(ArgoGame, 2, 3, count=8, every=7) if len(g.legal_actions(g.prompt().player)) > 3
    )
    player = game.prompt().player
    first = decide(game, player, level="hard", seed=5, iterations=40)
    second = decide(game, player, level="hard", seed=5, iterations=40)
    assert first[0] == second[0]
    assert first[1] is not None and second[1] is not None
    assert first[1].visits == second[1].visits
    assert first[1].iterations == 40


def test_a_single_legal_action_is_played_without_search():
    game = HiddenNim.new(["a", "b"], 1, {"pile": 1})
    action, search = decide(game, "a", level="hard", seed=0, iterations=50)
    assert action == {"type": "take", "n": 1}
    assert search is None


def test_nobody_to_decide_means_no_action():
    game = HiddenNim.new(["a", "b"], 1, {"pile": 5})
    assert choose_action(game, "b", level="hard", iterations=5) is None
    game.apply("a", {"type": "take", "n": 3})
    game.apply("b", {"type": "take", "n": 2})
    assert game.result() is not None
    assert choose_action(game, "a", level="hard", iterations=5) is None


def test_unknown_level_is_refused():
    game = HiddenNim.new(["a", "b"], 1, {})
    with pytest.raises(ValueError, match="unknown level"):
        choose_action(game, "a", level="grandmaster")


def test_random_level_never_takes_back_when_it_can_move_on():
    for game in positions(ArgoatGame, 3, 2, count=12, every=5):
        player = game.prompt().player
        legal = game.legal_actions(player)
        action = choose_action(game, player, level="random", seed=1)
        assert action in legal
        if any(a["type"] not in ("undo", "cancel") for a in legal):
            assert action["type"] not in ("undo", "cancel")


def test_the_search_is_game_agnostic():
    """A game without a policy of its own: uniform rollouts scored by the result still find the
    winning move of Nim (leave a multiple of four)."""
    for pile, best in ((10, 2), (7, 3), (9, 1)):
        game = HiddenNim.new(["a", "b"], 3, {"pile": pile})
        for seed in range(3):
            action = choose_action(game, "a", level="hard", seed=seed, iterations=400)
            assert action == {"type": "take", "n": best}, (pile, seed)


def test_the_search_draws_its_expansions_as_randrange_would():
    """``search.below`` (the compiled search's draw) gives exactly ``randrange``'s numbers, so
    seeded searches decide as they did with ``randrange``."""
    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in (*range(1, 70), 127, 128, 129, 1000, 4096):
            assert below(mine, n) == theirs.randrange(n)
        assert mine.getstate() == theirs.getstate()


def test_the_generator_under_random_random_draws_as_random_random():
    """The search seeds its worlds' ``Draws`` with ``_random.Random`` (the C generator that
    ``random.Random`` is built on), one generator seeded anew for each world: the same numbers as
    ``random.Random(seed)``."""
    reused = Draws(_random.Random(0))
    for seed in (0, 1, 5, 2**32 - 1, 2**32, 2**63 + 5, 2**64 - 1):
        reused.rng.seed(seed)
        for mine in (Draws(_random.Random(seed)), reused):
            theirs = random.Random(seed)
            a, b = list(range(30)), list(range(30))
            mine.shuffle(a)
            theirs.shuffle(b)
            assert a == b
            draws = [mine.randrange(1 << 64) for _ in range(5)]
            assert draws == [theirs.randrange(1 << 64) for _ in range(5)]


def test_the_searched_worlds_are_drawn_as_with_random_random():
    """``search.Draws`` (what the search hands ``determinize``) shuffles and draws exactly as the
    ``random.Random`` it wraps would."""
    for seed in range(20):
        mine, theirs = Draws(random.Random(seed)), random.Random(seed)
        for size in (0, 1, 2, 3, 5, 17, 40, 300):
            a, b = list(range(size)), list(range(size))
            mine.shuffle(a)
            theirs.shuffle(b)
            assert a == b
            assert mine.randrange(1 << 64) == theirs.randrange(1 << 64)
            assert mine.randrange(size + 1) == theirs.randrange(size + 1)
        assert mine.rng.getstate() == theirs.getstate()
    with pytest.raises(ValueError):
        Draws(random.Random(0)).randrange(0)


@pytest.mark.parametrize(("players", "seed", "options"), [(2, 11, {}), (3, 4, {"tm_wait": 1}), (4, 5, {})])
def test_the_argo_rollout_plays_as_the_generic_one(players, seed, options):
    """``ArgoPolicy.rollout`` (the game's type known, for native calls when compiled) plays the
    same moves, with the same draws, and scores the same as ``Policy.rollout``."""
    policy = ArgoPolicy()
    checked = 0
    for index, game in enumerate(positions(ArgoGame, players, seed, count=12, every=4, **options)):
        for run in range(3):
            mine, theirs = game.clone(), game.clone()
            mine_rng, theirs_rng = random.Random(index * 10 + run), random.Random(index * 10 + run)
            values = policy.rollout(mine, mine_rng)
            assert values == Policy.rollout(policy, theirs, theirs_rng)
            assert mine.to_json() == theirs.to_json()
            assert mine_rng.getstate() == theirs_rng.getstate()
            checked += 1
    assert checked >= 30


def test_the_argo_edge_keys_are_the_games_notations():
    """``ArgoPolicy.notations`` (the search's edge keys, by the engine's notation function) gives
    ``game.notation`` of every legal action of every decider, Time Machine moments included."""
    policy = ArgoPolicy()
    checked = 0
    for players, seed, options in ((2, 11, {}), (3, 4, {"tm_wait": 1}), (4, 5, {"tm_wait": 0})):
        for game in positions(ArgoGame, players, seed, count=25, every=3, **options):
            for player in game.prompt().deciders():
                legal = game.legal_actions(player)
                assert policy.notations(game, legal) == [game.notation(a) for a in legal]
                checked += len(legal)
    assert checked >= 500
