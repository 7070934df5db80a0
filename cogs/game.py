"""The /game command group: open, join, leave, start, show, play and abandon tables."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine.core import format_text
from bot.tables import Table, TableError
from cogs import components as comp
from cogs.picker import ActionTree
from cogs.replies import names_for, reply, send_public

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

NOT_IN_GUILD = "Games are played in server channels; use this command in a channel."
TIMEOUT_POLL_SECONDS = 10


class GameCog(commands.Cog):
    """Table management and generic play for every registered game."""

    game = app_commands.Group(name="game", description="Board-game tables in this channel")

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

    async def cog_load(self) -> None:
        self.expire_prompts.start()

    async def cog_unload(self) -> None:
        self.expire_prompts.cancel()

    async def _table(self, interaction: discord.Interaction) -> Table | None:
        """The channel's open table, after answering the user if there is none (or no guild)."""
        if interaction.guild is None:
            await reply(interaction, NOT_IN_GUILD)
            return None
        table = await self.host.current(interaction.channel_id)
        if table is None:
            await reply(interaction, "There is no table in this channel. Open one with /game new.")
        return table

    # -- autocomplete -------------------------------------------------------------------------

    async def game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Registered games matching what the user typed."""
        return [
            app_commands.Choice(name=name, value=name)
            for name in self.bot.registry.names()
            if current.lower() in name.lower()
        ][:25]

    async def option_hints(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggested option strings for the chosen game."""
        game_cls = self.bot.registry.get(str(getattr(interaction.namespace, "game", "") or ""))
        if game_cls is None:
            return []
        typed = current.strip()
        done = typed.rsplit(" ", 1)[0] + " " if " " in typed else ""
        suggestions = []
        for spec in game_cls.option_specs:
            values = spec.choices or tuple(str(v) for v in sorted({spec.minimum, spec.default, spec.maximum}))
            for value in values:
                text = f"{done}{spec.name}={value}".strip()
                if text.lower().startswith(typed.lower()) or not typed:
                    suggestions.append(app_commands.Choice(name=text[:100], value=text[:100]))
        return suggestions[:25]

    async def legal_notations(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's legal actions whose notation matches what they typed."""
        table = await self.host.current(interaction.channel_id or 0)
        if table is None or table.game is None or table.game.result() is not None:
            return []
        tree = ActionTree(table.game, str(interaction.user.id))
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in tree.matching(current)]

    # -- lobby --------------------------------------------------------------------------------

    @game.command(name="new", description="Open a game table in this channel")
    @app_commands.describe(game="Which game to play", options="Table options, e.g. difficulty=hard")
    @app_commands.autocomplete(game=game_names, options=option_hints)
    async def new(self, interaction: discord.Interaction, game: str, options: str = "") -> None:
        async with self.bot.working():
            if interaction.guild is None:
                await reply(interaction, NOT_IN_GUILD)
                return
            try:
                table = await self.host.open_table(
                    guild_id=interaction.guild_id,
                    channel_id=interaction.channel_id,
                    game_name=game,
                    host_id=str(interaction.user.id),
                    options_text=options,
                )
            except TableError as exc:
                await reply(interaction, str(exc))
                return
            message = await send_public(interaction, **self.bot.ui.lobby.payload(table))
            await self.host.set_message(table, message.id)

    async def _lobby_command(self, interaction: discord.Interaction, action: str) -> None:
        table = await self._table(interaction)
        if table is None:
            return
        user = str(interaction.user.id)
        try:
            if action == "join":
                table = await self.host.join(interaction.channel_id, user)
            else:
                table = await self.host.leave(interaction.channel_id, user)
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        verb = "joined" if action == "join" else "left"
        await send_public(
            interaction,
            content=f"<@{user}> {verb} the **{table.record.game}** table #{table.record.id} "
            f"({len(table.record.seats)} seated).",
        )
        await self._refresh_lobby_message(table)

    async def _refresh_lobby_message(self, table: Table) -> None:
        if table.record.message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        payload = (
            self.bot.ui.lobby.payload(table)
            if table.record.is_open
            else {"content": f"Table #{table.record.id} closed: everyone left.", "view": None}
        )
        try:
            await channel.get_partial_message(table.record.message_id).edit(**payload)
        except discord.HTTPException as exc:
            log.warning("could not update lobby message: %s", exc)

    @game.command(name="join", description="Take a seat at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self._lobby_command(interaction, "join")

    @game.command(name="leave", description="Give up your seat before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self._lobby_command(interaction, "leave")

    @game.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            table = await self._table(interaction)
            if table is None:
                return
            try:
                outcome = await self.host.start(interaction.channel_id, str(interaction.user.id))
            except TableError as exc:
                await reply(interaction, str(exc))
                return
            await self.bot.ui.lobby.announce_start(interaction, outcome, from_lobby_message=False)

    @game.command(name="board", description="Show this channel's table again")
    async def board(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            table = await self._table(interaction)
            if table is not None:
                await self.bot.ui.turns.repost(interaction, table)

    @game.command(name="abandon", description="End this channel's table for good (host or moderators)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            table = await self._table(interaction)
            if table is None:
                return
            user = str(interaction.user.id)
            if user != table.record.host_id and not interaction.permissions.manage_channels:
                await reply(
                    interaction,
                    f"Only the host (<@{table.record.host_id}>) or someone who can manage this channel "
                    "can abandon the table.",
                )
                return
            await reply(
                interaction,
                f"Abandon the **{table.record.game}** table #{table.record.id}? This cannot be undone.",
                view=comp.abandon_view(table.record.id),
            )

    @game.command(name="rules", description="A short summary of a game's rules")
    @app_commands.describe(game="Which game (default: the one at this channel's table)")
    @app_commands.autocomplete(game=game_names)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        async with self.bot.working():
            if game is None and interaction.guild is not None:
                table = await self.host.current(interaction.channel_id or 0)
                game = table.record.game if table else None
            if game is None:
                await reply(
                    interaction, "Which game? Choose one of: " + ", ".join(self.bot.registry.names()) + "."
                )
                return
            game_cls = self.bot.registry.get(game)
            if game_cls is None:
                await reply(
                    interaction,
                    f"Unknown game '{game}'. Choose one of: {', '.join(self.bot.registry.names())}.",
                )
                return
            await reply(
                interaction,
                f"**{game_cls.name}** ({game_cls.min_players}–{game_cls.max_players} players)\n"
                f"{game_cls.rules_summary}\nFull rules: see docs/ in the bot's repository.",
            )

    # -- play ---------------------------------------------------------------------------------

    @game.command(name="play", description="Make a move by typing its notation")
    @app_commands.describe(action="Your move, e.g. 'move Grunt C4' (the list shows every legal one)")
    @app_commands.autocomplete(action=legal_notations)
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        async with self.bot.working():
            table = await self._table(interaction)
            if table is None:
                return
            if table.game is None:
                await reply(interaction, "The game has not started yet.")
                return
            await self.bot.ui.play.perform(interaction, table, action, version=None)

    @game.command(name="log", description="The recent history of this channel's game")
    async def history(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            if interaction.guild is None:
                await reply(interaction, NOT_IN_GUILD)
                return
            try:
                lines = await self.host.history(interaction.channel_id, limit=20)
            except TableError as exc:
                await reply(interaction, str(exc))
                return
            table = await self.host.current(interaction.channel_id)
            names = names_for(table) if table else {}
            text = "\n".join(f"• {format_text(line, names)}" for line in lines) or "Nothing has happened yet."
            await reply(interaction, text[-2000:])

    @game.command(name="hand", description="Your private information in this channel's game")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self.bot.ui.private.show_hand(interaction)

    # -- prompt timeouts ----------------------------------------------------------------------

    @tasks.loop(seconds=TIMEOUT_POLL_SECONDS)
    async def expire_prompts(self) -> None:
        """Apply the game's timeout to every table whose prompt waited too long."""
        async with self.bot.working():
            for record in await self.host.due():
                try:
                    outcome = await self.host.expire(record.channel_id, record.id, record.version)
                    if outcome is not None:
                        await self.bot.ui.turns.show_outcome(outcome)
                except (TableError, discord.HTTPException) as exc:
                    log.warning("timeout of table #%s failed: %s", record.id, exc)

    @expire_prompts.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()
