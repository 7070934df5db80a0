"""The lobby: opening a table, seats and bots before the start, starting, abandoning."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bot import seats
from bot.chronicle import Chronicle
from bot.engine.core import (
    Game,
    IllegalAction,
    parse_options,
    shorten,
    with_article,
)
from bot.engine.registry import GameRegistry
from bot.locks import ChannelLocks
from bot.shutdown import Shutdown
from bot.store import ABANDONED, LOBBY, PLAYING, AnyStore, StoreConflict, StoreError, writes
from bot.table import NOT_SAVED, Outcome, Table, TableError
from bot.table_cache import TableCache
from bot.table_meta import TableMeta
from bot.table_saving import TableSaver

log = logging.getLogger(__name__)


class Lobby:
    """Lobbies: open, join, leave, seat and remove bots, start, abandon. Each change is made under
    the channel's lock (``locks``) on the table read from ``cache`` and written by ``saver``; a
    new table is created in ``store`` for a game of ``registry``, dealt with a seed of ``seeder``,
    at the time of ``clock``; ``shutdown`` refuses changes once the host is closing."""

    def __init__(
        self,
        store: AnyStore,
        registry: GameRegistry,
        locks: ChannelLocks,
        cache: TableCache,
        saver: TableSaver,
        shutdown: Shutdown,
        clock: Callable[[], datetime],
        seeder: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        self._store = store
        self._registry = registry
        self._locks = locks
        self._cache = cache
        self._saver = saver
        self._shutdown = shutdown
        self._clock = clock
        self._seeder = seeder

    async def open_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_name: str,
        host_id: str,
        options_text: str = "",
        seated: Sequence[str] = (),
        bots: Sequence[str] = (),
        names: dict[str, str] | None = None,
    ) -> Table:
        """A new lobby in the channel with the caller as host and first seat.

        ``options_text`` holds the game's options and the table settings (see
        ``bot.seats.TABLE_OPTIONS``). ``seated`` are further people seated at once and ``bots``
        the levels of bots seated at once (a rematch); ``bots=N`` in the options seats N bots.
        ``names``: the display names of the people seated (user id → name), kept for the table.
        """
        self._shutdown.check_open()
        game_cls = self._registry.get(game_name)
        if game_cls is None:
            known = ", ".join(self._registry.names())
            raise TableError(f"Unknown game '{shorten(game_name, 40)}'. Choose one of: {known}.")
        try:
            values = parse_options((*game_cls.option_specs, *seats.TABLE_OPTIONS), options_text)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        options, table_settings = split_settings(game_cls, values)
        levels = [*bots, *[table_settings["level"]] * int(table_settings.pop("bots", 0))]
        people = [host_id, *[p for p in seated if p != host_id]]
        if len(people) + len(levels) > game_cls.max_players:
            raise TableError(f"{game_cls.name} seats at most {game_cls.max_players} players.")
        seat_ids = [*people, *(f"{seats.BOT}{n}" for n in range(1, len(levels) + 1))]
        holders = {f"{seats.BOT}{n}": seats.bot_holder(level) for n, level in enumerate(levels, start=1)}
        async with self._locks.lock(channel_id):
            existing = await self._cache.load(channel_id)
            if existing is not None:
                raise TableError(
                    f"This channel already has {with_article(existing.record.game)} table "
                    f"(#{existing.record.id}); finish or abandon it first."
                )
            try:
                record = await self._store.create_table(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game_cls.name,
                    host_id=host_id,
                    options=options,
                    seed=self._seeder(),
                    now=self._clock(),
                    seats=tuple(seat_ids),
                    meta=TableMeta(settings=table_settings, holders=holders).with_names(
                        {p: n for p, n in (names or {}).items() if p in people}
                    ),
                )
            except StoreConflict as exc:
                raise TableError(str(exc)) from None
            except StoreError:
                raise TableError(NOT_SAVED) from None
            opened = Chronicle.opened(record.host_id, writes.opening(record.game, record.options))
            table = Table(record, None, chronicle=opened)
            self._cache.remember(table)
            log.info("table #%s opened: %s in channel %s", record.id, game_cls.name, channel_id)
            return table

    async def _lobby(self, channel_id: int, table_id: int | None) -> Table:
        table = await self._cache.require(channel_id, table_id)
        if table.record.status != LOBBY:
            raise TableError("The game has already started.")
        return table

    async def join(
        self, channel_id: int, user_id: str, table_id: int | None = None, name: str | None = None
    ) -> Table:
        """Seat the user at the channel's lobby (``name``: their display name, kept)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError("The game has already started; you can't join it now.")
            if seats.seat_of(record, user_id) is not None:
                raise TableError("You already have a seat at this table.")
            game_cls = self._cache.game_class(record.game)
            if len(record.seats) >= game_cls.max_players:
                raise TableError(
                    f"The table is full ({game_cls.max_players} of {game_cls.max_players} seats)."
                )
            meta = record.meta.with_names({user_id: name} if name else {})
            new = record.evolve(seats=(*record.seats, user_id), meta=meta)
            return await self._saver.save(table, new, None, actor=user_id, action={"type": "join"})

    async def leave(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """Free the user's seat in the lobby; the host role passes on, a table with no people
        left closes."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError(
                    "The game has started: to leave it, use /game leave (an AI takes your seat)."
                )
            if user_id not in record.seats:
                raise TableError("You don't have a seat at this table.")
            remaining = tuple(s for s in record.seats if s != user_id)
            people = [s for s in remaining if not seats.is_bot(s)]
            if not people:
                new = record.evolve(seats=remaining, status=ABANDONED)
            else:
                host = record.host_id if record.host_id != user_id else people[0]
                new = record.evolve(seats=remaining, host_id=host)
            return await self._saver.save(table, new, None, actor=user_id, action={"type": "leave"})

    async def add_bot(
        self, channel_id: int, user_id: str, level: str | None = None, table_id: int | None = None
    ) -> Table:
        """Seat a bot at the lobby (host only); ``level`` defaults to the table's level."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._lobby(channel_id, table_id)
            record = table.record
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can add bots.")
            game_cls = self._cache.game_class(record.game)
            if len(record.seats) >= game_cls.max_players:
                raise TableError(
                    f"The table is full ({game_cls.max_players} of {game_cls.max_players} seats)."
                )
            chosen = level or seats.settings(record)["level"]
            try:
                holder = seats.bot_holder(chosen)
            except IllegalAction as exc:
                raise TableError(str(exc)) from None
            seat = seats.next_bot_seat(record)
            new = record.evolve(
                seats=(*record.seats, seat), meta=seats.with_holder(record.meta, seat, holder)
            )
            return await self._saver.save(
                table, new, None, actor=user_id, action={"type": "addbot", "level": chosen}
            )

    async def remove_bot(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """Take the last bot off the lobby (host only)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._lobby(channel_id, table_id)
            record = table.record
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can remove bots.")
            bots = [s for s in record.seats if seats.is_bot(s)]
            if not bots:
                raise TableError("There is no bot at this table.")
            seat = bots[-1]
            meta = seats.with_holder(record.meta, seat, seat)
            new = record.evolve(seats=tuple(s for s in record.seats if s != seat), meta=meta)
            return await self._saver.save(table, new, None, actor=user_id, action={"type": "removebot"})

    async def start(self, channel_id: int, user_id: str, table_id: int | None = None) -> Outcome:
        """Deal the game for the seated players (host only)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError("The game has already started.")
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can start the game.")
            game_cls = self._cache.game_class(record.game)
            if len(record.seats) < game_cls.min_players:
                raise TableError(
                    f"{game_cls.name} needs at least {game_cls.min_players} players; "
                    f"{len(record.seats)} seated (press **Add bot** to fill a seat)."
                )
            game = game_cls.new(record.seats, record.seed, record.options)
            new = record.evolve(status=PLAYING, state=game.to_json())
            saved = await self._saver.save(
                table, new, game, actor=user_id, action={"type": "start", "seed": record.seed}
            )
            log.info("table #%s started with %d players", record.id, len(record.seats))
            return Outcome(saved, [], turn_changed=True)

    async def abandon(
        self, channel_id: int, user_id: str, *, may_manage: bool, table_id: int | None = None
    ) -> Table:
        """Close the table for good (host, or a member who may manage the channel)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            record = table.record
            if user_id != record.host_id and not may_manage:
                raise TableError(
                    f"Only the host (<@{record.host_id}>) or someone who can manage this channel "
                    "can abandon the table."
                )
            new = record.evolve(status=ABANDONED)
            log.info("table #%s abandoned", record.id)
            return await self._saver.save(table, new, table.game, actor=user_id, action={"type": "abandon"})


def split_settings(game_cls: type[Game], values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parsed options split into the game's options and the table's settings (bots checked)."""
    options, table = seats.split_options(game_cls.option_specs, values)
    if int(table.get("bots", 0)) >= game_cls.max_players:
        raise TableError(f"{game_cls.name} seats at most {game_cls.max_players} players, you included.")
    return options, table
