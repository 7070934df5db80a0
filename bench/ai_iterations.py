"""Benchmark: search iterations per second of a ``hard`` Argo bot: everything plain Python, the
Argo engine compiled with mypyc, and the engine and the search (``bot/ai``) compiled, as
``ARGO_COMPILE=1`` builds them; side by side.

Run ``python bench/ai_iterations.py [--positions N] [--iterations K] [--rounds R]``.

The positions come from seeded random two-player games (30 to 30 + 5(N-1) decisions in); at each,
the bot of the player to decide runs ``K`` search iterations (a fixed amount of work, so every
build does the same). One compiled build is made; the "engine only" copy is that build without
``bot/ai``'s compiled modules. Each round times every position once with each build, each in a
fresh Python process, the builds taking turns going first. Printed: iterations per CPU second and
per wall second per build (all rounds), and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from argo_games import compile_tree, copy_tree

BUILDS = ("plain", "engine", "engine+search")


def worker(args: argparse.Namespace) -> None:
    """Time the searches and print one JSON line: iterations run, CPU seconds, compiled or not."""
    sys.path.insert(0, args.worker)  # the whole bot/ package of that copy, the engine included
    import bot.ai.search as search
    import bot.engine.argo as argo
    from bot.ai import decide
    from bot.engine.core import SYSTEM, TIMEOUT

    assert Path(argo.__file__).resolve().is_relative_to(Path(args.worker).resolve()), argo.__file__
    cpu = wall = 0.0
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
        started, began = time.process_time(), time.perf_counter()
        decide(game, deciders[0], level="hard", seed=1, iterations=args.iterations)
        cpu += time.process_time() - started
        wall += time.perf_counter() - began
        runs += args.iterations
    search_compiled = not search.__file__.endswith(".py")
    report = {"engine": argo.COMPILED, "search": search_compiled, "iterations": runs, "cpu_s": cpu}
    print(json.dumps({**report, "wall_s": wall}))


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
    totals = {label: [0, 0.0, 0.0] for label in BUILDS}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="argo-ai-bench-") as tmp:
        print("compiling this tree's engine and search with mypyc...", file=sys.stderr)
        both = compile_tree(Path(tmp) / "engine+search")
        engine = Path(tmp) / "engine"
        shutil.copytree(both, engine, ignore=shutil.ignore_patterns("build", "*.c"))
        for built in (engine / "bot/ai").glob("*.so"):
            built.unlink()
        roots = {"plain": copy_tree(Path(tmp) / "plain"), "engine": engine, "engine+search": both}
        for round_no in range(args.rounds):
            order = BUILDS[round_no % 3 :] + BUILDS[: round_no % 3]
            for label in order:
                report = run_worker(roots[label], args)
                expected = (label != "plain", label == "engine+search")
                assert (report["engine"], report["search"]) == expected, (label, report)
                totals[label][0] += report["iterations"]
                totals[label][1] += report["cpu_s"]
                totals[label][2] += report["wall_s"]
    what = f"{args.positions} two-player positions x {args.iterations} iterations, {args.rounds} rounds"
    print(
        f"hard Argo bot, {what} (load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end):"
    )
    cpu = {label: n / c for label, (n, c, _) in totals.items()}
    wall = {label: n / w for label, (n, _, w) in totals.items()}
    names = {
        "plain": "all plain Python",
        "engine": "compiled engine",
        "engine+search": "compiled engine+search",
    }
    for label in BUILDS:
        print(
            f"  {names[label]:<24} {cpu[label]:>7,.0f} iterations per CPU second, "
            f"{wall[label]:>7,.0f} per wall second"
        )
    for a, b in (("engine+search", "engine"), ("engine", "plain"), ("engine+search", "plain")):
        print(f"  {names[a]} / {names[b]}: {cpu[a] / cpu[b]:.2f}x CPU, {wall[a] / wall[b]:.2f}x wall")


if __name__ == "__main__":
    main()
