"""The tables as this process reads them: a cache of the live tables (most recently used last),
loaded from the store on demand, and dropped when another process changed them (a shared store)."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from bot.engine.core import Game
from bot.engine.registry import GameRegistry
from bot.store import AnyStore, TableRecord
from bot.table import DEFAULT_CACHE_SIZE, OutOfDate, Table, TableError

log = logging.getLogger(__name__)


class TableCache:
    """The live tables in memory, keyed by channel, over ``store``; games are rebuilt from their
    JSON with ``registry``. At most ``size`` tables are kept, the least recently used dropped."""

    def __init__(self, store: AnyStore, registry: GameRegistry, size: int = DEFAULT_CACHE_SIZE) -> None:
        self._store = store
        self._registry = registry
        self.tables: OrderedDict[int, Table] = OrderedDict()
        """The cached table of each channel, least recently used first."""
        self._size = max(1, size)
        self._checked: dict[int, asyncio.Task[Any]] = {}
        """Channels whose cached table was checked when their database lock was taken, and the
        task holding that lock (its reads need no other check while it holds it)."""

    def __len__(self) -> int:
        return len(self.tables)

    def get(self, channel_id: int) -> Table | None:
        """The channel's cached table, or None (no store read, no check)."""
        return self.tables.get(channel_id)

    # -- the cross-process check (see ``bot.locks.ChannelLock``) -------------------------------

    def locked(self, channel_id: int, stored: tuple[int, int, int | None] | None) -> None:
        """The channel's database lock was taken by this task, and its open table is stored as
        ``(id, rev, message_id)`` (None: it has none): drop the cached table if that moved on."""
        cached = self.tables.get(channel_id)
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
        cached = self.tables.get(channel_id)
        if cached is None:
            return
        stored = await self._store.revision(cached.record.id)
        if stored != (cached.record.rev, cached.record.message_id):
            log.info("table #%s changed in another process: reloading it", cached.record.id)
            self.forget(channel_id)

    # -- keeping and dropping ------------------------------------------------------------------

    def remember(self, table: Table) -> None:
        """Keep an open table in the cache (most recently used last), evicting the oldest."""
        channel_id = table.record.channel_id
        self.tables[channel_id] = table
        self.tables.move_to_end(channel_id)
        while len(self.tables) > self._size:
            self.tables.popitem(last=False)

    def note_stored(self, record: TableRecord) -> None:
        """``record`` was just read from the store: drop the cached copy of its channel's table if
        it is not that stored version (another process wrote it)."""
        cached = self.tables.get(record.channel_id)
        if cached is not None and (cached.record.id, cached.record.rev) != (record.id, record.rev):
            self.forget(record.channel_id)

    def forget(self, channel_id: int) -> None:
        """Drop the channel's cached table (and its chronicle): the next reader loads it from the
        store again."""
        self.tables.pop(channel_id, None)

    # -- reading -------------------------------------------------------------------------------

    def game_class(self, name: str) -> type[Game]:
        """The registered game called ``name``; TableError if this bot no longer knows it."""
        game_cls = self._registry.get(name)
        if game_cls is None:
            raise TableError(f"This bot no longer knows the game {name}.")
        return game_cls

    def table_of(self, record: TableRecord) -> Table:
        """The table of a stored record: its cached live table if that is the same version."""
        cached = self.tables.get(record.channel_id)
        if cached is not None and cached.record.id == record.id and cached.record.rev == record.rev:
            return cached
        return self.built(record)

    def built(self, record: TableRecord) -> Table:
        """A new table of a stored record, its game rebuilt from the record's JSON (not cached)."""
        game = None
        if record.state is not None:
            game = self.game_class(record.game).from_json(record.state)
        return Table(record, game)

    async def load(self, channel_id: int, *, check: bool = True) -> Table | None:
        """The channel's open table (from the cache, else the store), or None. On a shared store a
        cached table that another process changed meanwhile is reloaded, never overwritten.
        ``check=False`` trusts the cached copy without asking the store: only for a reader that
        goes on to ``act`` (which checks it under the table's lock) or checks it itself."""
        if check and self._store.shared and channel_id in self.tables and not self._checked_here(channel_id):
            await self._check_cached(channel_id)
        cached = self.tables.get(channel_id)
        if cached is not None:
            self.tables.move_to_end(channel_id)
            return cached
        record = await self._store.open_table(channel_id)
        if record is None:
            return None
        cached = self.tables.get(channel_id)  # loaded meanwhile by another reader
        if cached is not None and cached.record.rev >= record.rev:
            return cached
        table = self.built(record)
        self.remember(table)
        return table

    async def require(self, channel_id: int, table_id: int | None = None) -> Table:
        """The channel's open table (table ``table_id`` if given: OutOfDate if that is closed);
        TableError if the channel has none."""
        table = await self.load(channel_id)
        if table is None:
            if table_id is not None:
                raise OutOfDate("That table is closed.")
            raise TableError("There is no table in this channel. Open one with /game new.")
        if table_id is not None and table.record.id != table_id:
            raise OutOfDate("That table is closed.")
        return table

    async def latest(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recent finished or abandoned one, or None."""
        table = await self.load(channel_id)
        if table is not None:
            return table
        record = await self._store.latest_table(channel_id)
        return self.built(record) if record is not None else None

    async def awaiting(self, user_id: str, guild_id: int | None = None) -> list[Table]:
        """Every running table that waits for ``user_id`` (on one server if given)."""
        records = await self._store.awaiting(user_id, guild_id)
        return [self.built(r) for r in records]
