"""The table host's shutdown: refusing new changes, then closing the store once the changes in
progress are done."""

from __future__ import annotations

from bot.locks import ChannelLocks
from bot.store import AnyStore
from bot.table import TableError


class Shutdown:
    """Whether the host still takes changes; :meth:`close` waits for the changes in progress
    (the channel ``locks`` held) and closes ``store``."""

    def __init__(self, store: AnyStore, locks: ChannelLocks) -> None:
        self._store = store
        self._locks = locks
        self.closing = False
        """True once the host refuses new changes (reads and message bookkeeping still work)."""
        self._store_closed = False

    def check_open(self) -> None:
        """TableError if the host refuses new changes (it is shutting down)."""
        if self.closing:
            raise TableError("The bot is shutting down; try again in a minute.")

    def stop_accepting(self) -> None:
        """Refuse new changes from now on (reads and message bookkeeping still work)."""
        self.closing = True

    async def close(self) -> None:
        """Refuse new work, let the actions in progress finish, then close the database."""
        if self._store_closed:
            return
        self.closing = True
        self._store_closed = True
        await self._locks.drain()
        await self._store.close()
