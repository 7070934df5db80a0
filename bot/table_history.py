"""A table's history as the turn message tells it: what happened since a seat's last decision,
what an AI played for it, a retired turn's lines, the latest lines, the board it last saw; all
read from the table's chronicle (``bot.chronicle``), itself read from the store once per table."""

from __future__ import annotations

from typing import Any

from bot.chronicle import Chronicle
from bot.store import AnyStore
from bot.table import Table, TableError, turn_of
from bot.table_cache import TableCache


class TableHistory:
    """Answers history questions about tables of ``cache`` from their chronicles, read from
    ``store`` only for a table that has none yet."""

    def __init__(self, store: AnyStore, cache: TableCache) -> None:
        self._store = store
        self._cache = cache

    async def chronicle(self, table: Table) -> Chronicle:
        """The table's log and its seats' last boards in memory (``bot.chronicle``), which every
        save of this process extends; read from the store (one statement) only for a table that
        has none yet: loaded at start, after an eviction, or after another process changed it."""
        chronicle = table.chronicle
        if chronicle is not None and chronicle.upto >= table.record.version:
            return chronicle
        record = table.record
        rows, views = await self._store.chronicle_rows(record.id, record.version)
        chronicle = Chronicle.from_store(rows, views, record.version)
        table.chronicle = chronicle
        cached = self._cache.get(record.channel_id)
        same = cached is not None and (cached.record.id, cached.record.version) == (record.id, record.version)
        if cached is not None and same and cached.chronicle is None:
            cached.chronicle = chronicle  # the live table's next versions extend it
        return chronicle

    async def history(self, channel_id: int, limit: int = 15, upto: Table | None = None) -> list[str]:
        """Public summaries of the last actions at the channel's current or latest table (as of
        ``upto``, a version of the current table, if given)."""
        table = upto if upto is not None else await self._cache.load(channel_id)
        if table is not None:
            return (await self.chronicle(table)).recent(limit, table.record.version)
        record = await self._store.latest_table(channel_id)
        if record is None:
            raise TableError("No game has been played in this channel yet.")
        return await self._store.recent_summaries(record.id, limit)

    async def since_last_decision(self, table: Table, seat: str) -> list[tuple[int | None, list[str]]]:
        """What happened since ``seat`` last decided in an earlier turn (so their own moves of this
        turn are included): ``(turn, lines)`` per turn, oldest first."""
        turn = turn_of(table.game) if table.game is not None else None
        rows = (await self.chronicle(table)).since(seat, turn, table.record.version)
        grouped: list[tuple[int | None, list[str]]] = []
        for _, turn, summary in rows:
            lines = [line for line in summary.splitlines() if line]
            if grouped and grouped[-1][0] == turn:
                grouped[-1][1].extend(lines)
            else:
                grouped.append((turn, lines))
        return grouped

    async def played_for(self, table: Table, seat: str) -> int:
        """How many actions an AI took for ``seat`` since its player's own last decision."""
        turn = turn_of(table.game) if table.game is not None else None
        return (await self.chronicle(table)).played_for(seat, turn, table.record.version)

    async def turn_summaries(self, table: Table, turn: int) -> list[str]:
        """The public lines of every action of game turn ``turn`` (up to the table's version)."""
        return (await self.chronicle(table)).turn_summaries(turn, table.record.version)

    async def previous_view(self, table: Table, seat: str | None) -> dict[str, Any] | None:
        """The board ``seat`` last saw as its own (after its last decision of an earlier turn),
        to mark what changed since; None without a seat or such a decision."""
        if seat is None or table.game is None:
            return None
        return (await self.chronicle(table)).previous_view(seat, turn_of(table.game))
