"""Is the bot alive, is it ready? ``/livez``, ``/readyz`` (``/healthz`` is the same) and
``/metrics`` over HTTP (with ``METRICS_PORT`` set), and one status line in the log every 10 minutes
with the same key figures.

``/livez`` (liveness) answers 200 while the process and its event loop run: the answer itself is
the proof (a blocked loop answers nothing, and the prober gives up), with the loop's lag.
``/readyz`` (readiness) answers 200 while the Discord gateway is connected (or has been
disconnected or reconnecting for less than :data:`GATEWAY_GRACE`), the database answered the last
background check and the tending loop ticked within 3 of its intervals; else 503, saying which is
wrong. Probes and scrapes never query the database: a background refresh asks it every
:data:`REFRESH_SECONDS` for its figures (open tables and overdue deadlines, by shard) and whether it
answers, within :data:`DATABASE_TIMEOUT` however the database behaves (one check at a time, which is
left to finish on its own when it is late: cancelling a call to a frozen server can itself wait on
the server); requests read what it found.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web
from discord.ext import tasks
from prometheus_client import CONTENT_TYPE_LATEST

from bot import metrics

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

STATUS_SECONDS = 600.0
"""How often the status line is logged (read when the bot starts)."""

DATABASE_TIMEOUT = 3.0
"""Seconds the database may take to answer a health check: the answer (a 503 then) must reach a
prober that gives up after 4 s (the Docker image's HEALTHCHECK) or 5 s (compose, Fly.io)."""

TICKS_MISSED = 3
"""Tending intervals without a tick before the bot counts as unhealthy; also background refresh
intervals without a database check (see :data:`REFRESH_SECONDS`)."""

REFRESH_SECONDS = 10.0
"""How often the background refresh asks the database for the figures that probes and scrapes
read (read when the bot starts; only while ``/readyz`` and ``/metrics`` are served: without them
the status line asks for itself every 10 minutes)."""

GATEWAY_GRACE = 30.0
"""Seconds the Discord gateway may be disconnected or reconnecting (or still connecting after the
start) before the bot counts as not ready: a resume after a dropped connection takes a few."""


class GatewayWatch:
    """Whether the bot's gateway connections are up, and since when one is down: told by the
    gateway's own events (a disconnect, then a connect, ready or resume) and by looking at the
    websockets themselves (``is_ready()`` stays true across a closed websocket). Keys: a shard id,
    None for an unsharded bot's one connection, and :data:`START` until the first READY."""

    START = "start"

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._told_down: dict[int | str | None, float] = {}
        self._seen_closed: dict[int | None, float] = {}

    def listen(self) -> None:
        """Follow the gateway's connection events from now on (down since now until the first
        READY, if it has not come yet)."""
        if not self.bot.is_ready():
            self._told_down[self.START] = time.monotonic()
        for event in ("disconnect", "connect", "ready", "resumed"):
            self.bot.add_listener(self._unsharded(event != "disconnect"), f"on_{event}")
            self.bot.add_listener(self._sharded(event != "disconnect"), f"on_shard_{event}")

    def _unsharded(self, up: bool) -> Callable[[], Coroutine[Any, Any, None]]:
        async def told() -> None:
            if isinstance(self.bot, discord.AutoShardedClient):
                return  # each shard says it itself (below)
            if up:
                self._told_down.pop(None, None)
            else:
                self._told_down.setdefault(None, time.monotonic())

        return told

    def _sharded(self, up: bool) -> Callable[[int], Coroutine[Any, Any, None]]:
        async def told(shard_id: int) -> None:
            if up:
                self._told_down.pop(shard_id, None)
            else:
                self._told_down.setdefault(shard_id, time.monotonic())

        return told

    def _closed_sockets(self) -> set[int | None]:
        """The connections whose websocket is closed now."""
        bot = self.bot
        if isinstance(bot, discord.AutoShardedClient):
            return {shard_id for shard_id, info in bot.shards.items() if info.is_closed()}
        ws = bot.ws
        return {None} if ws is None or not ws.open else set()

    def down_for(self) -> float | None:
        """Seconds the longest-down connection has been down (or the start has waited for the
        first READY); None while every connection is up."""
        now = time.monotonic()
        if self.bot.is_ready():
            self._told_down.pop(self.START, None)
            closed = self._closed_sockets()
        else:
            closed = set()  # not connected yet: START says since when
        for key in [k for k in self._seen_closed if k not in closed]:
            del self._seen_closed[key]
        for key in closed:
            self._seen_closed.setdefault(key, now)
        since = [*self._told_down.values(), *self._seen_closed.values()]
        return now - min(since) if since else None


@dataclass(frozen=True)
class DatabaseFigures:
    """What the last background check found in the database, by shard of this process."""

    open_tables: dict[int, int] | None
    """Tables in a lobby or playing, by shard (None: the check failed)."""
    overdue: dict[int, int] | None
    """Playing tables whose deadline passed more than 3 tending intervals ago, by shard."""
    error: str | None
    """Why the database did not answer (None: it did)."""
    at: float
    """When the check ended (``time.monotonic()``)."""


@dataclass(frozen=True)
class Figures:
    """One look at the bot: its health and its key figures (the database's from the last check)."""

    gateway: str
    """``connected``, ``connecting`` (before the first READY), ``reconnecting`` or ``closed``."""
    gateway_down: float | None
    """Seconds the gateway has been disconnected, reconnecting or connecting (None: connected)."""
    latency_ms: float | None
    database_error: str | None
    tick_age: float | None
    open_tables: int | None
    overdue: int | None
    checked_age: float | None = None
    """Seconds since the database was last checked (None: never)."""

    def problems(self, interval: float, running_for: float, refresh: float = REFRESH_SECONDS) -> list[str]:
        """Why the bot is not ready (empty: ready). Before the first tick the tending loop gets
        ``TICKS_MISSED`` intervals from the start; the database check may be ``TICKS_MISSED``
        refresh intervals (plus its own time limit) old."""
        found = []
        if self.gateway == "closed":
            found.append("the Discord gateway is closed")
        elif self.gateway_down is not None and self.gateway_down > GATEWAY_GRACE:
            waited = f"for {self.gateway_down:.0f} s (grace {GATEWAY_GRACE:.0f} s)"
            if self.gateway == "connecting":
                found.append(f"the Discord gateway has not connected {waited}")
            else:
                found.append(f"the Discord gateway has been disconnected {waited}")
        stale = TICKS_MISSED * refresh + DATABASE_TIMEOUT
        if self.database_error is not None:
            found.append(f"the database does not answer: {self.database_error}")
        elif self.checked_age is not None and self.checked_age > stale:
            found.append(f"the database was last checked {self.checked_age:.0f} s ago (limit {stale:.0f} s)")
        limit = TICKS_MISSED * interval
        if self.tick_age is None and running_for > limit:
            found.append(f"the tending loop has not ticked in {running_for:.0f} s (limit {limit:.0f} s)")
        elif self.tick_age is not None and self.tick_age > limit:
            found.append(f"the tending loop last ticked {self.tick_age:.0f} s ago (limit {limit:.0f} s)")
        return found


class Health:
    """The bot's health server, its background refresh and its status line (started in
    ``setup_hook``, stopped on close)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._started = time.monotonic()
        self._last: dict[str, float] = {}
        self.gateway = GatewayWatch(bot)
        self._check: asyncio.Task[tuple[dict[int, int], dict[int, int]]] | None = None
        self._check_started = 0.0
        self.database: DatabaseFigures | None = None
        """The last background check's findings (None: none yet)."""
        self._refresh_seconds = REFRESH_SECONDS

    async def start(self) -> None:
        """Count interactions and logged errors, start the status line, and serve HTTP (with the
        background refresh of the database's figures) if ``METRICS_PORT`` is set."""
        self._started = time.monotonic()
        metrics.CountLoggedErrors.install()
        metrics.OPEN_TABLES.clear()  # another bot of this process (tests) may have had other shards
        metrics.OVERDUE.clear()
        self.bot.add_listener(self._on_interaction, "on_interaction")
        self.gateway.listen()
        self.status_loop.change_interval(seconds=STATUS_SECONDS)
        self.status_loop.start()
        port = self.bot.settings.metrics_port
        if port is None:
            return
        await self.refresh()  # the first probe reads a real answer
        self._refresh_seconds = REFRESH_SECONDS
        self.refresh_loop.change_interval(seconds=self._refresh_seconds)
        self.refresh_loop.start()
        app = web.Application()
        app.router.add_get("/livez", self._livez)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/healthz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.bot.settings.metrics_host, port)
        await site.start()
        self.port = port
        log.info("serving /livez, /readyz (and /healthz) and /metrics on port %d", port)

    async def stop(self) -> None:
        """Stop serving, refreshing and logging."""
        self.status_loop.cancel()
        self.refresh_loop.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _on_interaction(self, interaction: discord.Interaction) -> None:
        metrics.interaction(interaction.type.name)

    def shards(self) -> tuple[int, tuple[int, ...]]:
        """``(shard_count, this process's shards)``; an unsharded bot is shard 0 of 1."""
        return self.bot.settings.shards or (1, (0,))

    async def refresh(self) -> None:
        """Check the database once (within :data:`DATABASE_TIMEOUT`, whatever it does), keep what
        it said for the probes and the status line, and set the per-shard gauges."""
        if self.bot.host is None:
            return
        open_tables = overdue = None
        error = None
        try:
            open_tables, overdue = await self._database()
        except TimeoutError:
            error = f"no answer within {DATABASE_TIMEOUT:.0f} s"
        except Exception as exc:  # any failure of the database is the answer here
            error = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        self.database = DatabaseFigures(open_tables, overdue, error, time.monotonic())
        for gauge, counts in ((metrics.OPEN_TABLES, open_tables), (metrics.OVERDUE, overdue)):
            for shard, count in (counts or {}).items():  # kept as they were when the check failed
                gauge.labels(str(shard)).set(count)

    @tasks.loop(seconds=REFRESH_SECONDS)
    async def refresh_loop(self) -> None:
        """Refresh the database's figures every :data:`REFRESH_SECONDS` (the first at start)."""
        if self.refresh_loop.current_loop == 0:
            return  # start() has just refreshed
        try:
            await self.refresh()
        except Exception:  # the refresh must go on; /readyz says when its figures grow old
            log.warning("could not refresh the health figures", exc_info=True)

    def figures(self) -> Figures:
        """Look at the gateway and the tending loop now, and at the database as last checked
        (never a database query)."""
        bot = self.bot
        down = self.gateway.down_for()
        if bot.is_closed():
            gateway = "closed"
        elif not bot.is_ready():
            gateway = "connecting"
        else:
            gateway = "connected" if down is None else "reconnecting"
        latency = bot.latency * 1000 if gateway == "connected" and math.isfinite(bot.latency) else None
        checked = self.database
        if bot.host is None:
            database_error: str | None = "not opened yet"
        elif checked is None:
            database_error = "not checked yet"
        else:
            database_error = checked.error
        open_tables = _sum(checked.open_tables) if checked is not None else None
        overdue = _sum(checked.overdue) if checked is not None else None
        age = time.monotonic() - checked.at if checked is not None else None
        return Figures(
            gateway, down, latency, database_error, metrics.seconds_since_tick(), open_tables, overdue, age
        )

    async def _database(self) -> tuple[dict[int, int], dict[int, int]]:
        """``(open tables, overdue tables)`` by shard from the database, or TimeoutError once
        :data:`DATABASE_TIMEOUT` has passed since the check began. One check runs at a time: a
        refresh that comes while one runs waits for it (at most what is left of its time); a late
        check is left to end by itself (the store's own timeout ends it), never cancelled, since
        cancelling a call to a frozen server can wait on the server."""
        loop = asyncio.get_running_loop()
        if self._check is None or self._check.done():
            self._check = asyncio.ensure_future(self._ask_database())
            self._check.add_done_callback(_retrieve)
            self._check_started = loop.time()
        check = self._check
        left = DATABASE_TIMEOUT - (loop.time() - self._check_started)
        done, _ = await asyncio.wait({check}, timeout=max(0.0, left))
        if not done:
            raise TimeoutError()
        return check.result()

    async def _ask_database(self) -> tuple[dict[int, int], dict[int, int]]:
        """Open and overdue tables of each of this process's shards (a table's shard is
        ``(guild_id >> 22) % shard_count``, 0 without a guild, as the store and Discord count)."""
        host = self.bot.host
        count, mine = self.shards()
        rows = await host.store.sql(
            "SELECT COALESCE((guild_id >> 22) % ?, 0), COUNT(*) FROM tables "
            "WHERE status IN ('lobby', 'playing') GROUP BY 1",
            (count,),
        )
        open_tables = dict.fromkeys(mine, 0)
        for shard, tables in rows:
            if int(shard) in open_tables:
                open_tables[int(shard)] = int(tables)
        late = host.now() - timedelta(seconds=TICKS_MISSED * self.bot.settings.scheduler_seconds)
        overdue = dict.fromkeys(mine, 0)
        for record in await host.due():
            shard = ((record.guild_id or 0) >> 22) % count
            if record.deadline is not None and record.deadline < late and shard in overdue:
                overdue[shard] += 1
        return open_tables, overdue

    def check(self) -> tuple[bool, str]:
        """``(ready, one line saying why)`` from the figures as they stand."""
        figures = self.figures()
        running_for = time.monotonic() - self._started
        problems = figures.problems(self.bot.settings.scheduler_seconds, running_for, self._refresh_seconds)
        if problems:
            return False, "unhealthy: " + "; ".join(problems)
        tick = "not yet" if figures.tick_age is None else f"{figures.tick_age:.0f} s ago"
        return True, f"ok: gateway {figures.gateway}, database answers, tending ticked {tick}"

    async def loop_lag(self) -> float:
        """Seconds a callback waits for the event loop now (the work queued before it)."""
        loop = asyncio.get_running_loop()
        begun = loop.time()
        turn: asyncio.Future[None] = loop.create_future()
        loop.call_soon(turn.set_result, None)
        await turn
        return loop.time() - begun

    async def _livez(self, request: web.Request) -> web.Response:
        lag = await self.loop_lag()
        up = time.monotonic() - self._started
        return web.Response(text=f"alive: up {up:.0f} s, event loop lag {lag * 1000:.0f} ms\n")

    async def _readyz(self, request: web.Request) -> web.Response:
        ready, line = self.check()
        return web.Response(status=200 if ready else 503, text=line + "\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def status_line(self) -> str:
        """The key figures, those that count things since the previous status line (the database's
        from the background refresh while it runs, else asked for now)."""
        if not self.refresh_loop.is_running():
            await self.refresh()
        figures = self.figures()
        now = {
            "interactions": metrics.total(metrics.INTERACTIONS),
            "errors": metrics.total(metrics.ERRORS),
            "actions": metrics.total(metrics.ACTIONS),
            "boards": metrics.total(metrics.BOARD_SECONDS),
            "board_s": metrics.seconds_sum(metrics.BOARD_SECONDS),
            "ai": metrics.total(metrics.AI_SECONDS),
            "ai_s": metrics.seconds_sum(metrics.AI_SECONDS),
        }
        d = {k: v - self._last.get(k, 0.0) for k, v in now.items()}
        self._last = now
        latency = f" ({figures.latency_ms:.0f} ms)" if figures.latency_ms is not None else ""
        tick = "never" if figures.tick_age is None else f"{figures.tick_age:.0f} s ago"
        database = "ok" if figures.database_error is None else f"failing ({figures.database_error})"
        return (
            f"status: gateway {figures.gateway}{latency}, database {database}; "
            f"{_count(figures.open_tables)} open tables, {_count(figures.overdue)} overdue; "
            f"tending ticked {tick}; since the last status: {d['interactions']:.0f} interactions, "
            f"{d['errors']:.0f} errors, {d['actions']:.0f} actions, "
            f"{d['boards']:.0f} boards (avg {_avg(d['board_s'], d['boards'])}), "
            f"{d['ai']:.0f} AI decisions (avg {_avg(d['ai_s'], d['ai'])}); "
            f"AI queue {metrics.gauge(metrics.AI_QUEUE):.0f}"
        )

    @tasks.loop(seconds=STATUS_SECONDS)
    async def status_loop(self) -> None:
        """Log the status line every :data:`STATUS_SECONDS` (not at start).

        A ``tasks.loop``, like the tending loop, not a loop around ``asyncio.sleep``: SimCord
        counts a plain sleep as work in progress once less than its settle timeout is left of it,
        so every test action in the last minutes of a 10-minute sleep waited for it to end in real
        time, and the virtual clock jumped when it did (docs/testing-stalls.md)."""
        if self.status_loop.current_loop == 0:
            return
        try:
            log.info("%s", await self.status_line())
        except Exception:  # a status line must never stop the bot
            log.warning("could not write the status line", exc_info=True)


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Mark a finished check's error as seen (whoever waited for it has answered already)."""
    if not task.cancelled():
        task.exception()


def _sum(counts: dict[int, int] | None) -> int | None:
    return None if counts is None else sum(counts.values())


def _count(value: int | None) -> str:
    return "?" if value is None else str(value)


def _avg(seconds: float, count: float) -> str:
    return f"{seconds / count:.2f} s" if count else "-"
