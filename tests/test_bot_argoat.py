"""Argoat played in a channel through the real bot (SimCord): a whole game, trades, secrets."""

from __future__ import annotations

import random

from tests.driver import Driver, open_table, random_policy


async def test_a_whole_three_player_game_through_components_ends_in_a_win(world, simcord_bot, seeds):
    w = world
    players = [w.alice, w.bob, w.carol]
    seeds.value = 4  # a game of about 350 actions (seed 5: 656)
    await open_table(w.channel, "Argoat", players, options="difficulty=journeyman")
    policy = random_policy(random.Random(4), avoid=("cancel", "undo", "withdraw", "decline", "trade"))
    driver = Driver(w.env, simcord_bot, w.channel, {str(p.id): p for p in players}, policy)
    actions = await driver.play_to_end(max_actions=4000)
    assert actions > 50
    final = w.channel.last_message
    assert "Game over" in final.content and "found Eden" in final.content
    assert final.attachments and final.attachments[0].filename == "board.png"  # the final map
    for message_id in driver.turn_messages[-20:]:
        message = driver.message(message_id)
        assert message.attachments and (message.components == [] or message.id == final.id)
    table = (await simcord_bot.host.store.tables())[0]
    assert table.status == "finished"
