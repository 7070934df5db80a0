"""People who are away are left in peace (SimCord, virtual time): after ``away_after`` turns in a row
that the clock took, the AI plays their seat without pinging them until they are back; ``/game
away`` and ``/game back``; reminders by DM say where the table is."""

from __future__ import annotations

import pytest

from tests.test_bot_async import (
    advance,
    pinged,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)
from tests.test_bot_history import open_pebbles
from tests.test_bot_pings import record_pings

HOUR = 3600


pytestmark = pytest.mark.simcord(settle_timeout=20)  # bots think in real time, on a busy machine too


def dms(user) -> list[str]:
    """The reminders and absence news a user got by DM."""
    channel = user.user.dm_channel
    found = [m.content for m in channel.history()] if channel is not None else []
    return [text for text in found if text.startswith(("⏰", "💤"))]


def pings_to(pings: dict[int, list[int]], user) -> int:
    """How many messages notified ``user`` when they were posted."""
    return sum(user.id in users for users in pings.values())


async def play_bobs_turn(w) -> None:
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.prompt().player == str(w.bob.id)
    await w.bob.click(w.channel.last_message, label="take 1")


async def test_after_two_missed_turns_the_ai_plays_on_quietly_until_im_back(world, monkeypatch):
    w = world
    pings = record_pings(w.env, monkeypatch)
    await open_pebbles(w, "pile=40 maxtake=1 clock=4 idle=bot")
    bot = w.env.bot
    for _ in range(2):  # alice misses two turns: reminded, then the AI plays for her
        await advance(w.env, 4 * HOUR + 60, step=1800)
        await play_bobs_turn(w)
    pings_missed, dms_missed = pings_to(pings, w.alice), len(dms(w.alice))
    assert pings_missed == 6 and dms_missed == 5  # per turn: its message, two reminders (+ DMs); then 💤
    assert "an AI plays your seat until you are back" in dms(w.alice)[-1]
    table = await bot.host.current(w.channel.id)
    assert str(w.alice.id) in table.record.meta.away

    for _ in range(6):  # six more turns: the AI answers for her at once, nobody pings her
        await play_bobs_turn(w)
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 40 - 17  # and hers after bob's last, at once
    assert pings_to(pings, w.alice) == pings_missed and len(dms(w.alice)) == dms_missed
    assert "is away: an AI plays for them" in w.channel.last_message.content
    assert sum("missed their turns" in m.content for m in w.channel.history()) == 1

    r = await w.alice.click(w.channel.last_message, label="I'm back")
    assert "Welcome back" in r.response.content
    await play_bobs_turn(w)  # now alice is awaited again, and pinged for it
    table = await bot.host.current(w.channel.id)
    assert table.game.prompt().player == str(w.alice.id) and not table.record.meta.away
    assert pings_to(pings, w.alice) == pings_missed + 1


async def test_a_table_where_everyone_is_away_waits_until_someone_is_back(world, monkeypatch):
    """clock=1 idle=bot, and nobody plays: after two turns each that the clock took, both are away.
    The table then stops (no AI plays the rest at machine speed, no clock runs, nothing is rated)
    and says so once, until someone is back."""
    w = world
    pings = record_pings(w.env, monkeypatch)
    await open_pebbles(w, "pile=40 maxtake=1 clock=1 idle=bot")
    bot = w.env.bot
    await advance(w.env, 4 * HOUR + 60, step=1800)  # a, b, a (away), b (away): four turns timed out
    table = await bot.host.current(w.channel.id)
    assert table is not None and table.record.status == "playing"
    assert set(table.record.meta.away) == {str(w.alice.id), str(w.bob.id)}
    assert table.game.to_json()["pile"] == 36 and table.game.prompt().player == str(w.alice.id)
    assert table.record.deadline is None  # no clock runs: nothing is due
    said = [m.content for m in w.channel.history() if m.content.startswith("💤 Everyone at the")]
    assert len(said) == 1 and "the table waits" in said[0] and "/game abandon" in said[0]
    assert "Everyone at this table is away, so it waits" in w.channel.last_message.content
    assert "Time to decide runs out" not in w.channel.last_message.content
    count, alice_pings = len(w.channel.history()), pings_to(pings, w.alice)

    await advance(w.env, 30 * HOUR, step=3 * HOUR)  # a day and more: nothing happens at all
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 36 and table.record.status == "playing"
    assert len(w.channel.history()) == count and pings_to(pings, w.alice) == alice_pings
    assert await bot.host.store.sql("SELECT COUNT(*) FROM results") == [(0,)]

    r = await w.alice.click(w.channel.last_message, label="I'm back")  # someone is back
    assert "Welcome back" in r.response.content
    table = await bot.host.current(w.channel.id)
    assert table.record.meta.everyone_away is None and table.record.deadline is not None
    await w.alice.click(w.channel.last_message, label="take 1")  # bob is still away: the AI plays him
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 34 and table.game.prompt().player == str(w.alice.id)
    assert "is away: an AI plays for them" in w.channel.last_message.content
    assert sum(m.content.startswith("💤 Everyone at the") for m in w.channel.history()) == 1


async def test_game_away_stops_the_clock_under_idle_wait_and_game_back_restarts_it(world, monkeypatch):
    w = world
    pings = record_pings(w.env, monkeypatch)
    await open_pebbles(w, "pile=10 clock=2 idle=wait")
    r = await w.alice.slash(w.channel, "game away", days=2)
    assert r.response.ephemeral and "away until" in r.response.content
    assert "1 running table" in r.response.content
    await advance(w.env, 20 * HOUR, step=1800)
    assert pings_to(pings, w.alice) == 1  # only the turn message before she left
    table = await w.env.bot.host.current(w.channel.id)
    assert not table.record.meta.timed_out  # her clock stood still
    r = await w.alice.slash(w.channel, "game back")
    assert "Welcome back" in r.response.content
    await advance(w.env, HOUR + 60, step=1800)  # half of a fresh clock: reminded again
    reminders = [c for c in pinged(w.env, w.channel, w.alice) if "waiting for your decision" in c]
    assert len(reminders) == 1


async def test_game_away_without_a_running_game_says_there_is_nothing_to_be_away_from(world):
    w = world
    r = await w.alice.slash(w.channel, "game away", days=3)
    assert r.response.ephemeral
    assert r.response.content.startswith("You hold no seat at a running game"), r.response.content
    assert "0 running" not in r.response.content
    await w.alice.slash(w.channel, "game new", game="Pebbles")  # a lobby is no running game either
    r = await w.alice.slash(w.channel, "game away", days=3)
    assert r.response.content.startswith("You hold no seat at a running game"), r.response.content


async def test_away_ends_by_itself_on_its_day(world):
    w = world
    await open_pebbles(w, "pile=30 maxtake=1 clock=0 idle=bot")
    await w.alice.slash(w.channel, "game away", days=1)  # the AI plays her turn at once
    for _ in range(3):
        await play_bobs_turn(w)  # and each of hers after his, at once
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 30 - 7
    await advance(w.env, 25 * 3600, step=3 * 3600)  # past her day: she is back
    await play_bobs_turn(w)
    table = await w.env.bot.host.current(w.channel.id)
    assert not table.record.meta.away and table.game.prompt().player == str(w.alice.id)
    assert f"▶ {w.alice.mention}" in w.channel.last_message.content


async def test_a_reminder_by_dm_names_the_server_the_channel_and_the_game(world):
    w = world
    await open_pebbles(w, "pile=10 clock=2 idle=wait")
    await advance(w.env, HOUR + 60, step=1800)
    dm = dms(w.alice)[-1]
    assert "**Pebbles** table #1" in dm and f"<#{w.channel.id}>" in dm and "(Lab)" in dm
    assert "https://discord.com/channels/" in dm


async def test_a_reminder_in_quiet_hours_waits_until_they_end(world):
    w = world
    r = await w.alice.slash(w.channel, "game quiet", start="05:00", end="09:00", timezone="Europe/Berlin")
    assert "Quiet hours 05:00–09:00 (Europe/Berlin)" in r.response.content
    r = await w.alice.slash(w.channel, "game quiet", start="25:00", end="09:00", timezone="Europe/Berlin")
    assert "not a time of day" in r.response.content
    r = await w.alice.slash(w.channel, "game quiet", start="05:00", end="09:00", timezone="Mars/Olympus")
    assert "time zone" in r.response.content
    await open_pebbles(w, "pile=10 clock=12 idle=wait")  # the first reminder is due at 06:00 UTC
    await advance(w.env, 7 * HOUR + 50 * 60, step=1800)  # 07:50 UTC = 08:50 in Berlin: still quiet
    assert not dms(w.alice)
    await advance(w.env, 20 * 60, step=600)  # 09:00 in Berlin: the reminder comes
    assert len(dms(w.alice)) == 1 and "It's your decision" in dms(w.alice)[0]
