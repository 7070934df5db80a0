"""The per-channel lock every change to a table is made under, across processes on a shared store."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot import answering
from bot.store import StoreError
from bot.table import STORE_DOWN, TableError

if TYPE_CHECKING:
    from bot.host_core import HostCore

log = logging.getLogger(__name__)


class ChannelLock:
    """A channel's lock: the process's own ``asyncio.Lock``, then, on a shared store, the store's
    database lock of the channel's table, so that processes apply actions one at a time too. The
    database lock comes with the table's stored revision: the host checks its cached copy with it."""

    def __init__(self, host: HostCore, channel_id: int, local: asyncio.Lock) -> None:
        self._host = host
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
        if not self._host.store.shared:
            return True
        try:
            held = self._host.store.table_lock(self._channel_id)
            stored = await held.__aenter__()
        except StoreError:
            self._local.release()
            raise TableError(STORE_DOWN) from None
        except BaseException:
            self._local.release()
            raise
        self._held = held
        self._host.locked(self._channel_id, stored)
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
                self._host.unlocked(self._channel_id)
                await held.__aexit__(*exc_info)
        finally:
            self._local.release()
