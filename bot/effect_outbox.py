"""Deadline effects as an outbox in ``TableRecord.meta.effects`` (pure functions over a
``bot.table_meta.TableMeta``).

Whatever a deadline causes — a reminder, the news that a clock ran out, an AI taking over an idle
seat's turn — is first written as *due* in the same save as the clock mark that made it due, then
performed, then marked done. A process that dies (or shuts down) in between leaves the effect in
the table's meta, and the table's deadline stays "now", so whoever tends the table next performs it.

Each effect is a :class:`~bot.table_meta.Effect` with a ``key`` that names it for good (kind, seat
and the clock it belongs to), so marking the same moment twice never makes two effects:

- kind ``half``, ``late`` or ``out``, with its seat, holder and clock (``since``) — a notice to send
  (the two reminders, and "the clock ran out, the table waits" under ``idle=wait``). It is done
  once sent (:func:`without`); it lapses once the seat's clock is no longer that clock.
- kind ``takeover``, with its seat, the AI's level and clock — an AI plays the seat's turn
  (``idle=bot``). Each of the AI's moves is an ordinary versioned action; the effect lapses in the
  same save as the move that ends the seat's turn, or when the seat's own player acts.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.engine.core import Prompt
from bot.table_meta import Effect, TableMeta

TAKEOVER = "takeover"
NOTICES = ("half", "late", "out")


def pending(meta: TableMeta) -> list[Effect]:
    """The effects due and not yet done, oldest first."""
    return list(meta.effects)


def due(meta: TableMeta, now: datetime) -> list[Effect]:
    """The pending effects whose time has come (an effect may wait, ``not_before``, e.g. for the
    end of its person's quiet hours)."""
    return [e for e in meta.effects if e.not_before is None or e.not_before <= now]


def next_due(meta: TableMeta, now: datetime) -> datetime | None:
    """When the table must next be tended for its pending effects (None: none pending)."""
    times = [e.not_before if e.not_before is not None else now for e in meta.effects]
    return min(times) if times else None


def deferred(meta: TableMeta, key: str, until: datetime) -> TableMeta:
    """``meta`` with the effect ``key`` waiting until ``until``."""
    return replace(
        meta, effects=tuple(replace(e, not_before=until) if e.key == key else e for e in meta.effects)
    )


def key_of(kind: str, seat: str, since: datetime) -> str:
    """The name of one effect: its kind, its seat, and the clock it belongs to."""
    return f"{kind}:{seat}:{since.isoformat()}"


def make(kind: str, seat: str, since: datetime, *, holder: str = "", level: str = "") -> Effect:
    """A new effect named by :func:`key_of`."""
    return Effect(kind, seat, key_of(kind, seat, since), since, holder=holder, level=level)


def add(meta: TableMeta, effect: Effect) -> TableMeta:
    """``meta`` with ``effect`` due (unless an effect with its key is due already)."""
    if any(e.key == effect.key for e in meta.effects):
        return meta
    return replace(meta, effects=(*meta.effects, effect))


def without(meta: TableMeta, keys: set[str]) -> TableMeta:
    """``meta`` with the effects named ``keys`` done."""
    return replace(meta, effects=tuple(e for e in meta.effects if e.key not in keys))


def lapse(meta: TableMeta, prompt: Prompt | None, acted_in_person: str | None) -> TableMeta:
    """``meta`` without the effects that no longer apply after a change of the game.

    A notice lapses when its seat's clock is no longer the clock it was about; a take-over when its
    seat is no longer the main decider, or when the seat's own player decided
    (``acted_in_person``)."""
    if not meta.effects:
        return meta
    clock = meta.clock
    decider = prompt.player if prompt is not None else None
    kept = []
    for effect in meta.effects:
        seat = effect.seat
        if effect.kind == TAKEOVER:
            if decider == seat and acted_in_person != seat:
                kept.append(effect)
        elif effect.kind not in NOTICES or (
            clock is not None and clock.seat == seat and clock.since == effect.since
        ):
            kept.append(effect)  # a notice that does not depend on the clock stays until sent
    if len(kept) == len(meta.effects):
        return meta
    return replace(meta, effects=tuple(kept))


def takeover_of(meta: TableMeta, seat: str) -> Effect | None:
    """The due take-over of ``seat``, if any."""
    return next((e for e in meta.effects if e.kind == TAKEOVER and e.seat == seat), None)
