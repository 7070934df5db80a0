"""Who acted is written down when it happens (SimCord, virtual time): the AI's moves for an absent
person read "AI for @alice", a bot's moves keep the bot's name after the seat is handed back, and a
returning person's catch-up covers every turn since their own last decision."""

from __future__ import annotations

import pytest

from tests.test_bot_async import (
    advance,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)

HOUR = 3600


pytestmark = pytest.mark.simcord(settle_timeout=20)  # bots think in real time, on a busy machine too


async def open_pebbles(w, options: str) -> None:
    lobby = (await w.alice.slash(w.channel, "game new", game="Pebbles", options=options)).response
    await w.bob.click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")


async def test_a_returning_player_is_told_what_the_ai_played_for_her_every_turn_of_it(world):
    w = world
    await open_pebbles(w, "pile=30 maxtake=1 clock=1 idle=bot away_after=0")
    bot = w.env.bot
    for _ in range(6):  # alice is away: each hour the AI plays her turn, bob plays his at once
        await advance(w.env, HOUR + 60, step=1800)
        table = await bot.host.current(w.channel.id)
        assert table.game.prompt().player == str(w.bob.id)
        await w.bob.click(w.channel.last_message, label="take 1")
    table = await bot.host.current(w.channel.id)
    assert table.game.prompt().player == str(w.alice.id) and table.game.to_json()["pile"] == 18
    text = w.channel.last_message.content
    catch_up = text[text.index("while you were away") :]
    assert f"{w.alice.mention}, while you were away the AI played for you:" in text
    assert catch_up.count(f"AI for {w.alice.mention} took 1") == 6  # every turn, not the last few
    assert catch_up.count(f"{w.bob.mention} took 1") == 6
    assert len(text) <= 2000

    await w.alice.click(w.channel.last_message, label="take 1")  # she is back
    await w.bob.click(w.channel.last_message, label="take 1")
    text = w.channel.last_message.content
    assert "while you were away" not in text and f"Since {w.alice.mention} last decided:" in text
    assert "AI for" not in text


async def test_moves_a_bot_made_keep_its_name_after_the_seat_is_handed_back(world):
    w = world
    await open_pebbles(w, "pile=20 maxtake=1 clock=0")
    bot = w.env.bot
    await w.alice.slash(w.channel, "game replace", player=str(w.alice.id))  # a bot takes her seat
    for _ in range(3):
        await w.bob.click(w.channel.last_message, label="take 1")  # the bot answers each at once
    await w.alice.slash(w.channel, "game replace", player=str(w.alice.id), member=w.alice)
    table = await bot.host.current(w.channel.id)
    assert table.holder_of(str(w.alice.id)) == str(w.alice.id)
    r = await w.alice.slash(w.channel, "game log")
    lines = r.response.content.splitlines()
    by_bot = [line for line in lines if line.startswith("• Bot 1 (normal) took 1")]
    by_alice = [line for line in lines if line.startswith(f"• {w.alice.mention} took 1")]
    assert len(by_bot) >= 3 and by_alice == []
