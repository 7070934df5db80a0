"""SQLite persistence for tables: one row per table, an append-only action log, migrations."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

LOBBY, PLAYING, FINISHED, ABANDONED = "lobby", "playing", "finished", "abandoned"
OPEN_STATUSES = (LOBBY, PLAYING)

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
]


class StoreConflict(Exception):
    """The table changed since it was read (version mismatch) or a channel already has a table."""


@dataclass(frozen=True)
class TableRecord:
    """One game table as stored: lobby settings, seats, state snapshot and its version."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: str
    seats: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    message_id: int | None
    deadline: datetime | None
    created_at: datetime
    updated_at: datetime

    @property
    def is_open(self) -> bool:
        """True while in the lobby or playing."""
        return self.status in OPEN_STATUSES

    def evolve(self, **changes: Any) -> TableRecord:
        """A copy with ``changes`` applied."""
        return replace(self, **changes)


@dataclass(frozen=True)
class LogEntry:
    """One row of a table's action log."""

    seq: int
    actor: str
    action: dict[str, Any]
    summary: str
    at: datetime = field(compare=False)


_COLUMNS = (
    "id, guild_id, channel_id, game, status, host_id, seats, options, seed, state, version, "
    "message_id, deadline, created_at, updated_at"
)


def _record(row: aiosqlite.Row) -> TableRecord:
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
    )


class Store:
    """The bot's database: open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        # One connection serves every channel: writes take turns so that two transactions
        # never interleave their statements.
        self._writing = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Store:
        """Open (creating folder and file if needed) and migrate the database at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        await db.execute_fetchall("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        await store._migrate()
        return store

    async def close(self) -> None:
        """Close the connection (pending transactions were committed or rolled back already)."""
        await self._db.close()

    async def schema_version(self) -> int:
        """The applied migration count (``PRAGMA user_version``)."""
        async with self._db.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            # One script per migration, schema change and version bump in one transaction.
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                )
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise

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
    ) -> TableRecord:
        """A new lobby with the host in the first seat; StoreConflict if the channel has one."""
        stamp = now.isoformat()
        async with self._writing:
            table_id = await self._insert_table(guild_id, channel_id, game, host_id, options, seed, stamp)
        record = await self.get_table(table_id)
        assert record is not None
        return record

    async def _insert_table(
        self,
        guild_id: int | None,
        channel_id: int,
        game: str,
        host_id: str,
        options: dict[str, Any],
        seed: int,
        stamp: str,
    ) -> int:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            try:
                cur = await self._db.execute(
                    "INSERT INTO tables (guild_id, channel_id, game, status, host_id, seats, "
                    "options, seed, state, version, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 1, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        game,
                        LOBBY,
                        host_id,
                        json.dumps([host_id]),
                        json.dumps(options),
                        seed,
                        stamp,
                        stamp,
                    ),
                )
            except aiosqlite.IntegrityError as exc:
                raise StoreConflict("This channel already has an open table.") from exc
            table_id = cur.lastrowid
            await self._db.execute(
                "INSERT INTO events (table_id, seq, channel_id, actor, action, summary, at) "
                "VALUES (?, 1, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    channel_id,
                    host_id,
                    json.dumps({"type": "open", "game": game, "options": options}),
                    "",
                    stamp,
                ),
            )
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        return int(table_id or 0)

    async def save(
        self, record: TableRecord, *, actor: str, action: dict[str, Any], summary: str, now: datetime
    ) -> TableRecord:
        """Store ``record`` as the next version and log ``action``, in one transaction.

        ``record.version`` is the version it was read at; StoreConflict if the row moved on.
        """
        async with self._writing:
            await self._write_version(record, actor=actor, action=action, summary=summary, now=now)
        return record.evolve(version=record.version + 1, updated_at=now)

    async def _write_version(
        self, record: TableRecord, *, actor: str, action: dict[str, Any], summary: str, now: datetime
    ) -> None:
        stamp = now.isoformat()
        new_version = record.version + 1
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self._db.execute(
                "UPDATE tables SET status = ?, host_id = ?, seats = ?, options = ?, state = ?, "
                "version = ?, message_id = ?, deadline = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (
                    record.status,
                    record.host_id,
                    json.dumps(list(record.seats)),
                    json.dumps(record.options),
                    json.dumps(record.state) if record.state is not None else None,
                    new_version,
                    record.message_id,
                    record.deadline.isoformat() if record.deadline else None,
                    stamp,
                    record.id,
                    record.version,
                ),
            )
            if cur.rowcount != 1:
                raise StoreConflict(f"Table #{record.id} changed since it was read.")
            await self._db.execute(
                "INSERT INTO events (table_id, seq, channel_id, actor, action, summary, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (record.id, new_version, record.channel_id, actor, json.dumps(action), summary, stamp),
            )
            await self._db.execute("COMMIT")
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember which channel message shows the table now (not a game state change)."""
        async with self._writing:
            await self._db.execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table with this id, or None."""
        async with self._db.execute(f"SELECT {_COLUMNS} FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        return _record(row) if row else None

    async def open_table(self, channel_id: int) -> TableRecord | None:
        """The lobby or running table of a channel, or None."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return _record(row) if row else None

    async def tables(self, channel_id: int | None = None) -> list[TableRecord]:
        """Every table (of one channel if given), oldest first, history included."""
        query = f"SELECT {_COLUMNS} FROM tables"
        params: tuple[Any, ...] = ()
        if channel_id is not None:
            query += " WHERE channel_id = ?"
            params = (channel_id,)
        async with self._db.execute(query + " ORDER BY id", params) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    async def due_tables(self, now: datetime) -> list[TableRecord]:
        """Playing tables whose deadline has passed."""
        async with self._db.execute(
            f"SELECT {_COLUMNS} FROM tables WHERE deadline IS NOT NULL AND deadline <= ? "
            "AND status = 'playing' ORDER BY deadline",
            (now.isoformat(),),
        ) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    async def recent_summaries(self, table_id: int, limit: int) -> list[str]:
        """The last ``limit`` public summary lines of a table's log, oldest first."""
        async with self._db.execute(
            "SELECT summary FROM events WHERE table_id = ? AND summary != '' ORDER BY seq DESC LIMIT ?",
            (table_id, limit),
        ) as cur:
            rows = await cur.fetchall()
        lines = [line for (summary,) in reversed(list(rows)) for line in summary.splitlines() if line]
        return lines[-limit:]

    async def log(self, table_id: int, limit: int | None = None) -> list[LogEntry]:
        """The table's action log, oldest first (the last ``limit`` entries if given)."""
        query = "SELECT seq, actor, action, summary, at FROM events WHERE table_id = ? ORDER BY seq DESC"
        params: tuple[Any, ...] = (table_id,)
        if limit is not None:
            query += " LIMIT ?"
            params += (limit,)
        async with self._db.execute(query, params) as cur:
            rows = await cur.fetchall()
        return [
            LogEntry(r[0], r[1], json.loads(r[2]), r[3], datetime.fromisoformat(r[4]))
            for r in reversed(list(rows))
        ]
