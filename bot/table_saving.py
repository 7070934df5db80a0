"""Saving a table: its new state with its deadlines brought up to date (a new version, logged), or
only the host's bookkeeping (same version); the cached table follows what was saved."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from bot import deadlines, effect_outbox, seats
from bot.engine.core import SYSTEM, Action, Event, Game, format_text
from bot.store import PLAYING, AnyStore, StoreConflict, StoreError, TableRecord
from bot.table import NOT_SAVED, OutOfDate, Table, TableError
from bot.table_cache import TableCache
from bot.table_meta import TableMeta

log = logging.getLogger(__name__)


class TableSaver:
    """Writes tables to ``store`` and keeps ``cache`` in step (a failed write drops the cached
    table, so it reloads); ``clock`` is the host's time (the log's and the deadlines')."""

    def __init__(self, store: AnyStore, cache: TableCache, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._cache = cache
        self._clock = clock

    def schedule(
        self,
        record: TableRecord,
        game: Game,
        acted: str | None = None,
        *,
        version: int | None = None,
        in_person: bool = True,
    ) -> TableRecord:
        """``record`` with its deadlines brought up to date now (see ``bot.deadlines.schedule``)."""
        return deadlines.schedule(
            record, game, acted, version=version, in_person=in_person, now=self._clock()
        )

    async def save(
        self,
        table: Table,
        record: TableRecord,
        game: Game | None,
        *,
        actor: str,
        action: Action,
        events: Sequence[Event] = (),
        turn: int | None = None,
        acted: str | None = None,
        in_person: bool = True,
        names: dict[str, str] | None = None,
    ) -> Table:
        """Persist the new state with its clocks; on any failure forget the cached table so it
        reloads. ``acted``: the seat that just decided (its clock starts again); ``in_person``:
        its own player decided (not the host for them). The logged summary names each seat as
        it is played now (``names``, default :func:`seats.names`), for good: a later hand-over
        does not rename who acted."""
        if record.status == PLAYING and game is not None:
            record = self.schedule(record, game, acted, version=record.version + 1, in_person=in_person)
        elif record.status != PLAYING:  # over: nothing is due any more
            pending = {e.key for e in effect_outbox.pending(record.meta)}
            record = record.evolve(
                meta=effect_outbox.without(record.meta, pending), deadline=None, awaiting=()
            )
        named = names if names is not None else seats.names(record)
        summary = "\n".join(format_text(e.text, named) for e in events if e.public)
        view = game.view(None) if game is not None and acted is not None else None
        seat_view = (  # the board its player saw when deciding (not when an AI decided for them)
            (acted, turn, view)
            if view is not None and acted is not None and acted != SYSTEM and in_person
            else None
        )
        chronicle = table.chronicle  # extended below with what this save logs
        if chronicle is not None and (table.record.id != record.id or chronicle.upto != record.version):
            chronicle = None  # not this version's log: read again when needed
        try:
            saved = await self._store.save(
                record,
                actor=actor,
                action=action,
                summary=summary,
                now=self._clock(),
                turn=turn,
                seat_view=seat_view,
            )
        except StoreError:
            self._cache.forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except StoreConflict:
            self._cache.forget(record.channel_id)  # written meanwhile (by another process): reload
            raise OutOfDate("That board is out of date.") from None
        except BaseException:
            self._cache.forget(record.channel_id)
            raise
        if chronicle is not None:
            chronicle.add(
                saved.version,
                turn=turn,
                actor=actor,
                action_text=json.dumps(action),
                summary=summary,
                seat_view=seat_view,
            )
        new = Table(saved, game, view, chronicle)
        if saved.is_open:
            self._cache.remember(new)
        else:
            self._cache.forget(saved.channel_id)
        return new

    async def save_meta(self, table: Table, record: TableRecord) -> Table:
        """Persist only the host's bookkeeping of ``record`` (no new version: buttons stay valid)."""
        try:
            saved = await self._store.save_meta(record)
        except StoreError:
            self._cache.forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except BaseException:
            self._cache.forget(record.channel_id)
            raise
        new = Table(saved, table.game, table._view, table.chronicle)
        self._cache.remember(new)
        return new

    async def mark(self, table: Table, meta: TableMeta) -> Table:
        """Save new bookkeeping for ``table`` (the caller holds its lock), rescheduled."""
        assert table.game is not None
        new = self.schedule(table.record.evolve(meta=meta), table.game)
        return await self.save_meta(table, new)
