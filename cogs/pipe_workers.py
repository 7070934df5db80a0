"""Worker processes that each answer one call at a time over their own socket, read and written
by the event loop itself.

``concurrent.futures.ProcessPoolExecutor`` hands every call through two threads of the caller's
process (a queue feeder that pickles and writes, a manager that reads and wakes the loop); each
hand-over takes the GIL from the event loop, and at 75 boards a second they cost the bot about
0.6 ms of CPU a board. Here the loop writes a call to a free worker's socket and reads the answer
when the socket is readable: no thread of the bot's process is involved, and a board costs the
bot about 0.3 ms (issue 25, docs/boards.md).

A frame is a 4-byte big-endian length and a pickle (``multiprocessing.connection``'s format, so a
worker reads and writes with ``Connection.recv_bytes``/``send_bytes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import pickle
import socket
import struct
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import workers as workers_server

log = logging.getLogger(__name__)

_HEADER = struct.Struct("!i")
_LONG = struct.Struct("!Q")


class WorkerDied(RuntimeError):
    """A worker process ended (killed, crashed) before it answered a call."""


class CannotStart(OSError):
    """A worker process could not be started, or ended before it was ready (no Python to
    spawn, an initializer that fails): the host cannot run these workers."""


def _serve(
    conn: multiprocessing.connection.Connection,
    initializer: Callable[..., Any] | None,
    initargs: tuple[Any, ...],
    function: Callable[..., Any],
) -> None:
    """A worker's life: start up, say it is ready, then answer calls until the bot goes away."""
    if initializer is not None:
        initializer(*initargs)
    try:
        conn.send_bytes(pickle.dumps(os.getpid()))
    except OSError:  # the bot gave up on this worker (or ended) while it started: nothing to do
        return
    while True:
        try:
            args = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):  # the bot closed the socket or is gone
            return
        try:
            answer: tuple[bool, Any] = (True, function(*args))
        except Exception as exc:
            answer = (False, exc)
        try:
            payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an answer or an exception that cannot be pickled
            payload = pickle.dumps((False, RuntimeError(f"unpicklable answer: {exc!r}")))
        try:
            conn.send_bytes(payload)
        except OSError:
            return


@dataclass
class _Worker:
    """One worker process and the loop's ends of its socket."""

    process: Any  # multiprocessing's process object (forked from the worker server, or spawned)
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    pid: int = 0
    busy: bool = False  # a feeder is giving it calls
    used: float = 0.0  # when it last finished answering (event loop time)


async def _read_frame(reader: asyncio.StreamReader) -> bytes:
    (size,) = _HEADER.unpack(await reader.readexactly(_HEADER.size))
    if size == -1:
        (size,) = _LONG.unpack(await reader.readexactly(_LONG.size))
    return await reader.readexactly(size)


def _frame(payload: bytes) -> bytes:
    if len(payload) > 0x7FFFFFFF:
        return _HEADER.pack(-1) + _LONG.pack(len(payload)) + payload
    return _HEADER.pack(len(payload)) + payload


class PipeWorkers:
    """Up to ``count`` worker processes running ``function``, each started with
    ``initializer(*initargs)``; :meth:`call` runs ``function(*args)`` on a free worker (calls
    wait their turn, first come first served) and returns its answer or raises its exception.

    Workers are started when calls need them: a call that finds every worker busy starts one
    more, up to ``count`` (forked from the bot's warm worker server, :mod:`bot.workers`, so in
    milliseconds); with ``idle_s`` set, a worker that has answered nothing for that long is
    stopped. Calls go to the first free worker in the order the workers were started, so under a
    light load one worker answers most of them and the others end.

    A worker that dies fails the call it was answering with :class:`WorkerDied` and is dropped;
    the next call that needs a worker starts a new one. The workers belong to the event loop that
    started them; called from another loop, the pool starts new ones there.
    """

    def __init__(
        self,
        count: int,
        function: Callable[..., Any],
        initializer: Callable[..., Any] | None = None,
        initargs: tuple[Any, ...] = (),
        start_timeout: float = 120.0,
        idle_s: float | None = None,
    ) -> None:
        self.count = count
        self.function = function
        self.initializer = initializer
        self.initargs = initargs
        self.start_timeout = start_timeout
        self.idle_s = idle_s
        self.started = 0
        """How many worker processes this pool has started (and seen ready)."""
        self._workers: list[_Worker] = []
        self._starting = 0  # workers being started for the calls waiting
        self._waiting: deque[tuple[tuple[Any, ...], asyncio.Future[Any]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # feeders and workers being started
        self._reaper: asyncio.TimerHandle | None = None

    def pids(self) -> list[int]:
        """The process ids of the running workers."""
        return [worker.pid for worker in self._workers if worker.pid]

    def _bind(self) -> asyncio.AbstractEventLoop:
        """The running loop, the pool's own from now on (its workers from another are stopped)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self.close()
            self._loop = loop
        return loop

    async def start(self, count: int | None = None) -> None:
        """Start workers until ``count`` (default: all ``count`` of the pool) run, and wait until
        each has run its initializer (raises ``OSError``, :class:`CannotStart` among them, if one
        cannot be started; then none of those is left running)."""
        loop = self._bind()
        want = self.count if count is None else min(count, self.count)
        missing = want - len(self._workers) - self._starting
        if missing <= 0:
            return
        self._starting += missing
        try:
            spawned = await asyncio.gather(*(self._spawn() for _ in range(missing)), return_exceptions=True)
        finally:
            self._starting -= missing
        workers = [worker for worker in spawned if isinstance(worker, _Worker)]
        failed = [error for error in spawned if not isinstance(error, _Worker)]
        if failed or self._loop is not loop:
            for worker in workers:
                self._stop(worker)
            if failed:
                raise failed[0]
            return
        self._workers.extend(workers)
        self._feed()

    async def _spawn(self) -> _Worker:
        await workers_server.started()  # then starting a process takes milliseconds
        context = workers_server.context()
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=_serve, args=(theirs, self.initializer, self.initargs, self.function), daemon=True
        )
        try:
            # on a thread: multiprocessing polls its other children as it starts one
            await asyncio.get_running_loop().run_in_executor(None, workers_server.bare, process.start)
        finally:
            theirs.close()
        sock = socket.socket(fileno=os.dup(ours.fileno()))
        ours.close()
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        worker = _Worker(process, reader, writer)
        try:
            frame = await asyncio.wait_for(_read_frame(reader), self.start_timeout)
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError) as exc:
            self._stop(worker)
            raise CannotStart(f"a worker did not start ({exc!r})") from None
        worker.pid = pickle.loads(frame)
        worker.used = asyncio.get_running_loop().time()
        self.started += 1
        return worker

    def _task(self, coroutine: Any) -> None:
        assert self._loop is not None
        task = self._loop.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _feed(self) -> None:
        """Set every idle worker to the calls waiting, and start one more worker for each call
        still waiting that no worker being started will take (up to ``count``). A worker's
        feeder lives only while calls wait: nothing of the pool waits on the loop while there is
        no work (which is also what lets a test harness tell when the bot is done)."""
        if self._loop is None:
            return
        taken = 0  # calls that the workers set going here will take (they are still waiting)
        for worker in self._workers:
            if taken >= len(self._waiting):
                return
            if not worker.busy:
                worker.busy = True
                taken += 1
                self._task(self._run(worker))
        more = min(
            len(self._waiting) - taken - self._starting, self.count - len(self._workers) - self._starting
        )
        for _ in range(max(more, 0)):
            self._starting += 1
            self._task(self._grow())

    async def _grow(self) -> None:
        """Start one more worker for the calls waiting. If none can be started and no worker is
        left to answer them, they fail with the reason."""
        loop = self._loop
        try:
            worker = await self._spawn()
        except OSError as exc:
            self._starting -= 1
            if self._workers or self._starting:
                log.warning("cannot start one more worker (%s)", exc)
                return
            while self._waiting:
                _args, future = self._waiting.popleft()
                if not future.done():
                    future.set_exception(CannotStart(str(exc)))
            return
        except BaseException:
            self._starting -= 1
            raise
        self._starting -= 1
        if self._loop is not loop:  # closed meanwhile
            self._stop(worker)
            return
        self._workers.append(worker)
        self._feed()

    async def _run(self, worker: _Worker) -> None:
        """Feed the waiting calls to ``worker`` one at a time until none waits; drop the worker
        if it dies. A call whose caller gave up is still answered (and the answer dropped), so
        the next answer read is the next call's."""
        try:
            while self._waiting:
                args, future = self._waiting.popleft()
                if future.done():  # its caller gave up while it waited
                    continue
                try:
                    worker.writer.write(_frame(pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)))
                    ok, answer = pickle.loads(await _read_frame(worker.reader))
                except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
                    if not future.done():
                        future.set_exception(WorkerDied(f"a worker died ({exc!r})"))
                    self._drop(worker)
                    return
                except asyncio.CancelledError:
                    if not future.done():
                        future.set_exception(WorkerDied("the workers were closed"))
                    raise
                if future.done():  # its caller gave up while it was answered
                    continue
                if ok:
                    future.set_result(answer)
                else:
                    future.set_exception(answer)
        finally:
            worker.busy = False
            if self._loop is not None and worker in self._workers:
                worker.used = self._loop.time()
                self._reap_later()
            self._feed()  # calls left by a worker that died get another

    def _drop(self, worker: _Worker) -> None:
        """Stop ``worker`` and forget it."""
        worker.pid = 0
        self._stop(worker)
        if worker in self._workers:
            self._workers.remove(worker)

    def _reap_later(self) -> None:
        if self.idle_s is None or self._reaper is not None or self._loop is None:
            return
        idle = [worker.used for worker in self._workers if not worker.busy]
        if idle:
            delay = max(min(idle) + self.idle_s - self._loop.time(), 0.0)
            self._reaper = self._loop.call_later(delay, self._reap)

    def _reap(self) -> None:
        """Stop the workers that have answered nothing for ``idle_s``."""
        self._reaper = None
        if self._loop is None or self.idle_s is None:
            return
        now = self._loop.time()
        for worker in [w for w in self._workers if not w.busy and now - w.used >= self.idle_s]:
            self._drop(worker)
        self._reap_later()

    async def call(self, *args: Any) -> Any:
        """``function(*args)`` on the next free worker (starting one if every worker is busy and
        there may be more)."""
        loop = self._bind()
        future: asyncio.Future[Any] = loop.create_future()
        self._waiting.append((args, future))
        self._feed()
        return await future

    @staticmethod
    def _stop(worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            worker.writer.close()
        with contextlib.suppress(Exception):
            worker.process.kill()
            workers_server.bare(worker.process.join, 1)

    def close(self) -> None:
        """Stop the workers; calls still waiting or running fail with :class:`WorkerDied`."""
        if self._reaper is not None:
            self._reaper.cancel()
            self._reaper = None
        tasks, self._tasks = self._tasks, set()
        self._loop = None
        for task in tasks:
            with contextlib.suppress(RuntimeError):  # its loop may be closed already
                task.cancel()
        while self._waiting:
            _args, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(WorkerDied("the workers were closed"))
        for worker in self._workers:
            self._stop(worker)
        self._workers = []
