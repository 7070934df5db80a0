"""Decision clocks, reminders and prompt timeouts: when each falls due (pure functions over
``TableRecord.meta``, a ``bot.table_meta.TableMeta``; the host stores the result and its
scheduler acts on it).

``meta.clock`` is the awaited seat's decision clock: ``{"seat", "since", "half", "late", "out",
"v"}`` (the three flags say which moments were already handled; ``v`` is the table's version it
started at). It starts when a seat becomes the main decider and starts again each time that seat
decides. ``meta.hold`` is a prompt timeout (``{"key", "since", "seconds", "v"}``): prompts with
the same non-empty ``timer_key`` share one running timeout. ``meta.paused`` is when the host
paused the table: no moment falls due while paused.

A clock or hold whose moment comes while the table's message does not show its version yet (the
message could not be posted: nobody was told) *waits* (``"waiting": True``): it has no moment
until a message showing that version is posted, and then starts again from there (:func:`told`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.engine.core import Prompt
from bot.table_meta import TableMeta, Timer

LATE_BEFORE = timedelta(hours=2)
"""The second reminder comes this long before the clock runs out (a quarter of a short clock)."""

HALF, LATE, OUT, HOLD = "half", "late", "out", "hold"
RECHECK = "recheck"
"""The moment to look again whether the message a waiting clock or hold waits for is posted."""
WAITING = "waiting"
WAITING_RECHECK = timedelta(hours=1)
"""How often a waiting clock or hold looks whether its message was posted meanwhile (it starts again
at once when this process posts it; this is for a post the process did not see through)."""


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def track(
    meta: TableMeta, prompt: Prompt | None, acted: str | None, now: datetime, version: int = 0
) -> TableMeta:
    """``meta`` with the clock and hold updated after a change of the game (``acted``: the seat
    that just decided, if any; ``version``: the table's version being saved)."""
    seat = prompt.player if prompt is not None else None
    clock, hold = meta.clock, meta.hold
    if seat is None:
        clock = None
    elif clock is None or clock["seat"] != seat or acted == seat:
        clock = _fresh_clock(seat, now, version)
    if prompt is not None and prompt.timeout:
        key = prompt.timer_key
        if hold is None or not key or hold["key"] != key:
            hold = {"key": key, "since": now.isoformat(), "seconds": prompt.timeout, "v": version}
    else:
        hold = None
    return replace(meta, clock=clock, hold=hold)


def _fresh_clock(seat: str, now: datetime, version: int) -> Timer:
    return {"seat": seat, "since": now.isoformat(), HALF: False, LATE: False, OUT: False, "v": version}


def clock_end(meta: TableMeta, hours: int) -> datetime | None:
    """When the awaited seat's clock runs out (None without a clock)."""
    clock = meta.clock
    if clock is None or hours <= 0:
        return None
    return _at(clock["since"]) + timedelta(hours=hours)


def moments(meta: TableMeta, hours: int) -> dict[str, datetime]:
    """The moments still to come, by kind (half, late, out, hold); none while paused, and no
    clock moment while the clock's seat is away (see ``bot.absence``)."""
    if meta.paused:
        return {}
    found: dict[str, datetime] = {}
    clock = meta.clock
    end = clock_end(meta, hours)
    if clock is not None and end is not None and not meta.is_away(clock["seat"]) and not clock.get(WAITING):
        length = timedelta(hours=hours)
        since = _at(clock["since"])
        if not clock[HALF]:
            found[HALF] = since + length / 2
        if not clock[LATE]:
            found[LATE] = end - min(LATE_BEFORE, length / 4)
        if not clock[OUT]:
            found[OUT] = end
    hold = meta.hold
    if hold is not None and not hold.get(WAITING):
        found[HOLD] = _at(hold["since"]) + timedelta(seconds=hold["seconds"])
    looked = [_at(t["checked"]) for t in (clock, hold) if t and t.get(WAITING) and "checked" in t]
    if looked:
        found[RECHECK] = min(looked) + WAITING_RECHECK
    return found


def timer_of(meta: TableMeta, kind: str) -> Timer | None:
    """The timer a moment of ``kind`` belongs to: the hold for ``hold``, else the clock."""
    return meta.hold if kind == HOLD else meta.clock


def unseen(meta: TableMeta, kind: str, shown_version: int) -> bool:
    """True if the clock (``kind`` half, late, out) or hold (``hold``) whose moment this is started
    at a version the table's message has not shown yet (``shown_version``): nobody was told."""
    timer = timer_of(meta, kind)
    return timer is not None and int(timer.get("v", 0)) > shown_version


def wait_for_message(meta: TableMeta, kinds: list[str], now: datetime) -> TableMeta:
    """``meta`` with the clock (for half, late, out among ``kinds``) and the hold (for hold)
    waiting until the table's message shows their version (see :func:`told`), looked at again
    every :data:`WAITING_RECHECK` from ``now``."""
    mark = {WAITING: True, "checked": now.isoformat()}
    clock, hold = meta.clock, meta.hold
    if hold is not None and HOLD in kinds:
        hold = {**hold, **mark}
    if clock is not None and any(kind != HOLD for kind in kinds):
        clock = {**clock, **mark}
    return replace(meta, clock=clock, hold=hold)


def checked(meta: TableMeta, now: datetime) -> TableMeta:
    """``meta`` with its waiting clock and hold looked at again ``now`` (still not shown)."""
    clock, hold = meta.clock, meta.hold
    if clock is not None and clock.get(WAITING):
        clock = {**clock, "checked": now.isoformat()}
    if hold is not None and hold.get(WAITING):
        hold = {**hold, "checked": now.isoformat()}
    return replace(meta, clock=clock, hold=hold)


def told(meta: TableMeta, shown_version: int, now: datetime) -> TableMeta | None:
    """``meta`` with the waiting clock and hold whose version the message now shows started again
    from ``now`` (their people are told now); None if none was waiting for that."""
    changed = False
    clock, hold = meta.clock, meta.hold
    if clock is not None and clock.get(WAITING) and int(clock.get("v", 0)) <= shown_version:
        clock = _fresh_clock(clock["seat"], now, int(clock.get("v", 0)))
        changed = True
    if hold is not None and hold.get(WAITING) and int(hold.get("v", 0)) <= shown_version:
        hold = {k: v for k, v in hold.items() if k not in (WAITING, "checked")} | {"since": now.isoformat()}
        changed = True
    return replace(meta, clock=clock, hold=hold) if changed else None


def waiting(meta: TableMeta) -> bool:
    """True if the clock or the hold waits for the table's message to be posted."""
    return any(bool(timer.get(WAITING)) for timer in (meta.clock, meta.hold) if timer is not None)


def due(meta: TableMeta, hours: int, now: datetime) -> list[str]:
    """The kinds of moment that have come (in the order they fall due)."""
    return [kind for kind, at in sorted(moments(meta, hours).items(), key=lambda kv: kv[1]) if at <= now]


def next_moment(meta: TableMeta, hours: int) -> datetime | None:
    """The earliest moment still to come, or None."""
    found = moments(meta, hours)
    return min(found.values()) if found else None


def mark(meta: TableMeta, kind: str) -> TableMeta:
    """``meta`` with a clock moment marked as handled."""
    assert meta.clock is not None
    clock = dict(meta.clock)
    clock[kind] = True
    if kind == OUT:
        clock[HALF] = clock[LATE] = True
    elif kind == LATE:
        clock[HALF] = True
    return replace(meta, clock=clock)


def pause(meta: TableMeta, now: datetime) -> TableMeta:
    """``meta`` of a paused table: its clocks stop."""
    return replace(meta, paused=now)


def resume(meta: TableMeta, now: datetime) -> TableMeta:
    """``meta`` of a resumed table: its clocks go on from where they stopped."""
    paused = meta.paused
    if paused is None:
        return meta

    def moved(timer: Timer | None) -> Timer | None:
        if timer is None:
            return None
        since = _at(timer["since"])
        stopped = now - max(since, paused)  # a clock that started during the pause lost less
        return {**timer, "since": (since + stopped).isoformat()}

    return replace(meta, paused=None, clock=moved(meta.clock), hold=moved(meta.hold))


def restart(meta: TableMeta, seat: str, now: datetime) -> TableMeta:
    """``meta`` with ``seat``'s clock started again from ``now`` (if it is the clock's seat)."""
    clock = meta.clock
    if clock is None or clock["seat"] != seat:
        return meta
    fresh = _fresh_clock(seat, now, int(clock.get("v", 0)))
    if clock.get(WAITING):  # still not told
        fresh[WAITING], fresh["checked"] = True, clock.get("checked", now.isoformat())
    return replace(meta, clock=fresh)
