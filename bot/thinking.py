"""Running the AI off the event loop: a pool of worker processes (or one thread) that take a
game's JSON and return the action a bot seat chooses."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.engine.core import Action, Game
from bot.engine.registry import GameRegistry, discover

log = logging.getLogger(__name__)

_REGISTRY: GameRegistry | None = None


class AIUnavailable(RuntimeError):
    """The AI workers could not answer this decision (a worker died during it, and again after
    the workers were restarted, or none could be started); nothing was decided."""


def decide(
    game_name: str, state: dict[str, Any], seat: str, level: str, seed: int, budget_s: float | None
) -> Action | None:
    """The bot's choice for ``seat`` in the game stored as ``state`` (runs in a worker)."""
    global _REGISTRY
    from bot.ai import choose_action  # imported in the worker, not at the bot's start

    if _REGISTRY is None:
        _REGISTRY = GameRegistry(discover())
    game_cls = _REGISTRY.get(game_name)
    if game_cls is None:
        raise LookupError(f"unknown game {game_name}")
    game = game_cls.from_json(state)
    return choose_action(game, seat, level=level, seed=seed, budget_s=budget_s)


def _exit_with_parent() -> None:
    """Worker start-up: end this worker as soon as the bot that started it is gone.

    A worker blocks reading its task queue, and it holds both ends of that queue's pipe itself,
    so the bot's death alone never wakes it; it would live on (and keep the resource tracker
    alive) forever. The parent's sentinel is a pipe only the parent writes to: it reads as
    ready when the parent exits, however it exits."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: there is no bot to watch
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class Thinker:
    """Answers "what does this bot do now?" without blocking the event loop.

    ``workers`` processes search in parallel (the search is CPU-bound Python: threads would take
    turns at the GIL with the event loop); ``workers=0`` searches on one thread of this process
    instead (tests, and tiny deployments). ``budget_s`` overrides every level's time budget.

    When a worker dies, every decision it had taken or queued fails at once: the first of them
    starts one new pool and all of them are tried again there. A decision that fails again
    raises :class:`AIUnavailable`.
    """

    def __init__(self, workers: int = 1, budget_s: float | None = None) -> None:
        self.workers = workers
        self.budget_s = budget_s
        self._pool: Executor | None = None
        self.pools_started = 0
        """How many worker pools this thinker has started (1 + one per restart after a death)."""

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context, initializer=_exit_with_parent
                )
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
            self.pools_started += 1
        return self._pool

    def worker_pids(self) -> list[int]:
        """The process ids of the current pool's workers (none before the first decision)."""
        pool = self._pool
        if not isinstance(pool, ProcessPoolExecutor):
            return []
        return list(pool._processes or {})  # the executor keeps no public list of its workers

    def _retire(self, pool: Executor) -> None:
        """Shut down a broken pool if it is still the current one (a new one starts on demand).

        A broken pool has already stopped its other workers; shutting it down (without waiting:
        the event loop must not block) also lets go of its queues and process handles now."""
        if self._pool is pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    async def _submit(self, args: tuple[Any, ...]) -> Action | None:
        try:
            pool = self._executor()
        except OSError as exc:  # no pool could be made (out of semaphores, processes or memory)
            raise AIUnavailable(f"could not start the AI workers: {exc}") from exc
        try:
            try:
                decision = asyncio.get_running_loop().run_in_executor(pool, decide, *args)
            except OSError as exc:  # submitting starts a worker if none is idle
                raise AIUnavailable(f"could not start an AI worker: {exc}") from exc
            return await decision
        except (BrokenProcessPool, AIUnavailable):
            self._retire(pool)
            raise

    async def choose(self, game: Game, seat: str, level: str, seed: int) -> Action | None:
        """The action the bot at ``level`` takes for ``seat`` (None: it lets an optional chance go).

        Raises :class:`AIUnavailable` if the workers die during it twice."""
        loop = asyncio.get_running_loop()
        if self.workers == 0:  # a thread can search a copy of the game itself
            from bot.ai import choose_action

            copy = game.clone()
            return await loop.run_in_executor(
                self._executor(),
                lambda: choose_action(copy, seat, level=level, seed=seed, budget_s=self.budget_s),
            )
        args = (game.name, game.to_json(), seat, level, seed, self.budget_s)
        try:
            try:
                return await self._submit(args)
            except BrokenProcessPool:
                if self._pool is None:  # the first decision to learn of this death says so
                    log.warning("an AI worker died; starting a new pool and retrying its decisions")
                return await self._submit(args)
        except BrokenProcessPool as exc:
            log.error("an AI worker died again during a decision for %s; giving it up", game.name)
            raise AIUnavailable("the AI workers stopped twice during this decision") from exc

    def close(self) -> None:
        """Stop the workers (a search in progress is abandoned; it is simply done again later)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
