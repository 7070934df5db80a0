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
from bot.engine.core import format_text
from bot.engine.registry import GameRegistry
from bot.store import PostgresStore
from bot.table import turn_of
from bot.tables import TableHost
from cogs.catchup import summarise
from tests.click_counts import Counter, Counting, kind_of
from tests.driver import open_table, random_policy
from tests.hostplay import Clock
from tests.pebbles import Pebbles
from tests.pg_statements import log_statements

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
    server_log = request.getfixturevalue("pg_server").folder / "log" if backend == "postgres" else None
    counter = await Counter.of(bot, server_log)
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


@pytest.mark.parametrize("backend", ["postgres"])
async def test_a_click_on_a_board_another_process_moved_on_is_out_of_date(world, simcord_bot, settings):
    # A click no longer asks the store for the table's revision before taking its lock: a step of
    # the picker (nothing applied) is checked on its own, a choice is checked by act() under the
    # lock; either way a board another process moved on is out of date, and nothing is applied.
    w = world
    lobby = (
        await w.alice.slash(w.channel, "game new", game="Pebbles", options="pile=60 maxtake=30")
    ).response
    await w.bob.click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")
    other = TableHost(await PostgresStore.open(settings.database_url), GameRegistry([Pebbles]), clock=Clock())
    actors = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    try:
        for label in ("peek", "take"):  # a choice (checked by act), then a step (checked on its own)
            seat = (await other.current(w.channel.id)).game.prompt().player
            turn = (await actors[seat].slash(w.channel, "game board")).response  # the bot has it now
            await other.act(w.channel.id, seat, {"type": "take", "n": 1})  # behind the bot's back
            stored = await other.current(w.channel.id)
            r = await actors[seat].click(turn, label=label)
            answer = r.followups[-1] if r.followups else r.response  # a choice is deferred first
            assert answer.ephemeral and answer.content.startswith("That board is out of date."), label
            assert (await other.current(w.channel.id)).record == stored.record  # nothing applied
    finally:
        await other.close()
