"""Running the AI off the event loop: a pool of worker processes (or one thread) that take a
game's JSON and return the action a bot seat chooses.

Workers are forked on demand, warm, from the bot's worker server (:mod:`bot.workers`), which
:meth:`Thinker.start` starts in the background when the bot starts. Decisions wait in
this process, one queue per table, and go to a free worker round-robin between the tables, so no
table's bots wait behind a long run of another table's. A decision alone with idle workers is
searched on several of them at once (root parallelism: each searches its own tree with its own
seed, and their root statistics are added up), so a bot alone at its table thinks with every
core. Time is wall-clock time counted from the moment the table asked: a decision that waited for
a worker has that much less of its bot's turn (or of ``AI_BUDGET``, at least :data:`MIN_SHARE`
of it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
import time
import zlib
from collections import deque
from collections.abc import Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, NamedTuple

from bot import metrics, workers
from bot.ai.search import WAIT, SearchResult
from bot.engine.core import Action, Game
from bot.engine.registry import GameRegistry, discover

log = logging.getLogger(__name__)

_REGISTRY: GameRegistry | None = None

MIN_SHARE = 0.1
"""The share of a fixed budget (``AI_BUDGET``) a decision still searches when it waited for a
worker that long."""
SPLIT_MAX = 4
"""The most workers one decision is searched on at once."""
NICE = 5
"""How much lower than the bot the AI workers run (``os.nice``): a board a person waits for and
the bot's own event loop come before a search (against two searches at the bot's priority a
board drawn at the bot's priority took 1.5 times as long at p95 as on the bot's thread, at nice +5
no longer; docs/boards.md). It costs a search little: a board takes milliseconds. Where the bot's
processes share a scheduling group (a container, a service's cgroup, a login session's
autogroup), it changes nothing against other programs; otherwise the searches also yield to other
programs at the bot's priority."""
IDLE_S = 300.0
"""The AI workers end once no decision has been made for this long (the next decision forks a new
one, warm, in milliseconds); a search leaves 10-20 MB behind in its worker."""


class AIUnavailable(RuntimeError):
    """The AI workers could not answer this decision (a worker died during it, and again after
    the workers were restarted, or none could be started); nothing was decided."""


def _registry() -> GameRegistry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = GameRegistry(discover())
    return _REGISTRY


def budget_left(budget_s: float | None, asked_at: float) -> float | None:
    """The search time a decision with a fixed budget (``AI_BUDGET``), asked at ``asked_at``
    (``time.perf_counter()``), still has: the budget less the time it has waited, at least
    :data:`MIN_SHARE` of it. None without a fixed budget."""
    if budget_s is None:
        return None
    return max(asked_at + budget_s - time.perf_counter(), MIN_SHARE * budget_s)


def turn_time_left(turn_left_s: float | None, asked_at: float) -> float | None:
    """What is left of a bot's turn budget (``turn_left_s`` when its decision was asked, at
    ``asked_at``) once the decision has waited for a worker; None: the level's whole turn."""
    if turn_left_s is None:
        return None
    return max(0.0, asked_at + turn_left_s - time.perf_counter())


def _game(game_name: str, state: dict[str, Any]) -> Game:
    game_cls = _registry().get(game_name)
    if game_cls is None:
        raise LookupError(f"unknown game {game_name}")
    return game_cls.from_json(state)


def decide(
    game_name: str,
    state: dict[str, Any],
    seat: str,
    level: str,
    seed: int,
    budget_s: float | None,
    turn_left_s: float | None = None,
) -> Action | None:
    """The bot's choice for ``seat`` in the game stored as ``state`` (runs in a worker): within
    ``budget_s`` if given, else its share of ``turn_left_s`` (see ``bot.ai.choose_action``)."""
    from bot.ai import choose_action  # imported in the worker, not at the bot's start

    game = _game(game_name, state)
    return choose_action(game, seat, level=level, seed=seed, budget_s=budget_s, turn_left_s=turn_left_s)


def search_part(
    game_name: str,
    state: dict[str, Any],
    seat: str,
    level: str,
    seed: int,
    budget_s: float | None,
    turn_left_s: float | None = None,
) -> Part:
    """One of the searches of a decision searched on several workers at once (runs in a
    worker): its action, and its root statistics if it searched (see :func:`merge_parts`)."""
    from bot.ai import decide as ai_decide

    game = _game(game_name, state)
    action, result = ai_decide(game, seat, level=level, seed=seed, budget_s=budget_s, turn_left_s=turn_left_s)
    return part_of(game, seat, action, result)


def part_of(game: Game, seat: str, action: Action | None, result: SearchResult | None) -> Part:
    """The :class:`Part` of a decision ``bot.ai.decide`` answered with ``action`` and ``result``."""
    if result is None:
        return Part(action, None)
    moves: dict[str, Action | None] = {game.notation(a): a for a in game.legal_actions(seat)}
    moves[WAIT] = None
    root = {key: (visits, result.values[key], moves[key]) for key, visits in result.visits.items()}
    return Part(action, root)


class Part(NamedTuple):
    """What one search of a decision searched on several workers found: its action, and per root
    move (by notation) its visits, its mean value for the bot and the move (None when it did not
    search: a single option, a win in reach, a rule, a slip)."""

    action: Action | None
    root: dict[str, tuple[int, float, Action | None]] | None


def merge_parts(parts: list[Part]) -> Action | None:
    """The decision of several searches of one decision (root parallelism): the root move with the
    most visits in all of them together (ties: the better mean, then the first part's order). If
    the first part did not search, its action stands (the others, seeded differently, may have
    slipped or decided by rule otherwise)."""
    first = parts[0]
    if first.root is None:
        return first.action
    visits: dict[str, int] = {}
    sums: dict[str, float] = {}
    moves: dict[str, Action | None] = {}
    for part in parts:
        if part.root is None:
            continue
        for key, (count, mean, move) in part.root.items():
            visits[key] = visits.get(key, 0) + count
            sums[key] = sums.get(key, 0.0) + count * mean
            moves.setdefault(key, move)
    best = max(visits, key=lambda key: (visits[key], sums[key] / visits[key]))
    return moves[best]


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


_warm = False
"""Whether :func:`warm` has run in this process (a worker forked from a warm server inherits it)."""


def warm() -> None:
    """Do once what a worker's first decision would: import the AI and every game, and make one
    tiny decision per game (engine tables and caches filled). Failures are only logged: the
    decision that meets them will report them. Later calls do nothing."""
    global _warm
    if _warm:
        return
    _warm = True
    try:
        from bot.ai import choose_action

        _registry()
        for game_cls in discover():
            players = tuple(f"warm{i}" for i in range(max(2, game_cls.min_players)))
            game = game_cls.new(players, 0, {})
            prompt = game.prompt()
            if prompt is not None and prompt.player is not None:
                choose_action(game, prompt.player, level="hard", seed=0, iterations=8)
    except Exception:
        log.exception("warming up an AI worker failed")


def _start_worker(nice: int = NICE) -> None:
    """A worker's initializer: watch the bot, warm up before taking any decision (nothing to do
    in a worker forked from the warm server), then run ``nice`` lower than the bot."""
    _exit_with_parent()
    if workers.forked() and not workers.preloaded():
        log.warning("an AI worker was forked from a worker server that did not preload; warming it here")
    warm()
    if nice > 0:
        with contextlib.suppress(OSError):  # not permitted: the worker runs at the bot's priority
            os.nice(nice)


class _Decision:
    """A decision waiting for a worker: what to decide, and where its answer goes."""

    __slots__ = (
        "answer",
        "asked_at",
        "copy",
        "game_name",
        "level",
        "parts",
        "seat",
        "seed",
        "state",
        "turn_left_s",
    )

    def __init__(
        self, game: Game, seat: str, level: str, seed: int, turn_left_s: float | None, *, thread: bool
    ) -> None:
        # the game as it is now: a thread searches a copy, a worker process gets its JSON
        self.game_name = game.name
        self.copy = game.clone() if thread else None
        self.state = None if thread else game.to_json()
        self.seat = seat
        self.level = level
        self.seed = seed
        self.turn_left_s = turn_left_s
        self.parts = 1
        """How many workers search it (more than one: root parallelism)."""
        self.asked_at = time.perf_counter()  # not time.monotonic(): tests may run it virtually
        self.answer: asyncio.Future[Action | None] = asyncio.get_running_loop().create_future()


class Thinker:
    """Answers "what does this bot do now?" without blocking the event loop.

    ``workers`` processes search in parallel (the search is CPU-bound Python: threads would take
    turns at the GIL with the event loop); ``workers=0`` searches on one thread of this process
    instead (tests, and tiny deployments). ``budget_s`` gives every decision that many seconds
    instead of its share of its bot's turn budget. Decisions wait here, one queue per table, and
    a free worker takes the next table's in turn; a decision that finds no other waiting and
    several workers free is searched on all of them (at most :data:`SPLIT_MAX`).

    When a worker dies, every decision it had taken fails at once: the first of them starts one
    new pool and all of them are tried again there. A decision that fails again raises
    :class:`AIUnavailable`.
    """

    def __init__(self, workers: int = 1, budget_s: float | None = None) -> None:
        self.workers = workers
        self.nice = NICE
        """How much lower than the bot this thinker's worker processes run."""
        self.budget_s = budget_s
        self._pool: Executor | None = None
        self.pools_started = 0
        """How many worker pools this thinker has started (the first, and one more after each death
        of a worker and after each :data:`IDLE_S` without a decision)."""
        self._waiting: dict[Hashable, deque[_Decision]] = {}
        """Decisions not yet sent to a worker, per table; the dict's order is the rotation."""
        self._busy = 0
        self._serving: set[asyncio.Task[None]] = set()
        self._used = 0.0  # when the workers last answered (event loop time)
        self._idle: asyncio.TimerHandle | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=workers.context(),
                    initializer=_start_worker,
                    initargs=(self.nice,),
                )  # a worker is started for a decision when none is free, up to ``workers``
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
            self.pools_started += 1
        return self._pool

    async def start(self) -> None:
        """Start the worker server (:mod:`bot.workers`) and wait until it is warm, so that the
        first decision forks a warm worker in milliseconds; no worker process is started until a
        decision needs one. The bot does not wait for this (it runs while the bot gets ready).
        Where no server can be started, workers are spawned (and warm themselves) instead."""
        if self.workers == 0:
            return
        await workers.started()
        how = "forked from the warm worker server" if workers.forking() else "spawned"
        log.info("AI workers: up to %d, %s when a bot first moves", self.workers, how)

    @property
    def workers_busy(self) -> int:
        """How many workers (or the thread) are searching now."""
        return self._busy

    def worker_pids(self) -> list[int]:
        """The process ids of the current pool's workers (none before the pool is started)."""
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

    async def _submit(self, args: tuple[Any, ...], work: Any = decide) -> Any:
        try:
            await workers.started()  # a worker is then forked at once, never while the server warms
            pool = self._executor()
        except OSError as exc:  # no server or pool (out of semaphores, processes or memory)
            raise AIUnavailable(f"could not start the AI workers: {exc}") from exc
        try:
            try:
                # Submitting starts a worker if none is free, and multiprocessing then polls its
                # other children: on a thread, so that the event loop never waits for either.
                loop = asyncio.get_running_loop()
                decision = await loop.run_in_executor(None, workers.bare, pool.submit, work, *args)
            except OSError as exc:
                raise AIUnavailable(f"could not start an AI worker: {exc}") from exc
            return await asyncio.wrap_future(decision)
        except (BrokenProcessPool, AIUnavailable):
            self._retire(pool)
            raise
        finally:
            self._end_when_idle()

    def _end_when_idle(self) -> None:
        """Stop the workers once they have answered nothing for :data:`IDLE_S`."""
        loop = asyncio.get_running_loop()
        self._used = loop.time()
        if self._idle is None:
            self._idle = loop.call_later(IDLE_S, self._ended_if_idle)

    def _ended_if_idle(self) -> None:
        self._idle = None
        pool = self._pool
        if not isinstance(pool, ProcessPoolExecutor):
            return
        loop = asyncio.get_running_loop()
        wait = self._used + IDLE_S - loop.time()
        if self._busy or self._waiting or wait > 0:
            self._idle = loop.call_later(max(wait, 0.0) or IDLE_S, self._ended_if_idle)
            return
        self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    @metrics.times_decisions
    async def choose(
        self,
        game: Game,
        seat: str,
        level: str,
        seed: int,
        *,
        table: Hashable = None,
        turn_left_s: float | None = None,
    ) -> Action | None:
        """The action the bot at ``level`` takes for ``seat`` (None: it lets an optional chance go).

        ``turn_left_s``: what is left of the bot's turn budget now (None: the level's whole turn
        budget); the decision takes its share of it, less the time it waits for a worker.
        ``table`` names the queue the decision waits in (decisions of different tables take
        turns for the workers). Raises :class:`AIUnavailable` if the workers die during it twice."""
        decision = _Decision(game, seat, level, seed, turn_left_s, thread=self.workers == 0)
        self._waiting.setdefault(table, deque()).append(decision)
        self._dispatch()
        return await decision.answer

    def _dispatch(self) -> None:
        """Hand waiting decisions to free workers, one table after the other; a decision alone
        with several free workers gets them all."""
        while self._busy < max(1, self.workers) and self._waiting:
            table = next(iter(self._waiting))
            queue = self._waiting.pop(table)
            decision = queue.popleft()
            if queue:
                self._waiting[table] = queue  # to the back of the rotation
            if decision.answer.done():  # given up while it waited
                continue
            if decision.state is not None and decision.level != "random" and not self._waiting:
                decision.parts = max(1, min(self.workers - self._busy, SPLIT_MAX))
            self._busy += decision.parts
            task = asyncio.ensure_future(self._serve(decision))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

    async def _serve(self, decision: _Decision) -> None:
        try:
            action = await self._decide(decision)
        except asyncio.CancelledError:
            decision.answer.cancel()
            raise
        except Exception as exc:
            if not decision.answer.done():
                decision.answer.set_exception(exc)
        else:
            if not decision.answer.done():
                decision.answer.set_result(action)
        finally:
            self._busy -= decision.parts
            self._dispatch()

    async def _decide(self, decision: _Decision) -> Action | None:
        seat, level, seed = decision.seat, decision.level, decision.seed
        if decision.copy is not None:  # a thread searches the copy made when the table asked
            from bot.ai import choose_action

            game = decision.copy

            def think() -> Action | None:
                budget = budget_left(self.budget_s, decision.asked_at)
                turn_left = turn_time_left(decision.turn_left_s, decision.asked_at)
                return choose_action(
                    game, seat, level=level, seed=seed, budget_s=budget, turn_left_s=turn_left
                )

            return await asyncio.get_running_loop().run_in_executor(self._executor(), think)
        name = decision.game_name
        # what is left of the time when a worker takes it (the pool holds no queue of its own)
        budget = budget_left(self.budget_s, decision.asked_at)
        turn_left = turn_time_left(decision.turn_left_s, decision.asked_at)
        args = (name, decision.state, seat, level, seed, budget, turn_left)
        try:
            try:
                return await self._ask(args, decision.parts)
            except BrokenProcessPool:
                if self._pool is None:  # the first decision to learn of this death says so
                    log.warning("an AI worker died; starting a new pool and retrying its decisions")
                return await self._submit(args)
        except BrokenProcessPool as exc:
            log.error("an AI worker died again during a decision for %s; giving it up", name)
            raise AIUnavailable("the AI workers stopped twice during this decision") from exc

    async def _ask(self, args: tuple[Any, ...], parts: int) -> Action | None:
        """The decision of ``args`` from one worker, or from ``parts`` workers searching it at
        once (each with its own seed; see :func:`merge_parts`). A part that fails while another
        answers is left out; if all fail, the first one's error is raised."""
        if parts <= 1:
            return await self._submit(args)
        seed = args[4]
        seeds = [seed, *(zlib.crc32(f"{seed}:{k}".encode()) for k in range(1, parts))]
        asked = [self._submit((*args[:4], each, *args[5:]), search_part) for each in seeds]
        answers = await asyncio.gather(*asked, return_exceptions=True)
        found = [a for a in answers if isinstance(a, Part)]
        if not found:
            error = answers[0]
            assert isinstance(error, BaseException)
            raise error
        return merge_parts(found)

    def close(self) -> None:
        """Stop the workers (a search in progress is abandoned; it is simply done again later)
        and give up the decisions still waiting."""
        for queue in self._waiting.values():
            for decision in queue:
                with contextlib.suppress(RuntimeError):  # its event loop is already closed
                    decision.answer.cancel()
        self._waiting.clear()
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
