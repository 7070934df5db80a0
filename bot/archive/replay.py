"""Rebuilding a game's history from its log: the public board after every turn, who acted, and
that turn's public lines.

A game is a pure function of (seats, seed, options, actions), so applying the logged game actions
to ``Game.new`` gives back every state the table went through — for games finished before this
module existed too. Host bookkeeping rows (open, join, start, replace, ...) are not game actions;
a ``replace`` row changes who holds a seat from then on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot import seats
from bot.engine.core import SYSTEM, Game
from bot.store import AnyStore, TableRecord

HOST_ACTIONS = frozenset({"open", "join", "leave", "addbot", "removebot", "start", "replace", "abandon"})
"""Action types the host logs for itself (never applied to the engine)."""

LOGGED_ONLY = ("by",)
"""Keys the host adds to a logged game action (who decided for the seat), removed before replay."""


@dataclass(frozen=True)
class LogRow:
    """One row of a table's event log, as replays read it."""

    seq: int
    actor: str
    action: dict[str, Any]
    summary: str
    turn: int | None
    at: datetime | None = None


async def log_rows(store: AnyStore, table_id: int, upto: int | None = None) -> list[LogRow]:
    """The table's whole log, oldest first (the rows up to version ``upto`` if given)."""
    rows = await store.sql(
        "SELECT seq, actor, action, summary, turn, at FROM events "
        "WHERE table_id = ? AND seq <= ? ORDER BY seq",
        (table_id, upto if upto is not None else 2**31 - 1),
    )
    found = []
    for seq, actor, action, summary, turn, at in rows:
        moment = datetime.fromisoformat(at) if isinstance(at, str) else at
        found.append(LogRow(seq, actor, json.loads(action), summary or "", turn, moment))
    return found


def is_game_action(row: LogRow) -> bool:
    """True for a row that the engine applies (a player's, a bot's or a timeout's decision)."""
    return str(row.action.get("type", "")) not in HOST_ACTIONS


def engine_action(row: LogRow) -> dict[str, Any]:
    """The action as the engine took it (without what the host logged beside it)."""
    return {k: v for k, v in row.action.items() if k not in LOGGED_ONLY}


def first_holders(record: TableRecord, rows: Sequence[LogRow]) -> dict[str, str]:
    """Who held each seat when the game started: today's holders with every hand-over undone."""
    holders = seats.holders(record)
    for row in reversed(rows):
        if row.action.get("type") == "replace" and row.action.get("seat") in holders:
            holders[row.action["seat"]] = str(row.action.get("from", row.action["seat"]))
    return holders


def acted_by(row: LogRow, holders: dict[str, str]) -> str:
    """Who decided a logged game action: the holder the log names with it (``by``: a bot playing
    for an idle person, an automatic only choice), else the seat's holder at that moment.

    The one place replays and history read who acted, so a log that records the actor itself
    can be read here instead."""
    by = row.action.get("by")
    if isinstance(by, str) and by and by != "auto":
        return by
    return holders.get(row.actor, row.actor)


@dataclass
class Step:
    """One page of a replay: the board after a turn (or the start), and what happened in it."""

    index: int
    turn: int | None
    """The turn number as the game shows it (None for the starting board)."""
    seat: str | None
    """The seat whose turn it was (None for the start)."""
    holder: str | None
    """Who played that seat then (a Discord user id or a bot holder)."""
    view: dict[str, Any]
    """The public view after the turn."""
    lines: list[str] = field(default_factory=list)
    """The turn's public log lines (player references not yet replaced by names)."""
    deciders: dict[str, list[str]] = field(default_factory=dict)
    """Every seat that acted in the turn → who decided for it (in order, each once)."""
    version: int = 0
    """The table version (log seq) after the turn."""
    result: dict[str, Any] | None = None
    """The game's result (``Result.to_json()``) on the step that ended it."""


@dataclass
class Replay:
    """A table's history as a list of steps, with the final result when the game has ended."""

    game: str
    steps: list[Step]
    holders: dict[str, str]
    """Who holds each seat at the end of the replayed part (after every hand-over in it)."""
    result: dict[str, Any] | None = None
    complete: bool = True
    """False for a game that has not ended (its replay stops at the current turn)."""


def _turn_key(game: Game) -> tuple[Any, ...]:
    marker = game.turn_marker()
    return (marker[0], marker[1])


def _turn_number(game: Game) -> int | None:
    number = game.turn_marker()[0]
    return number if isinstance(number, int) else None


def replay_steps(game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]) -> Iterator[Step]:
    """The replay of ``record`` from its log ``rows``, one step per turn after the starting board
    (each with the public view after that turn). The engine's own turn marker says where a turn
    ends, so logs written before turns were logged replay the same way."""
    game = game_cls.new(record.seats, record.seed, record.options)
    holders = first_holders(record, rows)
    yield Step(0, None, None, None, game.view(None), version=_start_version(rows))
    index = 0
    current: Step | None = None
    turn_key: tuple[Any, ...] = ()
    for row in rows:
        kind = row.action.get("type")
        if kind == "replace":
            seat = str(row.action.get("seat", ""))
            holders[seat] = str(row.action.get("to", seat))
            if current is not None and row.summary:
                current.lines += [line for line in row.summary.splitlines() if line]
            continue
        if not is_game_action(row):
            continue
        key = _turn_key(game)
        if current is None or key != turn_key:
            if current is not None:
                current.view = game.view(None)
                yield current
            index += 1
            turn_key = key
            active = game.view(None).get("active")
            active = active if isinstance(active, str) else None
            current = Step(
                index,
                _turn_number(game),
                active,
                holders.get(active, active) if active is not None else None,
                {},
            )
        game.apply(row.actor, engine_action(row))
        current.version = row.seq
        if row.actor != SYSTEM:
            who = current.deciders.setdefault(row.actor, [])
            decided = acted_by(row, holders)
            if decided not in who:
                who.append(decided)
        current.lines += [line for line in row.summary.splitlines() if line]
    if current is not None:
        current.view = game.view(None)
        final = game.result()
        current.result = final.to_json() if final is not None else None
        yield current


def _start_version(rows: Sequence[LogRow]) -> int:
    for row in rows:
        if row.action.get("type") == "start":
            return row.seq
    return 0


def rebuild(game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]) -> Replay:
    """Every step of the table's history (see :func:`replay_steps`) and its result if finished."""
    steps = list(replay_steps(game_cls, record, rows))
    holders = first_holders(record, rows)
    for row in rows:
        if row.action.get("type") == "replace":
            holders[str(row.action.get("seat"))] = str(row.action.get("to"))
    result = steps[-1].result if steps else None
    return Replay(record.game, steps, holders, result, complete=result is not None)


def game_at_end(game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]) -> Game:
    """The game after every logged action (the stored snapshot's state, rebuilt from the log)."""
    game = game_cls.new(record.seats, record.seed, record.options)
    for row in rows:
        if is_game_action(row):
            game.apply(row.actor, engine_action(row))
    return game


def thin(steps: Sequence[Step], every: int) -> list[Step]:
    """Every ``every``-th step (one per round when ``every`` is the number of players), always
    with the first and the last."""
    if every <= 1 or len(steps) <= 2:
        return list(steps)
    kept = [s for i, s in enumerate(steps) if i % every == 0]
    if kept[-1] is not steps[-1]:
        kept.append(steps[-1])
    return kept
