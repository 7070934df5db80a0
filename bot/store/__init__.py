"""Persistence of tables: the records, the errors, and the store backends (SQLite by default)."""

from __future__ import annotations

from bot.store.records import (
    ABANDONED,
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

__all__ = [
    "ABANDONED",
    "FINISHED",
    "LOBBY",
    "MIGRATIONS",
    "OPEN_STATUSES",
    "PLAYING",
    "LogEntry",
    "SqliteStore",
    "Store",
    "StoreConflict",
    "StoreError",
    "TableRecord",
]
