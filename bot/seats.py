"""Seats and who holds them: people (Discord user ids) or bots, and the table's own settings.

A seat is the engine's player id; it never changes during a game, so scores and secrets stay with
it. Who plays the seat — its *holder* — may change (a hand-over, an AI taking over). Seats added as
bots in the lobby get ids ``bot:1``, ``bot:2``… which can never be Discord ids. The host keeps the
holders, the table settings and its clock bookkeeping in ``TableRecord.meta`` (plain JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core import IllegalAction, OptionSpec
from bot.store import TableRecord
from bot.store.forgetting import FORMER, FORMER_NAME

BOT = "bot:"
"""Prefix of bot seat ids (``bot:1``) and bot holders (``bot:hard``)."""
LEVELS = ("easy", "normal", "hard")

TABLE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("clock", "Hours each player has for each decision (0: no clock).", 48, minimum=0, maximum=720),
    OptionSpec(
        "idle",
        "When a clock runs out: an AI plays that decision (bot), or the table waits (wait).",
        "bot",
        ("bot", "wait"),
    ),
    OptionSpec("level", "How strongly bots play (easy, normal, hard).", "normal", LEVELS),
    OptionSpec(
        "away_after",
        "Decisions in a row a person's clock may take before an AI plays their seat until they are "
        "back (idle=bot; 0: never).",
        2,
        minimum=0,
        maximum=20,
    ),
    OptionSpec("bots", "Bots to seat at once (solo play: you plus bots).", 0, minimum=0, maximum=4),
    OptionSpec("thread", "Open the table in a new thread of this channel.", "off", ("off", "on")),
    OptionSpec("listed", "List the lobby in /game open (off: not listed).", "on", ("on", "off")),
)
"""Options every table accepts at ``/game new``, whatever the game."""


def split_options(
    game_specs: Sequence[OptionSpec], values: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parsed option values split into (the game's options, the table's settings)."""
    table_names = {spec.name for spec in TABLE_OPTIONS}
    game_names = {spec.name for spec in game_specs}
    game = {k: v for k, v in values.items() if k in game_names}
    table = {k: v for k, v in values.items() if k in table_names and k not in game_names}
    return game, table


def is_bot(holder: str) -> bool:
    """True for a bot holder or a bot seat id."""
    return holder.startswith(BOT)


def bot_holder(level: str) -> str:
    """The holder id of a bot playing at ``level``."""
    if level not in LEVELS:
        raise IllegalAction(f"Bot level must be one of: {', '.join(LEVELS)}.")
    return f"{BOT}{level}"


def level_of(holder: str) -> str:
    """The level of a bot holder."""
    level = holder[len(BOT) :]
    return level if level in LEVELS else "normal"


def settings(record: TableRecord) -> dict[str, Any]:
    """The table settings (clock, idle, level, ...), defaults filled in."""
    values: dict[str, Any] = {spec.name: spec.default for spec in TABLE_OPTIONS}
    values.update(record.meta.get("settings", {}))
    return values


def holders(record: TableRecord) -> dict[str, str]:
    """Every seat's holder, in seat order."""
    given = record.meta.get("holders", {})
    return {seat: given.get(seat, seat) for seat in record.seats}


def holder_of(record: TableRecord, seat: str) -> str:
    """Who plays ``seat`` now (a Discord user id or a bot holder)."""
    return record.meta.get("holders", {}).get(seat, seat)


def seat_of(record: TableRecord, user: str) -> str | None:
    """The seat ``user`` holds at this table, or None."""
    for seat, holder in holders(record).items():
        if holder == user:
            return seat
    return None


def humans(record: TableRecord) -> list[str]:
    """The Discord user ids holding seats, in seat order."""
    return [h for h in holders(record).values() if not is_bot(h)]


def name_of(record: TableRecord, seat: str, holder: str | None = None) -> str:
    """How messages name a seat's holder (or ``holder``, e.g. a former one): a mention for a
    person, "Bot 2 (hard)" for a bot."""
    holder = holder_of(record, seat) if holder is None else holder
    if is_bot(holder):
        number = record.seats.index(seat) + 1 if seat in record.seats else 0
        return f"Bot {number} ({level_of(holder)})"
    if holder.startswith(FORMER):  # someone who asked to be forgotten (/game forget-me)
        return FORMER_NAME
    return f"<@{holder}>"


def display_name(record: TableRecord, person: str) -> str | None:
    """The display name ``person`` had when they joined or were handed a seat here (None if not
    kept: a bot, or a table opened before names were kept)."""
    return record.meta.get("names", {}).get(person)


def with_names(meta: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """``meta`` with display names of people kept (``meta["names"]``: user id → name)."""
    if not names:
        return meta
    return {**meta, "names": {**meta.get("names", {}), **names}}


def names(record: TableRecord) -> dict[str, str]:
    """Names for every seat (see :func:`name_of`), for ``core.format_text``."""
    return {seat: name_of(record, seat) for seat in record.seats}


def next_bot_seat(record: TableRecord) -> str:
    """A fresh bot seat id for this table."""
    taken = {seat for seat in record.seats if is_bot(seat)}
    number = 1
    while f"{BOT}{number}" in taken:
        number += 1
    return f"{BOT}{number}"


def with_holder(record: TableRecord, seat: str, holder: str) -> dict[str, Any]:
    """``record.meta`` with ``seat`` handed to ``holder``."""
    given = dict(record.meta.get("holders", {}))
    if holder == seat:
        given.pop(seat, None)
    else:
        given[seat] = holder
    return {**record.meta, "holders": given}
