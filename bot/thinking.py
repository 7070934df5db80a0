"""Running the AI off the event loop: a pool of worker processes (or one thread) that take a
game's JSON and return the action a bot seat chooses."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import metrics
from bot.engine.core import Action, Game
from bot.engine.registry import GameRegistry, discover

log = logging.getLogger(__name__)

_REGISTRY: GameRegistry | None = None


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


class Thinker:
    """Answers "what does this bot do now?" without blocking the event loop.

    ``workers`` processes search in parallel (the search is CPU-bound Python: threads would take
    turns at the GIL with the event loop); ``workers=0`` searches on one thread of this process
    instead (tests, and tiny deployments). ``budget_s`` overrides every level's time budget.
    """

    def __init__(self, workers: int = 1, budget_s: float | None = None) -> None:
        self.workers = workers
        self.budget_s = budget_s
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
        return self._pool

    @metrics.times_decisions
    async def choose(self, game: Game, seat: str, level: str, seed: int) -> Action | None:
        """The action the bot at ``level`` takes for ``seat`` (None: it lets an optional chance go)."""
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
            return await loop.run_in_executor(self._executor(), decide, *args)
        except BrokenProcessPool:
            log.warning("an AI worker died; starting a new one")
            self._pool = None
            return await loop.run_in_executor(self._executor(), decide, *args)

    def close(self) -> None:
        """Stop the workers (a search in progress is abandoned; it is simply done again later)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
