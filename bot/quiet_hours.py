"""A person's quiet hours: a daily stretch of local time in which the bot sends them no reminder
(pure functions; the hours are kept per person in the store, see ``TableReads.person``)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time, timedelta
from typing import Any

from bot.engine.core import IllegalAction


def parse(start: str, end: str, zone: str) -> dict[str, str]:
    """Quiet hours from what a person typed (``HH:MM``, ``HH:MM``, an IANA zone); IllegalAction
    with a short sentence if something cannot be read."""
    try:
        zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise IllegalAction(f"I don't know the time zone '{zone[:40]}': pick one from the list.") from None
    for text in (start, end):
        try:
            time.fromisoformat(text)
        except ValueError:
            raise IllegalAction(
                f"'{text[:10]}' is not a time of day: write it as HH:MM, e.g. 22:30."
            ) from None
    return {
        "start": time.fromisoformat(start).strftime("%H:%M"),
        "end": time.fromisoformat(end).strftime("%H:%M"),
        "zone": zone,
    }


def ends(hours: dict[str, Any] | None, now: datetime) -> datetime | None:
    """When the quiet hours that ``now`` falls in end (an aware time), or None if ``now`` is not
    in them (or there are none). Hours may run past midnight (22:00–07:00)."""
    if not hours or hours["start"] == hours["end"]:
        return None
    local = now.astimezone(zoneinfo.ZoneInfo(hours["zone"]))
    start, end = time.fromisoformat(hours["start"]), time.fromisoformat(hours["end"])
    clock = local.time().replace(tzinfo=None)
    if start < end:
        inside = start <= clock < end
        day = local.date()
    else:  # past midnight
        inside = clock >= start or clock < end
        day = local.date() + timedelta(days=1) if clock >= start else local.date()
    if not inside:
        return None
    return datetime.combine(day, end, tzinfo=local.tzinfo).astimezone(now.tzinfo)


def zones(typed: str, limit: int = 25) -> list[str]:
    """IANA zone names matching what a person typed (for autocomplete)."""
    wanted = typed.strip().lower().replace(" ", "_")
    return sorted(z for z in zoneinfo.available_timezones() if wanted in z.lower())[:limit]
