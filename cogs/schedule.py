"""The bot's scheduler: tends every table whose deadline has come (reminders, clocks that ran out,
prompt timeouts, bots' moves) and presents what happened, like a player's action."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot import absence, quiet_hours
from bot.store import PLAYING, StoreError, TableRecord
from bot.tables import NOT_SAVED, STORE_DOWN, Outcome, Table, TableError, TableHost
from bot.tending import AWAY, UNSHOWN, Notice, TendingFailed
from cogs.replies import NO_MENTIONS, pinging
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
                decider_before=last.decider_before,
                decider=outcome.decider,
            )
        else:
            merged.append(outcome)
    return merged


TABLE_BACKOFF = (timedelta(minutes=1), timedelta(hours=1))
"""A table whose tending failed waits 1, 2, 4 … minutes (at most an hour) before the next try."""
STORE_BACKOFF = (timedelta(seconds=15), timedelta(minutes=5))
"""While the store cannot be reached, the whole loop waits 15 s, 30 s … (at most 5 minutes)."""
UNREACHABLE_RETRY = timedelta(hours=6)
"""How often a table whose channel the bot lost is tried again."""
REPAIR_GRACE = timedelta(minutes=1)
"""A table's message older than the table for this long is posted again (a post failed)."""
REMINDERS = ("half", "late")
TENDING_AT_ONCE = 8
"""Due tables tended at the same time by one process (each within its own error boundary; their
bots' decisions then share the AI workers in turn)."""
"""The notices that wait for the end of their person's quiet hours."""


@dataclass
class Backoff:
    """Consecutive failures of one thing, and until when it is not tried again."""

    failures: int = 0
    until: datetime | None = None

    def waiting(self, now: datetime) -> bool:
        """True while the next try must wait."""
        return self.until is not None and now < self.until

    def failed(self, now: datetime, bounds: tuple[timedelta, timedelta]) -> timedelta:
        """Count one more failure; returns how long to wait (doubling from ``bounds[0]`` up to
        ``bounds[1]``)."""
        first, most = bounds
        delay = min(first * 2 ** min(self.failures, 20), most)
        self.failures += 1
        self.until = now + delay
        return delay


def _is_store_outage(exc: BaseException) -> bool:
    """True for the errors of a store that cannot be read or written now."""
    if isinstance(exc, TableError):
        return str(exc) in (NOT_SAVED, STORE_DOWN)
    return isinstance(exc, StoreError)


class Scheduler:
    """Tends the tables whose deadline has come, side by side (at most :data:`TENDING_AT_ONCE`
    at a time), each inside its own error boundary: a table that fails is logged once and backs
    off, a lost channel is retried rarely (its host told once), an unreachable store backs off
    the whole loop; every other table goes on. What the bots play is shown bot turn by bot turn."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._busy: set[int] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._tables: dict[int, Backoff] = {}
        self._logged: set[int] = set()
        """Tables whose failure was logged with its traceback: later ones are summarised in a line
        until the table's message is up to date again (not only until its next success: a
        reminder sent between two failures to post a board is no recovery)."""
        self._store = Backoff()
        self._limit = asyncio.Semaphore(TENDING_AT_ONCE)

    @property
    def host(self) -> TableHost:
        """The bot's table host."""
        return self.bot.host

    async def run_due(self) -> None:
        """Tend every table whose deadline has come (side by side), and post again the messages
        of tables whose message is older than their state (called by the scheduler loop)."""
        now = self.host.now()
        if self._store.waiting(now):
            return
        try:
            due = await self.host.due()
            stale = await self.host.stale(REPAIR_GRACE)
        except Exception as exc:
            if not _is_store_outage(exc):
                raise
            delay = self._store.failed(now, STORE_BACKOFF)
            log.warning("the game store cannot be reached (%s); tending again in %s", exc, delay)
            return
        if self._store.failures:
            log.info("the game store answers again; tending goes on")
            self._store = Backoff()
        for record in due:  # as stored now: a copy in memory that is older is read again
            self.host.note_stored(record)
        await asyncio.gather(
            *(self._tend_limited(r.channel_id, r.id) for r in due if not self._waiting(r.id, now))
        )
        for record in stale:
            if not self._waiting(record.id, now) and record.channel_id not in self._busy:
                await self._guarded(record.channel_id, record.id, partial(self._repair, record))

    async def _tend_limited(self, channel_id: int, table_id: int) -> None:
        """Tend one table once fewer than :data:`TENDING_AT_ONCE` others are being tended."""
        async with self._limit:
            await self.tend(channel_id, table_id)

    def _waiting(self, table_id: int, now: datetime) -> bool:
        backoff = self._tables.get(table_id)
        return backoff is not None and backoff.waiting(now)

    def kick(self, table: Table) -> None:
        """Tend ``table`` now if something is due there (a bot's move right after a person's)."""
        record = table.record
        if record.status != PLAYING or record.deadline is None or record.deadline > self.host.now():
            return
        if self._waiting(record.id, self.host.now()):
            return
        task = asyncio.create_task(self._tend_tracked(record.channel_id, record.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tend_tracked(self, channel_id: int, table_id: int) -> None:
        async with self.bot.working():
            await self.tend(channel_id, table_id)

    async def tend(self, channel_id: int, table_id: int) -> None:
        """Tend one table and present the results, inside the table's error boundary."""
        await self._guarded(channel_id, table_id, partial(self._tend, channel_id, table_id))

    async def _tend(self, channel_id: int, table_id: int) -> None:
        table = await self.host.load(channel_id, check=False)
        if table is not None and table.record.meta.unreachable is not None:
            table = await self.host.load(channel_id)  # as stored: another process may have cleared it
        if table is not None and table.record.id == table_id and table.record.meta.unreachable is not None:
            await self.bot.ui.turns.repair(table)  # raises again while the channel is still lost
            log.info("table #%s: its channel can be reached again", table_id)
            await self.host.note(table, lambda meta: replace(meta, unreachable=None))
        try:
            results = await self.bot.tender.tend(channel_id, table_id, progress=self.present)
        except TendingFailed as failed:
            await self.present(failed.results)
            raise failed.__cause__ or failed from None
        await self.present(results)

    async def _repair(self, record: TableRecord) -> None:
        """Post again the message of a table that is newer than its message."""
        table = await self.host.load(record.channel_id)
        if table is None or table.record.id != record.id:
            table = self.host.table_of(record)  # finished: its final message was never posted
        if table.game is None or table.record.shown_version >= table.record.version:
            return
        log.info("table #%s: its message is older than the table; posting it again", record.id)
        await self.bot.ui.turns.repair(table)

    async def _guarded(self, channel_id: int, table_id: int, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work`` for one table (unless it is being tended already): whatever it raises
        stays with that table."""
        if channel_id in self._busy:
            return
        self._busy.add(channel_id)
        try:
            await work()
        except Exception as exc:
            try:
                await self._failed(channel_id, table_id, exc)
            except Exception:  # telling the host failed too: the backoff is set all the same
                log.exception("table #%s: could not handle its failure", table_id)
        else:
            self._tables.pop(table_id, None)
            if table_id in self._logged and await self._recovered(channel_id, table_id):
                self._logged.discard(table_id)
        finally:
            self._busy.discard(channel_id)

    async def _recovered(self, channel_id: int, table_id: int) -> bool:
        """True if the table's message shows the table as it is now (or it is no longer open)."""
        table = await self.host.current(channel_id, check=False)
        if table is None or table.record.id != table_id:
            return True
        return table.record.shown_version >= table.record.version

    async def _failed(self, channel_id: int, table_id: int, exc: Exception) -> None:
        """Log a failure of one table once, and back off (that table only; a channel the bot
        lost is tried again rarely). The next try reads the table from the store again."""
        self.host.forget(channel_id)
        now = self.host.now()
        backoff = self._tables.setdefault(table_id, Backoff())
        if isinstance(exc, (discord.Forbidden, discord.NotFound)):
            backoff.failures += 1
            backoff.until = now + UNREACHABLE_RETRY
            await self._unreachable(channel_id, table_id, exc)
            return
        delay = backoff.failed(now, TABLE_BACKOFF)
        if _is_store_outage(exc):  # the loop's own reads worked: a fault of this table's rows
            log.warning("table #%s: the game store failed (%s); trying again in %s", table_id, exc, delay)
        elif table_id not in self._logged:
            self._logged.add(table_id)
            log.error("table #%s: tending failed; trying again in %s", table_id, delay, exc_info=exc)
        else:
            log.warning(
                "table #%s: tending failed again (%s: %s); trying again in %s",
                table_id,
                type(exc).__name__,
                exc,
                delay,
            )

    async def _unreachable(self, channel_id: int, table_id: int, exc: discord.HTTPException) -> None:
        """The bot lost the table's channel (403/404): mark the table, tell its host once by DM."""
        table = await self.host.load(channel_id)
        if table is None or table.record.id != table_id:
            return
        if table.record.meta.unreachable is not None:
            log.info("table #%s: its channel still cannot be reached (%s)", table_id, exc.status)
            return
        log.warning(
            "table #%s: its channel cannot be reached (%s %s); trying again every %s",
            table_id,
            exc.status,
            exc.text,
            UNREACHABLE_RETRY,
        )
        since = self.host.now()
        await self.host.note(table, lambda meta: replace(meta, unreachable=since))
        text = (
            f"I can no longer post in <#{channel_id}>, where your **{table.record.game}** table "
            f"#{table.record.id} is played (the channel was deleted, or I lost a permission there). "
            "The table waits; I will try again every few hours. Give me back *View Channel* and "
            "*Send Messages* there, or end the table with /game abandon."
        )
        await self.bot.ui.private.send_dm(table.record.host_id, text)

    async def present(self, results: list[Outcome | Notice]) -> None:
        """Show outcomes like players' actions, and send reminders."""
        pending: list[Outcome] = []
        for item in results:
            if isinstance(item, Outcome):
                pending.append(item)
                continue
            await self.show(pending)
            pending = []
            record = item.table.record
            if item.kind in REMINDERS:
                prefs = await self.host.store.person(item.holder)
                end = quiet_hours.ends(prefs.get("quiet"), self.host.now())
                if end is not None:  # their quiet hours: the reminder waits until they end
                    await self.host.defer_effect(record.channel_id, record.id, item.key, end)
                    continue
            await self.notify(item)
            await self.host.complete_effects(record.channel_id, record.id, {item.key})
        await self.show(pending)

    async def show(self, outcomes: list[Outcome]) -> None:
        """Show outcomes turn by turn; the latest new turn message mentions who is awaited (the
        outcomes after it only edit it)."""
        merged = merge(outcomes)
        turns = self.bot.ui.turns
        opening = [i for i, outcome in enumerate(merged) if turns.opens_message(outcome)]
        last_new = opening[-1] if opening else -1
        for index, outcome in enumerate(merged):
            # Saved before the previous outcome posted its turn message: retire that one.
            record = outcome.table.record
            # this process's own table in memory (finished: no longer current)
            current = await self.bot.host.current(record.channel_id, check=False)
            if current is not None and current.record.id == record.id:
                outcome.table.record = record.evolve(message_id=current.record.message_id)
            await turns.show_outcome(outcome, mention=index == last_new)

    async def notify(self, notice: Notice) -> None:
        """A reminder in the channel (and by DM), or the news that a clock ran out."""
        table = notice.table
        name = f"<@{notice.holder}>"
        game = f"**{table.record.game}** table #{table.record.id}"
        channel = self.bot.get_partial_messageable(table.record.channel_id)
        if notice.kind == AWAY:
            alone = table.record.meta.everyone_away is not None  # nobody left: the table waits
            seat = "the table waits" if alone else "an AI plays their seat"
            text = (
                f"💤 {name} missed their turns at the {game}: {seat} until they are "
                "back (any move of theirs, or **I'm back** on the turn message)."
            )
            await channel.send(text, allowed_mentions=NO_MENTIONS)
            yours = "everyone is away, so the table waits" if alone else "an AI plays your seat"
            dm = (
                f"💤 You missed your last turns at the {self.bot.ui.private.where(table)}: {yours} "
                f"until you are back, and nobody pings you meanwhile. Make a move there or "
                f"press **I'm back** to play again. {jump_link(table)}"
            )
            await self.bot.ui.private.send_dm(notice.holder, dm)
            return
        if notice.kind == absence.EVERYONE_AWAY:
            text = (
                f"💤 Everyone at the {game} is away, so the table waits: no clock runs and no AI plays "
                "anyone's seat until someone is back (a move, **I'm back** on the turn message, or "
                "/game back). The host can end it with /game abandon."
            )
            await channel.send(text, allowed_mentions=NO_MENTIONS)
            return
        if notice.kind == UNSHOWN:
            text = (
                f"⚠️ I could not post the turn message of your {game} in <#{table.record.channel_id}>, "
                "so its players have not been told whose turn it is. Its clocks wait (no reminder, no "
                "time running out) until I can post it; I keep trying."
            )
            await self.bot.ui.private.send_dm(notice.holder, text)
            return
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
        dm = f"⏰ It's your decision at the {self.bot.ui.private.where(table)}.{when} {jump_link(table)}"
        if not await self.bot.ui.private.send_dm(notice.holder, dm):
            log.info("table #%s: reminder not sent by DM", table.record.id)
