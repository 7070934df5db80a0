"""Property tests: random legal play to the end never breaks an invariant."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.argo import ArgoGame
from bot.engine.argo.data import ALIEN_FORBIDDEN, MAX_ALIENS, POD, TEAM_SIZE, TILES, UNLIMITED
from bot.engine.argo.state import ESCAPED, TRACK
from bot.engine.argo.station import connected
from bot.engine.core import SYSTEM, TIMEOUT, Action

VERBS = {"move", "push", "kill", "teleport", "build", "activate", "timemachine", "pass", "cancel", "undo"}
"""The ten first tokens of every notation."""

STEP_CAP = 4000
"""Safety net of the test driver only: the engine itself never caps a game."""


def check_invariants(game: ArgoGame, earned: Counter) -> None:
    s = game.st
    escaped = {a for _, occ in s.launched for a in occ}
    for seat in range(s.n):
        statuses = Counter()
        for aid in s.team(seat):
            tile = s.loc[aid]
            if tile == TRACK:
                assert aid in s.track
                statuses["dead"] += 1
            elif tile == ESCAPED:
                assert aid in escaped
                statuses["escaped"] += 1
            else:
                assert tile in s.pos and aid in s.occ[tile]
                statuses["station"] += 1
        assert sum(statuses.values()) == TEAM_SIZE
        assert s.escaped[seat] == sum(1 for a in escaped if a // TEAM_SIZE == seat)
    seen = [a for t, occ in s.occ.items() for a in occ]
    assert len(seen) == len(set(seen))
    for tile, occ in s.occ.items():
        assert tile in s.pos
        assert all(s.loc[a] == tile for a in occ)
        cap = TILES[tile].capacity
        if cap < UNLIMITED:
            assert len(occ) <= cap
        if TILES[tile].kind == POD:
            assert len(occ) < cap  # a full Pod has left
    assert len(s.aliens) <= MAX_ALIENS and len(set(s.aliens)) == len(s.aliens)
    for tile in s.aliens:
        assert tile in s.pos and TILES[tile].kind not in ALIEN_FORBIDDEN
    assert connected(s)
    assert len(s.track) == len(set(s.track))
    for seat, pid in enumerate(s.players):
        assert s.scores[seat] == earned[pid]


def tally(events, earned: Counter) -> None:
    for e in events:
        if "points" in e.data and "scorer" in e.data:
            earned[e.data["scorer"]] += e.data["points"]
        if e.kind == "undo":
            for pid, delta in e.data["points_delta"].items():
                earned[pid] += delta


def random_game(
    n: int, seed: int, options: dict, rng_seed: int, check_every: int = 1
) -> tuple[ArgoGame, list[tuple[str, Action]]]:
    """Play a seeded random game; returns it with the actions applied."""
    game = ArgoGame.new([f"player{i}" for i in range(n)], seed, options)
    rng = random.Random(rng_seed)
    earned: Counter = Counter()
    log: list[tuple[str, Action]] = []
    for step in range(STEP_CAP):
        if game.result() is not None:
            break
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            assert prompt.timeout is not None
            tally(game.apply(SYSTEM, TIMEOUT), earned)
            log.append((SYSTEM, TIMEOUT))
            continue
        who = deciders[0] if rng.random() < 0.85 else rng.choice(deciders)
        options = game.legal_actions(who)
        texts = [game.notation(a) for a in options]
        assert len(set(texts)) == len(texts)
        assert all(0 < len(tok) <= 80 for t in texts for tok in t.split())
        assert {t.split()[0] for t in texts} <= VERBS
        plain = [a for a in options if a["type"] not in ("undo", "cancel")]
        action = rng.choice(plain if plain and rng.random() > 0.04 else options)
        tally(game.apply(who, action), earned)
        log.append((who, action))
        if step % check_every == 0:
            check_invariants(game, earned)
    else:
        pytest.fail("the random game did not end")
    check_invariants(game, earned)
    return game, log


def replay(n: int, seed: int, options: dict, log: list[tuple[str, Action]]) -> ArgoGame:
    game = ArgoGame.new([f"player{i}" for i in range(n)], seed, options)
    for who, action in log:
        game.apply(who, action)
    return game


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rng_seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(n, difficulty, seed, rng_seed):
    options = {"difficulty": difficulty}
    game, log = random_game(n, seed, options, rng_seed)
    result = game.result()
    assert result is not None and set(result.scores) == set(game.players)
    data = game.to_json()
    assert ArgoGame.from_json(json.loads(json.dumps(data))).to_json() == data
    assert replay(n, seed, options, log).to_json() == data


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rng_seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 4),
    wait=st.sampled_from([0, 1]),
    deep=st.sampled_from(["off", "on"]),
)
def test_random_games_with_variants_and_round_trips(seed, rng_seed, n, wait, deep):
    options = {"tm_wait": wait, "deep_space": deep}
    game = ArgoGame.new([f"player{i}" for i in range(n)], seed, options)
    rng = random.Random(rng_seed)
    for _ in range(STEP_CAP):
        if game.result() is not None:
            break
        data = game.to_json()
        again = ArgoGame.from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data
        view = game.view(None)
        json.dumps(view)
        shuffled = ArgoGame.from_json(data)
        rng.shuffle(shuffled.st.stack)
        assert shuffled.view(None) == view
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            continue
        who = rng.choice(deciders)
        options_now = game.legal_actions(who)
        assert again.legal_actions(who) == options_now
        plain = [a for a in options_now if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(plain if plain and rng.random() > 0.05 else options_now))
    assert game.result() is not None
