"""Secret information: DMs of private events, the closed-DM fallback, and /game hand."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot import seats
from bot.engine.core import format_text
from bot.tables import Outcome
from cogs.replies import NO_MENTIONS, pinging, reply, trim

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

CLOSED_DMS = (
    "I couldn't send you a DM (your DMs are closed). Use **/game hand** to see your private information."
)


class PrivateInfo:
    """Delivers each player's secrets to them alone."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

    async def deliver(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """DM each player their secret events; if a DM fails, tell them where to look instead."""
        table = outcome.table
        names = table.names()
        for seat, events in outcome.private_events().items():
            holder = table.holder_of(seat)
            if seats.is_bot(holder):
                continue  # a bot's secrets stay in the game: nobody reads them
            lines = "\n".join(f"• {format_text(e.text, names)}" for e in events)
            await self.tell(table, holder, lines, interaction)

    def where(self, table) -> str:
        """Which table, in which channel (and server), for a DM."""
        guild = self.bot.get_guild(table.record.guild_id or 0)
        place = f"<#{table.record.channel_id}>" + (f" ({guild.name})" if guild else "")
        return f"**{table.record.game}** table #{table.record.id} in {place}"

    async def tell(
        self, table, holder: str, text: str, interaction: discord.Interaction | None = None
    ) -> bool:
        """DM a player something private about a table; if their DMs are closed, tell them
        (privately if they are the one interacting, else by a mention) to use /game hand."""
        if await self.send_dm(holder, trim(f"{self.where(table)}:\n{text}")):
            return True
        if interaction is not None and str(interaction.user.id) == holder:
            await reply(interaction, CLOSED_DMS)
        else:
            channel = self.bot.get_partial_messageable(table.record.channel_id)
            await channel.send(f"<@{holder}>: {CLOSED_DMS}", allowed_mentions=pinging([holder]))
        return False

    async def send_dm(self, player: str, text: str) -> bool:
        """Send ``text`` to the player (a Discord user id) by DM; False if that failed."""
        if not player.isdigit():
            return False
        try:
            user = self.bot.get_user(int(player)) or await self.bot.fetch_user(int(player))
            await user.send(text, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden:
            log.info("DMs closed for a player at a table; told them to use /game hand")
            return False
        except discord.HTTPException as exc:
            log.warning("could not DM a player: %s", exc.status)
            return False
        return True

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """Show the user their private information at this channel's table, privately."""
        if interaction.guild is None:
            await reply(interaction, "Games are played in server channels; use this command in a channel.")
            return
        table = await self.host.current(interaction.channel_id or 0)
        seat = table.seat_of(str(interaction.user.id)) if table is not None else None
        if table is None:
            await reply(interaction, "There is no table in this channel. Open one with /game new.")
        elif seat is None:
            await reply(interaction, "You are not playing at this table.")
        elif table.game is None:
            await reply(interaction, "The game has not started yet.")
        else:
            text = format_text(table.game.secrets_text(seat), table.names())
            await reply(interaction, text or "You hold no secret information in this game.")
