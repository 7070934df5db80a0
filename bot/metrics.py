"""The bot's counters, in Prometheus form (``/metrics``, see ``bot.health``) and in the periodic
status line: tiny calls and decorators that the rest of the code uses, one line each.

Everything lives in one registry of this module (not prometheus-client's global one), so that
several bots in one process (the tests) share it without clashing; counters only ever go up. The
registry also holds prometheus-client's standard collectors: the process (``process_*``: CPU, memory,
open files, start time), the platform (``python_info``) and the garbage collector (``python_gc_*``).
Gauges of the tables are labelled by shard and count only this process's shards, so that a sum over
every process of a sharded bot counts each table once.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, ParamSpec, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

P = ParamSpec("P")
R = TypeVar("R")

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

INTERACTIONS = Counter(
    "argo_interactions", "Interactions received, by kind (command, component, autocomplete, modal).",
    ["kind"], registry=REGISTRY,
)  # fmt: skip
ERRORS = Counter(
    "argo_errors", "Failures while answering, by kind (command, component, event).",
    ["kind"], registry=REGISTRY,
)  # fmt: skip
ACTIONS = Counter("argo_actions", "Game actions applied and saved, by game.", ["game"], registry=REGISTRY)
BOARD_SECONDS = Histogram(
    "argo_board_seconds",
    "Boards drawn, and the wall seconds each took (waiting for a drawing thread included).",
    buckets=(0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4), registry=REGISTRY,
)  # fmt: skip
AI_SECONDS = Histogram(
    "argo_ai_decision_seconds",
    "AI decisions made, and the wall seconds each took (waiting for a worker included).",
    buckets=(0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32), registry=REGISTRY,
)  # fmt: skip
AI_QUEUE = Gauge("argo_ai_queue_depth", "AI decisions asked for and not answered yet.", registry=REGISTRY)
OPEN_TABLES = Gauge(
    "argo_open_tables",
    "Tables in a lobby or playing, by the shard of their server (this process's shards only).",
    ["shard"], registry=REGISTRY,
)  # fmt: skip
OVERDUE = Gauge(
    "argo_overdue_deadlines",
    "Playing tables whose deadline passed more than 3 tending intervals ago, by shard (this process's).",
    ["shard"], registry=REGISTRY,
)  # fmt: skip
LAST_TICK = Gauge(
    "argo_tending_last_tick_timestamp_seconds", "When the tending loop last started a round (Unix time).",
    registry=REGISTRY,
)  # fmt: skip

_last_tick_monotonic: float | None = None


def interaction(kind: str) -> None:
    """Count one interaction of ``kind``."""
    INTERACTIONS.labels(kind).inc()


def error(kind: str) -> None:
    """Count one failure of ``kind`` (an interaction that could not be answered as meant)."""
    ERRORS.labels(kind).inc()


def tending_tick() -> None:
    """The tending loop starts a round (``/healthz`` checks it keeps doing so)."""
    global _last_tick_monotonic
    _last_tick_monotonic = time.monotonic()
    LAST_TICK.set(time.time())


def seconds_since_tick() -> float | None:
    """Seconds since the tending loop last ticked, None if it never did in this process."""
    return None if _last_tick_monotonic is None else time.monotonic() - _last_tick_monotonic


def counts_actions(apply: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Decorates the host's apply-and-save: each call that returns counts as one action of the
    game of the table it returns (``outcome.table.record.game``)."""

    @functools.wraps(apply)
    async def counted(*args: P.args, **kwargs: P.kwargs) -> R:
        outcome: Any = await apply(*args, **kwargs)
        ACTIONS.labels(outcome.table.record.game).inc()
        return outcome

    return counted


def times_boards(draw: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Decorates the board drawing: each picture drawn (not None) is counted with its seconds."""

    @functools.wraps(draw)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        start = time.perf_counter()
        picture = await draw(*args, **kwargs)
        if picture is not None:
            BOARD_SECONDS.observe(time.perf_counter() - start)
        return picture

    return timed


def times_decisions(choose: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Decorates the AI's decision: the queue depth while it waits or thinks, and once answered,
    one decision with its wall seconds."""

    @functools.wraps(choose)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        start = time.perf_counter()
        AI_QUEUE.inc()
        try:
            chosen = await choose(*args, **kwargs)
        finally:
            AI_QUEUE.dec()
        AI_SECONDS.observe(time.perf_counter() - start)
        return chosen

    return timed


class CountLoggedErrors(logging.Handler):
    """Counts ERROR records of discord.py's loggers as errors: a failing component callback
    (``discord.ui.view``) or event handler (``discord.client``) that nothing else counted."""

    KINDS: ClassVar[dict[str, str]] = {
        "discord.ui.view": "component",
        "discord.client": "event",
        "discord.app_commands.tree": "command",
    }

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        error(self.KINDS.get(record.name, "other"))

    @classmethod
    def install(cls) -> None:
        """Attach one counter to each of those loggers (once per process)."""
        for name in cls.KINDS:
            logger = logging.getLogger(name)
            if not any(isinstance(h, cls) for h in logger.handlers):
                logger.addHandler(cls())


def total(metric: Counter | Histogram) -> float:
    """The sum over every label of a counter, or the number of observations of a histogram."""
    wanted = "_count" if isinstance(metric, Histogram) else "_total"
    return sum(s.value for m in metric.collect() for s in m.samples if s.name.endswith(wanted))


def gauge(metric: Gauge) -> float:
    """A gauge's current value."""
    return sum(s.value for m in metric.collect() for s in m.samples)


def seconds_sum(metric: Histogram) -> float:
    """The summed seconds of a histogram's observations."""
    return sum(s.value for m in metric.collect() for s in m.samples if s.name.endswith("_sum"))


def exposition() -> bytes:
    """Every figure in Prometheus' text format."""
    return generate_latest(REGISTRY)
