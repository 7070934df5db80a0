"""Every interaction is acknowledged in time whatever the store does (SimCord, the real bot;
issue 39, fault 1): with every database round trip held until the test releases it (SQLite), or
the PostgreSQL server frozen by SIGSTOP, a command, a click, a replay and an autocomplete are
answered within ``bot.answering.PATIENCE`` of virtual time (Discord allows 3 s) while the store
call is still waiting: a read that cannot answer in time gets the private "store unreachable"
answer and changes nothing, a change is acknowledged and finished once the store answers, an
autocomplete answers an empty list."""

from __future__ import annotations

import dataclasses

import pytest

from bot import answering
from bot.config import Settings
from bot.tables import STORE_DOWN
from cogs.replies import POSTED_BELOW
from tests import pg
from tests.hangs import Gate, declare_round_trips, latest_interaction
from tests.test_bot_play import start_game
from tests.test_interaction_answers import answers

pytestmark = pytest.mark.simcord(settle_timeout=20)

IN_TIME = 1.0
"""Virtual seconds after which every interaction must have been acknowledged."""


async def test_reads_that_hang_get_a_clear_answer_in_time_and_change_nothing(world, simcord_bot, monkeypatch):
    w = world
    bot = simcord_bot
    assert answering.PATIENCE < IN_TIME
    turn = await start_game(w)
    await w.alice.click(turn, label="take 1")  # a finished turn for /game replay
    turn = w.channel.last_message
    bot.host.forget(w.channel.id)  # nothing cached: every handler reads the store
    gate = Gate(w.env, bot.host.store, monkeypatch)

    r = await w.bob.click(turn, label="take 2")
    await w.env.advance_time(IN_TIME)
    assert answers(r) == [STORE_DOWN] and gate.held >= 1  # answered while the store call waits

    for command, options in (("game board", {}), ("game replay", {}), ("game play", {"action": "take 1"})):
        r = await w.bob.slash(w.channel, command, **options)
        await w.env.advance_time(IN_TIME)
        assert answers(r) == [STORE_DOWN], command
        assert gate.held >= 1

    await w.bob.autocomplete(w.channel, "game play", "action", "take")
    await w.env.advance_time(IN_TIME)
    record = latest_interaction(w.env)
    assert record.responded and record.autocomplete_choices == [] and gate.held >= 1

    gate.release()
    await w.env.advance_time(1)  # the held reads end, unheeded
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 9 and table.game.prompt().player == str(w.bob.id)
    assert all("did not answer within" in str(e) for e in w.env.errors)  # each answered above
    w.env.errors.clear()


async def test_a_change_that_hangs_is_acknowledged_in_time_and_done_once_the_store_answers(
    world, simcord_bot, monkeypatch
):
    w = world
    bot = simcord_bot
    lobby = (await w.alice.slash(w.channel, "game new", game="Pebbles")).response
    gate = Gate(w.env, bot.host.store, monkeypatch)  # the lobby is cached: joining only writes

    r = await w.bob.slash(w.channel, "game join")
    await w.env.advance_time(IN_TIME)
    record = latest_interaction(w.env)
    assert record.responded and record.deferred and record.ephemeral  # a private "thinking…"
    assert gate.held == 1  # while the save still waits
    gate.release()
    await w.env.advance_time(1)
    assert (await bot.host.current(w.channel.id)).record.seats == (str(w.alice.id), str(w.bob.id))
    assert r.response.content == POSTED_BELOW and r.response.ephemeral
    said = [m.content for m in w.channel.history()]
    assert any(m.startswith(f"{w.bob.mention} joined the **Pebbles** table #1") for m in said), said

    gate = Gate(w.env, bot.host.store, monkeypatch)
    clicked = await w.carol.click(lobby, label="Join")
    await w.env.advance_time(IN_TIME)
    record = latest_interaction(w.env)
    assert record.responded and record.deferred and gate.held == 1  # a deferred update: nothing shows yet
    gate.release()
    await w.env.advance_time(1)
    table = await bot.host.current(w.channel.id)
    assert table.record.seats == (str(w.alice.id), str(w.bob.id), str(w.carol.id))
    assert "3 seated" in clicked.response.content  # the lobby message, edited through the click
    assert not w.env.errors


@pytest.fixture
def settings(settings: Settings, request) -> Settings:
    if getattr(request, "param", None) != "frozen":
        return settings
    server: pg.Server = request.getfixturevalue("own_server")
    return dataclasses.replace(settings, database_url=server.database(), db_timeout=60.0)


@pytest.mark.parametrize("settings", ["frozen"], indirect=True)
async def test_a_frozen_postgresql_server_gets_answers_in_time(world, simcord_bot, own_server, monkeypatch):
    """The server stopped by SIGSTOP: each store call would wait for the store's own timeout (90 s
    here), so only an answer that does not wait on it can come in time."""
    w = world
    bot = simcord_bot
    turn = await start_game(w)
    declare_round_trips(w.env, bot.host.store, monkeypatch)
    bot.host.forget(w.channel.id)  # nothing cached: every handler reads the store
    own_server.freeze()
    try:
        r = await w.alice.click(turn, label="take 2")
        await w.env.advance_time(IN_TIME)
        assert answers(r) == [STORE_DOWN]
        for command in ("game board", "game replay", "game turns"):
            r = await w.alice.slash(w.channel, command)
            await w.env.advance_time(IN_TIME)
            assert answers(r) == [STORE_DOWN], command
        await w.alice.autocomplete(w.channel, "game play", "action", "take")
        await w.env.advance_time(IN_TIME)
        record = latest_interaction(w.env)
        assert record.responded and record.autocomplete_choices == []
    finally:
        own_server.thaw()
    await w.env.advance_time(1)
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10  # nothing changed
    w.env.errors.clear()  # the reads given up ended later with the store's own errors, if any
