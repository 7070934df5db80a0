"""The result of a finished table as the archive keeps it: every seat's place (ties share one),
score, who it counts for and whether it is rated for them (the rating policy: a person whose seat
an AI played for more than half of its decisions is unrated for that game), and what it used most
(Argo: an Astronaut role; Argoat: an Item)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot import seats
from bot.archive.replay import LogRow, engine_action, is_game_action
from bot.deadlines import ONLY_CHOICE
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
    decisions: int = 0
    """The seat's decisions in the log: its own and those an AI took for it (a move the host
    played because it was the only choice is no decision of anyone's)."""
    by_ai: int = 0
    """Of ``decisions``, those an AI took for a person's seat (logged ``"by": "bot:…"``)."""
    rated: bool = True
    """False when an AI took more than half of a person's seat's decisions: the game is not
    rated for ``player`` (see :func:`policy`)."""
    stand_in: str = ""
    """For an unrated seat, the AI that played it most (``bot:normal``): the others are rated
    against that AI's rating, which the seat does not change."""


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


def policy(seat: str, decisions: int, by_ai: int) -> bool:
    """The rating policy: is ``seat``'s game rated for its person? Not when an AI took more than
    half of its ``decisions`` (``by_ai``): the AI's play is never credited to a person. A bot seat
    is always rated (for its level)."""
    return seats.is_bot(seat) or 2 * by_ai <= decisions


def rated_player(seat: str, holder: str) -> str:
    """Whose seat it is in the result: the person holding it at the end; the seat's own person
    if an AI finished the game for them (they left, timed out or asked to be forgotten); a bot by
    its level (``bot:hard``) for a seat a bot held from the start. Whether the game is *rated* for
    that person is :func:`policy`'s answer."""
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


@dataclass
class Decisions:
    """Who took a seat's decisions, counted from the log."""

    own: int = 0
    """By whoever held the seat (its person, a person it was handed to, or the bot seated there)."""
    ai: Counter[str] = field(default_factory=Counter)
    """By an AI playing for a person's seat, by its holder id (``bot:normal``)."""

    @property
    def total(self) -> int:
        """Every decision of the seat."""
        return self.own + sum(self.ai.values())


def decided(row: LogRow) -> str | None:
    """Who took a logged game action: ``"ai"`` (an AI for a person's seat), ``"own"``, or None
    for a move the host played because it was the seat's only choice (nobody decided it)."""
    by = row.action.get("by")
    if by == ONLY_CHOICE:
        return None
    if isinstance(by, str) and seats.is_bot(by) and not seats.is_bot(row.actor):
        return "ai"
    return "own"


def replay_to_end(
    game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]
) -> tuple[Game, dict[str, Counter[str]], dict[str, Decisions]]:
    """The game after every logged action, what each seat used along the way, and who took each
    seat's decisions."""
    game = game_cls.new(record.seats, record.seed, record.options)
    counting = USED.get(game_cls.name)
    used: dict[str, Counter[str]] = {seat: Counter() for seat in record.seats}
    deciders = {seat: Decisions() for seat in record.seats}
    for row in rows:
        if not is_game_action(row):
            continue
        action = engine_action(row)
        if row.actor in used:
            if counting is not None:
                name = counting[1](game.notation(action), action)
                if name:
                    used[row.actor][name] += 1
            who = decided(row)
            if who == "ai":
                deciders[row.actor].ai[str(row.action["by"])] += 1
            elif who == "own":
                deciders[row.actor].own += 1
        game.apply(row.actor, action)
    return game, used, deciders


def game_result(game_cls: type[Game], record: TableRecord, rows: Sequence[LogRow]) -> GameResult | None:
    """The archived result of a finished table (None if its game has no result)."""
    game, used, deciders = replay_to_end(game_cls, record, rows)
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
                decisions=deciders[seat].total,
                by_ai=sum(deciders[seat].ai.values()),
                rated=policy(seat, deciders[seat].total, sum(deciders[seat].ai.values())),
                stand_in=_stand_in(seat, deciders[seat]),
            )
            for seat in record.seats
        ),
    )


def _stand_in(seat: str, decisions: Decisions) -> str:
    """The AI that played an unrated seat most (its first if several played it as much)."""
    if policy(seat, decisions.total, sum(decisions.ai.values())):
        return ""
    return decisions.ai.most_common(1)[0][0]
