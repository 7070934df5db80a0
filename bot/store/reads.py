"""The reads both store backends answer with the same SQL (``?`` placeholders, which the
PostgreSQL backend numbers itself): finding tables and reading a table's log summaries."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any

from bot.store.records import TableRecord


class TableReads(ABC):
    """Table look-ups and log summaries over a backend's ``sql`` and ``_records``."""

    @abstractmethod
    async def sql(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one SQL statement and return its rows (each backend runs it its own way)."""

    @abstractmethod
    async def _records(self, query: str, params: tuple[Any, ...] = ()) -> list[TableRecord]:
        """The tables matching ``query`` (the part after ``FROM tables``), as records."""

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table with this id, or None."""
        found = await self._records("WHERE id = ?", (table_id,))
        return found[0] if found else None

    async def open_table(self, channel_id: int) -> TableRecord | None:
        """The lobby or running table of a channel, or None."""
        found = await self._records("WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,))
        return found[0] if found else None

    async def latest_table(self, channel_id: int) -> TableRecord | None:
        """The channel's most recent table, open or not, or None."""
        found = await self._records("WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
        return found[0] if found else None

    async def tables(self, channel_id: int | None = None) -> list[TableRecord]:
        """Every table (of one channel if given), oldest first, history included."""
        if channel_id is None:
            return await self._records("ORDER BY id")
        return await self._records("WHERE channel_id = ? ORDER BY id", (channel_id,))

    async def lobbies(self, guild_id: int) -> list[TableRecord]:
        """The server's tables waiting for players (lobbies), oldest first."""
        return await self._records("WHERE status = 'lobby' AND guild_id = ? ORDER BY id", (guild_id,))

    async def awaiting(self, user_id: str, guild_id: int | None = None) -> list[TableRecord]:
        """Playing tables waiting for ``user_id`` (on one server if ``guild_id`` is given)."""
        pattern = "%" + json.dumps(user_id) + "%"
        if guild_id is None:
            return await self._records("WHERE status = 'playing' AND awaiting LIKE ? ORDER BY id", (pattern,))
        return await self._records(
            "WHERE status = 'playing' AND guild_id = ? AND awaiting LIKE ? ORDER BY id", (guild_id, pattern)
        )

    async def since(
        self, table_id: int, actor: str, before_turn: int | None = None
    ) -> list[tuple[int, int | None, str]]:
        """``(seq, turn, summary)`` of every log row after ``actor``'s last one (in a turn before
        ``before_turn`` if given; all rows if there is none), oldest first, rows without a public
        summary left out."""
        rows = await self.sql(
            "SELECT seq, turn, summary FROM events WHERE table_id = ? AND summary != '' AND seq > "
            "COALESCE((SELECT MAX(seq) FROM events WHERE table_id = ? AND actor = ? "
            "AND (CAST(? AS INTEGER) IS NULL OR turn IS NULL OR turn < ?)), 0) ORDER BY seq",
            (table_id, table_id, actor, before_turn, before_turn),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def recent_summaries(self, table_id: int, limit: int, upto: int | None = None) -> list[str]:
        """The last ``limit`` public summary lines of a table's log, oldest first (of the actions
        up to version ``upto`` if given)."""
        rows = await self.sql(
            "SELECT summary FROM events WHERE table_id = ? AND summary != '' AND seq <= ? "
            "ORDER BY seq DESC LIMIT ?",
            (table_id, upto if upto is not None else 2**31 - 1, limit),
        )
        lines = [line for (summary,) in reversed(rows) for line in summary.splitlines() if line]
        return lines[-limit:]
