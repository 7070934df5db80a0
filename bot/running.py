"""``python -m bot run`` and ``python -m bot sync``: the bot itself, logged in to Discord."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import replace

import aiohttp
import discord

from bot.app import create_bot
from bot.config import Settings, setup_logging
from bot.engine import compiled
from bot.store import StoreError, open_store
from bot.store.urls import redact

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    """Open the database, then run the bot; a SIGTERM or SIGINT closes it cleanly."""
    store = await open_store(settings.database, timeout=settings.db_timeout)
    bot = create_bot(settings, store=store)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(settings.token)
    log.info("stopped")


async def sync(settings: Settings) -> None:
    """Log in, sync the command tree whatever the recorded hash says, and close."""
    store = await open_store(settings.database)
    bot = create_bot(replace(settings, metrics_port=None), store=store)
    bot.force_sync = True
    async with bot:
        await bot.login(settings.token)  # runs setup_hook, which syncs


def main(settings: Settings, *, only_sync: bool = False) -> int:
    """Set up logging, say what runs, then run the bot (or only sync its commands); returns the
    exit status: 0 stopped, 1 Discord or the database cannot be reached, 2 refused (a token
    Discord refuses, a database that cannot be used, a missing extra)."""
    setup_logging(settings.log_level, secrets=(settings.token,))
    log.info("starting with database %s", redact(str(settings.database)))
    stale = compiled.stale_modules()
    log.log(logging.WARNING if stale else logging.INFO, "%s", compiled.describe(stale))
    if settings.shards is not None:
        log.info("running shards %s of %d", settings.shards[1], settings.shards[0])
    try:
        asyncio.run(sync(settings) if only_sync else run(settings))
    except StoreError as exc:
        log.error("%s", exc)
        return getattr(exc, "exit_status", 1)
    except discord.LoginFailure as exc:
        log.error("Discord refused the token (DISCORD_TOKEN): %s", exc)
        return 2
    except (aiohttp.ClientError, OSError) as exc:
        log.error("Cannot reach Discord: %s", exc)
        return 1
    return 0
