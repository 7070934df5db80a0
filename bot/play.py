"""Playing: applying a seat's action under the channel's lock, typed moves judged by when they
were typed, and what an applied action did."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

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
from bot.host_core import HostCore
from bot.store import FINISHED, PLAYING, TableRecord
from bot.table import ChangedSince, Outcome, OutOfDate, Table, TableError, decider_of, turn_of

log = logging.getLogger(__name__)

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


class Play(HostCore):
    """Applying actions: a person's (``act``), the host's for a seat (``play_for``)."""

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

    @metrics.counts_actions
    async def _apply(
        self, table: Table, seat: str, action: Action | str, by: str | None = None, who: str = HOST
    ) -> Outcome:
        """Apply and persist one action for ``seat`` (the caller holds the lock); ``who``: the
        user who took it, or :data:`HOST`."""
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
        meta = {k: v for k, v in record.meta.items() if k != "only_choice"}
        if by == ONLY_CHOICE:  # said on the turn message until the next decision
            meta["only_choice"] = [*record.meta.get("only_choice", []), [seat, said]]
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
