"""``python -m bot migrate``: a SQLite database with finished and running tables of both games is
copied into PostgreSQL, verified, and its games continue there through the table host."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from bot.engine.registry import GameRegistry, discover
from bot.store import FINISHED, PLAYING, PostgresStore, SqliteStore, open_store
from bot.tables import TableHost
from tests.hostplay import Clock, open_game, play

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = GameRegistry(discover())


def migrate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


async def make_sqlite(path: Path, clock: Clock) -> dict[int, str]:
    """Finished and running tables of both games, a lobby and an abandoned table."""
    host = TableHost(
        await SqliteStore.open(path), REGISTRY, clock=clock, seeder=iter(range(100, 200)).__next__
    )
    rng = random.Random(7)
    channels = {1: "Argo", 2: "Argo", 3: "Argoat", 4: "Argoat"}
    for channel, game in channels.items():
        await open_game(host, channel, game, guild=(channel << 22) if channel != 4 else None)
        clock.advance(minutes=1)
    for channel in (1, 3):
        await play(host, channel, rng)  # to the end
    for channel in (2, 4):
        assert await play(host, channel, rng, steps=12) == 12
    await host.open_table(guild_id=1, channel_id=5, game_name="Argo", host_id="5a")
    await host.open_table(guild_id=1, channel_id=6, game_name="Argoat", host_id="6a")
    await host.abandon(6, "6a", may_manage=False)
    await host.close()
    return channels


async def test_migration_copies_everything_and_the_games_continue_on_postgres(tmp_path, pg_url):
    clock = Clock()
    source = tmp_path / "games.db"
    await make_sqlite(source, clock)
    sqlite = await SqliteStore.open(source)
    before = await sqlite.tables()
    logs = {t.id: await sqlite.log(t.id) for t in before}
    views = await sqlite.sql("SELECT table_id, seat, latest_turn, latest, prior_turn, prior FROM seat_views")
    await sqlite.close()
    assert {t.status for t in before} == {FINISHED, PLAYING, "lobby", "abandoned"}
    assert {t.game for t in before if t.status == FINISHED} == {"Argo", "Argoat"}
    assert {t.game for t in before if t.status == PLAYING} == {"Argo", "Argoat"}

    done = migrate("--to", pg_url, "--from", str(source), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    events = sum(len(log) for log in logs.values())
    assert f"Copied {len(before)} tables, {events} events, {len(views)} seat_views" in done.stdout
    assert "checksums match" in done.stdout

    pg = await open_store(pg_url)
    assert isinstance(pg, PostgresStore)
    assert await pg.tables() == before  # every field of every table, times as the same instants
    for table in before:
        copied = await pg.log(table.id)
        assert copied == logs[table.id]
        assert [e.at for e in copied] == [e.at for e in logs[table.id]]
    assert sorted(
        await pg.sql("SELECT table_id, seat, latest_turn, latest, prior_turn, prior FROM seat_views")
    ) == sorted(views)

    # The running games go on, on PostgreSQL, from exactly where they were.
    host = TableHost(pg, REGISTRY, clock=clock)
    rng = random.Random(11)
    for channel in (2, 4):
        table = await host.current(channel)
        stored = next(t for t in before if t.channel_id == channel and t.status == PLAYING)
        assert table.record.version == stored.version and table.game.to_json() == stored.state
        await play(host, channel, rng)
        assert await host.current(channel) is None
        finished = await pg.latest_table(channel)
        assert finished.status == FINISHED and finished.version > stored.version
        assert len(await pg.log(finished.id)) == finished.version
    lobby = await host.current(5)
    await host.join(5, "5b")
    await host.start(5, "5a")
    new = await host.open_table(guild_id=1, channel_id=7, game_name="Argo", host_id="7a")
    assert new.record.id == max(t.id for t in before) + 1  # the id sequence continues
    assert lobby.record.id < new.record.id
    await host.close()

    # A second run refuses to write into the now non-empty database, and changes nothing.
    again = migrate("--to", pg_url, "--from", str(source), cwd=tmp_path)
    assert again.returncode == 2 and "not empty" in again.stderr and "nothing was written" in again.stderr
    pg = await open_store(pg_url)
    try:
        assert len(await pg.tables()) == len(before) + 1
    finally:
        await pg.close()


def test_migration_refuses_a_missing_source_or_a_non_postgres_target(tmp_path, pg_url):
    done = migrate("--to", pg_url, "--from", str(tmp_path / "nothing.db"), cwd=tmp_path)
    assert done.returncode == 2 and "no SQLite database" in done.stderr
    done = migrate("--to", f"sqlite:///{tmp_path}/x.db", cwd=tmp_path)
    assert done.returncode == 2 and "postgresql://" in done.stderr


async def test_migration_of_an_empty_database_and_an_unreachable_target(tmp_path, pg_url):
    await (await SqliteStore.open(tmp_path / "data" / "games.db")).close()
    done = migrate("--to", pg_url, cwd=tmp_path)  # the default source: data/games.db
    assert done.returncode == 0 and "Copied 0 tables, 0 events, 0 seat_views" in done.stdout, done.stderr
    done = migrate("--to", "postgresql://u:pw@127.0.0.1:1/x", cwd=tmp_path)
    assert done.returncode == 1 and "cannot be reached" in done.stderr and "pw@" not in done.stderr


async def test_a_migration_run_again_after_its_copy_was_committed_says_the_copy_is_complete(tmp_path, pg_url):
    # A run interrupted after its commit (killed before it could print) leaves exactly this target.
    source = tmp_path / "games.db"
    await make_sqlite(source, Clock())
    first = migrate("--to", pg_url, "--from", str(source), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    pg = await open_store(pg_url)
    before = await pg.tables()
    await pg.close()

    again = migrate("--to", pg_url, "--from", str(source), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "already complete" in again.stdout and "nothing was written" in again.stdout
    copied = first.stdout.split("Copied ", 1)[1].split(" from ", 1)[0]
    assert f"holds exactly the {copied} of {source}" in again.stdout

    # The same target with one more event than the source is not the copy: refused as before.
    pg = await open_store(pg_url)
    try:
        assert await pg.tables() == before
        table = before[0]
        await pg.save(table, actor="x", action={"type": "note"}, summary="", now=table.updated_at)
    finally:
        await pg.close()
    refused = migrate("--to", pg_url, "--from", str(source), cwd=tmp_path)
    assert refused.returncode == 2 and "not empty" in refused.stderr
