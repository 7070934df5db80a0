"""What a table needs when nobody is clicking: reminders, clocks that run out, prompt timeouts,
and the moves of bot seats. The bot's scheduler calls :meth:`Tender.tend` for every table whose
deadline has come (and right after each presented action), and presents what it returns."""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot import absence, clocks, effect_outbox, seats
from bot.ai import LEVELS, TurnLedger
from bot.engine.core import SYSTEM, TIMEOUT, Action
from bot.store import PLAYING
from bot.table_meta import Clock, Effect
from bot.tables import ONLY_CHOICE, Outcome, OutOfDate, Table, TableError, TableHost, only_choice
from bot.thinking import Thinker

log = logging.getLogger(__name__)

MAX_AUTOMATIC_STEPS = 400
"""Bot decisions made in one go before other tables get their turn (a whole bot-only game can
take a few hundred)."""

PASS = {"type": "pass"}
THINKING_NOTICE_SECONDS = 1.5
"""When the people at a table have waited this long for its bots (since the move they answer,
or since the message last showed a bot's turn), the turn message says who is thinking: counted
from the move's save, so that the line is there within 2 s of the click that made it."""
AWAY = "away"
"""The notice that a person missed ``away_after`` decisions in a row: the AI plays on for them."""
UNSHOWN = "unshown"
"""The notice to a table's host that its turn message could not be posted, so its clocks wait."""


@dataclass
class Notice:
    """Something to tell a table that is not an action: a reminder, or a clock that ran out.
    It is a due effect (see ``bot.effect_outbox``): once told, the presenter marks ``key`` done."""

    table: Table
    kind: str
    """``half`` or ``late`` (reminders), ``out`` (the clock ran out and the table waits),
    ``away`` (the AI plays on for someone who missed their turns), ``unshown`` (to the host:
    the turn message could not be posted, the clocks wait for it) or ``everyone_away`` (every
    person at the table is away: it waits until someone is back)."""
    seat: str
    holder: str
    deadline: datetime | None
    key: str = ""


Progress = Callable[[list["Outcome | Notice"]], Awaitable[None]]
"""Told what a tending has done so far each time a bot's turn ends (the caller shows it)."""


class _Run:
    """One tending of one table: what it has done and not yet handed on, where it hands it on,
    and how long the people have waited for the bots since the table's message last changed
    (``loop.time()``), and whether the message says so."""

    __slots__ = ("progress", "results", "since", "told")

    def __init__(self, progress: Progress | None) -> None:
        self.results: list[Outcome | Notice] = []
        self.progress = progress
        self.since = asyncio.get_running_loop().time()
        self.told = False

    def waiting_since(self, table: Table, now: datetime) -> None:
        """Count the wait from ``table``'s last change (the move the bots answer) if that was
        less than :data:`THINKING_NOTICE_SECONDS` ago: the people have waited since then."""
        waited = (now - table.record.updated_at).total_seconds()
        if 0 < waited < THINKING_NOTICE_SECONDS:
            self.since -= waited

    async def played(self, outcome: Outcome) -> None:
        """Add a move the host played; when it ended a turn, hand everything so far to
        ``progress`` (shown while the next bot thinks), and the wait starts again."""
        self.results.append(outcome)
        if self.progress is None or not outcome.turn_changed or outcome.table.record.status != PLAYING:
            return
        shown, self.results = self.results, []
        await self.progress(shown)
        self.since = asyncio.get_running_loop().time()
        self.told = False


class TendingFailed(Exception):
    """Tending a table stopped at an unexpected error; ``results`` is what was done before it
    (already saved, still to be shown), ``__cause__`` the error."""

    def __init__(self, results: list[Outcome | Notice]) -> None:
        super().__init__("tending failed")
        self.results = results


class Tender:
    """Looks after tables between players' actions (see the module docstring)."""

    def __init__(self, host: TableHost, thinker: Thinker) -> None:
        self.host = host
        self.thinker = thinker
        self.ledger = TurnLedger()
        """What each bot seat has spent of its turn budget in its current turn."""
        self.on_thinking: Callable[[Table, str], Awaitable[None]] | None = None
        """Told when people have waited long for the bots (the turn message says who thinks)."""

    async def tend(
        self, channel_id: int, table_id: int, progress: Progress | None = None
    ) -> list[Outcome | Notice]:
        """Handle everything that is due at this table now, in order: clock moments and their
        effects, a prompt timeout, an idle seat's take-over, bots and single choices. Returns
        what was done; with ``progress``, each time a bot's turn ends what was done until then
        is handed to it instead (to be shown while the next bot thinks), and only the rest is
        returned. Raises :class:`TendingFailed` (with what was done and not handed on) if
        anything fails on the way."""
        if self.host.closing:
            return []
        run = _Run(progress)
        try:
            table, timeout_version = await self._mark_due_moments(channel_id, table_id)
            if table is None:
                return []
            run.waiting_since(table, self.host.now())
            for effect in effect_outbox.due(table.record.meta, self.host.now()):
                if effect.kind in (*effect_outbox.NOTICES, AWAY, UNSHOWN, absence.EVERYONE_AWAY):
                    run.results.append(self._notice(table, effect))
            if timeout_version is not None:
                try:
                    timed_out = await self.host.play_for(
                        channel_id, table_id, timeout_version, SYSTEM, dict(TIMEOUT)
                    )
                except (OutOfDate, TableError) as exc:
                    log.info("table #%s: timeout not applied: %s", table_id, exc)
                else:
                    await run.played(timed_out)
            for effect in effect_outbox.pending(table.record.meta):
                if effect.kind == effect_outbox.TAKEOVER:
                    await self._take_over(channel_id, table_id, effect, run)
            await self._play_automatic(channel_id, table_id, run)
        except Exception as exc:
            raise TendingFailed(run.results) from exc
        results = run.results
        if any(isinstance(r, Outcome) and r.table.record.status != PLAYING for r in results):
            # The game ended as the host played on: its notices are moot. A finished table keeps
            # no due effects, so a process stopped before sending them would not send them either.
            self.ledger.forget(table_id)
            return [r for r in results if not isinstance(r, Notice)]
        return results

    async def _mark_due_moments(self, channel_id: int, table_id: int) -> tuple[Table | None, int | None]:
        """Mark the clock moments that have come, each with its effect, in one save. Returns the
        table as saved (its due effects in its meta) and the version to time a hold out at.

        When the table in memory has no moment due, it is returned as it is, without taking the
        lock (a bot's move right after a person's): what is played next is checked under the
        lock anyway, and a table the scheduler finds due was compared with the store first."""
        cached = await self.host.load(channel_id, check=False)
        if cached is not None and self._nothing_due(cached, table_id):
            return cached, None
        async with self.host.lock(channel_id):
            table = await self.host.load(channel_id)
            if table is None or table.record.id != table_id or table.record.status != PLAYING:
                return None, None
            record = table.record
            settings = seats.settings(record)
            hours = int(settings["clock"])
            meta = record.meta
            timeout_version = None
            now = self.host.now()
            kinds = clocks.due(meta, hours, now)
            if clocks.RECHECK in kinds:  # a clock waits for the message: is it posted by now?
                kinds = [k for k in kinds if k != clocks.RECHECK]
                meta = clocks.told(meta, await self._shown_version(record), now) or clocks.checked(meta, now)
            unseen = await self._unseen(record, kinds)
            if unseen:  # nobody was told: these wait until the table's message is posted
                meta = clocks.wait_for_message(meta, unseen, now)
                timer = clocks.timer_of(meta, clocks.HOLD if clocks.HOLD in unseen else clocks.OUT)
                assert timer is not None
                seat = timer.seat if isinstance(timer, Clock) else ""
                meta = effect_outbox.add(
                    meta, effect_outbox.make(UNSHOWN, seat, timer.since, holder=record.host_id)
                )
                kinds = [k for k in kinds if k not in unseen]
                log.warning(
                    "table #%s: its turn message is not posted (version %s, shown %s): its clocks wait",
                    record.id,
                    record.version,
                    record.shown_version,
                )
            for kind in kinds:
                if kind == clocks.HOLD:
                    timeout_version = record.version
                    continue
                clock = meta.clock
                assert clock is not None
                seat, since = clock.seat, clock.since
                holder = seats.holder_of(record, seat)
                meta = clocks.mark(meta, kind)
                if seats.is_bot(holder) or meta.is_away(seat):
                    continue
                if kind != clocks.OUT and clocks.OUT in kinds:
                    continue  # a reminder that comes together with the end of the clock is moot
                if kind == clocks.OUT and settings["idle"] == "bot":
                    effect = effect_outbox.make(
                        effect_outbox.TAKEOVER, seat, since, level=str(settings["level"])
                    )
                    # and the AI answers the seat's waits until they are back
                    meta = replace(meta, stand_in=tuple(sorted({*meta.stand_in, seat})))
                    meta, count = absence.missed(meta, seat)
                    if 0 < int(settings["away_after"]) <= count:  # away now: the AI plays on, quietly
                        meta = absence.mark(meta, seat, absence.MISSED)
                        meta = effect_outbox.add(meta, effect_outbox.make(AWAY, seat, since, holder=holder))
                else:
                    if kind == clocks.OUT:
                        meta = replace(meta, timed_out=tuple(sorted({*meta.timed_out, seat})))
                    effect = effect_outbox.make(kind, seat, since, holder=holder)
                meta = effect_outbox.add(meta, effect)
            returning = absence.next_return(meta)
            if meta is not record.meta or (returning is not None and returning <= self.host.now()):
                table = await self.host.mark(table, meta)  # rescheduled: whoever's day came is back
            return table, timeout_version

    async def _unseen(self, record: Any, kinds: list[str]) -> list[str]:
        """The due moments (of ``kinds``) whose clock or hold started at a version the table's
        message has never shown: the people concerned were not told. The message's version is read
        from the store before it counts (another process may have posted it)."""
        if not any(clocks.unseen(record.meta, kind, record.shown_version) for kind in kinds):
            return []
        shown = await self._shown_version(record)
        return [kind for kind in kinds if clocks.unseen(record.meta, kind, shown)]

    async def _shown_version(self, record: Any) -> int:
        """The version the table's message shows, as stored (another process may have posted it)."""
        stored = await self.host.store.get_table(record.id)
        return max(record.shown_version, stored.shown_version if stored is not None else 0)

    def _nothing_due(self, table: Table, table_id: int) -> bool:
        """True when ``table`` is the running table ``table_id`` and no clock moment has come and
        nobody's away-time has ended (nothing for :meth:`_mark_due_moments` to mark)."""
        record = table.record
        if record.id != table_id or record.status != PLAYING:
            return False
        now = self.host.now()
        if clocks.due(record.meta, int(seats.settings(record)["clock"]), now):
            return False
        returning = absence.next_return(record.meta)
        return returning is None or returning > now

    def _notice(self, table: Table, effect: Effect) -> Notice:
        hours = int(seats.settings(table.record)["clock"])
        end = effect.since + timedelta(hours=hours) if hours > 0 else None
        return Notice(table, effect.kind, effect.seat, effect.holder, end, effect.key)

    async def _choose(self, run: _Run, table: Table, seat: str, level: str) -> Action | None:
        """The AI's choice for ``seat``, within what is left of its turn budget (a single legal
        action costs nothing: it is taken here); if it thinks longer than
        :data:`THINKING_NOTICE_SECONDS`, ``on_thinking`` is told (the turn message says so)
        while it goes on."""
        game = table.game
        assert game is not None
        prompt = game.prompt()
        legal = game.legal_actions(seat)
        if prompt is not None and prompt.player == seat and len(legal) == 1:
            return legal[0]
        record = table.record
        turn = game.turn_marker()[0]
        budget = LEVELS[level].turn_budget_s if level in LEVELS else None
        left = None if budget is None else self.ledger.left(record.id, seat, turn, budget)
        asked = time.perf_counter()
        try:
            return await self._think(run, table, seat, level, left)
        finally:
            self.ledger.spend(record.id, seat, turn, time.perf_counter() - asked)

    async def _think(
        self, run: _Run, table: Table, seat: str, level: str, turn_left_s: float | None
    ) -> Action | None:
        """The thinker's choice; once the people have waited :data:`THINKING_NOTICE_SECONDS` for
        the bots since the table's message last changed (over however many decisions), the
        message says who is thinking."""
        assert table.game is not None
        seed = self._seed(table, seat)
        choosing = asyncio.ensure_future(
            self.thinker.choose(table.game, seat, level, seed, table=table.record.id, turn_left_s=turn_left_s)
        )
        if run.told or self.on_thinking is None:
            return await choosing
        waited = asyncio.get_running_loop().time() - run.since
        done, _ = await asyncio.wait({choosing}, timeout=max(0.0, THINKING_NOTICE_SECONDS - waited))
        if not done:
            run.told = True
            try:
                await self.on_thinking(table, seat)
            except Exception as exc:  # only news: the decision goes on whatever happens to it
                log.info("table #%s: could not say that a bot is thinking: %s", table.record.id, exc)
        return await choosing

    def _seed(self, table: Table, seat: str) -> int:
        return zlib.crc32(f"{table.record.seed}:{table.record.version}:{seat}".encode())

    async def _take_over(self, channel_id: int, table_id: int, effect: Effect, run: _Run) -> None:
        """An AI plays the rest of the turn of a seat whose clock ran out (idle=bot), one
        versioned action at a time, while the take-over is due (it lapses with the move that
        ends the seat's turn, see ``bot.effect_outbox``); what it plays goes into ``run``."""
        seat, level = effect.seat, effect.level
        first = True
        for _ in range(MAX_AUTOMATIC_STEPS):
            if self.host.closing:
                break
            table = await self.host.load(channel_id, check=False)  # play_for checks it under the lock
            if table is None or table.record.id != table_id or table.game is None:
                break
            prompt = table.game.prompt()
            due = effect_outbox.takeover_of(table.record.meta, seat) is not None
            if not due or prompt is None or prompt.player != seat:
                break
            action = await self._choose(run, table, seat, level)
            if action is None:  # the AI declines the seat's decision: the take-over is over
                await self.host.complete_effects(channel_id, table_id, {effect.key})
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
                    note=note if first else "",
                )
            except OutOfDate:
                continue
            except TableError as exc:
                log.warning("table #%s: the AI's move for an idle seat was refused: %s", table_id, exc)
                break
            await run.played(outcome)
            first = False

    async def _play_automatic(self, channel_id: int, table_id: int, run: _Run) -> None:
        """Bots decide, a person's only choice is taken for them, and quiet players pass, until
        the table waits for a person; what they play goes into ``run``."""
        for _ in range(MAX_AUTOMATIC_STEPS):
            if self.host.closing:
                break
            table = await self.host.load(channel_id, check=False)  # play_for checks it under the lock
            if table is None or table.record.id != table_id or table.game is None:
                break
            record, game = table.record, table.game
            if record.status != PLAYING:
                break
            auto = self.host.automatic_deciders(record, game, record.version)
            if not auto:
                break
            seat = auto[0]
            control = seats.control(record, seat)
            prompt = game.prompt()  # not None: someone is due to decide
            by: str | None = None
            if control.by_bot:
                action = await self._choose(run, table, seat, seats.level_of(control.holder))
            elif prompt is not None and seat != prompt.player and control.answers_waits:
                # The AI standing in lets the chance go: an interrupt would leave its follow-up
                # decisions waiting for the absent player.
                action = PASS if PASS in game.legal_actions(seat) else None
                by = seats.bot_holder(seats.settings(record)["level"])
            elif control.plays_turns:  # its person is away
                level = seats.settings(record)["level"]
                action = await self._choose(run, table, seat, level)
                by = seats.bot_holder(level)
            elif (single := only_choice(game, seat)) is not None:
                action, by = single, ONLY_CHOICE  # said on the turn message
            else:
                action = PASS if PASS in game.legal_actions(seat) else None
            if action is None:  # an optional chance the bot lets go: do not ask again at this version
                async with self.host.lock(channel_id):
                    current = await self.host.load(channel_id)
                    if current is not None and current.record.version == record.version:
                        await self.host.mark(current, replace(current.record.meta, bots_asked=record.version))
                continue
            try:
                outcome = await self.host.play_for(channel_id, table_id, record.version, seat, action, by=by)
            except OutOfDate:
                continue
            except TableError as exc:
                log.warning("table #%s: a bot's move was refused: %s", table_id, exc)
                break
            await run.played(outcome)
