"""Playing through components and typed moves: picker steps, private pickers, applying actions."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.core import Action, format_text, shorten
from bot.tables import ChangedSince, OutOfDate, Table, TableError, Typed
from cogs import components as comp
from cogs import labels
from cogs.picker import StalePath, Step, choice_tree, split_choices
from cogs.replies import APPLIED, acknowledge, reply, update_message
from cogs.turns import root_step

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Refusal:
    """Why a picker click is refused: ``text`` for the user; ``stale``: show the current board."""

    text: str
    stale: bool = False


class PlayUI:
    """Turns clicks, selections and typed moves into table actions and shows the result."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

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
        """A click or selection in a picker: show the next step, or apply the chosen action.

        The choice is found on this process's copy of the table without asking the store: an
        action is applied through ``act``, which checks the copy against the store under the
        table's lock. Anything else (a next step, a refusal) is decided again on a checked copy
        when the store is shared with other processes, so it never rests on a stale copy."""
        turns = self.bot.ui.turns
        table = await turns.drawn_table(interaction, table_id, version, checked=False)
        if table is None:
            return
        seat = table.seat_of(str(interaction.user.id))
        reached = self._reach(table, seat, scope, path)
        applies = isinstance(reached, dict)  # an action (act() checks the table under its lock)
        if not applies and self.host.store.shared:
            table = await turns.drawn_table(interaction, table_id, version)
            if table is None:
                return
            seat = table.seat_of(str(interaction.user.id))
            reached = self._reach(table, seat, scope, path)
        if isinstance(reached, Refusal):
            if reached.stale:
                await turns.show_out_of_date(interaction, reached.text)
            else:
                await reply(interaction, reached.text)
            return
        if isinstance(reached, Step):
            assert seat is not None
            if scope == comp.PUBLIC:
                payload = await turns.payload(table, step=reached, page=page, with_board=False)
                await update_message(interaction, **payload)
            else:
                await update_message(interaction, **self.private_picker(table, seat, reached, page))
            return
        await self.perform(interaction, table, reached, version=version, on_turn_message=scope == comp.PUBLIC)

    @staticmethod
    def _reach(table: Table, seat: str | None, scope: str, path: tuple[int, ...]) -> Step | Action | Refusal:
        """Where a click on the picker of ``scope`` at ``path`` leads for ``seat``: the next step,
        the chosen action, or why it is refused."""
        game = table.game
        assert game is not None
        prompt = game.prompt()
        if prompt is None:
            return Refusal("The game is over.")
        if scope == comp.PUBLIC and (seat is None or seat != prompt.player):
            names = table.names()
            hint = f" Waiting for {names.get(prompt.player, prompt.player)}." if prompt.player else ""
            if seat in prompt.others:
                hint += f" Use the **{prompt.others_label or 'out-of-turn'}** button."
            return Refusal(f"It is not your decision.{hint}")
        if scope == comp.PRIVATE and (seat is None or seat not in prompt.deciders()):
            return Refusal("It is not your decision right now.")
        assert seat is not None
        tree = choice_tree(game, seat, private=scope == comp.PRIVATE)
        try:
            if tree is None:
                raise StalePath()
            return tree.walk(path)
        except StalePath:
            return Refusal("That choice is no longer available.", stale=True)

    def private_picker(self, table: Table, seat: str, step: Step, page: int = 0) -> dict[str, Any]:
        """The ephemeral picker shown to one player, ``seat`` (out-of-turn or private choices)."""
        assert table.game is not None
        prompt = table.live.prompt()
        text = format_text(prompt.text, table.names()) if prompt else ""
        words = labels.words_for(table.game, seat, labels.colour_names(table.public_view()))
        chosen = f"\n{labels.choosing(words, step.tokens)}" if step.tokens else ""
        return {
            "content": f"Only you see this. {text}{chosen}",
            "view": comp.private_view(table.record, step, page, words),
        }

    def _next_private_step(self, table: Table, user: str) -> Step | None:
        """The next private step of ``user`` when their next decision is private as a whole
        (e.g. the next part of a trade being built): a private picker goes on instead of closing,
        and a click on the turn message that leads there opens one."""
        game = table.game
        seat = table.seat_of(user)
        prompt = game.prompt() if game is not None and game.result() is None else None
        if game is None or prompt is None or seat is None or prompt.player != seat or not prompt.private:
            return None
        if split_choices(prompt, seat):
            return None  # the public choices are on the turn message
        return root_step(game, seat, private=True)

    async def open_private_picker(
        self, interaction: discord.Interaction, table_id: int, version: int, *, out_of_turn: bool
    ) -> None:
        """Open an ephemeral picker with the clicking player's own legal actions."""
        turns = self.bot.ui.turns
        table = await turns.drawn_table(interaction, table_id, version)
        if table is None:
            return
        seat = table.seat_of(str(interaction.user.id))
        prompt = table.live.prompt()
        if seat is None or prompt is None or seat not in (prompt.others if out_of_turn else (prompt.player,)):
            if prompt is not None and seat is not None and seat == prompt.player:
                await reply(interaction, "That button is for the other players; your choices are above.")
            else:
                await reply(interaction, "It is not your decision right now.")
            return
        step = root_step(table.live, seat, private=True)
        if step is None:
            if split_choices(prompt, seat):
                label = prompt.secret_label or "Show my choices"
                await reply(interaction, f"Nothing under **{label}** can be chosen right now.")
            else:
                await reply(interaction, "You have nothing to decide right now.")
            return
        picker = self.private_picker(table, seat, step)
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
        with a deferred update, a command with a private "thinking" reply. A typed move counts
        against the table as it was when it was typed (the interaction's creation time).
        """
        component = interaction.type is discord.InteractionType.component
        if component:
            await acknowledge(interaction)
        else:
            await acknowledge(interaction, ephemeral=True, thinking=True)
        try:
            outcome = await self.host.act(
                table.record.channel_id,
                str(interaction.user.id),
                action,
                table_id=table.record.id,
                version=version,
                typed=None if component else Typed(interaction.id, table.record.version),
                interaction_id=interaction.id,
            )
        except ChangedSince as exc:
            current = await self.host.current(table.record.channel_id)
            if current is None or current.game is None:
                await reply(interaction, f"{exc} There is no game running here now.")
            else:
                await self.bot.ui.turns.show_privately(interaction, current, f"{exc}\n")
            return
        except OutOfDate as exc:
            await self.bot.ui.turns.show_out_of_date(interaction, str(exc))
            return
        except TableError as exc:
            await reply(interaction, str(exc))
            return
        interaction.extras[APPLIED] = True
        following_seat = outcome.table.seat_of(str(interaction.user.id)) or ""
        if not on_turn_message:
            notation = action if isinstance(action, str) else table.game.notation(action)  # type: ignore[union-attr]
            done = f"Done: `{shorten(' '.join(notation.split()))}`"
            if component:  # the private picker the choice was made in (it goes on if it may)
                following = self._next_private_step(outcome.table, str(interaction.user.id))
                if following is None:
                    await interaction.edit_original_response(content=done, view=None)
                else:
                    picker = self.private_picker(outcome.table, following_seat, following)
                    await interaction.edit_original_response(
                        content=f"{done}\n{picker['content']}", view=picker["view"]
                    )
            else:
                await interaction.followup.send(done, ephemeral=True)
        await self.bot.ui.turns.show_outcome(outcome, interaction, on_turn_message=on_turn_message)
        if on_turn_message and component:  # e.g. "trade Blue": the draft opens for them at once
            following = self._next_private_step(outcome.table, str(interaction.user.id))
            if following is not None:
                picker = self.private_picker(outcome.table, following_seat, following)
                await interaction.followup.send(picker["content"], view=picker["view"], ephemeral=True)
