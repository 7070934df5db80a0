"""Typed moves against the table their author saw (``act(typed=Typed(...))``), without Discord:
only another decision made after the move was typed refuses it; the author's own identical move
since is a repeat, any other own move since is no reason to refuse. "After" is judged on Discord's
clock for decisions made by interactions (their ids), and by the version for anything applied
after the move reached the bot, so a tie of timestamps or a host clock ahead of or behind
Discord's never plays a move twice (issue 39, fault 2)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from discord.utils import time_snowflake

from bot.tables import ChangedSince, TableError, TableHost, Typed
from tests import test_host
from tests.test_host import CH, open_and_start

SECOND = timedelta(seconds=1)

host = test_host.host
"""The host fixture of tests/test_host.py: SQLite, Pebbles, a clock the test moves."""


class Discord:
    """Interaction ids as Discord makes them: the milliseconds of Discord's own clock (``skew``
    ahead of the host's), then a sequence number, so two ids of one millisecond still differ."""

    def __init__(self, host: TableHost, skew: timedelta = timedelta(0)) -> None:
        self.clock = host._clock
        self.skew = skew
        self.sequence = 0

    def now(self) -> datetime:
        return self.clock.now + self.skew  # type: ignore[attr-defined]

    def interaction(self) -> int:
        self.sequence += 1
        return time_snowflake(self.now()) + self.sequence


async def typed_now(host: TableHost, discord: Discord) -> Typed:
    """A move typed now, reaching the bot at once (the table's version as it is)."""
    return Typed(discord.interaction(), (await host.current(CH)).record.version)


async def test_a_move_typed_before_another_players_decision_is_refused_and_changes_nothing(host):
    await open_and_start(host, options="cheer=yes")
    discord = Discord(host)
    typed = await typed_now(host, discord)
    host._clock.now += SECOND
    await host.act(CH, "a", "take 1", interaction_id=discord.interaction())  # a decides after b typed
    before = (await host.current(CH)).record.version
    with pytest.raises(ChangedSince, match="The table changed since you typed this"):
        await host.act(CH, "b", "take 1", typed=typed)
    assert (await host.current(CH)).record.version == before
    await host.act(CH, "b", "take 1", typed=await typed_now(host, discord))  # typed now: played
    assert (await host.current(CH)).game.to_json()["pile"] == 8


async def test_the_authors_own_moves_since_refuse_only_the_same_move(host):
    await open_and_start(host, options="cheer=yes pile=20")
    discord = Discord(host)
    typed = await typed_now(host, discord)
    host._clock.now += SECOND
    await host.act(CH, "b", {"type": "cheer"}, interaction_id=discord.interaction())  # b's click, later
    with pytest.raises(TableError, match="did not play it a second time"):
        await host.act(CH, "b", "cheer", typed=typed)
    with pytest.raises(ChangedSince):  # for a, b's cheer is another decision
        await host.act(CH, "a", "take 2", typed=typed)
    typed = await typed_now(host, discord)
    host._clock.now += SECOND
    await host.act(CH, "a", {"type": "peek"}, interaction_id=discord.interaction())  # a's other move
    await host.act(CH, "a", "take 2", typed=typed)
    assert (await host.current(CH)).game.to_json()["pile"] == 18


async def test_a_hand_over_since_the_move_was_typed_refuses_it(host):
    await open_and_start(host, players=("a", "b", "c"), options="cheer=yes")
    discord = Discord(host)
    typed = await typed_now(host, discord)
    host._clock.now += SECOND
    await host.replace(CH, "a", "c", "d")
    with pytest.raises(ChangedSince):
        await host.act(CH, "a", "take 1", typed=typed)


async def test_a_click_in_the_same_millisecond_as_the_typed_move_is_not_played_twice(host):
    await open_and_start(host, options="pile=20")
    discord = Discord(host)
    typed = await typed_now(host, discord)  # the clock does not move: one timestamp for both
    await host.act(CH, "a", {"type": "peek"}, interaction_id=discord.interaction())
    with pytest.raises(TableError, match="did not play it a second time"):
        await host.act(CH, "a", "peek", typed=typed)
    log = await host.store.log((await host.current(CH)).record.id)
    assert [e.action for e in log].count({"type": "peek"}) == 1


@pytest.mark.parametrize("skew", [-2 * SECOND, 2 * SECOND], ids=["host-ahead", "host-behind"])
async def test_the_host_clock_ahead_or_behind_discord_neither_plays_twice_nor_refuses_wrongly(host, skew):
    """``skew``: how far Discord's clock is ahead of the host's."""
    await open_and_start(host, options="cheer=yes pile=20")
    discord = Discord(host, skew)
    # a types "peek", then clicks it half a second later (Discord's clock); the click lands first
    typed = await typed_now(host, discord)
    host._clock.now += SECOND / 2
    await host.act(CH, "a", {"type": "peek"}, interaction_id=discord.interaction())
    with pytest.raises(TableError, match="did not play it a second time"):
        await host.act(CH, "a", "peek", typed=typed)
    # b cheers by a click, and a second later a types "take 2" having seen it: it is played
    host._clock.now += SECOND
    await host.act(CH, "b", {"type": "cheer"}, interaction_id=discord.interaction())
    host._clock.now += SECOND
    await host.act(CH, "a", "take 2", typed=await typed_now(host, discord))
    game = (await host.current(CH)).game.to_json()
    assert game["pile"] == 18
    log = await host.store.log((await host.current(CH)).record.id)
    assert [e.action for e in log].count({"type": "peek"}) == 1
