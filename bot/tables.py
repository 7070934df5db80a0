"""The table host: lobbies, seats and their holders, and applying actions under a per-channel lock,
persisted with the table's deadlines. ``TableHost`` is composed of one part per job, each a plain
class given the parts it uses: ``bot.table_cache`` (the live tables and reading them),
``bot.locks`` (the channel locks), ``bot.table_saving`` (saving, with deadlines),
``bot.table_history`` (history reads), ``bot.bookkeeping`` (notes, due effects, what a message
shows, what the tender must look at), ``bot.shutdown``, ``bot.lobby``, ``bot.play`` and
``bot.handovers`` (seats during a game); ``bot.table`` holds what the host hands out, and
``bot.deadlines`` and ``bot.tending`` the time."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from bot import deadlines
from bot.bookkeeping import Bookkeeping
from bot.deadlines import ONLY_CHOICE, only_choice
from bot.engine.registry import GameRegistry
from bot.handovers import HandOvers
from bot.lobby import Lobby, split_settings
from bot.locks import ChannelLock, ChannelLocks
from bot.play import TYPED_REPEAT_SECONDS, Play, Typed
from bot.shutdown import Shutdown
from bot.store import AnyStore
from bot.table import (
    DEFAULT_CACHE_SIZE,
    NOT_SAVED,
    STORE_DOWN,
    ChangedSince,
    Outcome,
    OutOfDate,
    Table,
    TableError,
)
from bot.table_cache import TableCache
from bot.table_history import TableHistory
from bot.table_saving import TableSaver


class TableHost:
    """Owns every table: builds its parts (each given what it uses, see ``__init__``) and offers
    their methods as its own, so the cogs and the tending loop call ``host.act(...)``; each such
    method is the part's own (``host.act`` is ``host.play.act``).

    ``clock`` is the host's time (virtual in tests) and ``seeder`` deals new games; the parts read
    both through the host (:meth:`now`), so a test may replace ``_clock`` or ``_seeder``.
    ``shards``: ``(shard_count, shard_ids)``, this process tends only its shards' tables (None:
    all)."""

    def __init__(
        self,
        store: AnyStore,
        registry: GameRegistry,
        *,
        clock: Callable[[], datetime],
        seeder: Callable[[], int] = lambda: secrets.randbits(63),
        cache_size: int = DEFAULT_CACHE_SIZE,
        shards: tuple[int, tuple[int, ...]] | None = None,
    ) -> None:
        self.store = store
        self.registry = registry
        self.shards = shards
        self._clock = clock
        self._seeder = seeder
        # The parts, each built from the ones before it.
        self.cache = TableCache(store, registry, cache_size)
        self.locks = ChannelLocks(store, self.cache)
        self.shutdown = Shutdown(store, self.locks)
        self.saver = TableSaver(store, self.cache, self.now)
        self.table_history = TableHistory(store, self.cache)
        self.bookkeeping = Bookkeeping(
            store, self.locks, self.cache, self.saver, self.shutdown, self.now, shards
        )
        self.lobby = Lobby(
            store, registry, self.locks, self.cache, self.saver, self.shutdown, self.now, self._seed
        )
        self.play = Play(self.locks, self.cache, self.saver, self.shutdown, self.now)
        self.handovers = HandOvers(store, self.locks, self.cache, self.saver, self.shutdown, self.now)

        # What the host offers, and which part does it.
        self.lock = self.locks.lock
        self.load = self.cache.load
        self.current = self.cache.load  # the channel's lobby or running table
        self.latest = self.cache.latest
        self.awaiting = self.cache.awaiting
        self.table_of = self.cache.table_of
        self.game_class = self.cache.game_class
        self.note_stored = self.cache.note_stored
        self.forget = self.cache.forget
        self.schedule = self.saver.schedule
        self.mark = self.saver.mark
        self.automatic_deciders = deadlines.automatic_deciders
        self.chronicle = self.table_history.chronicle
        self.history = self.table_history.history
        self.since_last_decision = self.table_history.since_last_decision
        self.played_for = self.table_history.played_for
        self.turn_summaries = self.table_history.turn_summaries
        self.previous_view = self.table_history.previous_view
        self.note = self.bookkeeping.note
        self.defer_effect = self.bookkeeping.defer_effect
        self.complete_effects = self.bookkeeping.complete_effects
        self.set_message = self.bookkeeping.set_message
        self.shown = self.bookkeeping.shown
        self.due = self.bookkeeping.due
        self.stale = self.bookkeeping.stale
        self.open_table = self.lobby.open_table
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_bot = self.lobby.add_bot
        self.remove_bot = self.lobby.remove_bot
        self.start = self.lobby.start
        self.abandon = self.lobby.abandon
        self.act = self.play.act
        self.play_for = self.play.play_for
        self.replace = self.handovers.replace
        self.pause = self.handovers.pause
        self.quiet = self.handovers.quiet
        self.back = self.handovers.back
        self.set_away = self.handovers.set_away
        self.forget_person_at = self.handovers.forget_person_at
        self.stop_accepting = self.shutdown.stop_accepting
        self.close = self.shutdown.close

        # For tests that look inside (the same objects the parts use).
        self._cache = self.cache.tables
        self._locks = self.locks.held
        self._apply = self.play._apply  # an action applied by a caller that holds the lock

    def now(self) -> datetime:
        """The host's clock (injected; virtual in tests): every part reads the time here."""
        return self._clock()

    def _seed(self) -> int:
        """A seed for a new game (from the injected ``seeder``)."""
        return self._seeder()

    @property
    def cached_tables(self) -> int:
        """How many live tables are in memory now."""
        return len(self.cache)

    @property
    def closing(self) -> bool:
        """True once the host refuses new changes."""
        return self.shutdown.closing

    @property
    def _closing(self) -> bool:
        return self.shutdown.closing


__all__ = [
    "NOT_SAVED",
    "ONLY_CHOICE",
    "STORE_DOWN",
    "TYPED_REPEAT_SECONDS",
    "ChangedSince",
    "ChannelLock",
    "OutOfDate",
    "Outcome",
    "Table",
    "TableError",
    "TableHost",
    "Typed",
    "only_choice",
    "split_settings",
]
