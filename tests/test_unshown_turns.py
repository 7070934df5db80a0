"""A table that cannot show its turn lets no clock run out on people who were never told (SimCord,
the real bot; issue 39, fault 4): while its turn message cannot be posted — Discord answering 500,
or the renderer failing — the awaited person's clock waits (no reminder, no AI playing for them),
the host is told once by DM, and a failing renderer is logged once with its traceback, then in one
line a try. Once the message is posted, the clock starts again from then."""

from __future__ import annotations

import logging

import pytest

import render
from tests.pebbles import Pebbles
from tests.test_bot_async import (
    HOUR,
    advance,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)
from tests.test_bot_play import start_game

pytestmark = pytest.mark.simcord(settle_timeout=20)

UNSHOWN = "could not post the turn message"
"""What the DM to the host says."""


def dms(user) -> list[str]:
    channel = user.user.dm_channel
    return [m.content for m in channel.history()] if channel is not None else []


async def pile(w) -> int:
    return (await w.env.bot.host.current(w.channel.id)).game.to_json()["pile"]


async def shown(w) -> bool:
    record = (await w.env.bot.host.current(w.channel.id)).record
    return record.shown_version >= record.version


async def until_shown(w, limit: int = 2 * HOUR, step: int = 600) -> int:
    """Advance until the table's message shows it; how many seconds that took."""
    waited = 0
    while not await shown(w):
        assert waited < limit, "the turn message was not posted again"
        await w.env.advance_time(step)
        waited += step
    return waited


async def test_while_discord_refuses_the_turn_message_the_clock_waits_and_the_host_is_told_once(world):
    w = world
    turn = await start_game(w, options="clock=1 idle=bot away_after=0")  # alice's move, then bob's
    w.env.inject_error("POST", f"/channels/{w.channel.id}/messages", status=500, times=None)
    w.env.inject_error("POST", "/webhooks/*", status=500, times=None)  # the interaction's posts too
    await w.alice.click(turn, label="take 1")  # saved; bob's turn message cannot be posted
    assert await pile(w) == 9 and not await shown(w)
    await advance(w.env, 4 * HOUR, step=1200)  # bob's clock would have run out four times
    table = await w.env.bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 9 and table.game.prompt().player == str(w.bob.id)  # no AI move
    assert not dms(w.bob)  # and no reminder
    assert [m for m in dms(w.alice) if UNSHOWN in m] == [dms(w.alice)[-1]] and len(dms(w.alice)) == 1

    w.env.backend.faults.clear()  # Discord answers again
    await until_shown(w)  # the tending loop posts the turn message (its backoff is up to an hour)
    latest = w.channel.last_message
    assert f"▶ {w.bob.mention}" in latest.content
    assert w.bob.id in w.env.backend.messages[w.channel.id][latest.id].ping_user_ids  # told now
    await advance(w.env, HOUR - 600, step=600)  # bob's clock started again when he was told
    assert await pile(w) == 9
    await advance(w.env, 1200, step=600)
    assert await pile(w) < 9  # now it ran out: the AI played bob's turn
    assert len([m for m in dms(w.alice) if UNSHOWN in m]) == 1
    w.env.errors.clear()  # the refused posts of the click were answered (and logged)


async def test_a_failing_renderer_is_logged_once_with_its_traceback_and_takes_no_seat(
    world, monkeypatch, caplog
):
    w = world
    turn = await start_game(w, options="clock=1 idle=bot away_after=0")

    def broken(*args, **kwargs):
        raise RuntimeError("the renderer is broken")

    monkeypatch.setattr(render, "board_png", broken)
    caplog.set_level(logging.INFO, logger="cogs.schedule")
    await w.alice.click(turn, label="take 1")
    await advance(w.env, 5 * HOUR, step=1200)
    failures = [r for r in caplog.records if r.name == "cogs.schedule" and "tending failed" in r.getMessage()]
    assert len(failures) >= 3, [r.getMessage() for r in failures]
    assert [r.exc_info is not None for r in failures] == [True] + [False] * (len(failures) - 1)
    assert all("RuntimeError: the renderer is broken" in r.getMessage() for r in failures[1:])
    assert await pile(w) == 9 and not await shown(w)  # nobody played for bob
    assert len([m for m in dms(w.alice) if UNSHOWN in m]) == 1

    monkeypatch.undo()  # the renderer works again
    await until_shown(w)
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content
    # Pebbles' `peek` keeps the turn and changes nothing: the AI's 0.05 s searches for bob could
    # pick it hundreds of times in a row (a stall this test game allows and Argo and Argoat, whose
    # turns are bounded, do not), past SimCord's settle timeout. The AI takes pebbles here.
    legal = Pebbles.legal_actions
    monkeypatch.setattr(
        Pebbles, "legal_actions", lambda game, seat: [a for a in legal(game, seat) if a["type"] != "peek"]
    )
    await advance(w.env, 2 * HOUR, step=1200)
    assert await pile(w) < 9  # bob's clock ran from when he was told


async def test_interactions_failing_the_same_way_again_are_logged_in_one_line(world, monkeypatch, caplog):
    w = world
    turn = await start_game(w, options="pile=20")

    def broken(*args, **kwargs):
        raise RuntimeError("the renderer is broken")

    monkeypatch.setattr(render, "board_png", broken)
    caplog.set_level(logging.INFO, logger="cogs.replies")
    await w.alice.click(turn, label="take 1")  # saved; its board fails
    await w.bob.slash(w.channel, "game play", action="take 1")  # the same failure again
    failed = [r for r in caplog.records if r.name == "cogs.replies" and " failed" in r.getMessage()]
    assert [r.exc_info is not None for r in failed] == [True, False], [r.getMessage() for r in failed]
    assert "RuntimeError: the renderer is broken" in failed[1].getMessage()
    assert await pile(w) == 18  # both moves count
    assert all("the renderer is broken" in str(e) for e in w.env.errors)  # answered above
    w.env.errors.clear()
