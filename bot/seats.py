"""Seats and who holds them: people (Discord user ids) or bots, and the table's own settings.

A seat is the engine's player id; it never changes during a game, so scores and secrets stay with
it. Who plays the seat — its *holder* — may change (a hand-over, an AI taking over). Seats added as
bots in the lobby get ids ``bot:1``, ``bot:2``… which can never be Discord ids. The host keeps the
holders and the table settings in ``TableRecord.meta`` (``bot.table_meta``).

Who plays a seat *now* is one notion, :func:`control`: its person, an AI standing in for them
(with the reason: away, timed out, left, forgotten), or a bot. Deadlines, tending, play, the
hand-overs and the turn message all ask it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bot.engine.core import IllegalAction, OptionSpec
from bot.store import TableRecord
from bot.store.forgetting import FORMER, FORMER_NAME
from bot.table_meta import TableMeta

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
    values.update(record.meta.settings)
    return values


def holders(record: TableRecord) -> dict[str, str]:
    """Every seat's holder, in seat order."""
    return {seat: record.meta.holder_of(seat) for seat in record.seats}


def holder_of(record: TableRecord, seat: str) -> str:
    """Who plays ``seat`` now (a Discord user id or a bot holder)."""
    return record.meta.holder_of(seat)


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
    return record.meta.names.get(person)


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


def with_holder(meta: TableMeta, seat: str, holder: str) -> TableMeta:
    """``meta`` with ``seat`` handed to ``holder`` (its own id: the seat's own person again)."""
    given = {s: h for s, h in meta.holders.items() if s != seat}
    if holder != seat:
        given[seat] = holder
    return replace(meta, holders=given)


class Controller(StrEnum):
    """Who plays a seat now."""

    PERSON = "person"
    """The seat's person (or whoever it was handed to)."""
    STAND_IN = "stand_in"
    """An AI standing in for a person's seat (see :class:`Reason`)."""
    BOT = "bot"
    """A bot seated as a bot (``bot:1``…)."""


class Reason(StrEnum):
    """Why an AI stands in for a person's seat."""

    AWAY = "away"
    """Its person is away (said so, or missed decisions in a row)."""
    TIMED_OUT = "timed_out"
    """Its clock ran out under ``idle=bot``: the AI answers its waits until its person acts."""
    LEFT = "left"
    """The seat was handed to an AI (its person left the game, or the host replaced them)."""
    FORGOTTEN = "forgotten"
    """Its person asked to be forgotten (``/game forget-me``): an AI plays it to the end."""


@dataclass(frozen=True)
class SeatControl:
    """Who plays one seat now (see :func:`control`)."""

    seat: str
    holder: str
    """The seat's holder (a Discord user id, a pseudonym, or a bot holder such as ``bot:hard``)."""
    controller: Controller
    reason: Reason | None = None
    """Why an AI stands in (None unless ``controller`` is STAND_IN)."""
    plays_turns: bool = False
    """The host decides the seat's own decisions now (a bot, or an AI for an away person under
    ``idle=bot`` unless everyone is away); a timed-out seat's turn is played by its take-over."""
    answers_waits: bool = False
    """The host answers the seat's timed waits now (it passes): its person is away or timed out."""

    @property
    def by_bot(self) -> bool:
        """True if the seat's holder is a bot (a bot seat, or a seat handed to an AI)."""
        return is_bot(self.holder)


def control(record: TableRecord, seat: str) -> SeatControl:
    """Who plays ``seat`` now: a bot, an AI standing in for its person (and why), or its person.
    The one predicate behind every "does an AI play this seat now" of the host."""
    meta = record.meta
    holder = meta.holder_of(seat)
    if is_bot(holder):
        if is_bot(seat):
            return SeatControl(seat, holder, Controller.BOT, plays_turns=True)
        reason = Reason.FORGOTTEN if seat.startswith(FORMER) or holder.startswith(FORMER) else Reason.LEFT
        return SeatControl(seat, holder, Controller.STAND_IN, reason, plays_turns=True)
    if meta.is_away(seat):
        turns = settings(record)["idle"] == "bot" and not everyone_away(record)
        return SeatControl(
            seat, holder, Controller.STAND_IN, Reason.AWAY, plays_turns=turns, answers_waits=True
        )
    if seat in meta.stand_in:
        return SeatControl(seat, holder, Controller.STAND_IN, Reason.TIMED_OUT, answers_waits=True)
    return SeatControl(seat, holder, Controller.PERSON)


def ai_plays(record: TableRecord, seat: str) -> bool:
    """True if an AI plays ``seat``'s own decisions now for its away person (idle=bot), unless
    every person at the table is away: then the table waits for someone to be back."""
    found = control(record, seat)
    return found.controller is Controller.STAND_IN and found.reason is Reason.AWAY and found.plays_turns


def everyone_away(record: TableRecord) -> bool:
    """True if every seat a person holds has its person away (and there is such a seat): nobody
    is there to play, so the table waits (see ``bot.absence``)."""
    people = [seat for seat in record.seats if not is_bot(holder_of(record, seat))]
    return bool(people) and all(record.meta.is_away(seat) for seat in people)
