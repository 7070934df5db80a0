"""The real bot on a PostgreSQL server that goes away under it (SimCord): while the server is
stopped, every click and command gets a short, clear private answer and nothing changes; the
tending loop backs off and is alive again once the server is back. (A frozen server is tested at
the store, in real time: tests/test_store_outages.py; SimCord's virtual clock would hold its
timeouts.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.tables import STORE_DOWN
from tests import pg
from tests.test_bot_async import advance
from tests.test_bot_play import start_game
from tests.test_interaction_answers import answers

pytestmark = pytest.mark.simcord(settle_timeout=20)


@pytest.fixture
def settings(tmp_path: Path, own_server: pg.Server) -> Settings:
    return Settings(
        token="test-token",
        database_path=tmp_path / "data" / "games.db",
        database_url=own_server.database(),
        ai_workers=0,
        ai_budget=0.05,
        scheduler_seconds=60,
        db_timeout=1.0,
    )


async def test_a_stopped_store_gets_clear_answers_and_the_loop_goes_on_after_it(world, own_server):
    w = world
    turn = await start_game(w, options="clock=1 idle=bot away_after=0")
    bot = w.env.bot
    bot.host.forget(w.channel.id)  # every handler reads the store now
    own_server.halt()
    try:
        r = await w.alice.click(turn, label="take 2")
        assert answers(r) == [STORE_DOWN]
        r = await w.alice.slash(w.channel, "game board")
        assert answers(r) == [STORE_DOWN]
        await advance(w.env, 10 * 60, step=300)  # the loop's reads fail: it backs off, it does not die
    finally:
        own_server.resume()
    assert bot.cogs["GameCog"].tend_tables.is_running()
    await advance(w.env, 90 * 60, step=1800)  # alice's clock ran out meanwhile: the AI plays for her
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] < 10
    assert table.game.prompt().player == str(w.bob.id)
    w.env.errors.clear()  # what the outage raised in handlers was answered above
