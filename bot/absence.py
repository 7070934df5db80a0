"""People who are away, as plain data in ``TableRecord.meta`` (pure functions over meta).

``meta["away"]`` maps a seat to ``{"until": iso | None, "why": "missed" | "away"}``: the seat's
person is away — after ``away_after`` decisions in a row that their clock took from them
(``missed``, until they act again or press **I'm back**), or because they said so with
``/game away`` (until that day, or ``/game back``). While away, nobody pings or reminds them; under
``idle=bot`` an AI plays the seat at once, under ``idle=wait`` the seat's clock stands still.
``meta["missed"]`` counts, per seat, the decisions in a row that the clock took.

When every person at a table is away, nobody is there to play against: the table *waits*
(``meta["everyone_away"]``: since when) — no clock runs and no AI plays a person's seat (bots still
play their own seats up to a person's decision) — until someone is back or the host abandons it;
the table says so once (an ``everyone_away`` notice). See ``bot.deadlines.everyone_away``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

MISSED, SAID = "missed", "away"
EVERYONE_AWAY = "everyone_away"
"""The key in meta (since when) and the kind of the notice: every person at the table is away."""


def entries(meta: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The seats whose person is away now, with why and until when."""
    return dict(meta.get("away", {}))


def is_away(meta: dict[str, Any], seat: str | None) -> bool:
    """True if ``seat``'s person is away."""
    return seat is not None and seat in meta.get("away", {})


def mark(meta: dict[str, Any], seat: str, why: str, until: datetime | None = None) -> dict[str, Any]:
    """``meta`` with ``seat``'s person away (for ``why``, until ``until`` if given)."""
    away = {**entries(meta), seat: {"why": why, "until": until.isoformat() if until else None}}
    return {**meta, "away": away}


def back(meta: dict[str, Any], seat: str) -> dict[str, Any]:
    """``meta`` with ``seat``'s person back: not away, no turns missed."""
    if seat not in meta.get("away", {}) and seat not in meta.get("missed", {}):
        return meta
    meta = dict(meta)
    away = {s: e for s, e in entries(meta).items() if s != seat}
    missed = {s: n for s, n in meta.get("missed", {}).items() if s != seat}
    for key, value in (("away", away), ("missed", missed)):
        if value:
            meta[key] = value
        else:
            meta.pop(key, None)
    return meta


def missed(meta: dict[str, Any], seat: str) -> tuple[dict[str, Any], int]:
    """``meta`` with one more decision in a row that the clock took from ``seat``; and the count."""
    count = int(meta.get("missed", {}).get(seat, 0)) + 1
    return {**meta, "missed": {**meta.get("missed", {}), seat: count}}, count


def expire(meta: dict[str, Any], now: datetime) -> tuple[dict[str, Any], list[str]]:
    """``meta`` without the absences whose day has come; and the seats that are back."""
    ended = [
        seat
        for seat, entry in entries(meta).items()
        if entry.get("until") and datetime.fromisoformat(entry["until"]) <= now
    ]
    for seat in ended:
        meta = back(meta, seat)
    return meta, ended


def next_return(meta: dict[str, Any]) -> datetime | None:
    """The earliest day someone away comes back by themselves, or None."""
    days = [datetime.fromisoformat(e["until"]) for e in entries(meta).values() if e.get("until")]
    return min(days) if days else None
