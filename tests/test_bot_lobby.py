"""The /game commands and lobby buttons, driven through SimCord against the real bot."""

from __future__ import annotations

import discord
import pytest
import simcord
from simcord import assert_responded

from bot.app import TableBot


def content_of(result) -> str:
    return result.response.content


def labels(message) -> list[str]:
    """Button labels of a message (a simcord ResponseMessage or a discord.Message), but the
    **?** button every turn message and picker carries."""
    found = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for c in children:
            label = c.get("label") if isinstance(c, dict) else getattr(c, "label", None)
            custom_id = (c.get("custom_id") if isinstance(c, dict) else getattr(c, "custom_id", None)) or ""
            if label and not custom_id.startswith("hp:"):
                found.append(label)
    return found


def table_row(bot: TableBot, channel_id: int):
    return bot.host.current(channel_id)


async def open_lobby(w, **options):
    r = await w.alice.slash(w.channel, "game new", game="Pebbles", **options)
    assert not r.response.ephemeral
    return r.response


async def test_game_new_opens_a_lobby_with_host_in_first_seat(world, simcord_bot):
    w = world
    lobby = await open_lobby(w)
    assert "**Pebbles** table #1 is open" in lobby.content
    assert f"1. {w.alice.mention} (host)" in lobby.content
    assert labels(lobby) == ["Join", "Leave", "Start", "Add bot"]
    assert w.channel.last_message.id == lobby.id
    table = await simcord_bot.host.current(w.channel.id)
    assert table.record.status == "lobby" and table.record.seats == (str(w.alice.id),)
    assert table.record.message_id == lobby.id


async def test_second_table_in_a_channel_is_refused(world, simcord_bot):
    w = world
    await open_lobby(w)
    r = await w.bob.slash(w.channel, "game new", game="Pebbles")
    assert_responded(r, ephemeral=True)
    assert "already has a Pebbles table (#1)" in content_of(r)
    assert len(await simcord_bot.host.store.tables()) == 1


async def test_unknown_game_and_bad_options_are_explained(world, simcord_bot):
    w = world
    r = await w.alice.slash(w.channel, "game new", game="Chess")
    assert r.response.ephemeral and "Unknown game 'Chess'" in content_of(r)
    r = await w.alice.slash(w.channel, "game new", game="Pebbles", options="pile=banana")
    assert r.response.ephemeral and content_of(r) == "pile must be a whole number."
    r = await w.alice.slash(w.channel, "game new", game="Pebbles", options="colour=red")
    assert r.response.ephemeral and content_of(r).startswith("Unknown option 'colour'")
    assert await simcord_bot.host.store.tables() == []


async def test_game_autocomplete_lists_games_and_options(world):
    w = world
    choices = await w.alice.autocomplete(w.channel, "game new", "game", "peb")
    assert [c["value"] for c in choices] == ["Pebbles"]
    choices = await w.alice.autocomplete(w.channel, "game new", "options", "ch", game="Pebbles")
    assert [c["value"] for c in choices] == ["cheer=no", "cheer=yes"]


async def test_join_by_button_and_command_errors_for_twice_and_full(world, simcord_bot):
    w = world
    lobby = await open_lobby(w)
    r = await w.bob.click(lobby, label="Join")
    assert r.response.id == lobby.id and f"2. {w.bob.mention}" in lobby.content
    r = await w.bob.click(lobby, label="Join")
    assert_responded(r, content="You already have a seat at this table.", ephemeral=True)
    r = await w.carol.slash(w.channel, "game join")
    assert not r.response.ephemeral and "joined" in content_of(r)
    assert f"3. {w.carol.mention}" in lobby.content  # the lobby message follows slash joins too
    r = await w.dave.click(lobby, label="Join")
    assert_responded(r, content="The table is full (3 of 3 seats).", ephemeral=True)
    table = await simcord_bot.host.current(w.channel.id)
    assert table.record.seats == (str(w.alice.id), str(w.bob.id), str(w.carol.id))


async def test_two_users_join_one_after_the_other_both_land(world, simcord_bot):
    w = world
    lobby = await open_lobby(w)
    first = await w.bob.click(lobby, label="Join")
    second = await w.carol.click(lobby, label="Join")
    assert first.response.id == second.response.id == lobby.id
    table = await simcord_bot.host.current(w.channel.id)
    assert set(table.record.seats) == {str(w.alice.id), str(w.bob.id), str(w.carol.id)}


async def test_leave_before_start_passes_the_host_role_and_last_leaver_closes(world, simcord_bot):
    w = world
    lobby = await open_lobby(w)
    await w.bob.click(lobby, label="Join")
    r = await w.carol.click(lobby, label="Leave")
    assert_responded(r, content="You don't have a seat at this table.", ephemeral=True)
    await w.alice.click(lobby, label="Leave")
    assert f"1. {w.bob.mention} (host)" in lobby.content
    r = await w.bob.slash(w.channel, "game leave")
    assert "left" in content_of(r)
    assert "closed: everyone left" in lobby.content and lobby.components == []
    assert await simcord_bot.host.current(w.channel.id) is None
    # the channel is free again
    await open_lobby(w)


async def test_start_rules_host_only_and_enough_players(world, simcord_bot):
    w = world
    lobby = await open_lobby(w)
    r = await w.alice.click(lobby, label="Start")
    assert_responded(
        r,
        content="Pebbles needs at least 2 players; 1 seated (press **Add bot** to fill a seat).",
        ephemeral=True,
    )
    await w.bob.click(lobby, label="Join")
    r = await w.bob.click(lobby, label="Start")
    assert r.response.ephemeral and content_of(r).startswith("Only the host")
    assert lobby.components  # nothing changed
    r = await w.alice.click(lobby, label="Start")
    assert r.response.id == lobby.id and "has started" in lobby.content and lobby.components == []
    turn = w.channel.last_message
    assert turn.id != lobby.id and f"▶ {w.alice.mention}" in turn.content
    assert turn.mentions and turn.mentions[0].id == w.alice.id  # the first player is pinged
    r = await w.bob.slash(w.channel, "game leave")  # during a game: asks before an AI takes the seat
    assert r.response.ephemeral and "An AI (normal) takes your seat" in content_of(r)
    r = await w.carol.slash(w.channel, "game join")
    assert r.response.ephemeral and "already started" in content_of(r)
    r = await w.alice.slash(w.channel, "game start")
    assert r.response.ephemeral and "already started" in content_of(r)


async def test_start_by_command_retires_the_lobby_buttons(world):
    w = world
    lobby = await open_lobby(w)
    await w.bob.slash(w.channel, "game join")
    r = await w.alice.slash(w.channel, "game start")
    assert not r.response.ephemeral and "turn 1" in content_of(r)
    assert lobby.components == []


async def test_commands_in_dms_are_refused(world):
    w = world
    for command in ("game new", "game join", "game board", "game log"):
        kwargs = {"game": "Pebbles"} if command == "game new" else {}
        r = await w.alice.user.slash(command, **kwargs)
        assert_responded(r, content="Games are played in server channels; use this command in a channel.")
        assert r.response.ephemeral


@pytest.mark.parametrize(
    "command", ["game join", "game leave", "game start", "game board", "game abandon", "game hand"]
)
async def test_commands_without_a_table_are_explained(world, command):
    w = world
    r = await w.alice.slash(w.channel, command)
    assert_responded(r, content="There is no table in this channel. Open one with /game new.", ephemeral=True)


async def test_play_without_a_table_is_explained(world):
    w = world
    r = await w.alice.slash(w.channel, "game play", action="take 1")
    assert r.response.ephemeral and "no table" in content_of(r)


async def test_board_reposts_the_lobby_and_retires_the_old_message(world, simcord_bot):
    w = world
    lobby = await open_lobby(w)
    r = await w.bob.slash(w.channel, "game board")
    assert not r.response.ephemeral and r.response.id != lobby.id
    assert labels(r.response) == ["Join", "Leave", "Start", "Add bot"] and lobby.components == []
    r2 = await w.bob.click(r.response, label="Join")
    assert r2.response.id == r.response.id
    assert (await simcord_bot.host.current(w.channel.id)).record.message_id == r.response.id


async def test_abandon_needs_host_or_manage_channels_and_confirmation(world, simcord_bot):
    w = world
    await open_lobby(w)
    r = await w.bob.slash(w.channel, "game abandon")
    assert r.response.ephemeral and content_of(r).startswith("Only the host")
    r = await w.alice.slash(w.channel, "game abandon")
    assert r.response.ephemeral and "cannot be undone" in content_of(r)
    keep = await w.alice.click(r.response, label="Keep playing")
    assert keep.response.content == "The game goes on."
    assert (await simcord_bot.host.current(w.channel.id)) is not None
    r = await w.alice.slash(w.channel, "game abandon")
    done = await w.alice.click(r.response, label="Abandon the game")
    assert done.response.content == "Abandoned."
    assert "abandoned the **Pebbles** table #1" in w.channel.last_message.content
    assert await simcord_bot.host.current(w.channel.id) is None
    assert [t.status for t in await simcord_bot.host.store.tables()] == ["abandoned"]
    await open_lobby(w)  # a new table may open


async def test_a_moderator_may_abandon_someone_elses_table(simcord_env, simcord_bot):
    env = simcord_env
    guild = env.create_guild("Lab")
    channel = guild.create_text_channel("games")
    mods = guild.create_role("mods", permissions=discord.Permissions(manage_channels=True))
    alice = guild.add_member(env.create_user("alice"))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await alice.slash(channel, "game new", game="Pebbles")
    r = await mod.slash(channel, "game abandon")
    done = await mod.click(r.response, label="Abandon the game")
    assert done.response.content == "Abandoned."
    assert await simcord_bot.host.current(channel.id) is None


async def test_rules_summary(world):
    w = world
    r = await w.alice.slash(w.channel, "game rules", game="Pebbles")
    assert r.response.ephemeral and "whoever takes the last pebble wins" in content_of(r)
    r = await w.alice.slash(w.channel, "game rules")
    assert "Which game?" in content_of(r)
    await open_lobby(w)
    r = await w.alice.slash(w.channel, "game rules")
    assert "**Pebbles** (2–3 players)" in content_of(r)


async def test_restart_keeps_the_table_and_its_buttons(world, simcord_bot, make_bot):
    w = world
    lobby = await open_lobby(w)
    await w.bob.click(lobby, label="Join")
    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()
    r = await w.carol.click(lobby, label="Join")
    assert r.response.id == lobby.id and f"3. {w.carol.mention}" in lobby.content
    r = await w.alice.click(lobby, label="Start")
    assert "has started" in lobby.content
    table = await new_bot.host.current(w.channel.id)
    assert table.record.status == "playing" and len(table.record.seats) == 3


async def test_a_button_of_a_closed_table_is_refused(world):
    w = world
    lobby = await open_lobby(w)
    r = await w.alice.slash(w.channel, "game abandon")
    await w.alice.click(r.response, label="Abandon the game")
    await w.alice.slash(w.channel, "game new", game="Pebbles")
    with pytest.raises(simcord.SetupError, match="No matching component"):
        await w.bob.click(lobby, label="Join")  # the old lobby lost its buttons


async def test_a_thread_is_its_own_channel(world, simcord_bot):
    w = world
    await open_lobby(w)
    w.env.backend.create_thread(w.channel.id, "side game", w.bob.id)
    thread = w.channel.threads[0]
    r = await w.bob.slash(thread, "game new", game="Pebbles")
    assert not r.response.ephemeral and "table #2 is open" in r.response.content
    await w.alice.click(r.response, label="Join")
    await w.bob.click(r.response, label="Start")
    assert (await simcord_bot.host.current(thread.id)).record.status == "playing"
    assert (await simcord_bot.host.current(w.channel.id)).record.status == "lobby"
