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
    conn.send_bytes(pickle.dumps(os.getpid()))
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

    process: Any  # multiprocessing's SpawnProcess
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    pid: int = 0
    busy: bool = False  # a feeder is giving it calls


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
    """``count`` spawned worker processes running ``function``, each started with
    ``initializer(*initargs)``; :meth:`call` runs ``function(*args)`` on a free worker (calls
    wait their turn, first come first served) and returns its answer or raises its exception.

    A worker that dies fails the call it was answering with :class:`WorkerDied` and is replaced.
    The workers belong to the event loop that started them; called from another loop, the pool
    starts new ones there.
    """

    def __init__(
        self,
        count: int,
        function: Callable[..., Any],
        initializer: Callable[..., Any] | None = None,
        initargs: tuple[Any, ...] = (),
        start_timeout: float = 120.0,
    ) -> None:
        self.count = count
        self.function = function
        self.initializer = initializer
        self.initargs = initargs
        self.start_timeout = start_timeout
        self._workers: list[_Worker] = []
        self._waiting: deque[tuple[tuple[Any, ...], asyncio.Future[Any]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runners: set[asyncio.Task[None]] = set()
        self._starting: asyncio.Task[None] | None = None

    def pids(self) -> list[int]:
        """The process ids of the running workers."""
        return [worker.pid for worker in self._workers if worker.pid]

    @property
    def ready(self) -> bool:
        """Whether the workers have started for the running event loop."""
        starting = self._starting
        return (
            starting is not None
            and starting.done()
            and not starting.cancelled()
            and starting.exception() is None
            and self._loop is asyncio.get_running_loop()
        )

    async def start(self) -> None:
        """Spawn the workers and wait until each has run its initializer (raises ``OSError``,
        :class:`CannotStart` among them, if one cannot be started; then none is left running, and
        the next call tries again). Calls made meanwhile wait for the same start."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._starting is None:
            self.close()
            self._loop = loop
            self._starting = loop.create_task(self._start_all())
        await asyncio.shield(self._starting)

    async def _start_all(self) -> None:
        assert self._loop is not None
        spawned = await asyncio.gather(*(self._spawn() for _ in range(self.count)), return_exceptions=True)
        workers = [worker for worker in spawned if isinstance(worker, _Worker)]
        failed = [error for error in spawned if not isinstance(error, _Worker)]
        if failed:
            for worker in workers:
                self._stop(worker)
            self._loop = self._starting = None  # the next call tries again
            raise failed[0]
        self._workers = workers
        self._feed()

    async def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=_serve, args=(theirs, self.initializer, self.initargs, self.function), daemon=True
        )
        try:
            process.start()
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
        return worker

    def _feed(self) -> None:
        """Set every idle worker to the calls waiting. A worker's feeder lives only while calls
        wait: nothing of the pool waits on the loop while there is no work (which is also what
        lets a test harness tell when the bot is done)."""
        assert self._loop is not None
        for index, worker in enumerate(self._workers):
            if not self._waiting:
                return
            if not worker.busy:
                worker.busy = True
                runner = self._loop.create_task(self._run(index))
                self._runners.add(runner)
                runner.add_done_callback(self._runners.discard)

    async def _run(self, index: int) -> None:
        """Feed the waiting calls to worker ``index`` one at a time until none waits; replace
        the worker if it dies. A call whose caller gave up is still answered (and the answer
        dropped), so the next answer read is the next call's."""
        try:
            while self._waiting:
                args, future = self._waiting.popleft()
                if future.done():  # its caller gave up while it waited
                    continue
                worker = self._workers[index]
                try:
                    worker.writer.write(_frame(pickle.dumps(args, protocol=pickle.HIGHEST_PROTOCOL)))
                    ok, answer = pickle.loads(await _read_frame(worker.reader))
                except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
                    worker.pid = 0
                    if not future.done():
                        future.set_exception(WorkerDied(f"a worker died ({exc!r})"))
                    await self._replace(index)
                    continue
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
            if index < len(self._workers):
                self._workers[index].busy = False

    async def _replace(self, index: int) -> None:
        self._stop(self._workers[index])
        try:
            self._workers[index] = await self._spawn()
            self._workers[index].busy = True  # its feeder goes on with the calls waiting
        except OSError as exc:
            log.warning("cannot restart a worker (%s)", exc)
            self._workers[index].pid = 0
            await asyncio.sleep(1.0)  # try again at the next call, not in a tight loop

    async def call(self, *args: Any) -> Any:
        """``function(*args)`` on the next free worker (starting the workers if this loop has
        none yet)."""
        await self.start()
        assert self._loop is not None
        future: asyncio.Future[Any] = self._loop.create_future()
        self._waiting.append((args, future))
        self._feed()
        return await future

    @staticmethod
    def _stop(worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            worker.writer.close()
        with contextlib.suppress(Exception):
            worker.process.kill()
            worker.process.join(timeout=1)

    def close(self) -> None:
        """Stop the workers; calls still waiting or running fail with :class:`WorkerDied`."""
        starting, self._starting = self._starting, None
        for runner in [*self._runners, *([starting] if starting is not None else [])]:
            with contextlib.suppress(RuntimeError):  # its loop may be closed already
                runner.cancel()
        self._runners = set()
        while self._waiting:
            _args, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(WorkerDied("the workers were closed"))
        for worker in self._workers:
            self._stop(worker)
        self._workers = []
        self._loop = None
