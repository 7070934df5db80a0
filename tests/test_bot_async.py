"""The async table through SimCord on virtual time: decision clocks and reminders, idle seats,
hand-overs, pause, /game turns, catching up, and the end of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from tests.test_bot_play import start_game

HOUR = 3600


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # The scheduler looks every minute (not every 10 s) so that hours of virtual time stay cheap.
    return Settings(
        token="test-token",
        database_path=tmp_path / "data" / "games.db",
        ai_workers=0,
        ai_budget=0.05,
        scheduler_seconds=60,
    )


def stored(env, channel):
    """The channel's stored messages, oldest first (content, and who was really notified)."""
    return list(env.backend.messages[channel.id].values())


def pinged(env, channel, user) -> list[str]:
    """Contents of the channel's messages that notified ``user``."""
    return [m.content for m in stored(env, channel) if user.id in m.ping_user_ids]


async def advance(env, seconds: int, step: int = 1800) -> None:
    """Move virtual time on in steps (each step must settle within SimCord's real-time limit)."""
    while seconds > 0:
        await env.advance_time(min(step, seconds))
        seconds -= step


async def test_reminders_come_at_half_and_near_the_end_and_never_more(world):
    w = world
    await start_game(w, options="clock=1 idle=wait")
    before = len(pinged(w.env, w.channel, w.alice))  # the turn message itself
    await advance(w.env, 29 * 60, step=600)
    assert len(pinged(w.env, w.channel, w.alice)) == before
    await advance(w.env, 2 * 60)
    reminders = pinged(w.env, w.channel, w.alice)[before:]
    assert len(reminders) == 1 and "waiting for your decision" in reminders[0] and "<t:" in reminders[0]
    dm = w.alice.user.dm_channel.last_message
    assert dm is not None and "It's your decision" in dm.content
    await advance(w.env, 14 * 60, step=600)  # 45 min: the second reminder (a quarter before the end)
    assert len(pinged(w.env, w.channel, w.alice)[before:]) == 2
    await advance(w.env, 14 * 60, step=600)
    assert len(pinged(w.env, w.channel, w.alice)[before:]) == 2
    await advance(w.env, 2 * 60)  # the clock ran out: the table waits (idle=wait)
    latest = pinged(w.env, w.channel, w.alice)[-1]
    assert "ran out" in latest and "/game replace" in latest
    await advance(w.env, 3 * HOUR)
    assert len(pinged(w.env, w.channel, w.alice)[before:]) == 3  # nothing more, ever
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10  # nobody moved for alice


async def test_the_turn_message_shows_the_deadline(world):
    w = world
    turn = await start_game(w, options="clock=2")
    deadline = int(w.env.now().timestamp()) + 2 * HOUR
    assert f"<t:{deadline}:R>" in turn.content


async def test_a_clock_that_runs_out_with_idle_bot_lets_an_ai_play_and_the_game_goes_on(world):
    w = world
    await start_game(w, options="clock=1 idle=bot")
    await advance(w.env, HOUR + 120, step=600)
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] < 10  # the AI took pebbles for alice
    assert table.game.prompt().player == str(w.bob.id)  # and bob is awaited now
    contents = [m.content for m in stored(w.env, w.channel)]
    assert any("ran out of time: an AI (normal) plays this turn" in c for c in contents)
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content
    log = await w.env.bot.host.store.log(table.record.id)
    assert log[-1].action.get("by") == "bot:normal" and log[-1].actor == str(w.alice.id)


async def test_a_restart_between_a_reminder_and_the_deadline_loses_nothing(world, make_bot):
    w = world
    await start_game(w, options="clock=1 idle=wait")
    await advance(w.env, 31 * 60, step=600)
    assert len([c for c in pinged(w.env, w.channel, w.alice) if "waiting for your decision" in c]) == 1
    await w.env.restart_bot(make_bot())
    await advance(w.env, 16 * 60, step=600)  # the late reminder still comes, the first not again
    reminders = [c for c in pinged(w.env, w.channel, w.alice) if "waiting for your decision" in c]
    assert len(reminders) == 2
    await advance(w.env, 20 * 60, step=600)
    assert "ran out" in pinged(w.env, w.channel, w.alice)[-1]


async def test_pause_stops_the_clock_and_resume_goes_on_from_where_it_stopped(world):
    w = world
    await start_game(w, options="clock=1 idle=bot")
    await advance(w.env, 20 * 60, step=600)
    r = await w.bob.slash(w.channel, "game pause")
    assert r.response.ephemeral and "Only the host" in r.response.content
    r = await w.alice.slash(w.channel, "game pause")
    assert "paused" in r.response.content and not r.response.ephemeral
    await advance(w.env, 5 * HOUR)
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10 and not pinged(w.env, w.channel, w.alice)[1:]
    await w.alice.slash(w.channel, "game resume")
    await advance(w.env, 9 * 60, step=600)  # 29 minutes on the clock: no reminder yet
    assert not [c for c in pinged(w.env, w.channel, w.alice) if "waiting for your decision" in c]
    await advance(w.env, 2 * 60)
    assert [c for c in pinged(w.env, w.channel, w.alice) if "waiting for your decision" in c]


async def test_game_turns_lists_the_tables_waiting_for_you_across_channels(world):
    w = world
    other = w.guild.create_text_channel("more-games")
    await start_game(w, options="clock=5")
    lobby = (await w.bob.slash(other, "game new", game="Pebbles")).response
    await w.alice.click(lobby, label="Join")
    await w.bob.click(lobby, label="Start")
    r = await w.alice.slash(w.channel, "game turns")
    assert r.response.ephemeral
    assert f"<#{w.channel.id}>" in r.response.content and f"<#{other.id}>" not in r.response.content
    r = await w.bob.slash(w.channel, "game turns")
    assert f"<#{other.id}>" in r.response.content and f"<#{w.channel.id}>" not in r.response.content
    assert "https://discord.com/channels/" in r.response.content and "<t:" in r.response.content
    r = await w.carol.slash(w.channel, "game turns")
    assert "No table is waiting for you" in r.response.content
