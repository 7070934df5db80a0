"""Deadline effects survive a killed process: tending processes are killed at random moments around
the tables' deadlines and started again, and the tables end exactly where an undisturbed run puts
them — every AI take-over played once, every reminder sent (at least once), no table without a
deadline (but those that wait for a person: a hand-over, or someone back when everyone is away).
SQLite with one process; PostgreSQL with two processes, one per shard. Then a graceful
shutdown in the middle of a take-over."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from bot.engine.registry import GameRegistry
from bot.store import PLAYING, open_store
from bot.tables import Outcome, TableHost
from bot.tending import Tender
from bot.thinking import Thinker
from tests.deadline_worker import START, tend_all
from tests.hostplay import posted
from tests.pebbles import Pebbles

ROOT = Path(__file__).resolve().parents[1]
TABLES = 6
STEPS = range(30, 4 * 60 + 1, 30)
"""The moments (minutes after the start) at which the tables are tended: four hours of one-hour
clocks, so every seat's clock runs out several times."""


async def set_up(url: str) -> None:
    """Six Pebbles tables of two people, half with idle=bot (an AI plays for whoever runs out),
    half with idle=wait (reminders, then the table waits), on guilds of both shards."""
    store = await open_store(url)
    host = TableHost(store, GameRegistry([Pebbles]), clock=lambda: START, seeder=lambda: 77)
    try:
        for n in range(TABLES):
            idle = "bot" if n % 2 == 0 else "wait"
            await host.open_table(
                guild_id=(n + 1) << 22,  # shard (n + 1) % 2 of two
                channel_id=1000 + n,
                game_name="Pebbles",
                host_id=f"{n}01",
                options_text=f"pile=9 maxtake=1 clock=1 idle={idle}",
            )
            await host.join(1000 + n, f"{n}02")
            await host.start(1000 + n, f"{n}01")
        await posted(host)  # each first turn message was posted
    finally:
        await host.close()


async def snapshot(url: str) -> dict[int, dict]:
    """Each table's state, deadline and log (without timestamps)."""
    store = await open_store(url)
    try:
        found = {}
        for record in await store.tables():
            log = await store.log(record.id)
            found[record.id] = {
                "status": record.status,
                "state": record.state,
                "deadline": record.deadline,
                "effects": list(record.meta.effects),
                "timed_out": list(record.meta.timed_out),
                "everyone_away": record.meta.everyone_away,
                "log": [(e.actor, json.dumps(e.action, sort_keys=True)) for e in log],
            }
        return found
    finally:
        await store.close()


def worker(url: str, minutes: int, notices: Path, shard: int | None) -> subprocess.Popen[bytes]:
    shards = ["2", str(shard)] if shard is not None else []
    return subprocess.Popen(
        [sys.executable, "-m", "tests.deadline_worker", url, str(minutes), str(notices), *shards],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def notice_keys(path: Path) -> Counter[str]:
    return Counter(path.read_text().split("\n")[:-1]) if path.exists() else Counter()


async def run_with_kills(url: str, notices: Path, shards: list[int | None], rng: random.Random) -> int:
    """Tend at every step with one process per shard, killing them at random moments and starting
    them again until each finishes; returns how many processes were killed."""
    kills = 0
    for minutes in STEPS:
        for attempt in range(3):
            procs = [worker(url, minutes, notices, shard) for shard in shards]
            if attempt < 2:
                await asyncio.sleep(rng.uniform(0.05, 0.9))  # start-up takes about half a second
                for proc in procs:
                    if proc.poll() is None:
                        proc.send_signal(signal.SIGKILL)
                        kills += 1
            for proc in procs:
                _, err = await asyncio.to_thread(proc.communicate, timeout=120)
                assert proc.returncode in (0, -signal.SIGKILL), err.decode()
    return kills


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_killed_tending_processes_lose_no_takeover_and_no_reminder(backend, tmp_path, request):
    if backend == "sqlite":
        url, reference = str(tmp_path / "killed.db"), str(tmp_path / "reference.db")
        shards: list[int | None] = [None]
    else:
        server = request.getfixturevalue("pg_server")
        url, reference = server.database(), server.database()
        shards = [0, 1]
    for target in (url, reference):
        await set_up(target)
    expected_notices = tmp_path / "reference-notices.txt"
    for minutes in STEPS:  # the undisturbed run, in this process
        await tend_all(reference, minutes, str(expected_notices), None)
    notices = tmp_path / "notices.txt"
    kills = await run_with_kills(url, notices, shards, random.Random(backend))

    expected, got = await snapshot(reference), await snapshot(url)
    assert kills > 0
    assert got == expected  # every take-over exactly once: the same moves, logs and deadlines
    takeovers = [a for t in got.values() for _, a in t["log"] if '"by": "bot:normal"' in a]
    assert len(takeovers) >= TABLES  # the AI did take over, several times
    for table in got.values():  # idle=wait tables wait for a hand-over once a clock ran out,
        # idle=bot tables whose people both missed their turns wait for one of them (issue 35)
        waits = table["timed_out"] or table["everyone_away"]
        assert table["status"] != PLAYING or table["deadline"] is not None or waits
        assert table["effects"] == []
    sent, wanted = notice_keys(notices), notice_keys(expected_notices)
    assert set(sent) == set(wanted) and len(wanted) >= TABLES
    assert sum(sent.values()) - sum(wanted.values()) <= kills  # a kill repeats at most its one in flight


class SlowThinker(Thinker):
    """The AI of the shutdown test: it thinks until told to answer."""

    def __init__(self) -> None:
        super().__init__(workers=0, budget_s=0.05)
        self.thinking = asyncio.Event()
        self.answer = asyncio.Event()

    async def choose(self, game, seat, level, seed, **where):
        self.thinking.set()
        await self.answer.wait()
        return await super().choose(game, seat, level, seed, **where)


async def test_a_graceful_shutdown_during_a_takeover_leaves_it_to_the_next_start(tmp_path):
    url = str(tmp_path / "games.db")
    await set_up(url)
    late = START + timedelta(minutes=61)
    store = await open_store(url)
    host = TableHost(store, GameRegistry([Pebbles]), clock=lambda: late)
    thinker = SlowThinker()
    tending = asyncio.create_task(Tender(host, thinker).tend(1000, 1))
    await asyncio.wait_for(thinker.thinking.wait(), 10)
    closing = asyncio.create_task(host.close())  # SIGTERM: refuse new work, finish what runs
    thinker.answer.set()
    results = await asyncio.wait_for(tending, 10)
    await closing
    assert not [r for r in results if isinstance(r, Outcome)]  # refused: the bot was shutting down

    store = await open_store(url)
    record = await store.get_table(1)
    assert "takeover" in [e.kind for e in record.meta.effects] and record.deadline <= late
    host = TableHost(store, GameRegistry([Pebbles]), clock=lambda: late)
    results = await Tender(host, Thinker(workers=0, budget_s=0.05)).tend(1000, 1)
    await host.close()
    moves = [r for r in results if isinstance(r, Outcome)]
    # The AI plays 001's turn once: one take (a peek, which keeps the turn, may come first when
    # a loaded machine leaves its 0.05 s search few iterations).
    assert moves and all(m.turn_before == 1 for m in moves), moves
    assert moves[-1].decider == "002" and moves[-1].table.game.to_json()["pile"] == 8
    store = await open_store(url)
    record = await store.get_table(1)
    log = await store.log(1)
    await store.close()
    takes = [e for e in log if e.action.get("by") == "bot:normal" and e.action.get("type") == "take"]
    assert len(takes) == 1, [e.action for e in log]
    assert "takeover" not in [e.kind for e in record.meta.effects]


async def test_notices_of_a_game_the_host_plays_to_its_end_are_moot(tmp_path):
    """A notice gathered in the tending that also ends the game (here the AI's take-over takes
    the last pebble) is not sent: a finished table keeps no due effects, so a process killed after
    that save and before sending would lose it, and an uninterrupted run must not differ."""
    store = await open_store(str(tmp_path / "end.db"))
    now = [START]
    host = TableHost(store, GameRegistry([Pebbles]), clock=lambda: now[0], seeder=lambda: 77)
    tender = Tender(host, Thinker(workers=0))
    try:
        await host.open_table(
            guild_id=1, channel_id=7, game_name="Pebbles", host_id="a",
            options_text="pile=2 maxtake=1 clock=1 idle=bot away_after=1",
        )  # fmt: skip
        await host.join(7, "b")
        await host.start(7, "a")
        sent = []
        for hours in (1, 2, 3):
            now[0] = START + timedelta(hours=hours, minutes=1)
            current = await host.current(7)
            if current is None:
                break
            record = current.record
            await posted(host)
            results = await tender.tend(7, record.id)
            notices = [r for r in results if not isinstance(r, Outcome)]
            sent += [n.kind for n in notices]  # sent, then marked done, as the scheduler does
            await host.complete_effects(7, record.id, {n.key for n in notices})
        finished = await store.latest_table(7)
        assert finished.status == "finished"  # the AI took the last pebble for the second seat
        assert sent == ["away"]  # the first seat's notice; the second came with the end: moot
    finally:
        await host.close()
