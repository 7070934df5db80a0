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
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import render
from bot.thinking import _exit_with_parent
from cogs.pipe_workers import PipeWorkers, WorkerDied

log = logging.getLogger(__name__)

DRAWING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="board")
"""Threads for drawing when there are no worker processes (and for other slow work of the
cogs, such as rebuilding a replay): two, as Pillow encodes two PNGs at once without the GIL."""

WORKERS = 2
"""Worker processes of a bot that runs its AI in processes: two boards drawn at once."""
NICE = 10
"""How much lower than the bot the workers run (``os.nice``) when they cannot (or are not to)
run in the idle class, and the backup worker's."""
PRIORITY = "idle"
"""How the board workers yield the CPU to the bot: ``"idle"``, Linux's ``SCHED_IDLE`` class
(they run only on a CPU nothing else wants, and a waking bot takes the CPU from them at once;
``nice`` where the class is missing or not permitted), or ``"nice"`` (:data:`NICE`). At nice
+10 the kernel still lets a drawing worker finish its slice before the bot's click runs: on two
quiet cores another table's action took 1.7-1.9x its idle p95 while 75 boards a second were
drawn, against 1.1x in the idle class (``bench/host_load.py``, docs/boards.md)."""
LATE_S = 0.15
"""A board not back from an idle-class worker after this long is drawn by the backup worker too
(first answer wins): an idle-class worker gets no CPU while anything else wants it (the AI's
searches, other jobs on the host). A board takes 5-35 ms when the worker has a core."""
STARVING_S = 2.0
"""After a board that the backup drew first, boards go to the backup at once as well (first
answer wins) until the idle-class workers have been first for this long: while the host stays
busy they would only be late again."""


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
    """Worker start-up: exit with the bot, warm the sprite caches, then yield the CPU to the bot
    (warmed first, so a busy host cannot keep an idle-class worker from ever being ready)."""
    _exit_with_parent()
    render.warm_up()
    lower_priority(priority)


class BoardPool:
    """Draws public boards as PNG bytes without holding the event loop's GIL.

    ``workers`` > 0: that many worker processes (spawned and warmed by :meth:`start`) at the
    lower ``priority`` (see :data:`PRIORITY`), fed by the event loop over their own sockets
    (:mod:`cogs.pipe_workers`: no thread of the bot's process takes part). In the idle class
    they get one more worker at nice +10, the backup, which draws a board that is late
    (:data:`LATE_S`). ``workers`` = 0: the :data:`DRAWING` threads.

    A worker that dies fails the board it was drawing; it is drawn again (the dead worker is
    replaced), and if that fails too, on a thread. If no process can be started at all, boards
    are drawn on threads from then on.
    """

    def __init__(self, workers: int = 0, priority: str = PRIORITY) -> None:
        self.workers = max(workers, 0)
        self.priority = priority
        self._pool: PipeWorkers | None = None
        self._backup: PipeWorkers | None = None
        self._backup_first = -STARVING_S  # when the backup last answered first (event loop time)

    def _processes(self) -> PipeWorkers | None:
        if self.workers == 0:
            return None
        if self._pool is None:
            self._pool = PipeWorkers(self.workers, render.board_png, _start_worker, (self.priority,))
            if self.priority == "idle":
                self._backup = PipeWorkers(1, render.board_png, _start_worker, ("nice",))
        return self._pool

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none on threads), the backup's not included."""
        return self._pool.pids() if self._pool is not None else []

    def backup_pids(self) -> list[int]:
        """The backup worker's process id (none without one)."""
        return self._backup.pids() if self._backup is not None else []

    async def start(self) -> None:
        """Start the workers and warm them (or warm this process's caches on a thread), so the
        first board after start-up costs what the next ones do."""
        pool = self._processes()
        if pool is not None:
            try:
                await self._started(pool)
                return
            except OSError as exc:
                log.warning("board workers failed to start (%s): drawing on threads", exc)
                self.close()
                self.workers = 0
        await asyncio.get_running_loop().run_in_executor(DRAWING, render.warm_up)

    async def png(self, view: dict[str, Any], previous: dict[str, Any] | None = None) -> bytes | None:
        """The PNG of a public view (None if its game has no renderer), changes since
        ``previous`` marked; drawn in a worker process, or on a thread."""
        pool = self._processes()
        if pool is not None:
            for _attempt in range(2):
                try:
                    await self._started(pool)
                    return await self._drawn(pool, view, previous)
                except WorkerDied as exc:
                    log.warning("a board worker failed (%s); drawing the board again", exc)
                except OSError as exc:  # no worker process can be started here
                    log.warning("cannot start board workers (%s): drawing on threads", exc)
                    self.close()
                    self.workers = 0
                    break
        return await asyncio.get_running_loop().run_in_executor(DRAWING, render.board_png, view, previous)

    async def _started(self, pool: PipeWorkers) -> None:
        """The workers and the backup started for this event loop (at once when they are)."""
        if pool.ready and (self._backup is None or self._backup.ready):
            return
        await asyncio.gather(pool.start(), *([self._backup.start()] if self._backup else []))

    async def _drawn(
        self, pool: PipeWorkers, view: dict[str, Any], previous: dict[str, Any] | None
    ) -> bytes | None:
        """The board from ``pool``, or from the backup if it is first once the board is late (or
        at once, while the backup has lately been first)."""
        if self._backup is None:
            return await pool.call(view, previous)
        loop = asyncio.get_running_loop()
        drawing = asyncio.ensure_future(pool.call(view, previous))
        ways = {drawing}
        try:
            if loop.time() - self._backup_first > STARVING_S:
                done, _ = await asyncio.wait(ways, timeout=LATE_S)
                if done:
                    ways = set()
                    return drawing.result()
            backup = asyncio.ensure_future(self._backup.call(view, previous))
            ways.add(backup)
            while True:
                done, ways = await asyncio.wait(ways, return_when=asyncio.FIRST_COMPLETED)
                for way in done:
                    if way.exception() is None or not ways:
                        if way is backup and way.exception() is None:
                            self._backup_first = loop.time()
                        return way.result()
        finally:
            for way in ways:  # the slower way, or both if this board is no longer wanted
                way.cancel()

    def close(self) -> None:
        """Stop the workers (boards being drawn are abandoned)."""
        for pool in (self._pool, self._backup):
            if pool is not None:
                pool.close()
        self._pool = self._backup = None


BOARDS = BoardPool()
"""The process's board drawer; the bot sets its workers at start-up (:func:`start_boards`)."""


async def start_boards(workers: int) -> None:
    """Draw boards with ``workers`` worker processes (0: threads), started and warmed now."""
    if BOARDS.workers != workers:
        BOARDS.close()
        BOARDS.workers = workers
    await BOARDS.start()
