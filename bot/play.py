"""Playing: applying a seat's action under the channel's lock, typed moves judged by when they
were typed, and what an applied action did."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot import metrics, seats
from bot.deadlines import ONLY_CHOICE
from bot.engine.core import (
    SYSTEM,
    Action,
    Game,
    IllegalAction,
    format_text,
    shorten,
)
from bot.locks import ChannelLocks
from bot.shutdown import Shutdown
from bot.store import FINISHED, PLAYING, TableRecord
from bot.table import ChangedSince, Outcome, OutOfDate, Table, TableError, decider_of, turn_of
from bot.table_cache import TableCache
from bot.table_meta import Decision, OnlyChoice, TableMeta
from bot.table_saving import TableSaver

log = logging.getLogger(__name__)

TYPED_REPEAT_SECONDS = 10
"""The same typed move from the same player within this many seconds is refused as a repeat."""

RECENT_KEPT = 12
RECENT_FOR = timedelta(minutes=15)
"""The latest decisions are kept in ``meta.recent`` (:class:`~bot.table_meta.Decision`: who
acted, the user or ``"host"``; the action; the host's time; the table's version it made; the id of
the Discord interaction that made it, None for the host's own), at most this many and this old,
to judge a typed move against the table its author saw (an interaction's token lives 15
minutes)."""
HOST = "host"


@dataclass(frozen=True)
class Typed:
    """A typed move's place in time: ``snowflake``, the id Discord gave its interaction (Discord's
    clock, the same as every click's), and ``version``, the table's version when it reached the
    bot. A decision with a larger snowflake, or applied after it reached the bot, came after it."""

    snowflake: int
    version: int


def _recent(
    meta: TableMeta,
    who: str,
    action: Action,
    now: datetime,
    version: int,
    snowflake: int | None = None,
) -> tuple[Decision, ...]:
    """``meta.recent`` with one more decision (see :data:`RECENT_FOR`)."""
    kept = [e for e in meta.recent if now - e.at <= RECENT_FOR]
    return (*kept[-(RECENT_KEPT - 1) :], Decision(who, action, now, version, snowflake))


def came_after(entry: Decision, typed: Typed) -> bool:
    """True if the decision ``entry`` of ``meta.recent`` was made after the move ``typed`` was
    typed: it was applied after the move reached the bot, or its interaction was created after the
    move's (Discord's clock on both sides: no skew, no tie). A decision of the host's own made
    before the move reached the bot has only the host's clock to compare."""
    if entry.version is not None and entry.version > typed.version:
        return True
    if entry.snowflake is not None:
        return entry.snowflake > typed.snowflake
    return entry.at > discord_time(typed.snowflake)


def discord_time(snowflake: int) -> datetime:
    """When Discord made the id ``snowflake`` (its milliseconds since 2015)."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


DISCORD_EPOCH_MS = 1_420_070_400_000


class Play:
    """Applying actions: a person's (``act``), the host's for a seat (``play_for``). Each is
    applied under the channel's lock (``locks``) to the live game read from ``cache`` and saved by
    ``saver``, at the time of ``clock``; ``shutdown`` refuses actions once the host is closing."""

    def __init__(
        self,
        locks: ChannelLocks,
        cache: TableCache,
        saver: TableSaver,
        shutdown: Shutdown,
        clock: Callable[[], datetime],
    ) -> None:
        self._locks = locks
        self._cache = cache
        self._saver = saver
        self._shutdown = shutdown
        self._clock = clock
        self._typed: dict[tuple[int, str], tuple[str, datetime]] = {}
        """The last typed move of each (channel, user), normalised, and when it was played."""

    async def act(
        self,
        channel_id: int,
        user_id: str,
        action: Action | str,
        *,
        table_id: int | None = None,
        version: int | None = None,
        typed: Typed | None = None,
        interaction_id: int | None = None,
    ) -> Outcome:
        """Apply one action (an action dict or its notation) for the seat ``user_id`` holds, then
        persist it. ``table_id``/``version`` are those a component was drawn for: a mismatch is
        OutOfDate. ``typed`` is when a typed move was typed: ChangedSince if another decision
        changed the table after that, TableError if it repeats the user's own move since.
        ``interaction_id``: the Discord interaction that asked for it (kept with the decision, to
        order it against typed moves)."""
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
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
                if typed is not None:
                    self._check_typed(record, game, seat, user_id, action, typed)
                prompt = game.prompt()
                if prompt is None or seat not in prompt.deciders():
                    names = seats.names(record)
                    waiting = ", ".join(names.get(p, p) for p in prompt.deciders()) if prompt else ""
                    raise TableError(
                        f"It is not your decision right now (waiting for {waiting})."
                        if waiting
                        else "It is not your decision right now."
                    )
            text = self._check_repeat(channel_id, user_id, action) if isinstance(action, str) else None
            outcome = await self._apply(table, seat, action, who=user_id, snowflake=interaction_id)
            if text is not None:
                self._typed[(channel_id, user_id)] = (text, self._clock())
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
        self._shutdown.check_open()
        async with self._locks.lock(channel_id):
            table = await self._cache.require(channel_id, table_id)
            if table.record.version != version or table.game is None or table.record.status != PLAYING:
                raise OutOfDate("The table moved on.")
            outcome = await self._apply(table, seat, action, by=by or seats.holder_of(table.record, seat))
            outcome.note = note
            return outcome

    @metrics.counts_actions
    async def _apply(
        self,
        table: Table,
        seat: str,
        action: Action | str,
        by: str | None = None,
        who: str = HOST,
        snowflake: int | None = None,
    ) -> Outcome:
        """Apply and persist one action for ``seat`` (the caller holds the lock); ``who``: the
        user who took it, or :data:`HOST`; ``snowflake``: the interaction that asked for it."""
        record, game = table.record, table.game
        assert game is not None
        try:
            chosen = game.parse(seat, action) if isinstance(action, str) else action
            # an only choice is said on the turn message in the words its menu would show
            typed = tuple(game.notation(chosen).split()) if by == ONLY_CHOICE else ()
            said = game.choice_words(seat, (), typed)[0] if typed else ""
            before, decider_before, turn = game.turn_marker(), decider_of(game), turn_of(game)
            events = game.apply(seat, chosen)
        except IllegalAction as exc:
            raise TableError(format_text(str(exc), seats.names(record))) from None
        result = game.result()
        said_now = (*record.meta.only_choice, OnlyChoice(seat, said)) if by == ONLY_CHOICE else ()
        meta = replace(  # an only choice is said on the turn message until the next decision
            record.meta,
            only_choice=said_now,
            recent=_recent(record.meta, who, chosen, self._clock(), record.version + 1, snowflake),
        )
        if who != HOST and seat in meta.stand_in:  # the player is back
            meta = replace(meta, stand_in=tuple(s for s in meta.stand_in if s != seat))
        new = record.evolve(
            status=FINISHED if result is not None else PLAYING, state=game.to_json(), meta=meta
        )
        logged = {**chosen, "by": by} if by is not None and by != seat else chosen
        holder = seats.holder_of(record, seat)
        in_person = by is None or by == holder
        names = seats.names(new)
        if by is not None and seats.is_bot(by) and not seats.is_bot(holder):
            names[seat] = f"AI for {names[seat]}"  # an AI plays a person's turn for them
        saved = await self._saver.save(
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

    def _check_typed(
        self, record: TableRecord, game: Game, seat: str, user_id: str, action: Action | str, typed: Typed
    ) -> None:
        """Refuse a typed move if the table changed after it was typed (see :func:`came_after`)
        by anything but the user's own decisions (ChangedSince), or if it repeats one of the
        user's own moves since (TableError): never applied twice, whatever the clocks say."""
        later = [e for e in record.meta.recent if came_after(e, typed)]
        if any(e.who != user_id for e in later) or len(later) >= RECENT_KEPT:
            raise ChangedSince()
        own = {e.version for e in later}
        if any(v not in own for v in range(typed.version + 1, record.version + 1)):
            raise ChangedSince()  # a change since it reached the bot that is not one of the user's
        if not later:
            return
        try:
            chosen = game.parse(seat, action) if isinstance(action, str) else action
        except IllegalAction:
            return  # not legal now: applying it says why
        if any(e.action == chosen for e in later):
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
