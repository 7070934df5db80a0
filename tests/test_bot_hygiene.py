"""Discord hygiene (SimCord): only the guilds intent, threads that stay open for multi-day games,
and cooldowns with a friendly answer on /game new, /game board and Rematch."""

from __future__ import annotations

import discord

from tests.test_bot_play import start_game


async def test_the_bot_subscribes_to_guild_events_only(world, simcord_bot):
    w = world
    assert simcord_bot.intents == discord.Intents(guilds=True)
    await w.alice.send(w.channel, "hello, anyone up for a game?")
    dropped = [(kind, name) for kind, name, _ in w.env.backend.transcript if kind == "DROPPED"]
    assert ("DROPPED", "MESSAGE_CREATE") in dropped  # never sent to the bot by Discord
    r = await w.alice.slash(w.channel, "game new", game="Pebbles")  # interactions need no intent
    assert not r.response.ephemeral and "Pebbles" in r.response.content


async def test_a_table_thread_auto_archives_after_seven_days(world):
    w = world
    r = await w.alice.slash(w.channel, "game new", game="Pebbles", options="thread=on")
    made = [e for e in w.env.http_requests if e.method == "POST" and e.path.endswith("/threads")]
    assert len(made) == 1 and made[0].json["auto_archive_duration"] == 10080, made
    assert "The table is open in" in r.response.content


async def test_game_board_has_a_cooldown_with_a_friendly_answer(world):
    w = world
    await start_game(w)
    before = len(w.channel.history())
    for _ in range(4):
        r = await w.alice.slash(w.channel, "game board")
        assert "Easy there" not in (r.response.content or "")
    reposted = len(w.channel.history())
    r = await w.alice.slash(w.channel, "game board")
    assert r.response.ephemeral and r.response.content.startswith("Easy there: that was a lot at once.")
    assert "Try again in" in r.response.content and len(w.channel.history()) == reposted > before
    r = await w.bob.slash(w.channel, "game board")  # someone else is not slowed down
    assert "Easy there" not in (r.response.content or "")
    assert not w.env.errors


async def test_game_new_has_a_cooldown(world):
    w = world
    answers = [(await w.alice.slash(w.channel, "game new", game="Pebbles")).response for _ in range(4)]
    assert "Easy there" not in answers[2].content and answers[3].ephemeral
    assert answers[3].content.startswith("Easy there")
    r = await w.bob.slash(w.env.guild.create_text_channel("other"), "game new", game="Pebbles")
    assert not r.response.ephemeral  # another person, another channel: unaffected
    assert not w.env.errors


async def test_rematch_has_a_cooldown(world, simcord_bot):
    w = world
    turn = await start_game(w, options="pile=3 maxtake=3")
    await w.alice.click(turn, label="take 3")
    final = w.channel.last_message
    first = await w.bob.click(final, label="Rematch")
    assert "Rematch!" in w.channel.last_message.content and not (first.response and first.response.ephemeral)
    second = await w.bob.click(final, label="Rematch")  # answered as before: a table is open
    assert "Easy there" not in second.response.content
    third = await w.bob.click(final, label="Rematch")
    assert third.response.ephemeral and third.response.content.startswith("Easy there")
    assert len(await simcord_bot.host.store.tables()) == 2
