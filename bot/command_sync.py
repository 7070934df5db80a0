"""Syncing the slash commands with Discord only when they changed: a hash of the command tree
is kept in the database (``bot_state``), and only the process running shard 0 syncs.

Discord rate-limits command syncs, and a global sync from every process at every start is what
it warns against; ``python -m bot sync`` forces one (after a failed sync, or commands removed by
hand in the developer portal).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


def tree_hash(bot: TableBot, guild: discord.abc.Snowflake | None = None) -> str:
    """A hash of every command as it would be sent to Discord (names, options, descriptions…)."""
    payload = [command.to_dict(bot.tree) for command in bot.tree.get_commands(guild=guild)]
    text = json.dumps(sorted(payload, key=lambda c: (c.get("type", 1), c["name"])), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def syncs_here(bot: TableBot) -> bool:
    """True in the process that runs shard 0 (or in an unsharded bot)."""
    shards = bot.settings.shards
    return shards is None or 0 in shards[1]


async def sync_commands(bot: TableBot, *, force: bool = False) -> bool:
    """Sync the command tree (to ``DEV_GUILD_ID`` if set, else globally) if it changed since the
    last sync recorded in the database, or if ``force``; True if it synced."""
    if not force and not syncs_here(bot):
        log.info("commands are synced by the process running shard 0")
        return False
    guild = discord.Object(bot.settings.dev_guild_id) if bot.settings.dev_guild_id is not None else None
    if guild is not None:
        bot.tree.copy_global_to(guild=guild)
    key = f"commands:{guild.id if guild is not None else 'global'}"
    digest = tree_hash(bot, guild)
    store = bot.host.store
    rows = await store.sql("SELECT value FROM bot_state WHERE key = ?", (key,))
    if not force and rows and rows[0][0] == digest:
        log.info("slash commands unchanged since the last sync: not syncing")
        return False
    await bot.tree.sync(guild=guild)
    await store.sql(
        "INSERT INTO bot_state (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, digest),
    )
    log.info("slash commands synced %s", f"to server {guild.id}" if guild is not None else "globally")
    return True
