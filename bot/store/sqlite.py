"""SQLite persistence: one row per table, an append-only action log, migrations.

Every call runs as one function on the store's own database thread, so a save (snapshot update,
log row, commit) is one round trip from the event loop, and the calls of all channels take turns
on the one connection without interleaving their transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

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
from bot.store.writes import TableWrites
from bot.table_meta import TableMeta

log = logging.getLogger(__name__)

T = TypeVar("T")

MIGRATIONS: list[str] = [
    # 1: tables and their action log
    """
    CREATE TABLE tables (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        game        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned')),
        host_id     TEXT NOT NULL,
        seats       TEXT NOT NULL,
        options     TEXT NOT NULL,
        seed        INTEGER NOT NULL,
        state       TEXT,
        version     INTEGER NOT NULL,
        message_id  INTEGER,
        deadline    TEXT,
        created_at  TEXT NOT NULL,
        updated_at  TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables (channel_id) WHERE status IN ('lobby', 'playing');
    CREATE INDEX tables_by_deadline ON tables (deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE events (
        table_id    INTEGER NOT NULL REFERENCES tables (id),
        seq         INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        actor       TEXT NOT NULL,
        action      TEXT NOT NULL,
        summary     TEXT NOT NULL DEFAULT '',
        at          TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
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
        table_id     INTEGER NOT NULL REFERENCES tables (id),
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
        table_id     INTEGER PRIMARY KEY REFERENCES tables (id),
        guild_id     INTEGER NOT NULL,
        game         TEXT NOT NULL,
        finished_at  TEXT NOT NULL,
        data         TEXT NOT NULL
    );
    CREATE INDEX results_by_ladder ON results (guild_id, game, finished_at, table_id);
    CREATE TABLE result_seats (
        table_id     INTEGER NOT NULL REFERENCES tables (id),
        seat         TEXT NOT NULL,
        guild_id     INTEGER NOT NULL,
        game         TEXT NOT NULL,
        player       TEXT NOT NULL,
        place        INTEGER NOT NULL,
        winner       INTEGER NOT NULL,
        finished_at  TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX result_seats_by_player ON result_seats (guild_id, player, finished_at);
    CREATE TABLE ladders (
        guild_id     INTEGER NOT NULL,
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

_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, seats, options, seed, state, version, "
    "message_id, deadline, created_at, updated_at, meta, awaiting, rev, shown_version"
)


def _record(row: tuple[Any, ...]) -> TableRecord:
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
        deadline=datetime.fromisoformat(row[12]) if row[12] else None,
        created_at=datetime.fromisoformat(row[13]),
        updated_at=datetime.fromisoformat(row[14]),
        meta=TableMeta.loads(row[15]),
        awaiting=tuple(json.loads(row[16])),
        rev=row[17],
        shown_version=row[18],
    )


def _transaction(conn: sqlite3.Connection, body: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``body`` inside BEGIN IMMEDIATE … COMMIT; roll back if it fails (and SQLite has not)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
        conn.execute("COMMIT")
        return result
    except BaseException:
        # SQLite rolls back by itself after some errors (a full disk): ROLLBACK only if still open.
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _connect(target: str, uri: bool, timeout: float) -> sqlite3.Connection:
    """Open, configure, migrate and check the database for writing (on the database thread);
    a call waits at most ``timeout`` seconds for another connection's lock."""
    conn = sqlite3.connect(target, uri=uri, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL").fetchall()
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={round(timeout * 1000)}")
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if current > len(MIGRATIONS):
            raise StoreError(
                f"the database was written by a newer version of the bot (schema {current}, "
                f"this one knows {len(MIGRATIONS)})"
            )
        if 0 < current < len(MIGRATIONS) and not uri:
            _back_up(conn, target, current)
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            if number not in META_REWRITES:
                conn.executescript(f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
                continue
            conn.executescript(f"BEGIN IMMEDIATE;\n{script}")  # left open for the rewrite
            rewrite = META_REWRITES[number]
            for table_id, meta in conn.execute("SELECT id, meta FROM tables").fetchall():
                new = rewrite(meta)
                if new is not None:
                    conn.execute("UPDATE tables SET meta = ? WHERE id = ?", (new, table_id))
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        # Prove the file can be written now rather than at the first player's move.
        _transaction(conn, lambda c: c.execute(f"PRAGMA user_version = {len(MIGRATIONS)}"))
        conn.execute("PRAGMA user_version").fetchone()
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()
        raise
    return conn


def _back_up(conn: sqlite3.Connection, path: str, version: int) -> None:
    """Copy the database to ``<path>.bak-<version>`` before migrating it from schema ``version``
    (SQLite's online backup: consistent, WAL included). An existing copy is left as it is."""
    copy = Path(f"{path}.bak-{version}")
    if copy.exists():
        return
    log.info("copying the database to %s before migrating it from schema %d", copy, version)
    target = sqlite3.connect(copy)
    try:
        conn.backup(target)
        target.execute("PRAGMA journal_mode=DELETE").fetchall()  # one self-contained file
    finally:
        target.close()


def _open_error(path: str, exc: BaseException) -> StoreError:
    """A one-line StoreError for a database that cannot be used; exit status 2 if it is not a
    database at all (a wrong or damaged file), 1 for I/O and permission problems."""
    if isinstance(exc, StoreError):
        error = StoreError(f"Database {path}: {exc}")
        error.exit_status = 2
        return error
    text = str(exc) or type(exc).__name__
    error = StoreError(f"Database {path} cannot be used: {text}")
    name = getattr(exc, "sqlite_errorname", "")
    error.exit_status = 2 if name in ("SQLITE_NOTADB", "SQLITE_CORRUPT") else 1
    return error


def _on_shards(
    query: str, params: tuple[Any, ...], shards: tuple[int, tuple[int, ...]] | None
) -> tuple[str, tuple[Any, ...]]:
    """``query`` narrowed to the tables of these shards ``(shard_count, shard_ids)``: whose guild
    is on one of them (``(guild_id >> 22) % shard_count``; a table without a guild is on shard 0)."""
    if shards is None:
        return query, params
    marks = ", ".join("?" * len(shards[1])) or "NULL"
    return query + f" AND COALESCE((guild_id >> 22) % ?, 0) IN ({marks})", (*params, shards[0], *shards[1])


class SqliteStore(TableReads, TableWrites):
    """The bot's SQLite database: open with :meth:`open`, close with :meth:`close`."""

    shared = False
    """One process uses this file (the host may trust its cached games)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, thread: ThreadPoolExecutor) -> None:
        self._conn = conn
        self.path = path
        self._thread = thread
        self._closed = False

    # -- opening and closing ------------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: Path | str, *, read_only: bool = False, timeout: float = DEFAULT_TIMEOUT
    ) -> SqliteStore:
        """Open (creating folder and file if needed), migrate and check the database at ``path``.

        Raises StoreError (one line; ``exit_status`` 2 for a file that is not a usable database,
        1 for I/O and permissions) and leaves no thread behind. ``read_only`` opens the file
        read-only, which fails the writing check (used to test that check when running as root).
        ``timeout``: seconds a call waits for another connection's lock on the file.
        """
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            error = StoreError(f"Cannot create the database folder {path.parent}: {exc.strerror or exc}")
            error.exit_status = 1
            raise error from None
        target, uri = (f"file:{path}?mode=ro", True) if read_only else (str(path), False)
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(thread, _connect, target, uri, timeout)
        except (sqlite3.Error, OSError, StoreError) as exc:
            thread.shutdown(wait=False)
            raise _open_error(str(path), exc) from None
        except BaseException:
            thread.shutdown(wait=False)
            raise
        return cls(conn, path, thread)

    async def close(self) -> None:
        """Close the connection and stop the database thread."""
        if self._closed:
            return
        self._closed = True
        try:
            await asyncio.get_running_loop().run_in_executor(self._thread, self._conn.close)
        finally:
            self._thread.shutdown(wait=False)

    @contextlib.asynccontextmanager
    async def table_lock(self, channel_id: int) -> AsyncIterator[None]:
        """The database lock of the channel's table while an action is applied: nothing to do
        here, one process owns the file and its host already serialises each channel."""
        yield

    async def _run(
        self,
        fn: Callable[[sqlite3.Connection], T],
        doing: str = "could not read the database",
        level: int = logging.WARNING,
    ) -> T:
        """Run ``fn`` on the database thread; a database failure is logged and becomes a
        one-line StoreError saying what could not be done. ``level`` ERROR marks a change (see
        ``bot.answering``: for an interaction waiting for its answer, a read is given up in time,
        a change is not)."""
        if self._closed:
            raise StoreError("the database is closed")
        try:
            if level >= logging.ERROR:
                return await answering.change(self._roundtrip(fn))
            return await answering.read(self._roundtrip(fn))
        except sqlite3.Error as exc:
            error = StoreError(f"{doing}: {' '.join(str(exc).split()) or type(exc).__name__}")
            log.log(level, "%s", error)
            raise error from exc

    async def _roundtrip(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """One call on the database thread (what waits when the database is slow)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, self._conn)

    async def _write(self, body: Callable[[sqlite3.Connection], T], what: str) -> T:
        """Run ``body`` as one transaction; a database failure becomes a one-line StoreError."""
        return await self._run(lambda conn: _transaction(conn, body), f"could not save {what}", logging.ERROR)

    async def _change(self, query: str, params: tuple[Any, ...], what: str) -> int:
        return await self._write(lambda conn: conn.execute(query, params).rowcount, what)

    @staticmethod
    def _time(value: datetime | None) -> str | None:
        return value.isoformat() if value is not None else None

    async def sql(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one SQL statement outside the store's API and return its rows (tests, tools)."""
        level = logging.WARNING if reads_only(query) else logging.ERROR
        return await self._run(lambda conn: conn.execute(query, params).fetchall(), level=level)

    async def schema_version(self) -> int:
        """The applied migration count (``PRAGMA user_version``)."""
        rows = await self.sql("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

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
        stamp = now.isoformat()

        def body(conn: sqlite3.Connection) -> TableRecord:
            try:
                cur = conn.execute(
                    "INSERT INTO tables (guild_id, channel_id, game, status, host_id, seats, "
                    "options, seed, state, version, created_at, updated_at, meta) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 1, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game,
                        LOBBY,
                        host_id,
                        json.dumps(list(seats or (host_id,))),
                        json.dumps(options),
                        seed,
                        stamp,
                        stamp,
                        (meta or TableMeta()).dumps(),
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise StoreConflict("This channel already has an open table.") from exc
            table_id = cur.lastrowid
            conn.execute(
                "INSERT INTO events (table_id, seq, channel_id, actor, action, summary, at) "
                "VALUES (?, 1, ?, ?, ?, '', ?)",
                (
                    table_id,
                    channel_id,
                    host_id,
                    json.dumps(writes.opening(game, options)),
                    stamp,
                ),
            )
            row = conn.execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
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
        entry = writes.log_params(
            record, self._time, actor=actor, action=action, summary=summary, now=now, turn=turn
        )

        def body(conn: sqlite3.Connection) -> None:
            if conn.execute(writes.SAVE, params).rowcount != 1:
                raise writes.conflict(record)
            conn.execute(f"{writes.LOG} VALUES (?, ?, ?, ?, ?, ?, ?, ?)", entry)
            if seat_view is not None:
                seat, seat_turn, view = seat_view
                conn.execute(
                    writes.KEEP_SEAT_VIEW.format(values="VALUES (?, ?, ?, ?, NULL, NULL)"),
                    (record.id, seat, seat_turn, json.dumps(view)),
                )

        await self._write(body, f"table #{record.id}")
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
        def body(conn: sqlite3.Connection) -> T:
            conn.execute("DROP TRIGGER events_append_only_update")  # for this transaction only
            try:
                step = next(steps)
                while True:
                    query, params = step
                    step = steps.send(conn.execute(query, params).fetchall())
            except StopIteration as stop:
                result: T = stop.value
            conn.execute(
                "CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events "
                "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
            )
            return result

        return await self._write(body, what)

    # -- reading ------------------------------------------------------------------------------

    async def _records(self, query: str, params: tuple[Any, ...] = ()) -> list[TableRecord]:
        rows = await self.sql(f"SELECT {_COLUMNS} FROM tables {query}", params)
        return [_record(r) for r in rows]

    async def revision(self, table_id: int) -> tuple[int, int | None] | None:
        """``(rev, message_id)`` of the stored table, or None: how a process tells whether its
        cached copy is still the stored one."""
        rows = await self.sql("SELECT rev, message_id FROM tables WHERE id = ?", (table_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    async def due_tables(
        self, now: datetime, *, shards: tuple[int, tuple[int, ...]] | None = None
    ) -> list[TableRecord]:
        """Playing tables whose deadline has passed, the most overdue first. ``shards``
        ``(shard_count, shard_ids)``: only tables whose guild is on one of those shards
        (``(guild_id >> 22) % shard_count``; a table without a guild is on shard 0)."""
        query = "WHERE deadline IS NOT NULL AND deadline <= ? AND status = 'playing'"
        query, params = _on_shards(query, (now.isoformat(),), shards)
        return await self._records(query + " ORDER BY deadline", params)

    async def stale_tables(
        self, before: datetime, *, shards: tuple[int, tuple[int, ...]] | None = None
    ) -> list[TableRecord]:
        """Playing and finished tables whose channel message is older than the table, last
        written before ``before`` (of those shards, if given), oldest first."""
        query = "WHERE shown_version < version AND updated_at <= ? AND status IN ('playing', 'finished')"
        query, params = _on_shards(query, (before.isoformat(),), shards)
        return await self._records(query + " ORDER BY updated_at", params)

    async def log(self, table_id: int, limit: int | None = None) -> list[LogEntry]:
        """The table's action log, oldest first (the last ``limit`` entries if given)."""
        query = "SELECT seq, actor, action, summary, at FROM events WHERE table_id = ? ORDER BY seq DESC"
        params: tuple[Any, ...] = (table_id,)
        if limit is not None:
            query += " LIMIT ?"
            params += (limit,)
        rows = await self.sql(query, params)
        return [
            LogEntry(r[0], r[1], json.loads(r[2]), r[3], datetime.fromisoformat(r[4])) for r in reversed(rows)
        ]
