"""Decision clocks, reminders and prompt timeouts: when each falls due (pure functions over
``TableRecord.meta``, a ``bot.table_meta.TableMeta``; the host stores the result and its
scheduler acts on it).

``meta.clock`` is the awaited seat's decision clock (:class:`~bot.table_meta.Clock`: its flags
half, late, out say which moments were already handled; ``v`` is the table's version it started
at). It starts when a seat becomes the main decider and starts again each time that seat
decides. ``meta.hold`` is a prompt timeout (:class:`~bot.table_meta.Hold`): prompts with
the same non-empty ``timer_key`` share one running timeout. ``meta.paused`` is when the host
paused the table: no moment falls due while paused.

A clock or hold whose moment comes while the table's message does not show its version yet (the
message could not be posted: nobody was told) *waits* (``waiting``): it has no moment
until a message showing that version is posted, and then starts again from there (:func:`told`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.engine.core import Prompt
from bot.table_meta import Clock, Hold, TableMeta

LATE_BEFORE = timedelta(hours=2)
"""The second reminder comes this long before the clock runs out (a quarter of a short clock)."""

HALF, LATE, OUT, HOLD = "half", "late", "out", "hold"
RECHECK = "recheck"
"""The moment to look again whether the message a waiting clock or hold waits for is posted."""
WAITING_RECHECK = timedelta(hours=1)
"""How often a waiting clock or hold looks whether its message was posted meanwhile (it starts again
at once when this process posts it; this is for a post the process did not see through)."""


def track(
    meta: TableMeta, prompt: Prompt | None, acted: str | None, now: datetime, version: int = 0
) -> TableMeta:
    """``meta`` with the clock and hold updated after a change of the game (``acted``: the seat
    that just decided, if any; ``version``: the table's version being saved)."""
    seat = prompt.player if prompt is not None else None
    clock, hold = meta.clock, meta.hold
    if seat is None:
        clock = None
    elif clock is None or clock.seat != seat or acted == seat:
        clock = Clock(seat, now, v=version)
    if prompt is not None and prompt.timeout:
        key = prompt.timer_key
        if hold is None or not key or hold.key != key:
            hold = Hold(key, now, prompt.timeout, v=version)
    else:
        hold = None
    return replace(meta, clock=clock, hold=hold)


def clock_end(meta: TableMeta, hours: int) -> datetime | None:
    """When the awaited seat's clock runs out (None without a clock)."""
    clock = meta.clock
    if clock is None or hours <= 0:
        return None
    return clock.since + timedelta(hours=hours)


def moments(meta: TableMeta, hours: int) -> dict[str, datetime]:
    """The moments still to come, by kind (half, late, out, hold); none while paused, and no
    clock moment while the clock's seat is away (see ``bot.absence``)."""
    if meta.paused:
        return {}
    found: dict[str, datetime] = {}
    clock = meta.clock
    end = clock_end(meta, hours)
    if clock is not None and end is not None and not meta.is_away(clock.seat) and not clock.waiting:
        length = timedelta(hours=hours)
        if not clock.half:
            found[HALF] = clock.since + length / 2
        if not clock.late:
            found[LATE] = end - min(LATE_BEFORE, length / 4)
        if not clock.out:
            found[OUT] = end
    hold = meta.hold
    if hold is not None and not hold.waiting:
        found[HOLD] = hold.since + timedelta(seconds=hold.seconds)
    looked = [t.checked for t in (clock, hold) if t is not None and t.waiting and t.checked is not None]
    if looked:
        found[RECHECK] = min(looked) + WAITING_RECHECK
    return found


def timer_of(meta: TableMeta, kind: str) -> Clock | Hold | None:
    """The timer a moment of ``kind`` belongs to: the hold for ``hold``, else the clock."""
    return meta.hold if kind == HOLD else meta.clock


def unseen(meta: TableMeta, kind: str, shown_version: int) -> bool:
    """True if the clock (``kind`` half, late, out) or hold (``hold``) whose moment this is started
    at a version the table's message has not shown yet (``shown_version``): nobody was told."""
    timer = timer_of(meta, kind)
    return timer is not None and timer.v > shown_version


def wait_for_message(meta: TableMeta, kinds: list[str], now: datetime) -> TableMeta:
    """``meta`` with the clock (for half, late, out among ``kinds``) and the hold (for hold)
    waiting until the table's message shows their version (see :func:`told`), looked at again
    every :data:`WAITING_RECHECK` from ``now``."""
    clock, hold = meta.clock, meta.hold
    if hold is not None and HOLD in kinds:
        hold = replace(hold, waiting=True, checked=now)
    if clock is not None and any(kind != HOLD for kind in kinds):
        clock = replace(clock, waiting=True, checked=now)
    return replace(meta, clock=clock, hold=hold)


def checked(meta: TableMeta, now: datetime) -> TableMeta:
    """``meta`` with its waiting clock and hold looked at again ``now`` (still not shown)."""
    clock, hold = meta.clock, meta.hold
    if clock is not None and clock.waiting:
        clock = replace(clock, checked=now)
    if hold is not None and hold.waiting:
        hold = replace(hold, checked=now)
    return replace(meta, clock=clock, hold=hold)


def told(meta: TableMeta, shown_version: int, now: datetime) -> TableMeta | None:
    """``meta`` with the waiting clock and hold whose version the message now shows started again
    from ``now`` (their people are told now); None if none was waiting for that."""
    changed = False
    clock, hold = meta.clock, meta.hold
    if clock is not None and clock.waiting and clock.v <= shown_version:
        clock = Clock(clock.seat, now, v=clock.v)
        changed = True
    if hold is not None and hold.waiting and hold.v <= shown_version:
        hold = replace(hold, since=now, waiting=False, checked=None)
        changed = True
    return replace(meta, clock=clock, hold=hold) if changed else None


def waiting(meta: TableMeta) -> bool:
    """True if the clock or the hold waits for the table's message to be posted."""
    return any(timer.waiting for timer in (meta.clock, meta.hold) if timer is not None)


def due(meta: TableMeta, hours: int, now: datetime) -> list[str]:
    """The kinds of moment that have come (in the order they fall due)."""
    return [kind for kind, at in sorted(moments(meta, hours).items(), key=lambda kv: kv[1]) if at <= now]


def next_moment(meta: TableMeta, hours: int) -> datetime | None:
    """The earliest moment still to come, or None."""
    found = moments(meta, hours)
    return min(found.values()) if found else None


def mark(meta: TableMeta, kind: str) -> TableMeta:
    """``meta`` with a clock moment marked as handled (an earlier moment with it)."""
    assert meta.clock is not None
    clock = meta.clock
    if kind == OUT:
        clock = replace(clock, half=True, late=True, out=True)
    elif kind == LATE:
        clock = replace(clock, half=True, late=True)
    elif kind == HALF:
        clock = replace(clock, half=True)
    return replace(meta, clock=clock)


def pause(meta: TableMeta, now: datetime) -> TableMeta:
    """``meta`` of a paused table: its clocks stop."""
    return replace(meta, paused=now)


def resume(meta: TableMeta, now: datetime) -> TableMeta:
    """``meta`` of a resumed table: its clocks go on from where they stopped."""
    paused = meta.paused
    if paused is None:
        return meta
    clock, hold = meta.clock, meta.hold
    # a clock that started during the pause lost less
    if clock is not None:
        clock = replace(clock, since=clock.since + (now - max(clock.since, paused)))
    if hold is not None:
        hold = replace(hold, since=hold.since + (now - max(hold.since, paused)))
    return replace(meta, paused=None, clock=clock, hold=hold)


def restart(meta: TableMeta, seat: str, now: datetime) -> TableMeta:
    """``meta`` with ``seat``'s clock started again from ``now`` (if it is the clock's seat)."""
    clock = meta.clock
    if clock is None or clock.seat != seat:
        return meta
    fresh = Clock(seat, now, v=clock.v)
    if clock.waiting:  # still not told
        fresh = replace(fresh, waiting=True, checked=clock.checked or now)
    return replace(meta, clock=fresh)
