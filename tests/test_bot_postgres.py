"""The real bot on PostgreSQL (SimCord): every lobby test and a whole game of each game, run
again with the bot's store opened from ``DATABASE_URL=postgresql://…`` on the session's server.

The tests are those of tests/test_bot_lobby.py, tests/test_bot_argo.py and
tests/test_bot_argoat.py themselves, collected here a second time; this module's ``settings``
fixture gives them a PostgreSQL database instead of the SQLite file.
"""

from __future__ import annotations

import dataclasses

import pytest

from bot.config import Settings
from bot.store import PostgresStore
from tests import test_bot_argo, test_bot_argoat, test_bot_lobby


@pytest.fixture
def settings(settings: Settings, pg_url: str) -> Settings:
    return dataclasses.replace(settings, database_url=pg_url)


async def test_the_bot_runs_on_postgres(world, simcord_bot, pg_url):
    assert isinstance(simcord_bot.host.store, PostgresStore) and simcord_bot.host.store.shared
    await world.alice.slash(world.channel, "game new", game="Pebbles")
    store = await PostgresStore.open(pg_url)  # the bot's table is in that database
    try:
        assert [t.game for t in await store.tables()] == ["Pebbles"]
    finally:
        await store.close()


for _module in (test_bot_lobby, test_bot_argo, test_bot_argoat):
    for _name, _test in vars(_module).items():
        if _name.startswith("test_") and callable(_test):
            globals()[_name] = _test
