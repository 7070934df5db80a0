"""The bot's scheduler: tends every table whose deadline has come (reminders, clocks that ran out,
prompt timeouts, bots' moves) and presents what happened, like a player's action."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.store import PLAYING
from bot.tables import Outcome, Table
from bot.tending import Notice
from cogs.replies import pinging
from cogs.turns import jump_link, timestamp

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)


def merge(outcomes: list[Outcome]) -> list[Outcome]:
    """Consecutive outcomes of one turn as one (the board is shown once per turn)."""
    merged: list[Outcome] = []
    for outcome in outcomes:
        last = merged[-1] if merged else None
        if last is not None and not last.turn_changed and not outcome.note:
            merged[-1] = Outcome(
                outcome.table,
                [*last.events, *outcome.events],
                turn_changed=outcome.turn_changed,
                decider_changed=last.decider_changed or outcome.decider_changed,
                note=last.note,
                turn_before=last.turn_before,
            )
        else:
            merged.append(outcome)
    return merged


class Scheduler:
    """Runs the tender for due tables, one tending per table at a time."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._busy: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def run_due(self) -> None:
        """Tend every table whose deadline has come (called by the scheduler loop)."""
        for record in await self.bot.host.due():
            await self.tend(record.channel_id, record.id)

    def kick(self, table: Table) -> None:
        """Tend ``table`` now if something is due there (a bot's move right after a person's)."""
        record = table.record
        if record.status != PLAYING or record.deadline is None or record.deadline > self.bot.host.now():
            return
        task = asyncio.create_task(self._tend_tracked(record.channel_id, record.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tend_tracked(self, channel_id: int, table_id: int) -> None:
        async with self.bot.working():
            await self.tend(channel_id, table_id)

    async def tend(self, channel_id: int, table_id: int) -> None:
        """Tend one table and present the results."""
        if channel_id in self._busy:
            return
        self._busy.add(channel_id)
        try:
            results = await self.bot.tender.tend(channel_id, table_id)
            await self.present(results)
        except discord.HTTPException as exc:
            log.warning("table #%s: could not show what happened: %s", table_id, exc)
        finally:
            self._busy.discard(channel_id)

    async def present(self, results: list[Outcome | Notice]) -> None:
        """Show outcomes like players' actions, and send reminders."""
        pending: list[Outcome] = []
        for item in results:
            if isinstance(item, Outcome):
                pending.append(item)
                continue
            await self.show(pending)
            pending = []
            await self.notify(item)
        await self.show(pending)

    async def show(self, outcomes: list[Outcome]) -> None:
        """Show outcomes turn by turn; only the latest new turn message mentions who is awaited."""
        merged = merge(outcomes)
        for index, outcome in enumerate(merged):
            # Saved before the previous outcome posted its turn message: retire that one.
            record = outcome.table.record
            current = await self.bot.host.latest(record.channel_id)  # finished: no longer current
            if current is not None and current.record.id == record.id:
                outcome.table.record = record.evolve(message_id=current.record.message_id)
            await self.bot.ui.turns.show_outcome(outcome, mention=index == len(merged) - 1)

    async def notify(self, notice: Notice) -> None:
        """A reminder in the channel (and by DM), or the news that a clock ran out."""
        table = notice.table
        name = f"<@{notice.holder}>"
        game = f"**{table.record.game}** table #{table.record.id}"
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        if notice.kind == "out":
            text = (
                f"⏰ {name}'s time for this decision at the {game} ran out. The table waits: any player "
                "can hand the seat to someone else, or to an AI, with /game replace."
            )
            await channel.send(text, allowed_mentions=pinging([notice.holder]))
            return
        when = f" Time runs out {timestamp(notice.deadline)}." if notice.deadline is not None else ""
        text = f"⏰ {name}, the {game} is waiting for your decision.{when}"
        await channel.send(text, allowed_mentions=pinging([notice.holder]))
        dm = f"⏰ It's your decision at the {game}.{when} {jump_link(table)}"
        if not await self.bot.ui.private.send_dm(notice.holder, dm):
            log.info("table #%s: reminder not sent by DM", table.record.id)
