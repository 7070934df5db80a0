"""``python -m bot migrate --to postgresql://…``: copy the SQLite database into PostgreSQL.

Every table row, its whole event log and the seats' last boards are copied with their ids, in one
PostgreSQL transaction that is committed only if the rows read back from PostgreSQL have the same
counts and the same checksums as the SQLite rows. A target that already holds any table, event or
seat board is refused, so a migration never mixes two bots' data, unless it holds exactly the
source's rows (the same counts and checksums): then an earlier run's copy was committed (and
perhaps interrupted before it said so), and the copy is reported complete. Stop the bot first.

Exit status: 0 copied and verified (or found complete), 2 refused (target not empty, bad source,
checksums differ), 1 a database that cannot be reached.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.store import PostgresStore, SqliteStore, StoreError, is_postgres
from bot.store.postgres import FAILURES
from bot.store.urls import redact

COPIED: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {
    # name: (columns, timestamp columns, order)
    "tables": (
        (
            "id",
            "guild_id",
            "channel_id",
            "game",
            "status",
            "host_id",
            "seats",
            "options",
            "seed",
            "state",
            "version",
            "message_id",
            "deadline",
            "created_at",
            "updated_at",
            "meta",
            "awaiting",
            "rev",
            "shown_version",
        ),
        ("deadline", "created_at", "updated_at"),
        "id",
    ),
    "events": (
        ("table_id", "seq", "channel_id", "actor", "action", "summary", "at", "turn"),
        ("at",),
        "table_id, seq",
    ),
    "seat_views": (
        ("table_id", "seat", "latest_turn", "latest", "prior_turn", "prior"),
        (),
        "table_id, seat",
    ),
    "people": (("user_id", "prefs"), (), "user_id"),
}
"""Every persisted table of the schema (``schema_version`` is the target's own)."""


class MigrationError(Exception):
    """The migration was refused or failed; nothing was written. ``exit_status`` says how."""

    def __init__(self, text: str, exit_status: int = 2) -> None:
        super().__init__(text)
        self.exit_status = exit_status


def _moment(value: Any) -> datetime | None:
    """A stored time as an aware datetime (SQLite keeps ISO text, PostgreSQL timestamptz)."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _canonical(row: Sequence[Any], columns: Sequence[str], times: Sequence[str]) -> tuple[Any, ...]:
    """A row as both backends must agree on it: times as UTC instants, everything else as is."""
    return tuple(
        (m.astimezone(UTC).isoformat() if (m := _moment(v)) is not None else None) if c in times else v
        for c, v in zip(columns, row, strict=True)
    )


def checksum(rows: Iterable[tuple[Any, ...]]) -> str:
    """SHA-256 over the canonical rows in order."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(repr(row).encode())
        digest.update(b"\n")
    return digest.hexdigest()


async def _read_sqlite(source: SqliteStore) -> dict[str, list[tuple[Any, ...]]]:
    found = {}
    for name, (columns, times, order) in COPIED.items():
        rows = await source.sql(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {order}")
        found[name] = [_canonical(r, columns, times) for r in rows]
    return found


async def _read_postgres(conn: Any) -> dict[str, list[tuple[Any, ...]]]:
    found = {}
    for name, (columns, times, order) in COPIED.items():
        rows = await conn.fetch(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {order}")
        found[name] = [_canonical(tuple(r), columns, times) for r in rows]
    return found


def _summary(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, tuple[int, str]]:
    """``{table: (rows, checksum)}``."""
    return {name: (len(found), checksum(found)) for name, found in rows.items()}


async def copy(source: SqliteStore, target: PostgresStore) -> tuple[dict[str, tuple[int, str]], bool]:
    """Copy every row of ``source`` into the empty ``target`` and verify it; returns
    ``({table: (rows, checksum)}, False)``, or ``(…, True)`` without writing if the target
    already holds exactly the source's rows. MigrationError if the target holds anything else or
    the copy differs."""
    rows = await _read_sqlite(source)
    async with target._pool.acquire() as conn, conn.transaction():
        await conn.execute("LOCK TABLE tables, events, seat_views IN EXCLUSIVE MODE")
        present = {name: await conn.fetchval(f"SELECT COUNT(*) FROM {name}") for name in COPIED}
        if any(present.values()):
            if _summary(await _read_postgres(conn)) == _summary(rows):
                return _summary(rows), True
            name, count = next((n, c) for n, c in present.items() if c)
            raise MigrationError(
                f"the target database is not empty ({count} rows in {name}): "
                "migrate only into a new, empty database"
            )
        for name, (columns, times, _) in COPIED.items():
            records = [
                tuple(_moment(v) if c in times else v for c, v in zip(columns, row, strict=True))
                for row in rows[name]
            ]
            if records:
                await conn.copy_records_to_table(name, records=records, columns=list(columns))
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('tables', 'id'), "
            "COALESCE((SELECT MAX(id) FROM tables), 0) + 1, false)"
        )
        report = _summary(await _read_postgres(conn))
        for name, (count, digest) in report.items():
            if count != len(rows[name]):
                raise MigrationError(f"{name}: {len(rows[name])} rows in SQLite, {count} copied")
            if digest != checksum(rows[name]):
                raise MigrationError(f"{name}: the copied rows differ from the SQLite rows (checksum)")
    return report, False


async def migrate(source_path: Path, url: str) -> tuple[dict[str, tuple[int, str]], bool]:
    """Open both databases (bringing both schemas up to date), copy and verify; True with the
    report if an earlier run had already copied everything."""
    if not source_path.is_file():
        raise MigrationError(f"there is no SQLite database at {source_path}")
    source = await SqliteStore.open(source_path)
    try:
        target = await PostgresStore.open(url)
        try:
            return await copy(source, target)
        except FAILURES as exc:  # the commit may or may not have happened: a new run tells
            text = " ".join(str(exc).split()) or type(exc).__name__
            raise StoreError(
                f"the connection to {redact(url)} failed during the copy ({text}); run migrate again: "
                "it says whether the copy had been committed"
            ) from exc
        finally:
            await target.close()
    finally:
        await source.close()


def command(to: str, source: Path) -> int:
    """``python -m bot migrate --to URL [--from PATH]`` (``bot.cli`` parses it and finds the
    default source in the settings); returns the exit status."""
    if not is_postgres(to):
        print("Migration refused: --to must be a postgresql:// URL.", file=sys.stderr)
        return 2
    try:
        report, already = asyncio.run(migrate(source, to))
    except MigrationError as exc:
        print(f"Migration refused, nothing was written: {exc}", file=sys.stderr)
        return exc.exit_status
    except StoreError as exc:
        print(f"Migration failed: {exc}", file=sys.stderr)
        return getattr(exc, "exit_status", 1)
    counts = ", ".join(f"{n} {name}" for name, (n, _) in report.items())
    if already:
        print(
            f"The copy is already complete: {redact(to)} holds exactly the {counts} of {source} "
            "(counts and checksums match); nothing was written."
        )
        return 0
    print(f"Copied {counts} from {source} to {redact(to)}; counts and checksums match.")
    return 0
