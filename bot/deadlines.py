"""The table's deadlines, as pure functions over its record and game: when it next needs
attention (clocks, due effects, absences), whom it awaits, and which seats the host decides for at
once (bots, the AI for someone away, a single choice, "don't ask me"). ``bot.tending`` acts on them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot import absence, clocks, effect_outbox, seats
from bot.engine.core import (
    SYSTEM,
    Action,
    Game,
    IllegalAction,
    Prompt,
)
from bot.store import TableRecord
from bot.table import turn_of
from bot.table_meta import TableMeta

log = logging.getLogger(__name__)

ONLY_CHOICE = "auto"
"""Logged as ``by`` with an action the host took because it was the player's only choice."""


def only_choice(game: Game, seat: str) -> Action | None:
    """The action the host takes for ``seat`` because it is their only choice now, or None.

    Only the main decider's decision, when it has exactly one legal action: ``undo`` and
    ``cancel`` count as choices (a player may want to take a move back rather than go on), a
    private prompt is never decided for its player (that it had one choice could tell something
    about their secrets), nor one that others may act on out of turn (taking it at once would
    close their chance), nor an action that reveals a secret (it gives private news), nor one
    that harms the player (:meth:`Game.harms_actor`: they confirm it themselves)."""
    prompt = game.prompt()
    if prompt is None or prompt.player != seat or prompt.private or prompt.others:
        return None
    actions = game.legal_actions(seat)
    if len(actions) != 1:
        return None
    trial = game.clone()
    try:
        events = trial.apply(seat, actions[0])
    except IllegalAction:
        return None
    if any(not event.public for event in events) or trial.harms_actor(seat, events):
        return None
    return actions[0]


def schedule(
    record: TableRecord,
    game: Game,
    acted: str | None = None,
    *,
    version: int | None = None,
    in_person: bool = True,
    now: datetime,
) -> TableRecord:
    """``record`` with its clocks, who it awaits, its due effects (see ``bot.effect_outbox``) and its
    next deadline brought up to date (``version``: the version it is saved as, if not
    ``record.version``; ``in_person``: ``acted`` was the seat's own player; ``now``: the host's clock)."""
    result = game.result()
    prompt = game.prompt() if result is None else None
    meta = clocks.track(record.meta, prompt, acted, now, record.version if version is None else version)
    if acted is not None and acted in meta.timed_out:
        meta = replace(meta, timed_out=tuple(s for s in meta.timed_out if s != acted))  # the player is back
    meta = effect_outbox.lapse(meta, prompt, acted if in_person else None)
    meta, returned = absence.expire(meta, now)
    if acted is not None and in_person and acted != SYSTEM:
        meta = absence.back(meta, acted)
    for seat in returned:
        meta = clocks.restart(meta, seat, now)
    if prompt is None:
        return record.evolve(meta=meta, deadline=None, awaiting=())
    record = record.evolve(meta=_everyone_away(record.evolve(meta=meta), now))
    settings = seats.settings(record)
    moments = [
        clocks.next_moment(record.meta, int(settings["clock"])),
        absence.next_return(record.meta),
        effect_outbox.next_due(record.meta, now),
    ]
    due = min((m for m in moments if m is not None), default=None)
    auto = automatic_deciders(record, game, record.version if version is None else version)
    if auto:
        due = now
    return record.evolve(deadline=due, awaiting=tuple(awaited(record, prompt, auto)))


def awaited(record: TableRecord, prompt: Prompt, auto: Sequence[str] = ()) -> list[str]:
    """The people the table waits for: the main decider, or everyone a timed wait awaits
    (but those the host answers for at once, ``auto``: they are not asked)."""
    deciders = (prompt.player,) if prompt.player is not None else prompt.others
    found = [seats.holder_of(record, s) for s in deciders if prompt.player is not None or s not in auto]
    return [h for h in found if not seats.is_bot(h)]


def automatic_deciders(record: TableRecord, game: Game, version: int) -> list[str]:
    """Seats the host decides for now: seats an AI or a bot plays (:func:`bot.seats.control`)
    that must or may act, a person whose decision has only one choice (:func:`only_choice`),
    seats whose player said "don't ask me" for a wait this turn or this game (they pass), and
    the seats the AI answers waits for (away, or timed out), which answer waits at once."""
    prompt = game.prompt()
    if prompt is None:
        return []
    found: list[str] = []
    main = prompt.player
    if main is not None and (seats.control(record, main).plays_turns or only_choice(game, main) is not None):
        found.append(main)
    meta = record.meta
    turn = turn_of(game)
    for seat in prompt.others:
        if seat == prompt.player:
            continue
        control = seats.control(record, seat)
        if control.by_bot:
            waited = prompt.player is None  # a timed wait: the bot must answer
            if waited or meta.bots_asked != version:
                found.append(seat)
        elif prompt.player is None and (
            (meta.quiet.get(seat) == turn and turn is not None)
            or seat in meta.quiet_game
            or control.answers_waits
        ):
            found.append(seat)
    return found


def _everyone_away(record: TableRecord, now: datetime) -> TableMeta:
    """``record.meta`` with the table's "everyone is away" state brought up to date: entering it
    marks since when and adds its notice (said once); leaving it (someone is back) drops both."""
    meta = record.meta
    since = meta.everyone_away
    if seats.everyone_away(record):
        if since is not None:
            return meta
        notice = effect_outbox.make(absence.EVERYONE_AWAY, "", now, holder=record.host_id)
        return effect_outbox.add(replace(meta, everyone_away=now), notice)
    if since is None:
        return meta
    meta = replace(meta, everyone_away=None)
    unsent = {e.key for e in effect_outbox.pending(meta) if e.kind == absence.EVERYONE_AWAY}
    return effect_outbox.without(meta, unsent) if unsent else meta
