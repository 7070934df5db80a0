"""Ratings per server and game: openskill's Plackett–Luce model over the archived results, applied
in the order the games ended, so that a rebuild from the results gives the same numbers as the
ratings updated game by game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from bot import seats
from bot.archive.names import listed
from bot.archive.results import GameResult

MODEL = PlackettLuce()
"""openskill's defaults: μ 25, σ 25/3, τ 25/300."""
PROVISIONAL_GAMES = 5
"""A person's rating is provisional for their first games."""


@dataclass
class Rating:
    """One player's rating on a ladder, with their games and wins there."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def conservative(self) -> float:
        """μ − 3σ: what the leaderboard sorts by (a rating the player very likely has at least)."""
        return self.mu - 3 * self.sigma

    def provisional(self, player: str) -> bool:
        """True for a person's first :data:`PROVISIONAL_GAMES` games (bots never are)."""
        return not seats.is_bot(player) and self.games < PROVISIONAL_GAMES


@dataclass
class Ladder:
    """The ratings of one server's players at one game, and the results applied so far."""

    ratings: dict[str, Rating] = field(default_factory=dict)
    count: int = 0
    through: tuple[str, int] | None = None
    """The order key (finished_at, table id) of the last result applied."""

    def get(self, player: str) -> Rating:
        """The player's rating (the model's prior if they have none)."""
        return self.ratings.get(player, Rating())

    def apply(self, result: GameResult) -> None:
        """Rate one finished game. Each seat is a team of one, ranked by its place; a player on
        several seats (two bots of one level) gets the mean of its seats' new ratings. A seat
        that is unrated for its person (``SeatResult.rated``: an AI played most of it) still
        ranks: it plays with the rating of the AI that stood in (``stand_in``), which it does not
        change, and it counts for nobody. A game with fewer than two different players (an
        unrated seat counted as its stand-in) changes no rating but counts as played."""
        counted = [s for s in result.seats if s.rated]
        players = list(dict.fromkeys(s.player for s in counted))
        playing = [s.player if s.rated else s.stand_in or s.player for s in result.seats]
        if counted and len(set(playing)) >= 2:
            teams = [[MODEL.rating(mu=self.get(p).mu, sigma=self.get(p).sigma)] for p in playing]
            rated = MODEL.rate(teams, ranks=[s.place for s in result.seats])
            new: dict[str, list[tuple[float, float]]] = {}
            for seat, team in zip(result.seats, rated, strict=True):
                if seat.rated:
                    new.setdefault(seat.player, []).append((team[0].mu, team[0].sigma))
            for player, values in new.items():
                rating = self.ratings.setdefault(player, Rating())
                rating.mu = sum(v[0] for v in values) / len(values)
                rating.sigma = sum(v[1] for v in values) / len(values)
        for player in players:
            rating = self.ratings.setdefault(player, Rating())
            rating.games += 1
            rating.wins += any(s.winner for s in counted if s.player == player)
        self.count += 1
        self.through = result.order

    def top(self) -> list[tuple[str, Rating]]:
        """Every entry the leaderboard shows (not a forgotten person's: ``names.listed``), best
        conservative rating first (then more games, then id)."""
        shown = [(p, r) for p, r in self.ratings.items() if listed(p)]
        return sorted(shown, key=lambda kv: (-kv[1].conservative, -kv[1].games, kv[0]))

    def to_json(self) -> dict[str, Any]:
        """The stored form (floats round-trip exactly through JSON)."""
        return {
            "count": self.count,
            "through": list(self.through) if self.through else None,
            "ratings": {p: [r.mu, r.sigma, r.games, r.wins] for p, r in self.ratings.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ladder:
        """The ladder stored by :meth:`to_json`."""
        through = data.get("through")
        return cls(
            {p: Rating(float(v[0]), float(v[1]), int(v[2]), int(v[3])) for p, v in data["ratings"].items()},
            int(data["count"]),
            (str(through[0]), int(through[1])) if through else None,
        )


def build(results: Iterable[GameResult]) -> Ladder:
    """A ladder from scratch: every result applied in the order the games ended."""
    ladder = Ladder()
    for result in sorted(results, key=lambda r: r.order):
        ladder.apply(result)
    return ladder
