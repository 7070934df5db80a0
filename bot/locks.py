"""The per-channel locks every change to a table is made under, across processes on a shared store:
:class:`ChannelLocks` hands out one :class:`ChannelLock` per channel."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from bot import answering
from bot.store import AnyStore, StoreError
from bot.table import STORE_DOWN, TableError
from bot.table_cache import TableCache

log = logging.getLogger(__name__)


class ChannelLocks:
    """One lock per channel, kept only while someone holds or awaits it (an idle channel keeps
    none); on a shared store each also takes the table's database lock and has ``cache`` check its
    copy of the table against what is stored."""

    def __init__(self, store: AnyStore, cache: TableCache) -> None:
        self._store = store
        self._cache = cache
        self.held: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        """The process's own lock of each channel someone holds or awaits."""

    def lock(self, channel_id: int) -> ChannelLock:
        """The channel's lock (every change to its table is made while holding it); on a shared
        store it is also held in the database, across processes (see :class:`ChannelLock`)."""
        local = self.held.get(channel_id)
        if local is None:
            local = self.held[channel_id] = asyncio.Lock()
        return ChannelLock(self._store, self._cache, channel_id, local)

    async def drain(self) -> None:
        """Wait until every change in progress has released its channel's lock."""
        for local in list(self.held.values()):
            async with local:
                pass


class ChannelLock:
    """A channel's lock: the process's own ``asyncio.Lock``, then, on a shared store, the store's
    database lock of the channel's table, so that processes apply actions one at a time too. The
    database lock comes with the table's stored revision: the host checks its cached copy with it."""

    def __init__(self, store: AnyStore, cache: TableCache, channel_id: int, local: asyncio.Lock) -> None:
        self._store = store
        self._cache = cache
        self._channel_id = channel_id
        self._local = local
        self._held: Any = None

    async def acquire(self) -> bool:
        """Take the lock (and, on a shared store, the table's database lock). While an interaction
        waits for its answer, a long wait for the lock acknowledges it (``bot.answering``)."""
        acquired = False
        try:
            async with answering.patience():
                await self._local.acquire()
                acquired = True
        except BaseException:
            if acquired:  # cancelled while the late acknowledgement ended: not held after all
                self._local.release()
            raise
        if not self._store.shared:
            return True
        try:
            held = self._store.table_lock(self._channel_id)
            stored = await held.__aenter__()
        except StoreError:
            self._local.release()
            raise TableError(STORE_DOWN) from None
        except BaseException:
            self._local.release()
            raise
        self._held = held
        self._cache.locked(self._channel_id, stored)
        return True

    def release(self) -> None:
        """Release a lock taken with :meth:`acquire` outside ``async with`` (local lock only)."""
        assert self._held is None, "a database lock is released by leaving `async with`"
        self._local.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc_info: Any) -> None:
        held, self._held = self._held, None
        try:
            if held is not None:
                self._cache.unlocked(self._channel_id)
                await held.__aexit__(*exc_info)
        finally:
            self._local.release()
