"""How tables look in Discord: lobby and turn messages, pickers, DMs, and replies to users."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.core import Action, Game, Prompt, format_text, player_ref
from bot.store import LOBBY
from bot.tables import Outcome, OutOfDate, Table, TableError
from cogs import components as comp
from cogs.picker import ActionTree, StalePath, Step
from render import board_png

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

LOG_LINES = 6
NO_MENTIONS = discord.AllowedMentions.none()


def names_for(table: Table) -> dict[str, str]:
    """How to name each seated player in a message: their mention."""
    return {pid: f"<@{pid}>" for pid in table.record.seats}


def _trim(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer the user privately (ephemeral), whether or not the interaction was answered yet."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs)


async def send_public(interaction: discord.Interaction, **kwargs: Any) -> discord.Message:
    """Post a public message through the interaction (its response, else a followup)."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    if not interaction.response.is_done():
        await interaction.response.send_message(**kwargs)
        return await interaction.original_response()
    return await interaction.followup.send(wait=True, **kwargs)


class TableUI:
    """Builds and updates the messages that show tables, and delivers secrets by DM."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

    # -- lobby --------------------------------------------------------------------------------

    def lobby_payload(self, table: Table) -> dict[str, Any]:
        """Content and buttons of a lobby message."""
        record = table.record
        game_cls = self.bot.registry.get(record.game)
        bounds = f"{game_cls.min_players}–{game_cls.max_players}" if game_cls else "?"
        seats = "\n".join(
            f"{n}. <@{pid}>{' (host)' if pid == record.host_id else ''}"
            for n, pid in enumerate(record.seats, start=1)
        )
        options = " ".join(f"{k}={v}" for k, v in record.options.items()) or "none"
        content = (
            f"**{record.game}** table #{record.id} is open — {len(record.seats)} seated "
            f"({bounds} players).\n{seats}\nOptions: {options}\n"
            "Press **Join** to take a seat; the host presses **Start** when everyone is in."
        )
        return {"content": content, "view": comp.lobby_view(record.id)}

    # -- turn messages ------------------------------------------------------------------------

    def _header(self, table: Table, view: dict[str, Any], *, retired: bool = False) -> str:
        record = table.record
        turn = f" · turn {view['turn']}" if view.get("turn") is not None and not retired else ""
        seats = " · ".join(
            f"{p.get('colour', '?')} <@{p['id']}>" for p in view.get("players", []) if "id" in p
        )
        return f"**{record.game}** · table #{record.id}{turn}\n{seats}"

    async def _recent_lines(self, table: Table) -> list[str]:
        lines = await self.host.history(table.record.channel_id, limit=LOG_LINES)
        names = names_for(table)
        return [f"• {format_text(line, names)}" for line in lines]

    def _prompt_line(self, table: Table, prompt: Prompt) -> str:
        names = names_for(table)
        text = format_text(prompt.text, names)
        named = prompt.player is None or player_ref(prompt.player) in prompt.text
        line = f"▶ {text}" if named else f"▶ <@{prompt.player}>: {text}"
        if prompt.private:
            line += " (your choices are private: press **Show my choices**)"
        if prompt.others:
            who = ", ".join(f"<@{p}>" for p in prompt.others)
            line += f"\n{prompt.others_label or 'Act out of turn'}: {who} may act now."
        return line

    async def turn_payload(
        self,
        table: Table,
        *,
        step: Step | None = None,
        page: int = 0,
        with_board: bool = True,
        retired: bool = False,
    ) -> dict[str, Any]:
        """Content, components and (optionally) the board image of the table's turn message.

        ``retired``: the message of a turn that has ended (its log, no prompt, no components).
        """
        game = table.game
        assert game is not None
        view = game.view(None)
        parts = [self._header(table, view, retired=retired)]
        parts += await self._recent_lines(table)
        result = game.result()
        components: discord.ui.View | None = None
        if result is not None:
            parts.append(f"🏁 **Game over.** {format_text(result.text, names_for(table))}")
            scores = " · ".join(f"<@{pid}> {score}" for pid, score in result.scores.items())
            if scores:
                parts.append(f"Scores: {scores}")
        elif not retired:
            prompt = game.prompt()
            if prompt is not None:
                parts.append(self._prompt_line(table, prompt))
                if step is None and prompt.player is not None and not prompt.private:
                    step = self._root(game, prompt.player)
                if step is not None and step.tokens:
                    parts.append(f"Choosing: **{' '.join(step.tokens)} …**")
                components = comp.turn_view(table.record, prompt, step, page)
        payload: dict[str, Any] = {"content": _trim("\n".join(parts)), "view": components}
        if with_board:
            png = board_png(view)
            payload["attachments"] = [discord.File(io.BytesIO(png), filename="board.png")] if png else []
        return payload

    @staticmethod
    def _root(game: Game, player: str) -> Step | None:
        tree = ActionTree(game, player)
        if not tree:
            return None
        step = tree.walk(())
        return step if isinstance(step, Step) else None

    async def post_turn_message(
        self,
        table: Table,
        interaction: discord.Interaction | None = None,
        *,
        mention: bool = True,
        strip_previous: bool = True,
    ) -> None:
        """Post a fresh turn message (stripping the components of the previous one)."""
        if strip_previous:
            await self.strip_components(table)
        payload = await self.turn_payload(table)
        payload["files"] = payload.pop("attachments")
        if payload["view"] is None:
            payload.pop("view")
        prompt = table.game.prompt() if table.game else None
        if mention and prompt is not None and prompt.player is not None:
            payload["allowed_mentions"] = discord.AllowedMentions(
                users=[discord.Object(int(prompt.player))], everyone=False, roles=False
            )
        if interaction is not None:
            message = await send_public(interaction, **payload)
        else:
            channel = self.bot.get_partial_messageable(table.record.channel_id)
            payload.setdefault("allowed_mentions", NO_MENTIONS)
            message = await channel.send(**payload)
        await self.host.set_message(table, message.id)

    async def edit_table_message(self, table: Table, **changes: Any) -> bool:
        """Edit the message that shows the table now (best effort); False if that failed."""
        message_id = table.record.message_id
        if message_id is None:
            return False
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(**changes)
        except discord.HTTPException as exc:
            log.warning("could not edit table message %s: %s", message_id, exc)
            return False
        return True

    async def strip_components(self, table: Table) -> None:
        """Remove the buttons from the message that showed the table so far (best effort)."""
        await self.edit_table_message(table, view=None)

    async def update_turn_message(self, table: Table) -> None:
        """Edit the table's current turn message to show the latest state."""
        if not await self.edit_table_message(table, **await self.turn_payload(table)):
            await self.post_turn_message(table, mention=False, strip_previous=False)

    async def show_outcome(
        self,
        outcome: Outcome,
        interaction: discord.Interaction | None = None,
        *,
        on_turn_message: bool = False,
    ) -> None:
        """Present what an action did, then deliver secrets by DM.

        When the turn passes, or the decision passes to another player (e.g. a trade offer),
        the old turn message is retired and a new one mentions who decides now; otherwise the
        turn message is edited in place.

        ``on_turn_message``: the interaction is a (deferred) click on the table's turn message,
        so that message is updated through the interaction.
        """
        table = outcome.table
        if outcome.turn_changed or outcome.decider_changed:
            retired = await self.turn_payload(table, with_board=False, retired=True)
            if on_turn_message and interaction is not None:
                await interaction.edit_original_response(**retired)
            else:
                await self.edit_table_message(table, **retired)
            await self.post_turn_message(table, interaction, strip_previous=False)
        elif on_turn_message and interaction is not None:
            await interaction.edit_original_response(**await self.turn_payload(table))
        else:
            await self.update_turn_message(table)
        await self.deliver_private(outcome, interaction)

    # -- secrets ------------------------------------------------------------------------------

    async def deliver_private(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """DM each player their secret events; if a DM fails, tell them where to look instead."""
        table = outcome.table
        names = names_for(table)
        guild = self.bot.get_guild(table.record.guild_id or 0)
        where = f"<#{table.record.channel_id}>" + (f" ({guild.name})" if guild else "")
        for player, events in outcome.private_events().items():
            lines = "\n".join(f"• {format_text(e.text, names)}" for e in events)
            text = _trim(f"**{table.record.game}** table #{table.record.id} in {where}:\n{lines}")
            if await self.send_dm(player, text):
                continue
            notice = (
                "I couldn't send you a DM (your DMs are closed). "
                "Use **/game hand** to see your private information."
            )
            if interaction is not None and str(interaction.user.id) == player:
                await reply(interaction, notice)
            else:
                channel = self.bot.get_partial_messageable(table.record.channel_id)
                await channel.send(
                    f"<@{player}>: {notice}",
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(int(player))], everyone=False, roles=False
                    ),
                )

    async def send_dm(self, player: str, text: str) -> bool:
        """Send ``text`` to the player by DM; False if their DMs are closed."""
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
        user = str(interaction.user.id)
        if table is None:
            await reply(interaction, "There is no table in this channel. Open one with /game new.")
        elif user not in table.record.seats:
            await reply(interaction, "You are not playing at this table.")
        elif table.game is None:
            await reply(interaction, "The game has not started yet.")
        else:
            text = format_text(table.game.secrets_text(user), names_for(table))
            await reply(interaction, _trim(text or "You hold no secret information in this game."))

    # -- pickers ------------------------------------------------------------------------------

    async def show_out_of_date(self, interaction: discord.Interaction, why: str) -> None:
        """Refuse a stale component, showing the current board privately."""
        table = await self.host.current(interaction.channel_id or 0)
        if table is None or table.game is None:
            await reply(interaction, f"{why} There is no game running here now.")
            return
        payload = await self.turn_payload(table)
        payload.pop("view", None)
        files = payload.pop("attachments", [])
        content = _trim(f"{why} This is the current board:\n{payload['content']}")
        await reply(interaction, content, files=files)

    async def picked(
        self,
        interaction: discord.Interaction,
        *,
        scope: str,
        table_id: int,
        version: int,
        path: tuple[int, ...],
        page: int = 0,
    ) -> None:
        """A click or selection in a picker: show the next step, or apply the chosen action."""
        table = await self.host.current(interaction.channel_id or 0)
        if table is None or table.record.id != table_id:
            await self.show_out_of_date(interaction, "That table is closed.")
            return
        if table.record.version != version or table.game is None:
            await self.show_out_of_date(interaction, "That board is out of date.")
            return
        user = str(interaction.user.id)
        prompt = table.game.prompt()
        if prompt is None:
            await reply(interaction, "The game is over.")
            return
        if scope == comp.PUBLIC and user != prompt.player:
            hint = f" Waiting for <@{prompt.player}>." if prompt.player else ""
            if user in prompt.others:
                hint += f" Use the **{prompt.others_label or 'out-of-turn'}** button."
            await reply(interaction, f"It is not your decision.{hint}")
            return
        if scope == comp.PRIVATE and user not in prompt.deciders():
            await reply(interaction, "It is not your decision right now.")
            return
        try:
            reached = ActionTree(table.game, user).walk(path)
        except StalePath:
            await self.show_out_of_date(interaction, "That choice is no longer available.")
            return
        if isinstance(reached, Step):
            if scope == comp.PUBLIC:
                payload = await self.turn_payload(table, step=reached, page=page, with_board=False)
                await interaction.response.edit_message(**payload)
            else:
                await interaction.response.edit_message(**self.private_picker(table, reached, page))
            return
        await self.perform(interaction, table, reached, version=version, on_turn_message=scope == comp.PUBLIC)

    def private_picker(self, table: Table, step: Step, page: int = 0) -> dict[str, Any]:
        """The ephemeral picker shown to one player (out-of-turn or private choices)."""
        assert table.game is not None
        prompt = table.game.prompt()
        chosen = f"\nChoosing: **{' '.join(step.tokens)} …**" if step.tokens else ""
        text = format_text(prompt.text, names_for(table)) if prompt else ""
        return {
            "content": f"Only you see this. {text}{chosen}",
            "view": comp.private_view(table.record, step, page),
        }

    async def open_private_picker(
        self, interaction: discord.Interaction, table_id: int, version: int, *, out_of_turn: bool
    ) -> None:
        """Open an ephemeral picker with the clicking player's own legal actions."""
        table = await self.host.current(interaction.channel_id or 0)
        if table is None or table.record.id != table_id or table.game is None:
            await self.show_out_of_date(interaction, "That table is closed.")
            return
        if table.record.version != version:
            await self.show_out_of_date(interaction, "That board is out of date.")
            return
        user = str(interaction.user.id)
        prompt = table.game.prompt()
        if prompt is None or user not in (prompt.others if out_of_turn else (prompt.player,)):
            if prompt is not None and user == prompt.player:
                await reply(interaction, "That button is for the other players; your choices are above.")
            else:
                await reply(interaction, "It is not your decision right now.")
            return
        step = self._root(table.game, user)
        if step is None:
            await reply(interaction, "You have nothing to decide right now.")
            return
        picker = self.private_picker(table, step)
        await reply(interaction, picker["content"], view=picker["view"])

    async def perform(
        self,
        interaction: discord.Interaction,
        table: Table,
        action: Action | str,
        *,
        version: int | None,
        on_turn_message: bool = False,
    ) -> None:
        """Apply an action chosen by the interaction's user and present the outcome.

        The interaction is acknowledged first (drawing a board may take a moment): a click
        with a deferred update, a command with a private "thinking" reply.
        """
        component = interaction.type is discord.InteractionType.component
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            outcome = await self.host.act(
                table.record.channel_id,
                str(interaction.user.id),
                action,
                table_id=table.record.id,
                version=version,
            )
        except OutOfDate as exc:
            await self.show_out_of_date(interaction, str(exc))
            return
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        if not on_turn_message:
            notation = action if isinstance(action, str) else table.game.notation(action)  # type: ignore[union-attr]
            done = f"Done: `{notation}`"
            if component:  # the private picker the choice was made in
                await interaction.edit_original_response(content=done, view=None)
            else:
                await interaction.followup.send(done, ephemeral=True)
        await self.show_outcome(outcome, interaction, on_turn_message=on_turn_message)

    # -- table message on demand -------------------------------------------------------------

    async def repost(self, interaction: discord.Interaction, table: Table) -> None:
        """Post the table again (lobby or turn message) and retire the previous message."""
        await interaction.response.defer(thinking=True)  # a board may be drawn
        if table.record.status == LOBBY:
            await self.strip_components(table)
            message = await send_public(interaction, **self.lobby_payload(table))
            await self.host.set_message(table, message.id)
        else:
            await self.post_turn_message(table, interaction, mention=False)

    # -- lobby and abandon handlers ------------------------------------------------------------

    async def lobby_click(self, interaction: discord.Interaction, action: str, table_id: int) -> None:
        """Join / Leave / Start pressed on a lobby message."""
        user = str(interaction.user.id)
        channel_id = interaction.channel_id or 0
        try:
            if action == "start":
                outcome = await self.host.start(channel_id, user, table_id)
            elif action == "join":
                table = await self.host.join(channel_id, user, table_id)
            else:
                table = await self.host.leave(channel_id, user, table_id)
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        if action == "start":
            await self.announce_start(interaction, outcome, from_lobby_message=True)
            return
        if table.record.is_open:
            await interaction.response.edit_message(**self.lobby_payload(table))
        else:
            await interaction.response.edit_message(
                content=f"**{table.record.game}** table #{table.record.id} closed: everyone left.", view=None
            )

    async def announce_start(
        self, interaction: discord.Interaction, outcome: Outcome, *, from_lobby_message: bool
    ) -> None:
        """Retire the lobby message and post the first turn message."""
        table = outcome.table
        started = (
            f"**{table.record.game}** table #{table.record.id} has started with "
            + ", ".join(f"<@{p}>" for p in table.record.seats)
            + "."
        )
        if from_lobby_message:
            await interaction.response.edit_message(content=started, view=None)
        else:
            await interaction.response.defer(thinking=True)  # the board is drawn next
            await self.edit_table_message(table, content=started, view=None)
        await self.post_turn_message(table, interaction, strip_previous=False)
        await self.deliver_private(outcome, interaction)

    async def abandon_answer(self, interaction: discord.Interaction, confirmed: bool, table_id: int) -> None:
        """The host's answer to the abandon confirmation."""
        if not confirmed:
            await interaction.response.edit_message(content="The game goes on.", view=None)
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
            await interaction.response.edit_message(content=str(exc), view=None)
            return
        await interaction.response.edit_message(content="Abandoned.", view=None)
        await self.strip_components(table)
        await send_public(
            interaction,
            content=f"<@{interaction.user.id}> abandoned the **{table.record.game}** table "
            f"#{table.record.id}. A new table can be opened here with /game new.",
        )
