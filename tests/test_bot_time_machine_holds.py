"""Time Machine holds (SimCord, virtual time): "Don't ask me again this game", and seats the AI
plays answering a hold at once instead of holding the table."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "argo"))
from argo_board import setup

from tests.driver import put_game, widgets
from tests.test_bot_argo_focus import TM_STATION, live_game, pings_of, position
from tests.test_bot_argoat_kit import live
from tests.test_bot_async import (
    HOUR,
    advance,
    settings,  # noqa: F401  (the scheduler looks every minute: hours stay cheap)
)

HELD = {"Yellow-Pilot": "N1", "Blue-Grunt": "S1"}
"""Alice (Blue) to act; her Grunt's move opens a Time Machine moment for Bob (Yellow)."""


async def next_turn_position(w, bot, turn: int) -> None:
    """The held position again, ``turn`` turns on (the table's bookkeeping stays)."""
    table = await live(bot, w)
    game = setup(TM_STATION, astronauts=HELD, options=table.record.options, turn=turn)
    await put_game(bot, w.channel.id, game)
    await w.alice.slash(w.channel, "game board")


async def test_dont_ask_me_again_this_game_passes_every_later_hold(world, simcord_bot, monkeypatch):
    w = world
    driver, _turn = await position(w, simcord_bot, monkeypatch, TM_STATION, astronauts=HELD)
    await driver.choose("move Grunt S2")
    game = await live_game(simcord_bot, w)
    assert game.prompt().player is None and str(w.bob.id) in game.prompt().others  # held for bob
    message = w.channel.last_message
    labels = [x.label for x in widgets(message)]
    assert "Don't ask me this turn" in labels and "Don't ask me again this game" in labels
    r = await w.bob.click(message, label="Don't ask me again this game")
    assert r.response.ephemeral and "rest of this game" in r.response.content
    assert (await live_game(simcord_bot, w)).prompt().player == str(w.alice.id)  # passed at once
    turn = game.turn_marker()[0]
    await next_turn_position(w, simcord_bot, turn + 2)  # a later turn: bob is still not asked
    pinged = len(pings_of(w, w.bob))
    await driver.choose("move Grunt S2")
    assert len(pings_of(w, w.bob)) == pinged  # nor mentioned
    table = await live(simcord_bot, w)
    assert table.game.prompt().player == str(w.alice.id) and table.record.meta.hold is None
    log = await simcord_bot.host.store.log(table.record.id)
    assert log[-1].actor == str(w.bob.id) and log[-1].action["type"] == "pass"


async def test_a_seat_handed_to_an_ai_answers_a_hold_at_once(world, simcord_bot, monkeypatch):
    w = world
    driver, _turn = await position(w, simcord_bot, monkeypatch, TM_STATION, astronauts=HELD)
    await w.alice.slash(w.channel, "game replace", player=str(w.bob.id))
    await driver.choose("move Grunt S2")
    table = await live(simcord_bot, w)
    assert table.record.meta.hold is None and table.game.prompt().player == str(w.alice.id)


async def test_a_seat_whose_clock_ran_out_under_idle_bot_answers_holds_at_once_until_its_player_is_back(
    world, simcord_bot, monkeypatch
):
    w = world
    await position(
        w, simcord_bot, monkeypatch, TM_STATION, options="clock=1 idle=bot", astronauts=HELD, active="Yellow"
    )
    await advance(w.env, HOUR + 120, step=600)  # bob's clock runs out: an AI plays his turn
    table = await live(simcord_bot, w)
    assert table.record.meta.stand_in == (str(w.bob.id),)
    turn = table.game.turn_marker()[0]
    await next_turn_position(w, simcord_bot, turn)
    assert (await live_game(simcord_bot, w)).prompt().player == str(w.alice.id)
    pinged = len(pings_of(w, w.bob))
    r = await w.alice.slash(w.channel, "argo move", action="Grunt S2")
    assert "Done" in r.response.content and len(pings_of(w, w.bob)) == pinged
    table = await live(simcord_bot, w)
    assert table.record.meta.hold is None and table.game.prompt().player == str(w.alice.id)
    log = await simcord_bot.host.store.log(table.record.id)
    answer = log[-1]
    assert answer.actor == str(w.bob.id) and answer.action == {"type": "pass", "by": "bot:normal"}
    # bob acts himself: the AI no longer answers for him
    r = await w.alice.slash(w.channel, "argo move", action="Robot E1")
    assert "Done" in r.response.content
    table = await live(simcord_bot, w)
    assert table.game.prompt().player == str(w.bob.id)
    first = table.game.notation(table.game.legal_actions(str(w.bob.id))[0])
    await w.bob.slash(w.channel, "game play", action=first)
    assert (await live(simcord_bot, w)).record.meta.stand_in == ()
