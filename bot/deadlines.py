"""The table's deadlines, as pure functions over its record and game: when it next needs
attention (clocks, due effects, absences), whom it awaits, and which seats the host decides for at
once (bots, the AI for someone away, a single choice, "don't ask me"). ``bot.tending`` acts on them."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot import absence, clocks, effects, seats
from bot.engine.core import (
    SYSTEM,
    Action,
    Game,
    IllegalAction,
    Prompt,
)
from bot.store import TableRecord
from bot.table import turn_of

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
    """``record`` with its clocks, who it awaits, its due effects (see ``bot.effects``) and its
    next deadline brought up to date (``version``: the version it is saved as, if not
    ``record.version``; ``in_person``: ``acted`` was the seat's own player; ``now``: the host's clock)."""
    result = game.result()
    prompt = game.prompt() if result is None else None
    meta = clocks.track(record.meta, prompt, acted, now, record.version if version is None else version)
    if acted is not None and acted in meta.get("timed_out", ()):
        meta["timed_out"] = [s for s in meta["timed_out"] if s != acted]  # the player is back
    meta = effects.lapse(meta, prompt, acted if in_person else None)
    meta, returned = absence.expire(meta, now)
    if acted is not None and in_person and acted != SYSTEM:
        meta = absence.back(meta, acted)
    for seat in returned:
        meta = clocks.restart(meta, seat, now)
    if prompt is None:
        return record.evolve(meta=meta, deadline=None, awaiting=())
    meta = _everyone_away(record, meta, now)
    settings = seats.settings(record)
    moments = [
        clocks.next_moment(meta, int(settings["clock"])),
        absence.next_return(meta),
        effects.next_due(meta, now),
    ]
    due = min((m for m in moments if m is not None), default=None)
    auto = automatic_deciders(record, game, meta, record.version if version is None else version)
    if auto:
        due = now
    return record.evolve(meta=meta, deadline=due, awaiting=tuple(awaited(record, prompt, auto)))


def awaited(record: TableRecord, prompt: Prompt, auto: Sequence[str] = ()) -> list[str]:
    """The people the table waits for: the main decider, or everyone a timed wait awaits
    (but those the host answers for at once, ``auto``: they are not asked)."""
    deciders = (prompt.player,) if prompt.player is not None else prompt.others
    found = [seats.holder_of(record, s) for s in deciders if prompt.player is not None or s not in auto]
    return [h for h in found if not seats.is_bot(h)]


def automatic_deciders(record: TableRecord, game: Game, meta: dict[str, Any], version: int) -> list[str]:
    """Seats the host decides for now: bot-held seats that must or may act, a person whose
    decision has only one choice (:func:`only_choice`), seats whose player said "don't
    ask me" for a wait this turn or this game (they pass), and the seats of people the AI
    stands in for since their clock ran out (``meta["stand_in"]``), which answer waits at once."""
    prompt = game.prompt()
    if prompt is None:
        return []
    found: list[str] = []
    main = prompt.player
    if main is not None and (
        seats.is_bot(seats.holder_of(record, main))
        or ai_plays(record, meta, main)
        or only_choice(game, main) is not None
    ):
        found.append(main)
    quiet = meta.get("quiet", {})
    quiet_game, stand_in = meta.get("quiet_game", ()), meta.get("stand_in", ())
    turn = turn_of(game)
    for seat in prompt.others:
        if seat == prompt.player:
            continue
        if seats.is_bot(seats.holder_of(record, seat)):
            waited = prompt.player is None  # a timed wait: the bot must answer
            if waited or meta.get("bots_asked") != version:
                found.append(seat)
        elif prompt.player is None and (
            (quiet.get(seat) == turn and turn is not None)
            or seat in quiet_game
            or seat in stand_in
            or absence.is_away(meta, seat)
        ):
            found.append(seat)
    return found


def ai_plays(record: TableRecord, meta: dict[str, Any], seat: str) -> bool:
    """True if an AI plays ``seat``'s decisions now for its away person (idle=bot), unless every
    person at the table is away: then the table waits for someone to be back."""
    return (
        absence.is_away(meta, seat)
        and seats.settings(record)["idle"] == "bot"
        and not everyone_away(record, meta)
    )


def everyone_away(record: TableRecord, meta: dict[str, Any]) -> bool:
    """True if every seat a person holds has its person away (and there is such a seat): nobody
    is there to play, so the table waits (see ``bot.absence``)."""
    people = [seat for seat in record.seats if not seats.is_bot(seats.holder_of(record, seat))]
    return bool(people) and all(absence.is_away(meta, seat) for seat in people)


def _everyone_away(record: TableRecord, meta: dict[str, Any], now: datetime) -> dict[str, Any]:
    """``meta`` with the table's "everyone is away" state brought up to date: entering it marks
    since when and adds its notice (said once); leaving it (someone is back) drops both."""
    since = meta.get(absence.EVERYONE_AWAY)
    if everyone_away(record, meta):
        if since is not None:
            return meta
        at = now.isoformat()
        notice = {
            "kind": absence.EVERYONE_AWAY,
            "seat": "",
            "holder": record.host_id,
            "since": at,
            "key": effects.key_of(absence.EVERYONE_AWAY, "", at),
        }
        return effects.add({**meta, absence.EVERYONE_AWAY: at}, notice)
    if since is None:
        return meta
    meta = {k: v for k, v in meta.items() if k != absence.EVERYONE_AWAY}
    unsent = {e["key"] for e in effects.pending(meta) if e["kind"] == absence.EVERYONE_AWAY}
    return effects.without(meta, unsent) if unsent else meta
