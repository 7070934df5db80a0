"""Boards drawn in worker processes (cogs/boards.py): the same bytes as drawn in the bot's own
process; a worker killed from outside is replaced and the board still arrives; workers run
below the bot's priority (nice, or Linux's idle class); the workers end when the bot's process
ends, however it ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import render
from bot.engine.argo import GAME
from cogs.boards import NICE, BoardPool

ROOT = Path(__file__).resolve().parents[1]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


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
        assert await pool.png(view) == render.board_png(view)  # drawn again on a new worker
        assert pid not in pool.worker_pids()
    finally:
        pool.close()


async def test_workers_run_below_the_bot():
    """A worker yields the CPU to the bot: at nice +10 by default, or in Linux's idle class."""
    pool = BoardPool(1)
    try:
        await pool.start()
        [pid] = pool.worker_pids()
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE)
    finally:
        pool.close()
    if not hasattr(os, "SCHED_IDLE"):
        return
    pool = BoardPool(1, priority="idle")
    try:
        await pool.start()
        [pid] = pool.worker_pids()
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the bot keeps its own class
    finally:
        pool.close()


BOT = """
import asyncio, sys
from cogs.boards import NICE, BoardPool

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
