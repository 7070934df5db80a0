"""A search's copies of an Argo game (``determinize``) tell nothing and take nothing back, but play
exactly as the game; copies that build the same tile on the same spot share that layout's cache."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine.argo import ArgoGame, building, station
from bot.engine.core import SYSTEM, TIMEOUT


def _state(game: ArgoGame) -> str:
    """The whole state but what a quiet copy leaves out: the words of an unfinished choice and
    the undo snapshot and log."""
    data = game.to_json()
    if data.get("pending"):
        data["pending"] = {**data["pending"], "text": ""}
    del data["undo_base"], data["undo_log"]
    return json.dumps(data, sort_keys=True)


def _moves(game: ArgoGame, player: str) -> list[Any]:
    return [a for a in game.legal_actions(player) if a["type"] != "undo"]


def _step(rng: random.Random, game: ArgoGame) -> tuple[str, Any] | None:
    if game.result() is not None:
        return None
    deciders = [p for p in game.prompt().deciders() if game.legal_actions(p)]
    if not deciders:
        return SYSTEM, TIMEOUT
    who = rng.choice(deciders)
    options = game.legal_actions(who)
    plain = [a for a in options if a["type"] not in ("undo", "cancel")] or options
    return who, rng.choice(plain)


@pytest.mark.parametrize("seed", range(8))
def test_a_quiet_copy_plays_exactly_as_the_game_and_tells_nothing(seed: int) -> None:
    options = {"tm_wait": seed % 2, "deep_space": "on" if seed % 3 == 0 else "off"}
    game = ArgoGame.new(["a", "b", "c", "d"][: 2 + seed % 3], seed, options)
    rng = random.Random(seed)
    for _ in range(10 * seed):
        step = _step(rng, game)
        if step is not None:
            game.apply(*step)
    quiet = game.determinize(game.players[0], random.Random(seed))
    telling = ArgoGame.from_json(quiet.to_json())  # the same world, as a game that tells
    told = undos = 0
    for _ in range(3000):
        step = _step(rng, telling)
        if step is None:
            break
        events = telling.apply(*step)
        assert quiet.apply(*step) == []
        told += len(events)
        assert _state(quiet) == _state(telling)
        for player in telling.players:
            assert _moves(quiet, player) == _moves(telling, player)
            assert all(a["type"] != "undo" for a in quiet.legal_actions(player))
            undos += any(a["type"] == "undo" for a in telling.legal_actions(player))
        prompt, said = quiet.prompt(), telling.prompt()
        assert (prompt is None) == (said is None)
        if prompt is not None and said is not None:
            assert prompt.deciders() == said.deciders()
            assert prompt.text == ""
            assert said.text
    assert quiet.result() == telling.result() is not None
    assert told > 0 and undos > 0
    assert quiet.st.undo_base is None and quiet.st.undo_log == []
    assert quiet.view(None) == telling.view(None)


def _build_options(game: ArgoGame) -> list[Any]:
    player = game.prompt().player
    return [a for a in game.legal_actions(player) if a["type"] == "build"]


def _at_build(seed: int) -> ArgoGame:
    game = ArgoGame.new(["a", "b", "c"], seed, {"tm_wait": 0})
    rng = random.Random(seed)
    while game.turn_marker()[0] < 6 or game.st.phase != "build":
        step = _step(rng, game)
        assert step is not None
        game.apply(*step)
    return game


def test_copies_building_the_same_tile_on_the_same_spot_share_the_layout_cache() -> None:
    game = _at_build(3)
    player = game.prompt().player
    build = _build_options(game)[5]
    copies = [game.determinize(player, random.Random(s)) for s in range(4)]
    for copy in copies:
        copy.apply(player, build)
    first, second, third, fourth = (copy.st.geo for copy in copies)
    assert first is not second  # a layout built once is not kept
    assert third is second and fourth is second
    other = game.determinize(player, random.Random(9))
    other.apply(player, _build_options(game)[6])
    assert other.st.geo is not second


def test_a_shared_layout_cache_answers_as_a_fresh_one() -> None:
    for seed in range(5):
        game = _at_build(seed)
        player = game.prompt().player
        rng = random.Random(seed)
        builds = _build_options(game)
        for _ in range(12):  # the same few builds again and again, then play on a little
            copy = game.determinize(player, random.Random(rng.random()))
            copy.apply(player, builds[rng.randrange(min(3, len(builds)))])
            for _ in range(rng.randrange(12)):
                step = _step(rng, copy)
                if step is not None:
                    copy.apply(*step)
            fresh = ArgoGame.from_json(copy.to_json())
            assert station.links(copy.st) == station.links(fresh.st)
            assert station.distances(copy.st) == station.distances(fresh.st)
            for player_ in copy.players:
                assert copy.legal_actions(player_) == fresh.legal_actions(player_)
            tiles = (*copy.st.display, *copy.st.pod_stack[:1])
            for tile in tiles:
                assert station.placements(copy.st, tile) == station.placements(fresh.st, tile)
            assert building.build_options(copy.st) == building.build_options(fresh.st)


def test_one_game_keeps_at_most_so_many_shared_layouts() -> None:
    fresh = _at_build(4)
    player = fresh.prompt().player
    for copy in [fresh.determinize(player, random.Random(s)) for s in range(2)]:
        copy.apply(player, _build_options(fresh)[0])
    assert fresh.st.geo["budget"] == [station.SHARED_LAYOUTS - 1]  # one layout kept of so many
    game = _at_build(4)
    game.st.geo["budget"] = [2]  # the count left, shared along the chain: two more (no patching)
    builds = _build_options(game)[:4]
    geos = []
    for build in builds:
        pair = [game.determinize(player, random.Random(s)) for s in range(3)]
        for copy in pair:
            copy.apply(player, build)
        geos.append((pair[1].st.geo, pair[2].st.geo))
    shared = [second is third for second, third in geos]
    assert shared == [True, True, False, False]
