"""Drawing board pictures off the event loop: a small pool of worker processes, started and
warmed with the bot, or threads of this process when there are no workers (tests, tiny hosts).

Drawing is CPU-bound Python and Pillow; on a thread it holds the GIL the event loop needs, so
every other table's click waits while a board is drawn (issue 25). In a worker process it
cannot: the loop only hands over the public view and gets the PNG bytes back. Workers run at a
lower priority than the bot (a board may wait a few milliseconds, a click should not), warm
their sprite caches as they start, and exit as soon as the bot that started them is gone.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import render
from bot.thinking import _exit_with_parent

log = logging.getLogger(__name__)

DRAWING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="board")
"""Threads for drawing when there are no worker processes (and for other slow work of the
cogs, such as rebuilding a replay): two, as Pillow encodes two PNGs at once without the GIL."""

WORKERS = 2
"""Worker processes of a bot that runs its AI in processes: two boards drawn at once."""
NICE = 10
"""How much lower than the bot the workers run (``os.nice``)."""
PRIORITY = "nice"
"""How workers yield the CPU to the bot: ``"nice"`` (:data:`NICE`), or ``"idle"``, Linux's
``SCHED_IDLE`` class (they run only on a CPU nothing else wants; ``nice`` where the class is
missing or not permitted). ``nice`` is the default: on the shared 2-core development machine
the idle class made another table's action slower, not faster, and boards later
(``bench/host_load.py``, docs/boards.md)."""


def lower_priority(priority: str = PRIORITY) -> str:
    """Lower this process's CPU priority below the bot's; returns what was done ("idle",
    "nice", or "" if neither was permitted)."""
    if priority == "idle" and hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "idle"
        except OSError:
            pass
    try:
        os.nice(NICE)
    except OSError:  # not permitted: the worker runs at the bot's priority
        return ""
    return "nice"


def _start_worker(priority: str = PRIORITY) -> None:
    """Worker start-up: exit with the bot, yield the CPU to it, and warm the sprite caches."""
    _exit_with_parent()
    lower_priority(priority)
    render.warm_up()


def _ready() -> int:
    """A no-op task that makes the pool start a worker (returns the worker's process id)."""
    return os.getpid()


class BoardPool:
    """Draws public boards as PNG bytes without holding the event loop's GIL.

    ``workers`` > 0: that many worker processes (spawned and warmed by :meth:`start`), at the
    lower ``priority`` (see :data:`PRIORITY`);
    ``workers`` = 0: the :data:`DRAWING` threads. A worker that dies fails the boards it was
    drawing; they are drawn again on a new pool, and if that fails too, on a thread. If no
    process can be started at all, boards are drawn on threads from then on.
    """

    def __init__(self, workers: int = 0, priority: str = PRIORITY) -> None:
        self.workers = max(workers, 0)
        self.priority = priority
        self._pool: ProcessPoolExecutor | None = None

    def _processes(self) -> ProcessPoolExecutor | None:
        if self.workers == 0:
            return None
        if self._pool is None:
            try:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.priority,),
                )
            except OSError as exc:
                log.warning("cannot start board workers (%s): drawing on threads", exc)
                self.workers = 0
        return self._pool

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none on threads)."""
        pool = self._pool
        return list(pool._processes or {}) if pool is not None else []  # no public list exists

    async def start(self) -> None:
        """Start the workers and warm them (or warm this process's caches on a thread), so the
        first board after start-up costs what the next ones do."""
        loop = asyncio.get_running_loop()
        pool = self._processes()
        if pool is None:
            await loop.run_in_executor(DRAWING, render.warm_up)
            return
        try:  # one task per worker: each submit finds no idle worker and spawns one
            await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.workers)))
        except (BrokenProcessPool, OSError) as exc:
            log.warning("board workers failed to start (%s): drawing on threads", exc)
            self._retire(pool)
            self.workers = 0
            await loop.run_in_executor(DRAWING, render.warm_up)

    def _retire(self, pool: Executor) -> None:
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    async def png(self, view: dict[str, Any], previous: dict[str, Any] | None = None) -> bytes | None:
        """The PNG of a public view (None if its game has no renderer), changes since
        ``previous`` marked; drawn in a worker process, or on a thread."""
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            pool = self._processes()
            if pool is None:
                break
            try:
                return await loop.run_in_executor(pool, render.board_png, view, previous)
            except (BrokenProcessPool, OSError) as exc:
                log.warning("a board worker died (%s); drawing the board again", exc)
                self._retire(pool)
        return await loop.run_in_executor(DRAWING, render.board_png, view, previous)

    def close(self) -> None:
        """Stop the workers (boards being drawn are abandoned)."""
        if self._pool is not None:
            self._retire(self._pool)


BOARDS = BoardPool()
"""The process's board drawer; the bot sets its workers at start-up (:func:`start_boards`)."""


async def start_boards(workers: int) -> None:
    """Draw boards with ``workers`` worker processes (0: threads), started and warmed now."""
    if BOARDS.workers != workers or (workers and BOARDS._pool is None):
        BOARDS.close()
        BOARDS.workers = workers
    await BOARDS.start()
