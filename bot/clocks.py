"""Decision clocks, reminders and prompt timeouts: when each falls due (pure functions over
``TableRecord.meta``; the host stores the result and its scheduler acts on it).

``meta["clock"]`` is the awaited seat's decision clock: ``{"seat", "since", "half", "late", "out"}``
(the three flags say which moments were already handled). It starts when a seat becomes the main
decider and starts again each time that seat decides. ``meta["hold"]`` is a prompt timeout
(``{"key", "since", "seconds"}``): prompts with the same non-empty ``timer_key`` share one running
timeout. ``meta["paused"]`` is when the host paused the table: no moment falls due while paused.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.engine.core import Prompt

LATE_BEFORE = timedelta(hours=2)
"""The second reminder comes this long before the clock runs out (a quarter of a short clock)."""

HALF, LATE, OUT, HOLD = "half", "late", "out", "hold"


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def track(meta: dict[str, Any], prompt: Prompt | None, acted: str | None, now: datetime) -> dict[str, Any]:
    """``meta`` with the clock and hold updated after a change of the game (``acted``: the seat
    that just decided, if any)."""
    meta = dict(meta)
    seat = prompt.player if prompt is not None else None
    clock = meta.get("clock")
    if seat is None:
        meta.pop("clock", None)
    elif clock is None or clock["seat"] != seat or acted == seat:
        meta["clock"] = {"seat": seat, "since": now.isoformat(), HALF: False, LATE: False, OUT: False}
    if prompt is not None and prompt.timeout:
        hold = meta.get("hold")
        key = prompt.timer_key
        if hold is None or not key or hold["key"] != key:
            meta["hold"] = {"key": key, "since": now.isoformat(), "seconds": prompt.timeout}
    else:
        meta.pop("hold", None)
    return meta


def clock_end(meta: dict[str, Any], hours: int) -> datetime | None:
    """When the awaited seat's clock runs out (None without a clock)."""
    clock = meta.get("clock")
    if clock is None or hours <= 0:
        return None
    return _at(clock["since"]) + timedelta(hours=hours)


def moments(meta: dict[str, Any], hours: int) -> dict[str, datetime]:
    """The moments still to come, by kind (half, late, out, hold); none while paused, and no
    clock moment while the clock's seat is away (see ``bot.absence``)."""
    if meta.get("paused"):
        return {}
    found: dict[str, datetime] = {}
    clock = meta.get("clock")
    end = clock_end(meta, hours)
    if clock is not None and end is not None and clock["seat"] not in meta.get("away", {}):
        length = timedelta(hours=hours)
        since = _at(clock["since"])
        if not clock[HALF]:
            found[HALF] = since + length / 2
        if not clock[LATE]:
            found[LATE] = end - min(LATE_BEFORE, length / 4)
        if not clock[OUT]:
            found[OUT] = end
    hold = meta.get("hold")
    if hold is not None:
        found[HOLD] = _at(hold["since"]) + timedelta(seconds=hold["seconds"])
    return found


def due(meta: dict[str, Any], hours: int, now: datetime) -> list[str]:
    """The kinds of moment that have come (in the order they fall due)."""
    return [kind for kind, at in sorted(moments(meta, hours).items(), key=lambda kv: kv[1]) if at <= now]


def next_moment(meta: dict[str, Any], hours: int) -> datetime | None:
    """The earliest moment still to come, or None."""
    found = moments(meta, hours)
    return min(found.values()) if found else None


def mark(meta: dict[str, Any], kind: str) -> dict[str, Any]:
    """``meta`` with a clock moment marked as handled."""
    clock = dict(meta["clock"])
    clock[kind] = True
    if kind == OUT:
        clock[HALF] = clock[LATE] = True
    elif kind == LATE:
        clock[HALF] = True
    return {**meta, "clock": clock}


def pause(meta: dict[str, Any], now: datetime) -> dict[str, Any]:
    """``meta`` of a paused table: its clocks stop."""
    return {**meta, "paused": now.isoformat()}


def resume(meta: dict[str, Any], now: datetime) -> dict[str, Any]:
    """``meta`` of a resumed table: its clocks go on from where they stopped."""
    meta = dict(meta)
    paused = meta.pop("paused", None)
    if paused is None:
        return meta
    for key in ("clock", "hold"):
        if key in meta:
            since = _at(meta[key]["since"])
            stopped = now - max(since, _at(paused))  # a clock that started during the pause lost less
            meta[key] = {**meta[key], "since": (since + stopped).isoformat()}
    return meta


def restart(meta: dict[str, Any], seat: str, now: datetime) -> dict[str, Any]:
    """``meta`` with ``seat``'s clock started again from ``now`` (if it is the clock's seat)."""
    clock = meta.get("clock")
    if clock is None or clock["seat"] != seat:
        return meta
    return {**meta, "clock": {"seat": seat, "since": now.isoformat(), HALF: False, LATE: False, OUT: False}}
