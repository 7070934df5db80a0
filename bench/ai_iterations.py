"""Benchmark: search iterations per CPU second of a ``hard`` Argo bot, plain-Python engine against
the same engine compiled with mypyc (``ARGO_COMPILE=1``), side by side.

Run ``python bench/ai_iterations.py [--positions N] [--iterations K] [--rounds R]``.

The positions come from seeded random two-player games (30 to 30 + 5(N-1) decisions in); at each,
the bot of the player to decide runs ``K`` search iterations (a fixed amount of work, so both
engines do the same). Each round times every position once with each engine, each in a fresh
Python process, the engines taking turns going first. Printed: iterations per CPU second per
engine (all rounds), and the ratio. The search's own code is plain Python in both.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from argo_games import compile_tree, copy_tree


def worker(args: argparse.Namespace) -> None:
    """Time the searches and print one JSON line: iterations run, CPU seconds, compiled or not."""
    sys.path.insert(0, args.worker)  # the whole bot/ package of that copy, the engine included
    import bot.engine.argo as argo
    from bot.ai import decide
    from bot.engine.core import SYSTEM, TIMEOUT

    assert Path(argo.__file__).resolve().is_relative_to(Path(args.worker).resolve()), argo.__file__
    cpu = 0.0
    runs = 0
    for seed in range(args.positions):
        game = argo.ArgoGame.new(("a", "b"), seed, {})
        rng = random.Random(seed)
        for _ in range(30 + 5 * seed):
            if game.result() is not None:
                break
            deciders = [p for p in game.prompt().deciders() if game.legal_actions(p)]
            if not deciders:
                game.apply(SYSTEM, TIMEOUT)
                continue
            game.apply(deciders[0], rng.choice(game.legal_actions(deciders[0])))
        deciders = [p for p in game.prompt().deciders() if game.legal_actions(p)]
        if game.result() is not None or not deciders:
            continue
        started = time.process_time()
        decide(game, deciders[0], level="hard", seed=1, iterations=args.iterations)
        cpu += time.process_time() - started
        runs += args.iterations
    print(json.dumps({"compiled": argo.COMPILED, "iterations": runs, "cpu_s": cpu}))


def run_worker(root: Path, args: argparse.Namespace) -> dict[str, float]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)]
    command += ["--positions", str(args.positions), "--iterations", str(args.iterations)]
    env = {**os.environ, "PYTHONPATH": "", "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        command, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(), env=env
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Parse the arguments, then run either the driver or one worker."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    totals = {"plain": [0, 0.0], "compiled": [0, 0.0]}
    with tempfile.TemporaryDirectory(prefix="argo-ai-bench-") as tmp:
        print("compiling this tree's engine with mypyc...", file=sys.stderr)
        roots = {"plain": copy_tree(Path(tmp) / "plain"), "compiled": compile_tree(Path(tmp) / "compiled")}
        for round_no in range(args.rounds):
            order = ["plain", "compiled"] if round_no % 2 == 0 else ["compiled", "plain"]
            for label in order:
                report = run_worker(roots[label], args)
                assert report["compiled"] == (label == "compiled"), report
                totals[label][0] += report["iterations"]
                totals[label][1] += report["cpu_s"]
    rates = {label: n / cpu for label, (n, cpu) in totals.items()}
    what = f"{args.positions} two-player positions x {args.iterations} iterations, {args.rounds} rounds"
    print(f"hard Argo bot, {what}:")
    for label, rate in rates.items():
        print(f"  {label:<8} engine: {rate:,.0f} search iterations per CPU second")
    print(f"ratio: {rates['compiled'] / rates['plain']:.2f}x")


if __name__ == "__main__":
    main()
