"""Counting the database work of whole clicks through the real bot (SimCord): PostgreSQL statements
from the server's log (tests/pg_statements.py), SQLite round trips from the store's database thread
(tests/sqlite_calls.py). Used by tests/test_click_statements.py and bench/whole_clicks.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from bot.engine.core import Game
from tests.driver import Driver
from tests.pg_statements import StatementLog
from tests.sqlite_calls import SqliteCalls


class Counter:
    """The database work of a bot's store since a mark: PostgreSQL statements, or SQLite round
    trips (each shown with the statements it ran)."""

    def __init__(self, log: StatementLog | SqliteCalls) -> None:
        self.log = log

    @classmethod
    async def of(cls, bot: Any, server_log: Path | None) -> Counter:
        """A counter of ``bot``'s store: a SQLite store is observed from now on; a PostgreSQL store
        is counted from the server log ``server_log`` (its database must log its statements)."""
        if server_log is None:
            return cls(await SqliteCalls.install(bot.host.store))
        return cls(StatementLog(server_log))

    def mark(self) -> None:
        """Count from now on."""
        self.log.mark()

    def since_mark(self) -> list[str]:
        """One line per statement (PostgreSQL) or round trip (SQLite) since :meth:`mark`."""
        if isinstance(self.log, StatementLog):
            return [" ".join(sql.split())[:150] for _, sql in self.log.since_mark()]
        return [" | ".join(" ".join(sql.split())[:70] for sql in trip) for trip in self.log.since_mark()]


@dataclasses.dataclass
class Counting(Driver):
    """A driver that keeps the database work of its latest click (from the click to everything the
    bot did for it: SimCord settles every task of the bot before a click returns)."""

    counter: Any = None
    last: list[str] = dataclasses.field(default_factory=list)

    async def _click(self, actor: Any, message: Any, widget: Any) -> Any:
        self.counter.mark()
        result = await super()._click(actor, message, widget)
        self.last = self.counter.since_mark()
        return result


def kind_of(game: Game, player: str, action: dict[str, Any]) -> str | None:
    """ "keep" if the action leaves the turn and the decision with ``player`` (its turn message is
    edited), "end" if it ends the turn (a new message), None otherwise."""
    after = type(game).from_json(game.to_json())
    after.apply(player, action)
    if after.turn_marker() != game.turn_marker():
        return "end"
    prompt = after.prompt()
    return "keep" if prompt is not None and prompt.player == player else None
