"""Turn play through components and commands, with the test game Pebbles, via SimCord."""

from __future__ import annotations

import pytest
from simcord import assert_responded

from tests.test_bot_lobby import labels


async def start_game(w, players=("alice", "bob"), options: str = ""):
    kwargs = {"options": options} if options else {}
    lobby = (await w.alice.slash(w.channel, "game new", game="Pebbles", **kwargs)).response
    for name in players[1:]:
        await getattr(w, name).click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")
    return w.channel.last_message


def select_labels(message) -> list[str]:
    """Option labels of the select menus of a simcord ResponseMessage."""
    return [o["label"] for row in message.components for c in row["components"] for o in c.get("options", [])]


async def test_a_whole_game_through_buttons(world, simcord_bot):
    w = world
    turn = await start_game(w, options="pile=5 maxtake=2")
    order = [w.alice, w.bob]
    moves = 0
    while True:
        player = order[moves % 2]
        assert labels(turn)[0] == "take 1"  # the choices fit one step: no "take" step first
        await player.click(turn, label="take 1")
        moves += 1
        latest = w.channel.last_message
        if "Game over" in latest.content:
            break
        assert latest.id != turn.id, "each turn gets a new message"
        old = next(m for m in w.channel.history() if m.id == turn.id)
        assert old.components == [] and "▶" not in old.content  # the finished turn is retired
        assert f"▶ {order[moves % 2].mention}" in latest.content
        turn = latest
    assert moves == 5
    assert (
        f"{w.alice.mention} wins." in latest.content
        and f"🥇 {w.alice.mention}: 3 points — winner" in latest.content
    )
    assert labels(latest) == ["Rematch", "Replay", "Stats"]
    table = (await simcord_bot.host.store.tables())[0]
    assert table.status == "finished"
    r = await w.alice.slash(w.channel, "game log")
    assert "took the last pebble and wins" in r.response.content


async def test_back_returns_to_the_first_step(world):
    w = world
    turn = await start_game(w, options="pile=60 maxtake=30")  # 31 choices: more than one select
    assert labels(turn) == ["take", "peek"]
    r = await w.alice.click(turn, label="take")
    assert "Choosing: **take …**" in r.response.content and labels(r.response)[-1] == "↩ Back"
    r = await w.alice.click(turn, label="↩ Back")
    assert labels(r.response) == ["take", "peek"] and "Choosing" not in r.response.content


async def test_someone_else_clicking_is_told_it_is_not_their_decision(world, simcord_bot):
    w = world
    turn = await start_game(w)
    before = (await simcord_bot.host.current(w.channel.id)).record
    r = await w.bob.click(turn, label="take 1")
    assert_responded(r, ephemeral=True)
    assert r.response.content == f"It is not your decision. Waiting for {w.alice.mention}."
    r = await w.carol.click(turn, label="peek")
    assert r.response.ephemeral and r.response.content.startswith("It is not your decision")
    assert (await simcord_bot.host.current(w.channel.id)).record == before
    assert labels(w.channel.last_message) == ["take 1", "take 2", "take 3", "peek"]


async def test_large_choices_become_a_paged_select(world, simcord_bot):
    w = world
    turn = await start_game(w, options="pile=60 maxtake=40")
    r = await w.alice.click(turn, label="take")
    assert select_labels(r.response) == [str(n) for n in range(1, 26)]
    r = await w.alice.click(turn, label="Next ▶")
    assert select_labels(r.response) == [str(n) for n in range(26, 41)]
    assert "◀ Previous" in labels(r.response)
    await w.alice.select(turn, ["29"])  # value 29 is the option index: "30"
    game = (await simcord_bot.host.current(w.channel.id)).game
    assert game.to_json()["pile"] == 30


async def test_keyboard_play_with_autocomplete_and_engine_errors(world, simcord_bot):
    w = world
    await start_game(w)
    choices = await w.alice.autocomplete(w.channel, "game play", "action", "take")
    assert [c["value"] for c in choices] == ["take 1", "take 2", "take 3"]
    assert await w.bob.autocomplete(w.channel, "game play", "action", "") == []
    r = await w.alice.slash(w.channel, "game play", action="take 9")
    assert_responded(
        r,
        content="'take 9' is not a legal choice for you right now. "
        "Legal choices begin: take 1, take 2, take 3.",
        ephemeral=True,
    )
    r = await w.bob.slash(w.channel, "game play", action="take 1")
    assert_responded(
        r, content=f"It is not your decision right now (waiting for {w.alice.mention}).", ephemeral=True
    )
    r = await w.alice.slash(w.channel, "game play", action="Take  2")
    assert_responded(r, content="Done: `Take 2`", ephemeral=True)
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content
    assert (await simcord_bot.host.current(w.channel.id)).game.to_json()["pile"] == 8


async def test_secrets_go_by_dm_never_to_the_channel(world, simcord_bot):
    w = world
    turn = await start_game(w)
    lucky = (await simcord_bot.host.current(w.channel.id)).game.to_json()["lucky"][str(w.alice.id)]
    await w.alice.click(turn, label="peek")
    dm = w.alice.user.dm_channel.last_message
    assert dm is not None and f"Your lucky number is {lucky}." in dm.content
    assert "table #1" in dm.content and f"<#{w.channel.id}>" in dm.content
    assert w.bob.user.dm_channel.last_message is None
    for message in w.channel.history():
        assert f"lucky number is {lucky}" not in message.content
    assert "peeked at their lucky number" in w.channel.last_message.content


async def test_closed_dms_fall_back_to_a_notice_and_game_hand(world, simcord_bot):
    w = world
    turn = await start_game(w)
    lucky = (await simcord_bot.host.current(w.channel.id)).game.to_json()["lucky"][str(w.alice.id)]
    dm_id = w.alice.user.dm_channel.id
    w.env.inject_error(
        "POST",
        f"/channels/{dm_id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    r = await w.alice.click(turn, label="peek")
    notices = [f for f in r.followups if "couldn't send you a DM" in f.content]
    assert notices and notices[0].ephemeral and str(lucky) not in notices[0].content
    r = await w.alice.slash(w.channel, "game hand")
    assert_responded(r, content=f"Your lucky number is {lucky}.", ephemeral=True)
    bob_lucky = (await simcord_bot.host.current(w.channel.id)).game.to_json()["lucky"][str(w.bob.id)]
    r = await w.bob.slash(w.channel, "game hand")
    assert_responded(r, content=f"Your lucky number is {bob_lucky}.", ephemeral=True)
    r = await w.carol.slash(w.channel, "game hand")
    assert_responded(r, content="You are not playing at this table.", ephemeral=True)
    # the game goes on
    await w.alice.click(w.channel.last_message, label="take 1")
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content


async def test_private_choices_open_only_for_their_owner(world, simcord_bot):
    w = world
    turn = await start_game(w, options="secret=yes")
    assert labels(turn) == ["Show my choices"]
    r = await w.bob.click(turn, label="Show my choices")
    assert_responded(r, content="It is not your decision right now.", ephemeral=True)
    r = await w.alice.click(turn, label="Show my choices")
    picker = r.response
    assert picker.ephemeral and labels(picker) == ["take 1", "take 2", "take 3", "peek"]
    await w.alice.click(picker, label="take 3")
    assert picker.content == "Done: `take 3`" and picker.components == []  # Bob decides next
    assert (await simcord_bot.host.current(w.channel.id)).game.to_json()["pile"] == 7
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content


async def test_out_of_turn_actions_and_out_of_date_pickers(world, simcord_bot):
    w = world
    turn = await start_game(w, options="cheer=yes")
    assert labels(turn) == ["take 1", "take 2", "take 3", "peek", "Cheer"]
    r = await w.alice.click(turn, label="Cheer")
    assert_responded(
        r, content="That button is for the other players; your choices are above.", ephemeral=True
    )
    r = await w.carol.click(turn, label="Cheer")
    assert_responded(r, content="It is not your decision right now.", ephemeral=True)
    r = await w.bob.click(turn, label="Cheer")
    bob_picker = r.response
    assert bob_picker.ephemeral and labels(bob_picker) == ["cheer"]
    # Alice moves first: Bob's picker was drawn for an earlier state.
    await w.alice.click(turn, label="take 1")
    r = await w.bob.click(bob_picker, label="cheer")
    assert r.response.ephemeral and r.response.content.startswith("That board is out of date.")
    assert "This is the current board" in r.response.content
    events = await simcord_bot.host.history(w.channel.id)
    assert not any("cheers" in line for line in events)


async def test_out_of_turn_action_updates_the_turn_message(world, simcord_bot):
    w = world
    turn = await start_game(w, options="cheer=yes")
    r = await w.bob.click(turn, label="Cheer")
    r = await w.bob.click(r.response, label="cheer")
    assert r.response.content == "Done: `cheer`"
    turn = next(m for m in w.channel.history() if m.id == turn.id)
    assert f"{w.bob.mention} cheers." in turn.content and f"▶ {w.alice.mention}" in turn.content
    await w.alice.click(turn, label="take 1")  # the refreshed components work


async def test_a_timed_out_turn_is_played_for_the_player(world, simcord_bot):
    w = world
    await start_game(w, options="timer=60")
    await w.env.advance_time(50)
    assert (await simcord_bot.host.current(w.channel.id)).game.to_json()["pile"] == 10
    await w.env.advance_time(20)
    assert (await simcord_bot.host.current(w.channel.id)).game.to_json()["pile"] == 9
    latest = w.channel.last_message
    assert f"▶ {w.bob.mention}" in latest.content and "took 1 (9 left)" in latest.content


@pytest.mark.parametrize("where", ["mid-step", "turn start"])
async def test_restart_mid_turn_keeps_the_turn_message_working(world, simcord_bot, make_bot, where):
    w = world
    turn = await start_game(w, options="pile=60 maxtake=30")  # "take" is a step of its own
    if where == "mid-step":
        await w.alice.click(turn, label="take")
    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()
    if where == "turn start":
        await w.alice.click(turn, label="take")
    await w.alice.select(turn, ["1"])  # value 1 is the option index: "2"
    assert (await new_bot.host.current(w.channel.id)).game.to_json()["pile"] == 58
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content


async def test_board_reposts_the_turn_message(world, simcord_bot):
    w = world
    turn = await start_game(w)
    r = await w.bob.slash(w.channel, "game board")
    assert not r.response.ephemeral and labels(r.response) == ["take 1", "take 2", "take 3", "peek"]
    assert next(m for m in w.channel.history() if m.id == turn.id).components == []
    await w.alice.click(r.response, label="peek")
    assert (await simcord_bot.host.current(w.channel.id)).record.message_id == r.response.id


async def test_the_final_ranking_says_1_point_in_the_singular(world, simcord_bot):
    w = world
    turn = await start_game(w, options="pile=2 maxtake=1")
    await w.alice.click(turn, label="take 1")
    await w.bob.click(w.channel.last_message, label="take 1")
    final = w.channel.last_message
    assert f"🥇 {w.bob.mention}: 1 point — winner" in final.content
    assert f"{w.alice.mention}: 1 point" in final.content and "1 points" not in final.content
