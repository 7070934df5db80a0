"""Boards drawn in worker processes (cogs/boards.py): the same bytes as drawn in the bot's own
process; a worker killed from outside is replaced and the board still arrives; a worker that
gets no CPU (stopped from outside) does not hold a board back; workers run below the bot's
priority (Linux's idle class, the backup at nice); the workers end when the bot's process
ends, however it ends."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import render
from bot.engine.argo import GAME
from cogs.boards import LATE_S, NICE, BoardPool

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
        [pid] = pool.worker_pids()
        assert pid != os.getpid()
        assert await pool.png(view, before) == render.board_png(view, before)
        os.kill(pid, signal.SIGKILL)
        assert await pool.png(view) == render.board_png(view)  # drawn again
        # An idle-class worker on a busy machine may take a while even to die (it must run to
        # exit); the backup may have drawn the board meanwhile. The dead worker gets replaced.
        deadline = time.monotonic() + 60
        while pool.worker_pids() in ([], [pid]) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        [new] = pool.worker_pids()
        assert new != pid and alive(new)
        assert await pool.png(view, before) == render.board_png(view, before)
    finally:
        pool.close()


def niced(pid: int) -> bool:
    return os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE)


async def test_workers_run_below_the_bot():
    """A worker yields the CPU to the bot: in Linux's idle class by default, with a backup worker
    at nice +10; or all at nice +10."""
    pool = BoardPool(1, priority="nice")
    try:
        await pool.start()
        [pid] = pool.worker_pids()
        assert niced(pid) and pool.backup_pids() == []
    finally:
        pool.close()
    if not hasattr(os, "SCHED_IDLE"):
        return
    pool = BoardPool(1)
    try:
        await pool.start()
        [pid] = pool.worker_pids()
        [backup] = pool.backup_pids()
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        assert os.sched_getscheduler(backup) != os.SCHED_IDLE and niced(backup)
        assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the bot keeps its own class
    finally:
        pool.close()


async def test_a_board_held_by_a_worker_without_cpu_comes_from_the_backup():
    """An idle-class worker gets no CPU while other work wants it; stopped from outside, it gets
    none at all: the board comes from the backup worker, the same bytes."""
    game = GAME.new(["1", "2"], 5, {})
    view = game.view(None)
    pool = BoardPool(1)
    try:
        await pool.start()
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


BOT = """
import asyncio, sys
from cogs.boards import LATE_S, NICE, BoardPool

async def main():
    pool = BoardPool(1)
    await pool.start()
    print(*pool.worker_pids(), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_the_workers_end_when_the_bot_is_killed():
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(workers) == 1 and all(alive(pid) for pid in workers)
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
        assert len(pool.worker_pids()) == 1 and len(pool.backup_pids()) == 1
    finally:
        pool.close()


async def test_a_host_that_cannot_start_a_worker_draws_on_threads():
    """No worker process can be started (the Python to spawn is missing): the board is drawn on
    a thread, the same bytes, and the pool stops trying processes."""
    import multiprocessing.spawn

    game = GAME.new(["1", "2"], 8, {})
    view = game.view(None)
    python = multiprocessing.spawn.get_executable()
    multiprocessing.set_executable("/nonexistent/python3")
    pool = BoardPool(1)
    try:
        assert await asyncio.wait_for(pool.png(view), 60) == render.board_png(view)
        assert pool.workers == 0 and pool.worker_pids() == [] and pool.backup_pids() == []
    finally:
        multiprocessing.set_executable(python)
        pool.close()


async def test_a_board_given_up_while_both_ways_wait_leaves_the_next_boards_their_own():
    """The caller of a late board gives up (its message was retired) while the worker and the
    backup both hold it: both ways are given up, and every later board is its own, not an answer
    meant for the one given up."""
    views = views_of(2, 9, 4)
    pool = BoardPool(1)
    try:
        await pool.start()
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
