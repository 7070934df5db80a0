"""Benchmark: how strong the bot levels are against a one-ply greedy player (issue 34's targets).

Run ``python bench/ai_strength.py [--games 30] [--levels hard,normal,easy] [--jobs 1] [--seed 0]
[--parts 2] [--iterations N | --fixed]``. Two-player games of Argo and Argoat, each level at its production
budget (wall-clock seconds for a whole turn, shared among the turn's decisions, see
``bot/ai/budget.py``) against ``bot.ai.greedy`` (it tries every move once on a determinised copy
and keeps the best by a simple heuristic of its own). ``--parts 2`` (the default) searches each
decision twice with its own seed and adds the root statistics up, as the bot does when a decision
has both AI workers to itself (a person alone with bots on two cores); ``--parts 1`` gives each
decision one core. ``--iterations N`` replaces the time with a fixed search size (load-independent),
``--fixed`` with the sizes that match the budgets (:data:`FIXED`). Seats alternate between games;
the same seeds are played by every level.

Reported per game and level: the bot's wins with a 95% Wilson interval (Argo: the bot wins the
game, the Aliens' victories count as losses), the greedy player's wins, unfinished games (stopped
at ``--max-decisions``), turns per game, and per searched decision CPU and wall milliseconds
(p50 / p95): the budget is wall-clock time, so on a loaded machine a decision searches less
(fewer CPU milliseconds) rather than longer. A bot *turn* is all of the bot's decisions in one
turn of the game; its wall milliseconds (p50 / p95) are what a person waits for it.
With ``--progress`` each game's result is printed as
it ends (seed, the bot's seat, winner, turns), so a long run that is stopped still tells.
Shuttles show as *repeated turn ends*: turns the bot ended in a public position (the whole public
view but the turn number) it had already ended a turn in (``bot.arena.Repetitions``).

Also per cell: iterations per searched decision, CPU milliseconds per bot turn, and (Argoat) the
bot's trade proposals, how many the greedy player accepted, and in how many games it proposed.

``--iterations`` takes ``N`` for every level or ``level=N,...``. The load average is printed at
the start and the end (it changes nothing at fixed sizes, everything at the wall budgets).

Targets (issue 34): ``hard`` >= 90% and ``normal`` >= 80% in both games, no unfinished game.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai import LEVELS
from bot.arena import GameRecord, iter_games, parse_iterations, percentile, wilson

Runs = list[tuple[list[int], GameRecord]]
TARGETS = {"hard": ">= 90%", "normal": ">= 80%", "easy": "(beatable)"}
FIXED = {
    "Argoat": "hard=2600,normal=1300,easy=500",
    "Argo": "hard=3300,normal=1600,easy=650",
}
"""``--fixed``: per game, the search sizes (iterations per decision) that match the levels' turn
budgets in CPU on two quiet cores with the compiled build the bot runs, for runs that load cannot
change: the iterations per CPU second of the compiled build (Argoat about 2,650, Argo about
6,600, docs/ai.md *Figures*) times two cores times the turn budget times a typical searched
decision's share of its turn (Argoat: a step, about 0.4; Argo: about 0.2, see ``bot/ai/budget.py``)."""


def rate(label: str, hits: int, n: int, target: str) -> str:
    """One line: hits out of n with the 95% interval."""
    lo, hi = wilson(hits, n)
    share = hits / max(n, 1)
    return f"{label:<30} {hits:>3}/{n:<3} = {share:>4.0%}  [95% CI {lo:>4.0%}–{hi:>4.0%}]  target {target}"


def outcome(order: list[int], record: GameRecord) -> str:
    """One game in a few words: the bot's seat, who won, how long it took."""
    bot, greedy = record.seats[order.index(0)], record.seats[order.index(1)]
    winner = "bot" if bot.won else "greedy" if greedy.won else "neither"
    state = "finished" if record.finished else "UNFINISHED"
    seat = order.index(0) + 1
    repeats = f"{bot.repeats} of {bot.turn_ends} turn ends repeated (longest run {bot.longest_repeat_run})"
    return f"seed {record.seed}, bot in seat {seat}, {winner} won, {record.turns} turns, {state}; {repeats}"


def main() -> None:
    """Play every matchup and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per level and game")
    parser.add_argument("--levels", default="hard,normal,easy")
    parser.add_argument("--only", default="Argoat,Argo", help="games to play")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-decisions", type=int, default=1500)
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision (smoke runs)")
    parser.add_argument(
        "--iterations", default=None, help="a fixed search size instead of time: N, or level=N,level=N"
    )
    parser.add_argument("--fixed", action="store_true", help=f"--iterations per game: {FIXED}")
    parser.add_argument("--parts", type=int, default=2, help="searches per timed decision, added up")
    parser.add_argument("--progress", action="store_true", help="print each game as it ends")
    args = parser.parse_args()
    levels = [x for x in args.levels.split(",") if x]
    sizes = {game: parse_iterations(FIXED[game] if args.fixed else args.iterations) for game in FIXED}

    started = time.perf_counter()
    cpu_started = time.process_time()
    now = datetime.datetime.now(datetime.UTC)
    print(f"bench/ai_strength.py {' '.join(sys.argv[1:])}  ({now:%Y-%m-%d %H:%M} UTC)")
    budgets = ", ".join(f"{k} {v.turn_budget_s}" for k, v in LEVELS.items())
    if sizes["Argo"] is None:
        print(f"turn budgets (wall-clock s per bot turn): {budgets}; {args.parts} search(es) per decision")
    else:
        print(f"fixed search sizes (iterations per decision, load-independent): {sizes}")
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    lines: list[str] = []
    for game in [g for g in args.only.split(",") if g]:
        for level in levels:
            t0 = time.perf_counter()
            runs: Runs = []
            for order, record in iter_games(
                game,
                [level, "greedy"],
                args.games,
                seed=args.seed + 1000,
                jobs=args.jobs,
                budget_s=args.budget,
                iterations=sizes[game],
                max_decisions=args.max_decisions,
                parts=args.parts,
            ):
                runs.append((order, record))
                if args.progress:
                    print(f"    {game} {level} game {len(runs)}: {outcome(order, record)}", flush=True)
            bot = sum(r.seats[o.index(0)].won for o, r in runs)
            greedy = sum(r.seats[o.index(1)].won for o, r in runs)
            unfinished = sum(not r.finished for _, r in runs)
            turns = [r.turns for _, r in runs]
            cpu = [ms for o, r in runs for ms in r.seats[o.index(0)].searched_ms]
            wall = [ms for o, r in runs for ms in r.seats[o.index(0)].searched_wall_ms]
            own_turns = [ms for o, r in runs for ms in r.seats[o.index(0)].turn_wall_ms.values() if ms > 0]
            ends = sum(r.seats[o.index(0)].turn_ends for o, r in runs)
            repeats = sum(r.seats[o.index(0)].repeats for o, r in runs)
            run = max((r.seats[o.index(0)].longest_repeat_run for o, r in runs), default=0)
            searched = [float(n) for o, r in runs for n in r.seats[o.index(0)].iterations]
            turn_cpu = [ms for o, r in runs for ms in r.seats[o.index(0)].turn_cpu_ms.values() if ms > 0]
            proposed = sum(r.seats[o.index(0)].proposals for o, r in runs)
            taken = sum(r.seats[o.index(0)].accepted for o, r in runs)
            offered = sum(1 for o, r in runs if r.seats[o.index(0)].proposals)
            lines.append(rate(f"{game} {level} vs greedy", bot, len(runs), TARGETS.get(level, "")))
            lines.append(
                f"    greedy wins {greedy}, neither {len(runs) - bot - greedy}, unfinished {unfinished}; "
                f"turns median {statistics.median(turns) if turns else 0:.0f} max {max(turns, default=0)}; "
                f"per searched decision CPU ms p50 {percentile(cpu, 50):.0f} p95 {percentile(cpu, 95):.0f}, "
                f"wall ms p50 {percentile(wall, 50):.0f} p95 {percentile(wall, 95):.0f} "
                f"({len(cpu)} decisions); per bot turn wall ms p50 {percentile(own_turns, 50):.0f} "
                f"p95 {percentile(own_turns, 95):.0f}; the bot's turns that ended in a public position it "
                f"had ended a turn in before: {repeats} of {ends} (longest run {run})"
            )
            lines.append(
                f"    iterations per searched decision p50 {percentile(searched, 50):.0f} "
                f"p95 {percentile(searched, 95):.0f}; CPU ms per bot turn p50 {percentile(turn_cpu, 50):.0f} "
                f"mean {statistics.fmean(turn_cpu) if turn_cpu else 0:.0f} p95 {percentile(turn_cpu, 95):.0f}"
                + (
                    f"; trade proposals {proposed} ({proposed / max(len(runs), 1):.2f} per game), "
                    f"accepted {taken}, games with a proposal {offered}/{len(runs)}"
                    if game == "Argoat"
                    else ""
                )
            )
            spent = time.perf_counter() - t0
            print(f"  played {game} {level} vs greedy: {len(runs)} games in {spent:.0f} s wall")
            print("\n".join(lines[-3:]))
            sys.stdout.flush()
    print()
    print("\n".join(lines))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"total {time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu_started:.0f} s CPU "
        f"(this process) with {args.jobs} job(s)"
    )


if __name__ == "__main__":
    main()
