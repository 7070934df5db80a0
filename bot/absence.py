"""People who are away, in ``TableRecord.meta`` (pure functions over a ``bot.table_meta.TableMeta``).

``meta.away`` maps a seat to its :class:`~bot.table_meta.Absence` (why: ``missed`` or ``away``;
until when, or None): the seat's
person is away — after ``away_after`` decisions in a row that their clock took from them
(``missed``, until they act again or press **I'm back**), or because they said so with
``/game away`` (until that day, or ``/game back``). While away, nobody pings or reminds them; under
``idle=bot`` an AI plays the seat at once, under ``idle=wait`` the seat's clock stands still.
``meta.missed`` counts, per seat, the decisions in a row that the clock took.

When every person at a table is away, nobody is there to play against: the table *waits*
(``meta.everyone_away``: since when) — no clock runs and no AI plays a person's seat (bots still
play their own seats up to a person's decision) — until someone is back or the host abandons it;
the table says so once (an ``everyone_away`` notice). See ``bot.deadlines.everyone_away``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.table_meta import MISSED, SAID, Absence, TableMeta

__all__ = ["EVERYONE_AWAY", "MISSED", "SAID", "back", "expire", "mark", "missed", "next_return"]

EVERYONE_AWAY = "everyone_away"
"""The kind of the notice: every person at the table is away."""


def mark(meta: TableMeta, seat: str, why: str, until: datetime | None = None) -> TableMeta:
    """``meta`` with ``seat``'s person away (for ``why``, until ``until`` if given)."""
    return replace(meta, away={**meta.away, seat: Absence(why, until)})


def back(meta: TableMeta, seat: str) -> TableMeta:
    """``meta`` with ``seat``'s person back: not away, no turns missed."""
    if seat not in meta.away and seat not in meta.missed:
        return meta
    return replace(
        meta,
        away={s: a for s, a in meta.away.items() if s != seat},
        missed={s: n for s, n in meta.missed.items() if s != seat},
    )


def missed(meta: TableMeta, seat: str) -> tuple[TableMeta, int]:
    """``meta`` with one more decision in a row that the clock took from ``seat``; and the count."""
    count = meta.missed.get(seat, 0) + 1
    return replace(meta, missed={**meta.missed, seat: count}), count


def expire(meta: TableMeta, now: datetime) -> tuple[TableMeta, list[str]]:
    """``meta`` without the absences whose day has come; and the seats that are back."""
    ended = [seat for seat, away in meta.away.items() if away.until is not None and away.until <= now]
    for seat in ended:
        meta = back(meta, seat)
    return meta, ended


def next_return(meta: TableMeta) -> datetime | None:
    """The earliest day someone away comes back by themselves, or None."""
    days = [a.until for a in meta.away.values() if a.until is not None]
    return min(days) if days else None
