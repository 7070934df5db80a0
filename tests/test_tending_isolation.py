"""The tending loop keeps every table moving whatever fails at one of them (SimCord, virtual time).

Two tables play on their own: with ``clock=1 idle=bot`` an AI plays for whoever's clock ran out,
so each table moves about once an hour with nobody clicking. A fault is injected from outside at
one table only — its AI raising, Discord refusing its channel, its stored state unreadable, the
store failing its writes — and the other table must go on hour after hour, while the failing one
is tended again once the fault is gone."""

from __future__ import annotations

import logging

import pytest
from simcord import assert_error

from bot.store import StoreError
from tests.test_bot_async import (
    advance,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)

HOUR = 3600


pytestmark = pytest.mark.simcord(settle_timeout=20)  # bots think in real time, on a busy machine too


async def start_table(w, channel, pile: int) -> None:
    """A Pebbles table of alice and bob in ``channel`` that moves only through the AI: one
    pebble at a time, each clock one hour, an AI playing for whoever ran out."""
    lobby = (
        await w.alice.slash(
            channel, "game new", game="Pebbles", options=f"pile={pile} maxtake=1 clock=1 away_after=0"
        )
    ).response
    await w.bob.click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")


async def pile(bot, channel) -> int:
    table = await bot.host.current(channel.id)
    return table.game.to_json()["pile"]


@pytest.fixture
async def two_tables(world):
    w = world
    other = w.guild.create_text_channel("second-table")
    await start_table(w, w.channel, 40)
    await start_table(w, other, 30)
    return w, w.channel, other


def tending_errors(caplog, table_id: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if f"table #{table_id}: tending failed" in r.getMessage()]


async def test_an_ai_that_raises_at_one_table_stops_neither_the_other_table_nor_its_own_retries(
    two_tables, caplog, monkeypatch
):
    w, first, second = two_tables
    bot = w.env.bot
    real_choose = bot.thinker.choose

    async def choose(game, seat, level, seed, **where):
        if game.to_json()["options"]["pile"] == 40:  # the first table's game
            raise RuntimeError("the search blew up")
        return await real_choose(game, seat, level, seed, **where)

    monkeypatch.setattr(bot.thinker, "choose", choose)
    caplog.set_level(logging.INFO)
    await advance(w.env, 5 * HOUR + 120, step=1800)
    assert await pile(bot, first) == 40
    assert await pile(bot, second) <= 30 - 4  # an AI move about every hour, as if nothing failed
    errors = tending_errors(caplog, 1)
    assert len(errors) >= 3  # tried again, backing off
    assert [r.exc_info is not None for r in errors] == [True] + [False] * (len(errors) - 1)
    assert "the search blew up" in errors[-1].getMessage()

    monkeypatch.setattr(bot.thinker, "choose", real_choose)  # the fault is gone
    await advance(w.env, 2 * HOUR + 120, step=1800)
    assert await pile(bot, first) < 40
    assert bot.cogs["GameCog"].tend_tables.is_running()


async def test_a_channel_discord_refuses_is_marked_and_its_host_told_once(two_tables, caplog):
    w, first, second = two_tables
    bot = w.env.bot
    w.env.inject_error("POST", f"/channels/{first.id}/messages", status=403, code=50001, times=None)
    caplog.set_level(logging.INFO)
    await advance(w.env, 8 * HOUR, step=1800)
    assert await pile(bot, second) <= 30 - 6
    table = await bot.host.current(first.id)
    assert table.record.meta.unreachable is not None
    dms = [m.content for m in w.alice.user.dm_channel.history() if "can no longer post" in m.content]
    assert len(dms) == 1 and f"<#{first.id}>" in dms[0]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # a lost channel is no crash


async def test_a_server_error_of_one_channel_backs_that_table_off_only(two_tables):
    w, first, second = two_tables
    bot = w.env.bot
    w.env.inject_error("POST", f"/channels/{first.id}/messages", status=500, times=None)
    w.env.inject_error("PATCH", f"/channels/{first.id}/messages/*", status=500, times=None)
    await advance(w.env, 4 * HOUR + 120, step=1800)
    assert await pile(bot, second) <= 30 - 3
    assert (await bot.host.current(first.id)).record.meta.unreachable is None
    assert bot.cogs["GameCog"].tend_tables.is_running()
    w.env.backend.faults.clear()  # Discord answers again: the table's message is posted again
    await advance(w.env, 2 * HOUR + 120, step=1800)
    table = await bot.host.current(first.id)
    assert table.record.shown_version == table.record.version
    shown = next(m for m in first.history() if m.id == table.record.message_id)
    assert "▶" in shown.content and shown.components


async def test_a_table_whose_state_cannot_be_loaded_does_not_stop_the_others(two_tables, make_bot, caplog):
    w, first, second = two_tables
    store = w.env.bot.host.store
    (state,) = (await store.sql("SELECT state FROM tables WHERE id = 1"))[0]
    await store.sql("UPDATE tables SET state = ? WHERE id = 1", ('{"broken": true}',))
    await w.env.restart_bot(make_bot())  # nothing cached: the table is read from the store
    bot = w.env.bot
    caplog.set_level(logging.INFO)
    await advance(w.env, 4 * HOUR + 120, step=1800)
    assert await pile(bot, second) <= 30 - 3
    assert len([r for r in tending_errors(caplog, 1) if r.exc_info]) == 1
    await bot.host.store.sql("UPDATE tables SET state = ? WHERE id = 1", (state,))
    await advance(w.env, 2 * HOUR + 120, step=1800)
    assert await pile(bot, first) < 40


async def test_a_store_that_fails_one_table_leaves_the_others_tended(two_tables, monkeypatch):
    w, first, second = two_tables
    bot = w.env.bot
    store = bot.host.store
    real_save_meta, real_save = store.save_meta, store.save

    async def save_meta(record, *args, **kwargs):
        if record.id == 1:
            raise StoreError("could not save table #1: disk I/O error")
        return await real_save_meta(record, *args, **kwargs)

    async def save(record, *args, **kwargs):
        if record.id == 1:
            raise StoreError("could not save table #1: disk I/O error")
        return await real_save(record, *args, **kwargs)

    monkeypatch.setattr(store, "save_meta", save_meta)
    monkeypatch.setattr(store, "save", save)
    await advance(w.env, 4 * HOUR + 120, step=1800)
    assert await pile(bot, second) <= 30 - 3
    assert await pile(bot, first) == 40
    monkeypatch.undo()
    await advance(w.env, 2 * HOUR + 120, step=1800)
    assert await pile(bot, first) < 40


async def test_the_tending_loop_starts_again_if_it_ever_stops(two_tables, caplog, monkeypatch):
    w, first, second = two_tables
    bot = w.env.bot
    scheduler = bot.scheduler
    real = scheduler.run_due
    calls = []

    async def run_due_once_broken():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the loop itself broke")
        await real()

    monkeypatch.setattr(scheduler, "run_due", run_due_once_broken)
    caplog.set_level(logging.INFO)
    await advance(w.env, 3 * HOUR + 120, step=1800)
    messages = [r.getMessage() for r in caplog.records]
    assert any("tending loop stopped" in m for m in messages)
    assert any("tending loop runs again" in m for m in messages)
    assert await pile(bot, second) <= 30 - 2 and await pile(bot, first) <= 40 - 2
    assert_error(w.env, RuntimeError, contains="the loop itself broke")
