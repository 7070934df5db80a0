"""The SQLite store: schema, reopening, one transaction per change, history kept."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import pytest

from bot.store import ABANDONED, FINISHED, MIGRATIONS, PLAYING, Store, StoreConflict, StoreError

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_table(store: Store, channel: int = 10):
    return await store.create_table(
        guild_id=1, channel_id=channel, game="Pebbles", host_id="7", options={"pile": 10}, seed=42, now=NOW
    )


async def test_schema_is_migrated_and_in_wal_mode(tmp_path):
    store = await Store.open(tmp_path / "sub" / "games.db")
    try:
        assert (tmp_path / "sub" / "games.db").exists()
        assert await store.schema_version() == len(MIGRATIONS)
        rows = await store.sql("PRAGMA journal_mode")
        assert rows[0][0] == "wal"
    finally:
        await store.close()


async def test_reopening_finds_every_table(tmp_path):
    path = tmp_path / "games.db"
    store = await Store.open(path)
    first = await new_table(store, channel=10)
    second = await new_table(store, channel=11)
    await store.save(
        first.evolve(status=PLAYING, state={"pile": 3}),
        actor="7",
        action={"type": "start"},
        summary="started",
        now=NOW,
    )
    await store.close()

    store = await Store.open(path)
    try:
        tables = await store.tables()
        assert [t.id for t in tables] == [first.id, second.id]
        reloaded = await store.get_table(first.id)
        assert reloaded.status == PLAYING and reloaded.state == {"pile": 3} and reloaded.version == 2
        assert reloaded.seats == ("7",) and reloaded.options == {"pile": 10} and reloaded.seed == 42
        assert [e.action["type"] for e in await store.log(first.id)] == ["open", "start"]
        assert await store.schema_version() == len(MIGRATIONS)
    finally:
        await store.close()


async def test_failure_inside_a_transaction_keeps_snapshot_and_log(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    try:
        table = await new_table(store)
        # Make the log insert of the next save fail *after* its snapshot update ran.
        await store.sql(
            "INSERT INTO events (table_id, seq, channel_id, actor, action, at) "
            "VALUES (?, 2, 10, 'x', '{}', ?)",
            (table.id, NOW.isoformat()),
        )
        with pytest.raises(StoreError, match="could not save"):
            await store.save(
                table.evolve(status=PLAYING, state={"pile": 1}),
                actor="7",
                action={"type": "start"},
                summary="",
                now=NOW,
            )
        after = await store.get_table(table.id)
        assert after.status == "lobby" and after.state is None and after.version == 1
        assert [e.seq for e in await store.log(table.id)] == [1, 2]  # only the pre-existing rows
    finally:
        await store.close()


async def test_stale_version_is_refused(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    try:
        table = await new_table(store)
        await store.save(
            table.evolve(seats=("7", "8")), actor="8", action={"type": "join"}, summary="", now=NOW
        )
        with pytest.raises(StoreConflict):
            await store.save(
                table.evolve(seats=("7", "9")), actor="9", action={"type": "join"}, summary="", now=NOW
            )
        assert (await store.get_table(table.id)).seats == ("7", "8")
    finally:
        await store.close()


async def test_one_open_table_per_channel_and_history_kept(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    try:
        table = await new_table(store)
        with pytest.raises(StoreConflict):
            await new_table(store)
        await store.save(table.evolve(status=FINISHED), actor="7", action={"type": "x"}, summary="", now=NOW)
        second = await new_table(store)
        await store.save(
            second.evolve(status=ABANDONED), actor="7", action={"type": "abandon"}, summary="", now=NOW
        )
        third = await new_table(store)
        assert (await store.open_table(10)).id == third.id
        assert [t.status for t in await store.tables(10)] == [FINISHED, ABANDONED, "lobby"]
    finally:
        await store.close()


async def test_event_log_is_append_only(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    try:
        table = await new_table(store)
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await store.sql("DELETE FROM events WHERE table_id = ?", (table.id,))
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await store.sql("UPDATE events SET actor = 'x' WHERE table_id = ?", (table.id,))
        assert len(await store.log(table.id)) == 1
    finally:
        await store.close()


async def test_changes_to_different_tables_at_the_same_time_do_not_interleave(tmp_path):
    store = await Store.open(tmp_path / "games.db")
    try:
        tables = await asyncio.gather(*(new_table(store, channel=c) for c in range(20, 30)))
        saved = await asyncio.gather(
            *(
                store.save(
                    t.evolve(seats=("7", "8")), actor="8", action={"type": "join"}, summary="", now=NOW
                )
                for t in tables
            ),
            *(store.set_message(t.id, 1000 + t.id) for t in tables),
        )
        assert all(s.version == 2 for s in saved[:10])
        for t in tables:
            stored = await store.get_table(t.id)
            assert stored.seats == ("7", "8") and stored.version == 2
            assert [e.seq for e in await store.log(t.id)] == [1, 2]
    finally:
        await store.close()
