"""Spectators and old turn messages (SimCord): /game board by someone not seated answers only
them, with the current board, and leaves the turn message alone; a player's /game board re-posts
it publicly; a retired turn message keeps its turn number and the board as the turn ended."""

from __future__ import annotations

import random

import pytest

from tests.driver import Driver, open_table, random_policy, widgets

GAMES = ["Argo", "Argoat"]


async def running(w, bot, seeds, game: str) -> Driver:
    """A running ``game`` of Alice and Bob in the world's channel (Carol and Dave watch)."""
    seeds.value = 3
    await open_table(w.channel, game, [w.alice, w.bob])
    players = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    return Driver(w.env, bot, w.channel, players, random_policy(random.Random(3)))


def public_ids(w) -> list[int]:
    return [m.id for m in w.channel.history()]


async def png_of(message) -> bytes:
    assert message.attachments and message.attachments[0].filename == "board.png"
    png = await message.attachments[0].read()
    assert png.startswith(b"\x89PNG")
    return png


@pytest.mark.parametrize("game", GAMES)
async def test_a_spectators_board_is_private_and_leaves_the_turn_message_alone(
    world, simcord_bot, seeds, game
):
    w = world
    driver = await running(w, simcord_bot, seeds, game)
    await driver.step()  # the game is under way
    table = await driver.table()
    assert table.record.status == "playing" and str(w.carol.id) not in table.record.seats
    turn_id = table.record.message_id
    turn = driver.message(turn_id)
    before = [(x.label, x.custom_id, x.value) for x in widgets(turn)]
    content = turn.content
    assert before, "the turn message offers choices"
    history = public_ids(w)

    r = await w.carol.slash(w.channel, "game board")
    assert r.response.ephemeral
    assert r.response.id not in public_ids(w) and public_ids(w) == history  # nothing new in public
    assert r.response.id in [m.id for m in w.channel.history(viewer=w.carol)]
    assert r.response.id not in [m.id for m in w.channel.history(viewer=w.alice)]
    png = await png_of(r.response)
    assert png == await png_of(turn)  # the same current board as the turn message shows
    view = table.public_view()
    assert f"**{game}** · table #{table.record.id} · turn {view['turn']}" in r.response.content
    assert "▶" in r.response.content  # the current state: who decides now
    assert r.response.components == []  # a spectator gets no buttons

    after = await driver.table()
    assert after.record.message_id == turn_id and after.record.version == table.record.version
    assert [(x.label, x.custom_id, x.value) for x in widgets(driver.message(turn_id))] == before
    assert driver.message(turn_id).content == content  # not even edited
    await driver.step()  # and its buttons still play
    assert (await driver.table()).record.version != table.record.version


@pytest.mark.parametrize("game", GAMES)
async def test_a_players_board_reposts_the_turn_message_publicly(world, simcord_bot, seeds, game):
    w = world
    driver = await running(w, simcord_bot, seeds, game)
    table = await driver.table()
    old_id = table.record.message_id
    r = await w.bob.slash(w.channel, "game board")  # seated, whether or not it is his turn
    assert not r.response.ephemeral and r.response.id in public_ids(w) and r.response.id != old_id
    await png_of(r.response)
    assert driver.message(old_id).components == []  # the old message lost its buttons
    assert (await driver.table()).record.message_id == r.response.id
    await driver.step()  # the re-posted message plays


async def test_a_retired_turn_message_keeps_its_number_and_the_board_as_the_turn_ended(
    world, simcord_bot, seeds
):
    w = world
    driver = await running(w, simcord_bot, seeds, "Argo")
    table = await driver.table()
    first_id, first_turn = table.record.message_id, table.public_view()["turn"]
    board_at_start = await png_of(driver.message(first_id))
    while (await driver.table()).record.message_id == first_id:
        await driver.step()
    retired = driver.message(first_id)
    assert f"· turn {first_turn}\n" in retired.content and "▶" not in retired.content
    assert retired.components == []
    board_at_end = await png_of(retired)
    assert board_at_end != board_at_start  # the board as the turn ended: a tile was built, a move made
    now = await driver.table()
    assert f"· turn {now.public_view()['turn']}\n" in driver.message(now.record.message_id).content
    assert now.public_view()["turn"] != first_turn
