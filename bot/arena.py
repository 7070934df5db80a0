"""Bot-only games without Discord: ``python -m bot.arena argo --players 4 --bots hard,normal,easy,random``.

Plays ``--games`` games between the given bot levels (one per seat; seats rotate from game to
game so no bot always sits first) and prints a table per bot: wins with a 95% confidence
interval (Wilson), average score, average turns, and CPU milliseconds per searched decision
(p50 / p95); for Argo also how often the Aliens won. ``--jobs N`` plays games in N processes.

Out-of-turn chances (Argo's Time Machine, an Argoat proposer's withdrawal) are offered to the
bots in ``others`` before the main decider acts; a bot answering None lets the game go on.
When the game waits for nobody but a timer, the arena applies the timeout at once.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.ai import LEVEL_NAMES, LEVELS, TurnLedger, decide
from bot.ai.greedy import greedy_action
from bot.engine.core import SYSTEM, TIMEOUT, Action, Game
from bot.engine.registry import GameRegistry, discover
from bot.thinking import Part, merge_parts, part_of

MAX_DECISIONS = 4000
"""A game still running after this many decisions is stopped and counted as unfinished."""
ARENA_LEVELS: tuple[str, ...] = (*LEVEL_NAMES, "greedy")
"""The bot levels plus ``greedy``, the one-ply yardstick player of ``bot.ai.greedy``."""

Iterations = int | Mapping[str, int] | None
"""A fixed search size for every level, one per level (``{"hard": 1200, ...}``), or None (time)."""


def parse_iterations(text: str | None) -> Iterations:
    """``--iterations``: ``N`` for every level, or ``level=N,level=N`` (levels not named search by
    time)."""
    if not text:
        return None
    if "=" not in text:
        return int(text)
    sizes: dict[str, int] = {}
    for item in text.split(","):
        level, _, size = item.partition("=")
        sizes[level.strip()] = int(size)
    return sizes


@dataclass
class SeatRecord:
    """How one seat's bot did in one game."""

    level: str
    won: bool
    score: int
    decisions: int = 0
    searched_ms: list[float] = field(default_factory=list)
    """CPU milliseconds of each decision that ran a search."""
    searched_wall_ms: list[float] = field(default_factory=list)
    """Wall-clock milliseconds of the same decisions."""
    turn_wall_ms: dict[int, float] = field(default_factory=dict)
    """Wall-clock milliseconds the bot spent deciding, per turn number of the game (all its
    decisions in that turn: its own turn, and its answers in others')."""
    turn_ends: int = 0
    """Turns this seat ended."""
    repeats: int = 0
    """Turns it ended in a public position it had already ended a turn in (a shuttle's mark)."""
    longest_repeat_run: int = 0
    """The most such turns in a row."""
    iterations: list[int] = field(default_factory=list)
    """Search iterations of each decision that ran a search (all parts together)."""
    turn_cpu_ms: dict[int, float] = field(default_factory=dict)
    """CPU milliseconds the bot spent deciding, per turn number of the game (all parts)."""
    proposals: int = 0
    """Trades this seat proposed (Argoat)."""
    accepted: int = 0
    """Of those, the ones the partner accepted."""
    accepts_given: int = 0
    """Offers from others this seat accepted."""
    offers_received: int = 0
    """Offers from others this seat answered (accepted or declined)."""


class Repetitions:
    """Counts, per seat, the turns that end in a public position the seat already ended a turn
    in: the whole public view but the turn number and the prompt's words. A bot that shuttles
    between two cells with nothing gained repeats every turn; a game that goes on never does."""

    IGNORED = ("turn", "prompt")

    def __init__(self) -> None:
        self._seen: dict[str, set[str]] = {}
        self._run: dict[str, int] = {}

    def turn_ended(self, record: SeatRecord, seat: str, view: dict[str, Any]) -> None:
        """``seat`` ended a turn and ``view`` (public) is the position it left."""
        public = {k: v for k, v in view.items() if k not in self.IGNORED}
        key = json.dumps(public, sort_keys=True, default=str)
        seen = self._seen.setdefault(seat, set())
        record.turn_ends += 1
        if key in seen:
            record.repeats += 1
            self._run[seat] = self._run.get(seat, 0) + 1
            record.longest_repeat_run = max(record.longest_repeat_run, self._run[seat])
        else:
            seen.add(key)
            self._run[seat] = 0


@dataclass
class GameRecord:
    """One finished (or stopped) game: seats in seat order, turns, whether the Aliens won."""

    seed: int
    seats: list[SeatRecord]
    finished: bool
    turns: int
    nobody_won: bool
    """True when the game ended without a winner (Argo: the Aliens won)."""


def game_class(name: str) -> type[Game]:
    """The engine class for a game name (any case)."""
    cls = GameRegistry(discover()).get(name)
    if cls is None:
        raise SystemExit(f"unknown game {name!r}")
    return cls


def play_game(
    game_name: str,
    levels: Sequence[str],
    seed: int,
    *,
    options: dict[str, str] | None = None,
    iterations: Iterations = None,
    budget_s: float | None = None,
    max_decisions: int = MAX_DECISIONS,
    parts: int = 1,
) -> GameRecord:
    """Play one game with ``levels[i]`` in seat ``i``; every random choice comes from ``seed``.

    ``parts`` > 1 plays each timed search as the bot's AI workers do for a lone decision: that
    many searches with their own seeds (one after the other here, each given the whole time, as
    each worker is), their root statistics added up (``bot.thinking.merge_parts``); the turn's
    budget is charged the longest of them, as wall time would be. ``iterations`` (a number, or
    a number per level) replaces the time with a fixed search size."""
    cls = game_class(game_name)
    players = [f"bot:{i}" for i in range(len(levels))]
    game = cls.new(players, seed, options or {})
    seats = {p: SeatRecord(level, False, 0) for p, level in zip(players, levels, strict=True)}
    repetitions = Repetitions()
    ledger = TurnLedger()  # the bots' turn budgets, as the bot's host keeps them
    last = game.view(None)
    count = 0

    def applied() -> None:
        nonlocal last
        view = game.view(None)
        if view.get("turn") != last.get("turn") and last.get("active") in seats:
            repetitions.turn_ended(seats[last["active"]], last["active"], view)
        last = view

    def ask(player: str):
        nonlocal count
        count += 1
        record = seats[player]
        started = time.process_time()
        if record.level == "greedy":
            record.decisions += 1
            return greedy_action(game, player, seed * 100_003 + count)
        turn = int(game.turn_marker()[0])
        spec = LEVELS.get(record.level)
        left = ledger.left(0, player, turn, spec.turn_budget_s) if spec is not None else None
        fixed = iterations.get(record.level) if isinstance(iterations, Mapping) else iterations
        found: list[Part] = []
        took = 0.0
        searched = 0
        for k in range(parts if fixed is None and spec is not None else 1):
            part_started = time.perf_counter()
            action, search = decide(
                game,
                player,
                level=record.level,
                seed=seed * 100_003 + count + 7_919 * k,
                budget_s=budget_s,
                iterations=fixed,
                turn_left_s=left,
            )
            took = max(took, time.perf_counter() - part_started)
            found.append(part_of(game, player, action, search))
            if search is not None:
                searched += search.iterations
            if search is None:
                break  # decided without searching: the first part's answer stands
        if len(found) > 1:
            action = merge_parts(found)
        ledger.spend(0, player, turn, took)
        record.turn_wall_ms[turn] = record.turn_wall_ms.get(turn, 0.0) + took * 1000
        record.decisions += 1
        cpu_ms = (time.process_time() - started) * 1000
        record.turn_cpu_ms[turn] = record.turn_cpu_ms.get(turn, 0.0) + cpu_ms
        if search is not None:
            record.searched_ms.append(cpu_ms)
            record.searched_wall_ms.append(took * 1000)
            record.iterations.append(searched)
        return action

    def trades(player: str, action: Action) -> None:
        """Count a proposal, and an answer to one, before ``action`` is applied."""
        kind = action.get("type")
        if kind == "propose":
            seats[player].proposals += 1
        elif kind in ("accept", "decline") and (state := getattr(game, "state", None)) is not None:
            proposer = game.players[state.active]  # an Argoat game (the one with trades)
            seats[player].offers_received += 1
            if kind == "accept":
                seats[player].accepts_given += 1
                if proposer in seats:
                    seats[proposer].accepted += 1

    while game.result() is None and count < max_decisions:
        prompt = game.prompt()
        assert prompt is not None
        acted = False
        for other in prompt.others:
            if other != prompt.player and prompt.player is not None and game.legal_actions(other):
                action = ask(other)
                if action is not None:
                    trades(other, action)
                    game.apply(other, action)
                    applied()
                    acted = True
                    break
        if acted:
            continue
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, dict(TIMEOUT))
            applied()
            continue
        player = deciders[0]
        action = ask(player)
        if action is None:  # a waiting player with nothing but optional chances: let time run out
            game.apply(SYSTEM, dict(TIMEOUT))
            applied()
            continue
        trades(player, action)
        game.apply(player, action)
        applied()
    result = game.result()
    view = game.view(None)
    turns = int(view.get("turn") or 0)
    if result is not None:
        for p, record in seats.items():
            record.won = p in result.winners
            record.score = int(result.scores.get(p, 0))
    return GameRecord(
        seed=seed,
        seats=[seats[p] for p in players],
        finished=result is not None,
        turns=turns,
        nobody_won=result is not None and not result.winners,
    )


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q / 100
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def labels(levels: Sequence[str]) -> list[str]:
    """A name per bot: its level, numbered when a level appears more than once."""
    out = []
    for i, level in enumerate(levels):
        if levels.count(level) > 1:
            out.append(f"{level}-{levels[: i + 1].count(level)}")
        else:
            out.append(level)
    return out


def _one(
    args: tuple[str, list[str], int, int, dict[str, str], Iterations, float | None, int, int],
) -> tuple[int, GameRecord]:
    game_name, levels, seed, shift, options, iterations, budget, cap, parts = args
    seated = levels[shift:] + levels[:shift]
    return shift, play_game(
        game_name,
        seated,
        seed,
        options=options,
        iterations=iterations,
        budget_s=budget,
        max_decisions=cap,
        parts=parts,
    )


def iter_games(
    game_name: str,
    levels: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    options: dict[str, str] | None = None,
    iterations: Iterations = None,
    budget_s: float | None = None,
    max_decisions: int = MAX_DECISIONS,
    parts: int = 1,
) -> Iterator[tuple[list[int], GameRecord]]:
    """Play the games (seats rotating), yielding each record, with the bot index of every seat,
    as soon as its game is over (in the order the games were set, whatever ``jobs``); ``parts``:
    see :func:`play_game`."""
    levels = list(levels)
    n = len(levels)
    tasks = [
        (game_name, levels, seed + g, g % n, dict(options or {}), iterations, budget_s, max_decisions, parts)
        for g in range(games)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done: Iterable[tuple[int, GameRecord]] = pool.map(_one, tasks)
            yield from (_seated(n, shift, record) for shift, record in done)
    else:
        yield from (_seated(n, *_one(t)) for t in tasks)


def _seated(n: int, shift: int, record: GameRecord) -> tuple[list[int], GameRecord]:
    order = [(shift + seat) % n for seat in range(n)]  # bot index sitting in each seat
    return order, record


def report(game_name: str, levels: Sequence[str], runs: list[tuple[list[int], GameRecord]]) -> str:
    """The results table, as printed by the command."""
    names = labels(levels)
    n_games = len(runs)
    lines = []
    finished = sum(1 for _, r in runs if r.finished)
    turns = [r.turns for _, r in runs if r.finished]
    avg_turns = statistics.fmean(turns) if turns else 0.0
    lines.append(
        f"{game_name}, {len(levels)} players, {n_games} games: {finished} finished, "
        f"average {avg_turns:.1f} turns per finished game"
    )
    if game_name.lower() == "argo":
        aliens = sum(1 for _, r in runs if r.nobody_won)
        lo, hi = wilson(aliens, n_games)
        lines.append(
            f"Aliens won {aliens}/{n_games} = {aliens / max(n_games, 1):.0%} [95% CI {lo:.0%}–{hi:.0%}]"
        )
    lines.append(
        f"{'bot':<10} {'wins':>5} {'win%':>5} {'95% CI':>11} {'avg score':>9} {'first seat':>10} "
        f"{'decisions':>9} {'searched':>8} {'ms p50':>8} {'ms p95':>8}"
    )
    for b, name in enumerate(names):
        wins = 0
        scores = []
        first = 0
        decisions = 0
        times: list[float] = []
        for order, record in runs:
            seat = order.index(b)
            rec = record.seats[seat]
            wins += rec.won
            scores.append(rec.score)
            first += seat == 0
            decisions += rec.decisions
            times.extend(rec.searched_ms)
        lo, hi = wilson(wins, n_games)
        lines.append(
            f"{name:<10} {wins:>5} {wins / max(n_games, 1):>5.0%} {f'{lo:.0%}–{hi:.0%}':>11} "
            f"{statistics.fmean(scores) if scores else 0:>9.2f} {first:>10} {decisions:>9} {len(times):>8} "
            f"{percentile(times, 50):>8.0f} {percentile(times, 95):>8.0f}"
        )
    if game_name.lower() == "argoat":
        lines.append(trade_line(names, runs))
    return "\n".join(lines)


def trade_line(names: Sequence[str], runs: list[tuple[list[int], GameRecord]]) -> str:
    """Trade proposals per bot (and how many the partner accepted), games with a proposal."""
    parts = []
    for b, name in enumerate(names):
        proposed = sum(r.seats[o.index(b)].proposals for o, r in runs)
        accepted = sum(r.seats[o.index(b)].accepted for o, r in runs)
        parts.append(f"{name} {proposed} ({accepted} accepted)")
    with_trade = sum(1 for _, r in runs if any(s.proposals for s in r.seats))
    per_game = sum(s.proposals for _, r in runs for s in r.seats) / max(len(runs), 1)
    return (
        f"trade proposals: {', '.join(parts)}; {per_game:.2f} per game; "
        f"games with a proposal {with_trade}/{len(runs)}"
    )


def main(argv: list[str] | None = None) -> None:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bot.arena", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="argo or argoat")
    parser.add_argument("--players", type=int, default=None, help="seats (default: one per bot)")
    parser.add_argument(
        "--bots", default="hard,random", help=f"levels by seat, from {', '.join(ARENA_LEVELS)}"
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (games run in parallel)")
    parser.add_argument(
        "--iterations", default=None, help="search iterations instead of time: N, or level=N,level=N"
    )
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision for every bot")
    parser.add_argument("--option", action="append", default=[], help="game option name=value")
    args = parser.parse_args(argv)
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    for level in levels:
        if level not in ARENA_LEVELS:
            parser.error(f"unknown level {level!r}; levels: {', '.join(ARENA_LEVELS)}")
    if args.players is not None:
        if args.players < len(levels):
            parser.error("--players is smaller than the number of --bots")
        levels += [levels[-1]] * (args.players - len(levels))
    cls = game_class(args.game)
    if not cls.min_players <= len(levels) <= cls.max_players:
        parser.error(f"{cls.name} is played by {cls.min_players} to {cls.max_players} players")
    options = dict(o.split("=", 1) for o in args.option)
    started = time.perf_counter()
    games = iter_games(
        cls.name,
        levels,
        args.games,
        seed=args.seed,
        jobs=args.jobs,
        options=options,
        iterations=parse_iterations(args.iterations),
        budget_s=args.budget,
    )
    runs = list(games)
    print(report(cls.name, levels, runs))
    wall = time.perf_counter() - started
    last = args.seed + args.games - 1
    print(f"({wall:.0f} s wall, {args.jobs} job(s), seeds {args.seed}–{last})")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
