"""Answering an interaction in time whatever the store does (issue 39, fault 1).

Discord drops an interaction that is not acknowledged (answered or deferred) within 3 seconds;
the bot promises one. An interaction's handler calls :func:`begin` first (the command tree's
check and ``BotItem.callback`` do); from then on, until the interaction is acknowledged, the
store's calls made by that handler's task are bounded by :data:`PATIENCE` from its start:

* a **read** that has not answered by then (or within :data:`READ_AT_LEAST`, if the handler's
  own work took it past the deadline) is given up: it raises :class:`StoreError`, so the
  person gets the same clear private answer as when the store is down, and nothing changes (the
  call itself is left to end on its own, by the store's own timeout: cancelling a call to a
  frozen server can itself wait on the server);
* a **change** (a write, or waiting for a table's lock) is never given up, as it may still be
  saved: once :data:`PATIENCE` has passed the interaction is acknowledged (deferred) while the
  change goes on, and the handler answers when it ends.

Pure asyncio: the Discord side (what acknowledging means) is given by the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from bot.store.records import StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")

PATIENCE = 0.75
"""Seconds from the start of a handler until its interaction is acknowledged, whatever the store
does (Discord allows 3; the bot promises 1, and the answer itself takes a round trip)."""

READ_AT_LEAST = 0.2
"""Seconds a read is given even when the handler's own work took it past its deadline (a healthy
store answers in milliseconds: a read given up is a store that does not answer)."""

LATE = f"the database did not answer within {PATIENCE:g} s"
"""The error of a read given up for an interaction waiting for its answer."""


class Pending:
    """An interaction waiting for its first answer: its handler's task, when it must have been
    acknowledged (``loop.time()``), whether it has been, and how to acknowledge it late."""

    def __init__(
        self,
        deadline: float,
        answered: Callable[[], bool],
        acknowledge: Callable[[], Awaitable[None]],
    ) -> None:
        self.task = asyncio.current_task()
        self.deadline = deadline
        self._answered = answered
        self._acknowledge = acknowledge
        self.acknowledging: asyncio.Task[None] | None = None
        """The late acknowledgement, once begun (see :func:`patience`)."""

    def waiting(self) -> bool:
        """True in the handler's own task while its interaction is not acknowledged (nor being)."""
        return asyncio.current_task() is self.task and self.acknowledging is None and not self._answered()

    def left(self) -> float:
        """Seconds until the interaction must have been acknowledged (0 when past)."""
        return max(0.0, self.deadline - asyncio.get_running_loop().time())

    def acknowledge_late(self) -> None:
        """Begin acknowledging the interaction (once), beside the work that keeps it waiting."""
        if self.acknowledging is None and not self._answered():
            self.acknowledging = asyncio.ensure_future(self._acknowledged())

    async def _acknowledged(self) -> None:
        try:
            await self._acknowledge()
        except Exception as exc:  # the work goes on; the handler still answers (a followup)
            log.warning("could not acknowledge an interaction while the database was slow: %s", exc)


_PENDING: contextvars.ContextVar[Pending | None] = contextvars.ContextVar("pending_interaction", default=None)


def begin(pending: Pending) -> None:
    """The current task handles an interaction that waits for its first answer (``pending``)."""
    _PENDING.set(pending)


def waiting() -> Pending | None:
    """The interaction the current task must still acknowledge, if any."""
    pending = _PENDING.get()
    return pending if pending is not None and pending.waiting() else None


async def read(call: Awaitable[T]) -> T:
    """Await a store read; while an interaction waits for its answer, give up (StoreError
    :data:`LATE`) at its deadline, leaving the call to end on its own."""
    pending = waiting()
    if pending is None:
        return await call
    task = asyncio.ensure_future(call)
    done, _ = await asyncio.wait({task}, timeout=max(pending.left(), READ_AT_LEAST))
    if not done:
        task.add_done_callback(_retrieve)
        raise StoreError(LATE)
    return task.result()


async def change(call: Awaitable[T]) -> T:
    """Await a store change; while an interaction waits for its answer, acknowledge it at its
    deadline if the change has not ended (the change itself is never given up)."""
    async with patience():
        return await call


@contextlib.asynccontextmanager
async def patience() -> AsyncIterator[None]:
    """While the body runs (a change, or waiting for a lock), acknowledge the interaction the
    current task must still answer once its deadline passes; on leaving, wait until that
    acknowledgement is done, so that the handler's next answer comes after it."""
    pending = waiting()
    if pending is None:
        yield
        return
    timer = asyncio.get_running_loop().call_later(pending.left(), pending.acknowledge_late)
    try:
        yield
    finally:
        timer.cancel()
        if pending.acknowledging is not None:
            await asyncio.shield(pending.acknowledging)


def _retrieve(task: asyncio.Future[Any]) -> None:
    """The end of a read nobody waits for any more: mark its error seen (logged in one line)."""
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.info("a database read given up for an interaction ended later: %s", error)
