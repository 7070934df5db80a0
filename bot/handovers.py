"""Seats during a game: hand-overs, pause, "don't ask me", and people away and back."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from bot import absence, clocks, seats
from bot.engine.core import (
    Event,
)
from bot.locks import ChannelLocks
from bot.play import HOST, _recent
from bot.shutdown import Shutdown
from bot.store import PLAYING, AnyStore, StoreError
from bot.table import NOT_SAVED, Outcome, Table, TableError, turn_of
from bot.table_cache import TableCache
from bot.table_saving import TableSaver

log = logging.getLogger(__name__)


class HandOvers:
    """Who plays a seat and when: hand-overs, pause, "don't ask me", away and back, forgetting a
    person. Each change is made under the channel's lock (``locks``) on the table read from
    ``cache`` and written by ``saver`` (``store`` for the seats a person holds and for forgetting
    them), at the time of ``clock``; ``shutdown`` refuses changes once the host is closing."""

    def __init__(
        self,
        store: AnyStore,
        locks: ChannelLocks,
        cache: TableCache,
        saver: TableSaver,
        shutdown: Shutdown,
        clock: Callable[[], datetime],
    ) -> None:
        self._store = store
        self._locks = locks
        self._cache = cache
        self._saver = saver
        self._shutdown = shutdown
        self._clock = clock

    async def replace(
        self,
        channel_id: int,
        user_id: str,
        seat: str,
        member: str | None,
        *,
        table_id: int | None = None,
        member_name: str | None = None,
    ) -> Outcome:
        """Hand ``seat`` to ``member`` (a Discord user id, display name ``member_name``), or to an
        AI at the table's level.

        Allowed to the host and to the seat's own player; to any seated player once that seat's
        clock has run out. The new holder plays the seat from now on (its secrets included)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            record, game = table.record, table.game
            if record.status != PLAYING or game is None:
                raise TableError(
                    "The game has not started: seats change in the lobby (Join, Leave, Add bot)."
                )
            if seat not in record.seats:
                raise TableError("That is not a seat at this table.")
            old = seats.holder_of(record, seat)
            mine = seats.seat_of(record, user_id)
            timed_out = seat in record.meta.timed_out
            if user_id != record.host_id and user_id != old and not (timed_out and mine is not None):
                raise TableError(
                    f"Only the host (<@{record.host_id}>) or that seat's player can hand it over "
                    "(any player can once its clock has run out)."
                )
            if member is not None:
                if seats.seat_of(record, member) is not None:
                    raise TableError("That member already plays at this table.")
                holder = member
            else:
                holder = seats.bot_holder(seats.settings(record)["level"])
            if holder == old:
                raise TableError("That seat is already played that way.")
            names = seats.names(record)
            meta = seats.with_holder(record.meta, seat, holder).without_seat_notes(seat)
            if member is not None and member_name:
                meta = meta.with_names({member: member_name})
            action = {"type": "replace", "seat": seat, "from": old, "to": holder}
            meta = replace(meta, recent=_recent(meta, HOST, action, self._clock(), record.version + 1))
            new = record.evolve(meta=meta)
            new_name = seats.name_of(new, seat)
            text = f"{names[seat]}'s seat is now played by {new_name}."
            event = Event(text, kind="replace", data={"seat": seat, "from": old, "to": holder})
            saved = await self._saver.save(
                table,
                new,
                game,
                actor=user_id,
                action=action,
                events=[event],
                turn=turn_of(game),
            )
            return Outcome(saved, [event], decider_changed=True)

    async def pause(self, channel_id: int, user_id: str, *, paused: bool) -> Table:
        """Stop (or restart) the table's clocks (host only)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id)
            record = table.record
            if record.status != PLAYING or table.game is None:
                raise TableError("Only a running game can be paused.")
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can pause or resume the game.")
            if paused == (record.meta.paused is not None):
                raise TableError("The game is already paused." if paused else "The game is not paused.")
            now = self._clock()
            meta = clocks.pause(record.meta, now) if paused else clocks.resume(record.meta, now)
            new = self._saver.schedule(record.evolve(meta=meta), table.game)
            return await self._saver.save_meta(table, new)

    async def quiet(
        self, channel_id: int, user_id: str, table_id: int | None = None, *, whole_game: bool = False
    ) -> Table:
        """Remember that ``user_id`` is not to be asked in timed waits for the rest of this turn
        (or, ``whole_game``, of this game): they pass when asked."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            record, game = table.record, table.game
            seat = seats.seat_of(record, user_id)
            if game is None or seat is None:
                raise TableError("You are not playing at this table.")
            meta = record.meta
            if whole_game:
                meta = replace(meta, quiet_game=tuple(sorted({*meta.quiet_game, seat})))
            else:
                meta = replace(meta, quiet={**meta.quiet, seat: turn_of(game)})
            new = self._saver.schedule(record.evolve(meta=meta), game)
            return await self._saver.save_meta(table, new)

    async def back(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """The user is back at this table: their seat is theirs again (see ``bot.absence``)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            seat = seats.seat_of(table.record, user_id)
            if table.game is None or seat is None:
                raise TableError("You are not playing at this table.")
            if not table.record.meta.is_away(seat):
                raise TableError("You are not away at this table: your seat is yours.")
            meta = clocks.restart(absence.back(table.record.meta, seat), seat, self._clock())
            return await self._saver.mark(table, meta)

    async def set_away(self, user_id: str, until: datetime | None) -> list[Table]:
        """Mark ``user_id`` away until ``until`` at every running table where they hold a seat
        (``until=None``: back everywhere); returns the tables changed."""
        self._shutdown.check_open()
        changed = []
        for record in await self._store.seated(user_id):
            async with self._locks.lock(record.channel_id):
                table = await self._cache.load(record.channel_id)
                seat = seats.seat_of(table.record, user_id) if table is not None else None
                if table is None or table.game is None or seat is None:
                    continue
                meta = table.record.meta
                if until is not None:
                    meta = absence.mark(meta, seat, absence.SAID, until)
                elif meta.is_away(seat):
                    meta = clocks.restart(absence.back(meta, seat), seat, self._clock())
                else:
                    continue
                changed.append(await self._saver.mark(table, meta))
        return changed

    async def forget_person_at(self, channel_id: int, table_id: int, user_id: str, pseudonym: str) -> bool:
        """Rewrite the channel's open table ``table_id`` so that it no longer names ``user_id``
        (``/game forget-me``: record, log, seats' boards; their seat id, if they had one, becomes
        ``pseudonym``; the host role passes to the next person seated). Only once they hold no seat
        there any more (TableError otherwise). False if the table is no longer open (the finished
        tables are rewritten with the rest)."""
        async with self._locks.lock(channel_id):
            table = await self._cache.load(channel_id)
            if table is None or table.record.id != table_id:
                return False
            record = table.record
            if seats.seat_of(record, user_id) is not None:
                raise TableError("you still hold a seat there")
            hosts = {}
            if record.host_id == user_id:
                others = [h for h in seats.humans(record) if h != user_id]
                hosts[table_id] = others[0] if others else pseudonym
            try:
                await self._store.forget_in_tables(user_id, pseudonym, [table_id], hosts)
            except StoreError:
                raise TableError(NOT_SAVED) from None
            finally:
                self._cache.forget(channel_id)  # read again as rewritten (its chronicle too)
            return True
