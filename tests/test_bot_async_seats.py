"""More of the async table through SimCord on virtual time: /game turns in a DM, hand-overs once a
clock ran out, a clock that starts during a pause, and tables opened in their own thread."""

from __future__ import annotations

from tests.test_bot_async import (
    HOUR,
    advance,
    pinged,
    settings,  # noqa: F401  (the same virtual-time settings fixture)
)
from tests.test_bot_play import start_game


async def test_game_turns_in_a_dm_lists_the_tables_of_every_server(world):
    w = world
    elsewhere = w.env.create_guild("Elsewhere")
    far = elsewhere.create_text_channel("far-games")
    alice_there = elsewhere.add_member(w.alice.user)
    bob_there = elsewhere.add_member(w.bob.user)
    await start_game(w, options="clock=5")  # alice to play here
    lobby = (await bob_there.slash(far, "game new", game="Pebbles")).response
    await alice_there.click(lobby, label="Join")
    await bob_there.click(lobby, label="Start")
    await bob_there.click(far.last_message, label="take 1")  # now alice's decision there too
    r = await w.alice.slash(w.channel, "game turns")
    assert f"<#{w.channel.id}>" in r.response.content and f"<#{far.id}>" not in r.response.content
    r = await w.alice.user.slash("game turns")
    assert f"<#{w.channel.id}>" in r.response.content and f"<#{far.id}>" in r.response.content
    assert r.response.content.count("https://discord.com/channels/") == 2
    r = await w.carol.user.slash("game turns")
    assert "No table is waiting for you anywhere" in r.response.content


async def test_any_player_may_hand_over_a_seat_once_its_clock_ran_out(world):
    w = world
    await start_game(w, players=("alice", "bob", "carol"), options="clock=1 idle=wait")
    seat = str(w.alice.id)
    r = await w.carol.slash(w.channel, "game replace", player=seat)
    assert r.response.ephemeral and "Only the host" in r.response.content
    await advance(w.env, HOUR + 120, step=600)
    assert "ran out" in pinged(w.env, w.channel, w.alice)[-1]
    r = await w.carol.slash(w.channel, "game replace", player=seat, member=w.dave)
    assert not r.response.ephemeral and "now played by" in r.response.content
    table = await w.env.bot.host.current(w.channel.id)
    assert table.holder_of(seat) == str(w.dave.id)
    r = await w.alice.slash(w.channel, "game play", action="take 1")
    assert r.response.ephemeral and "not playing" in r.response.content
    r = await w.dave.slash(w.channel, "game play", action="take 1")
    assert "Done" in r.response.content


async def test_a_seat_that_plays_again_after_its_clock_ran_out_is_no_longer_up_for_grabs(world):
    w = world
    await start_game(w, players=("alice", "bob", "carol"), options="clock=1 idle=wait")
    await advance(w.env, HOUR + 120, step=600)
    r = await w.alice.slash(w.channel, "game play", action="take 1")
    assert "Done" in r.response.content
    r = await w.carol.slash(w.channel, "game replace", player=str(w.alice.id))
    assert r.response.ephemeral and "Only the host" in r.response.content


async def test_a_clock_that_starts_during_a_pause_gets_its_whole_time_after_the_resume(world):
    w = world
    await start_game(w, options="clock=1 idle=wait")
    await w.alice.slash(w.channel, "game pause")
    await advance(w.env, HOUR)
    r = await w.alice.slash(w.channel, "game play", action="take 1")  # bob's clock starts, paused
    assert "Done" in r.response.content
    await advance(w.env, HOUR)
    await w.alice.slash(w.channel, "game resume")
    before = len(pinged(w.env, w.channel, w.bob))
    await advance(w.env, 28 * 60, step=600)
    assert len(pinged(w.env, w.channel, w.bob)) == before
    await advance(w.env, 4 * 60, step=120)  # half of bob's hour, counted from the resume
    reminders = pinged(w.env, w.channel, w.bob)[before:]
    assert len(reminders) == 1 and "waiting for your decision" in reminders[0]


async def test_thread_on_opens_the_table_in_a_new_thread_of_the_channel(world):
    w = world
    r = await w.alice.slash(w.channel, "game new", game="Pebbles", options="thread=on")
    assert w.channel.threads, "no thread was opened"
    thread = w.channel.threads[-1]
    assert f"<#{thread.id}>" in r.response.content or thread.mention in r.response.content
    table = await w.env.bot.host.current(thread.id)
    assert table is not None and table.record.status == "lobby"
    assert await w.env.bot.host.current(w.channel.id) is None  # the channel stays free
    await w.bob.click(thread.last_message, label="Join")
    await w.alice.click(thread.last_message, label="Start")
    assert (await w.env.bot.host.current(thread.id)).record.status == "playing"
    r = await w.alice.slash(w.channel, "game new", game="Pebbles", options="thread=on")
    assert len(w.channel.threads) == 2  # one channel hosts many tables
    r = await w.bob.slash(thread, "game new", game="Pebbles", options="thread=on")
    assert r.response.ephemeral and "not inside a thread" in r.response.content
