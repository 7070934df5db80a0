"""What a whole click costs the database, counted on real databases through the real bot (SimCord):
from the click on the turn message to the edited or newly posted turn message and the writes that
follow it (which message shows the table, at which version). PostgreSQL's statements are read from
the server's own log (tests/pg_statements.py), SQLite's round trips from the store's database
thread (tests/sqlite_calls.py). A click that keeps the turn (the message is edited in place) and a
click that ends it (the old message is retired, a new one posted), in Argo and Argoat: at most four
statements on PostgreSQL (the table's lock with its revision, the save, the unlock, what the message
shows) and two round trips on SQLite (the save, what the message shows). What the message says and
shows is checked against the store's own log, so the counts cannot be met by showing less."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.config import Settings
from bot.engine.core import Game
from tests.driver import Driver, open_table, random_policy
from tests.pg_statements import StatementLog, log_statements
from tests.sqlite_calls import SqliteCalls

MAX_STATEMENTS = {"postgres": 4, "sqlite": 2}


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request) -> str:
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
    """Counts a backend's database work: PostgreSQL statements or SQLite round trips."""

    def __init__(self, log: StatementLog | SqliteCalls) -> None:
        self.log = log

    def mark(self) -> None:
        self.log.mark()

    def since_mark(self) -> list[str]:
        found = self.log.since_mark()
        return [" ".join(sql.split())[:160] if isinstance(sql, str) else " | ".join(sql)[:400] for _, sql in found] if isinstance(self.log, StatementLog) else [" | ".join(" ".join(s.split())[:120] for s in trip) for trip in found]


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


def _after(game: Game, player: str, action: dict[str, Any]) -> Game:
    copy = type(game).from_json(game.to_json())
    copy.apply(player, action)
    return copy


async def counter_of(backend: str, bot: Any, request) -> Counter:
    if backend == "sqlite":
        return Counter(await SqliteCalls.install(bot.host.store))
    return Counter(StatementLog(request.getfixturevalue("pg_server").folder / "log"))


@pytest.mark.parametrize(("game", "seed"), [("Argo", 21), ("Argoat", 22)])
async def test_a_click_costs_at_most_four_statements_or_two_round_trips(
    world, simcord_bot, seeds, backend, request, game, seed
):
    w = world
    players = [w.alice, w.bob]
    seeds.value = seed
    await open_table(w.channel, game, players)
    counter = await counter_of(backend, simcord_bot, request)
    rng = random.Random(seed)
    avoid = ("cancel", "undo", "withdraw", "decline", "trade")
    driver = Counting(
        w.env, simcord_bot, w.channel, {str(p.id): p for p in players}, random_policy(rng, avoid), counter=counter
    )
    for _ in range(12):  # a few turns, so that the turn message has something to catch up on
        await driver.step()
    found: dict[str, list[str]] = {}
    for _ in range(200):
        table = await simcord_bot.host.current(w.channel.id)
        g = table.game
        prompt = g.prompt()
        player = prompt.player
        if player is None:
            await driver.step()
            continue
        legal = [a for a in g.legal_actions(player) if g.notation(a).split()[0] not in avoid]
        keeps = [a for a in legal if _after(g, player, a).turn_marker() == g.turn_marker() and _after(g, player, a).prompt() is not None and _after(g, player, a).prompt().player == player]
        ends = [a for a in legal if _after(g, player, a).turn_marker() != g.turn_marker()]
        if "keep" not in found and keeps:
            kind, action = "keep", keeps[0]
        elif "end" not in found and ends and "keep" in found:
            kind, action = "end", ends[0]
        else:
            await driver.step()
            continue
        messages = len(w.channel.history())
        await driver.choose(g.notation(action))
        found[kind] = driver.last
        print(kind, backend, game, len(driver.last))
        for s in driver.last:
            print("   ", s)
        print("   posted:", len(w.channel.history()) - messages)
        if len(found) == 2:
            break
    assert False
