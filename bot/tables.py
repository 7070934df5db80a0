"""The table host: lobbies, seats, and applying actions under a per-channel lock, persisted."""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.engine.core import (
    SYSTEM,
    TIMEOUT,
    Action,
    Event,
    Game,
    IllegalAction,
    format_text,
    parse_options,
    shorten,
)
from bot.engine.registry import GameRegistry
from bot.store import ABANDONED, FINISHED, LOBBY, PLAYING, Store, StoreConflict, StoreError, TableRecord

log = logging.getLogger(__name__)


class TableError(Exception):
    """Something a user asked for that cannot be done; ``str(exc)`` is a short sentence for them."""


class OutOfDate(TableError):
    """A component drawn for an earlier state of the table."""


NOT_SAVED = "I could not save that, so nothing changed. Please try again in a moment."
"""What a user is told when the database refused a write."""

DEFAULT_CACHE_SIZE = 5000
"""Live games kept in memory (about 30–200 KB each); older ones are reloaded on demand."""

TYPED_REPEAT_SECONDS = 10
"""The same typed move from the same player within this many seconds is refused as a repeat."""


@dataclass
class Table:
    """A table record with its live game (None in the lobby), as of ``record.version``."""

    record: TableRecord
    game: Game | None
    _view: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def public_view(self) -> dict[str, Any]:
        """The game's public view at this version, built once and shared by every reader."""
        if self._view is None:
            assert self.game is not None
            self._view = self.game.view(None)
        return self._view


@dataclass
class Outcome:
    """What an applied action did, for the cog to present."""

    table: Table
    events: list[Event] = field(default_factory=list)
    turn_changed: bool = False
    decider_changed: bool = False

    @property
    def public_events(self) -> list[Event]:
        """Events everyone may see."""
        return [e for e in self.events if e.public]

    def private_events(self) -> dict[str, list[Event]]:
        """Secret events grouped by the player allowed to see them."""
        grouped: dict[str, list[Event]] = {}
        for event in self.events:
            if event.to is not None:
                grouped.setdefault(event.to, []).append(event)
        return grouped


def _decider(game: Game) -> str | None:
    prompt = game.prompt()
    return prompt.player if prompt is not None else None


class TableHost:
    """Owns every table: one lock per channel, a cache of live games, the store behind them."""

    def __init__(
        self,
        store: Store,
        registry: GameRegistry,
        *,
        clock: Callable[[], datetime],
        seeder: Callable[[], int] = lambda: secrets.randbits(63),
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        self.store = store
        self.registry = registry
        self._clock = clock
        self._seeder = seeder
        # A lock lives while someone holds or awaits it; an idle channel keeps none.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[int, Table] = OrderedDict()
        self._cache_size = max(1, cache_size)
        self._history: dict[int, tuple[tuple[int, int, int], list[str]]] = {}
        """Recent log lines per channel, for one (table id, version, limit)."""
        self._typed: dict[tuple[int, str], tuple[str, datetime]] = {}
        self._closing = False
        self._store_closed = False

    # -- plumbing -----------------------------------------------------------------------------

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _remember(self, table: Table) -> None:
        """Keep an open table in the cache (most recently used last), evicting the oldest."""
        channel_id = table.record.channel_id
        self._cache[channel_id] = table
        self._cache.move_to_end(channel_id)
        while len(self._cache) > self._cache_size:
            evicted, _ = self._cache.popitem(last=False)
            self._history.pop(evicted, None)

    def _forget(self, channel_id: int) -> None:
        self._cache.pop(channel_id, None)
        self._history.pop(channel_id, None)

    @property
    def cached_tables(self) -> int:
        """How many live tables are in memory now."""
        return len(self._cache)

    def _game_cls(self, name: str) -> type[Game]:
        game_cls = self.registry.get(name)
        if game_cls is None:
            raise TableError(f"This bot no longer knows the game {name}.")
        return game_cls

    async def _load(self, channel_id: int) -> Table | None:
        cached = self._cache.get(channel_id)
        if cached is not None:
            self._cache.move_to_end(channel_id)
            return cached
        record = await self.store.open_table(channel_id)
        if record is None:
            return None
        cached = self._cache.get(channel_id)  # loaded meanwhile by another reader
        if cached is not None and cached.record.version >= record.version:
            return cached
        table = self._table_of(record)
        self._remember(table)
        return table

    def _table_of(self, record: TableRecord) -> Table:
        game = None
        if record.state is not None:
            game = self._game_cls(record.game).from_json(record.state)
        return Table(record, game)

    async def _require(self, channel_id: int, table_id: int | None = None) -> Table:
        table = await self._load(channel_id)
        if table is None:
            if table_id is not None:
                raise OutOfDate("That table is closed.")
            raise TableError("There is no table in this channel. Open one with /game new.")
        if table_id is not None and table.record.id != table_id:
            raise OutOfDate("That table is closed.")
        return table

    async def _save(
        self,
        table: Table,
        record: TableRecord,
        game: Game | None,
        *,
        actor: str,
        action: Action,
        events: Sequence[Event] = (),
    ) -> Table:
        """Persist the new state; on any failure forget the cached table so it reloads."""
        summary = "\n".join(e.text for e in events if e.public)
        try:
            saved = await self.store.save(
                record, actor=actor, action=action, summary=summary, now=self._clock()
            )
        except StoreError:
            self._forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except BaseException:
            self._forget(record.channel_id)
            raise
        new = Table(saved, game)
        if saved.is_open:
            self._remember(new)
        else:
            self._forget(saved.channel_id)
        return new

    def _check_open_for_business(self) -> None:
        if self._closing:
            raise TableError("The bot is shutting down; try again in a minute.")

    # -- queries ------------------------------------------------------------------------------

    async def current(self, channel_id: int) -> Table | None:
        """The channel's lobby or running table, or None."""
        return await self._load(channel_id)

    async def latest(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recent finished or abandoned one, or None."""
        table = await self._load(channel_id)
        if table is not None:
            return table
        record = await self.store.latest_table(channel_id)
        return self._table_of(record) if record is not None else None

    async def history(self, channel_id: int, limit: int = 15) -> list[str]:
        """Public summaries of the last actions at the channel's current or latest table."""
        table = await self._load(channel_id)
        if table is not None:
            key = (table.record.id, table.record.version, limit)
            cached = self._history.get(channel_id)
            if cached is not None and cached[0] == key:
                return list(cached[1])
            lines = await self.store.recent_summaries(table.record.id, limit)
            self._history[channel_id] = (key, lines)
            return list(lines)
        record = await self.store.latest_table(channel_id)
        if record is None:
            raise TableError("No game has been played in this channel yet.")
        return await self.store.recent_summaries(record.id, limit)

    # -- lobby --------------------------------------------------------------------------------

    async def open_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_name: str,
        host_id: str,
        options_text: str = "",
    ) -> Table:
        """A new lobby in the channel with the caller as host and first seat."""
        self._check_open_for_business()
        game_cls = self.registry.get(game_name)
        if game_cls is None:
            raise TableError(
                f"Unknown game '{game_name}'. Choose one of: {', '.join(self.registry.names())}."
            )
        try:
            options = parse_options(game_cls.option_specs, options_text)
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        async with self._lock(channel_id):
            existing = await self._load(channel_id)
            if existing is not None:
                raise TableError(
                    f"This channel already has a {existing.record.game} table (#{existing.record.id}); "
                    "finish or abandon it first."
                )
            try:
                record = await self.store.create_table(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game_cls.name,
                    host_id=host_id,
                    options=options,
                    seed=self._seeder(),
                    now=self._clock(),
                )
            except StoreConflict as exc:
                raise TableError(str(exc)) from None
            except StoreError:
                raise TableError(NOT_SAVED) from None
            table = Table(record, None)
            self._remember(table)
            log.info("table #%s opened: %s in channel %s", record.id, game_cls.name, channel_id)
            return table

    async def join(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """Seat the user at the channel's lobby."""
        self._check_open_for_business()
        async with self._lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError("The game has already started; you can't join it now.")
            if user_id in record.seats:
                raise TableError("You already have a seat at this table.")
            game_cls = self._game_cls(record.game)
            if len(record.seats) >= game_cls.max_players:
                raise TableError(
                    f"The table is full ({game_cls.max_players} of {game_cls.max_players} seats)."
                )
            new = record.evolve(seats=(*record.seats, user_id))
            return await self._save(table, new, None, actor=user_id, action={"type": "join"})

    async def leave(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """Free the user's seat in the lobby; the host role passes on, an empty table closes."""
        self._check_open_for_business()
        async with self._lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError(
                    "The game has started; you can't leave it now (the host can /game abandon it)."
                )
            if user_id not in record.seats:
                raise TableError("You don't have a seat at this table.")
            seats = tuple(s for s in record.seats if s != user_id)
            if not seats:
                new = record.evolve(seats=seats, status=ABANDONED)
            else:
                host = record.host_id if record.host_id != user_id else seats[0]
                new = record.evolve(seats=seats, host_id=host)
            return await self._save(table, new, None, actor=user_id, action={"type": "leave"})

    async def start(self, channel_id: int, user_id: str, table_id: int | None = None) -> Outcome:
        """Deal the game for the seated players (host only)."""
        self._check_open_for_business()
        async with self._lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError("The game has already started.")
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can start the game.")
            game_cls = self._game_cls(record.game)
            if len(record.seats) < game_cls.min_players:
                raise TableError(
                    f"{game_cls.name} needs at least {game_cls.min_players} players; "
                    f"{len(record.seats)} seated."
                )
            game = game_cls.new(record.seats, record.seed, record.options)
            new = record.evolve(status=PLAYING, state=game.to_json(), deadline=self._deadline(game))
            saved = await self._save(
                table, new, game, actor=user_id, action={"type": "start", "seed": record.seed}
            )
            log.info("table #%s started with %d players", record.id, len(record.seats))
            return Outcome(saved, [], turn_changed=True)

    async def abandon(
        self, channel_id: int, user_id: str, *, may_manage: bool, table_id: int | None = None
    ) -> Table:
        """Close the table for good (host, or a member who may manage the channel)."""
        self._check_open_for_business()
        async with self._lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if user_id != record.host_id and not may_manage:
                raise TableError(
                    f"Only the host (<@{record.host_id}>) or someone who can manage this channel "
                    "can abandon the table."
                )
            new = record.evolve(status=ABANDONED, deadline=None)
            log.info("table #%s abandoned", record.id)
            return await self._save(table, new, table.game, actor=user_id, action={"type": "abandon"})

    # -- play ---------------------------------------------------------------------------------

    def _deadline(self, game: Game) -> datetime | None:
        prompt = game.prompt()
        if prompt is None or not prompt.timeout:
            return None
        return self._clock() + timedelta(seconds=prompt.timeout)

    async def act(
        self,
        channel_id: int,
        user_id: str,
        action: Action | str,
        *,
        table_id: int | None = None,
        version: int | None = None,
    ) -> Outcome:
        """Apply one action (an action dict or its notation) for ``user_id``, then persist it.

        ``table_id``/``version`` are those a component was drawn for: a mismatch is OutOfDate.
        """
        self._check_open_for_business()
        async with self._lock(channel_id):
            table = await self._require(channel_id, table_id)
            record, game = table.record, table.game
            if record.status != PLAYING or game is None:
                raise TableError("The game has not started yet.")
            if version is not None and version != record.version:
                raise OutOfDate("That board is out of date.")
            if user_id != SYSTEM:
                if user_id not in record.seats:
                    raise TableError("You are not playing at this table.")
                prompt = game.prompt()
                if prompt is None or user_id not in prompt.deciders():
                    waiting = ", ".join(f"<@{p}>" for p in prompt.deciders()) if prompt else ""
                    raise TableError(
                        f"It is not your decision right now (waiting for {waiting})."
                        if waiting
                        else "It is not your decision right now."
                    )
            typed = self._check_repeat(channel_id, user_id, action) if isinstance(action, str) else None
            try:
                chosen = game.parse(user_id, action) if isinstance(action, str) else action
                before, decider_before = game.turn_marker(), _decider(game)
                events = game.apply(user_id, chosen)
            except IllegalAction as exc:
                names = {p: f"<@{p}>" for p in record.seats}
                raise TableError(format_text(str(exc), names)) from None
            result = game.result()
            new = record.evolve(
                status=FINISHED if result is not None else PLAYING,
                state=game.to_json(),
                deadline=None if result is not None else self._deadline(game),
            )
            saved = await self._save(table, new, game, actor=user_id, action=chosen, events=events)
            if typed is not None:
                self._typed[(channel_id, user_id)] = (typed, self._clock())
            if result is not None:
                log.info("table #%s finished", record.id)
            turn_changed = result is not None or game.turn_marker() != before
            decider = _decider(game)
            decider_changed = decider is not None and decider != decider_before
            return Outcome(saved, events, turn_changed=turn_changed, decider_changed=decider_changed)

    def _check_repeat(self, channel_id: int, user_id: str, text: str) -> str:
        """The normalised typed move; TableError if the same player just played the same text."""
        typed = " ".join(text.lower().split())
        now = self._clock()
        window = timedelta(seconds=TYPED_REPEAT_SECONDS)
        for key, (_, at) in list(self._typed.items()):
            if now - at > window:
                del self._typed[key]
        last = self._typed.get((channel_id, user_id))
        if last is not None and last[0] == typed:
            raise TableError(
                f"You just played '{shorten(typed)}'; I did not play it a second time. "
                f"If you meant to, send it again in {TYPED_REPEAT_SECONDS} seconds."
            )
        return typed

    async def expire(self, channel_id: int, table_id: int, version: int) -> Outcome | None:
        """Apply the game's timeout if that table still waits at ``version`` past its deadline."""
        async with self._lock(channel_id):
            table = await self._load(channel_id)
            if table is None or table.record.id != table_id or table.record.version != version:
                return None
            deadline = table.record.deadline
            if deadline is None or deadline > self._clock():
                return None
        return await self.act(channel_id, SYSTEM, dict(TIMEOUT), table_id=table_id, version=version)

    async def due(self) -> list[TableRecord]:
        """Playing tables whose prompt timeout has run out."""
        if self._closing:
            return []
        return await self.store.due_tables(self._clock())

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the channel message that currently shows this table (best effort: a failed
        write is logged, and the table is shown by a new message next time)."""
        try:
            await self.store.set_message(table.record.id, message_id)
        except StoreError as exc:
            log.error("table #%s: could not remember its message: %s", table.record.id, exc)
            return
        cached = self._cache.get(table.record.channel_id)
        if cached is not None and cached.record.id == table.record.id:
            cached.record = cached.record.evolve(message_id=message_id)

    # -- shutdown -----------------------------------------------------------------------------

    def stop_accepting(self) -> None:
        """Refuse new changes from now on (reads and message bookkeeping still work)."""
        self._closing = True

    async def close(self) -> None:
        """Refuse new work, let the actions in progress finish, then close the database."""
        if self._store_closed:
            return
        self._closing = True
        self._store_closed = True
        for lock in list(self._locks.values()):
            async with lock:
                pass
        await self.store.close()
