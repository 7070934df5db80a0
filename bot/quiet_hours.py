"""A person's quiet hours: a daily stretch of local time in which the bot sends them no reminder
(pure functions; the hours are kept per person in the store, see ``TableReads.person``)."""

from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import datetime, time, timedelta
from typing import Any

from bot.engine.core import IllegalAction, shorten

ZONE_LENGTH = 64
"""The longest time-zone name looked up (the IANA database's longest is 32 characters): a longer
text is refused before the zone database is asked (``zoneinfo`` opens a file named after it)."""

_TIME_OF_DAY = re.compile(r"([0-9]{1,2}):([0-9]{2})")


@functools.cache
def known_zones() -> frozenset[str]:
    """Every IANA time-zone name of the zone database (read once)."""
    return frozenset(zoneinfo.available_timezones())


def _echo(text: str, limit: int) -> str:
    """What a person typed, on one line and short, to repeat it in a refusal."""
    return shorten(" ".join(text.split()), limit)


def _time_of_day(text: str) -> time:
    """``HH:MM`` in ASCII digits as a time; IllegalAction otherwise."""
    found = _TIME_OF_DAY.fullmatch(text)
    if found is None or int(found[1]) > 23 or int(found[2]) > 59:
        raise IllegalAction(f"'{_echo(text, 10)}' is not a time of day: write it as HH:MM, e.g. 22:30.")
    return time(int(found[1]), int(found[2]))


def parse(start: str, end: str, zone: str) -> dict[str, str]:
    """Quiet hours from what a person typed (``HH:MM``, ``HH:MM``, an IANA zone); IllegalAction
    with a short sentence if something cannot be read. The zone must be a name of the zone
    database (checked by length first, then against the database's list)."""
    if len(zone) > ZONE_LENGTH or zone not in known_zones():
        raise IllegalAction(f"I don't know the time zone '{_echo(zone, 40)}': pick one from the list.")
    try:
        zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise IllegalAction(
            f"I can't read the time zone '{_echo(zone, 40)}': pick another from the list."
        ) from None
    first, last = _time_of_day(start), _time_of_day(end)
    return {"start": first.strftime("%H:%M"), "end": last.strftime("%H:%M"), "zone": zone}


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
    if len(wanted) > ZONE_LENGTH:
        return []
    return sorted(z for z in known_zones() if wanted in z.lower())[:limit]
