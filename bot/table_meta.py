"""The table's metadata: everything the host keeps about a table besides its game, as one typed
value (:class:`TableMeta`), and its stored JSON shape. This module is its only owner: every other
module reads its fields and makes a new value with :func:`dataclasses.replace` (or the helpers
here); none reads or writes the stored keys.

What it holds (each field's default is its registered default; a field at its default is left out
of the stored JSON, like an unset value in Red-DiscordBot's Config):

- the table's settings and who holds each seat (``settings``, ``holders``, ``names``), see
  ``bot.seats``;
- time: the decision clock, a prompt's hold, when the table was paused (``clock``, ``hold``,
  ``paused``), see ``bot.clocks``; the deadline effects due (``effects``), see ``bot.effect_outbox``;
- who the AI stands in for and why (``away``, ``missed``, ``everyone_away``, ``stand_in``,
  ``timed_out``, ``quiet``, ``quiet_game``), read through one predicate, ``bot.seats.control``;
- notes for the turn message and typed moves (``recent``, ``only_choice``, ``bots_asked``,
  ``wait_pinged``, ``unreachable``).

The stored JSON carries its shape's number (``"v"``, :data:`SHAPE`). Older shapes are upgraded by
:func:`upgrade` (store migration 9 rewrites every stored row once; :meth:`TableMeta.from_json`
upgrades an older value it is handed; a newer shape is refused, as the store refuses a newer
schema). Keys this version does not know — written by a newer bot of the same shape, or by hand —
are kept as they are in ``extra`` and written back, never dropped, so going back to this version
loses nothing; the code never reads them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any

from bot.engine.core import Action

SHAPE = 2
"""The stored shape's number (``"v"``): 1 (no ``"v"``) had positional lists for ``recent`` and
``only_choice`` and ``{"since": …}`` for ``unreachable``."""


MISSED, SAID = "missed", "away"
"""Why a person is away: their clock took decisions in a row from them, or they said so."""


@dataclass(frozen=True)
class Absence:
    """Why a seat's person is away (:data:`MISSED` or :data:`SAID`), and until when (None: until
    they are back)."""

    why: str
    until: datetime | None = None

    def to_json(self) -> dict[str, str | None]:
        """The stored form."""
        return {"why": self.why, "until": self.until.isoformat() if self.until else None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Absence:
        """The absence stored by :meth:`to_json`."""
        until = data.get("until")
        return cls(str(data.get("why", SAID)), datetime.fromisoformat(until) if until else None)


@dataclass(frozen=True)
class Clock:
    """The awaited seat's decision clock (``bot.clocks``): since when it runs, which of its
    moments (half, late, out) were handled, the table version ``v`` it started at, and whether
    it waits for the table's message (``waiting``, last looked at ``checked``)."""

    seat: str
    since: datetime
    half: bool = False
    late: bool = False
    out: bool = False
    v: int = 0
    waiting: bool = False
    checked: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        data: dict[str, Any] = {
            "seat": self.seat,
            "since": self.since.isoformat(),
            "half": self.half,
            "late": self.late,
            "out": self.out,
            "v": self.v,
        }
        return _with_wait(data, self.waiting, self.checked)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        """The clock stored by :meth:`to_json`."""
        return cls(
            str(data["seat"]),
            datetime.fromisoformat(data["since"]),
            bool(data.get("half")),
            bool(data.get("late")),
            bool(data.get("out")),
            int(data.get("v", 0)),
            bool(data.get("waiting")),
            _parse(data.get("checked")),
        )


@dataclass(frozen=True)
class Hold:
    """A prompt's running timeout (``bot.clocks``): prompts with the same non-empty ``key`` share
    it; it ends ``seconds`` after ``since``; ``v``, ``waiting`` and ``checked`` as for a
    :class:`Clock`."""

    key: str
    since: datetime
    seconds: int
    v: int = 0
    waiting: bool = False
    checked: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        data = {"key": self.key, "since": self.since.isoformat(), "seconds": self.seconds, "v": self.v}
        return _with_wait(data, self.waiting, self.checked)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hold:
        """The hold stored by :meth:`to_json`."""
        return cls(
            str(data.get("key", "")),
            datetime.fromisoformat(data["since"]),
            int(data["seconds"]),
            int(data.get("v", 0)),
            bool(data.get("waiting")),
            _parse(data.get("checked")),
        )


def _with_wait(data: dict[str, Any], waiting: bool, checked: datetime | None) -> dict[str, Any]:
    if waiting:
        data["waiting"] = True
    if checked is not None:
        data["checked"] = checked.isoformat()
    return data


@dataclass(frozen=True)
class Effect:
    """A deadline effect due (``bot.effect_outbox``): its ``kind`` (a reminder, a notice, an AI's
    take-over…), the ``seat`` it concerns, its ``key`` (its name for good), ``since`` (the clock
    or moment it belongs to), whom a notice is for (``holder``), the AI's ``level`` for a
    take-over, and the time it waits for (``not_before``, a person's quiet hours)."""

    kind: str
    seat: str
    key: str
    since: datetime
    holder: str = ""
    level: str = ""
    not_before: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "key": self.key}
        data["since"] = self.since.isoformat()
        if self.holder:
            data["holder"] = self.holder
        if self.level:
            data["level"] = self.level
        if self.not_before is not None:
            data["not_before"] = self.not_before.isoformat()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Effect:
        """The effect stored by :meth:`to_json`."""
        return cls(
            str(data["kind"]),
            str(data.get("seat", "")),
            str(data["key"]),
            datetime.fromisoformat(data["since"]),
            str(data.get("holder", "")),
            str(data.get("level", "")),
            _parse(data.get("not_before")),
        )


@dataclass(frozen=True)
class Decision:
    """One of the latest decisions, to judge a typed move against the table its author saw:
    ``who`` acted (a user id, or the host), ``action``, ``at`` (the host's time), the table
    ``version`` it made (None in entries older than versions were kept), and the ``snowflake``
    of the interaction that asked for it (None for the host's own)."""

    who: str
    action: Action
    at: datetime
    version: int | None = None
    snowflake: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "who": self.who,
            "action": self.action,
            "at": self.at.isoformat(),
            "version": self.version,
            "snowflake": self.snowflake,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        """The decision stored by :meth:`to_json`."""
        return cls(
            str(data["who"]),
            data["action"],
            datetime.fromisoformat(data["at"]),
            data.get("version"),
            data.get("snowflake"),
        )


@dataclass(frozen=True)
class OnlyChoice:
    """A move the host took for ``seat`` because it was its only choice, in the words its menu
    would show (``said``), told on the turn message until the next decision."""

    seat: str
    said: str


@dataclass(frozen=True)
class TableMeta:
    """The host's bookkeeping of one table (see the module docstring). Immutable: a change is a
    new value (:func:`dataclasses.replace`)."""

    settings: dict[str, str | int] = field(default_factory=dict)
    """Table settings given at ``/game new`` (defaults filled in by ``bot.seats.settings``)."""
    holders: dict[str, str] = field(default_factory=dict)
    """Seat → who plays it, where that is not the seat's own id (a bot, a hand-over)."""
    names: dict[str, str] = field(default_factory=dict)
    """Person → display name they had when they joined or were handed a seat."""
    clock: Clock | None = None
    """The awaited seat's decision clock (``bot.clocks``)."""
    hold: Hold | None = None
    """A prompt's running timeout (``bot.clocks``)."""
    paused: datetime | None = None
    """When the host paused the table (None: running)."""
    effects: tuple[Effect, ...] = ()
    """Deadline effects due, in order (``bot.effect_outbox``)."""
    away: dict[str, Absence] = field(default_factory=dict)
    """Seat → its person's absence (``bot.absence``)."""
    missed: dict[str, int] = field(default_factory=dict)
    """Seat → decisions in a row its clock took."""
    everyone_away: datetime | None = None
    """Since when every person at the table is away (the table waits)."""
    stand_in: tuple[str, ...] = ()
    """Seats whose clock ran out under ``idle=bot``: the AI answers their waits until they act."""
    timed_out: tuple[str, ...] = ()
    """Seats whose clock ran out under ``idle=wait``: any player may hand them over."""
    quiet: dict[str, int | None] = field(default_factory=dict)
    """Seat → the turn its person said "don't ask me" for."""
    quiet_game: tuple[str, ...] = ()
    """Seats whose person said "don't ask me" for the whole game."""
    recent: tuple[Decision, ...] = ()
    """The latest decisions (``bot.play``)."""
    only_choice: tuple[OnlyChoice, ...] = ()
    """Only choices the host took since the last decision of anyone's."""
    bots_asked: int | None = None
    """The version at which the bots let an optional chance go (not asked again at it)."""
    wait_pinged: int | None = None
    """The turn whose timed wait already pinged its players."""
    unreachable: datetime | None = None
    """Since when the table's channel cannot be posted in (its host was told)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Stored keys this version does not know, kept as they are (see the module docstring)."""

    # -- reading -------------------------------------------------------------------------------

    def holder_of(self, seat: str) -> str:
        """Who plays ``seat`` now (its own id unless handed to someone or a bot)."""
        return self.holders.get(seat, seat)

    def is_away(self, seat: str | None) -> bool:
        """True if ``seat``'s person is away."""
        return seat is not None and seat in self.away

    # -- the stored form -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The stored JSON: the shape's number and every field not at its default."""
        data: dict[str, Any] = {"v": SHAPE}
        for name, value in (
            ("settings", self.settings),
            ("holders", self.holders),
            ("names", self.names),
            ("clock", self.clock.to_json() if self.clock else None),
            ("hold", self.hold.to_json() if self.hold else None),
            ("paused", _time(self.paused)),
            ("effects", [e.to_json() for e in self.effects]),
            ("away", {seat: a.to_json() for seat, a in self.away.items()}),
            ("missed", self.missed),
            ("everyone_away", _time(self.everyone_away)),
            ("stand_in", list(self.stand_in)),
            ("timed_out", list(self.timed_out)),
            ("quiet", self.quiet),
            ("quiet_game", list(self.quiet_game)),
            ("recent", [d.to_json() for d in self.recent]),
            ("only_choice", [{"seat": o.seat, "said": o.said} for o in self.only_choice]),
            ("bots_asked", self.bots_asked),
            ("wait_pinged", self.wait_pinged),
            ("unreachable", _time(self.unreachable)),
        ):
            if value is not None and value != [] and value != {}:
                data[name] = value
        return {**self.extra, **data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableMeta:
        """The metadata stored by :meth:`to_json` (an older shape is upgraded first, see
        :func:`upgrade`; a newer one is refused with ValueError)."""
        data = upgrade(data)
        known = {f.name for f in fields(cls)} - {"extra"}
        return cls(
            settings=dict(data.get("settings", {})),
            holders=dict(data.get("holders", {})),
            names=dict(data.get("names", {})),
            clock=Clock.from_json(data["clock"]) if data.get("clock") else None,
            hold=Hold.from_json(data["hold"]) if data.get("hold") else None,
            paused=_parse(data.get("paused")),
            effects=tuple(Effect.from_json(e) for e in data.get("effects", ())),
            away={seat: Absence.from_json(a) for seat, a in data.get("away", {}).items()},
            missed={seat: int(n) for seat, n in data.get("missed", {}).items()},
            everyone_away=_parse(data.get("everyone_away")),
            stand_in=tuple(data.get("stand_in", ())),
            timed_out=tuple(data.get("timed_out", ())),
            quiet=dict(data.get("quiet", {})),
            quiet_game=tuple(data.get("quiet_game", ())),
            recent=tuple(Decision.from_json(d) for d in data.get("recent", ())),
            only_choice=tuple(
                OnlyChoice(str(o["seat"]), str(o["said"])) for o in data.get("only_choice", ())
            ),
            bots_asked=data.get("bots_asked"),
            wait_pinged=data.get("wait_pinged"),
            unreachable=_parse(data.get("unreachable")),
            extra={k: v for k, v in data.items() if k not in known and k != "v"},
        )

    def dumps(self) -> str:
        """The stored JSON as text (what the store writes)."""
        return json.dumps(self.to_json())

    @classmethod
    def loads(cls, text: str) -> TableMeta:
        """The metadata from its stored text."""
        return cls.from_json(json.loads(text))

    # -- changes used by several modules -------------------------------------------------------

    def with_names(self, names: dict[str, str]) -> TableMeta:
        """This metadata with display names of people kept."""
        return replace(self, names={**self.names, **names}) if names else self

    def without_seat_notes(self, seat: str) -> TableMeta:
        """This metadata with ``seat``'s clock-ran-out notes dropped (its person is back, or the
        seat has a new holder)."""
        return replace(
            self,
            stand_in=tuple(s for s in self.stand_in if s != seat),
            timed_out=tuple(s for s in self.timed_out if s != seat),
        )


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _parse(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """Stored metadata of any known shape in the current shape (:data:`SHAPE`); ValueError if it
    was written by a newer bot.

    Shape 1 → 2: ``recent`` entries ``[who, action, at, version?, snowflake?]`` become objects,
    ``only_choice`` pairs ``[seat, said]`` become ``{"seat", "said"}``, ``unreachable``
    ``{"since": at}`` becomes ``at``."""
    shape = int(data.get("v", 1))
    if shape > SHAPE:
        raise ValueError(f"table metadata of shape {shape} (this bot knows {SHAPE})")
    if shape == SHAPE:
        return data
    data = dict(data)
    data["recent"] = [_decision_v1(e) if isinstance(e, list) else e for e in data.get("recent", [])]
    data["only_choice"] = [
        {"seat": o[0], "said": o[1]} if isinstance(o, list) else o for o in data.get("only_choice", [])
    ]
    unreachable = data.get("unreachable")
    if isinstance(unreachable, dict):
        data["unreachable"] = unreachable.get("since")
    for key in ("recent", "only_choice", "unreachable"):
        if key in data and not data[key]:
            data.pop(key)
    data["v"] = SHAPE
    return data


def _decision_v1(entry: list[Any]) -> dict[str, Any]:
    who, action, at = entry[0], entry[1], entry[2]
    version = entry[3] if len(entry) > 3 else None
    snowflake = entry[4] if len(entry) > 4 else None
    return {"who": who, "action": action, "at": at, "version": version, "snowflake": snowflake}


def upgrade_text(text: str) -> str | None:
    """Stored metadata text in the current shape, or None if it is in that shape already (store
    migration 9 rewrites only what changes)."""
    data = json.loads(text)
    if int(data.get("v", 1)) == SHAPE:
        return None
    return json.dumps(upgrade(data))
