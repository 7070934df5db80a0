"""Builds the Discord bot: cogs, store and table host (used by ``python -m bot`` and the tests)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_sync import sync_commands
from bot.config import Settings
from bot.engine.core import Game
from bot.engine.registry import GameRegistry, discover
from bot.health import Health
from bot.store import AnyStore, open_store
from bot.tables import TableHost
from bot.tending import Tender
from bot.thinking import Thinker
from cogs.boards import BOARDS

log = logging.getLogger(__name__)

# The bot uses no voice: do not warn at every start that voice libraries are missing.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class InFlight:
    """Counts the interaction handlers running now, so that shutdown can wait for them."""

    def __init__(self) -> None:
        self.count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def track(self) -> AsyncIterator[None]:
        """Count the enclosed work as one handler in flight."""
        self.count += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.count -= 1
            if self.count == 0:
                self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no handler runs (at most ``timeout`` seconds); False if some still run."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


class TableBot(commands.Bot):
    """The bot: a table host over SQLite, the /game commands and the table UI."""

    def __init__(
        self,
        settings: Settings,
        games: Iterable[type[Game]],
        seeder: Callable[[], int] | None = None,
        store: AnyStore | None = None,
    ) -> None:
        sharding: dict[str, Any] = {}
        if settings.shards is not None:  # an AutoShardedBot (ShardedTableBot) running these shards
            sharding = {"shard_count": settings.shards[0], "shard_ids": list(settings.shards[1])}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),  # interactions arrive without any intent
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **sharding,
        )
        from cogs.cooldowns import Cooldowns
        from cogs.schedule import Scheduler
        from cogs.ui import TableUI

        self.settings = settings
        self.registry = GameRegistry(games)
        self._seeder = seeder
        self._store = store
        self.host: TableHost = None  # type: ignore[assignment]  # set in setup_hook
        self.ui = TableUI(self)
        self.in_flight = InFlight()
        self.thinker = Thinker(settings.ai_workers, settings.ai_budget)
        self.tender: Tender = None  # type: ignore[assignment]  # set in setup_hook
        self.scheduler = Scheduler(self)
        self.health = Health(self)
        self._warming: asyncio.Future[Any] | None = None
        """The worker server (or the drawing threads' caches) warming, started in setup_hook."""
        self.force_sync = False
        """Sync the commands at start even if unchanged (``python -m bot sync``)."""
        self.cooldowns = Cooldowns()
        # discord.py's hooks for every command are methods of the tree, replaced on the instance
        # (its documented alternative is a subclass of CommandTree); mypy refuses assigning to a method
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self.interaction_begins  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        from cogs import components
        from cogs.archive import setup_archive
        from cogs.game_commands import GameCog
        from cogs.shortcuts import shortcut_groups
        from cogs.turns import warm_boards

        # The worker server warms while the bot gets ready and after: the bot does not wait for it
        # (a first board or bot move before it is warm waits for it; workers are forked from it).
        self._warming = asyncio.gather(self.thinker.start(), warm_boards(self.settings.ai_workers))
        store = self._store or await open_store(self.settings.database, timeout=self.settings.db_timeout)
        seeding = {"seeder": self._seeder} if self._seeder is not None else {}
        self.host = TableHost(
            store,
            self.registry,
            clock=discord.utils.utcnow,
            cache_size=self.settings.table_cache,
            shards=self.settings.shards,
            **seeding,
        )
        self.tender = Tender(self.host, self.thinker)
        self.tender.on_thinking = self.ui.turns.show_thinking
        BOARDS.hurry = lambda: self.thinker.workers_busy > 0  # an idle-class worker gets no CPU then
        self.add_dynamic_items(*components.ALL_ITEMS)
        game_cog = GameCog(self)
        await self.add_cog(game_cog)
        await setup_archive(self, game_cog.game)
        for group in shortcut_groups():
            self.tree.add_command(group)
        await sync_commands(self, force=self.force_sync)
        await self.health.start()
        log.info("ready to host: %s", ", ".join(self.registry.names()))

    def working(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Wrap an interaction handler so that shutdown waits for it to finish."""
        return self.in_flight.track()

    async def close_tables(self) -> None:
        """Stop taking actions, let every handler in flight finish answering, close the database."""
        if self.host is None:
            return
        self.host.stop_accepting()
        await self.health.stop()
        if not await self.in_flight.wait_idle(self.settings.shutdown_grace):
            log.warning("shutting down with %d handlers still running", self.in_flight.count)
        await self.host.close()
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
        self.thinker.close()
        BOARDS.close()

    async def close(self) -> None:
        """Close the tables (see :meth:`close_tables`), then disconnect from Discord."""
        await self.close_tables()
        await super().close()

    async def interaction_begins(self, interaction: discord.Interaction) -> bool:
        """Every command and autocomplete starts here (the tree's check, in the task that handles
        it): it is answered in time whatever the store does (``bot.answering``)."""
        from cogs.replies import begin

        begin(interaction)
        return True

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Log unexpected failures and give the user a short, honest answer."""
        from cogs.replies import answer_failure

        name = interaction.command.qualified_name if interaction.command is not None else "a command"
        await answer_failure(interaction, error, f"/{name}")


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot as one of several processes: an AutoShardedBot running the shards of
    ``settings.shard_ids`` out of ``settings.shard_count``, over a shared (PostgreSQL) store."""


def create_bot(
    settings: Settings,
    *,
    games: Iterable[type[Game]] | None = None,
    seeder: Callable[[], int] | None = None,
    store: AnyStore | None = None,
) -> TableBot:
    """A ready-to-start bot for ``settings``.

    ``games`` defaults to every shipped game; ``seeder`` (default: a secure random source) picks
    each new table's seed — tests pass a fixed one to get reproducible games. ``store`` is an
    already opened database (``python -m bot`` opens it first to fail fast); by default the
    bot opens ``settings.database`` in ``setup_hook``. With SHARD_COUNT set the bot is a
    :class:`ShardedTableBot`, and its scheduler tends only the tables of its own shards.
    """
    kind = ShardedTableBot if settings.shards is not None else TableBot
    return kind(settings, discover() if games is None else games, seeder, store)
