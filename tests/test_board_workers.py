"""Boards drawn in worker processes (cogs/boards.py): the same bytes as drawn in the bot's own
process; workers are started when boards need them (a second only while the first is busy) and
end when they have drawn nothing for a while; a worker killed from outside is replaced and the
board still arrives; a worker that gets no CPU (stopped from outside) does not hold a board back,
and while the AI searches a board goes to the backup at once; workers run below the bot's
priority (Linux's idle class), the backup at the bot's own; the workers end when the bot's
process ends, however it ends."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import render
from bot.engine.argo import GAME
from cogs import boards
from cogs.boards import LATE_S, NICE, BoardPool
from cogs.pipe_workers import PipeWorkers

ROOT = Path(__file__).resolve().parents[1]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def views_of(players: int, seed: int, moves: int) -> list[dict]:
    """The public views of a seeded Argo game: at the start and after each of its first moves."""
    game = GAME.new([str(n) for n in range(1, players + 1)], seed, {})
    views = [game.view(None)]
    for _ in range(moves):
        player = game.prompt().player
        game.apply(player, game.legal_actions(player)[0])
        views.append(game.view(None))
    return views


async def test_a_worker_draws_the_same_board_and_a_killed_worker_is_replaced():
    game = GAME.new(["1", "2"], 4, {})
    before = game.view(None)
    player = game.prompt().player
    game.apply(player, game.legal_actions(player)[0])
    view = game.view(None)
    pool = BoardPool(1)
    try:
        await pool.start()
        assert pool.worker_pids() == []  # started when the first board needs it
        assert await pool.png(view, before) == render.board_png(view, before)
        [pid] = pool.worker_pids()
        assert pid != os.getpid()
        os.kill(pid, signal.SIGKILL)
        assert await pool.png(view) == render.board_png(view)  # drawn again
        # An idle-class worker on a busy machine may take a while even to die (it must run to
        # exit); the backup may have drawn the board meanwhile. The dead worker is dropped, and
        # the next board that needs a worker starts a new one.
        deadline = time.monotonic() + 60
        while pool.worker_pids() in ([], [pid]) and time.monotonic() < deadline:
            assert await pool.png(view, before) == render.board_png(view, before)
            await asyncio.sleep(0.1)
        [new] = pool.worker_pids()
        assert new != pid and alive(new)
        assert await pool.png(view, before) == render.board_png(view, before)
    finally:
        pool.close()


def niced(pid: int) -> bool:
    return os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE)


async def test_workers_run_below_the_bot_and_the_backup_at_its_priority():
    """A worker yields the CPU to the bot: in Linux's idle class by default, with a backup worker
    at the bot's own priority (a board a person waits for gets a fair share of a busy host); or
    all at nice +10."""
    pool = BoardPool(1, priority="nice")
    try:
        await pool.start(workers=True)
        [pid] = pool.worker_pids()
        assert niced(pid) and pool.backup_pids() == []
    finally:
        pool.close()
    if not hasattr(os, "SCHED_IDLE"):
        return
    pool = BoardPool(1)
    try:
        await pool.start(workers=True)
        [pid] = pool.worker_pids()
        [backup] = pool.backup_pids()
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        assert os.sched_getscheduler(backup) == os.sched_getscheduler(0) != os.SCHED_IDLE
        assert os.getpriority(os.PRIO_PROCESS, backup) == os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        pool.close()


async def test_a_board_held_by_a_worker_without_cpu_comes_from_the_backup():
    """An idle-class worker gets no CPU while other work wants it; stopped from outside, it gets
    none at all: the board comes from the backup worker, the same bytes."""
    game = GAME.new(["1", "2"], 5, {})
    view = game.view(None)
    pool = BoardPool(1)
    try:
        await pool.start(workers=True)
        [pid] = pool.worker_pids()
        os.kill(pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            assert await asyncio.wait_for(pool.png(view), 60) == render.board_png(view)
            assert time.monotonic() - started >= LATE_S  # it was late, then drawn by the backup
        finally:
            os.kill(pid, signal.SIGCONT)
        assert await pool.png(view) == render.board_png(view)  # the worker takes boards again
    finally:
        pool.close()


async def test_while_the_ai_searches_a_board_goes_to_the_backup_at_once(monkeypatch):
    """While the bot's AI searches (its searches take the CPU an idle-class worker would get), a
    board does not wait to be late: the backup draws it at once. Here a board would be late only
    after an hour, and the idle-class worker gets no CPU at all (stopped from outside)."""
    monkeypatch.setattr(boards, "LATE_S", 3600.0)
    view = GAME.new(["1", "2"], 6, {}).view(None)
    pool = BoardPool(1)
    pool.hurry = lambda: True  # as the bot sets it: the AI is searching
    try:
        await pool.start(workers=True)
        [pid] = pool.worker_pids()
        os.kill(pid, signal.SIGSTOP)
        try:
            assert await asyncio.wait_for(pool.png(view), 60) == render.board_png(view)
        finally:
            os.kill(pid, signal.SIGCONT)
    finally:
        pool.close()


async def test_workers_start_when_boards_need_them_and_end_when_idle():
    """One call at a time needs one worker; calls that find every worker busy start more (up to
    the pool's size); workers that answer nothing for ``idle_s`` end, and the next call starts
    one again."""
    pool = PipeWorkers(2, time.sleep, idle_s=8.0)
    try:
        for _ in range(3):  # well within idle_s of each other, even on a busy host
            await pool.call(0.01)
        assert pool.started == 1 and len(pool.pids()) == 1, (pool.started, pool.pids())
        first = pool.pids()
        await asyncio.gather(*(pool.call(0.5) for _ in range(3)))  # three at once: a second starts
        assert pool.started == 2 and len(pool.pids()) == 2
        both = pool.pids()
        deadline = time.monotonic() + 30
        while pool.pids() and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert pool.pids() == []
        while any(alive(pid) for pid in both) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not any(alive(pid) for pid in both)
        await pool.call(0.01)
        assert pool.started == 3 and pool.pids() != first
    finally:
        pool.close()


BOT = """
import asyncio, sys
from bot import workers
from cogs.boards import BoardPool

async def main():
    pool = BoardPool(1)
    await pool.start(workers=True)
    print(*pool.worker_pids(), *pool.backup_pids(), workers.server_pid(), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_the_workers_end_when_the_bot_is_killed():
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        workers = [int(pid) for pid in bot.stdout.readline().split()]  # worker, backup, server
        assert len(set(workers)) == 3 and all(alive(pid) for pid in workers)
    finally:
        bot.kill()  # no clean-up of any kind runs in the bot
        bot.wait()
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


async def test_boards_asked_for_at_once_start_the_workers_once():
    """Boards asked for before the workers were started start them once, and all arrive."""
    views = views_of(3, 6, 3)
    pool = BoardPool(1)
    try:
        drawn = await asyncio.gather(*(pool.png(view) for view in views))
        assert drawn == [render.board_png(view) for view in views]
        assert len(pool.worker_pids()) == 1 and pool._pool is not None and pool._pool.started == 1
        assert pool._backup is not None and pool._backup.started <= 1  # only if a board was late
    finally:
        pool.close()


NO_PYTHON = """
import asyncio, json, multiprocessing
import render
from bot.engine.argo import GAME
from cogs.boards import BoardPool

async def main():
    view = GAME.new(["1", "2"], 8, {}).view(None)
    multiprocessing.set_executable("/nonexistent/python3")
    pool = BoardPool(1)
    png = await asyncio.wait_for(pool.png(view), 60)
    print(json.dumps({"same": png == render.board_png(view), "workers": pool.workers,
                      "pids": pool.worker_pids() + pool.backup_pids()}))

asyncio.run(main())
"""


def test_a_host_that_cannot_start_a_worker_draws_on_threads():
    """No worker process can be started (the Python to start the worker server with is missing):
    the board is drawn on a thread, the same bytes, and the pool stops trying processes. (In a
    process of its own: this one may have started its worker server already.)"""
    out = subprocess.run(
        [sys.executable, "-c", NO_PYTHON], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"same": True, "workers": 0, "pids": []}
    assert "drawing on threads" in out.stderr


async def test_a_board_given_up_while_both_ways_wait_leaves_the_next_boards_their_own():
    """The caller of a late board gives up (its message was retired) while the worker and the
    backup both hold it: both ways are given up, and every later board is its own, not an answer
    meant for the one given up."""
    views = views_of(2, 9, 4)
    pool = BoardPool(1)
    try:
        await pool.start(workers=True)
        [pid], [backup] = pool.worker_pids(), pool.backup_pids()
        stopped = [pid, backup]
        for each in stopped:
            os.kill(each, signal.SIGSTOP)
        try:
            given_up = asyncio.ensure_future(pool.png(views[0]))  # being drawn by both
            waiting = asyncio.ensure_future(pool.png(views[1]))  # waiting its turn on both
            await asyncio.sleep(LATE_S * 3)  # both late: each asked of the worker and the backup
            given_up.cancel()
        finally:
            for each in stopped:
                os.kill(each, signal.SIGCONT)
        assert await asyncio.wait_for(waiting, 60) == render.board_png(views[1])
        assert given_up.cancelled()
        later = await asyncio.wait_for(asyncio.gather(*(pool.png(view) for view in views[2:])), 60)
        assert later == [render.board_png(view) for view in views[2:]]
        assert await pool.png(views[0]) == render.board_png(views[0])
    finally:
        pool.close()
