"""What the store keeps and the errors it raises, shared by every backend."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from bot.table_meta import TableMeta, upgrade_text

LOBBY, PLAYING, FINISHED, ABANDONED = "lobby", "playing", "finished", "abandoned"
OPEN_STATUSES = (LOBBY, PLAYING)


META_REWRITES: dict[int, Callable[[str], str | None]] = {9: upgrade_text}
"""Migrations (by number, both backends) that also rewrite every stored ``tables.meta`` through a
Python function (the text in its new shape, or None if unchanged), in the same transaction as the
migration's script and its version bump."""


DEFAULT_TIMEOUT = 10.0
"""Seconds a database call may wait for the database (DB_TIMEOUT): PostgreSQL's statement timeout,
SQLite's busy wait."""


class StoreError(Exception):
    """The database could not be opened, read or written; ``str(exc)`` is one line for the log."""

    exit_status: int = 1
    """The command line's exit status when it stops on this error: 1 (the database cannot be
    reached or written now) unless the opener sets 2 (it is not usable as given)."""


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
    """The next moment the table needs attention without a player (a clock, a reminder, a bot's
    move, a prompt timeout); None if nothing is scheduled."""
    created_at: datetime
    updated_at: datetime
    meta: TableMeta = field(default_factory=TableMeta)
    """The host's bookkeeping: seat holders, table settings, clocks, who the AI stands in for
    (``bot.table_meta``)."""
    awaiting: tuple[str, ...] = ()
    """Who the table waits for now (Discord user ids of the deciding seats' holders)."""
    rev: int = 1
    """Bumped by every write (``version`` only by changes to the table itself); writes check it."""
    shown_version: int = 0
    """The version the table's channel message was last brought up to (a message older than the
    table is posted again, see ``Scheduler.repair``)."""

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
