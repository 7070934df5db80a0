"""What the table host hands out: a table as of one version, what an applied action did, and the
errors (with their texts) a user can cause."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from bot import seats
from bot.chronicle import Chronicle
from bot.engine.core import (
    Event,
    Game,
)
from bot.store import TableRecord

log = logging.getLogger(__name__)


class TableError(Exception):
    """Something a user asked for that cannot be done; ``str(exc)`` is a short sentence for them."""


class OutOfDate(TableError):
    """A component drawn for an earlier state of the table."""


class ChangedSince(OutOfDate):
    """A typed move whose author saw an earlier state: another decision came in between."""

    def __init__(self, message: str = "The table changed since you typed this — here it is now.") -> None:
        super().__init__(message)


NOT_SAVED = "I could not save that, so nothing changed. Please try again in a moment."
"""What a user is told when the database refused a write."""

STORE_DOWN = "The game store is unreachable right now; nothing changed. Try again in a minute."
"""What a user is told when the database cannot be reached at all."""

DEFAULT_CACHE_SIZE = 5000
"""Live games kept in memory (about 15–200 KB each, with 10–40 KB of chronicle); older ones are
reloaded on demand."""


@dataclass
class Table:
    """A table record with its live game (None in the lobby), as of ``record.version``."""

    record: TableRecord
    game: Game | None
    _view: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    chronicle: Chronicle | None = field(default=None, repr=False, compare=False)
    """The table's log in memory (shared by the versions of one live table, each reading it up to
    its own version); None until ``TableHistory.chronicle`` reads it from the store."""

    def public_view(self) -> dict[str, Any]:
        """The game's public view at this version, built once and shared by every reader."""
        if self._view is None:
            assert self.game is not None
            self._view = self.game.view(None)
        return self._view

    @property
    def live(self) -> Game:
        """The game of a table that has started (playing or over); a lobby has none."""
        if self.game is None:
            raise LookupError(f"table #{self.record.id} has not started: it has no game")
        return self.game

    def names(self) -> dict[str, str]:
        """How messages name each seat (a mention, or "Bot 2 (hard)")."""
        return seats.names(self.record)

    def seat_of(self, user: str) -> str | None:
        """The seat ``user`` holds here, or None."""
        return seats.seat_of(self.record, user)

    def holder_of(self, seat: str) -> str:
        """Who plays ``seat`` now."""
        return seats.holder_of(self.record, seat)


@dataclass
class Outcome:
    """What an applied action did, for the cog to present."""

    table: Table
    events: list[Event] = field(default_factory=list)
    turn_changed: bool = False
    decider_changed: bool = False
    note: str = ""
    """A line to show with the outcome (e.g. that a bot played for an idle player)."""
    turn_before: int | None = None
    """The turn the action was taken in (a retired turn message keeps its number)."""
    decider_before: str | None = None
    """The seat that was the main decider before the action (None: nobody in particular)."""
    decider: str | None = None
    """The main decider right after the action (``table.game`` is the live game: it may have
    moved on since)."""

    @property
    def public_events(self) -> list[Event]:
        """Events everyone may see."""
        return [e for e in self.events if e.public]

    def private_events(self) -> dict[str, list[Event]]:
        """Secret events grouped by the seat allowed to see them."""
        grouped: dict[str, list[Event]] = {}
        for event in self.events:
            if event.to is not None:
                grouped.setdefault(event.to, []).append(event)
        return grouped


def decider_of(game: Game) -> str | None:
    """The game's main decider now (None: nobody in particular, or the game is over)."""
    prompt = game.prompt()
    return prompt.player if prompt is not None else None


def turn_of(game: Game) -> int | None:
    """The game's turn number now (None if it has none)."""
    number = game.turn_marker()[0]
    return number if isinstance(number, int) else None
