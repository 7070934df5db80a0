"""Never peek: two games that look the same to the bot's player get the same decision and the
same search statistics for the same seed, however their hidden information differs.

The search only ever plays on ``game.determinize(player, rng)`` copies, so this holds exactly
when the engine's ``determinize`` redraws everything the player cannot see (the contract's naive
default, a plain clone, keeps the hidden truth and fails these tests). The "detector" tests show
that a peeking search is caught by the same comparison.
"""

from __future__ import annotations

import random

import pytest
from ai_positions import positions

from bot.ai import choose_action, decide, policy_for
from bot.ai.greedy import greedy_action
from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame
from bot.engine.core import Game
from tests.argoat.argoat_helpers import BASE, act, marker, scenario
from tests.argoat.argoat_helpers import setup as seat_setup

ITERATIONS = 60
SEARCHING = ("easy", "normal", "hard")


def test_both_engines_have_their_own_determinize():
    assert ArgoGame.determinize is not Game.determinize
    assert ArgoatGame.determinize is not Game.determinize


def argo_twins() -> list[tuple[ArgoGame, ArgoGame, str]]:
    """Argo positions and a copy whose Module stack is in another order (nothing else differs)."""
    twins = []
    for seed in (21, 22):
        for game in positions(ArgoGame, 2, seed, count=6, every=5):
            player = game.prompt().player
            data = game.to_json()
            if player is None or len(data["stack"]) < 3 or len(game.legal_actions(player)) < 3:
                continue
            data["stack"] = list(reversed(data["stack"]))
            if data.get("undo_base"):
                data["undo_base"] = {**data["undo_base"], "stack": list(reversed(data["undo_base"]["stack"]))}
            twin = ArgoGame.from_json(data)
            assert twin.view(player) == game.view(player)
            assert twin.to_json() != game.to_json()
            twins.append((game, twin, player))
    assert len(twins) >= 4
    return twins[:4]


def _argoat_secret_swap(data: dict, player: str, rng: random.Random) -> bool:
    """Change what ``player`` cannot see: decks' orders, an opponent's Item, unseen forests."""
    state = data["state"]
    state["discovery"] = list(reversed(state["discovery"]))
    state["supply"] = list(reversed(state["supply"]))
    changed = len(state["discovery"]) > 1
    mine = next(s for s in state["seats"] if s["id"] == player)
    for seat in state["seats"]:
        if seat["id"] == player or not seat["items"]:
            continue
        for i, item in enumerate(seat["items"]):
            other = next((k for k in state["supply"] if k != item), None)
            if other is not None:
                state["supply"].remove(other)
                state["supply"].append(item)
                seat["items"][i] = other
                seat["items"].sort()
                changed = True
                break
    seen = {tuple(p) for p in mine["peeks"]}
    hidden = [f for f in state["forests"] if not f["flipped"] and tuple(f["at"]) not in seen]
    contents = [f["content"] for f in hidden] + list(state["darkness"])
    if len(set(contents)) > 1:
        rng.shuffle(contents)
        while [f["content"] for f in hidden] + list(state["darkness"]) == contents:
            rng.shuffle(contents)
        for f, content in zip(hidden, contents, strict=False):
            f["content"] = content
        state["darkness"] = contents[len(hidden) :]
        changed = True
    return changed


def argoat_twins() -> list[tuple[ArgoatGame, ArgoatGame, str]]:
    """Argoat positions and a copy with other hidden Items, forest contents and deck orders."""
    twins = []
    rng = random.Random(5)
    for seed in (31, 32, 33):
        for game in positions(ArgoatGame, 3, seed, count=8, every=40):
            player = game.prompt().player
            if (
                player is None
                or len(policy_for(game).candidates(game, player, game.legal_actions(player), 0)) < 2
                or any(decide(game, player, level="hard", seed=s, iterations=2)[1] is None for s in range(2))
            ):
                continue
            data = game.to_json()
            if not _argoat_secret_swap(data, player, rng):
                continue
            twin = ArgoatGame.from_json(data)
            assert twin.view(player) == game.view(player)
            assert twin.to_json() != game.to_json()
            twins.append((game, twin, player))
    assert len(twins) >= 4
    return twins[:6]


def same_search(a: Game, b: Game, player: str, seed: int) -> bool:
    first = decide(a, player, level="hard", seed=seed, iterations=ITERATIONS)
    second = decide(b, player, level="hard", seed=seed, iterations=ITERATIONS)
    assert first[1] is not None and second[1] is not None
    return (
        first[0] == second[0] and first[1].visits == second[1].visits and first[1].values == second[1].values
    )


def test_argo_stack_order_never_changes_a_decision():
    for game, twin, player in argo_twins():
        for seed in range(2):
            assert same_search(game, twin, player, seed)


def test_argoat_hidden_items_forests_and_decks_never_change_a_decision():
    for game, twin, player in argoat_twins():
        for seed in range(2):
            assert same_search(game, twin, player, seed)


def _peeking(monkeypatch: pytest.MonkeyPatch, cls: type[Game]) -> None:
    monkeypatch.setattr(cls, "determinize", lambda self, player, rng: self.clone())


def test_detector_catches_a_search_that_peeks_at_the_argo_stack(monkeypatch):
    _peeking(monkeypatch, ArgoGame)
    twins = argo_twins()
    assert any(not same_search(g, t, p, seed) for g, t, p in twins for seed in range(2))


def test_detector_catches_a_search_that_peeks_at_argoat_secrets(monkeypatch):
    _peeking(monkeypatch, ArgoatGame)
    twins = argoat_twins()
    assert any(not same_search(g, t, p, seed) for g, t, p in twins for seed in range(2))


def explore_offer_twins() -> tuple[ArgoatGame, ArgoatGame]:
    """Ann offers Bob a look at the Dark Forest she has explored for an Emerald; Bob has seen
    neither forest. In one game that forest hides Eden, in the twin a Hollow (and Eden is in the
    other forest): Bob cannot tell them apart."""
    games = []
    for north, south in (("Eden", "Hollow"), ("Hollow", "Eden")):
        game = scenario(BASE, n=2, forests=[("0,2", "S", north), ("0,-2", "N", south)])
        seat_setup(game, "ann", fragments=["sun", "moon"], emeralds=1)
        seat_setup(game, "bob", fragments=["forge", "world", "life", "magic", "ruler"], emeralds=2)
        marker(game, "0,2", "ann")
        for part in ("trade Blue", "trade give explore 0,2", "trade ask emerald", "trade propose"):
            act(game, "ann", part)
        games.append(game)
    first, twin = games
    assert first.view("bob") == twin.view("bob") and first.to_json() != twin.to_json()
    return first, twin


def test_every_level_answers_an_offer_the_same_whatever_the_forest_hides():
    """Easy's shortcut used to score accept/decline on the real game (9 of 22 twins differed)."""
    first, twin = explore_offer_twins()
    for level in SEARCHING:
        for seed in range(30 if level == "easy" else 3):
            a = choose_action(first, "bob", level=level, seed=seed, iterations=20)
            b = choose_action(twin, "bob", level=level, seed=seed, iterations=20)
            assert a == b, (level, seed)


def test_every_level_decides_the_same_in_twins_of_both_games():
    """Shortcuts included: easy's quick moves, the win check, the trade plans."""
    cases = argo_twins()[:2] + argoat_twins()[:4]
    for game, twin, player in cases:
        for level in SEARCHING:
            for seed in range(12 if level == "easy" else 1):
                a = choose_action(game, player, level=level, seed=seed, iterations=10)
                b = choose_action(twin, player, level=level, seed=seed, iterations=10)
                assert a == b, (type(game).name, level, seed)


def test_the_greedy_yardstick_decides_from_its_own_view_too():
    first, twin = explore_offer_twins()
    cases = [*argo_twins()[:2], *argoat_twins()[:4], (first, twin, "bob")]
    for game, other, player in cases:
        for seed in range(3):
            assert greedy_action(game, player, seed) == greedy_action(other, player, seed)
