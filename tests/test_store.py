"""The store contract, run against both backends (SQLite and a real PostgreSQL server): schema,
reopening, one transaction per change, the version check, one open table per channel, the
append-only log, history kept; then what only one backend has (WAL, opening errors)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from bot.store import (
    ABANDONED,
    FINISHED,
    MIGRATIONS,
    PLAYING,
    AnyStore,
    PostgresStore,
    SqliteStore,
    Store,
    StoreConflict,
    StoreError,
    open_store,
)
from bot.store import postgres as pg_store
from bot.table_meta import TableMeta

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_table(store: AnyStore, channel: int = 10, guild: int | None = 1):
    return await store.create_table(
        guild_id=guild,
        channel_id=channel,
        game="Pebbles",
        host_id="7",
        options={"pile": 10},
        seed=42,
        now=NOW,
    )


def stamp(store: AnyStore, when: datetime = NOW):
    """A time as the backend's raw SQL takes it."""
    return when.isoformat() if isinstance(store, SqliteStore) else when


def refused(store: AnyStore):
    """What the append-only triggers raise (the cause of the StoreError ``sql()`` raises)."""
    return sqlite3.IntegrityError if isinstance(store, SqliteStore) else asyncpg.RaiseError


@contextlib.contextmanager
def refused_by_the_database(error: type[Exception], match: str) -> Iterator[None]:
    """The database refused a statement: a StoreError caused by the driver's ``error``."""
    with pytest.raises(StoreError, match=match) as caught:
        yield
    assert isinstance(caught.value.__cause__, error)


@pytest.fixture
async def store(store_url):
    opened = await open_store(store_url)
    yield opened
    await opened.close()


def test_both_backends_have_the_same_calls():
    def calls(cls):
        return {
            name: getattr(cls, name).__doc__ is not None
            for name in dir(cls)
            if not name.startswith("_") and callable(getattr(cls, name))
        }

    assert calls(SqliteStore).keys() == calls(PostgresStore).keys()
    for name in calls(SqliteStore).keys() - {"open"}:  # the same parameters (opening differs)
        ours, theirs = (inspect.signature(getattr(cls, name)) for cls in (SqliteStore, PostgresStore))
        assert list(ours.parameters) == list(theirs.parameters), name
    assert len(MIGRATIONS) == len(pg_store.MIGRATIONS)


async def test_schema_is_migrated(store, store_url):
    assert await store.schema_version() == len(MIGRATIONS)
    assert type(store) is (SqliteStore if store_url.endswith(".db") else PostgresStore)


async def test_reopening_finds_every_table(store_url):
    store = await open_store(store_url)
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

    store = await open_store(store_url)
    try:
        tables = await store.tables()
        assert [t.id for t in tables] == [first.id, second.id]
        reloaded = await store.get_table(first.id)
        assert reloaded.status == PLAYING and reloaded.state == {"pile": 3} and reloaded.version == 2
        assert reloaded.seats == ("7",) and reloaded.options == {"pile": 10} and reloaded.seed == 42
        assert reloaded.created_at == NOW and reloaded.guild_id == 1
        assert [e.action["type"] for e in await store.log(first.id)] == ["open", "start"]
        assert await store.schema_version() == len(MIGRATIONS)
    finally:
        await store.close()


async def test_failure_inside_a_transaction_keeps_snapshot_and_log(store):
    table = await new_table(store)
    # Make the log insert of the next save fail *after* its snapshot update ran.
    await store.sql(
        "INSERT INTO events (table_id, seq, channel_id, actor, action, at) VALUES (?, 2, 10, 'x', '{}', ?)",
        (table.id, stamp(store)),
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


async def test_stale_version_is_refused(store):
    table = await new_table(store)
    await store.save(table.evolve(seats=("7", "8")), actor="8", action={"type": "join"}, summary="", now=NOW)
    with pytest.raises(StoreConflict):
        await store.save(
            table.evolve(seats=("7", "9")), actor="9", action={"type": "join"}, summary="", now=NOW
        )
    with pytest.raises(StoreConflict):
        await store.save_meta(table.evolve(meta=TableMeta(bots_asked=1)))
    stored = await store.get_table(table.id)
    assert stored.seats == ("7", "8") and stored.meta == TableMeta() and stored.version == 2
    assert [e.actor for e in await store.log(table.id)] == ["7", "8"]


async def test_a_second_connection_sees_the_write_and_its_stale_copy_is_refused(store_url):
    one, two = await open_store(store_url), await open_store(store_url)
    try:
        table = await new_table(one)
        copy = await two.get_table(table.id)
        saved = await one.save(copy.evolve(seats=("7", "8")), actor="8", action={"j": 1}, summary="", now=NOW)
        assert await two.revision(table.id) == (saved.rev, None)
        with pytest.raises(StoreConflict):
            await two.save(copy.evolve(seats=("7", "9")), actor="9", action={"j": 2}, summary="", now=NOW)
        assert (await two.get_table(table.id)).seats == ("7", "8")
    finally:
        await one.close()
        await two.close()


async def test_one_open_table_per_channel_and_history_kept(store):
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
    assert (await store.latest_table(10)).id == third.id
    assert [t.status for t in await store.tables(10)] == [FINISHED, ABANDONED, "lobby"]
    duplicate = sqlite3.IntegrityError if isinstance(store, SqliteStore) else asyncpg.UniqueViolationError
    with refused_by_the_database(duplicate, "unique|UNIQUE"):  # the database itself refuses it
        await store.sql("UPDATE tables SET status = 'lobby' WHERE id = ?", (table.id,))


async def test_event_log_is_append_only(store):
    table = await new_table(store)
    with refused_by_the_database(refused(store), "append-only"):
        await store.sql("DELETE FROM events WHERE table_id = ?", (table.id,))
    with refused_by_the_database(refused(store), "append-only"):
        await store.sql("UPDATE events SET actor = 'x' WHERE table_id = ?", (table.id,))
    if isinstance(store, PostgresStore):
        with refused_by_the_database(asyncpg.RaiseError, "append-only"):
            await store.sql("TRUNCATE events CASCADE")
    assert len(await store.log(table.id)) == 1


async def test_due_tables_by_deadline_and_by_shard(store):
    shard_of = {g: (g >> 22) % 4 for g in (1 << 22, 2 << 22, 3 << 22)}
    assert sorted(shard_of.values()) == [1, 2, 3]
    made = {}
    for n, guild in enumerate([*shard_of, None]):
        table = await new_table(store, channel=100 + n, guild=guild)
        made[guild] = await store.save(
            table.evolve(status=PLAYING, state={}, deadline=NOW + timedelta(minutes=10 - n)),
            actor="7",
            action={"type": "start"},
            summary="",
            now=NOW,
        )
    later = NOW + timedelta(hours=1)
    assert await store.due_tables(NOW) == []
    due = await store.due_tables(later)
    assert [t.guild_id for t in due] == [None, 3 << 22, 2 << 22, 1 << 22]  # most overdue first
    assert [t.guild_id for t in await store.due_tables(later, shards=(4, (0, 2)))] == [None, 2 << 22]
    assert [t.guild_id for t in await store.due_tables(later, shards=(4, (1, 3)))] == [3 << 22, 1 << 22]
    assert await store.due_tables(later, shards=(4, ())) == []


async def test_awaiting_since_and_seat_views(store):
    table = await new_table(store)
    playing = await store.save(
        table.evolve(status=PLAYING, state={}, awaiting=("8",)),
        actor="7",
        action={"a": 1},
        summary="one",
        now=NOW,
    )
    playing = await store.save(
        playing,
        actor="8",
        action={"a": 2},
        summary="two\nlines",
        now=NOW,
        turn=1,
        seat_view=("8", 1, {"v": 1}),
    )
    await store.save(playing, actor="7", action={"a": 3}, summary="three", now=NOW, turn=2)
    assert [t.id for t in await store.awaiting("8")] == [table.id]
    assert [t.id for t in await store.awaiting("8", guild_id=2)] == []
    assert await store.since(table.id, "8") == [(4, 2, "three")]
    assert await store.since(table.id, "8", before_turn=1) == [
        (2, None, "one"),
        (3, 1, "two\nlines"),
        (4, 2, "three"),
    ]
    assert await store.recent_summaries(table.id, 2) == ["lines", "three"]
    assert await store.recent_summaries(table.id, 5, upto=3) == ["one", "two", "lines"]
    assert await store.previous_view(table.id, "8", 2) == {"v": 1}
    assert await store.previous_view(table.id, "8", 1) is None
    assert [e.seq for e in await store.log(table.id, limit=2)] == [3, 4]
    # what the host's chronicle is built from, in one read: the log up to a version, every board
    rows, views = await store.chronicle_rows(table.id, 3)
    assert sorted(rows) == [
        (1, None, "7", '{"type": "open", "game": "Pebbles", "options": {"pile": 10}}', ""),
        (2, None, "7", '{"a": 1}', "one"),
        (3, 1, "8", '{"a": 2}', "two\nlines"),
    ]
    assert views == [("8", 1, '{"v": 1}', None, None)]
    await store.set_message(table.id, 555)
    assert (await store.get_table(table.id)).message_id == 555


async def test_changes_to_different_tables_at_the_same_time_do_not_interleave(store):
    tables = await asyncio.gather(*(new_table(store, channel=c) for c in range(20, 30)))
    saved = await asyncio.gather(
        *(
            store.save(t.evolve(seats=("7", "8")), actor="8", action={"type": "join"}, summary="", now=NOW)
            for t in tables
        ),
        *(store.set_message(t.id, 1000 + t.id) for t in tables),
    )
    assert all(s.version == 2 for s in saved[:10])
    for t in tables:
        stored = await store.get_table(t.id)
        assert stored.seats == ("7", "8") and stored.version == 2 and stored.message_id == 1000 + t.id
        assert [e.seq for e in await store.log(t.id)] == [1, 2]


async def test_a_table_lock_keeps_other_connections_waiting(store_url):
    one, two = await open_store(store_url), await open_store(store_url)
    try:
        table = await new_table(one)
        got = asyncio.Event()

        async def take() -> None:
            async with two.table_lock(10):
                got.set()

        async with one.table_lock(10):
            await one.save(table, actor="7", action={"in": "lock"}, summary="", now=NOW)  # works inside
            waiting = asyncio.ensure_future(take())
            await asyncio.sleep(0.3)
            # PostgreSQL: the other connection waits; SQLite (one process): the lock is a no-op.
            assert got.is_set() is isinstance(one, SqliteStore)
            async with two.table_lock(11):  # another channel's lock is free
                pass
        await asyncio.wait_for(waiting, 5)
        assert got.is_set()
    finally:
        await one.close()
        await two.close()


# -- SQLite only ------------------------------------------------------------------------------


async def test_sqlite_is_in_wal_mode(tmp_path):
    store = await Store.open(tmp_path / "sub" / "games.db")
    try:
        assert (tmp_path / "sub" / "games.db").exists()
        rows = await store.sql("PRAGMA journal_mode")
        assert rows[0][0] == "wal"
    finally:
        await store.close()


async def test_sqlite_url(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path}/x/games.db")
    try:
        assert isinstance(store, SqliteStore) and store.path == tmp_path / "x" / "games.db"
    finally:
        await store.close()


# -- PostgreSQL only ---------------------------------------------------------------------------


async def test_postgres_cannot_reach_the_server_is_status_1(pg_server):
    with pytest.raises(StoreError) as caught:
        await open_store("postgresql://bob:s3cret@127.0.0.1:1/games")
    assert getattr(caught.value, "exit_status", None) == 1
    assert "cannot be reached" in str(caught.value) and "s3cret" not in str(caught.value)
    assert "\n" not in str(caught.value)


async def test_postgres_missing_database_or_read_only_is_status_2(pg_server, pg_url):
    with pytest.raises(StoreError, match="cannot be used") as caught:
        await open_store(pg_server.url("no_such_database"))
    assert caught.value.exit_status == 2
    with pytest.raises(StoreError, match="read-only") as caught:
        await open_store(pg_url, read_only=True)
    assert caught.value.exit_status == 2


async def test_postgres_newer_schema_is_refused(pg_url):
    store = await open_store(pg_url)
    await store.sql("UPDATE schema_version SET version = 99")
    await store.close()
    with pytest.raises(StoreError, match="newer version") as caught:
        await open_store(pg_url)
    assert caught.value.exit_status == 2


async def test_postgres_processes_starting_together_migrate_once(pg_url):
    stores = await asyncio.gather(*(open_store(pg_url) for _ in range(4)))
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
        assert await stores[0].sql("SELECT COUNT(*) FROM schema_version") == [(1,)]
    finally:
        for s in stores:
            await s.close()
