"""The table host's parts work on their own, built by hand from the parts they are given (no
``TableHost``): what one part saves, another reads through the store."""

from __future__ import annotations

import pytest

from bot.engine.registry import GameRegistry
from bot.lobby import Lobby
from bot.locks import ChannelLocks
from bot.play import Play
from bot.shutdown import Shutdown
from bot.store import Store
from bot.table import TableError
from bot.table_cache import TableCache
from bot.table_history import TableHistory
from bot.table_saving import TableSaver
from tests.pebbles import Pebbles
from tests.test_host import CH, Clock

REGISTRY = GameRegistry([Pebbles])


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    yield store
    await store.close()


def parts(store: Store, clock: Clock) -> tuple[Lobby, Play, Shutdown, TableCache]:
    """A lobby and a play over one cache, one set of locks, one saver: the host's wiring."""
    cache = TableCache(store, REGISTRY)
    locks = ChannelLocks(store, cache)
    shutdown = Shutdown(store, locks)
    saver = TableSaver(store, cache, clock)
    lobby = Lobby(store, REGISTRY, locks, cache, saver, shutdown, clock, seeder=lambda: 1234)
    return lobby, Play(locks, cache, saver, shutdown, clock), shutdown, cache


async def test_a_game_played_with_the_parts_alone_is_stored_and_read_back(store):
    lobby, play, _, cache = parts(store, Clock())
    await lobby.open_table(guild_id=1, channel_id=CH, game_name="Pebbles", host_id="a", options_text="pile=5")
    await lobby.join(CH, "b")
    started = await lobby.start(CH, "a")
    assert started.table is await cache.load(CH)  # the lobby's save is the cache's live table
    outcome = await play.act(CH, "a", "take 3")
    assert outcome.table.game.to_json()["pile"] == 2
    # a fresh cache and history over the same store (a restart) read what the parts saved
    reread = TableCache(store, REGISTRY)
    table = await reread.load(CH)
    assert table is not None and table.record.version == outcome.table.record.version
    assert table.game.to_json()["pile"] == 2
    lines = await TableHistory(store, reread).history(CH)
    assert lines[-1] == "<@a> took 3 (2 left)."


async def test_a_shutdown_shared_by_the_parts_stops_every_one(store):
    lobby, play, shutdown, _ = parts(store, Clock())
    await lobby.open_table(guild_id=1, channel_id=CH, game_name="Pebbles", host_id="a")
    await lobby.join(CH, "b")
    await lobby.start(CH, "a")
    shutdown.stop_accepting()
    with pytest.raises(TableError, match="shutting down"):
        await play.act(CH, "a", "take 1")
    with pytest.raises(TableError, match="shutting down"):
        await lobby.join(CH, "c")
