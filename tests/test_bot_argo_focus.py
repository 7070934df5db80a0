"""Argo decisions through the bot's components (SimCord), from positions built for each rule."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from simcord import assert_responded

sys.path.insert(0, str(Path(__file__).parent / "argo"))
import argo_board
from argo_board import setup, where

from cogs.picker import choice_tree
from tests.driver import Driver, offered, open_table, press, put_game, random_policy, widgets

BASE = {"N1": "Corridor-T NES", "N2": "Corridor-I NS", "N1E1": "Corridor-L SW", "E1": "Corridor-L NW"}
TELE = {
    "N1": "Corridor-I NS",
    "N2": "Teleporter NS",
    "S1": "Corridor-I NS",
    "S2": "Teleporter NS",
    "S3": "Corridor-I NS",
}
PODS = {
    "N1": "Corridor-I NS",
    "N2": "Corridor-I NS",
    "N3": "Corridor-I NS",
    "N4": "Pod-2/4 S",
    "E1": "Corridor-I EW",
    "S1": "Corridor-I NS",
}
TM_STATION = {
    "N1": "Time-Machine NS",
    "N2": "Corridor-T ESW",
    "N2E1": "Corridor-I EW",
    "N2W1": "Corridor-I EW",
    "E1": "Corridor-I EW",
    "E2": "Warehouse W",
    "S1": "Corridor-I NS",
    "S2": "Corridor-I NS",
}


async def position(w, bot, monkeypatch, tiles, *, players: int = 2, options: str = "", **kwargs):
    """Seat the first ``players`` users at an Argo table and put the game in a built position.

    Returns (driver, turn message). The position is stored like any state of the table.
    """
    actors = [w.alice, w.bob, w.carol, w.dave][:players]
    ids = tuple(str(a.id) for a in actors)
    monkeypatch.setattr(argo_board, "PLAYERS", ids)
    await open_table(w.channel, "Argo", actors, options=options)
    table = await bot.host.current(w.channel.id)
    await put_game(bot, w.channel.id, setup(tiles, players=players, options=table.record.options, **kwargs))
    turn = (await w.alice.slash(w.channel, "game board")).response
    driver = Driver(
        w.env, bot, w.channel, dict(zip(ids, actors, strict=True)), random_policy(random.Random(0))
    )
    return driver, turn


async def live_game(bot, w):
    return (await bot.host.current(w.channel.id)).game


async def options_of(bot, w, message, actor=None) -> list[str]:
    """The notation token(s) of each picker option on ``message`` and the other buttons' labels
    (buttons are labelled in words; see tests/driver.py)."""
    return await offered(bot, w.channel, message, actor)


async def test_push_chain_step_by_step_with_cancel(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        BASE,
        astronauts={"Blue-Grunt": "N2", "Yellow-Chief": "N1", "Yellow-Pilot": "N1E1"},
    )
    await driver.choose("move Grunt N1")
    message = driver.message(turn.id)
    assert "full" in message.content
    # whom and where in one step (never back to N2)
    assert (await options_of(simcord_bot, w, message)) == [
        "push Yellow-Chief N1E1",
        "push Yellow-Chief WR",
        "cancel",
    ]
    await press(simcord_bot, w.channel, w.alice, message, "cancel")
    game = await live_game(simcord_bot, w)
    assert where(game, "Blue-Grunt") == "N2" and where(game, "Yellow-Chief") == "N1"
    await driver.choose("move Grunt N1")
    await driver.choose("push Yellow-Chief N1E1")  # the Pilot's onward push is forced
    game = await live_game(simcord_bot, w)
    assert (where(game, "Blue-Grunt"), where(game, "Yellow-Chief"), where(game, "Yellow-Pilot")) == (
        "N1",
        "N1E1",
        "E1",
    )
    assert "pushed" in driver.message(turn.id).content


async def test_teleport_destination_is_chosen(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(w, simcord_bot, monkeypatch, TELE, astronauts={"Blue-Chief": "N1"})
    await driver.choose("move Chief N2")
    message = driver.message(turn.id)
    assert (await options_of(simcord_bot, w, message)) == ["teleport S2", "teleport WR", "cancel"]
    await driver.choose("teleport S2")
    assert where(await live_game(simcord_bot, w), "Blue-Chief") == "S2"


async def test_the_active_player_chooses_whom_an_alien_kills(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        BASE,
        players=3,
        phase="alien",
        aliens=["N1"],
        astronauts={"Yellow-Pilot": "N2", "Red-Chief": "N2"},
    )
    await driver.choose("move Alien N1 N2")
    message = driver.message(turn.id)
    assert sorted((await options_of(simcord_bot, w, message))[:2]) == ["kill Red-Chief", "kill Yellow-Pilot"]
    assert (await options_of(simcord_bot, w, message))[2:] == ["cancel"]
    r = await press(simcord_bot, w.channel, w.bob, driver.message(turn.id), "kill Yellow-Pilot")
    assert r.response.ephemeral and r.response.content.startswith("It is not your decision")
    await driver.choose("kill Yellow-Pilot")
    game = await live_game(simcord_bot, w)
    assert where(game, "Yellow-Pilot") == "dead" and where(game, "Red-Chief") == "N2"
    assert "killed" in driver.message(turn.id).content


async def test_the_pilot_announces_her_choice(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(w, simcord_bot, monkeypatch, PODS, astronauts={"Blue-Pilot": "N3"})
    choices = await options_of(simcord_bot, w, turn)  # every Move of the round fits one select
    assert {"move Pilot N4 stay", "move Pilot N4 leave"} <= set(choices)
    assert any(x.startswith("move Pilot N4 relocate ") for x in choices)
    await driver.choose("move Pilot N4 leave")
    game = await live_game(simcord_bot, w)
    assert where(game, "Blue-Pilot") == "escaped" and game.view(None)["players"][0]["score"] == 2


async def test_time_machine_interrupt_at_the_start_of_a_turn(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        TM_STATION,
        options="tm_wait=0",  # interrupts without a hold
        begin=True,
        astronauts={"Yellow-Pilot": "N1"},
        aliens=["N2E1", "S2"],
    )
    assert "Time Machine" in await options_of(simcord_bot, w, turn)
    r = await w.alice.click(turn, label="Time Machine")
    assert_responded(
        r, content="That button is for the other players; your choices are above.", ephemeral=True
    )
    r = await w.bob.click(turn, label="Time Machine")
    picker = r.response
    assert picker.ephemeral
    choices = await w.bob.autocomplete(w.channel, "argo timemachine", "action", "")
    assert "timemachine move Yellow-Pilot WR" in [c["value"] for c in choices]
    table = await simcord_bot.host.current(w.channel.id)
    bob = str(w.bob.id)
    tree = choice_tree(table.game, bob, private=True)
    path = tree.path_to(table.game.parse(bob, "timemachine move Yellow-Pilot WR"))
    await driver._reach(w.bob, picker, path, "e", table.record)
    assert picker.content.startswith("Done: `timemachine")
    game = await live_game(simcord_bot, w)
    assert where(game, "Yellow-Pilot") == "WR"
    assert game.prompt().player == str(w.alice.id) and game.view(None)["phase"] == "alien"
    message = driver.message((await simcord_bot.host.current(w.channel.id)).record.message_id)
    assert "Time Machine" in message.content  # the log line under the board
    resumed = await options_of(
        simcord_bot, w, message
    )  # Blue resumes his Alien phase: which Alien, and where
    assert any(x.startswith("move Alien N2E1 ") for x in resumed)
    assert any(x.startswith("move Alien S2 ") for x in resumed)


async def test_time_machine_between_two_actions_by_command(world, simcord_bot, monkeypatch):
    w = world
    driver, _turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        TM_STATION,
        astronauts={"Yellow-Pilot": "N1", "Blue-Grunt": "S1"},
    )
    await driver.choose("move Grunt S2")
    game = await live_game(simcord_bot, w)
    assert game.prompt().others == (str(w.bob.id),)
    r = await w.bob.slash(w.channel, "argo timemachine", action="move Yellow-Pilot WR")
    assert_responded(r, content="Done: `timemachine move Yellow-Pilot WR`", ephemeral=True)
    game = await live_game(simcord_bot, w)
    assert where(game, "Yellow-Pilot") == "WR" and game.prompt().player == str(w.alice.id)
    r = await w.bob.slash(w.channel, "argo timemachine", action="move Yellow-Pilot N1")
    assert_responded(
        r, content=f"It is not your decision right now (waiting for {w.alice.mention}).", ephemeral=True
    )


async def test_time_machine_wait_holds_the_turn_until_pass_or_timeout(world, simcord_bot, monkeypatch):
    w = world
    driver, _turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        TM_STATION,
        begin=True,
        options="tm_wait=2",
        astronauts={"Yellow-Pilot": "N1"},
        aliens=["N2E1", "S2"],
    )
    game = await live_game(simcord_bot, w)
    assert game.prompt().timeout == 120 and str(w.bob.id) in game.prompt().others
    r = await w.alice.slash(w.channel, "argo alien", action="move Alien S2 S1")
    assert_responded(
        r, content=f"It is not your decision right now (waiting for {w.bob.mention}).", ephemeral=True
    )
    await w.env.advance_time(60)
    assert (await live_game(simcord_bot, w)).prompt().timeout == 120  # still waiting
    await w.env.advance_time(70)
    game = await live_game(simcord_bot, w)
    assert game.prompt().player == str(w.alice.id) and game.prompt().timeout is None
    await driver.choose("move Alien S2 S1")


async def test_undo_takes_back_the_players_own_action(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(w, simcord_bot, monkeypatch, BASE, astronauts={"Blue-Grunt": "N2"})
    await driver.choose("move Grunt N1")
    assert "undo" in await options_of(simcord_bot, w, driver.message(turn.id))
    await driver.choose("undo")
    assert where(await live_game(simcord_bot, w), "Blue-Grunt") == "N2"


async def test_illegal_keyboard_move_is_refused_with_the_legal_choices(world, simcord_bot, monkeypatch):
    w = world
    await position(w, simcord_bot, monkeypatch, BASE, astronauts={"Blue-Grunt": "N2"})
    before = (await simcord_bot.host.current(w.channel.id)).record
    r = await w.alice.slash(w.channel, "argo move", action="Grunt E1")
    assert r.response.ephemeral
    assert r.response.content.startswith("'move Grunt E1' is not a legal choice for you right now.")
    assert "move Grunt N1" in r.response.content
    r = await w.bob.slash(w.channel, "argo move", action="Grunt N1")
    assert_responded(
        r, content=f"It is not your decision right now (waiting for {w.alice.mention}).", ephemeral=True
    )
    r = await w.alice.slash(w.channel, "argo build", action="Lab N3 doors-S")
    assert r.response.ephemeral and "not a legal choice" in r.response.content
    assert (await simcord_bot.host.current(w.channel.id)).record == before
    choices = await w.alice.autocomplete(w.channel, "argo move", "action", "Grunt")
    assert [c["value"] for c in choices] and all(c["value"].startswith("move Grunt") for c in choices)
    r = await w.alice.slash(w.channel, "argo move", action="Grunt N1")
    assert_responded(r, content="Done: `move Grunt N1`", ephemeral=True)


async def test_out_of_date_components_and_restart_mid_turn(world, simcord_bot, make_bot, monkeypatch):
    w = world
    driver, turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        TM_STATION,
        options="tm_wait=0",  # interrupts without a hold
        begin=True,
        astronauts={"Yellow-Pilot": "N1"},
        aliens=["N2E1", "S2"],
    )
    bob_picker = (await w.bob.click(turn, label="Time Machine")).response
    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()
    driver.bot = new_bot
    # Which Alien and where in one step; the message drawn before the restart still works.
    assert "move Alien S2 S1" in (await options_of(new_bot, w, driver.message(turn.id)))
    await press(new_bot, w.channel, w.alice, driver.message(turn.id), "move Alien S2 S1")
    first = widgets(bob_picker)[0]  # an option of the select (the choices fill one menu)
    assert first.value is not None
    r = await w.bob.select(bob_picker, [first.value], custom_id=first.custom_id)
    assert r.response.ephemeral and r.response.content.startswith("That board is out of date.")
    assert r.response.attachments  # the current board comes with the refusal
    assert where(await live_game(new_bot, w), "Yellow-Pilot") == "N1"


@pytest.mark.parametrize("count", [3])
async def test_each_turn_posts_a_board_and_mentions_the_next_player(world, simcord_bot, seeds, count):
    w = world
    seeds.value = 3
    actors = [w.alice, w.bob, w.carol][:count]
    await open_table(w.channel, "Argo", actors)
    driver = Driver(
        w.env, simcord_bot, w.channel, {str(a.id): a for a in actors}, random_policy(random.Random(3))
    )
    first = w.channel.last_message
    assert first.attachments and first.attachments[0].filename == "board.png"
    while (await simcord_bot.host.current(w.channel.id)).record.message_id == first.id:
        await driver.step()
    second = w.channel.last_message
    game = await live_game(simcord_bot, w)
    assert second.attachments and second.attachments[0].filename == "board.png"
    posted = [
        e for e in w.env.http_requests if e.method == "POST" and e.json and "allowed_mentions" in e.json
    ]
    pinged = posted[-1].json["allowed_mentions"]
    assert [str(u) for u in pinged.get("users")] == [game.view(None)["active"]] and not pinged.get("parse")


async def test_turn_message_and_board_do_not_depend_on_the_stack_order(world, simcord_bot, monkeypatch):
    w = world
    driver, turn = await position(w, simcord_bot, monkeypatch, BASE, astronauts={"Blue-Grunt": "N2"})
    table = await simcord_bot.host.current(w.channel.id)
    state = table.record.state
    assert len(state["stack"]) > 2
    first = driver.message(turn.id)
    first_png = await first.attachments[0].read()
    reordered = type(table.game).from_json({**state, "stack": list(reversed(state["stack"]))})
    await put_game(simcord_bot, w.channel.id, reordered)
    second = (await w.alice.slash(w.channel, "game board")).response
    assert second.content == first.content
    assert await second.attachments[0].read() == first_png


def pings_of(w, user) -> list[str]:
    """Contents of the channel's messages that notified ``user``."""
    return [m.content for m in w.env.backend.messages[w.channel.id].values() if user.id in m.ping_user_ids]


async def test_a_hold_between_two_actions_mentions_its_players_once_and_dont_ask_me_releases_it(
    world, simcord_bot, monkeypatch
):
    w = world
    driver, _turn = await position(  # the default tm_wait: each moment is held for two hours
        w, simcord_bot, monkeypatch, TM_STATION, astronauts={"Yellow-Pilot": "N1", "Blue-Grunt": "S1"}
    )
    before = len(pings_of(w, w.bob))
    await driver.choose("move Grunt S2")
    game = await live_game(simcord_bot, w)
    assert game.prompt().player is None and game.prompt().timeout == 120 * 60
    assert len(pings_of(w, w.bob)) == before + 1  # the hold is news for bob: he is mentioned
    message = w.channel.last_message
    assert "Don't ask me this turn" in [x.label for x in widgets(message)]
    r = await w.alice.slash(w.channel, "argo move", action="Grunt S1")
    assert r.response.ephemeral and "not your decision" in r.response.content
    await w.bob.click(message, label="Don't ask me this turn")
    game = await live_game(simcord_bot, w)
    assert game.prompt().player == str(w.alice.id)  # bob passed: the turn goes on at once
    latest = w.env.backend.messages[w.channel.id][w.channel.last_message.id]
    assert latest.id != message.id and w.alice.id in latest.ping_user_ids
    assert w.bob.id not in latest.ping_user_ids  # and he is not mentioned again this turn


async def test_a_pass_by_one_of_two_waited_players_does_not_restart_the_hold(world, simcord_bot, monkeypatch):
    w = world
    driver, _turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        TM_STATION,
        players=3,
        options="tm_wait=60",
        astronauts={"Yellow-Pilot": "N1", "Red-Pilot": "N1", "Blue-Grunt": "S1"},
    )
    await driver.choose("move Grunt S2")
    game = await live_game(simcord_bot, w)
    assert set(game.prompt().others) == {str(w.bob.id), str(w.carol.id)}
    await w.env.advance_time(40 * 60)
    r = await w.bob.slash(w.channel, "argo timemachine", action="pass")
    assert "Done" in r.response.content
    game = await live_game(simcord_bot, w)
    assert game.prompt().player is None and game.prompt().others == (str(w.carol.id),)
    await w.env.advance_time(25 * 60)  # 65 minutes since the hold opened: it is over
    game = await live_game(simcord_bot, w)
    assert game.prompt().player == str(w.alice.id)
