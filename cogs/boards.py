"""Drawing board pictures off the event loop: a small pool of worker processes, forked warm from
the bot's worker server when boards need them, or threads of this process when there are no
workers (tests, tiny hosts).

Drawing is CPU-bound Python and Pillow; on a thread it holds the GIL the event loop needs, so
every other table's click waits while a board is drawn (issue 25). In a worker process it
cannot: the loop only hands over the public view and gets the PNG bytes back. Workers run at a
lower priority than the bot (a board may wait a few milliseconds, a click should not), start with
their sprite caches warm (:mod:`bot.workers`), end when they have drawn nothing for a while, and
exit as soon as the bot that started them is gone.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import render
from bot import workers as workers_server
from bot.thinking import _exit_with_parent
from cogs.pipe_workers import PipeWorkers, WorkerDied

log = logging.getLogger(__name__)

DRAWING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="board")
"""Threads for drawing when there are no worker processes (and for other slow work of the
cogs, such as rebuilding a replay): two, as Pillow encodes two PNGs at once without the GIL."""

WORKERS = 2
"""Most worker processes of a bot that runs its AI in processes: two boards drawn at once (the
second is started only when a board arrives while the first is drawing)."""
IDLE_S = 300.0
"""A board worker that has drawn nothing for this long ends (the next board forks a new one, warm,
in milliseconds; only the cached bands of the tables it drew are lost)."""
NICE = 10
"""How much lower than the bot the workers run (``os.nice``) when they cannot (or are not to)
run in the idle class."""
PRIORITY = "idle"
"""How the board workers yield the CPU to the bot: ``"idle"``, Linux's ``SCHED_IDLE`` class
(they run only on a CPU nothing else wants, and a waking bot takes the CPU from them at once;
``nice`` where the class is missing or not permitted), or ``"nice"`` (:data:`NICE`). At nice
+10 the kernel still lets a drawing worker finish its slice before the bot's click runs: on two
quiet cores another table's action took 1.7-1.9x its idle p95 while 75 boards a second were
drawn, against 1.1x in the idle class (``bench/host_load.py``, docs/boards.md)."""
BACKUP_PRIORITY = "normal"
"""The backup worker's priority: ``"normal"``, the bot's own, so that a board a person waits for
gets its fair share of a busy host's CPU, as a board drawn on the bot's thread did (at nice +10
it got about a tenth of a core against two AI searches: board p95 4-17x that of threads,
docs/boards.md); or ``"nice"`` (:data:`NICE`)."""
LATE_S = 0.15
"""A board not back from an idle-class worker after this long is drawn by the backup worker too
(first answer wins): an idle-class worker gets no CPU while anything else wants it (other jobs on
the host). A board takes 5-35 ms when the worker has a core."""
STARVING_S = 2.0
"""After a board that the backup drew first, boards go to the backup at once as well (first
answer wins) until the idle-class workers have been first for this long: while the host stays
busy they would only be late again."""


def lower_priority(priority: str = PRIORITY) -> str:
    """Lower this process's CPU priority below the bot's (``"normal"`` leaves it at the bot's);
    returns what was done ("idle", "nice", or "" if nothing was asked or permitted)."""
    if priority == "normal":
        return ""
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
    """Worker start-up: exit with the bot, warm the sprite caches (nothing to do in a worker
    forked from the warm server), then yield the CPU to the bot (warmed first, so a busy host
    cannot keep an idle-class worker from ever being ready)."""
    _exit_with_parent()
    if workers_server.forked() and not workers_server.preloaded():
        log.warning("a board worker was forked from a worker server that did not preload; warming it here")
    render.warm_up()
    lower_priority(priority)


class BoardPool:
    """Draws public boards as PNG bytes without holding the event loop's GIL.

    ``workers`` > 0: up to that many worker processes at the lower ``priority`` (see
    :data:`PRIORITY`), forked warm from the worker server when boards need them (a second only
    while the first is busy) and ended after :data:`IDLE_S` without a board, fed by the event loop
    over their own sockets (:mod:`cogs.pipe_workers`: no thread of the bot's process takes part).
    In the idle class they get one more worker at ``backup`` priority (:data:`BACKUP_PRIORITY`),
    started when first needed, which draws a board that is late (:data:`LATE_S`), and every
    board at once while :attr:`hurry` says so (the bot's AI is searching: an idle-class worker
    gets no CPU then). ``workers`` = 0: the :data:`DRAWING` threads.

    A worker that dies fails the board it was drawing; it is drawn again (by a new worker), and
    if that fails too, on a thread. If no process can be started at all, boards are drawn on
    threads from then on.
    """

    def __init__(
        self,
        workers: int = 0,
        priority: str = PRIORITY,
        backup: str = BACKUP_PRIORITY,
        idle_s: float | None = IDLE_S,
    ) -> None:
        self.workers = max(workers, 0)
        self.priority = priority
        self.backup = backup
        self.idle_s = idle_s
        self.hurry: Callable[[], bool] = lambda: False
        """While this is true, boards go to the backup at once as well (the bot sets it to "the
        AI is searching")."""
        self._pool: PipeWorkers | None = None
        self._backup: PipeWorkers | None = None
        self._backup_first = -STARVING_S  # when the backup last answered first (event loop time)

    def _processes(self) -> PipeWorkers | None:
        if self.workers == 0:
            return None
        if self._pool is None:
            self._pool = PipeWorkers(
                self.workers, render.board_png, _start_worker, (self.priority,), idle_s=self.idle_s
            )
            if self.priority == "idle":
                self._backup = PipeWorkers(
                    1, render.board_png, _start_worker, (self.backup,), idle_s=self.idle_s
                )
        return self._pool

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (none on threads), the backup's not included."""
        return self._pool.pids() if self._pool is not None else []

    def backup_pids(self) -> list[int]:
        """The backup worker's process id (none without one, or before it was needed)."""
        return self._backup.pids() if self._backup is not None else []

    async def start(self, *, workers: bool = False) -> None:
        """Get ready to draw: with worker processes, have the worker server running and warm (the
        workers are forked from it when boards need them, so the first board costs a fork, not
        a warm-up; ``workers``: start every worker and the backup now as well, as benches do);
        without, warm this process's caches on a thread."""
        pool = self._processes()
        if pool is not None:
            try:
                await workers_server.started()
                if workers:
                    await asyncio.gather(pool.start(), *([self._backup.start()] if self._backup else []))
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
                    return await self._drawn(pool, view, previous)
                except WorkerDied as exc:
                    log.warning("a board worker failed (%s); drawing the board again", exc)
                except OSError as exc:  # no worker process can be started here
                    log.warning("cannot start board workers (%s): drawing on threads", exc)
                    self.close()
                    self.workers = 0
                    break
        return await asyncio.get_running_loop().run_in_executor(DRAWING, render.board_png, view, previous)

    async def _drawn(
        self, pool: PipeWorkers, view: dict[str, Any], previous: dict[str, Any] | None
    ) -> bytes | None:
        """The board from ``pool``, or from the backup if it is first once the board is late (or
        at once, while the backup has lately been first or :attr:`hurry` holds)."""
        if self._backup is None:
            return await pool.call(view, previous)
        loop = asyncio.get_running_loop()
        drawing = asyncio.ensure_future(pool.call(view, previous))
        ways = {drawing}
        try:
            if loop.time() - self._backup_first > STARVING_S and not self.hurry():
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
    """Draw boards with up to ``workers`` worker processes (0: threads), and get ready to draw
    (:meth:`BoardPool.start`)."""
    if BOARDS.workers != workers:
        BOARDS.close()
        BOARDS.workers = workers
    await BOARDS.start()
