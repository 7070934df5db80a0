"""Persistence of tables: the records, the errors, and the store backends (SQLite by default,
PostgreSQL for several processes sharing one database)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

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
from bot.store.urls import is_postgres

if TYPE_CHECKING:
    from bot.store.postgres import PostgresStore

Store = SqliteStore
"""The default store (SQLite)."""

AnyStore = Union[SqliteStore, "PostgresStore"]  # a quoted name: asyncpg stays unloaded
"""Either backend: both have the same calls, guarantees and errors."""

SCHEMES = ("sqlite:///", "postgresql://", "postgres://")

MISSING_POSTGRES = (
    "a PostgreSQL DATABASE_URL needs the asyncpg driver: install the postgres extra "
    '(pip install "argo-table-bot[postgres]", or pip install -e ".[postgres]" in a checkout)'
)


class MissingExtra(ImportError):
    """The ``postgres`` extra (asyncpg) is not installed; ``str(exc)`` says how to install it."""


def __getattr__(name: str) -> Any:
    """``PostgresStore`` is imported on first use, so that SQLite-only installs never load asyncpg."""
    if name == "PostgresStore":
        return _postgres_store()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _postgres_store() -> type[PostgresStore]:
    try:
        from bot.store.postgres import PostgresStore
    except ModuleNotFoundError as exc:
        if exc.name != "asyncpg":
            raise
        raise MissingExtra(MISSING_POSTGRES) from None
    return PostgresStore


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
        try:
            postgres = _postgres_store()
        except MissingExtra as exc:
            error = StoreError(str(exc))
            error.exit_status = 2
            raise error from None
        return await postgres.open(str(url_or_path), read_only=read_only, timeout=timeout)
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
    "MissingExtra",
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
