"""The bots' time budgets are wall-clock time whatever the load, and decisions of different
tables take turns for the AI's workers."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import bot.ai
from bot.config import default_ai_workers
from bot.engine.argo import ArgoGame
from bot.thinking import Thinker

ROOT = Path(__file__).resolve().parents[1]


def test_a_search_keeps_to_its_wall_budget_while_other_processes_load_every_core():
    search = subprocess.Popen(
        [sys.executable, "-m", "tests.wall_search", "0.2"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    load: list[subprocess.Popen[bytes]] = []
    try:
        assert search.stdout is not None and search.stdin is not None
        assert search.stdout.readline().strip() == "ready"
        spin = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass"
        # four busy processes per core: the search gets a small share of a core
        load = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(4 * default_ai_workers())]
        search.stdin.write("go\n")
        search.stdin.flush()
        report = json.loads(search.stdout.readline())
    finally:
        for process in [search, *load]:
            process.kill()
            process.wait(30)
    assert report["legal"] and report["searched"], report
    # The budget is 0.2 s of wall time: the search stops then, whatever CPU time it got by then
    # (with a CPU-time budget it would go on until it had had 0.2 s of a core: seconds here).
    # 1 s leaves room for the iteration under way at the deadline, on a busy machine.
    assert report["wall"] < 1.0, report


async def test_a_table_is_not_served_after_all_the_decisions_another_table_queued(monkeypatch):
    served: list[int] = []

    def choose(game, player, *, level="normal", seed=0, **limits):
        served.append(seed)
        return game.legal_actions(player)[0]

    monkeypatch.setattr(bot.ai, "choose_action", choose)  # the Thinker looks it up at each call
    game = ArgoGame.new(("a", "b"), 1, {})
    seat = game.prompt().player
    thinker = Thinker(workers=0)  # one thread: one decision at a time
    try:
        busy = [asyncio.ensure_future(thinker.choose(game, seat, "hard", n, table=1)) for n in range(5)]
        other = asyncio.ensure_future(thinker.choose(game, seat, "hard", 100, table=2))
        await asyncio.gather(*busy, other)
    finally:
        thinker.close()
    # Table 2 asked after table 1 had queued five decisions: it is served after two of them,
    # the one running and the one that was waiting before it asked, not after all five.
    assert served == [0, 1, 100, 2, 3, 4]
