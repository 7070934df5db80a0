"""The table host's core (see ``bot.tables.TableHost``): locks, the cache of live tables, saving
with deadlines, reading tables and their history, bookkeeping, shutdown."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot import clocks, deadlines, effects, seats
from bot.chronicle import Chronicle
from bot.engine.core import (
    SYSTEM,
    Action,
    Event,
    Game,
    format_text,
)
from bot.engine.registry import GameRegistry
from bot.locks import ChannelLock
from bot.store import PLAYING, AnyStore, StoreConflict, StoreError, TableRecord
from bot.table import DEFAULT_CACHE_SIZE, NOT_SAVED, OutOfDate, Table, TableError, turn_of
from bot.table_meta import TableMeta

log = logging.getLogger(__name__)


class HostCore:
    """The table host's plumbing: one lock per channel, a cache of live games, the store behind
    them, saving with the table's deadlines, and reading tables and their history."""

    def __init__(
        self,
        store: AnyStore,
        registry: GameRegistry,
        *,
        clock: Callable[[], datetime],
        seeder: Callable[[], int] = lambda: secrets.randbits(63),
        cache_size: int = DEFAULT_CACHE_SIZE,
        shards: tuple[int, tuple[int, ...]] | None = None,
    ) -> None:
        self.store = store
        self.shards = shards
        """``(shard_count, shard_ids)``: this process tends only its shards' tables (None: all)."""
        self.registry = registry
        self._clock = clock
        self._seeder = seeder
        # A lock lives while someone holds or awaits it; an idle channel keeps none.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[int, Table] = OrderedDict()
        self._cache_size = max(1, cache_size)
        self._typed: dict[tuple[int, str], tuple[str, datetime]] = {}
        self._checked: dict[int, asyncio.Task[Any]] = {}
        """Channels whose cached table was checked when their database lock was taken, and the
        task holding that lock (its reads need no other check while it holds it)."""
        self._closing = False
        self._store_closed = False

    def now(self) -> datetime:
        """The host's clock (injected; virtual in tests)."""
        return self._clock()

    # -- plumbing -----------------------------------------------------------------------------

    def lock(self, channel_id: int) -> ChannelLock:
        """The channel's lock (every change to its table is made while holding it); on a shared
        store it is also held in the database, across processes (see :class:`ChannelLock`)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return ChannelLock(self, channel_id, lock)

    def locked(self, channel_id: int, stored: tuple[int, int, int | None] | None) -> None:
        """The channel's database lock was taken by this task, and its open table is stored as
        ``(id, rev, message_id)`` (None: it has none): drop the cached table if that moved on."""
        cached = self._cache.get(channel_id)
        if cached is not None and stored != (cached.record.id, cached.record.rev, cached.record.message_id):
            log.info("table #%s changed in another process: reloading it", cached.record.id)
            self.forget(channel_id)
        task = asyncio.current_task()
        if task is not None:
            self._checked[channel_id] = task

    def unlocked(self, channel_id: int) -> None:
        """The channel's database lock is being released."""
        self._checked.pop(channel_id, None)

    def _checked_here(self, channel_id: int) -> bool:
        """True if this task holds the channel's database lock (its table was checked then)."""
        task = asyncio.current_task()
        return task is not None and self._checked.get(channel_id) is task

    async def _check_cached(self, channel_id: int) -> None:
        """Drop the cached table if the stored one moved on (another process wrote it)."""
        cached = self._cache.get(channel_id)
        if cached is None:
            return
        stored = await self.store.revision(cached.record.id)
        if stored != (cached.record.rev, cached.record.message_id):
            log.info("table #%s changed in another process: reloading it", cached.record.id)
            self.forget(channel_id)

    def _remember(self, table: Table) -> None:
        """Keep an open table in the cache (most recently used last), evicting the oldest."""
        channel_id = table.record.channel_id
        self._cache[channel_id] = table
        self._cache.move_to_end(channel_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def note_stored(self, record: TableRecord) -> None:
        """``record`` was just read from the store: drop the cached copy of its channel's table if
        it is not that stored version (another process wrote it)."""
        cached = self._cache.get(record.channel_id)
        if cached is not None and (cached.record.id, cached.record.rev) != (record.id, record.rev):
            self.forget(record.channel_id)

    def forget(self, channel_id: int) -> None:
        """Drop the channel's cached table (and its chronicle): the next reader loads it from the
        store again."""
        self._cache.pop(channel_id, None)

    @property
    def cached_tables(self) -> int:
        """How many live tables are in memory now."""
        return len(self._cache)

    def game_class(self, name: str) -> type[Game]:
        """The registered game called ``name``; TableError if this bot no longer knows it."""
        game_cls = self.registry.get(name)
        if game_cls is None:
            raise TableError(f"This bot no longer knows the game {name}.")
        return game_cls

    async def load(self, channel_id: int, *, check: bool = True) -> Table | None:
        """The channel's open table (from the cache, else the store), or None. On a shared store a
        cached table that another process changed meanwhile is reloaded, never overwritten.
        ``check=False`` trusts the cached copy without asking the store: only for a reader that
        goes on to ``act`` (which checks it under the table's lock) or checks it itself."""
        if check and self.store.shared and channel_id in self._cache and not self._checked_here(channel_id):
            await self._check_cached(channel_id)
        cached = self._cache.get(channel_id)
        if cached is not None:
            self._cache.move_to_end(channel_id)
            return cached
        record = await self.store.open_table(channel_id)
        if record is None:
            return None
        cached = self._cache.get(channel_id)  # loaded meanwhile by another reader
        if cached is not None and cached.record.rev >= record.rev:
            return cached
        table = self._table_of(record)
        self._remember(table)
        return table

    def _table_of(self, record: TableRecord) -> Table:
        game = None
        if record.state is not None:
            game = self.game_class(record.game).from_json(record.state)
        return Table(record, game)

    async def _require(self, channel_id: int, table_id: int | None = None) -> Table:
        table = await self.load(channel_id)
        if table is None:
            if table_id is not None:
                raise OutOfDate("That table is closed.")
            raise TableError("There is no table in this channel. Open one with /game new.")
        if table_id is not None and table.record.id != table_id:
            raise OutOfDate("That table is closed.")
        return table

    async def _save(
        self,
        table: Table,
        record: TableRecord,
        game: Game | None,
        *,
        actor: str,
        action: Action,
        events: Sequence[Event] = (),
        turn: int | None = None,
        acted: str | None = None,
        in_person: bool = True,
        names: dict[str, str] | None = None,
    ) -> Table:
        """Persist the new state with its clocks; on any failure forget the cached table so it
        reloads. ``acted``: the seat that just decided (its clock starts again); ``in_person``:
        its own player decided (not the host for them). The logged summary names each seat as
        it is played now (``names``, default :func:`seats.names`), for good: a later hand-over
        does not rename who acted."""
        if record.status == PLAYING and game is not None:
            record = self.schedule(record, game, acted, version=record.version + 1, in_person=in_person)
        elif record.status != PLAYING:  # over: nothing is due any more
            pending = {e.key for e in effects.pending(record.meta)}
            record = record.evolve(meta=effects.without(record.meta, pending), deadline=None, awaiting=())
        named = names if names is not None else seats.names(record)
        summary = "\n".join(format_text(e.text, named) for e in events if e.public)
        view = game.view(None) if game is not None and acted is not None else None
        seat_view = (  # the board its player saw when deciding (not when an AI decided for them)
            (acted, turn, view)
            if view is not None and acted is not None and acted != SYSTEM and in_person
            else None
        )
        chronicle = table.chronicle  # extended below with what this save logs
        if chronicle is not None and (table.record.id != record.id or chronicle.upto != record.version):
            chronicle = None  # not this version's log: read again when needed
        try:
            saved = await self.store.save(
                record,
                actor=actor,
                action=action,
                summary=summary,
                now=self._clock(),
                turn=turn,
                seat_view=seat_view,
            )
        except StoreError:
            self.forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except StoreConflict:
            self.forget(record.channel_id)  # written meanwhile (by another process): reload
            raise OutOfDate("That board is out of date.") from None
        except BaseException:
            self.forget(record.channel_id)
            raise
        if chronicle is not None:
            chronicle.add(
                saved.version,
                turn=turn,
                actor=actor,
                action_text=json.dumps(action),
                summary=summary,
                seat_view=seat_view,
            )
        new = Table(saved, game, view, chronicle)
        if saved.is_open:
            self._remember(new)
        else:
            self.forget(saved.channel_id)
        return new

    async def save_meta(self, table: Table, record: TableRecord) -> Table:
        """Persist only the host's bookkeeping of ``record`` (no new version: buttons stay valid)."""
        try:
            saved = await self.store.save_meta(record)
        except StoreError:
            self.forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except BaseException:
            self.forget(record.channel_id)
            raise
        new = Table(saved, table.game, table._view, table.chronicle)
        self._remember(new)
        return new

    def _check_open_for_business(self) -> None:
        if self._closing:
            raise TableError("The bot is shutting down; try again in a minute.")

    def schedule(
        self,
        record: TableRecord,
        game: Game,
        acted: str | None = None,
        *,
        version: int | None = None,
        in_person: bool = True,
    ) -> TableRecord:
        """``record`` with its deadlines brought up to date now (see ``bot.deadlines.schedule``)."""
        return deadlines.schedule(
            record, game, acted, version=version, in_person=in_person, now=self._clock()
        )

    def automatic_deciders(self, record: TableRecord, game: Game, version: int) -> list[str]:
        """Seats the host decides for now (see ``bot.deadlines.automatic_deciders``)."""
        return deadlines.automatic_deciders(record, game, version)

    # -- queries ------------------------------------------------------------------------------

    async def current(self, channel_id: int, *, check: bool = True) -> Table | None:
        """The channel's lobby or running table, or None (``check``: see :meth:`load`)."""
        return await self.load(channel_id, check=check)

    async def latest(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recent finished or abandoned one, or None."""
        table = await self.load(channel_id)
        if table is not None:
            return table
        record = await self.store.latest_table(channel_id)
        return self._table_of(record) if record is not None else None

    async def chronicle(self, table: Table) -> Chronicle:
        """The table's log and its seats' last boards in memory (``bot.chronicle``), which every
        save of this process extends; read from the store (one statement) only for a table that
        has none yet: loaded at start, after an eviction, or after another process changed it."""
        chronicle = table.chronicle
        if chronicle is not None and chronicle.upto >= table.record.version:
            return chronicle
        record = table.record
        rows, views = await self.store.chronicle_rows(record.id, record.version)
        chronicle = Chronicle.from_store(rows, views, record.version)
        table.chronicle = chronicle
        cached = self._cache.get(record.channel_id)
        if cached is not None and cached.chronicle is None and (cached.record.id, cached.record.version) == (
            record.id,
            record.version,
        ):
            cached.chronicle = chronicle  # the live table's next versions extend it
        return chronicle

    async def history(self, channel_id: int, limit: int = 15, upto: Table | None = None) -> list[str]:
        """Public summaries of the last actions at the channel's current or latest table (as of
        ``upto``, a version of the current table, if given)."""
        table = upto if upto is not None else await self.load(channel_id)
        if table is not None:
            return (await self.chronicle(table)).recent(limit, table.record.version)
        record = await self.store.latest_table(channel_id)
        if record is None:
            raise TableError("No game has been played in this channel yet.")
        return await self.store.recent_summaries(record.id, limit)

    async def since_last_decision(self, table: Table, seat: str) -> list[tuple[int | None, list[str]]]:
        """What happened since ``seat`` last decided in an earlier turn (so their own moves of this
        turn are included): ``(turn, lines)`` per turn, oldest first."""
        turn = turn_of(table.game) if table.game is not None else None
        rows = (await self.chronicle(table)).since(seat, turn, table.record.version)
        grouped: list[tuple[int | None, list[str]]] = []
        for _, turn, summary in rows:
            lines = [line for line in summary.splitlines() if line]
            if grouped and grouped[-1][0] == turn:
                grouped[-1][1].extend(lines)
            else:
                grouped.append((turn, lines))
        return grouped

    async def played_for(self, table: Table, seat: str) -> int:
        """How many actions an AI took for ``seat`` since its player's own last decision."""
        turn = turn_of(table.game) if table.game is not None else None
        return (await self.chronicle(table)).played_for(seat, turn, table.record.version)

    async def turn_summaries(self, table: Table, turn: int) -> list[str]:
        """The public lines of every action of game turn ``turn`` (up to the table's version)."""
        return (await self.chronicle(table)).turn_summaries(turn, table.record.version)

    async def previous_view(self, table: Table, seat: str | None) -> dict[str, Any] | None:
        """The board ``seat`` last saw as its own (after its last decision of an earlier turn),
        to mark what changed since; None without a seat or such a decision."""
        if seat is None or table.game is None:
            return None
        return (await self.chronicle(table)).previous_view(seat, turn_of(table.game))

    async def awaiting(self, user_id: str, guild_id: int | None = None) -> list[Table]:
        """Every running table that waits for ``user_id`` (on one server if given)."""
        records = await self.store.awaiting(user_id, guild_id)
        return [self._table_of(r) for r in records]

    # -- bookkeeping and deadlines --------------------------------------------------------------

    async def note(self, table: Table, change: Callable[[TableMeta], TableMeta]) -> None:
        """Apply ``change`` to the table's bookkeeping if it has not moved on (best effort)."""
        async with self.lock(table.record.channel_id):
            current = await self.load(table.record.channel_id)
            if current is None or current.record.id != table.record.id or current.game is None:
                return
            try:
                await self.mark(current, change(current.record.meta))
            except (TableError, StoreConflict) as exc:
                log.info("table #%s: bookkeeping not saved: %s", table.record.id, exc)

    async def mark(self, table: Table, meta: TableMeta) -> Table:
        """Save new bookkeeping for ``table`` (the caller holds its lock), rescheduled."""
        assert table.game is not None
        new = self.schedule(table.record.evolve(meta=meta), table.game)
        return await self.save_meta(table, new)

    async def defer_effect(self, channel_id: int, table_id: int, key: str, until: datetime) -> None:
        """Let the due effect ``key`` wait until ``until`` (its person's quiet hours)."""
        async with self.lock(channel_id):
            table = await self.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            await self.mark(table, effects.deferred(table.record.meta, key, until))

    async def complete_effects(self, channel_id: int, table_id: int, keys: set[str]) -> None:
        """Mark the due effects named ``keys`` done (see ``bot.effects``), once performed."""
        async with self.lock(channel_id):
            table = await self.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            meta = effects.without(table.record.meta, keys)
            if meta != table.record.meta:
                await self.mark(table, meta)

    async def due(self) -> list[TableRecord]:
        """Playing tables whose next deadline has come (of this process's shards, if sharded)."""
        if self._closing:
            return []
        if self.shards is None:
            return await self.store.due_tables(self._clock())
        return await self.store.due_tables(self._clock(), shards=self.shards)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the channel message that now shows this table at its version (best effort: a
        failed write is logged, and the table is shown by a new message next time)."""
        version = table.record.version
        try:
            await self.store.set_message(table.record.id, message_id, version)
        except StoreError as exc:
            log.error("table #%s: could not remember its message: %s", table.record.id, exc)
            return
        cached = self._cache.get(table.record.channel_id)
        if cached is not None and cached.record.id == table.record.id:
            shown = max(cached.record.shown_version, version)
            cached.record = cached.record.evolve(message_id=message_id, shown_version=shown)
        await self._told(table.record.channel_id, table.record.id)

    async def shown(self, table: Table) -> None:
        """Remember that the table's message now shows ``table``'s version (best effort)."""
        record = table.record
        cached = self._cache.get(record.channel_id)
        mine = cached is not None and cached.record.id == record.id
        known = cached.record if cached is not None and mine else record
        if known.shown_version >= record.version:
            return
        try:
            await self.store.set_shown(record.id, record.version)
        except StoreError as exc:
            log.error("table #%s: could not remember what its message shows: %s", record.id, exc)
            return
        if cached is not None and mine:
            shown = max(cached.record.shown_version, record.version)
            cached.record = cached.record.evolve(shown_version=shown)
        await self._told(record.channel_id, record.id)

    async def _told(self, channel_id: int, table_id: int) -> None:
        """The table's message now shows a newer version: a clock or hold that waited for it (the
        message could not be posted, see ``bot.clocks``) starts again from now (best effort; a
        waiting clock also looks again by itself every hour)."""
        cached = self._cache.get(channel_id)
        if cached is None or cached.record.id != table_id or not clocks.waiting(cached.record.meta):
            return
        async with self.lock(channel_id):
            table = await self.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            meta = clocks.told(table.record.meta, table.record.shown_version, self._clock())
            if meta is None:
                return
            try:
                await self.mark(table, meta)
            except (TableError, StoreConflict) as exc:
                log.info("table #%s: its clocks start again at their next look: %s", table_id, exc)
                return
            log.info("table #%s: its turn message is posted again: its clocks start again", table_id)

    async def stale(self, grace: timedelta) -> list[TableRecord]:
        """Tables (of this process's shards) whose channel message has been older than the
        table for longer than ``grace``: a post failed, or the process stopped before it."""
        if self._closing:
            return []
        before = self._clock() - grace
        if self.shards is None:
            return await self.store.stale_tables(before)
        return await self.store.stale_tables(before, shards=self.shards)

    def table_of(self, record: TableRecord) -> Table:
        """The table of a stored record: its cached live table if that is the same version."""
        cached = self._cache.get(record.channel_id)
        if cached is not None and cached.record.id == record.id and cached.record.rev == record.rev:
            return cached
        return self._table_of(record)

    # -- shutdown -----------------------------------------------------------------------------

    def stop_accepting(self) -> None:
        """Refuse new changes from now on (reads and message bookkeeping still work)."""
        self._closing = True

    @property
    def closing(self) -> bool:
        """True once the host refuses new changes."""
        return self._closing

    async def close(self) -> None:
        """Refuse new work, let the actions in progress finish, then close the database."""
        if self._store_closed:
            return
        self._closing = True
        self._store_closed = True
        for lock in list(self._locks.values()):
            async with lock:
                pass
        await self.store.close()
