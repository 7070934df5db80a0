"""What a table needs when nobody is clicking: reminders, clocks that run out, prompt timeouts,
and the moves of bot seats. The bot's scheduler calls :meth:`Tender.tend` for every table whose
deadline has come (and right after each presented action), and presents what it returns."""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass
from datetime import datetime

from bot import clocks, seats
from bot.engine.core import SYSTEM, TIMEOUT
from bot.store import PLAYING
from bot.tables import ONLY_CHOICE, Outcome, OutOfDate, Table, TableError, TableHost, only_choice
from bot.thinking import Thinker

log = logging.getLogger(__name__)

MAX_AUTOMATIC_STEPS = 400
"""Bot decisions made in one go before other tables get their turn (a whole bot-only game can
take a few hundred)."""

PASS = {"type": "pass"}


@dataclass
class Notice:
    """Something to tell a table that is not an action: a reminder, or a clock that ran out."""

    table: Table
    kind: str
    """``half`` or ``late`` (reminders) or ``out`` (the clock ran out and the table waits)."""
    seat: str
    holder: str
    deadline: datetime | None


class Tender:
    """Looks after tables between players' actions (see the module docstring)."""

    def __init__(self, host: TableHost, thinker: Thinker) -> None:
        self.host = host
        self.thinker = thinker

    async def tend(self, channel_id: int, table_id: int) -> list[Outcome | Notice]:
        """Handle everything that is due at this table now, in order."""
        if self.host.closing:
            return []
        results: list[Outcome | Notice] = []
        idle_seat, timeout_version = await self._clock_moments(channel_id, table_id, results)
        if timeout_version is not None:
            try:
                results.append(
                    await self.host.play_for(channel_id, table_id, timeout_version, SYSTEM, dict(TIMEOUT))
                )
            except (OutOfDate, TableError) as exc:
                log.info("table #%s: timeout not applied: %s", table_id, exc)
        if idle_seat is not None:
            results += await self._play_idle_turn(channel_id, table_id, idle_seat)
        results += await self._play_automatic(channel_id, table_id)
        return results

    async def _clock_moments(
        self, channel_id: int, table_id: int, results: list[Outcome | Notice]
    ) -> tuple[str | None, int | None]:
        """Mark the clock moments that have come; reminders and waits go into ``results``.
        Returns the seat an AI must now play for (idle=bot) and the version to time out at."""
        async with self.host.lock(channel_id):
            table = await self.host.load(channel_id)
            if table is None or table.record.id != table_id or table.record.status != PLAYING:
                return None, None
            record = table.record
            settings = seats.settings(record)
            hours = int(settings["clock"])
            meta = record.meta
            idle_seat = timeout_version = None
            for kind in clocks.due(meta, hours, self.host.now()):
                if kind == clocks.HOLD:
                    timeout_version = record.version
                    continue
                seat = meta["clock"]["seat"]
                holder = seats.holder_of(record, seat)
                meta = clocks.mark(meta, kind)
                if seats.is_bot(holder):
                    continue
                if kind == clocks.OUT:
                    if settings["idle"] == "bot":
                        idle_seat = seat  # and the AI answers the seat's waits until they are back
                        meta = {**meta, "stand_in": sorted({*meta.get("stand_in", []), seat})}
                        continue
                    meta = {**meta, "timed_out": sorted({*meta.get("timed_out", []), seat})}
                results.append(Notice(table, kind, seat, holder, clocks.clock_end(meta, hours)))
            if meta is not record.meta:
                table = await self.host.mark(table, meta)
                for item in results:
                    if isinstance(item, Notice):
                        item.table = table
            return idle_seat, timeout_version

    def _seed(self, table: Table, seat: str) -> int:
        return zlib.crc32(f"{table.record.seed}:{table.record.version}:{seat}".encode())

    async def _play_idle_turn(self, channel_id: int, table_id: int, seat: str) -> list[Outcome | Notice]:
        """An AI plays the rest of the turn of a seat whose clock ran out (idle=bot)."""
        results: list[Outcome | Notice] = []
        for _ in range(MAX_AUTOMATIC_STEPS):
            table = await self.host.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                break
            prompt = table.game.prompt()
            if prompt is None or prompt.player != seat:
                break
            level = seats.settings(table.record)["level"]
            action = await self.thinker.choose(table.game, seat, level, self._seed(table, seat))
            if action is None:
                break
            name = table.names()[seat]
            note = f"⏰ {name} ran out of time: an AI ({level}) plays this turn for them."
            try:
                outcome = await self.host.play_for(
                    channel_id,
                    table_id,
                    table.record.version,
                    seat,
                    action,
                    by=seats.bot_holder(level),
                    note=note if not results else "",
                )
            except OutOfDate:
                continue
            except TableError as exc:
                log.warning("table #%s: the AI's move for an idle seat was refused: %s", table_id, exc)
                break
            results.append(outcome)
        return results

    async def _play_automatic(self, channel_id: int, table_id: int) -> list[Outcome | Notice]:
        """Bots decide, a person's only choice is taken for them, and quiet players pass, until
        the table waits for a person."""
        results: list[Outcome | Notice] = []
        for _ in range(MAX_AUTOMATIC_STEPS):
            if self.host.closing:
                break
            table = await self.host.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                break
            record, game = table.record, table.game
            if record.status != PLAYING:
                break
            auto = self.host.automatic_deciders(record, game, record.meta, record.version)
            if not auto:
                break
            seat = auto[0]
            holder = seats.holder_of(record, seat)
            by: str | None = None
            if seats.is_bot(holder):
                action = await self.thinker.choose(
                    game, seat, seats.level_of(holder), self._seed(table, seat)
                )
            elif seat in record.meta.get("stand_in", ()) and seat != game.prompt().player:
                # The AI standing in lets the chance go: an interrupt would leave its follow-up
                # decisions waiting for the absent player.
                action = PASS if PASS in game.legal_actions(seat) else None
                by = seats.bot_holder(seats.settings(record)["level"])
            elif (single := only_choice(game, seat)) is not None:
                action, by = single, ONLY_CHOICE  # said on the turn message
            else:
                action = PASS if PASS in game.legal_actions(seat) else None
            if action is None:  # an optional chance the bot lets go: do not ask again at this version
                async with self.host.lock(channel_id):
                    current = await self.host.load(channel_id)
                    if current is not None and current.record.version == record.version:
                        await self.host.mark(current, {**current.record.meta, "bots_asked": record.version})
                continue
            try:
                results.append(
                    await self.host.play_for(channel_id, table_id, record.version, seat, action, by=by)
                )
            except OutOfDate:
                continue
            except TableError as exc:
                log.warning("table #%s: a bot's move was refused: %s", table_id, exc)
                break
        return results
