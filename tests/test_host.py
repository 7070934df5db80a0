"""The table host without Discord: locking, persistence of every change, shutdown."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.registry import GameRegistry
from bot.store import Store
from bot.tables import OutOfDate, TableError, TableHost
from bot.tending import Tender
from bot.thinking import Thinker
from tests.pebbles import Pebbles

CH = 100


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    host = TableHost(store, GameRegistry([Pebbles]), clock=Clock(), seeder=lambda: 1234)
    yield host
    if not host._closing:
        await host.close()


async def open_and_start(host: TableHost, players=("a", "b"), options: str = ""):
    await host.open_table(
        guild_id=1, channel_id=CH, game_name="pebbles", host_id=players[0], options_text=options
    )
    for p in players[1:]:
        await host.join(CH, p)
    return await host.start(CH, players[0])


async def test_simultaneous_joins_for_the_last_seat_one_wins_one_is_told(host):
    await host.open_table(guild_id=1, channel_id=CH, game_name="Pebbles", host_id="a")
    await host.join(CH, "b")
    results = await asyncio.gather(host.join(CH, "c"), host.join(CH, "d"), return_exceptions=True)
    joined = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(joined) == 1 and len(refused) == 1
    assert "full" in str(refused[0])
    table = await host.current(CH)
    assert len(table.record.seats) == 3


async def test_simultaneous_joins_with_room_both_land(host):
    await host.open_table(guild_id=1, channel_id=CH, game_name="Pebbles", host_id="a")
    await asyncio.gather(host.join(CH, "b"), host.join(CH, "c"))
    assert set((await host.current(CH)).record.seats) == {"a", "b", "c"}


async def test_every_change_is_logged_with_its_snapshot(host):
    outcome = await open_and_start(host)
    await host.act(CH, "a", "take 2")
    log = await host.store.log(outcome.table.record.id)
    assert [e.action["type"] for e in log] == ["open", "join", "start", "take"]
    record = await host.store.get_table(outcome.table.record.id)
    assert record.state["pile"] == 8 and record.version == log[-1].seq


async def test_illegal_action_changes_nothing(host):
    outcome = await open_and_start(host)
    before = await host.store.get_table(outcome.table.record.id)
    with pytest.raises(TableError, match="not your decision"):
        await host.act(CH, "b", "take 1")
    with pytest.raises(TableError, match="not a legal choice"):
        await host.act(CH, "a", "take 9")
    with pytest.raises(TableError, match="You may take 1 to 3"):
        await host.act(CH, "a", {"type": "take", "n": 7})
    with pytest.raises(TableError, match="not playing"):
        await host.act(CH, "zed", "take 1")
    with pytest.raises(OutOfDate):
        await host.act(CH, "a", "take 1", version=before.version - 1)
    after = await host.store.get_table(outcome.table.record.id)
    assert after == before
    assert (await host.current(CH)).game.to_json() == before.state


async def test_failed_save_leaves_store_and_live_game_as_before(host, monkeypatch):
    outcome = await open_and_start(host)
    record_before = await host.store.get_table(outcome.table.record.id)

    async def broken_save(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(host.store, "save", broken_save)
    with pytest.raises(RuntimeError):
        await host.act(CH, "a", "take 3")
    monkeypatch.undo()
    assert await host.store.get_table(outcome.table.record.id) == record_before
    # The live game is reloaded from the store, so the failed move is not half-applied.
    assert (await host.current(CH)).game.to_json()["pile"] == 10
    await host.act(CH, "a", "take 1")
    assert (await host.current(CH)).game.to_json()["pile"] == 9


async def test_timeout_is_applied_only_after_the_deadline(host):
    outcome = await open_and_start(host, options="timer=60 clock=0")
    record = outcome.table.record
    await host.set_message(outcome.table, 1)  # its turn message was posted
    tender = Tender(host, Thinker(workers=0))
    assert record.deadline == host._clock.now + timedelta(seconds=60)
    assert await host.due() == []
    assert await tender.tend(CH, record.id) == []
    host._clock.now += timedelta(seconds=61)
    due = await host.due()
    assert [r.id for r in due] == [record.id]
    results = await tender.tend(CH, record.id)
    assert len(results) == 1 and results[0].turn_changed
    assert (await host.current(CH)).game.to_json()["pile"] == 9
    assert await tender.tend(CH, record.id) == []  # the timeout was applied once


async def test_close_waits_for_the_action_in_progress_then_refuses_new_ones(host):
    await open_and_start(host)
    lock = host.lock(CH)
    await lock.acquire()  # an action is in progress
    closing = asyncio.create_task(host.close())
    await asyncio.sleep(0.05)
    assert not closing.done()
    lock.release()
    await asyncio.wait_for(closing, 5)
    with pytest.raises(TableError, match="shutting down"):
        await host.act(CH, "a", "take 1")


async def test_a_finished_game_frees_the_channel_and_is_kept(host):
    await open_and_start(host, options="pile=2 maxtake=2")
    outcome = await host.act(CH, "a", "take 2")
    assert outcome.table.record.status == "finished"
    assert await host.current(CH) is None
    await host.open_table(guild_id=1, channel_id=CH, game_name="Pebbles", host_id="b")
    assert [t.status for t in await host.store.tables(CH)] == ["finished", "lobby"]


async def test_a_second_table_is_refused_with_the_right_article(tmp_path):
    from bot.engine.registry import discover

    store = await Store.open(tmp_path / "articles.db")
    host = TableHost(store, GameRegistry([*discover(), Pebbles]), clock=Clock(), seeder=lambda: 1)
    try:
        for channel, game, article in ((1, "Argo", "an"), (2, "Argoat", "an"), (3, "Pebbles", "a")):
            await host.open_table(guild_id=1, channel_id=channel, game_name=game, host_id="a")
            with pytest.raises(TableError) as refused:
                await host.open_table(guild_id=1, channel_id=channel, game_name="Pebbles", host_id="a")
            assert f"already has {article} {game} table (#{channel})" in str(refused.value)
    finally:
        await host.close()
