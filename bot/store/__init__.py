"""Persistence of tables: the records, the errors, and the store backends (SQLite by default,
PostgreSQL for several processes sharing one database)."""

from __future__ import annotations

from pathlib import Path

from bot.store.postgres import PostgresStore
from bot.store.records import (
    ABANDONED,
    DEFAULT_TIMEOUT,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    LogEntry,
    StoreConflict,
    StoreError,
    TableRecord,
)
from bot.store.sqlite import MIGRATIONS, SqliteStore

Store = SqliteStore
"""The default store (SQLite)."""

AnyStore = SqliteStore | PostgresStore
"""Either backend: both have the same calls, guarantees and errors."""

SCHEMES = ("sqlite:///", "postgresql://", "postgres://")


def is_postgres(url_or_path: str | Path) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return isinstance(url_or_path, str) and url_or_path.startswith(("postgresql://", "postgres://"))


def sqlite_path(url_or_path: str | Path) -> Path:
    """The file of a ``sqlite:///path`` URL or a plain path (``sqlite:////abs`` is absolute)."""
    if isinstance(url_or_path, str) and url_or_path.startswith("sqlite:///"):
        return Path(url_or_path.removeprefix("sqlite:///"))
    return Path(url_or_path)


async def open_store(
    url_or_path: str | Path, *, read_only: bool = False, timeout: float = DEFAULT_TIMEOUT
) -> AnyStore:
    """Open the store ``url_or_path`` names: ``postgresql://…`` → PostgreSQL, ``sqlite:///path``
    or a plain path → SQLite. Raises StoreError (one line, with ``exit_status``). ``timeout``:
    seconds a call may wait for the database (PostgreSQL's statement timeout, SQLite's busy wait)."""
    if is_postgres(url_or_path):
        return await PostgresStore.open(str(url_or_path), read_only=read_only, timeout=timeout)
    return await SqliteStore.open(sqlite_path(url_or_path), read_only=read_only, timeout=timeout)


__all__ = [
    "ABANDONED",
    "FINISHED",
    "LOBBY",
    "MIGRATIONS",
    "OPEN_STATUSES",
    "PLAYING",
    "SCHEMES",
    "AnyStore",
    "LogEntry",
    "PostgresStore",
    "SqliteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "TableRecord",
    "is_postgres",
    "open_store",
    "sqlite_path",
]
