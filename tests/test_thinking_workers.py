"""The AI's worker processes, with real processes killed from outside: a killed bot leaves no
worker, worker server or resource tracker behind, a killed worker costs one new pool however many
decisions were waiting, a second death during a decision is one clear error, and nothing leaks
semaphores."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot import thinking
from bot.engine.argo import ArgoGame
from bot.thinking import NICE, AIUnavailable, Thinker

ROOT = Path(__file__).resolve().parents[1]


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie nobody has reaped yet has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    """The pids still running after waiting up to ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def _script(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.thinking_proc", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _kill(pids: list[int]) -> None:
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_a_killed_bot_leaves_no_worker_no_worker_server_and_no_resource_tracker():
    bot = _script("hold")
    pids: list[int] = []
    try:
        started = json.loads(bot.stdout.readline())  # a decision is running in the worker now
        pids = [started["worker"], started["server"], started["tracker"]]
        semaphores = [Path(f"/dev/shm/sem.{name.lstrip('/')}") for name in started["semaphores"]]
        assert all(_alive(p) for p in pids) and len(semaphores) == 5
        assert all(s.exists() for s in semaphores)
        bot.kill()
        bot.wait(30)
        assert _gone_within(pids, 30) == []
        assert not any(s.exists() for s in semaphores)  # the tracker removed what the bot left
    finally:
        bot.kill()
        _kill(pids)  # survivors would also keep the pipes below open
        bot.communicate(timeout=30)


def test_a_killed_worker_costs_one_new_pool_and_every_queued_decision_is_answered():
    bot = _script("storm", "8")
    try:
        out, err = bot.communicate(timeout=300)
    finally:
        bot.kill()
    assert bot.returncode == 0, err
    report = json.loads(out)
    assert report["answers"] == ["legal"] * 8
    assert report["pools_started"] == 2  # the first pool and one after the death, not one per decision
    assert report["first_worker"] not in report["workers_now"] and len(report["workers_now"]) == 1
    assert not _alive(report["first_worker"])
    assert err.count("an AI worker died") == 1, err
    assert "leaked" not in err and "Traceback" not in err, err  # the resource tracker's stderr too


async def _until(check, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.01)


async def test_a_decision_whose_worker_dies_again_after_the_restart_is_given_up_clearly():
    thinker = Thinker(workers=1, budget_s=0.3)
    game = ArgoGame.new(("a", "b"), 1, {})
    seat = game.prompt().player
    try:
        await thinker.choose(game, seat, "easy", 0)
        first = thinker.worker_pids()[0]
        decisions = [asyncio.ensure_future(thinker.choose(game, seat, "hard", n)) for n in range(4)]
        await asyncio.sleep(0.1)
        os.kill(first, signal.SIGKILL)
        # The decisions are tried again on one new pool; its worker dies too, while they run.
        await _until(lambda: thinker.pools_started == 2 and thinker.worker_pids())
        second = thinker.worker_pids()[0]
        os.kill(second, signal.SIGKILL)
        answers = await asyncio.gather(*decisions, return_exceptions=True)
        assert all(isinstance(a, AIUnavailable) or a in game.legal_actions(seat) for a in answers), answers
        assert any(isinstance(a, AIUnavailable) for a in answers)
        # One new pool per death: the decisions still waiting for a worker (one worker: the
        # three others) were never sent to the dead pools and are answered by the third.
        assert thinker.pools_started == 3
        assert answers[1:] == [a for a in answers[1:] if a in game.legal_actions(seat)]
        # The next decision is answered by that pool.
        assert await thinker.choose(game, seat, "easy", 9) in game.legal_actions(seat)
        assert thinker.pools_started == 3 and not _alive(first) and not _alive(second)
    finally:
        thinker.close()


async def test_a_worker_that_died_while_idle_is_replaced_at_the_next_decision():
    thinker = Thinker(workers=1, budget_s=0.05)
    game = ArgoGame.new(("a", "b"), 1, {})
    seat = game.prompt().player
    try:
        await thinker.choose(game, seat, "easy", 0)
        first = thinker.worker_pids()[0]
        os.kill(first, signal.SIGKILL)
        await _until(lambda: not _alive(first))
        assert await thinker.choose(game, seat, "easy", 1) in game.legal_actions(seat)
        assert thinker.pools_started == 2 and thinker.worker_pids() != [first]
    finally:
        thinker.close()


async def test_ai_workers_run_below_the_bot_and_start_when_a_bot_first_moves():
    """No worker runs before a decision needs one; the worker then runs at ``NICE`` below the
    bot, so that boards and the bot's own loop come before a search."""
    thinker = Thinker(workers=1, budget_s=0.05)
    game = ArgoGame.new(("a", "b"), 1, {})
    seat = game.prompt().player
    try:
        await thinker.start()
        assert thinker.worker_pids() == []
        assert await thinker.choose(game, seat, "easy", 0) in game.legal_actions(seat)
        [worker] = thinker.worker_pids()
        bot = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, worker) == min(19, bot + NICE)  # 19: the lowest there is
    finally:
        thinker.close()


async def test_ai_workers_end_when_idle_and_the_next_decision_starts_one(monkeypatch):
    """Workers that made no decision for ``IDLE_S`` end (their memory goes back); the next
    decision starts a new one."""
    monkeypatch.setattr(thinking, "IDLE_S", 0.5)
    thinker = Thinker(workers=1, budget_s=0.05)
    game = ArgoGame.new(("a", "b"), 1, {})
    seat = game.prompt().player
    try:
        assert await thinker.choose(game, seat, "easy", 0) in game.legal_actions(seat)
        [first] = thinker.worker_pids()
        await _until(lambda: thinker.worker_pids() == [] and not _alive(first))
        assert await thinker.choose(game, seat, "easy", 1) in game.legal_actions(seat)
        assert len(thinker.worker_pids()) == 1 and thinker.pools_started == 2
    finally:
        thinker.close()
