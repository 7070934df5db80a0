"""Where the bot's worker processes (AI searches, board drawing) come from: one server process,
started with the bot, that imports and warms what every worker needs once (the engines, the AI,
the renderer and its sprite caches); each worker is forked from it when it is first needed, so it
starts warm in milliseconds and shares those pages with the server and the other workers
(copy-on-write) instead of building and holding its own copy.

This is multiprocessing's ``forkserver`` start method with :data:`PRELOAD` preloaded; where there
is none (Windows) workers are spawned and warm themselves as they start, as before. The server
ends with the bot (multiprocessing watches that), and each worker watches the bot itself
(:func:`bot.thinking._exit_with_parent`). Figures: README.md, docs/boards.md.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import multiprocessing
import multiprocessing.context
import multiprocessing.forkserver
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

PRELOAD = ("bot.worker_server",)
"""What the server imports as it starts (importing it warms the server: :func:`warm_server`)."""

_checked: set[int] = set()
"""The servers (process ids) seen answering, after their preload, by :func:`started`."""
_checking = threading.Lock()
_failed: str | None = None
"""Why the server could not be started in this process (its workers are then spawned)."""


def forking() -> bool:
    """True where workers are forked from the warm server; False where they are spawned (no
    forkserver on this system, or the server could not be started here)."""
    return _failed is None and "forkserver" in multiprocessing.get_all_start_methods()


def context() -> multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext:
    """The multiprocessing context to start every worker process from."""
    if not forking():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))
    return ctx


def server_pid() -> int | None:
    """The process id of the running server (None before it is started, or without one)."""
    if not forking():
        return None
    # multiprocessing keeps the server's pid on its private singleton only
    return multiprocessing.forkserver._forkserver._forkserver_pid  # type: ignore[attr-defined]


def bare(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in an empty context. For multiprocessing's calls that wait (starting a
    process polls the others, ``join`` waits): they read ``time.monotonic``, and a test harness
    that runs the bot on a virtual clock (SimCord) holds that clock still in the bot's own
    context, where a wait with a timeout would then never end."""
    return contextvars.Context().run(function, *args)


def _nothing() -> None:
    """A process that ends at once: starting it waits until the server has preloaded."""


def _check() -> None:
    """Start the server if it is not running, and wait until it has preloaded (blocks)."""
    with _checking:
        ctx = context()  # sets what the server preloads, before it is started
        multiprocessing.forkserver.ensure_running()
        pid = server_pid()
        if pid in _checked:
            return
        probe = ctx.Process(target=_nothing, daemon=True)
        bare(probe.start)  # answered by the server only once its preload is done
        bare(probe.join)
        _checked.add(pid or 0)


async def started() -> None:
    """Have the server running and warm (at once when it is; the first time, and after the
    server was replaced, it waits on a thread: starting a worker before that would block the
    event loop until the server is ready). If the server cannot be started (it needs a writable
    temporary folder for its socket: ``TMPDIR`` or ``/tmp``), that is logged once, and from then
    on this process spawns its workers, which warm themselves."""
    global _failed
    if not forking():
        return
    pid = server_pid()
    if pid is not None and pid in _checked:
        return
    try:
        await asyncio.get_running_loop().run_in_executor(None, bare, _check)
    except Exception as exc:
        if _failed is not None:  # said already
            return
        _failed = f"{type(exc).__name__}: {exc}"
        log.warning(
            "the worker server could not be started (%s): worker processes are spawned instead, "
            "each warming itself (slower to start, more memory)",
            _failed,
        )


def warm_server() -> None:
    """Do once, in the server, what each worker would do as it starts: import the engines and
    the AI and make one tiny decision per game (:func:`bot.thinking.warm`), build the
    renderer's palettes, fonts and sprites (:func:`render.warm_up`); then put everything that
    exists out of the cycle collector's reach (``gc.freeze``), so that a forked worker's
    collections never touch, and so copy, the server's pages. Failures are logged: a worker
    forked from a cold server warms itself."""
    from bot.thinking import warm

    warm()
    try:
        import render

        render.warm_up()
    except Exception:
        log.exception("warming the renderer in the worker server failed")
    gc.collect()
    gc.freeze()


def forked() -> bool:
    """True in a worker forked from the server (its parent is the server; a spawned worker's is
    the bot)."""
    parent = multiprocessing.parent_process()
    return parent is not None and os.getppid() != parent.pid


def preloaded() -> bool:
    """True in a worker forked from a server that has run its preload (a worker that finds it
    False warms itself, more slowly and with memory of its own)."""
    return all(name in sys.modules for name in PRELOAD)
