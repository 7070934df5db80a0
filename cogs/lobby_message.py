"""The lobby message and its buttons, the start announcement, and the abandon confirmation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot import seats
from bot.tables import Outcome, Table, TableError
from cogs import components as comp
from cogs.replies import APPLIED, acknowledge, reply, send_public, update_message

if TYPE_CHECKING:
    from bot.app import TableBot


class LobbyUI:
    """Shows lobbies and answers their buttons."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

    def payload(self, table: Table) -> dict[str, Any]:
        """Content and buttons of a lobby message."""
        record = table.record
        game_cls = self.bot.registry.get(record.game)
        bounds = f"{game_cls.min_players}–{game_cls.max_players}" if game_cls else "?"
        names = table.names()
        seated = "\n".join(
            f"{n}. {names[seat]}{' (host)' if seat == record.host_id else ''}"
            for n, seat in enumerate(record.seats, start=1)
        )
        settings = seats.settings(record)
        shown = {k: v for k, v in settings.items() if k not in ("bots", "thread")}
        options = " ".join(f"{k}={v}" for k, v in {**record.options, **shown}.items())
        content = (
            f"**{record.game}** table #{record.id} is open — {len(record.seats)} seated "
            f"({bounds} players).\n{seated}\nOptions: {options}\n"
            "Press **Join** to take a seat; the host can **Add bot** to fill seats and presses "
            "**Start** when everyone is in."
        )
        has_bots = any(seats.is_bot(s) for s in record.seats)
        return {"content": content, "view": comp.lobby_view(record.id, has_bots=has_bots)}

    async def clicked(self, interaction: discord.Interaction, action: str, table_id: int) -> None:
        """Join / Leave / Start pressed on a lobby message."""
        user = str(interaction.user.id)
        channel_id = interaction.channel_id or 0
        try:
            if action == "start":
                outcome = await self.host.start(channel_id, user, table_id)
            elif action == "join":
                table = await self.host.join(channel_id, user, table_id, interaction.user.display_name)
            elif action == "addbot":
                table = await self.host.add_bot(channel_id, user, table_id=table_id)
            elif action == "removebot":
                table = await self.host.remove_bot(channel_id, user, table_id=table_id)
            else:
                table = await self.host.leave(channel_id, user, table_id)
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        if action == "start":
            await self.announce_start(interaction, outcome, from_lobby_message=True)
            return
        if table.record.is_open:
            await update_message(interaction, **self.payload(table))
        else:
            await update_message(
                interaction,
                content=f"**{table.record.game}** table #{table.record.id} closed: everyone left.",
                view=None,
            )

    async def announce_start(
        self, interaction: discord.Interaction, outcome: Outcome, *, from_lobby_message: bool
    ) -> None:
        """Retire the lobby message and post the first turn message."""
        interaction.extras[APPLIED] = True
        table = outcome.table
        turns = self.bot.ui.turns
        names = table.names()
        started = (
            f"**{table.record.game}** table #{table.record.id} has started with "
            + ", ".join(names[p] for p in table.record.seats)
            + "."
        )
        if from_lobby_message:
            await update_message(interaction, content=started, view=None)
        else:
            await acknowledge(interaction, thinking=True)  # the board is drawn next
            await turns.edit_table_message(table, content=started, view=None)
        await turns.post(table, interaction, strip_previous=False)
        await self.bot.ui.private.deliver(outcome, interaction)
        self.bot.scheduler.kick(table)  # a bot that plays first moves at once

    async def abandon_answer(self, interaction: discord.Interaction, confirmed: bool, table_id: int) -> None:
        """The host's answer to the abandon confirmation."""
        if not confirmed:
            await update_message(interaction, content="The game goes on.", view=None)
            return
        may_manage = bool(interaction.permissions.manage_channels)
        try:
            table = await self.host.abandon(
                interaction.channel_id or 0,
                str(interaction.user.id),
                may_manage=may_manage,
                table_id=table_id,
            )
        except TableError as exc:
            await update_message(interaction, content=str(exc), view=None)
            return
        await update_message(interaction, content="Abandoned.", view=None)
        await self.bot.ui.turns.strip_components(table)
        await send_public(
            interaction,
            content=f"<@{interaction.user.id}> abandoned the **{table.record.game}** table "
            f"#{table.record.id}. A new table can be opened here with /game new.",
        )
