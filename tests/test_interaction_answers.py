"""Every interaction answers, whatever fails behind it (SimCord): a component or a command whose
handler raises, a store that cannot be read, a crafted id no table can have — and a turn message
that could not be posted is posted again later, also after a restart."""

from __future__ import annotations

import pytest
from simcord import assert_error

import render
from bot.store import StoreError
from bot.tables import STORE_DOWN
from cogs.replies import APPLIED_THEN_WRONG, SOMETHING_WRONG
from tests.test_bot_async import (
    advance,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)
from tests.test_bot_faults import crafted_click
from tests.test_bot_play import start_game

pytestmark = pytest.mark.simcord(settle_timeout=20)  # bots think in real time, on a busy machine too


def answers(result) -> list[str]:
    """The private texts an interaction got back."""
    return [m.content for m in [result.response, *result.followups] if m is not None and m.ephemeral]


async def test_a_component_whose_handler_raises_answers_privately(world, monkeypatch):
    w = world
    turn = await start_game(w)

    async def broken(*args, **kwargs):
        raise RuntimeError("the help pages are on fire")

    monkeypatch.setattr(w.env.bot.ui.help, "pressed", broken)
    r = await w.alice.click(turn, label="?")
    assert answers(r) == [SOMETHING_WRONG]
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10


async def test_a_move_saved_before_its_board_failed_says_it_counts_and_the_turn_is_posted_again(
    world, monkeypatch
):
    w = world
    turn = await start_game(w)

    def no_board(*args, **kwargs):
        raise RuntimeError("the renderer crashed")

    monkeypatch.setattr(render, "board_png", no_board)
    r = await w.alice.click(turn, label="take 2")
    assert answers(r) == [APPLIED_THEN_WRONG]
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 8 and table.record.shown_version < table.record.version
    monkeypatch.undo()
    await advance(w.env, 3 * 60, step=60)  # the tending loop finds the message older than the table
    table = await w.env.bot.host.current(w.channel.id)
    assert table.record.shown_version == table.record.version
    latest = w.channel.last_message
    assert latest.id == table.record.message_id and f"▶ {w.bob.mention}" in latest.content
    assert w.bob.id in w.env.backend.messages[w.channel.id][latest.id].ping_user_ids


async def test_a_store_that_cannot_be_read_gets_a_clear_answer_and_changes_nothing(world, monkeypatch):
    w = world
    turn = await start_game(w)
    host = w.env.bot.host
    host.forget(w.channel.id)  # nothing cached: every handler reads the store

    async def unreachable(*args, **kwargs):
        raise StoreError("connection refused")

    monkeypatch.setattr(host.store, "open_table", unreachable)
    r = await w.alice.click(turn, label="take 2")
    assert answers(r) == [STORE_DOWN]
    r = await w.alice.slash(w.channel, "game play", action="take 1")
    assert answers(r) == [STORE_DOWN]
    r = await w.alice.slash(w.channel, "game board")
    assert answers(r) == [STORE_DOWN]
    monkeypatch.undo()
    table = await host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10
    assert_error(w.env, StoreError, contains="connection refused")


async def test_a_crafted_table_id_too_long_for_the_database_is_refused(world):
    w = world
    turn = await start_game(w)
    r = await crafted_click(w.alice, turn, "tb:rematch:" + "9" * 30)
    assert answers(r) == ["That game can't be replayed from here."]
    r = await crafted_click(w.alice, turn, "pk:p:" + "9" * 30 + ":2:0")
    assert answers(r) and "closed" in answers(r)[0]
    assert not w.env.errors


async def test_a_turn_message_lost_to_a_crash_is_posted_again_after_the_restart(world, make_bot):
    w = world
    turn = await start_game(w)
    # Discord fails the new turn message once, as if the bot had died between saving and posting.
    w.env.inject_error("POST", f"/channels/{w.channel.id}/messages", status=500, times=1)
    await w.alice.click(turn, label="take 1")
    await w.env.restart_bot(make_bot())
    await advance(w.env, 2 * 60, step=60)
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 9 and table.record.shown_version == table.record.version
    latest = w.channel.last_message
    assert latest.id == table.record.message_id and f"▶ {w.bob.mention}" in latest.content
    assert latest.components
    old = next(m for m in w.channel.history() if m.id == turn.id)
    assert old.components == []
