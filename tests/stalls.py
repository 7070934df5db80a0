"""Telling where a SimCord test waits when the bot stops settling: a dump of every asyncio task
(its whole chain of awaits, and whether SimCord counts it as parked) and of every thread's stack,
and a watchdog thread that writes that dump and stops the test when it makes no progress.

A stall shows in two ways. Either the event loop runs but some task of the bot never parks, so
SimCord's settle loop polls until its deadline (``TimeoutError: bot did not settle``): the test
catches it and dumps from the loop. Or the loop itself is blocked (a synchronous wait, a lock held
by a thread): nothing can time out in the loop, so a watchdog thread notices that the test made
no progress for too long, dumps what it can from outside, and ends the test (cancelling it, or
ending the process if the loop does not even run that).
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import linecache
import os
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

STALLED: list[str] = []
"""What stalled in this test process (see :func:`exit_if_stuck`)."""


def exit_if_stuck(status: int, after: float = 60.0) -> None:
    """After a stall (anything in :data:`STALLED`), end this process ``after`` seconds from now
    with ``status`` (at least 1), printing every thread first. A stalled bot can leave a thread
    that never ends (a search on a clock that does not move, a blocked read), and Python waits for
    such threads at exit: without this, the test run would report its failure and then hang."""
    if not STALLED:
        return

    def end() -> None:
        time.sleep(after)
        sys.__stderr__.write(f"\nthe process did not exit {after:.0f} s after a stall; ending it\n")
        faulthandler.dump_traceback(file=sys.__stderr__, all_threads=True)
        os._exit(status or 1)

    threading.Thread(target=end, name="exit-after-stall", daemon=True).start()


def _frame_line(frame: FrameType) -> str:
    code = frame.f_code
    line = linecache.getline(code.co_filename, frame.f_lineno).strip()
    return f'  File "{code.co_filename}", line {frame.f_lineno}, in {code.co_name}\n    {line}'


def await_chain(coro: Any) -> list[str]:
    """The frames of a coroutine and of everything it awaits, outermost first, then what the
    innermost one waits on (a future, a task)."""
    lines: list[str] = []
    seen: set[int] = set()
    while coro is not None and id(coro) not in seen:
        seen.add(id(coro))
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        frame = frame or getattr(coro, "ag_frame", None)
        if frame is not None:
            lines.append(_frame_line(frame))
        awaited = getattr(coro, "cr_await", None)
        if awaited is None:
            awaited = getattr(coro, "gi_yieldfrom", None)
        if awaited is None:
            break
        if hasattr(awaited, "cr_frame") or hasattr(awaited, "gi_frame"):
            coro = awaited
            continue
        lines.append(f"    awaits {_short(awaited)}")
        break
    return lines


def _short(value: Any, limit: int = 300) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a repr that fails is no reason to lose the dump
        text = f"<{type(value).__name__}: repr failed: {exc!r}>"
    return text if len(text) <= limit else text[:limit] + "…"


def task_dump(loop: asyncio.AbstractEventLoop, env: Any = None) -> str:
    """Every task of ``loop``: name, what SimCord thinks of it (bot-owned or not, and if the bot
    owns it, why it counts as parked or that it does not), its await chain and its waiter.
    Meant to run on the loop's thread; from another thread it is best effort."""
    for _ in range(5):  # all_tasks may meet a task being created on another thread
        try:
            tasks = list(asyncio.all_tasks(loop))
            break
        except RuntimeError:
            time.sleep(0.01)
    else:
        return "(could not list the tasks)\n"
    work = getattr(env, "_work", None)
    owned = getattr(work, "tasks", {}) if work is not None else {}
    out = [f"{len(tasks)} asyncio tasks:"]
    state = None
    if env is not None:
        with contextlib.suppress(Exception):
            state = env._settlement_state()
    for task in sorted(tasks, key=lambda t: (t not in owned, t.get_name())):
        record = owned.get(task)
        head = f"\n- {task.get_name()}"
        if record is not None:
            head += f" [bot-owned, generation {record.generation}: {record.label}]"
            if state is not None:
                with contextlib.suppress(Exception):
                    from simcord import _settlement

                    # the deadline of a settle that would start now
                    deadline = _real_now() + float(getattr(env, "settle_timeout", 0.0))
                    reason = _settlement._park_reason(state, task, deadline)
                    head += f" parked: {reason}" if reason else " NOT PARKED (settle waits for it)"
        out.append(head)
        out.append(f"  waiter: {_short(getattr(task, '_fut_waiter', None))}")
        out.extend(await_chain(task.get_coro()))
    if work is not None:
        executors = list(getattr(work, "executors", {}).values())
        if executors:
            out.append(f"\n{len(executors)} executor calls SimCord waits for:")
            for record in executors:
                out.append(f"- {record.label}: {record.state}")
        callbacks = list(getattr(work, "callbacks", []))
        if callbacks:
            out.append(f"\n{len(callbacks)} bot-owned callbacks/timers:")
            for record in callbacks:
                real = record.real_handle
                fallback = f", real fallback at {real.when():.2f}" if real is not None else ""
                out.append(f"- {record.label}: virtual when={record.when}{fallback}")
        out.append(f"\nvirtual time: {env._virtual_time:.2f} s, real monotonic: {_real_now():.2f}")
    return "\n".join(out) + "\n"


def _real_now() -> float:
    with contextlib.suppress(Exception):
        from simcord import _dpy_internals

        return _dpy_internals.real_monotonic()
    return time.monotonic()


def thread_dump() -> str:
    """Every thread's current stack."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    out = []
    for ident, frame in sys._current_frames().items():
        out.append(f"\nthread {names.get(ident, '?')} ({ident}):")
        out.append("".join(traceback.format_stack(frame)).rstrip())
    return "\n".join(out) + "\n"


def process_dump() -> str:
    """The child processes of this process (AI and board workers) and their states."""
    out = []
    with contextlib.suppress(Exception):
        children = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()
        for pid in children:
            with contextlib.suppress(Exception):
                stat = Path(f"/proc/{pid}/stat").read_text()
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120]
                fields = stat[stat.rindex(")") + 2 :].split()
                out.append(f"- {pid} state {fields[0]} utime {fields[11]} stime {fields[12]}: {cmd}")
    return ("child processes:\n" + "\n".join(out) + "\n") if out else ""


def full_dump(loop: asyncio.AbstractEventLoop, env: Any = None, why: str = "") -> str:
    """Everything :func:`task_dump`, :func:`thread_dump` and :func:`process_dump` say; records
    the stall in :data:`STALLED`."""
    STALLED.append(why)
    return (
        f"=== stall: {why}\n"
        + task_dump(loop, env)
        + "\n=== threads"
        + thread_dump()
        + "\n=== "
        + process_dump()
    )


class Watchdog:
    """Ends a test that makes no progress for ``limit`` seconds of real time (call :meth:`beat`
    at each step), and one that runs longer than ``total`` seconds in all.

    It writes the dump (tasks, threads, processes) to ``path`` and to the real stderr, then
    cancels the test's task; :meth:`check` (called by the test when it sees that cancellation)
    turns it into a failure with the dump. If the event loop does not even run the dump within
    ``grace`` seconds it is blocked: the dump is taken from outside, and the process ends (exit
    status 3) after ``faulthandler`` printed every thread."""

    def __init__(
        self, env: Any, limit: float, total: float, path: Path, grace: float = 30.0
    ) -> None:
        self.env = env
        self.limit = limit
        self.total = total
        self.path = path
        self.grace = grace
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.started = self.last = time.perf_counter()
        self.step = "start"
        self.dump: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="soak-watchdog", daemon=True)

    def beat(self, step: str) -> None:
        """The test made progress (it is now at ``step``)."""
        self.last = time.perf_counter()
        self.step = step

    def _watch(self) -> None:
        while not self._stop.wait(1.0):
            now = time.perf_counter()
            if now - self.last > self.limit:
                why = f"no progress for {now - self.last:.0f} s at {self.step}"
            elif now - self.started > self.total:
                why = f"the test ran over {self.total:.0f} s (at {self.step})"
            else:
                continue
            self._fire(why)
            return

    def _fire(self, why: str) -> None:
        taken = threading.Event()
        holder: list[str] = []

        def in_loop() -> None:
            holder.append(full_dump(self.loop, self.env, why))
            taken.set()

        self.loop.call_soon_threadsafe(in_loop)
        if not taken.wait(self.grace):  # the loop is blocked: dump from outside and end
            text = full_dump(self.loop, self.env, why + " (the event loop is blocked)")
            self._write(text)
            faulthandler.dump_traceback(file=sys.__stderr__, all_threads=True)
            os._exit(3)
        self.dump = holder[0]
        self._write(self.dump)
        if self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)

    def _write(self, text: str) -> None:
        with contextlib.suppress(Exception):
            self.path.write_text(text)
        with contextlib.suppress(Exception):
            sys.__stderr__.write(f"\n{text}\n(written to {self.path})\n")
            sys.__stderr__.flush()

    def check(self) -> None:
        """Fail with the dump if the watchdog fired (call it where the test sees a cancellation)."""
        if self.dump is not None:
            raise AssertionError(f"the test stalled; where it waited:\n{self.dump}")

    @contextlib.contextmanager
    def running(self) -> Iterator[Watchdog]:
        self._thread.start()
        try:
            yield self
        except asyncio.CancelledError:
            self.check()
            raise
        finally:
            self._stop.set()
