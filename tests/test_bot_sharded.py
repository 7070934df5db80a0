"""The real bot as a sharded process (SimCord): an AutoShardedBot on PostgreSQL playing, its
scheduler applying timeouts, and a process running one shard of two leaving the other shard's
tables to the process that runs it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.app import ShardedTableBot
from bot.config import Settings
from tests.test_bot_play import (
    test_a_timed_out_turn_is_played_for_the_player,
    test_a_whole_game_through_buttons,
)

__all__ = ["test_a_timed_out_turn_is_played_for_the_player", "test_a_whole_game_through_buttons"]


@pytest.fixture
def settings(settings: Settings, pg_url: str, request) -> Settings:
    shard_ids = getattr(request, "param", (0, 1))
    return dataclasses.replace(settings, database_url=pg_url, shard_count=2, shard_ids=shard_ids)


async def test_the_bot_is_an_autosharded_bot_on_postgres(world, simcord_bot):
    assert isinstance(simcord_bot, ShardedTableBot)
    assert simcord_bot.shard_count == 2 and sorted(simcord_bot.shards) == [0, 1]
    assert simcord_bot.host.shards == (2, (0, 1))


@pytest.mark.parametrize("settings", [(1,)], indirect=True)
async def test_a_process_tends_only_the_tables_of_its_own_shard(simcord_env, simcord_bot):
    env = simcord_env
    assert simcord_bot.host.shards == (2, (1,))
    mine, theirs = (3 << 22) | 5, (4 << 22) | 5  # shard 1 and shard 0 of 2
    host = simcord_bot.host
    for guild, channel in ((mine, 501), (theirs, 502)):
        await host.open_table(
            guild_id=guild, channel_id=channel, game_name="Pebbles", host_id="1", options_text="timer=60"
        )
        await host.join(channel, "2")
        started = await host.start(channel, "1")
        await host.set_message(started.table, 1)  # its turn message was posted
    await env.advance_time(90)
    assert (await host.current(501)).game.to_json()["pile"] == 9  # its own table timed out
    assert (await host.current(502)).game.to_json()["pile"] == 10  # the other process's did not
    assert await host.due() == []  # its own next timeout is at 120 s
    assert [t.channel_id for t in await host.store.due_tables(host.now())] == [502]
