"""PostgreSQL persistence (asyncpg): the same tables, log, guarantees and calls as the SQLite store.

It is the shared store of a deployment with several processes: every write is one transaction
checked against the revision it was read at, one open table per channel is a partial unique index,
the event log is append-only (a trigger refuses UPDATE, DELETE and TRUNCATE), and
:meth:`PostgresStore.table_lock` holds a database lock per channel's table across processes while
an action is applied. An action costs three statements: taking the lock (which answers the
table's stored revision), the save (update, log row and seat view in one statement) and the
unlock; a returned connection is not reset with a query (the store leaves no session state).
JSON columns are kept as text, exactly as SQLite keeps them, so that a migrated database has
byte-identical rows (see ``bot.migrate``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Sequence
from datetime import datetime
from typing import Any, TypeVar

import asyncpg

from bot import answering
from bot.store import forgetting, writes
from bot.store.reads import TableReads, reads_only
from bot.store.records import (
    DEFAULT_TIMEOUT,
    LOBBY,
    META_REWRITES,
    LogEntry,
    StoreConflict,
    StoreError,
    TableRecord,
)
from bot.store.urls import redact
from bot.store.writes import TableWrites
from bot.table_meta import TableMeta

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATIONS: list[str] = [
    # 1: tables and their action log
    """
    CREATE TABLE tables (
        id          BIGSERIAL PRIMARY KEY,
        guild_id    BIGINT,
        channel_id  BIGINT NOT NULL,
        game        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
        host_id     TEXT NOT NULL,
        seats       TEXT NOT NULL,
        options     TEXT NOT NULL,
        seed        BIGINT NOT NULL,
        state       TEXT,
        version     INTEGER NOT NULL,
        message_id  BIGINT,
        deadline    TIMESTAMPTZ,
        created_at  TIMESTAMPTZ NOT NULL,
        updated_at  TIMESTAMPTZ NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_by_deadline ON tables (deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE events (
        table_id    BIGINT NOT NULL REFERENCES tables (id),
        seq         INTEGER NOT NULL,
        channel_id  BIGINT NOT NULL,
        actor       TEXT NOT NULL,
        action      TEXT NOT NULL,
        summary     TEXT NOT NULL DEFAULT '',
        at          TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$;
    CREATE TRIGGER events_append_only_change BEFORE UPDATE OR DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION events_append_only();
    CREATE TRIGGER events_append_only_truncate BEFORE TRUNCATE ON events
        FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
    """,
    # 2: finding a channel's tables without scanning every table
    """
    CREATE INDEX tables_by_channel ON tables (channel_id, id);
    """,
    # 3: the async table: host bookkeeping, who is awaited, a write counter, turns in the log
    """
    ALTER TABLE tables ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE tables ADD COLUMN awaiting TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE events ADD COLUMN turn INTEGER;
    CREATE INDEX tables_by_status ON tables (status, guild_id);
    """,
    # 4: each seat's board after its last decision (two slots: this turn's, an earlier turn's)
    """
    CREATE TABLE seat_views (
        table_id     BIGINT NOT NULL REFERENCES tables (id),
        seat         TEXT NOT NULL,
        latest_turn  INTEGER,
        latest       TEXT NOT NULL,
        prior_turn   INTEGER,
        prior        TEXT,
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 5: the version each table's channel message shows (a message older than its table is posted again)
    """
    ALTER TABLE tables ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET shown_version = version;
    CREATE INDEX tables_unshown ON tables (updated_at) WHERE shown_version < version;
    """,
    # 6: what each person asked for across tables (quiet hours)
    """
    CREATE TABLE people (
        user_id  TEXT PRIMARY KEY,
        prefs    TEXT NOT NULL
    );
    """,
    # 7: small facts the bot keeps between starts (the hash of the synced command tree)
    """
    CREATE TABLE bot_state (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    );
    """,
    # 8: the archive (bot/archive): finished tables' results, per table and per seat, and each
    # server's rating ladder per game; all derived from tables and events, rebuildable
    """
    CREATE TABLE results (
        table_id     BIGINT PRIMARY KEY REFERENCES tables (id),
        guild_id     BIGINT NOT NULL,
        game         TEXT NOT NULL,
        finished_at  TEXT NOT NULL,
        data         TEXT NOT NULL
    );
    CREATE INDEX results_by_ladder ON results (guild_id, game, finished_at, table_id);
    CREATE TABLE result_seats (
        table_id     BIGINT NOT NULL REFERENCES tables (id),
        seat         TEXT NOT NULL,
        guild_id     BIGINT NOT NULL,
        game         TEXT NOT NULL,
        player       TEXT NOT NULL,
        place        INTEGER NOT NULL,
        winner       INTEGER NOT NULL,
        finished_at  TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_seats_by_player ON result_seats (guild_id, player, finished_at);
    CREATE TABLE ladders (
        guild_id     BIGINT NOT NULL,
        game         TEXT NOT NULL,
        applied      INTEGER NOT NULL,
        data         TEXT NOT NULL,
        PRIMARY KEY (guild_id, game)
    );
    """,
    # 9: every table's meta in the typed shape of bot.table_meta (the rewrite is in Python: META_REWRITES)
    """
    SELECT 1;
    """,
]
"""The same steps as ``bot.store.sqlite.MIGRATIONS``, in PostgreSQL's dialect."""

MIGRATION_LOCK = (0x41524730, 1)
"""The advisory lock (two-int key space, apart from the channels' one-bigint keys) that makes
processes starting together migrate one after the other."""

_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, seats, options, seed, state, version, "
    "message_id, deadline, created_at, updated_at, meta, awaiting, rev, shown_version"
)

_HELD: contextvars.ContextVar[tuple[PostgresStore, asyncpg.Connection, asyncio.Task[Any] | None] | None] = (
    contextvars.ContextVar("held_table_lock", default=None)
)
"""The connection holding a table lock, so that the task holding it runs its queries on it."""

_PLACEHOLDER = re.compile(r"'[^']*'|\?")


def _dollars(query: str) -> str:
    """SQLite-style ``?`` placeholders (outside quotes) as PostgreSQL's ``$1, $2, …``."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, query)


def _record(row: asyncpg.Record | tuple[Any, ...]) -> TableRecord:
    return TableRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        game=row[3],
        status=row[4],
        host_id=row[5],
        seats=tuple(json.loads(row[6])),
        options=json.loads(row[7]),
        seed=row[8],
        state=json.loads(row[9]) if row[9] is not None else None,
        version=row[10],
        message_id=row[11],
        deadline=row[12],
        created_at=row[13],
        updated_at=row[14],
        meta=TableMeta.loads(row[15]),
        awaiting=tuple(json.loads(row[16])),
        rev=row[17],
        shown_version=row[18],
    )


UNREACHABLE = (OSError, asyncio.TimeoutError, asyncpg.CannotConnectNowError, asyncpg.TooManyConnectionsError)
"""Errors of a server that cannot be reached now (exit status 1); other failures are status 2."""

FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)
"""What the driver raises when a call fails: the server's errors (a statement timeout, a restart:
CannotConnectNowError), a connection lost or closed (ConnectionDoesNotExistError,
InterfaceError), a refused connection (OSError, ConnectionError) and a client-side timeout
(TimeoutError, an OSError too). Every store call turns them into a one-line StoreError."""

MIGRATION_TIMEOUT = 600.0
"""Seconds a schema migration step may take (building an index over a large table)."""


def _client_timeout(timeout: float) -> float:
    """How long the client waits for the server: a little longer than the server's own statement
    timeout, so that a live server answers with its own error and only a frozen one times out here."""
    return timeout + max(1.0, timeout / 2)


def _one_line(exc: BaseException | None, timeout: float | None) -> str:
    if isinstance(exc, TimeoutError) and not str(exc):
        within = f" within {_client_timeout(timeout):g} s" if timeout is not None else " in time"
        return f"the database did not answer{within}"
    return " ".join(str(exc).split()) or type(exc).__name__


class _OneLineReconnects(logging.Filter):
    """asyncpg's pool logs a whole traceback each time it fails to reconnect its idle connection
    during an outage (with a growing pause); the error's one line says as much."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.levelno <= logging.WARNING:
            record.msg = f"{record.getMessage()}: {_one_line(record.exc_info[1], None)}"
            record.args, record.exc_info, record.exc_text = None, None, None
        return True


logging.getLogger("asyncpg.pool").addFilter(_OneLineReconnects())


def _open_error(url: str, exc: BaseException) -> StoreError:
    """A one-line StoreError; ``exit_status`` 1 if the server cannot be reached, 2 if the URL,
    the credentials, the database or its schema are not usable."""
    where = redact(url)
    if isinstance(exc, StoreError):
        error = StoreError(f"Database {where}: {exc}")
        error.exit_status = 2
        return error
    text = " ".join((str(exc) or type(exc).__name__).split())
    if isinstance(exc, UNREACHABLE):
        error = StoreError(f"Database {where} cannot be reached: {text}")
        error.exit_status = 1
        return error
    error = StoreError(f"Database {where} cannot be used: {text}")
    error.exit_status = 2
    return error


async def _migrate(conn: asyncpg.Connection) -> None:
    """Apply the missing migrations (one transaction each) and prove the database is writable."""
    # Migrating (or waiting for another process to) may take longer than a statement may.
    await conn.execute("SET statement_timeout = 0")  # reset below
    await conn.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT)
    try:
        async with conn.transaction():
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT MAX(version) FROM schema_version")
            if current is None:
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                current = 0
        if current > len(MIGRATIONS):
            raise StoreError(
                f"the database was written by a newer version of the bot (schema {current}, "
                f"this one knows {len(MIGRATIONS)})"
            )
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with conn.transaction():
                await conn.execute(script, timeout=MIGRATION_TIMEOUT)
                if number in META_REWRITES:
                    rewrite = META_REWRITES[number]
                    for table_id, meta in await conn.fetch(
                        "SELECT id, meta FROM tables", timeout=MIGRATION_TIMEOUT
                    ):
                        new = rewrite(meta)
                        if new is not None:
                            await conn.execute("UPDATE tables SET meta = $1 WHERE id = $2", new, table_id)
                await conn.execute("UPDATE schema_version SET version = $1", number)
        # Prove the database can be written now rather than at the first player's move.
        async with conn.transaction():
            await conn.execute("UPDATE schema_version SET version = $1", len(MIGRATIONS))
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)
        await conn.execute("RESET statement_timeout")


def _save_statement(seat_view: bool) -> str:
    """A save as one statement: the conditional update, then (only if it updated the row) the log
    row and the seat's board; its answer is how many rows it updated (1, or 0 if the row moved on)."""
    keep = ""
    if seat_view:
        row = "SELECT id, ?::text, ?::integer, ?::text, NULL::integer, NULL::text FROM saved"
        keep = f", viewed AS ({writes.KEEP_SEAT_VIEW.format(values=row)})"
    return _dollars(
        f"WITH saved AS ({writes.SAVE} RETURNING id), logged AS ({writes.LOG} SELECT ?::bigint, ?::integer, "
        f"?::bigint, ?::text, ?::text, ?::text, ?::timestamptz, ?::integer FROM saved){keep} "
        "SELECT count(*) FROM saved"
    )


_SAVE = _save_statement(seat_view=False)
_SAVE_WITH_SEAT_VIEW = _save_statement(seat_view=True)

_LOCK = (
    "WITH held AS MATERIALIZED (SELECT 1 AS ok FROM pg_advisory_lock($1)) "
    "SELECT t.id, t.rev, t.message_id FROM held CROSS JOIN LATERAL ("
    "SELECT id, rev, message_id FROM tables WHERE channel_id = $1 AND held.ok = 1 "
    "AND status IN ('lobby', 'playing') FOR SHARE) AS t"
)
"""Take the channel's lock, then read its open table's revision: one statement. The lateral
subquery depends on the lock's row, so it runs once the lock is held; its snapshot is older
(taken when the statement began to wait), but FOR SHARE reads the newest committed version of the
row, the one the previous holder wrote (a newer table of the channel, inserted meanwhile, is not
seen: the host then reloads the channel's table, as for any change)."""

_UNLOCK = "SELECT pg_advisory_unlock($1)"


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset of a returned connection: nothing to send. The store leaves no session
    state behind (a table lock is released by :meth:`PostgresStore.table_lock` itself, or its
    connection closed), and asyncpg rolls back an unfinished transaction before this is called."""


def _on_shards(
    query: str, params: tuple[Any, ...], shards: tuple[int, tuple[int, ...]] | None
) -> tuple[str, tuple[Any, ...]]:
    """``query`` narrowed to the tables of these shards ``(shard_count, shard_ids)``: whose guild
    is on one of them (``(guild_id >> 22) % shard_count``; a table without a guild is on shard 0)."""
    if shards is None:
        return query, params
    return query + " AND COALESCE((guild_id >> 22) % ?, 0) = ANY(?::bigint[])", (
        *params,
        shards[0],
        list(shards[1]),
    )


class PostgresStore(TableReads, TableWrites):
    """The bot's PostgreSQL database: open with :meth:`open`, close with :meth:`close`."""

    shared = True
    """Several processes may use this store at once (the host then checks its cached games)."""

    def __init__(self, pool: asyncpg.Pool, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._pool = pool
        self.url = redact(url)
        self.timeout = timeout
        """Seconds a statement may take on the server; the client waits a little longer."""
        self._closed = False

    # -- opening and closing ------------------------------------------------------------------

    @classmethod
    async def open(
        cls, url: str, *, read_only: bool = False, pool_size: int = 10, timeout: float = DEFAULT_TIMEOUT
    ) -> PostgresStore:
        """Connect to ``url`` (``postgresql://…``), migrate and check the database for writing.

        Raises StoreError (one line, no password; ``exit_status`` 1 if the server cannot be
        reached, 2 for a bad URL, credentials, database or schema) and leaves no connection open.
        ``read_only`` makes the sessions read-only, which fails the writing check (for tests).
        ``timeout``: seconds a statement may take (the server's ``statement_timeout``; a frozen
        server is given up a little later by the client, when connecting, querying or locking).
        """
        settings = {"statement_timeout": str(round(timeout * 1000))}
        if read_only:
            settings["default_transaction_read_only"] = "on"
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=_client_timeout(timeout),
                command_timeout=_client_timeout(timeout),
                server_settings=settings,
                reset=_keep_session,
            )
        except asyncpg.ClientConfigurationError as exc:
            raise _open_error(url, exc) from None
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, *UNREACHABLE) as exc:
            raise _open_error(url, exc) from None
        try:
            async with pool.acquire(timeout=_client_timeout(timeout)) as conn:
                await _migrate(conn)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, StoreError, *UNREACHABLE) as exc:
            await pool.close()
            raise _open_error(url, exc) from None
        except BaseException:
            pool.terminate()
            raise
        return cls(pool, url, timeout)

    async def close(self) -> None:
        """Close every connection of the pool."""
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.wait_for(self._pool.close(), _client_timeout(self.timeout))
        except TimeoutError:
            self._pool.terminate()

    def _failure(self, exc: BaseException, doing: str) -> StoreError:
        """The one-line StoreError of a driver or connection failure while ``doing`` something."""
        return StoreError(f"{doing}: {_one_line(exc, self.timeout)}")

    def _held(self) -> asyncpg.Connection | None:
        """The connection of the table lock the current task holds, if any."""
        held = _HELD.get()
        if held is not None and held[0] is self and held[2] is asyncio.current_task():
            return held[1]
        return None

    async def _roundtrip(
        self, fn: Callable[[asyncpg.Connection], Awaitable[T]], held: asyncpg.Connection | None
    ) -> T:
        """``fn`` on ``held`` (the connection of the table lock the caller holds), else on a
        connection of the pool, kept until ``fn`` ends (what waits when the server is slow)."""
        if held is not None:
            return await fn(held)
        async with self._pool.acquire(timeout=_client_timeout(self.timeout)) as conn:
            return await fn(conn)

    @contextlib.asynccontextmanager
    async def table_lock(self, channel_id: int) -> AsyncIterator[tuple[int, int, int | None] | None]:
        """Hold the database lock of the channel's table (a session advisory lock keyed by the
        channel id: one open table per channel, so it also covers opening one) until the block
        ends. Other processes wait for it; the holding task's queries run on its connection.
        Yields ``(id, rev, message_id)`` of the channel's open table as stored once the lock was
        taken (None if it has none): how the host tells whether its cached copy is still current."""
        if self._closed:
            raise StoreError("the database is closed")
        held = _HELD.get()
        if held is not None and held[0] is self and held[2] is asyncio.current_task():
            raise RuntimeError("table locks do not nest")
        doing = f"could not lock the table of channel {channel_id}"
        try:
            conn = await answering.change(self._pool.acquire(timeout=_client_timeout(self.timeout)))
        except FAILURES as exc:
            raise self._failure(exc, doing) from exc
        unlocked = False
        try:
            try:
                row = await answering.change(self._roundtrip(lambda c: c.fetchrow(_LOCK, channel_id), conn))
            except FAILURES as exc:
                raise self._failure(exc, doing) from exc
            token = _HELD.set((self, conn, asyncio.current_task()))
            try:
                yield (row[0], row[1], row[2]) if row is not None else None
            finally:
                _HELD.reset(token)
                try:
                    await self._roundtrip(lambda c: c.execute(_UNLOCK, channel_id), conn)
                    unlocked = True
                except FAILURES as exc:
                    log.warning(
                        "could not unlock the table of channel %s: %s",
                        channel_id,
                        _one_line(exc, self.timeout),
                    )
        finally:
            if not unlocked:
                # The lock may be held (an error or a cancellation while locking or unlocking):
                # the server releases it when the session ends.
                conn.terminate()
            try:
                await self._pool.release(conn)
            except FAILURES as exc:  # the pool has dropped the connection, and the server its lock
                log.warning(
                    "could not return the connection of channel %s: %s",
                    channel_id,
                    _one_line(exc, self.timeout),
                )

    async def _run(
        self,
        fn: Callable[[asyncpg.Connection], Awaitable[T]],
        doing: str = "could not read the database",
        level: int = logging.WARNING,
    ) -> T:
        """Run ``fn`` on a connection; a database failure is logged and becomes a one-line
        StoreError saying what could not be done. ``level`` ERROR marks a change (see
        ``bot.answering``: for an interaction waiting for its answer, a read is given up in time,
        a change is not; nor is anything done while holding a table's lock)."""
        if self._closed:
            raise StoreError("the database is closed")
        held = self._held()
        try:
            if level >= logging.ERROR or held is not None:
                return await answering.change(self._roundtrip(fn, held))
            return await answering.read(self._roundtrip(fn, held))
        except FAILURES as exc:
            error = self._failure(exc, doing)
            log.log(level, "%s", error)
            raise error from exc

    async def _write(self, body: Callable[[asyncpg.Connection], Awaitable[T]], what: str) -> T:
        """Run ``body`` as one transaction; a database failure becomes a one-line StoreError."""

        async def transaction(conn: asyncpg.Connection) -> T:
            async with conn.transaction():
                return await body(conn)

        return await self._run(transaction, f"could not save {what}", logging.ERROR)

    async def _change(self, query: str, params: tuple[Any, ...], what: str) -> int:
        sql = _dollars(query)  # one statement: a transaction of its own
        status = await self._run(
            lambda conn: conn.execute(sql, *params), f"could not save {what}", logging.ERROR
        )
        return int(status.rsplit(" ", 1)[1])

    @staticmethod
    def _time(value: datetime | None) -> datetime | None:
        return value

    async def sql(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one SQL statement outside the store's API and return its rows (tests, tools).
        ``?`` placeholders are accepted as in SQLite."""
        level = logging.WARNING if reads_only(query) else logging.ERROR
        rows = await self._run(lambda conn: conn.fetch(_dollars(query), *params), level=level)
        return [tuple(r) for r in rows]

    async def schema_version(self) -> int:
        """The applied migration count (the ``schema_version`` table)."""
        rows = await self.sql("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    # -- writing ------------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: str,
        options: dict[str, Any],
        seed: int,
        now: datetime,
        seats: tuple[str, ...] | None = None,
        meta: TableMeta | None = None,
    ) -> TableRecord:
        """A new lobby (seats: the host alone unless given); StoreConflict if the channel has one."""

        async def body(conn: asyncpg.Connection) -> TableRecord:
            try:
                row = await conn.fetchrow(
                    "INSERT INTO tables (guild_id, channel_id, game, status, host_id, seats, "
                    "options, seed, state, version, created_at, updated_at, meta) "
                    f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, 1, $9, $9, $10) RETURNING {_COLUMNS}",
                    guild_id,
                    channel_id,
                    game,
                    LOBBY,
                    host_id,
                    json.dumps(list(seats or (host_id,))),
                    json.dumps(options),
                    seed,
                    now,
                    (meta or TableMeta()).dumps(),
                )
            except asyncpg.UniqueViolationError as exc:
                raise StoreConflict("This channel already has an open table.") from exc
            await conn.execute(
                "INSERT INTO events (table_id, seq, channel_id, actor, action, summary, at) "
                "VALUES ($1, 1, $2, $3, $4, '', $5)",
                row[0],
                channel_id,
                host_id,
                json.dumps(writes.opening(game, options)),
                now,
            )
            return _record(row)

        return await self._write(body, "the new table")

    async def save(
        self,
        record: TableRecord,
        *,
        actor: str,
        action: dict[str, Any],
        summary: str,
        now: datetime,
        turn: int | None = None,
        seat_view: tuple[str, int | None, dict[str, Any]] | None = None,
    ) -> TableRecord:
        """Store ``record`` as the next version and log ``action``, in one transaction.

        ``record.rev`` is the revision it was read at; StoreConflict if the row moved on,
        StoreError if the database could not be written (nothing was saved then). ``turn`` is the
        game turn the action was taken in, kept with the log row. ``seat_view`` is
        ``(seat, turn, public view)`` after a seat's decision (see :meth:`previous_view`). The
        message id is not written here (see :meth:`set_message`).
        """
        params = writes.save_params(record, self._time, now)
        params += writes.log_params(
            record, self._time, actor=actor, action=action, summary=summary, now=now, turn=turn
        )
        query = _SAVE
        if seat_view is not None:
            seat, seat_turn, view = seat_view
            params += (seat, seat_turn, json.dumps(view))
            query = _SAVE_WITH_SEAT_VIEW
        # One statement, so one transaction of its own: no BEGIN and COMMIT round trips.
        saved = await self._run(
            lambda conn: conn.fetchval(query, *params), f"could not save table #{record.id}", logging.ERROR
        )
        if saved != 1:
            raise writes.conflict(record)
        return record.evolve(version=record.version + 1, rev=record.rev + 1, updated_at=now)

    async def forget_person(self, user_id: str, pseudonym: str) -> int:
        """Delete the person's settings and rewrite every finished or abandoned table, its log and
        its seats' boards, the archive's results and ladders so that they no longer name
        ``user_id`` (``/game forget-me``, see ``bot.store.forgetting``), in one transaction; how
        many tables were changed."""
        return await self._forget(forgetting.forgetting(user_id, pseudonym), "the forgetting of a person")

    async def forget_in_tables(
        self, user_id: str, pseudonym: str, table_ids: Sequence[int], hosts: dict[int, str] | None = None
    ) -> None:
        """Rewrite the tables ``table_ids`` (open ones: the caller holds their locks) so that they
        no longer name ``user_id``, in one transaction (``hosts``: a new host where they hosted)."""
        await self._forget(
            forgetting.steps(user_id, pseudonym, table_ids, hosts), "the forgetting of a person"
        )

    async def _forget(self, steps: Generator[forgetting.Step, list[tuple[Any, ...]], T], what: str) -> T:
        async def body(conn: asyncpg.Connection) -> T:
            # Lifted for this transaction only (ALTER TABLE is transactional and locks the log).
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_append_only_change")
            try:
                step = next(steps)
                while True:
                    query, params = step
                    rows = await conn.fetch(_dollars(query), *params)
                    step = steps.send([tuple(r) for r in rows])
            except StopIteration as stop:
                result: T = stop.value
            await conn.execute("ALTER TABLE events ENABLE TRIGGER events_append_only_change")
            return result

        return await self._write(body, what)

    # -- reading ------------------------------------------------------------------------------

    async def _records(self, query: str, params: tuple[Any, ...] = ()) -> list[TableRecord]:
        sql = _dollars(f"SELECT {_COLUMNS} FROM tables {query}")
        rows = await self._run(lambda conn: conn.fetch(sql, *params))
        return [_record(r) for r in rows]

    async def revision(self, table_id: int) -> tuple[int, int | None] | None:
        """``(rev, message_id)`` of the stored table, or None: how a process tells whether its
        cached copy is still the stored one."""
        row = await self._run(
            lambda conn: conn.fetchrow("SELECT rev, message_id FROM tables WHERE id = $1", table_id)
        )
        return (row[0], row[1]) if row is not None else None

    async def due_tables(
        self, now: datetime, *, shards: tuple[int, tuple[int, ...]] | None = None
    ) -> list[TableRecord]:
        """Playing tables whose deadline has passed, the most overdue first. ``shards``
        ``(shard_count, shard_ids)``: only tables whose guild is on one of those shards
        (``(guild_id >> 22) % shard_count``; a table without a guild is on shard 0)."""
        query = "WHERE deadline IS NOT NULL AND deadline <= ? AND status = 'playing'"
        query, params = _on_shards(query, (now,), shards)
        return await self._records(query + " ORDER BY deadline", params)

    async def stale_tables(
        self, before: datetime, *, shards: tuple[int, tuple[int, ...]] | None = None
    ) -> list[TableRecord]:
        """Playing and finished tables whose channel message is older than the table, last
        written before ``before`` (of those shards, if given), oldest first."""
        query = "WHERE shown_version < version AND updated_at <= ? AND status IN ('playing', 'finished')"
        query, params = _on_shards(query, (before,), shards)
        return await self._records(query + " ORDER BY updated_at", params)

    async def log(self, table_id: int, limit: int | None = None) -> list[LogEntry]:
        """The table's action log, oldest first (the last ``limit`` entries if given)."""
        query = "SELECT seq, actor, action, summary, at FROM events WHERE table_id = ? ORDER BY seq DESC"
        params: tuple[Any, ...] = (table_id,)
        if limit is not None:
            query += " LIMIT ?"
            params += (limit,)
        rows = await self.sql(query, params)
        return [LogEntry(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in reversed(rows)]
