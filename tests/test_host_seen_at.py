"""Typed moves against the table their author saw (``act(seen_at=...)``), without Discord: only
another decision made after the move was typed refuses it; the author's own identical move since
is a repeat, any other own move since is no reason to refuse."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.tables import ChangedSince, TableError
from tests import test_host
from tests.test_host import CH, open_and_start

SECOND = timedelta(seconds=1)

host = test_host.host
"""The host fixture of tests/test_host.py: SQLite, Pebbles, a clock the test moves."""


async def test_a_move_typed_before_another_players_decision_is_refused_and_changes_nothing(host):
    await open_and_start(host, options="cheer=yes")
    clock = host._clock
    typed_at = clock.now
    clock.now += SECOND
    await host.act(CH, "a", "take 1")  # a decides after b typed
    clock.now += SECOND
    before = (await host.current(CH)).record.version
    with pytest.raises(ChangedSince, match="The table changed since you typed this"):
        await host.act(CH, "b", "take 1", seen_at=typed_at)
    assert (await host.current(CH)).record.version == before
    await host.act(CH, "b", "take 1", seen_at=clock.now)  # typed now: played
    assert (await host.current(CH)).game.to_json()["pile"] == 8


async def test_the_authors_own_moves_since_refuse_only_the_same_move(host):
    await open_and_start(host, options="cheer=yes pile=20")
    clock = host._clock
    typed_at = clock.now
    clock.now += SECOND
    await host.act(CH, "b", {"type": "cheer"})  # b's own click, after b typed "cheer"
    with pytest.raises(TableError, match="did not play it a second time"):
        await host.act(CH, "b", "cheer", seen_at=typed_at)
    with pytest.raises(ChangedSince):  # for a, b's cheer is another decision
        await host.act(CH, "a", "take 2", seen_at=typed_at)
    typed_at = clock.now
    clock.now += SECOND
    await host.act(CH, "a", {"type": "peek"})  # a's own other move since a typed "take 2"
    await host.act(CH, "a", "take 2", seen_at=typed_at)
    assert (await host.current(CH)).game.to_json()["pile"] == 18


async def test_a_hand_over_since_the_move_was_typed_refuses_it(host):
    await open_and_start(host, players=("a", "b", "c"), options="cheer=yes")
    clock = host._clock
    typed_at = clock.now
    clock.now += SECOND
    await host.replace(CH, "a", "c", "d")
    with pytest.raises(ChangedSince):
        await host.act(CH, "a", "take 1", seen_at=typed_at)
