"""Seats during a game: hand-overs, leaving, pause, "my turns", rematch, and "don't ask me"."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot import clocks, seats
from bot.engine.core import format_text
from bot.store import FINISHED
from bot.table_meta import TableMeta
from bot.tables import Outcome, Table, TableError
from cogs import components as comp
from cogs import cooldowns
from cogs.replies import APPLIED, pinging, reply, send_public, trim, update_message
from cogs.seatnames import seat_colour
from cogs.turns import jump_link, timestamp

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


class SeatsUI:
    """Answers the commands and buttons that change who plays, and when."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

    async def remember(self, table: Table, change: Callable[[TableMeta], TableMeta]) -> None:
        """Keep a note in the table's bookkeeping (best effort)."""
        await self.host.note(table, change)

    # -- hand-overs ---------------------------------------------------------------------------

    async def replace(
        self, interaction: discord.Interaction, seat: str, member: discord.abc.User | None
    ) -> None:
        """/game replace: hand a seat to a member, or to an AI."""
        if member is not None and member.bot:
            await reply(
                interaction, "Bots from Discord can't take a seat; leave the member out to seat an AI."
            )
            return
        try:
            outcome = await self.host.replace(
                interaction.channel_id or 0,
                str(interaction.user.id),
                seat,
                str(member.id) if member is not None else None,
                member_name=member.display_name if member is not None else None,
            )
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        interaction.extras[APPLIED] = True
        await self.handed_over(interaction, outcome, seat)
        await self.bot.ui.turns.show_outcome(outcome)

    async def handed_over(self, interaction: discord.Interaction, outcome: Outcome, seat: str) -> None:
        """Tell the channel (pinging the people concerned), the new holder (by DM, with the seat's
        secrets) and the former holder (by DM) that ``seat`` changed hands."""
        table = outcome.table
        record = table.record
        former = next((e.data["from"] for e in outcome.events if e.kind == "replace"), None)
        holder = table.holder_of(seat)
        colour = seat_colour(table, seat)
        now = seats.name_of(record, seat)
        was = f" (was {seats.name_of(record, seat, former)})" if former is not None else ""
        people = [h for h in (former, holder) if h is not None and not seats.is_bot(h)]
        await send_public(
            interaction,
            content=f"🔄 The {colour} seat{was} is now played by {now}.",
            allowed_mentions=pinging(people),
        )
        place = self.bot.ui.private.where(table)
        if former is not None and not seats.is_bot(former):
            text = f"🔄 Your seat {colour} at {place} ({jump_link(table)}) is now played by {now}."
            if not await self.bot.ui.private.send_dm(former, trim(text)):
                log.info("table #%s: the former holder of a seat was not told by DM", record.id)
        if seats.is_bot(holder) or table.game is None:
            return
        text = f"🔄 You now play the {colour} seat{was}. {jump_link(table)}"
        secrets = format_text(table.game.secrets_text(seat), table.names())
        if secrets:
            await self.bot.ui.private.tell(table, holder, f"{text}\nWhat it knows:\n{secrets}")
            return
        if not await self.bot.ui.private.send_dm(holder, trim(f"{place}:\n{text}")):
            log.info("table #%s: the new holder of a seat was not told by DM", record.id)

    async def leave_game(self, interaction: discord.Interaction, table: Table) -> None:
        """/game leave during a game: ask to confirm that an AI takes the seat."""
        if table.seat_of(str(interaction.user.id)) is None:
            await reply(interaction, "You don't have a seat at this table.")
            return
        level = seats.settings(table.record)["level"]
        await reply(
            interaction,
            f"Leave the **{table.record.game}** game? An AI ({level}) takes your seat and plays it "
            "to the end; you stop getting its secrets.",
            view=comp.leave_view(table.record.id),
        )

    async def button(self, interaction: discord.Interaction, action: str, table_id: int) -> None:
        """A table button: "don't ask me this turn", Rematch, or the leave confirmation."""
        if action == "rematch":
            await self.rematch(interaction, table_id)
            return
        if action == "leave-no":
            await update_message(interaction, content="You keep your seat.", view=None)
            return
        table = await self.host.current(interaction.channel_id or 0)
        if table is None or table.record.id != table_id or table.game is None:
            await reply(interaction, "That table is closed.")
            return
        user = str(interaction.user.id)
        if action == "back":
            try:
                table = await self.host.back(interaction.channel_id or 0, user, table_id)
            except TableError as exc:
                await reply(interaction, str(exc))
                return
            await reply(interaction, "Welcome back: your seat is yours again.")
            await self.bot.ui.turns.update(table)
            self.bot.scheduler.kick(table)
            return
        if action in ("quiet", "quiet-game"):
            whole_game = action == "quiet-game"
            try:
                table = await self.host.quiet(
                    interaction.channel_id or 0, user, table_id, whole_game=whole_game
                )
            except TableError as exc:
                await reply(interaction, str(exc))
                return
            until = "for the rest of this game" if whole_game else "again this turn"
            await reply(interaction, f"You won't be asked to wait-or-act {until} (you pass).")
            self.bot.scheduler.kick(table)
            return
        seat = table.seat_of(user)
        if seat is None:
            await update_message(interaction, content="You don't have a seat at this table.", view=None)
            return
        await update_message(interaction, content="You left; an AI plays your seat now.", view=None)
        try:
            outcome = await self.host.replace(
                interaction.channel_id or 0, user, seat, None, table_id=table_id
            )
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        interaction.extras[APPLIED] = True
        await self.handed_over(interaction, outcome, seat)
        await self.bot.ui.turns.show_outcome(outcome)

    # -- clocks -------------------------------------------------------------------------------

    async def pause(self, interaction: discord.Interaction, paused: bool) -> None:
        """/game pause and /game resume (host)."""
        try:
            table = await self.host.pause(
                interaction.channel_id or 0, str(interaction.user.id), paused=paused
            )
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        game = f"**{table.record.game}** game"
        if paused:
            text = f"⏸ {interaction.user.mention} paused the {game}: no clock runs."
        else:
            text = f"▶ {interaction.user.mention} resumed the {game}: the clocks run again."
        await send_public(interaction, content=text)
        if not paused:
            self.bot.scheduler.kick(table)
        await self.bot.ui.turns.update(table)

    async def my_turns(self, interaction: discord.Interaction) -> None:
        """/game turns: the open tables waiting for the user, here or (in a DM) anywhere."""
        user = str(interaction.user.id)
        tables = await self.host.awaiting(user, interaction.guild_id)
        if not tables:
            where = "on this server" if interaction.guild_id else "anywhere"
            await reply(interaction, f"No table is waiting for you {where}. 🎉")
            return
        lines = []
        for table in tables:
            hours = int(seats.settings(table.record)["clock"])
            end = clocks.clock_end(table.record.meta, hours)
            when = (
                f" · time runs out {timestamp(end)}"
                if end is not None and not table.record.meta.paused is not None
                else ""
            )
            paused = " · ⏸ paused" if table.record.meta.paused is not None else ""
            lines.append(
                f"• **{table.record.game}** table #{table.record.id} in <#{table.record.channel_id}>"
                f"{when}{paused} — {jump_link(table)}"
            )
        await reply(interaction, trim("Waiting for you:\n" + "\n".join(lines)))

    async def away(self, interaction: discord.Interaction, days: int | None) -> None:
        """/game away (``days``) and /game back (None): the user's seats at every running table."""
        user = str(interaction.user.id)
        until = self.host.now() + timedelta(days=days) if days is not None else None
        try:
            tables = await self.host.set_away(user, until)
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        if until is not None and not tables:
            text = (
                "You hold no seat at a running game, so there is nothing to be away from. "
                "(Lobbies wait for their start; /game turns lists where you are awaited.)"
            )
        elif until is not None:
            text = (
                f"💤 You are away until {timestamp(until, 'F')} at {len(tables)} running "
                f"{'table' if len(tables) == 1 else 'tables'}: nobody pings you meanwhile; where "
                "idle=bot an AI plays your seat, where idle=wait your clock stands still. "
                "/game back ends it early."
            )
        elif tables:
            text = f"Welcome back: your seats are yours again at {len(tables)} tables."
        else:
            text = "You were not away at any running table."
        await reply(interaction, text)
        for table in tables:
            await self.bot.ui.turns.update(table)
            self.bot.scheduler.kick(table)

    # -- rematch ------------------------------------------------------------------------------

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """Open a new lobby with the finished table's seats and options (players may leave it)."""
        record = await self.host.store.get_table(table_id)
        user = str(interaction.user.id)
        if record is None or record.channel_id != interaction.channel_id or record.status != FINISHED:
            await reply(interaction, "That game can't be replayed from here.")
            return
        held = seats.holders(record)
        if user not in held.values():
            await reply(interaction, "Only the players of that game can ask for a rematch.")
            return
        if await cooldowns.refused(interaction, self.bot.cooldowns, "rematch", table_id):
            return
        people = [h for h in held.values() if not seats.is_bot(h)]
        bots = [seats.level_of(h) for h in held.values() if seats.is_bot(h)]
        settings = {k: v for k, v in seats.settings(record).items() if k not in ("bots", "thread")}
        options = " ".join(f"{k}={v}" for k, v in {**record.options, **settings}.items())
        try:
            table = await self.host.open_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                game_name=record.game,
                host_id=user,
                options_text=options,
                seated=people,
                bots=bots,
                names={**record.meta.names, user: interaction.user.display_name},
            )
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        payload = self.bot.ui.lobby.payload(table)
        mentions = " ".join(f"<@{p}>" for p in people)
        payload["content"] = (
            f"🔁 Rematch! {mentions} — you are seated again; press **Leave** to sit this one out.\n"
            + payload["content"]
        )
        message = await send_public(interaction, allowed_mentions=pinging(people), **payload)
        await self.host.set_message(table, message.id)
