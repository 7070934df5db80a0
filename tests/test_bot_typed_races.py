"""Typed moves judged against the table their author saw (SimCord, virtual time): the typed
command is held up after it was created (as a slow process or a busy lock would), a click comes
in meanwhile, then the typed move arrives."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord
import pytest

import tests.argoat.argoat_helpers as helpers
from tests.test_bot_argo_focus import TM_STATION, live_game, position, where
from tests.test_bot_argoat_kit import build, choose, inject, live, open_argoat
from tests.test_bot_play import start_game

DELAY = 30


def hold_typed_moves(monkeypatch, bot) -> None:
    """Typed moves (they carry no version) reach the table host ``DELAY`` seconds late."""
    act = bot.host.act

    async def late(*args, **kwargs):
        if kwargs.get("version") is None:
            await asyncio.sleep(DELAY)  # parks the handler (longer than SimCord's settle time)
        return await act(*args, **kwargs)

    monkeypatch.setattr(bot.host, "act", late)


async def test_a_trade_part_typed_and_clicked_at_once_is_added_once(world, simcord_bot, seeds, monkeypatch):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), emeralds=3)
    await inject(bot, w, game, w.alice)
    await choose(w, bot, w.alice, "trade Blue")
    hold_typed_moves(monkeypatch, bot)
    typed = await w.alice.slash(w.channel, "argoat trade", action="give emerald")
    await w.env.advance_time(1)
    await choose(w, bot, w.alice, "trade give emerald")  # the click lands first
    await w.env.advance_time(DELAY)
    assert "did not play it a second time" in typed.response.content
    parts = (await live(bot, w)).game.state.trade[1]
    assert list(parts) == [("give", "emerald", None)]
    r = await w.alice.slash(w.channel, "argoat trade", action="give emerald")  # typed later: played
    await w.env.advance_time(DELAY)
    assert r.response.content == "Done: `trade give emerald`"
    assert len((await live(bot, w)).game.state.trade[1]) == 2


async def test_a_typed_time_machine_interrupt_after_the_other_players_move_is_refused(
    world, simcord_bot, monkeypatch
):
    w = world
    driver, _turn = await position(
        w,
        simcord_bot,
        monkeypatch,
        TM_STATION,
        players=3,
        options="tm_wait=0",  # carol may interrupt at each moment, without a hold
        astronauts={"Red-Pilot": "N1", "Blue-Grunt": "S1"},
    )
    await driver.choose("move Grunt S2")  # alice's first action: carol may interrupt now
    hold_typed_moves(monkeypatch, simcord_bot)
    typed = await w.carol.slash(w.channel, "argo timemachine", action="move Red-Pilot WR")
    await w.env.advance_time(1)
    await driver.choose("move Robot N1")  # alice's second action lands first: now bob builds
    table = await live(simcord_bot, w)
    assert table.game.prompt().player == str(w.bob.id) and str(w.carol.id) in table.game.prompt().others
    await w.env.advance_time(DELAY)
    assert typed.response.content.startswith("The table changed since you typed this — here it is now.")
    assert typed.response.ephemeral and typed.response.attachments  # the board as it is now
    assert (await live(simcord_bot, w)).record.version == table.record.version
    assert where(await live_game(simcord_bot, w), "Red-Pilot") == "N1"
    r = await w.carol.slash(w.channel, "argo timemachine", action="move Red-Pilot WR")  # typed now
    await w.env.advance_time(DELAY)
    assert r.response.content == "Done: `timemachine move Red-Pilot WR`"


def peeks(log) -> int:
    return sum(1 for e in log if e.action.get("type") == "peek")


async def test_a_typed_move_and_a_click_at_the_same_instant_are_played_once(world, simcord_bot, monkeypatch):
    """Issue 39, fault 2: with equal timestamps the typed move was played again (a decision that
    keeps the turn, so it is still legal)."""
    w = world
    turn = await start_game(w, options="pile=20")
    hold_typed_moves(monkeypatch, simcord_bot)
    typed = await w.alice.slash(w.channel, "game play", action="peek")
    await w.alice.click(turn, label="peek")  # the same virtual instant: the click lands first
    await w.env.advance_time(DELAY)
    assert "did not play it a second time" in typed.response.content and typed.response.ephemeral
    table = await live(simcord_bot, w)
    assert peeks(await simcord_bot.host.store.log(table.record.id)) == 1


@pytest.mark.parametrize("discord_ahead", [2.0, -2.0], ids=["host-behind", "host-ahead"])
async def test_a_host_clock_behind_or_ahead_of_discords_plays_no_move_twice(
    world, simcord_bot, monkeypatch, discord_ahead
):
    """Issue 39, fault 2: with the host's clock 2 s behind Discord's, a move typed before a click
    was played twice; ahead, a move typed after another player's decision was refused."""
    w = world
    host = simcord_bot.host
    skew = timedelta(seconds=discord_ahead)
    monkeypatch.setattr(host, "_clock", lambda: discord.utils.utcnow() - skew)
    turn = await start_game(w, options="pile=20 cheer=yes")
    hold_typed_moves(monkeypatch, simcord_bot)
    typed = await w.alice.slash(w.channel, "game play", action="peek")
    await w.env.advance_time(0.5)
    await w.alice.click(turn, label="peek")  # typed first, clicked half a second later
    await w.env.advance_time(DELAY)
    assert "did not play it a second time" in typed.response.content
    table = await live(simcord_bot, w)
    assert peeks(await host.store.log(table.record.id)) == 1
    monkeypatch.undo()  # typed moves reach the host at once again; the skew stays
    monkeypatch.setattr(host, "_clock", lambda: discord.utils.utcnow() - skew)
    cheer = await w.bob.click(w.channel.last_message, label="Cheer")  # bob's out-of-turn picker
    await w.bob.click(cheer.response, label="cheer")
    await w.env.advance_time(1)
    r = await w.alice.slash(w.channel, "game play", action="take 2")  # typed after bob's cheer
    assert r.response.content == "Done: `take 2`", r.response.content
    assert (await live(simcord_bot, w)).game.to_json()["pile"] == 18
