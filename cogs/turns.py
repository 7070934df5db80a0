"""The turn message: what it says and shows, posting and editing it, and presenting outcomes."""

from __future__ import annotations

import io
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot import clocks, metrics, seats
from bot.engine.core import Game, Prompt, format_text, player_ref
from bot.store import FINISHED, LOBBY
from bot.tables import Outcome, Table
from cogs import components as comp
from cogs import labels
from cogs.boards import BOARDS, WORKERS, start_boards
from cogs.catchup import catch_up_lines, final_lines, turn_lines
from cogs.picker import Step, choice_tree, split_choices
from cogs.replies import NO_MENTIONS, acknowledge, pinging, reply, send_public, trim

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


@metrics.times_boards
async def board_file(view: dict[str, Any], previous: dict[str, Any] | None = None) -> discord.File | None:
    """The board picture of a public view, drawn off the event loop (cogs/boards.py); what
    changed since ``previous`` is marked."""
    png = await BOARDS.png(view, previous)
    return png_file(png) if png else None


def png_file(png: bytes) -> discord.File:
    """An attachment of board bytes (a file can be sent once: each message gets its own)."""
    return discord.File(io.BytesIO(png), filename="board.png")


async def warm_boards(ai_workers: int = 0) -> None:
    """Get ready to draw boards: in worker processes forked warm from the worker server (a bot
    whose AI runs in processes draws in processes too), or with ``AI_WORKERS=0`` on threads, with
    this process's caches warmed; either way the first board is quick."""
    await start_boards(WORKERS if ai_workers > 0 else 0)


def same_board(payload: dict[str, Any]) -> list[discord.File]:
    """Fresh attachments with the same board bytes as a :meth:`TurnMessages.payload`'s."""
    return [png_file(file.fp.getvalue()) for file in payload.get("attachments", [])]


def root_step(game: Game, player: str, *, private: bool = False) -> Step | None:
    """The first step of ``player``'s choice now on the public turn message (or in their private
    picker), or None if they have nothing to choose there."""
    tree = choice_tree(game, player, private=private)
    if not tree:
        return None
    step = tree.walk(())
    return step if isinstance(step, Step) else None


def timestamp(when: Any, style: str = "R") -> str:
    """A Discord timestamp (shown in each reader's own time zone)."""
    return f"<t:{int(when.timestamp())}:{style}>"


def jump_link(table: Table) -> str:
    """A link to the message that shows the table now (the channel if none)."""
    record = table.record
    guild = record.guild_id or "@me"
    if record.message_id is None:
        return f"https://discord.com/channels/{guild}/{record.channel_id}"
    return f"https://discord.com/channels/{guild}/{record.channel_id}/{record.message_id}"


EVERYONE_AWAY_LINE = (
    "💤 Everyone at this table is away, so it waits: no clock runs and no AI plays anyone's seat "
    "until someone is back (a move, or **I'm back**). The host can end it with /game abandon."
)
"""The turn message's line while every person at the table is away (see ``bot.absence``)."""


class TurnMessages:
    """Builds, posts and updates the message that shows a running table."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @property
    def host(self):
        """The bot's table host."""
        return self.bot.host

    # -- what the message says ----------------------------------------------------------------

    def _header(self, table: Table, view: dict[str, Any], turn_number: Any = None) -> str:
        record = table.record
        names = table.names()
        number = turn_number if turn_number is not None else view.get("turn")
        turn = f" · turn {number}" if number is not None else ""
        paused = " · ⏸ paused" if record.meta.paused is not None else ""
        players = " · ".join(
            f"{p.get('colour', '?')} {names.get(p['id'], p['id'])}"
            for p in view.get("players", [])
            if "id" in p
        )
        return f"**{record.game}** · table #{record.id}{turn}{paused}\n{players}"

    def _prompt_line(self, table: Table, prompt: Prompt) -> str:
        names = table.names()
        text = format_text(prompt.text, names)
        decider = prompt.player
        named = decider is None or player_ref(decider) in prompt.text
        line = f"▶ {text}" if decider is None or named else f"▶ {names.get(decider, decider)}: {text}"
        if prompt.private and prompt.player is not None and split_choices(prompt, prompt.player):
            line += f" (**{prompt.secret_label or 'Show my choices'}**: shown to you alone)"
        elif prompt.private:
            line += " (your choices are private: press **Show my choices**)"
        if prompt.others:
            who = ", ".join(names.get(p, p) for p in prompt.others)
            line += f"\n{prompt.others_label or 'Act out of turn'}: {who} may act now."
        return line

    def _only_choice_lines(self, table: Table) -> list[str]:
        """What the host played for players because it was their only choice (since the last
        decision someone made), in the words of the menus."""
        names = table.names()
        colours = labels.colour_names(table.public_view())
        return [
            f"⏩ Only one choice: {format_text(said, colours)} (played for {names.get(seat, seat)})."
            for seat, said in ((o.seat, o.said) for o in table.record.meta.only_choice)
        ]

    def _away_lines(self, table: Table) -> list[str]:
        """Who is away, and what happens to their seat meanwhile (when everyone is, one line: the
        table waits)."""
        names = table.names()
        if table.record.meta.everyone_away is not None:
            return [EVERYONE_AWAY_LINE]
        wait = seats.settings(table.record)["idle"] == "wait"
        does = "their clock stands still" if wait else "an AI plays for them"
        return [
            f"💤 {names.get(seat, seat)} is away: {does} (**I'm back** to play again)."
            for seat in table.record.meta.away
        ]

    def _deadline_line(self, table: Table, prompt: Prompt) -> str:
        record = table.record
        if record.meta.paused is not None:
            return "⏸ The table is paused: no clock runs."
        parts = []
        end = clocks.clock_end(record.meta, int(seats.settings(record)["clock"]))
        if (
            end is not None
            and prompt.player is not None
            and not seats.is_bot(table.holder_of(prompt.player))
            and not record.meta.is_away(prompt.player)  # their clock stands still
        ):
            parts.append(f"⏰ Time to decide runs out {timestamp(end)}.")
        if record.meta.hold is not None:
            moments = clocks.moments(record.meta, 0)
            if clocks.HOLD in moments:
                parts.append(f"⏳ The wait ends {timestamp(moments[clocks.HOLD])}.")
        return " ".join(parts)

    async def payload(
        self,
        table: Table,
        *,
        step: Step | None = None,
        page: int = 0,
        with_board: bool = True,
        retired: bool = False,
        turn_number: Any = None,
    ) -> dict[str, Any]:
        """Content, components and (optionally) the board image of the table's turn message.

        ``retired``: the message of a turn that has ended (what happened, no prompt, no buttons),
        numbered ``turn_number``; it draws no board (:meth:`show_outcome` gives it the new turn
        message's). On a live message the board marks what changed since the awaited player's
        last decision.
        """
        game = table.game
        assert game is not None
        view = table.public_view()
        parts = [self._header(table, view, turn_number if retired else None)]
        result = game.result()
        components: discord.ui.View | None = None
        prompt = game.prompt() if result is None else None
        if retired:
            parts += await turn_lines(self.host, table, turn_number)
        elif result is not None:
            parts += final_lines(table, result)
            components = comp.rematch_view(table.record.id)
        else:
            assert prompt is not None
            parts += await catch_up_lines(self.host, table, prompt.player)
            parts.append(self._prompt_line(table, prompt))
            deadline = self._deadline_line(table, prompt)
            if deadline:
                parts.append(deadline)
            parts += self._only_choice_lines(table)
            parts += self._away_lines(table)
            if step is None and prompt.player is not None:
                step = root_step(game, prompt.player)
            words: labels.Words = labels.raw_words
            if prompt.player is not None and (
                not prompt.private or split_choices(prompt, prompt.player)
            ):  # the public part of a split prompt is in words too
                words = labels.words_for(game, prompt.player, labels.colour_names(view))
            if step is not None and step.tokens:
                parts.append(labels.choosing(words, step.tokens))
            components = comp.turn_view(table.record, prompt, step, page, words)
        payload: dict[str, Any] = {"content": trim("\n".join(parts)), "view": components}
        if with_board and not retired:
            seat = prompt.player if prompt is not None else None
            previous = await self.host.previous_view(table, seat)
            board = await board_file(view, previous)
            payload["attachments"] = [board] if board else []
        return payload

    def _pings(self, table: Table) -> list[str]:
        """Whom a new turn message notifies: the awaited person, every player at the end, and
        the players a timed wait asks (once per turn)."""
        game = table.game
        assert game is not None
        if game.result() is not None:
            return seats.humans(table.record)
        prompt = game.prompt()
        if prompt is None:
            return []
        away = table.record.meta.away
        if prompt.player is not None:
            holder = table.holder_of(prompt.player)
            return [] if seats.is_bot(holder) or prompt.player in away else [holder]
        return [h for h in table.record.awaiting if seats.seat_of(table.record, h) not in away]

    # -- posting and editing ------------------------------------------------------------------

    async def post(
        self,
        table: Table,
        interaction: discord.Interaction | None = None,
        *,
        mention: bool = True,
        strip_previous: bool = True,
        payload: dict[str, Any] | None = None,
    ) -> None:
        """Post a fresh turn message (stripping the components of the previous one); ``payload``:
        the message's :meth:`payload`, if already built."""
        if strip_previous:
            await self.strip_components(table)
        if payload is None:
            payload = await self.payload(table)
        payload["files"] = payload.pop("attachments")
        if payload["view"] is None:
            payload.pop("view")
        pings = await self._pings_once(table) if mention else []
        payload["allowed_mentions"] = pinging(pings) if pings else NO_MENTIONS
        if interaction is not None:
            message = await send_public(interaction, **payload)
        else:
            channel = self.bot.get_partial_messageable(table.record.channel_id)
            message = await channel.send(**payload)
        await self.host.set_message(table, message.id)

    async def _pings_once(self, table: Table) -> list[str]:
        """The pings of a new turn message; a timed wait pings its players once per turn."""
        pings = self._pings(table)
        game = table.game
        prompt = game.prompt() if game is not None else None
        if game is None or prompt is None or prompt.player is not None or not pings:
            return pings
        turn = game.turn_marker()[0]
        if table.record.meta.wait_pinged == turn:
            return []
        pinged = turn if isinstance(turn, int) else None
        await self.bot.ui.seats.remember(table, lambda meta: replace(meta, wait_pinged=pinged))
        return pings

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

    async def update(self, table: Table) -> None:
        """Edit the table's current turn message to show the latest state."""
        payload = await self.payload(table)
        if not await self.edit_table_message(table, **payload):
            payload["attachments"] = same_board(payload)  # the sent files are spent
            await self.post(table, mention=False, strip_previous=False, payload=payload)

    async def show_outcome(
        self,
        outcome: Outcome,
        interaction: discord.Interaction | None = None,
        *,
        on_turn_message: bool = False,
        mention: bool = True,
    ) -> None:
        """Present what an action did, then deliver secrets by DM, then let the table go on
        (bots and clocks) if it is their moment.

        When the turn passes, or the decision passes to another player (e.g. a trade offer),
        the old turn message is retired and a new one mentions who decides now; otherwise the
        turn message is edited in place. One board is drawn either way: when the turn passed,
        the retired message shows the new message's board, the board as its turn ended
        (docs/boards.md, "One board per turn").

        ``on_turn_message``: the interaction is a (deferred) click on the table's turn message,
        so that message is updated through the interaction. ``mention``: a new turn message
        notifies who is awaited (not when later outcomes follow at once).
        """
        table = outcome.table
        if outcome.note:
            channel = self.bot.get_partial_messageable(table.record.channel_id)
            await channel.send(outcome.note, allowed_mentions=NO_MENTIONS)
        if self.opens_message(outcome):
            fresh = await self.payload(table)
            retired = await self.payload(table, retired=True, turn_number=outcome.turn_before)
            if outcome.turn_changed:
                retired["attachments"] = same_board(fresh)
            if on_turn_message and interaction is not None:
                await interaction.edit_original_response(**retired)
            else:
                await self.edit_table_message(table, **retired)
            await self.post(table, interaction, mention=mention, strip_previous=False, payload=fresh)
        elif on_turn_message and interaction is not None:
            await interaction.edit_original_response(**await self.payload(table))
        else:
            await self.update(table)
        await self.host.shown(table)
        await self.bot.ui.private.deliver(outcome, interaction)
        if table.record.status == FINISHED:
            self.bot.dispatch("table_finished", table.record)  # the archive rates it (cogs/archive.py)
        self.bot.scheduler.kick(table)

    async def show_thinking(self, table: Table, seat: str) -> None:
        """Say on the turn message that a bot is thinking (its next move replaces the line)."""
        payload = await self.payload(table, with_board=False)
        name = table.names().get(seat, seat)
        await self.edit_table_message(table, content=trim(f"{payload['content']}\n🤖 {name} is thinking…"))

    def opens_message(self, outcome: Outcome) -> bool:
        """Whether presenting ``outcome`` retires the turn message and posts a new one: when the
        turn passes or the decision passes to someone else — except from one bot to the next,
        whose turns share one message, edited as they play."""
        if not (outcome.turn_changed or outcome.decider_changed):
            return False
        if outcome.decider is None or outcome.decider_before is None:
            return True
        record = outcome.table.record
        return not all(
            seats.control(record, seat).plays_turns for seat in (outcome.decider_before, outcome.decider)
        )

    async def repair(self, table: Table) -> None:
        """Post the table's message again — the current turn (mentioning who is awaited) or the
        end of the game — when the one in the channel is older than the table (a post failed,
        or the bot stopped before it); the previous message loses its buttons."""
        await self.post(table)

    async def repost(self, interaction: discord.Interaction, table: Table) -> None:
        """Post the table again (lobby or turn message) and retire the previous message."""
        await acknowledge(interaction, thinking=True)  # a board may be drawn
        if table.record.status == LOBBY:
            await self.strip_components(table)
            message = await send_public(interaction, **self.bot.ui.lobby.payload(table))
            await self.host.set_message(table, message.id)
        else:
            await self.post(table, interaction, mention=False)

    async def show_privately(self, interaction: discord.Interaction, table: Table, intro: str = "") -> None:
        """The table's current message (board included), shown only to the user."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        payload = await self.payload(table)
        payload.pop("view", None)
        files = payload.pop("attachments", [])
        await reply(interaction, f"{intro}{payload['content']}", files=files)

    async def drawn_table(
        self, interaction: discord.Interaction, table_id: int, version: int, *, checked: bool = True
    ) -> Table | None:
        """The channel's running table if it is still at the version a component was drawn for;
        otherwise None, after refusing the component with the current board. ``checked=False``:
        this process's copy will do when it matches (the caller applies the choice through
        ``act``, which checks the copy against the store under the table's lock)."""
        channel_id = interaction.channel_id or 0
        table = await self.host.current(channel_id, check=checked)
        if not checked and (table is None or (table.record.id, table.record.version) != (table_id, version)):
            table = await self.host.current(channel_id)  # before refusing: is it only this copy that differs?
        if table is None or table.record.id != table_id:
            await self.show_out_of_date(interaction, "That table is closed.")
            return None
        if table.record.version != version or table.game is None:
            await self.show_out_of_date(interaction, "That board is out of date.")
            return None
        return table

    async def show_out_of_date(self, interaction: discord.Interaction, why: str) -> None:
        """Refuse a stale component, showing the current board privately."""
        table = await self.host.current(interaction.channel_id or 0)
        if table is None or table.game is None:
            await reply(interaction, f"{why} There is no game running here now.")
            return
        await self.show_privately(interaction, table, f"{why} This is the current board:\n")
