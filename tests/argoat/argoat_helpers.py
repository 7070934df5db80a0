"""Helpers for Argoat tests: build exact situations instead of relying on luck."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import FRONTIER_BY_KEY
from bot.engine.argoat.geometry import OPPOSITE, Coord, neighbours, parse, step
from bot.engine.argoat.state import TURN, Forest, Movement
from bot.engine.core import Event, IllegalAction

PLAYERS = ("ann", "bob", "cid", "dee", "eve")


def new_game(n: int = 3, seed: int = 1, difficulty: str = "adventurer") -> ArgoatGame:
    """A freshly set-up game for ``n`` of the test players."""
    return ArgoatGame.new(list(PLAYERS[:n]), seed, {"difficulty": difficulty})


def xy(text: str) -> Coord:
    """A coordinate from ``"x,y"``."""
    return parse(text)


def scenario(
    cards: dict[str, str],
    *,
    n: int = 3,
    active: str = "ann",
    forests: Iterable[tuple[str, str, str]] = (),
    seed: int = 1,
) -> ArgoatGame:
    """A game with exactly these frontiers on the map (``{"x,y": key}``, the Town included),
    Dark Forests as ``(cell, road side, content)``, every Avatar and Bleina on the Town,
    ``active`` to play with a fresh turn. Decks and Supply keep their shuffled order, minus the
    frontiers placed here."""
    game = new_game(n, seed)
    s = game.state
    s.frontiers = {}
    s.forests = {}
    for at, key in cards.items():
        s.frontiers[xy(at)] = key
    for at, road, content in forests:
        s.forests[xy(at)] = Forest(at=xy(at), road=road, content=content)
    s.rebuild_roads()
    placed = set(cards.values())
    s.discovery = [k for k in s.discovery if k not in placed]
    darkness = list(s.darkness)
    for _, _, content in forests:
        if content in darkness:
            darkness.remove(content)
    s.darkness = darkness
    s.active = game.players.index(active)
    s.move = Movement()
    s.phase = TURN
    game.touch()
    assert map_problems(game) == []
    return game


BASE = {"0,0": "town", "0,1": "temple", "1,0": "snowfields", "0,-1": "cave", "-1,0": "caravan"}
"""The Adventurer starting map in one fixed layout."""


def map_problems(game: ArgoatGame) -> list[str]:
    """Every inconsistency of the map's roads (empty when the map is sound)."""
    s = game.state
    problems = []
    for at, roads in s.roads.items():
        if at in s.frontiers and roads != FRONTIER_BY_KEY[s.frontiers[at]].roads:
            problems.append(f"{at} is rotated")
        joined = False
        for side, cell in neighbours(at):
            if cell not in s.roads:
                continue
            mine, theirs = side in roads, OPPOSITE[side] in s.roads[cell]
            if mine != theirs:
                problems.append(f"{at} {side} does not match {cell}")
            joined = joined or (mine and theirs)
        if not joined:
            problems.append(f"{at} is not joined to the map")
    for at, forest in s.forests.items():
        parent = step(at, forest.road)
        if parent not in s.frontiers:
            problems.append(f"forest {at} has no frontier on its road")
    return problems


def setup(
    game: ArgoatGame,
    player: str,
    *,
    at: str | None = None,
    emeralds: int | None = None,
    fragments: Iterable[str] | None = None,
    items: Iterable[str] | None = None,
) -> None:
    """Change one player's pieces, keeping Bank, Reliquary and Supply totals conserved."""
    s = game.state
    seat = s.seat(player)
    if at is not None:
        seat.pos = xy(at)
    if emeralds is not None:
        s.bank += seat.emeralds - emeralds
        seat.emeralds = emeralds
    if fragments is not None:
        for f in seat.fragments:
            s.reliquary[f] += 1
        seat.fragments = []
        for f in fragments:
            s.reliquary[f] -= 1
            seat.add_fragment(f)
    if items is not None:
        s.supply.extend(seat.items)
        seat.items = []
        for k in items:
            s.supply.remove(k)
            seat.add_item(k)
    game.touch()


def bleinas(game: ArgoatGame, *cells: str) -> None:
    """Put the game's Bleina on these cells."""
    game.state.bleinas = sorted(xy(c) for c in cells)
    game.touch()


def marker(game: ArgoatGame, forest: str, *players: str) -> None:
    """Put Check Markers of ``players`` on the forest at ``forest`` (they have peeked)."""
    f = game.state.forests[xy(forest)]
    for p in players:
        f.markers.append(p)
        game.state.seat(p).peeks.append(f.at)
    game.touch()


def stack(
    game: ArgoatGame,
    *,
    discovery: list[str] | None = None,
    supply: list[str] | None = None,
    darkness: list[str] | None = None,
) -> None:
    """Put these cards on top of a deck (the rest stays below, as shuffled)."""
    s = game.state
    if discovery is not None:
        rest = [k for k in s.discovery if k not in discovery]
        s.discovery = list(discovery) + rest
    if supply is not None:
        rest = list(s.supply)
        for k in supply:
            rest.remove(k)
        s.supply = list(supply) + rest
    if darkness is not None:
        s.darkness = list(darkness)
    game.touch()


def notations(game: ArgoatGame, player: str) -> list[str]:
    """The notations of every legal action of ``player``."""
    return [game.notation(a) for a in game.legal_actions(player)]


def act(game: ArgoatGame, player: str, text: str) -> list[Event]:
    """Apply the legal action written ``text``."""
    return game.apply(player, game.parse(player, text))


def refuses(game: ArgoatGame, player: str, action: dict[str, Any]) -> str:
    """Apply an illegal action: assert it raises and changes nothing; return the message."""
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.apply(player, action)
    except IllegalAction as exc:
        after = json.dumps(game.to_json(), sort_keys=True)
        assert before == after, "an illegal action changed the state"
        assert str(exc)
        return str(exc)
    raise AssertionError(f"{action} was accepted")


def texts(events: list[Event], to: str | None = None) -> list[str]:
    """The texts of the events addressed to ``to`` (None: the public ones)."""
    return [e.text for e in events if e.to == to]


def kinds(events: list[Event]) -> list[str]:
    """The kinds of the events, in order."""
    return [e.kind for e in events]


def frontier_roads(key: str) -> str:
    """The printed road sides of a frontier."""
    return FRONTIER_BY_KEY[key].roads


def random_play(
    game: ArgoatGame, rng: random.Random, max_actions: int, skip: frozenset[str] = frozenset()
) -> list[tuple[str, dict[str, Any]]]:
    """Play random legal actions (any decider), returning the (player, action) log."""
    log = []
    for _ in range(max_actions):
        prompt = game.prompt()
        if prompt is None:
            break
        player = rng.choice(prompt.deciders())
        legal = [a for a in game.legal_actions(player) if a["type"] not in skip]
        if not legal:
            legal = game.legal_actions(player)
        action = rng.choice(legal)
        game.apply(player, action)
        log.append((player, action))
    return log


def beside_town(key: str, **kwargs: Any) -> tuple[ArgoatGame, str]:
    """A game whose map is the Town with frontier ``key`` next to it; returns the game and the
    side of the Town the frontier is on (so ``move <side>`` reaches it)."""
    roads = FRONTIER_BY_KEY[key].roads
    for side in "NESW":
        if OPPOSITE[side] in roads:
            at = step((0, 0), side)
            game = scenario({"0,0": "town", f"{at[0]},{at[1]}": key}, **kwargs)
            return game, side
    raise AssertionError(f"{key} has no road")


def end_on(key: str, **kwargs: Any) -> tuple[ArgoatGame, list[Event]]:
    """Ann moves from the Town onto frontier ``key`` and ends her turn there (plain ``end``)."""
    game, side = beside_town(key, **kwargs)
    act(game, "ann", f"move {side}")
    return game, act(game, "ann", "end")
