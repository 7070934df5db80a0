"""/healthz (readiness) under faults (SimCord, the real bot; issue 39, fault 6): it says 503 once the
Discord gateway has been down longer than its grace (a closed websocket, a shard disconnected) and
200 again once it is back; with the PostgreSQL server frozen (SIGSTOP) the background check gives up
within its own database timeout, while the store's own timeout is far longer, and every probe
answers 503 at once from what it found (issue 36: no probe waits on the database)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import aiohttp
import pytest

from bot import health
from bot.config import Settings
from tests import pg
from tests.hangs import declare_round_trips
from tests.test_health import _free_port

pytestmark = pytest.mark.simcord(settle_timeout=20)

STORE_TIMEOUT = 60.0
"""DB_TIMEOUT of the frozen-server test: the store gives up on the server after 90 s."""
GRACE = 30.0
"""bot.health.GATEWAY_GRACE: how long the gateway may be down before the bot is not ready."""
BOUND = 45.0
"""Seconds a request may take before the test counts it as waiting on the store (the health
check's own limit is 5 s; the store's is 90 s)."""


@pytest.fixture
def settings(tmp_path: Path, request) -> Settings:
    """The bot's settings; ``param``: a shard count, or "frozen" for a PostgreSQL server of the
    module's own (one the test may freeze) with a long store timeout."""
    param = getattr(request, "param", None)
    made = Settings(
        token="test-token",
        database_path=tmp_path / "data" / "games.db",
        ai_workers=0,
        ai_budget=0.05,
        scheduler_seconds=10.0,
        metrics_port=_free_port(),
    )
    if param == "frozen":
        server: pg.Server = request.getfixturevalue("own_server")
        return dataclasses.replace(made, database_url=server.database(), db_timeout=STORE_TIMEOUT)
    return dataclasses.replace(made, shard_count=param)


async def healthz(bot, path: str = "/healthz") -> tuple[int, str]:
    timeout = aiohttp.ClientTimeout(total=BOUND)
    url = f"http://127.0.0.1:{bot.settings.metrics_port}{path}"
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(url) as response:
        return response.status, await response.text()


async def test_a_closed_gateway_websocket_makes_the_bot_unready_after_the_grace(world, simcord_bot):
    env, bot = world.env, simcord_bot
    assert health.GATEWAY_GRACE == GRACE
    assert (await healthz(bot))[0] == 200
    await bot.ws.close()  # the connection dropped; is_ready() stays true
    status, text = await healthz(bot)
    assert status == 200 and "gateway reconnecting" in text, text  # within the grace: a resume is quick
    await env.advance_time(GRACE + 1)
    status, text = await healthz(bot)
    assert status == 503, text
    assert text.startswith("unhealthy: the Discord gateway has been disconnected for 3"), text
    bot.ws.open = True  # the websocket is connected again and the session resumed
    bot.dispatch("resumed")
    await env.advance_time(1)
    status, text = await healthz(bot)
    assert status == 200 and "gateway connected" in text, text


@pytest.mark.parametrize("settings", [2], indirect=True)
async def test_a_disconnected_shard_makes_the_bot_unready_until_it_reconnects(world, simcord_bot):
    env, bot = world.env, simcord_bot
    assert (await healthz(bot))[0] == 200
    shard = bot.get_shard(1)
    await shard.disconnect()
    assert (await healthz(bot))[0] == 200  # reconnecting, within the grace
    await env.advance_time(GRACE + 1)
    status, text = await healthz(bot)
    assert status == 503 and "the Discord gateway has been disconnected for 3" in text, text
    await shard.reconnect()
    await env.advance_time(5)  # READY, then the shard's guilds
    status, text = await healthz(bot)
    assert status == 200 and "gateway connected" in text, text


@pytest.mark.parametrize("settings", ["frozen"], indirect=True)
async def test_a_frozen_database_gets_a_503_within_the_checks_own_timeout(
    world, simcord_bot, own_server, monkeypatch
):
    bot = simcord_bot
    declare_round_trips(world.env, bot.host.store, monkeypatch)
    assert (await healthz(bot))[0] == 200
    own_server.freeze()
    try:
        frozen_at = world.env.now()
        for _ in range(30):  # the next background check gives up after its own timeout
            status, text = await healthz(bot)
            if status == 503:
                break
            await world.env.advance_time(1)
        waited = (world.env.now() - frozen_at).total_seconds()
        assert waited <= health.REFRESH_SECONDS + health.DATABASE_TIMEOUT + 1, waited
        for _ in range(2):  # every probe reads what it found, at once, while the server stays frozen
            status, text = await healthz(bot)
            assert status == 503, text
            said = f"the database does not answer: no answer within {health.DATABASE_TIMEOUT:.0f} s"
            assert text == f"unhealthy: {said}\n", text
        assert (await healthz(bot, "/livez"))[0] == 200
    finally:
        own_server.thaw()
    for _ in range(50):  # the late check ends once the server answers; then a new one is asked
        status, text = await healthz(bot)
        if status == 200:
            break
        await world.env.advance_time(1)
    assert status == 200, text
