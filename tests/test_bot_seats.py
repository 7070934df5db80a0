"""Seats through SimCord: hand-overs by member and to an AI (secrets move with the seat), leaving a
running game, catching up after opponents' turns, and the end (ranking, rematch, log)."""

from __future__ import annotations

import random

from tests.driver import Driver, open_table, random_policy
from tests.test_bot_argoat_kit import dm_news, dms, live
from tests.test_bot_argoat_secrets import eye_game
from tests.test_bot_lobby import labels
from tests.test_bot_play import start_game


async def test_a_seat_handed_to_a_member_takes_its_secrets_along(world, simcord_bot, seeds, monkeypatch):
    w = world
    turn = await eye_game(w, simcord_bot, seeds, monkeypatch)  # alice (host) holds the Eye
    seat = str(w.alice.id)
    r = await w.bob.slash(w.channel, "game replace", player=seat, member=w.dave)
    assert r.response.ephemeral and "Only the host" in r.response.content
    r = await w.alice.slash(w.channel, "game replace", player=seat, member=w.bob)
    assert "already plays" in r.response.content
    r = await w.alice.slash(w.channel, "game replace", player=seat, member=w.dave)
    assert f"now played by {w.dave.mention}" in "\n".join(m.content for m in [r.response, *r.followups])
    assert any("Eye of the Dark Dragon" in text for text in dms(w.dave))  # the seat's secrets
    table = await live(simcord_bot, w)
    assert table.holder_of(seat) == str(w.dave.id)
    # the old holder can no longer act nor read the seat's secrets
    r = await w.alice.slash(w.channel, "game hand")
    assert "not playing" in r.response.content
    turn = w.channel.last_message
    r = await w.alice.click(turn, label="Use an Item")
    assert r.response.ephemeral and "not your decision" in r.response.content
    # the new one can, and what the seat learns now goes to them only
    before = len(dms(w.alice))
    driver = Driver(w.env, simcord_bot, w.channel, {seat: w.dave}, None)
    await driver.choose("use Eye 0,3")
    assert dm_news(w, w.dave)[-1] == ["The Dark Forest (0,3) hides Hollow."]
    assert len(dms(w.alice)) == before


async def test_a_seat_handed_to_an_ai_plays_on_by_itself(world, simcord_bot):
    w = world
    await start_game(w, players=("alice", "bob", "carol"), options="pile=30")
    r = await w.carol.slash(w.channel, "game replace", player=str(w.alice.id))
    assert "Only the host" in r.response.content  # carol may not (alice's clock has not run out)
    await w.alice.slash(w.channel, "game replace", player=str(w.alice.id))  # host: an AI plays alice's seat
    table = await simcord_bot.host.current(w.channel.id)
    assert table.holder_of(str(w.alice.id)) == "bot:normal"
    # the AI took alice's turn at once; bob is awaited now
    assert table.game.prompt().player == str(w.bob.id) and table.game.to_json()["pile"] < 30
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content
    assert "Bot 1 (normal)" in w.channel.last_message.content


async def test_leaving_a_running_game_hands_the_seat_to_an_ai_after_confirming(world, simcord_bot):
    w = world
    await start_game(w, options="pile=30")
    r = await w.bob.slash(w.channel, "game leave")
    assert labels(r.response) == ["Leave: an AI takes my seat", "Stay"]
    r2 = await w.bob.click(r.response, label="Stay")
    assert "keep your seat" in r2.response.content
    r = await w.bob.slash(w.channel, "game leave")
    await w.bob.click(r.response, label="Leave: an AI takes my seat")
    table = await simcord_bot.host.current(w.channel.id)
    assert table.holder_of(str(w.bob.id)) == "bot:normal" and table.seat_of(str(w.bob.id)) is None
    turn = w.channel.last_message
    await w.alice.click(turn, label="take 1")  # alice plays; the AI answers for bob's seat by itself
    table = await simcord_bot.host.current(w.channel.id)
    assert table.game.prompt().player == str(w.alice.id) and table.game.to_json()["pile"] < 29


async def test_the_turn_message_catches_up_on_two_opponents_full_turns(world, simcord_bot, seeds):
    w = world
    players = [w.alice, w.bob, w.carol]
    seeds.value = 7
    await open_table(w.channel, "Argo", players)
    actors = {str(p.id): p for p in players}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(7)))
    first = (await simcord_bot.host.current(w.channel.id)).game.prompt().player
    # play until the first player's second turn begins: two opponents have played full turns
    seen_others = set()
    while True:
        table = await simcord_bot.host.current(w.channel.id)
        player = table.game.prompt().player
        if player != first:
            seen_others.add(player)
        elif len(seen_others) == 2:
            break
        await driver.step()
    log = await simcord_bot.host.store.log(table.record.id)
    last_own = max(e.seq for e in log if e.actor == first)
    expected = [line for e in log if e.seq > last_own for line in e.summary.splitlines() if line]
    assert len(expected) >= 6
    text = w.channel.last_message.content
    names = table.names()
    assert f"Since {names[first]} last decided:" in text
    for line in expected:
        shown = line
        for seat, name in names.items():
            shown = shown.replace(f"<p:{seat}>", name)
        assert shown in text, shown


async def test_the_end_ranks_every_player_offers_a_rematch_and_the_log_names_players(world, simcord_bot):
    w = world
    turn = await start_game(w, options="pile=3 maxtake=3")
    await w.alice.click(turn, label="take 3")
    final = w.channel.last_message
    assert f"🥇 {w.alice.mention}: 3 points — winner" in final.content
    assert f"🥈 {w.bob.mention}: 0 points" in final.content
    assert set(w.env.backend.messages[w.channel.id][final.id].ping_user_ids) == {w.alice.id, w.bob.id}
    r = await w.alice.slash(w.channel, "game log")
    assert f"{w.alice.mention} took the last pebble" in r.response.content and "<p:" not in r.response.content
    r = await w.carol.slash(w.channel, "game board")  # a spectator: privately, the final board
    assert r.response.ephemeral and "Game over" in r.response.content
    r = await w.carol.click(final, label="Rematch")
    assert r.response.ephemeral and "Only the players" in r.response.content
    r = await w.bob.click(final, label="Rematch")
    lobby = w.channel.last_message
    assert "Rematch!" in lobby.content and "pile=3" in lobby.content
    assert set(w.env.backend.messages[w.channel.id][lobby.id].ping_user_ids) == {w.alice.id, w.bob.id}
    table = await simcord_bot.host.current(w.channel.id)
    assert set(table.record.seats) == {str(w.alice.id), str(w.bob.id)} and table.record.status == "lobby"
    await w.alice.click(lobby, label="Leave")  # a seat may decline
    table = await simcord_bot.host.current(w.channel.id)
    assert table.record.seats == (str(w.bob.id),) and table.record.host_id == str(w.bob.id)
