"""The reads both store backends answer with the same SQL (``?`` placeholders, which the
PostgreSQL backend numbers itself): finding tables, reading a table's log summaries and the board
a seat last saw. The host answers a turn message's questions about the log from its in-memory
chronicle (``bot.chronicle``, built with :meth:`TableReads.chronicle_rows`); the log reads here
give the same answers from the store (for tools, tables no longer open, and as the reference the
chronicle is tested against)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any

from bot.store.records import TableRecord

_LAST_OWN_DECISION = (
    "COALESCE((SELECT MAX(seq) FROM events WHERE table_id = ? AND actor = ? AND action NOT LIKE '%\"by\": %' "
    "AND (CAST(? AS INTEGER) IS NULL OR turn IS NULL OR turn < ?)), 0)"
)
"""The log position of a seat's own last decision (a row it acted in, not the host or an AI for
it), in a turn before a given one if that is not NULL; 0 if none. Parameters: table id, seat,
turn, turn."""


def reads_only(query: str) -> bool:
    """True if the SQL statement ``query`` only reads (SELECT, WITH … SELECT, PRAGMA): a store
    call that may be given up without changing anything (see ``bot.answering``)."""
    words = query.lstrip().split(None, 1)
    first = words[0].upper() if words else ""
    if first == "WITH":
        return not any(w in query.upper() for w in ("INSERT ", "UPDATE ", "DELETE "))
    return first in ("SELECT", "PRAGMA", "EXPLAIN")


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

    async def person(self, user_id: str) -> dict[str, Any]:
        """What a person asked for across tables (e.g. ``quiet`` hours); {} if nothing."""
        rows = await self.sql("SELECT prefs FROM people WHERE user_id = ?", (user_id,))
        return json.loads(rows[0][0]) if rows else {}

    async def set_person(self, user_id: str, prefs: dict[str, Any]) -> None:
        """Keep what a person asked for (one statement, the same SQL on both backends)."""
        await self.sql(
            "INSERT INTO people (user_id, prefs) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs",
            (user_id, json.dumps(prefs)),
        )

    async def seated(self, user_id: str) -> list[TableRecord]:
        """Playing tables where ``user_id`` may hold a seat (a seat of theirs, or a seat handed to
        them: check with ``bot.seats.seat_of``)."""
        pattern = "%" + json.dumps(user_id) + "%"
        return await self._records(
            "WHERE status = 'playing' AND (seats LIKE ? OR meta LIKE ?) ORDER BY id", (pattern, pattern)
        )

    async def since(
        self, table_id: int, actor: str, before_turn: int | None = None
    ) -> list[tuple[int, int | None, str]]:
        """``(seq, turn, summary)`` of every log row after ``actor``'s own last decision (not one an
        AI or the host took for the seat; in a turn before ``before_turn`` if given; all rows if
        there is none), oldest first, rows without a public summary left out."""
        rows = await self.sql(
            "SELECT seq, turn, summary FROM events WHERE table_id = ? AND summary != '' AND seq > "
            f"{_LAST_OWN_DECISION} ORDER BY seq",
            (table_id, table_id, actor, before_turn, before_turn),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def played_for(self, table_id: int, seat: str, before_turn: int | None = None) -> int:
        """How many actions an AI took for ``seat`` since the seat's own last decision (counted
        as :meth:`since` does)."""
        rows = await self.sql(
            "SELECT COUNT(*) FROM events WHERE table_id = ? AND actor = ? AND action LIKE ? AND seq > "
            f"{_LAST_OWN_DECISION}",
            (table_id, seat, '%"by": "bot:%', table_id, seat, before_turn, before_turn),
        )
        return int(rows[0][0])

    async def turn_summaries(self, table_id: int, turn: int, upto: int | None = None) -> list[str]:
        """The public summary lines of every action taken in game turn ``turn`` of a table (up to
        version ``upto`` if given), oldest first: what a retired turn message says happened."""
        rows = await self.sql(
            "SELECT summary FROM events WHERE table_id = ? AND turn = ? AND summary != '' AND seq <= ? "
            "ORDER BY seq",
            (table_id, turn, upto if upto is not None else 2**31 - 1),
        )
        return [line for (summary,) in rows for line in summary.splitlines() if line]

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

    async def chronicle_rows(
        self, table_id: int, upto: int
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """What a table's chronicle (``bot.chronicle``) is built from, in one statement: every log
        row up to version ``upto`` as ``(seq, turn, actor, action JSON, summary)``, and every seat's
        boards as ``(seat, latest_turn, latest JSON, prior_turn, prior JSON)``."""
        rows = await self.sql(
            "SELECT seq, turn, actor, action, summary, CAST(NULL AS INTEGER) FROM events "
            "WHERE table_id = ? AND seq <= ? "
            "UNION ALL SELECT NULL, latest_turn, seat, latest, prior, prior_turn FROM seat_views "
            "WHERE table_id = ?",
            (table_id, upto, table_id),
        )
        log = [row[:5] for row in rows if row[0] is not None]
        views = [(row[2], row[1], row[3], row[5], row[4]) for row in rows if row[0] is None]
        return log, views

    async def previous_view(self, table_id: int, seat: str, turn: int | None) -> dict[str, Any] | None:
        """The public view right after ``seat``'s last decision in a turn before ``turn`` (the
        board the seat last saw as its own), or None if it has none."""
        rows = await self.sql(
            "SELECT latest_turn, latest, prior_turn, prior FROM seat_views WHERE table_id = ? AND seat = ?",
            (table_id, seat),
        )
        if not rows:
            return None
        latest_turn, latest, _, prior = rows[0]
        if turn is None or latest_turn is None or latest_turn < turn:
            return json.loads(latest)
        return json.loads(prior) if prior is not None else None
