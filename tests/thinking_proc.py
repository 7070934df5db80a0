"""A small bot-like process for tests/test_thinking_workers.py: a Thinker with one worker process
deciding for a real Argo game, run with ``python -m tests.thinking_proc MODE``.

``hold``: start a long decision, print the pids of the worker, the worker server and the resource
tracker and the names of the pool's semaphores, and wait to be killed.
``storm N``: queue N decisions, SIGKILL the worker while they run, and print every answer and how
many pools were started, then exit normally.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing.resource_tracker
import os
import signal
import sys

from bot import workers
from bot.engine.argo import ArgoGame
from bot.thinking import AIUnavailable, Thinker


def _game() -> ArgoGame:
    return ArgoGame.new(("a", "b"), 1, {})


async def _wait_for_worker(thinker: Thinker) -> int:
    while not thinker.worker_pids():
        await asyncio.sleep(0.01)
    return thinker.worker_pids()[0]


async def hold() -> None:
    thinker = Thinker(workers=1, budget_s=60)
    game = _game()
    decision = asyncio.ensure_future(thinker.choose(game, game.prompt().player, "hard", 1))
    worker = await _wait_for_worker(thinker)
    # Neither the tracker nor the pool's queue semaphores have a public way to be asked for.
    tracker = multiprocessing.resource_tracker._resource_tracker._pid
    pool = thinker._pool
    queues = (pool._call_queue, pool._result_queue)  # type: ignore[union-attr]
    semaphores = [
        lock._semlock.name for q in queues for lock in (q._rlock, q._wlock, getattr(q, "_sem", None)) if lock
    ]
    pids = {"worker": worker, "server": workers.server_pid(), "tracker": tracker}
    print(json.dumps({**pids, "semaphores": semaphores}), flush=True)
    await decision  # never ends: the test kills this process first


async def storm(count: int) -> None:
    thinker = Thinker(workers=1, budget_s=0.3)
    game = _game()
    seat = game.prompt().player
    await thinker.choose(game, seat, "easy", 0)  # the worker is up and has imported the AI
    first = thinker.worker_pids()[0]
    decisions = [asyncio.ensure_future(thinker.choose(game, seat, "hard", n)) for n in range(count)]
    await asyncio.sleep(0.1)  # the worker has taken the first decision
    os.kill(first, signal.SIGKILL)
    answers = await asyncio.gather(*decisions, return_exceptions=True)
    legal = game.legal_actions(seat)
    report = {
        "first_worker": first,
        "answers": [
            "legal" if a in legal else f"{type(a).__name__}: {a}" if isinstance(a, BaseException) else repr(a)
            for a in answers
        ],
        "pools_started": thinker.pools_started,
        "workers_now": thinker.worker_pids(),
    }
    thinker.close()
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    mode = sys.argv[1]
    try:
        asyncio.run(hold() if mode == "hold" else storm(int(sys.argv[2])))
    except AIUnavailable as exc:
        print(json.dumps({"error": str(exc)}), flush=True)
