"""The result of a finished table as the archive keeps it: every seat's place (ties share one),
score, who is rated for it, and what it used most (Argo: an Astronaut role; Argoat: an Item)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot import seats
from bot.archive.replay import LogRow, engine_action, is_game_action
from bot.engine.core import Action, Game, Result
from bot.store import TableRecord


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game."""

    seat: str
    player: str
    """Who is rated for the seat (see :func:`rated_player`)."""
    place: int
    """1 for the best; tied seats share a place."""
    score: int
    winner: bool
    colour: str = ""
    used: dict[str, int] = field(default_factory=dict)
    """What the seat used, counted (Astronaut roles moved, Items played)."""


@dataclass(frozen=True)
class GameResult:
    """A finished table's outcome."""

    table_id: int
    guild_id: int
    game: str
    channel_id: int
    finished_at: str
    """When it ended (UTC, ISO text): results are rated in this order, then by table id."""
    seats: tuple[SeatResult, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict (the stored form)."""
        return {**asdict(self), "seats": [asdict(s) for s in self.seats]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """The result stored by :meth:`to_json`."""
        return cls(**{**data, "seats": tuple(SeatResult(**s) for s in data["seats"])})

    @property
    def order(self) -> tuple[str, int]:
        """Where the result goes in a ladder's history."""
        return (self.finished_at, self.table_id)

    def ranked(self) -> list[SeatResult]:
        """The seats best first."""
        return sorted(self.seats, key=lambda s: s.place)


def moment(when: datetime) -> str:
    """A time as the archive orders it: UTC ISO text of one fixed shape."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def places(result: Result) -> dict[str, int]:
    """Each player's place, best first: players with the same score and tie-break detail share
    a place, unless one of them won (a winner is always ahead of those who did not win)."""
    found: dict[str, int] = {}
    previous: tuple[bool, int, str] | None = None
    place = 0
    for index, player in enumerate(result.ranked(), start=1):
        key = (player in result.winners, result.scores.get(player, 0), result.details.get(player, ""))
        if key != previous:
            place = index
        previous = key
        found[player] = place
    return found


def rated_player(seat: str, holder: str) -> str:
    """Who a seat's result counts for: the person holding it at the end; the seat's own person
    if an AI finished the game for them (they left or timed out); a bot by its level
    (``bot:hard``) for a seat a bot held from the start."""
    if not seats.is_bot(holder):
        return holder
    if not seats.is_bot(seat):
        return seat
    return seats.bot_holder(seats.level_of(holder))


def _argo_used(notation: str, action: Action) -> str | None:
    if action.get("type") in ("move", "push"):
        tokens = notation.split()
        if len(tokens) > 1 and "-" in tokens[1]:
            return tokens[1].split("-", 1)[1]
    return None


def _argoat_used(notation: str, action: Action) -> str | None:
    if action.get("type") == "use":
        tokens = notation.split()
        return tokens[1] if len(tokens) > 1 else None
    return None


USED: dict[str, tuple[str, Callable[[str, Action], str | None]]] = {
    "Argo": ("Astronaut", _argo_used),
    "Argoat": ("Item", _argoat_used),
}
"""Per game: what ``SeatResult.used`` counts (a noun for /game stats) and how an action names it."""


def replay_to_end(
    game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]
) -> tuple[Game, dict[str, Counter[str]]]:
    """The game after every logged action, and what each seat used along the way."""
    game = game_cls.new(record.seats, record.seed, record.options)
    counting = USED.get(game_cls.name)
    used: dict[str, Counter[str]] = {seat: Counter() for seat in record.seats}
    for row in rows:
        if not is_game_action(row):
            continue
        action = engine_action(row)
        if counting is not None and row.actor in used:
            name = counting[1](game.notation(action), action)
            if name:
                used[row.actor][name] += 1
        game.apply(row.actor, action)
    return game, used


def game_result(game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]) -> GameResult | None:
    """The archived result of a finished table (None if its game has no result)."""
    game, used = replay_to_end(game_cls, record, rows)
    result = game.result()
    if result is None:
        return None
    ranks = places(result)
    holders = seats.holders(record)
    colours = {str(p.get("id")): str(p.get("colour", "")) for p in game.view(None).get("players", [])}
    return GameResult(
        table_id=record.id,
        guild_id=record.guild_id or 0,
        game=record.game,
        channel_id=record.channel_id,
        finished_at=moment(record.updated_at),
        seats=tuple(
            SeatResult(
                seat=seat,
                player=rated_player(seat, holders[seat]),
                place=ranks.get(seat, len(record.seats)),
                score=int(result.scores.get(seat, 0)),
                winner=seat in result.winners,
                colour=colours.get(seat, ""),
                used=dict(used[seat]),
            )
            for seat in record.seats
        ),
    )
