"""Argo played in a channel through the real bot (SimCord): whole games and focused situations."""

from __future__ import annotations

import random

import pytest

from tests.driver import Driver, open_table, random_policy


@pytest.mark.parametrize(("count", "seed"), [(2, 11), (4, 12)])
async def test_a_whole_game_through_clicks_and_selects(world, simcord_bot, seeds, count, seed):
    w = world
    players = [w.alice, w.bob, w.carol, w.dave][:count]
    seeds.value = seed
    await open_table(w.channel, "Argo", players)
    driver = Driver(
        w.env, simcord_bot, w.channel, {str(p.id): p for p in players}, random_policy(random.Random(seed))
    )
    actions = await driver.play_to_end()
    assert actions > 10
    final = w.channel.last_message
    assert "Game over" in final.content and "Rematch" in final.content
    assert "1. <@" in final.content or "🥇 <@" in final.content  # ranked (medals when someone won)
    assert final.attachments and final.attachments[0].filename == "board.png"
    png = await final.attachments[0].read()
    assert png.startswith(b"\x89PNG")
    # every turn message carried a board picture and lost its components once its turn was over
    for message_id in driver.turn_messages:
        message = driver.message(message_id)
        assert message.attachments, "each turn posts a board"
        assert message.components == [] or message.id == final.id  # the final one offers a rematch
    assert (await simcord_bot.host.store.tables())[0].status == "finished"
