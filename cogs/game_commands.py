"""The /game command group: tables (open, join, bots, start, leave, replace, pause, abandon),
playing by typing, and what a player needs to follow (board, log, hand, turns, rules)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import metrics, quiet_hours, seats
from bot.engine.core import Game, IllegalAction, format_text, help_matches, parse_options, shorten
from bot.store import LOBBY, PLAYING
from bot.tables import Table, TableError
from cogs import components as comp
from cogs import cooldowns, forget_me
from cogs.picker import ActionTree
from cogs.replies import acknowledge, choices_or_nothing, reply, send_public
from cogs.seatnames import seat_choice

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

RESTART_SECONDS = 30
"""How long the tending loop waits before it starts again after failing."""
NOT_IN_GUILD = "Games are played in server channels; use this command in a channel."
LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in seats.LEVELS]


def rules_answer(game_cls: type[Game], topic: str | None) -> str:
    """What ``/game rules`` answers: the overview, the page asked for, or a short sentence
    saying there is no such page (with the closest topics)."""
    pages = game_cls.help_topics()
    players = f"{game_cls.min_players}–{game_cls.max_players} players"
    summary = f"**{game_cls.name}** ({players})\n{game_cls.rules_summary}"
    if not pages:
        return summary
    overview = pages.get("overview")
    if not topic or not topic.strip():
        return overview.message(game_cls.name) if overview else summary
    wanted = topic.strip().lower()
    matches = help_matches(pages, wanted)
    exact = wanted if wanted in pages else None
    if exact is None and matches:
        first = pages[matches[0]]
        if first.title.lower() == wanted or len(matches) == 1:
            exact = matches[0]
    if exact is not None:
        return pages[exact].message(game_cls.name)
    typed = shorten(" ".join(topic.split()), 40)
    see = f"`/game rules game:{game_cls.name}` lists every page."
    if matches:
        close = ", ".join(f"`{t}`" for t in matches[:6])
        return f"Several {game_cls.name} rules pages match '{typed}': {close}. {see}"
    return f"There is no {game_cls.name} rules page '{typed}'. {see}"


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
        self.tend_tables.change_interval(seconds=self.bot.settings.scheduler_seconds)
        self.tend_tables.start()

    async def cog_unload(self) -> None:
        self.tend_tables.cancel()

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
        for spec in (*game_cls.option_specs, *seats.TABLE_OPTIONS):
            values = spec.choices or tuple(str(v) for v in sorted({spec.minimum, spec.default, spec.maximum}))
            for value in values:
                text = f"{done}{spec.name}={value}".strip()
                if text.lower().startswith(typed.lower()) or not typed:
                    suggestions.append(app_commands.Choice(name=text[:100], value=text[:100]))
        return suggestions[:25]

    @choices_or_nothing
    async def legal_notations(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's legal actions whose notation matches what they typed."""
        table = await self.host.current(interaction.channel_id or 0)
        seat = table.seat_of(str(interaction.user.id)) if table is not None else None
        if table is None or table.game is None or seat is None or table.game.result() is not None:
            return []
        tree = ActionTree(table.game, seat)
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in tree.matching(current)]

    @choices_or_nothing
    async def seat_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The seats of this channel's table, by colour and who plays them."""
        table = await self.host.current(interaction.channel_id or 0)
        if table is None:
            return []
        found = []
        for seat in table.record.seats:
            label = seat_choice(table, seat, interaction.guild)
            if current.lower() in label.lower():
                found.append(app_commands.Choice(name=label[:100], value=seat))
        return found[:25]

    # -- lobby --------------------------------------------------------------------------------

    @game.command(name="new", description="Open a game table in this channel")
    @app_commands.describe(game="Which game to play", options="Table options, e.g. difficulty=hard")
    @app_commands.autocomplete(game=game_names, options=option_hints)
    async def new(self, interaction: discord.Interaction, game: str, options: str = "") -> None:
        async with self.bot.working():
            if await cooldowns.refused(interaction, self.bot.cooldowns, "new", interaction.channel_id):
                return
            if interaction.guild is None:
                await reply(interaction, NOT_IN_GUILD)
                return
            in_thread = self._wants_thread(game, options)
            if in_thread is None:  # bad options: opening the table says what is wrong
                in_thread = False
            channel = interaction.channel
            channel_id = interaction.channel_id
            thread: discord.Thread | None = None
            if in_thread:
                if isinstance(channel, discord.Thread) or not isinstance(channel, discord.TextChannel):
                    await reply(interaction, "thread=on works in a text channel (not inside a thread).")
                    return
                await acknowledge(interaction, thinking=True)
                try:
                    thread = await channel.create_thread(
                        name=f"{game} table by {interaction.user.display_name}"[:100],
                        type=discord.ChannelType.public_thread,
                        auto_archive_duration=10080,  # 7 days: games last days, not hours
                    )
                except discord.HTTPException as exc:
                    await reply(
                        interaction, f"I could not open a thread here ({exc.status}): check my permissions."
                    )
                    return
                channel_id = thread.id
            if channel_id is None:  # a guild interaction always has its channel
                await reply(interaction, NOT_IN_GUILD)
                return
            try:
                table = await self.host.open_table(
                    guild_id=interaction.guild_id,
                    channel_id=channel_id,
                    game_name=game,
                    host_id=str(interaction.user.id),
                    options_text=options,
                    names={str(interaction.user.id): interaction.user.display_name},
                )
            except TableError as exc:
                await reply(interaction, str(exc))
                return
            payload = self.bot.ui.lobby.payload(table)
            if thread is not None:
                message = await thread.send(**payload)
                await interaction.followup.send(f"The table is open in {thread.mention}.")
            else:
                message = await send_public(interaction, **payload)
            await self.host.set_message(table, message.id)

    def _wants_thread(self, game: str, options: str) -> bool | None:
        """Whether the options ask for a thread (None if they cannot be read)."""
        game_cls = self.bot.registry.get(game)
        if game_cls is None:
            return None
        try:
            values = parse_options((*game_cls.option_specs, *seats.TABLE_OPTIONS), options)
        except IllegalAction:
            return None
        return values.get("thread") == "on"

    async def _lobby_command(self, interaction: discord.Interaction, action: str) -> None:
        table = await self._table(interaction)
        if table is None:
            return
        user = str(interaction.user.id)
        try:
            if action == "join":
                table = await self.host.join(interaction.channel_id, user, name=interaction.user.display_name)
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

    @game.command(name="leave", description="Give up your seat (during a game, an AI takes it over)")
    async def leave(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            table = await self._table(interaction)
            if table is not None and table.record.status == PLAYING:
                await self.bot.ui.seats.leave_game(interaction, table)
                return
            await self._lobby_command(interaction, "leave")

    @game.command(name="addbot", description="Seat a bot at this channel's lobby (host)")
    @app_commands.describe(level="How strongly it plays (default: the table's level)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        async with self.bot.working():
            await self._bot_command(interaction, level, add=True)

    @game.command(name="removebot", description="Take the last bot off this channel's lobby (host)")
    async def removebot(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self._bot_command(interaction, None, add=False)

    async def _bot_command(self, interaction: discord.Interaction, level: str | None, *, add: bool) -> None:
        table = await self._table(interaction)
        if table is None:
            return
        user = str(interaction.user.id)
        try:
            if add:
                table = await self.host.add_bot(interaction.channel_id, user, level)
            else:
                table = await self.host.remove_bot(interaction.channel_id, user)
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        verb = "seated a bot at" if add else "took a bot off"
        await send_public(
            interaction,
            content=f"<@{user}> {verb} the **{table.record.game}** table #{table.record.id} "
            f"({len(table.record.seats)} seated).",
        )
        await self._refresh_lobby_message(table)

    @game.command(name="replace", description="Hand a seat to another member, or to an AI")
    @app_commands.describe(
        player="The seat to hand over", member="Who takes it (leave out: an AI at the table's level)"
    )
    @app_commands.autocomplete(player=seat_names)
    async def replace(
        self, interaction: discord.Interaction, player: str, member: discord.Member | None = None
    ) -> None:
        async with self.bot.working():
            if await self._table(interaction) is not None:
                await self.bot.ui.seats.replace(interaction, player, member)

    @game.command(name="pause", description="Stop the clocks of this channel's game (host)")
    async def pause(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            if await self._table(interaction) is not None:
                await self.bot.ui.seats.pause(interaction, True)

    @game.command(name="resume", description="Start the clocks of this channel's game again (host)")
    async def resume(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            if await self._table(interaction) is not None:
                await self.bot.ui.seats.pause(interaction, False)

    @game.command(name="away", description="Be away for some days: no pings; an AI plays or your clock stops")
    @app_commands.describe(days="How many days you are away (1–60)")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]) -> None:
        async with self.bot.working():
            await self.bot.ui.seats.away(interaction, days)

    @game.command(name="back", description="You are back: your seats are yours again at every table")
    async def back(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self.bot.ui.seats.away(interaction, None)

    async def zone_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """IANA time zones matching what the user typed."""
        return [app_commands.Choice(name=z, value=z) for z in quiet_hours.zones(current)]

    @game.command(
        name="quiet", description="Your quiet hours: reminders that fall in them wait until they end"
    )
    @app_commands.describe(
        start="When they begin, HH:MM (the same as end: no quiet hours)",
        end="When they end, HH:MM",
        timezone="Your time zone, e.g. Europe/Berlin",
    )
    @app_commands.autocomplete(timezone=zone_names)
    async def quiet(self, interaction: discord.Interaction, start: str, end: str, timezone: str) -> None:
        async with self.bot.working():
            try:
                hours = quiet_hours.parse(start.strip(), end.strip(), timezone.strip())
            except IllegalAction as exc:
                await reply(interaction, str(exc))
                return
            user = str(interaction.user.id)
            prefs = await self.host.store.person(user)
            await self.host.store.set_person(user, {**prefs, "quiet": hours})
            if hours["start"] == hours["end"]:
                await reply(interaction, "No quiet hours: reminders come whenever they are due.")
            else:
                await reply(
                    interaction,
                    f"🌙 Quiet hours {hours['start']}–{hours['end']} ({hours['zone']}): a reminder that "
                    "falls in them waits until they end.",
                )

    @game.command(name="turns", description="Every table waiting for you (here, or in a DM: everywhere)")
    async def turns(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self.bot.ui.seats.my_turns(interaction)

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

    @game.command(
        name="board", description="Show this channel's table (players re-post it; others see it privately)"
    )
    async def board(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            if await cooldowns.refused(interaction, self.bot.cooldowns, "board", interaction.channel_id):
                return
            if interaction.guild is None:
                await reply(interaction, NOT_IN_GUILD)
                return
            table = await self.host.latest(interaction.channel_id)
            if table is None:
                await reply(interaction, "There is no table in this channel. Open one with /game new.")
                return
            user = str(interaction.user.id)
            seated = table.seat_of(user) is not None or user == table.record.host_id
            if table.record.status == LOBBY or (seated and table.record.is_open):
                await self.bot.ui.turns.repost(interaction, table)
            elif table.game is not None:
                await self.bot.ui.turns.show_privately(interaction, table)
            else:
                await reply(
                    interaction, f"The last table here (#{table.record.id}) was closed before it started."
                )

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

    async def _rules_game(self, interaction: discord.Interaction, game: str | None) -> str | None:
        """The game a rules question is about: the one named, else the channel's table's."""
        if game:
            return game
        if interaction.guild is None:
            return None
        table = await self.host.current(interaction.channel_id or 0)
        return table.record.game if table else None

    @choices_or_nothing
    async def help_topic_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's rules pages matching what the user typed (at most 25)."""
        game = await self._rules_game(interaction, str(getattr(interaction.namespace, "game", "") or ""))
        game_cls = self.bot.registry.get(game) if game else None
        if game_cls is None:
            return []
        pages = game_cls.help_topics()
        found = []
        for topic in help_matches(pages, current)[:25]:
            page = pages[topic]
            label = f"{page.title} ({page.group})" if page.group else page.title
            found.append(app_commands.Choice(name=label[:100], value=topic[:100]))
        return found

    @game.command(name="rules", description="How a game is played: an overview, or one page per topic")
    @app_commands.describe(
        game="Which game (default: the one at this channel's table)",
        topic="A page: a Module, an Astronaut, a Frontier, an Item… (leave out for the overview)",
    )
    @app_commands.autocomplete(game=game_names, topic=help_topic_names)
    async def rules(
        self, interaction: discord.Interaction, game: str | None = None, topic: str | None = None
    ) -> None:
        async with self.bot.working():
            game = await self._rules_game(interaction, game)
            names = ", ".join(self.bot.registry.names())
            if game is None:
                await reply(interaction, f"Which game? Choose one of: {names}.")
                return
            game_cls = self.bot.registry.get(game)
            if game_cls is None:
                await reply(interaction, f"Unknown game '{shorten(game, 40)}'. Choose one of: {names}.")
                return
            await reply(interaction, rules_answer(game_cls, topic))

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
            table = await self.host.latest(interaction.channel_id)
            names = table.names() if table else {}
            text = "\n".join(f"• {format_text(line, names)}" for line in lines) or "Nothing has happened yet."
            await reply(interaction, text if len(text) <= 2000 else "…" + text[-1999:])

    @game.command(name="forget-me", description="Remove your id from finished games; an AI takes your seats")
    @app_commands.describe(confirm="True to do it (without: what it does)")
    async def forget_me(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        async with self.bot.working():
            await forget_me.forget_me(self.bot, interaction, confirm)

    @game.command(name="hand", description="Your private information in this channel's game")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with self.bot.working():
            await self.bot.ui.private.show_hand(interaction)

    # -- the scheduler ------------------------------------------------------------------------

    @tasks.loop(seconds=10)
    async def tend_tables(self) -> None:
        """Tend every table whose deadline has come: reminders, clocks, timeouts, bots (each
        table inside its own error boundary, see ``Scheduler``)."""
        metrics.tending_tick()
        async with self.bot.working():
            await self.bot.scheduler.run_due()

    @tend_tables.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    @tend_tables.error
    async def _tending_stopped(self, error: BaseException) -> None:
        """The loop itself failed (nothing a single table raises gets here): start it again."""
        log.error("the tending loop stopped; starting it again in %ss", RESTART_SECONDS, exc_info=error)
        asyncio.get_running_loop().call_later(RESTART_SECONDS, self._restart_tending)

    def _restart_tending(self) -> None:
        if self.bot.is_closed() or self.bot.host is None or self.bot.host.closing:
            return
        if not self.tend_tables.is_running():
            self.tend_tables.start()
            log.info("the tending loop runs again")
