"""Slash commands are synced only when the command tree changed (its hash is kept in the
database), only by the process running shard 0, and always when forced (``python -m bot sync``).
Counted from the REST calls the bot made to SimCord."""

from __future__ import annotations

import dataclasses

import discord

from bot.app import create_bot
from bot.config import Settings
from tests.conftest import GAMES


def syncs(env) -> list[str]:
    """The paths of the bulk command overwrites (a sync) the bot sent."""
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]


async def test_an_unchanged_tree_is_synced_once_across_two_starts(world, simcord_bot, make_bot):
    env = world.env
    assert len(syncs(env)) == 1  # the first start: nothing recorded yet
    await env.restart_bot(make_bot())
    assert len(syncs(env)) == 1  # the same tree: not again
    assert "game new" in world.alice.available_commands(world.channel)  # still there

    changed = make_bot()

    @changed.tree.command(name="extra", description="A command a new release added")
    async def extra(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hi")

    await env.restart_bot(changed)
    assert len(syncs(env)) == 2  # a new tree: synced

    forced = make_bot()
    forced.force_sync = True  # what `python -m bot sync` sets
    await env.restart_bot(forced)
    assert len(syncs(env)) == 3


async def test_only_the_process_running_shard_0_syncs(simcord_env, simcord_bot, pg_url):
    env = simcord_env
    before = len(syncs(env))  # the unsharded test bot's own start
    settings = Settings(
        token="t", database_url=pg_url, shard_count=2, shard_ids=(1,), ai_workers=0, ai_budget=0.05
    )
    zero = dataclasses.replace(settings, shard_ids=(0,))
    bots = [create_bot(settings, games=GAMES), create_bot(zero, games=GAMES)]
    try:
        await env.restart_bot(bots[0])
        assert len(syncs(env)) == before  # shard 1's process: never, even with nothing recorded
        await env.restart_bot(bots[1])
        assert len(syncs(env)) == before + 1  # shard 0's process syncs the new database's tree
    finally:
        for bot in bots:
            if bot.host is not None:
                await bot.host.close()
