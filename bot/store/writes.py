"""The writes both store backends make with the same SQL (``?`` placeholders, which the PostgreSQL
backend numbers itself): a table's next version and its log row, a seat's board, the host's
bookkeeping and the message a table is shown by. Each backend runs them its own way: SQLite in one
transaction on its database thread, PostgreSQL as single statements (a save is one statement)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.store.records import StoreConflict, TableRecord

SAVE = (
    "UPDATE tables SET status = ?, host_id = ?, seats = ?, options = ?, state = ?, version = ?, "
    "deadline = ?, updated_at = ?, meta = ?, awaiting = ?, rev = ? WHERE id = ? AND rev = ?"
)
"""A table's next version, written only if the row is still at the revision it was read at
(parameters: :func:`save_params`)."""

LOG = "INSERT INTO events (table_id, seq, channel_id, actor, action, summary, at, turn)"
"""The log row of a save (its values follow: :func:`log_params`)."""

_SAME_TURN = (
    "(seat_views.latest_turn = excluded.latest_turn "
    "OR (seat_views.latest_turn IS NULL AND excluded.latest_turn IS NULL))"
)

KEEP_SEAT_VIEW = (
    "INSERT INTO seat_views (table_id, seat, latest_turn, latest, prior_turn, prior) {values} "
    "ON CONFLICT (table_id, seat) DO UPDATE SET "
    "latest_turn = excluded.latest_turn, latest = excluded.latest, "
    f"prior_turn = CASE WHEN {_SAME_TURN} THEN seat_views.prior_turn ELSE seat_views.latest_turn END, "
    f"prior = CASE WHEN {_SAME_TURN} THEN seat_views.prior ELSE seat_views.latest END"
)
"""A seat's board after its decision, in one statement: it becomes the latest; the latest of an
earlier turn becomes the prior one (``{values}``: the new row's table id, seat, turn, board,
NULL, NULL)."""


def save_params(
    record: TableRecord, time: Callable[[datetime | None], Any], now: datetime
) -> tuple[Any, ...]:
    """The parameters of :data:`SAVE` for ``record`` (``time``: how the backend keeps a time)."""
    return (
        record.status,
        record.host_id,
        json.dumps(list(record.seats)),
        json.dumps(record.options),
        json.dumps(record.state) if record.state is not None else None,
        record.version + 1,
        time(record.deadline),
        time(now),
        record.meta.dumps(),
        json.dumps(list(record.awaiting)),
        record.rev + 1,
        record.id,
        record.rev,
    )


def log_params(
    record: TableRecord,
    time: Callable[[datetime | None], Any],
    *,
    actor: str,
    action: dict[str, Any],
    summary: str,
    now: datetime,
    turn: int | None,
) -> tuple[Any, ...]:
    """The values of :data:`LOG`: the log row of ``record``'s next version."""
    return (
        record.id,
        record.version + 1,
        record.channel_id,
        actor,
        json.dumps(action),
        summary,
        time(now),
        turn,
    )


def opening(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The action logged with a new table (its first row, version 1, by its host)."""
    return {"type": "open", "game": game, "options": options}


def conflict(record: TableRecord) -> StoreConflict:
    """The error of a write refused because the row moved on since ``record`` was read."""
    return StoreConflict(f"Table #{record.id} changed since it was read.")


class TableWrites(ABC):
    """The one-statement writes, over a backend's ``_change`` and ``_time``."""

    @abstractmethod
    async def _change(self, query: str, params: tuple[Any, ...], what: str) -> int:
        """Run one writing statement (as a transaction) and return how many rows it changed; a
        database failure becomes a one-line StoreError saying ``what`` could not be saved."""

    @staticmethod
    @abstractmethod
    def _time(value: datetime | None) -> Any:
        """A time as the backend keeps it."""

    async def save_meta(self, record: TableRecord) -> TableRecord:
        """Store the host's bookkeeping of ``record`` (meta, deadline, awaiting) without a new
        version of the table: its buttons stay valid. StoreConflict if the row moved on."""
        changed = await self._change(
            "UPDATE tables SET meta = ?, deadline = ?, awaiting = ?, rev = ? WHERE id = ? AND rev = ?",
            (
                record.meta.dumps(),
                self._time(record.deadline),
                json.dumps(list(record.awaiting)),
                record.rev + 1,
                record.id,
                record.rev,
            ),
            f"table #{record.id}",
        )
        if changed != 1:
            raise conflict(record)
        return record.evolve(rev=record.rev + 1)

    async def set_message(self, table_id: int, message_id: int | None, shown: int | None = None) -> None:
        """Remember which channel message shows the table now (not a game state change), and
        the version it shows (``shown``, if given)."""
        await self._change(
            "UPDATE tables SET message_id = ?, shown_version = COALESCE(?, shown_version) WHERE id = ?",
            (message_id, shown, table_id),
            f"the message of table #{table_id}",
        )

    async def set_shown(self, table_id: int, version: int) -> None:
        """Remember that the table's message now shows ``version`` (never an older one)."""
        await self._change(
            "UPDATE tables SET shown_version = ? WHERE id = ? AND shown_version < ?",
            (version, table_id, version),
            f"the message of table #{table_id}",
        )
