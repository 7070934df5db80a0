"""The host's bookkeeping of a table outside play: notes in its metadata, its due effects done or
deferred, what its channel message shows (and the clocks that waited for it), and which tables
need the tending loop (due deadlines, stale messages)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot import clocks, effect_outbox
from bot.locks import ChannelLocks
from bot.shutdown import Shutdown
from bot.store import AnyStore, StoreConflict, StoreError, TableRecord
from bot.table import Table, TableError
from bot.table_cache import TableCache
from bot.table_meta import TableMeta
from bot.table_saving import TableSaver

log = logging.getLogger(__name__)


class Bookkeeping:
    """Changes a table's bookkeeping under its channel's lock (``locks``), reading it from
    ``cache`` and saving it with ``saver`` (no new version); remembers in ``store`` what each
    table's message shows; finds the tables of this process's ``shards`` (None: all) that are due
    or stale, unless ``shutdown`` is closing. ``clock`` is the host's time."""

    def __init__(
        self,
        store: AnyStore,
        locks: ChannelLocks,
        cache: TableCache,
        saver: TableSaver,
        shutdown: Shutdown,
        clock: Callable[[], datetime],
        shards: tuple[int, tuple[int, ...]] | None = None,
    ) -> None:
        self._store = store
        self._locks = locks
        self._cache = cache
        self._saver = saver
        self._shutdown = shutdown
        self._clock = clock
        self.shards = shards
        """``(shard_count, shard_ids)``: this process tends only its shards' tables (None: all)."""

    async def note(self, table: Table, change: Callable[[TableMeta], TableMeta]) -> None:
        """Apply ``change`` to the table's bookkeeping if it has not moved on (best effort)."""
        async with self._locks.lock(table.record.channel_id):
            current = await self._cache.load(table.record.channel_id)
            if current is None or current.record.id != table.record.id or current.game is None:
                return
            try:
                await self._saver.mark(current, change(current.record.meta))
            except (TableError, StoreConflict) as exc:
                log.info("table #%s: bookkeeping not saved: %s", table.record.id, exc)

    async def defer_effect(self, channel_id: int, table_id: int, key: str, until: datetime) -> None:
        """Let the due effect ``key`` wait until ``until`` (its person's quiet hours)."""
        async with self._locks.lock(channel_id):
            table = await self._cache.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            await self._saver.mark(table, effect_outbox.deferred(table.record.meta, key, until))

    async def complete_effects(self, channel_id: int, table_id: int, keys: set[str]) -> None:
        """Mark the due effects named ``keys`` done (see ``bot.effect_outbox``), once performed."""
        async with self._locks.lock(channel_id):
            table = await self._cache.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            meta = effect_outbox.without(table.record.meta, keys)
            if meta != table.record.meta:
                await self._saver.mark(table, meta)

    async def due(self) -> list[TableRecord]:
        """Playing tables whose next deadline has come (of this process's shards, if sharded)."""
        if self._shutdown.closing:
            return []
        if self.shards is None:
            return await self._store.due_tables(self._clock())
        return await self._store.due_tables(self._clock(), shards=self.shards)

    async def stale(self, grace: timedelta) -> list[TableRecord]:
        """Tables (of this process's shards) whose channel message has been older than the
        table for longer than ``grace``: a post failed, or the process stopped before it."""
        if self._shutdown.closing:
            return []
        before = self._clock() - grace
        if self.shards is None:
            return await self._store.stale_tables(before)
        return await self._store.stale_tables(before, shards=self.shards)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the channel message that now shows this table at its version (best effort: a
        failed write is logged, and the table is shown by a new message next time)."""
        version = table.record.version
        try:
            await self._store.set_message(table.record.id, message_id, version)
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
            await self._store.set_shown(record.id, record.version)
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
        async with self._locks.lock(channel_id):
            table = await self._cache.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            meta = clocks.told(table.record.meta, table.record.shown_version, self._clock())
            if meta is None:
                return
            try:
                await self._saver.mark(table, meta)
            except (TableError, StoreConflict) as exc:
                log.info("table #%s: its clocks start again at their next look: %s", table_id, exc)
                return
            log.info("table #%s: its turn message is posted again: its clocks start again", table_id)
