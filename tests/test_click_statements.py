"""What a whole click costs the database, counted on real databases through the real bot (SimCord):
from the click on the turn message to the edited or newly posted turn message and the writes that
follow it (which message shows the table, at which version). PostgreSQL's statements are read from
the server's own log (tests/pg_statements.py), SQLite's round trips from the store's database
thread (tests/sqlite_calls.py).

A click that keeps the turn (the turn message is edited in place) and a click that ends it (the
message is retired, a new one posted), in Argo and Argoat: at most four statements on PostgreSQL
(the table's lock with its stored revision, the save, the unlock, what the message shows) and two
round trips on SQLite (the save, what the message shows). What the messages say is checked against
the store's own log, so the counts cannot be met by showing less."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.config import Settings
from bot.engine.core import Game, format_text
from bot.table import turn_of
from cogs.catchup import summarise
from tests.driver import Driver, open_table, random_policy
from tests.pg_statements import StatementLog, log_statements
from tests.sqlite_calls import SqliteCalls

MOST = {"postgres": 4, "sqlite": 2}
"""PostgreSQL statements / SQLite round trips a whole click may cost."""
AVOID = ("cancel", "undo", "withdraw", "decline", "trade")


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request) -> str:
    return request.param


@pytest.fixture
async def settings(settings: Settings, backend: str, request) -> Settings:
    if backend == "sqlite":
        return settings
    server = request.getfixturevalue("pg_server")
    url = request.getfixturevalue("pg_url")
    await log_statements(server.admin_url, url)  # before the bot opens its sessions
    return dataclasses.replace(settings, database_url=url)


class Counter:
    """The database work of a backend since a mark: PostgreSQL statements, or SQLite round trips
    (each shown with the statements it ran)."""

    def __init__(self, log: StatementLog | SqliteCalls) -> None:
        self.log = log

    @classmethod
    async def of(cls, backend: str, bot: Any, request) -> Counter:
        if backend == "sqlite":
            return cls(await SqliteCalls.install(bot.host.store))
        return cls(StatementLog(request.getfixturevalue("pg_server").folder / "log"))

    def mark(self) -> None:
        self.log.mark()

    def since_mark(self) -> list[str]:
        if isinstance(self.log, StatementLog):
            return [" ".join(sql.split())[:150] for _, sql in self.log.since_mark()]
        return [" | ".join(" ".join(sql.split())[:70] for sql in trip) for trip in self.log.since_mark()]


@dataclasses.dataclass
class Counting(Driver):
    """A driver that keeps the database work of its latest click."""

    counter: Any = None
    last: list[str] = dataclasses.field(default_factory=list)

    async def _click(self, actor: Any, message: Any, widget: Any) -> Any:
        self.counter.mark()
        result = await super()._click(actor, message, widget)
        self.last = self.counter.since_mark()
        return result


def kind_of(game: Game, player: str, action: dict[str, Any]) -> str | None:
    """ "keep" if the action leaves the turn and the decision with ``player`` (its message is
    edited), "end" if it ends the turn (a new message), None otherwise."""
    after = type(game).from_json(game.to_json())
    after.apply(player, action)
    if after.turn_marker() != game.turn_marker():
        return "end"
    prompt = after.prompt()
    return "keep" if prompt is not None and prompt.player == player else None


async def shown_since(bot: Any, table: Any) -> list[str]:
    """The catch-up lines the store's log gives for the awaited seat (as the message shows them)."""
    seat = table.game.prompt().player
    rows = await bot.host.store.since(table.record.id, seat, turn_of(table.game))
    names = table.names()
    groups: list[tuple[int | None, list[str]]] = []
    for _, turn, summary in rows:
        lines = [format_text(line, names) for line in summary.splitlines() if line]
        if groups and groups[-1][0] == turn:
            groups[-1][1].extend(lines)
        else:
            groups.append((turn, lines))
    return summarise(groups)


@pytest.mark.parametrize(("game", "seed"), [("Argo", 21), ("Argoat", 22)])
async def test_a_whole_click_costs_at_most_four_statements_or_two_round_trips(
    world, simcord_bot, seeds, backend, request, game, seed
):
    w = world
    bot = simcord_bot
    seeds.value = seed
    await open_table(w.channel, game, [w.alice, w.bob])
    counter = await Counter.of(backend, bot, request)
    policy = random_policy(random.Random(seed), AVOID)
    actors = {str(p.id): p for p in (w.alice, w.bob)}
    driver = Counting(w.env, bot, w.channel, actors, policy, counter=counter)
    for _ in range(12):  # a few turns first: the turn message has something to catch up on
        await driver.step()
    counted: dict[str, list[str]] = {}
    for _ in range(100):
        table = await bot.host.current(w.channel.id)
        g, player = table.game, table.game.prompt().player
        wanted = "keep" if "keep" not in counted else "end"
        legal = [a for a in g.legal_actions(player or "") if g.notation(a).split()[0] not in AVOID]
        chosen = [a for a in legal if player is not None and kind_of(g, player, a) == wanted]
        if not chosen:
            await driver.step()
            continue
        shown_before, turn = table.record.message_id, turn_of(g)  # (the live game moves on)
        await driver.choose(g.notation(chosen[0]))
        counted[wanted] = driver.last
        after = await bot.host.current(w.channel.id)
        assert after.record.version == table.record.version + 1  # the click applied its action
        message = driver.message(after.record.message_id)
        assert message.attachments and message.attachments[0].filename == "board.png"
        lines = await shown_since(bot, after)
        assert lines and all(line in message.content for line in lines), (lines, message.content)
        if wanted == "keep":
            assert after.record.message_id == shown_before  # edited in place
        else:
            assert after.record.message_id != shown_before  # a new turn message
            retired = driver.message(shown_before)
            said = await bot.host.store.turn_summaries(after.record.id, turn, after.record.version)
            names = after.names()
            assert said and all(format_text(line, names) in retired.content for line in said)
            break
    assert set(counted) == {"keep", "end"}
    for kind, statements in counted.items():
        listing = "\n".join(statements)
        assert len(statements) <= MOST[backend], f"a click that {kind}s the turn:\n{listing}"
