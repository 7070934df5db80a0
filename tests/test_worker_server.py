"""The worker server (bot/workers.py): every AI and board worker is forked from one server that
has imported and warmed what they need, so a worker starts warm without a warm-up of its own and
the bot starts no worker before one is needed; workers started on demand and the server end when
the bot's process is killed, however it ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import render
from bot import workers
from bot.engine.argo import GAME
from cogs.pipe_workers import PipeWorkers
from render import memo
from tests import worker_probe
from tests.test_board_workers import alive

ROOT = Path(__file__).resolve().parents[1]


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


async def test_a_worker_forked_from_the_server_starts_warm():
    """Without any start-up of its own, a worker holds the AI and the renderer warmed by the
    server, and its first board builds few sprites (a fresh process builds them all)."""
    assert workers.forking()
    view = GAME.new(["1", "2", "3"], 12, {}).view(None)
    pool = PipeWorkers(1, worker_probe.inherited)
    try:
        state = await pool.call()
        assert state["parent"] == workers.server_pid() != os.getpid()
        warm = {"preloaded": True, "ai_imported": True, "ai_warm": True, "render_warm": True}
        assert state == {**state, **warm}
    finally:
        pool.close()
    pool = PipeWorkers(1, worker_probe.sprites_built)
    try:
        forked = await pool.call(view)
    finally:
        pool.close()
    memo.clear_all()  # this process, cold: what a worker that warms nothing would build
    try:
        cold = worker_probe.sprites_built(view)
    finally:
        memo.clear_all()
        render.warm_up()
    assert cold >= 100
    assert forked <= cold // 4, (cold, forked)


def test_workers_started_on_demand_and_the_server_end_when_the_bot_is_killed():
    bot = subprocess.Popen(
        [sys.executable, "-m", "tests.worker_probe"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    pids: list[int] = []
    try:
        report = json.loads(bot.stdout.readline())
        assert report["before"] == {"boards": [], "ai": []}  # nothing started before it was needed
        [board], [ai], server = report["board"], report["ai"], report["server"]
        pids = [board, ai, server]
        assert all(alive(pid) for pid in pids)
        assert parent_of(board) == parent_of(ai) == server and parent_of(server) == bot.pid
    finally:
        bot.kill()  # no clean-up of any kind runs in the bot
        bot.wait()
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        assert not any(alive(pid) for pid in pids)
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


NO_TEMP = """
import asyncio, json, multiprocessing.util, os
import render
from bot import workers
from bot.engine.argo import GAME
from bot.thinking import Thinker
from cogs.boards import BoardPool

def no_temp():
    raise FileNotFoundError("No usable temporary directory found")

async def main():
    multiprocessing.util.get_temp_dir = no_temp  # as under systemd's ProtectSystem=strict
    game = GAME.new(["a", "b"], 3, {})
    view = game.view(None)
    boards, thinker = BoardPool(1), Thinker(workers=1, budget_s=0.05)
    await asyncio.gather(boards.start(), thinker.start())
    png = await boards.png(view)
    seat = game.prompt().player
    action = await thinker.choose(game, seat, "easy", 1)
    parents = [int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
               for pid in boards.worker_pids() + thinker.worker_pids()]
    print(json.dumps({"same": png == render.board_png(view), "legal": action in game.legal_actions(seat),
                      "forking": workers.forking(), "spawned_by_the_bot": parents == [os.getpid()] * 2}))
    thinker.close()
    boards.close()

asyncio.run(main())
"""


def test_without_a_worker_server_workers_are_spawned():
    """The server needs a writable temporary folder for its socket; without one (systemd's
    ``ProtectSystem=strict`` without ``PrivateTmp``), the bot says so once and spawns its workers
    itself: boards and bot moves still come from worker processes."""
    out = subprocess.run(
        [sys.executable, "-c", NO_TEMP], cwd=ROOT, capture_output=True, text=True, timeout=180,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report == {"same": True, "legal": True, "forking": False, "spawned_by_the_bot": True}
    assert out.stderr.count("the worker server could not be started") == 1, out.stderr
    assert "did not preload" not in out.stderr
