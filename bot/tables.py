"""The table host: lobbies, seats and their holders, and applying actions under a per-channel
lock, persisted with the table's clocks (see ``bot.clocks``) and who it waits for."""

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

from bot import absence, clocks, effects, seats
from bot.engine.core import (
    SYSTEM,
    Action,
    Event,
    Game,
    IllegalAction,
    Prompt,
    format_text,
    parse_options,
    shorten,
    with_article,
)
from bot.engine.registry import GameRegistry
from bot.store import ABANDONED, FINISHED, LOBBY, PLAYING, AnyStore, StoreConflict, StoreError, TableRecord

log = logging.getLogger(__name__)


class TableError(Exception):
    """Something a user asked for that cannot be done; ``str(exc)`` is a short sentence for them."""


class OutOfDate(TableError):
    """A component drawn for an earlier state of the table."""


class ChangedSince(OutOfDate):
    """A typed move whose author saw an earlier state: another decision came in between."""

    def __init__(self, message: str = "The table changed since you typed this — here it is now.") -> None:
        super().__init__(message)


NOT_SAVED = "I could not save that, so nothing changed. Please try again in a moment."
"""What a user is told when the database refused a write."""

STORE_DOWN = "The game store is unreachable right now; nothing changed. Try again in a minute."
"""What a user is told when the database cannot be reached at all."""

DEFAULT_CACHE_SIZE = 5000
"""Live games kept in memory (about 15–200 KB each); older ones are reloaded on demand."""

TYPED_REPEAT_SECONDS = 10
"""The same typed move from the same player within this many seconds is refused as a repeat."""

RECENT_KEPT = 12
RECENT_FOR = timedelta(minutes=15)
"""The latest decisions are kept in ``meta["recent"]`` as ``[who, action, at]`` (``who``: the
user who acted, or ``"host"``), at most this many and this old, to judge typed moves by when
their author typed them (an interaction's token lives 15 minutes)."""
HOST = "host"


def _recent(meta: dict[str, Any], who: str, action: Action, now: datetime) -> list[list[Any]]:
    """``meta["recent"]`` with one more decision."""
    kept = [e for e in meta.get("recent", []) if now - datetime.fromisoformat(e[2]) <= RECENT_FOR]
    return [*kept[-(RECENT_KEPT - 1) :], [who, action, now.isoformat()]]


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

    def names(self) -> dict[str, str]:
        """How messages name each seat (a mention, or "Bot 2 (hard)")."""
        return seats.names(self.record)

    def seat_of(self, user: str) -> str | None:
        """The seat ``user`` holds here, or None."""
        return seats.seat_of(self.record, user)

    def holder_of(self, seat: str) -> str:
        """Who plays ``seat`` now."""
        return seats.holder_of(self.record, seat)


@dataclass
class Outcome:
    """What an applied action did, for the cog to present."""

    table: Table
    events: list[Event] = field(default_factory=list)
    turn_changed: bool = False
    decider_changed: bool = False
    note: str = ""
    """A line to show with the outcome (e.g. that a bot played for an idle player)."""
    turn_before: int | None = None
    """The turn the action was taken in (a retired turn message keeps its number)."""
    decider_before: str | None = None
    """The seat that was the main decider before the action (None: nobody in particular)."""
    decider: str | None = None
    """The main decider right after the action (``table.game`` is the live game: it may have
    moved on since)."""

    @property
    def public_events(self) -> list[Event]:
        """Events everyone may see."""
        return [e for e in self.events if e.public]

    def private_events(self) -> dict[str, list[Event]]:
        """Secret events grouped by the seat allowed to see them."""
        grouped: dict[str, list[Event]] = {}
        for event in self.events:
            if event.to is not None:
                grouped.setdefault(event.to, []).append(event)
        return grouped


ONLY_CHOICE = "auto"
"""Logged as ``by`` with an action the host took because it was the player's only choice."""


def only_choice(game: Game, seat: str) -> Action | None:
    """The action the host takes for ``seat`` because it is their only choice now, or None.

    Only the main decider's decision, when it has exactly one legal action: ``undo`` and
    ``cancel`` count as choices (a player may want to take a move back rather than go on), a
    private prompt is never decided for its player (that it had one choice could tell something
    about their secrets), nor one that others may act on out of turn (taking it at once would
    close their chance), nor an action that reveals a secret (it gives private news)."""
    prompt = game.prompt()
    if prompt is None or prompt.player != seat or prompt.private or prompt.others:
        return None
    actions = game.legal_actions(seat)
    if len(actions) != 1:
        return None
    trial = game.clone()
    try:
        events = trial.apply(seat, actions[0])
    except IllegalAction:
        return None
    if any(not event.public for event in events):
        return None
    return actions[0]


def _decider(game: Game) -> str | None:
    prompt = game.prompt()
    return prompt.player if prompt is not None else None


def _turn(game: Game) -> int | None:
    number = game.turn_marker()[0]
    return number if isinstance(number, int) else None


class ChannelLock:
    """A channel's lock: the process's own ``asyncio.Lock``, then, on a shared store, the store's
    database lock of the channel's table, so that processes apply actions one at a time too."""

    def __init__(self, host: TableHost, channel_id: int, local: asyncio.Lock) -> None:
        self._host = host
        self._channel_id = channel_id
        self._local = local
        self._held: Any = None

    async def acquire(self) -> bool:
        """Take the lock (and, on a shared store, the table's database lock)."""
        await self._local.acquire()
        if not self._host.store.shared:
            return True
        try:
            held = self._host.store.table_lock(self._channel_id)
            await held.__aenter__()
        except StoreError:
            self._local.release()
            raise TableError(STORE_DOWN) from None
        except BaseException:
            self._local.release()
            raise
        self._held = held
        return True

    def release(self) -> None:
        """Release a lock taken with :meth:`acquire` outside ``async with`` (local lock only)."""
        assert self._held is None, "a database lock is released by leaving `async with`"
        self._local.release()

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc_info: Any) -> None:
        held, self._held = self._held, None
        try:
            if held is not None:
                await held.__aexit__(*exc_info)
        finally:
            self._local.release()


class TableHost:
    """Owns every table: one lock per channel, a cache of live games, the store behind them."""

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
        self.shards = shards
        """``(shard_count, shard_ids)``: this process tends only its shards' tables (None: all)."""
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

    def now(self) -> datetime:
        """The host's clock (injected; virtual in tests)."""
        return self._clock()

    # -- plumbing -----------------------------------------------------------------------------

    def lock(self, channel_id: int) -> ChannelLock:
        """The channel's lock (every change to its table is made while holding it); on a shared
        store it is also held in the database, across processes (see :class:`ChannelLock`)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return ChannelLock(self, channel_id, lock)

    async def _check_cached(self, channel_id: int) -> None:
        """Drop the cached table if the stored one moved on (another process wrote it)."""
        cached = self._cache.get(channel_id)
        if cached is None:
            return
        stored = await self.store.revision(cached.record.id)
        if stored != (cached.record.rev, cached.record.message_id):
            log.info("table #%s changed in another process: reloading it", cached.record.id)
            self.forget(channel_id)

    def _remember(self, table: Table) -> None:
        """Keep an open table in the cache (most recently used last), evicting the oldest."""
        channel_id = table.record.channel_id
        self._cache[channel_id] = table
        self._cache.move_to_end(channel_id)
        while len(self._cache) > self._cache_size:
            evicted, _ = self._cache.popitem(last=False)
            self._history.pop(evicted, None)

    def forget(self, channel_id: int) -> None:
        """Drop the channel's cached table: the next reader loads it from the store again."""
        self._cache.pop(channel_id, None)
        self._history.pop(channel_id, None)

    @property
    def cached_tables(self) -> int:
        """How many live tables are in memory now."""
        return len(self._cache)

    def game_class(self, name: str) -> type[Game]:
        """The registered game called ``name``; TableError if this bot no longer knows it."""
        game_cls = self.registry.get(name)
        if game_cls is None:
            raise TableError(f"This bot no longer knows the game {name}.")
        return game_cls

    async def load(self, channel_id: int) -> Table | None:
        """The channel's open table (from the cache, else the store), or None. On a shared store a
        cached table that another process changed meanwhile is reloaded, never overwritten."""
        if self.store.shared and channel_id in self._cache:
            await self._check_cached(channel_id)
        cached = self._cache.get(channel_id)
        if cached is not None:
            self._cache.move_to_end(channel_id)
            return cached
        record = await self.store.open_table(channel_id)
        if record is None:
            return None
        cached = self._cache.get(channel_id)  # loaded meanwhile by another reader
        if cached is not None and cached.record.rev >= record.rev:
            return cached
        table = self._table_of(record)
        self._remember(table)
        return table

    def _table_of(self, record: TableRecord) -> Table:
        game = None
        if record.state is not None:
            game = self.game_class(record.game).from_json(record.state)
        return Table(record, game)

    async def _require(self, channel_id: int, table_id: int | None = None) -> Table:
        table = await self.load(channel_id)
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
            pending = {e["key"] for e in effects.pending(record.meta)}
            record = record.evolve(meta=effects.without(record.meta, pending), deadline=None, awaiting=())
        named = names if names is not None else seats.names(record)
        summary = "\n".join(format_text(e.text, named) for e in events if e.public)
        view = game.view(None) if game is not None and acted is not None else None
        seat_view = (  # the board its player saw when deciding (not when an AI decided for them)
            (acted, turn, view)
            if view is not None and acted is not None and acted != SYSTEM and in_person
            else None
        )
        try:
            saved = await self.store.save(
                record,
                actor=actor,
                action=action,
                summary=summary,
                now=self._clock(),
                turn=turn,
                seat_view=seat_view,
            )
        except StoreError:
            self.forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except StoreConflict:
            self.forget(record.channel_id)  # written meanwhile (by another process): reload
            raise OutOfDate("That board is out of date.") from None
        except BaseException:
            self.forget(record.channel_id)
            raise
        new = Table(saved, game, view)
        if saved.is_open:
            self._remember(new)
        else:
            self.forget(saved.channel_id)
        return new

    async def save_meta(self, table: Table, record: TableRecord) -> Table:
        """Persist only the host's bookkeeping of ``record`` (no new version: buttons stay valid)."""
        try:
            saved = await self.store.save_meta(record)
        except StoreError:
            self.forget(record.channel_id)
            raise TableError(NOT_SAVED) from None
        except BaseException:
            self.forget(record.channel_id)
            raise
        new = Table(saved, table.game, table._view)
        self._remember(new)
        return new

    def _check_open_for_business(self) -> None:
        if self._closing:
            raise TableError("The bot is shutting down; try again in a minute.")

    # -- scheduling ---------------------------------------------------------------------------

    def schedule(
        self,
        record: TableRecord,
        game: Game,
        acted: str | None = None,
        *,
        version: int | None = None,
        in_person: bool = True,
    ) -> TableRecord:
        """``record`` with its clocks, who it awaits, its due effects (see ``bot.effects``) and its
        next deadline brought up to date (``version``: the version it is saved as, if not
        ``record.version``; ``in_person``: ``acted`` was the seat's own player)."""
        result = game.result()
        prompt = game.prompt() if result is None else None
        now = self._clock()
        meta = clocks.track(record.meta, prompt, acted, now)
        if acted is not None and acted in meta.get("timed_out", ()):
            meta["timed_out"] = [s for s in meta["timed_out"] if s != acted]  # the player is back
        meta = effects.lapse(meta, prompt, acted if in_person else None)
        meta, returned = absence.expire(meta, now)
        if acted is not None and in_person and acted != SYSTEM:
            meta = absence.back(meta, acted)
        for seat in returned:
            meta = clocks.restart(meta, seat, now)
        if prompt is None:
            return record.evolve(meta=meta, deadline=None, awaiting=())
        settings = seats.settings(record)
        moments = [
            clocks.next_moment(meta, int(settings["clock"])),
            absence.next_return(meta),
            effects.next_due(meta, now),
        ]
        due = min((m for m in moments if m is not None), default=None)
        auto = self.automatic_deciders(record, game, meta, record.version if version is None else version)
        if auto:
            due = now
        return record.evolve(meta=meta, deadline=due, awaiting=tuple(self._awaited(record, prompt, auto)))

    def _awaited(self, record: TableRecord, prompt: Prompt, auto: Sequence[str] = ()) -> list[str]:
        """The people the table waits for: the main decider, or everyone a timed wait awaits
        (but those the host answers for at once, ``auto``: they are not asked)."""
        deciders = (prompt.player,) if prompt.player is not None else prompt.others
        found = [seats.holder_of(record, s) for s in deciders if prompt.player is not None or s not in auto]
        return [h for h in found if not seats.is_bot(h)]

    def automatic_deciders(
        self, record: TableRecord, game: Game, meta: dict[str, Any], version: int
    ) -> list[str]:
        """Seats the host decides for now: bot-held seats that must or may act, a person whose
        decision has only one choice (:func:`only_choice`), seats whose player said "don't
        ask me" for a wait this turn or this game (they pass), and the seats of people the AI
        stands in for since their clock ran out (``meta["stand_in"]``), which answer waits at once."""
        prompt = game.prompt()
        if prompt is None:
            return []
        found: list[str] = []
        main = prompt.player
        if main is not None and (
            seats.is_bot(seats.holder_of(record, main))
            or self.ai_plays(record, meta, main)
            or only_choice(game, main) is not None
        ):
            found.append(main)
        quiet = meta.get("quiet", {})
        quiet_game, stand_in = meta.get("quiet_game", ()), meta.get("stand_in", ())
        turn = _turn(game)
        for seat in prompt.others:
            if seat == prompt.player:
                continue
            if seats.is_bot(seats.holder_of(record, seat)):
                waited = prompt.player is None  # a timed wait: the bot must answer
                if waited or meta.get("bots_asked") != version:
                    found.append(seat)
            elif prompt.player is None and (
                (quiet.get(seat) == turn and turn is not None)
                or seat in quiet_game
                or seat in stand_in
                or absence.is_away(meta, seat)
            ):
                found.append(seat)
        return found

    @staticmethod
    def ai_plays(record: TableRecord, meta: dict[str, Any], seat: str) -> bool:
        """True if an AI plays ``seat``'s decisions now for its away person (idle=bot)."""
        return absence.is_away(meta, seat) and seats.settings(record)["idle"] == "bot"

    # -- queries ------------------------------------------------------------------------------

    async def current(self, channel_id: int) -> Table | None:
        """The channel's lobby or running table, or None."""
        return await self.load(channel_id)

    async def latest(self, channel_id: int) -> Table | None:
        """The channel's open table, else its most recent finished or abandoned one, or None."""
        table = await self.load(channel_id)
        if table is not None:
            return table
        record = await self.store.latest_table(channel_id)
        return self._table_of(record) if record is not None else None

    async def history(self, channel_id: int, limit: int = 15, upto: Table | None = None) -> list[str]:
        """Public summaries of the last actions at the channel's current or latest table (up to
        the version of ``upto``, an earlier state of the current table, if given)."""
        table = await self.load(channel_id)
        if upto is not None and (table is None or upto.record.version != table.record.version):
            return await self.store.recent_summaries(upto.record.id, limit, upto=upto.record.version)
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

    async def since_last_decision(self, table: Table, seat: str) -> list[tuple[int | None, list[str]]]:
        """What happened since ``seat`` last decided in an earlier turn (so their own moves of this
        turn are included): ``(turn, lines)`` per turn, oldest first."""
        turn = _turn(table.game) if table.game is not None else None
        rows = await self.store.since(table.record.id, seat, turn)
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
        turn = _turn(table.game) if table.game is not None else None
        return await self.store.played_for(table.record.id, seat, turn)

    async def previous_view(self, table: Table, seat: str | None) -> dict[str, Any] | None:
        """The board ``seat`` last saw as its own (after its last decision of an earlier turn),
        to mark what changed since; None without a seat or such a decision."""
        if seat is None or table.game is None:
            return None
        return await self.store.previous_view(table.record.id, seat, _turn(table.game))

    async def awaiting(self, user_id: str, guild_id: int | None = None) -> list[Table]:
        """Every running table that waits for ``user_id`` (on one server if given)."""
        records = await self.store.awaiting(user_id, guild_id)
        return [self._table_of(r) for r in records]

    # -- lobby --------------------------------------------------------------------------------

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
        self._check_open_for_business()
        game_cls = self.registry.get(game_name)
        if game_cls is None:
            raise TableError(
                f"Unknown game '{shorten(game_name, 40)}'. Choose one of: {', '.join(self.registry.names())}."
            )
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
        async with self.lock(channel_id):
            existing = await self.load(channel_id)
            if existing is not None:
                raise TableError(
                    f"This channel already has {with_article(existing.record.game)} table "
                    f"(#{existing.record.id}); finish or abandon it first."
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
                    seats=tuple(seat_ids),
                    meta=seats.with_names(
                        {"settings": table_settings, "holders": holders},
                        {p: n for p, n in (names or {}).items() if p in people},
                    ),
                )
            except StoreConflict as exc:
                raise TableError(str(exc)) from None
            except StoreError:
                raise TableError(NOT_SAVED) from None
            table = Table(record, None)
            self._remember(table)
            log.info("table #%s opened: %s in channel %s", record.id, game_cls.name, channel_id)
            return table

    async def _lobby(self, channel_id: int, table_id: int | None) -> Table:
        table = await self._require(channel_id, table_id)
        if table.record.status != LOBBY:
            raise TableError("The game has already started.")
        return table

    async def join(
        self, channel_id: int, user_id: str, table_id: int | None = None, name: str | None = None
    ) -> Table:
        """Seat the user at the channel's lobby (``name``: their display name, kept)."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError("The game has already started; you can't join it now.")
            if seats.seat_of(record, user_id) is not None:
                raise TableError("You already have a seat at this table.")
            game_cls = self.game_class(record.game)
            if len(record.seats) >= game_cls.max_players:
                raise TableError(
                    f"The table is full ({game_cls.max_players} of {game_cls.max_players} seats)."
                )
            meta = seats.with_names(record.meta, {user_id: name} if name else {})
            new = record.evolve(seats=(*record.seats, user_id), meta=meta)
            return await self._save(table, new, None, actor=user_id, action={"type": "join"})

    async def leave(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """Free the user's seat in the lobby; the host role passes on, a table with no people
        left closes."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
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
            return await self._save(table, new, None, actor=user_id, action={"type": "leave"})

    async def add_bot(
        self, channel_id: int, user_id: str, level: str | None = None, table_id: int | None = None
    ) -> Table:
        """Seat a bot at the lobby (host only); ``level`` defaults to the table's level."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._lobby(channel_id, table_id)
            record = table.record
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can add bots.")
            game_cls = self.game_class(record.game)
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
            holders = {**record.meta.get("holders", {}), seat: holder}
            new = record.evolve(seats=(*record.seats, seat), meta={**record.meta, "holders": holders})
            return await self._save(
                table, new, None, actor=user_id, action={"type": "addbot", "level": chosen}
            )

    async def remove_bot(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """Take the last bot off the lobby (host only)."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._lobby(channel_id, table_id)
            record = table.record
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can remove bots.")
            bots = [s for s in record.seats if seats.is_bot(s)]
            if not bots:
                raise TableError("There is no bot at this table.")
            seat = bots[-1]
            holders = {k: v for k, v in record.meta.get("holders", {}).items() if k != seat}
            new = record.evolve(
                seats=tuple(s for s in record.seats if s != seat), meta={**record.meta, "holders": holders}
            )
            return await self._save(table, new, None, actor=user_id, action={"type": "removebot"})

    async def start(self, channel_id: int, user_id: str, table_id: int | None = None) -> Outcome:
        """Deal the game for the seated players (host only)."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if record.status != LOBBY:
                raise TableError("The game has already started.")
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can start the game.")
            game_cls = self.game_class(record.game)
            if len(record.seats) < game_cls.min_players:
                raise TableError(
                    f"{game_cls.name} needs at least {game_cls.min_players} players; "
                    f"{len(record.seats)} seated (press **Add bot** to fill a seat)."
                )
            game = game_cls.new(record.seats, record.seed, record.options)
            new = record.evolve(status=PLAYING, state=game.to_json())
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
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            record = table.record
            if user_id != record.host_id and not may_manage:
                raise TableError(
                    f"Only the host (<@{record.host_id}>) or someone who can manage this channel "
                    "can abandon the table."
                )
            new = record.evolve(status=ABANDONED)
            log.info("table #%s abandoned", record.id)
            return await self._save(table, new, table.game, actor=user_id, action={"type": "abandon"})

    # -- play ---------------------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        user_id: str,
        action: Action | str,
        *,
        table_id: int | None = None,
        version: int | None = None,
        seen_at: datetime | None = None,
    ) -> Outcome:
        """Apply one action (an action dict or its notation) for the seat ``user_id`` holds, then
        persist it. ``table_id``/``version`` are those a component was drawn for: a mismatch is
        OutOfDate. ``seen_at`` is when a typed move was typed: ChangedSince if another decision
        changed the table after that, TableError if it repeats the user's own move since."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            record, game = table.record, table.game
            if record.status != PLAYING or game is None:
                raise TableError("The game has not started yet.")
            if version is not None and version != record.version:
                raise OutOfDate("That board is out of date.")
            if user_id == SYSTEM:
                seat = SYSTEM
            else:
                found = seats.seat_of(record, user_id)
                if found is None:
                    raise TableError("You are not playing at this table.")
                seat = found
                if seen_at is not None:
                    self._check_seen(record, game, seat, user_id, action, seen_at)
                prompt = game.prompt()
                if prompt is None or seat not in prompt.deciders():
                    names = seats.names(record)
                    waiting = ", ".join(names.get(p, p) for p in prompt.deciders()) if prompt else ""
                    raise TableError(
                        f"It is not your decision right now (waiting for {waiting})."
                        if waiting
                        else "It is not your decision right now."
                    )
            typed = self._check_repeat(channel_id, user_id, action) if isinstance(action, str) else None
            outcome = await self._apply(table, seat, action, who=user_id)
            if typed is not None:
                self._typed[(channel_id, user_id)] = (typed, self._clock())
            return outcome

    async def play_for(
        self,
        channel_id: int,
        table_id: int,
        version: int,
        seat: str,
        action: Action,
        *,
        by: str | None = None,
        note: str = "",
    ) -> Outcome:
        """Apply ``action`` for ``seat`` on the host's own account (a bot, an idle seat's AI, a
        "don't ask me" pass), if the table is still at ``version``; OutOfDate otherwise. ``by``
        (default: the seat's holder) is logged with the action when it is not the seat itself."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            if table.record.version != version or table.game is None or table.record.status != PLAYING:
                raise OutOfDate("The table moved on.")
            outcome = await self._apply(table, seat, action, by=by or seats.holder_of(table.record, seat))
            outcome.note = note
            return outcome

    async def _apply(
        self, table: Table, seat: str, action: Action | str, by: str | None = None, who: str = HOST
    ) -> Outcome:
        """Apply and persist one action for ``seat`` (the caller holds the lock); ``who``: the
        user who took it, or :data:`HOST`."""
        record, game = table.record, table.game
        assert game is not None
        try:
            chosen = game.parse(seat, action) if isinstance(action, str) else action
            game_notation = game.notation(chosen) if by == ONLY_CHOICE else ""
            before, decider_before, turn = game.turn_marker(), _decider(game), _turn(game)
            events = game.apply(seat, chosen)
        except IllegalAction as exc:
            raise TableError(format_text(str(exc), seats.names(record))) from None
        result = game.result()
        meta = {k: v for k, v in record.meta.items() if k != "only_choice"}
        if by == ONLY_CHOICE:  # said on the turn message until the next decision
            meta["only_choice"] = [*record.meta.get("only_choice", []), [seat, game_notation]]
        meta["recent"] = _recent(record.meta, who, chosen, self._clock())
        if who != HOST and seat in meta.get("stand_in", ()):  # the player is back
            meta["stand_in"] = [s for s in meta["stand_in"] if s != seat]
        new = record.evolve(
            status=FINISHED if result is not None else PLAYING, state=game.to_json(), meta=meta
        )
        logged = {**chosen, "by": by} if by is not None and by != seat else chosen
        holder = seats.holder_of(record, seat)
        in_person = by is None or by == holder
        names = seats.names(new)
        if by is not None and seats.is_bot(by) and not seats.is_bot(holder):
            names[seat] = f"AI for {names[seat]}"  # an AI plays a person's turn for them
        saved = await self._save(
            table,
            new,
            game,
            actor=seat,
            action=logged,
            events=events,
            turn=turn,
            acted=seat,
            in_person=in_person,
            names=names,
        )
        if result is not None:
            log.info("table #%s finished", record.id)
        turn_changed = result is not None or game.turn_marker() != before
        after = game.prompt()
        decider = after.player if after is not None else None
        # A timed wait for the others (Argo's Time Machine hold) is news for them, like a new decider.
        waits = after is not None and decider is None and bool(after.timeout) and decider_before is not None
        decider_changed = (decider is not None and decider != decider_before) or waits
        return Outcome(
            saved,
            events,
            turn_changed=turn_changed,
            decider_changed=decider_changed,
            turn_before=turn,
            decider_before=decider_before,
            decider=decider,
        )

    def _check_seen(
        self, record: TableRecord, game: Game, seat: str, user_id: str, typed: Action | str, seen_at: datetime
    ) -> None:
        """Refuse a typed move if the table changed after ``seen_at`` by a decision not the
        user's own (ChangedSince), or if it repeats one of the user's own moves since (TableError)."""
        if record.updated_at <= seen_at:
            return
        recent = record.meta.get("recent", [])
        later = [e for e in recent if datetime.fromisoformat(e[2]) > seen_at]
        if not later or any(e[0] != user_id for e in later) or len(later) >= RECENT_KEPT:
            raise ChangedSince()
        try:
            chosen = game.parse(seat, typed) if isinstance(typed, str) else typed
        except IllegalAction:
            return  # not legal now: applying it says why
        if any(e[1] == chosen for e in later):
            raise TableError(
                f"You just played '{shorten(game.notation(chosen))}' (a click and a typed move came "
                "together); I did not play it a second time."
            )

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

    # -- seats during a game ------------------------------------------------------------------

    async def replace(
        self,
        channel_id: int,
        user_id: str,
        seat: str,
        member: str | None,
        *,
        table_id: int | None = None,
        member_name: str | None = None,
    ) -> Outcome:
        """Hand ``seat`` to ``member`` (a Discord user id, display name ``member_name``), or to an
        AI at the table's level.

        Allowed to the host and to the seat's own player; to any seated player once that seat's
        clock has run out. The new holder plays the seat from now on (its secrets included)."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            record, game = table.record, table.game
            if record.status != PLAYING or game is None:
                raise TableError(
                    "The game has not started: seats change in the lobby (Join, Leave, Add bot)."
                )
            if seat not in record.seats:
                raise TableError("That is not a seat at this table.")
            old = seats.holder_of(record, seat)
            mine = seats.seat_of(record, user_id)
            timed_out = seat in record.meta.get("timed_out", [])
            if user_id != record.host_id and user_id != old and not (timed_out and mine is not None):
                raise TableError(
                    f"Only the host (<@{record.host_id}>) or that seat's player can hand it over "
                    "(any player can once its clock has run out)."
                )
            if member is not None:
                if seats.seat_of(record, member) is not None:
                    raise TableError("That member already plays at this table.")
                holder = member
            else:
                holder = seats.bot_holder(seats.settings(record)["level"])
            if holder == old:
                raise TableError("That seat is already played that way.")
            names = seats.names(record)
            meta = seats.with_holder(record, seat, holder)
            if member is not None and member_name:
                meta = seats.with_names(meta, {member: member_name})
            meta["timed_out"] = [s for s in meta.get("timed_out", []) if s != seat]
            meta["stand_in"] = [s for s in meta.get("stand_in", []) if s != seat]
            action = {"type": "replace", "seat": seat, "from": old, "to": holder}
            meta["recent"] = _recent(meta, HOST, action, self._clock())
            new = record.evolve(meta=meta)
            new_name = seats.name_of(new, seat)
            text = f"{names[seat]}'s seat is now played by {new_name}."
            event = Event(text, kind="replace", data={"seat": seat, "from": old, "to": holder})
            saved = await self._save(
                table,
                new,
                game,
                actor=user_id,
                action=action,
                events=[event],
                turn=_turn(game),
            )
            return Outcome(saved, [event], decider_changed=True)

    async def pause(self, channel_id: int, user_id: str, *, paused: bool) -> Table:
        """Stop (or restart) the table's clocks (host only)."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id)
            record = table.record
            if record.status != PLAYING or table.game is None:
                raise TableError("Only a running game can be paused.")
            if user_id != record.host_id:
                raise TableError(f"Only the host (<@{record.host_id}>) can pause or resume the game.")
            if paused == bool(record.meta.get("paused")):
                raise TableError("The game is already paused." if paused else "The game is not paused.")
            now = self._clock()
            meta = clocks.pause(record.meta, now) if paused else clocks.resume(record.meta, now)
            new = self.schedule(record.evolve(meta=meta), table.game)
            return await self.save_meta(table, new)

    async def quiet(
        self, channel_id: int, user_id: str, table_id: int | None = None, *, whole_game: bool = False
    ) -> Table:
        """Remember that ``user_id`` is not to be asked in timed waits for the rest of this turn
        (or, ``whole_game``, of this game): they pass when asked."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            record, game = table.record, table.game
            seat = seats.seat_of(record, user_id)
            if game is None or seat is None:
                raise TableError("You are not playing at this table.")
            if whole_game:
                changes = {"quiet_game": sorted({*record.meta.get("quiet_game", []), seat})}
            else:
                changes = {"quiet": {**record.meta.get("quiet", {}), seat: _turn(game)}}
            new = self.schedule(record.evolve(meta={**record.meta, **changes}), game)
            return await self.save_meta(table, new)

    async def back(self, channel_id: int, user_id: str, table_id: int | None = None) -> Table:
        """The user is back at this table: their seat is theirs again (see ``bot.absence``)."""
        self._check_open_for_business()
        async with self.lock(channel_id):
            table = await self._require(channel_id, table_id)
            seat = seats.seat_of(table.record, user_id)
            if table.game is None or seat is None:
                raise TableError("You are not playing at this table.")
            if not absence.is_away(table.record.meta, seat):
                raise TableError("You are not away at this table: your seat is yours.")
            meta = clocks.restart(absence.back(table.record.meta, seat), seat, self._clock())
            return await self.mark(table, meta)

    async def set_away(self, user_id: str, until: datetime | None) -> list[Table]:
        """Mark ``user_id`` away until ``until`` at every running table where they hold a seat
        (``until=None``: back everywhere); returns the tables changed."""
        self._check_open_for_business()
        changed = []
        for record in await self.store.seated(user_id):
            async with self.lock(record.channel_id):
                table = await self.load(record.channel_id)
                seat = seats.seat_of(table.record, user_id) if table is not None else None
                if table is None or table.game is None or seat is None:
                    continue
                meta = table.record.meta
                if until is not None:
                    meta = absence.mark(meta, seat, absence.SAID, until)
                elif absence.is_away(meta, seat):
                    meta = clocks.restart(absence.back(meta, seat), seat, self._clock())
                else:
                    continue
                changed.append(await self.mark(table, meta))
        return changed

    async def note(self, table: Table, changes: dict[str, Any]) -> None:
        """Merge ``changes`` into the table's bookkeeping if it has not moved on (best effort)."""
        async with self.lock(table.record.channel_id):
            current = await self.load(table.record.channel_id)
            if current is None or current.record.id != table.record.id or current.game is None:
                return
            try:
                await self.mark(current, {**current.record.meta, **changes})
            except (TableError, StoreConflict) as exc:
                log.info("table #%s: bookkeeping not saved: %s", table.record.id, exc)

    async def mark(self, table: Table, meta: dict[str, Any]) -> Table:
        """Save new bookkeeping for ``table`` (the caller holds its lock), rescheduled."""
        assert table.game is not None
        new = self.schedule(table.record.evolve(meta=meta), table.game)
        return await self.save_meta(table, new)

    async def defer_effect(self, channel_id: int, table_id: int, key: str, until: datetime) -> None:
        """Let the due effect ``key`` wait until ``until`` (its person's quiet hours)."""
        async with self.lock(channel_id):
            table = await self.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            await self.mark(table, effects.deferred(table.record.meta, key, until))

    async def complete_effects(self, channel_id: int, table_id: int, keys: set[str]) -> None:
        """Mark the due effects named ``keys`` done (see ``bot.effects``), once performed."""
        async with self.lock(channel_id):
            table = await self.load(channel_id)
            if table is None or table.record.id != table_id or table.game is None:
                return
            meta = effects.without(table.record.meta, keys)
            if meta != table.record.meta:
                await self.mark(table, meta)

    async def due(self) -> list[TableRecord]:
        """Playing tables whose next deadline has come (of this process's shards, if sharded)."""
        if self._closing:
            return []
        if self.shards is None:
            return await self.store.due_tables(self._clock())
        return await self.store.due_tables(self._clock(), shards=self.shards)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        """Remember the channel message that now shows this table at its version (best effort: a
        failed write is logged, and the table is shown by a new message next time)."""
        version = table.record.version
        try:
            await self.store.set_message(table.record.id, message_id, version)
        except StoreError as exc:
            log.error("table #%s: could not remember its message: %s", table.record.id, exc)
            return
        cached = self._cache.get(table.record.channel_id)
        if cached is not None and cached.record.id == table.record.id:
            shown = max(cached.record.shown_version, version)
            cached.record = cached.record.evolve(message_id=message_id, shown_version=shown)

    async def shown(self, table: Table) -> None:
        """Remember that the table's message now shows ``table``'s version (best effort)."""
        record = table.record
        cached = self._cache.get(record.channel_id)
        known = cached.record if cached is not None and cached.record.id == record.id else record
        if known.shown_version >= record.version:
            return
        try:
            await self.store.set_shown(record.id, record.version)
        except StoreError as exc:
            log.error("table #%s: could not remember what its message shows: %s", record.id, exc)
            return
        if known is not record:
            cached.record = known.evolve(shown_version=record.version)  # type: ignore[union-attr]

    async def stale(self, grace: timedelta) -> list[TableRecord]:
        """Tables (of this process's shards) whose channel message has been older than the
        table for longer than ``grace``: a post failed, or the process stopped before it."""
        if self._closing:
            return []
        before = self._clock() - grace
        if self.shards is None:
            return await self.store.stale_tables(before)
        return await self.store.stale_tables(before, shards=self.shards)

    def table_of(self, record: TableRecord) -> Table:
        """The table of a stored record: its cached live table if that is the same version."""
        cached = self._cache.get(record.channel_id)
        if cached is not None and cached.record.id == record.id and cached.record.rev == record.rev:
            return cached
        return self._table_of(record)

    # -- shutdown -----------------------------------------------------------------------------

    def stop_accepting(self) -> None:
        """Refuse new changes from now on (reads and message bookkeeping still work)."""
        self._closing = True

    @property
    def closing(self) -> bool:
        """True once the host refuses new changes."""
        return self._closing

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


def split_settings(game_cls: type[Game], values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parsed options split into the game's options and the table's settings (bots checked)."""
    options, table = seats.split_options(game_cls.option_specs, values)
    if int(table.get("bots", 0)) >= game_cls.max_players:
        raise TableError(f"{game_cls.name} seats at most {game_cls.max_players} players, you included.")
    return options, table
