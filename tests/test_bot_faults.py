"""Faults seen from Discord (SimCord): failed writes, crafted ids, long input, shutdown."""

from __future__ import annotations

import asyncio

import pytest
from simcord import actors
from simcord.enums import ComponentType

import cogs.turns
from bot.tables import NOT_SAVED
from tests.test_bot_play import start_game


async def crafted_click(actor, message, custom_id: str, select_value: str | None = None):
    """Click a component whose id the bot never made (as on a message left by another version of
    the bot): the component is added to the stored message, then clicked as usual."""
    stored = actors._visible_message(actor, message)
    if select_value is None:
        component = {"type": ComponentType.BUTTON, "style": 1, "label": "crafted", "custom_id": custom_id}
    else:
        component = {
            "type": ComponentType.STRING_SELECT,
            "custom_id": custom_id,
            "options": [{"label": "crafted", "value": select_value}],
        }
    stored.components.append({"type": ComponentType.ACTION_ROW, "components": [component]})
    if select_value is None:
        return await actor.click(message, custom_id=custom_id)
    return await actor.select(message, [select_value], custom_id=custom_id)


async def test_a_click_whose_save_fails_is_answered_and_changes_nothing(world, simcord_bot):
    w = world
    turn = await start_game(w)
    await simcord_bot.host.store.sql("PRAGMA query_only = 1")
    r = await w.alice.click(turn, label="take 2")
    assert any(NOT_SAVED in m.content for m in [r.response, *r.followups] if m is not None)
    r = await w.alice.slash(w.channel, "game play", action="take 1")
    assert NOT_SAVED in r.response.content
    await simcord_bot.host.store.sql("PRAGMA query_only = 0")
    table = await simcord_bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10


@pytest.mark.parametrize("custom_id", ["pk:p:1:5:...", "pk:p:1:5:.1.", "pn:p:1:5:..:0", "ps:p:1:5:"])
async def test_ids_the_bot_never_makes_get_the_out_of_date_answer(world, custom_id):
    w = world
    turn = await start_game(w)
    version = (await w.env.bot.host.current(w.channel.id)).record.version
    custom_id = custom_id.replace(":5:", f":{version}:")
    value = "not-a-number" if custom_id.startswith("ps:") else None
    r = await crafted_click(w.alice, turn, custom_id, value)
    assert r.response is not None and r.response.ephemeral
    assert "no longer available" in r.response.content and "current board" in r.response.content
    assert not w.env.errors


async def test_a_very_long_typed_move_gets_a_short_refusal(world):
    w = world
    await start_game(w)
    r = await w.alice.slash(w.channel, "game play", action="take " + "9" * 5990)
    assert "not a legal choice" in r.response.content and len(r.response.content) < 500
    r = await w.bob.slash(w.channel, "game new", game="Pebbles", options="y" * 5990 + "=1")
    assert len(r.response.content) < 500
    assert "Something went wrong" not in r.response.content and not w.env.errors


@pytest.mark.simcord(settle_timeout=1)
async def test_shutdown_waits_for_a_handler_that_is_still_updating_the_board(world, simcord_bot, monkeypatch):
    w = world
    turn = await start_game(w)
    draw = cogs.turns.board_file

    async def slow_board(view, previous=None):
        await asyncio.sleep(60)  # parks the handler after its action was saved
        return await draw(view, previous)

    monkeypatch.setattr(cogs.turns, "board_file", slow_board)
    await w.alice.click(turn, label="take 3")  # saved; the handler now waits on the board
    assert simcord_bot.in_flight.count == 1
    closing = asyncio.create_task(simcord_bot.close_tables())
    await asyncio.sleep(0)
    assert not closing.done()
    await w.env.advance_time(61)  # the board (one: the new turn message's, shown on the retired one)
    assert not closing.done()
    await w.env.advance_time(61)
    await closing
    latest = w.channel.last_message
    assert "took 3 (7 left)" in latest.content and f"▶ {w.bob.mention}" in latest.content
    assert simcord_bot.in_flight.count == 0
