"""Benchmark: search iterations per second of a ``hard`` Argo bot: everything plain Python, the
Argo engine compiled with mypyc, and the engine and the search (``bot/ai``) compiled, as
``ARGO_COMPILE=1`` builds them; side by side.

Run ``python bench/ai_iterations.py [--positions N] [--iterations K] [--rounds R] [--baseline C]``.

The positions come from seeded random two-player games (30 to 30 + 5(N-1) decisions in); at each,
the bot of the player to decide runs ``K`` search iterations (a fixed amount of work, so every
build does the same). One compiled build is made; the "engine only" copy is that build without
``bot/ai``'s compiled modules. Each round times every position once with each build, each in a
fresh Python process, the builds taking turns going first. Printed: iterations per CPU second and
per wall second per build (all rounds), and the ratios.

Each process imports the per-game policies before its first timed decision, as the bot's AI
workers do when they warm up (``bot.thinking.warm``): the one-time import is not search work.

With ``--baseline C`` the three builds of commit ``C`` (its ``bot/``, ``setup.py`` and
``pyproject.toml``, extracted with ``git archive``) run beside this tree's in the same rounds.
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

from argo_games import copy_tree, extract

BUILDS = ("plain", "engine", "engine+search")


def worker(args: argparse.Namespace) -> None:
    """Time the searches and print one JSON line: iterations run, CPU seconds, compiled or not."""
    sys.path.insert(0, args.worker)  # the whole bot/ package of that copy, the engine included
    import bot.ai.search as search
    import bot.engine.argo as argo
    from bot.ai import decide
    from bot.ai.policy import policy_for
    from bot.engine.core import SYSTEM, TIMEOUT

    assert Path(argo.__file__).resolve().is_relative_to(Path(args.worker).resolve()), argo.__file__
    policy_for(argo.ArgoGame.new(("a", "b"), 0, {}))  # the warm-up: imports the policies
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


def extract_tree(commit: str, into: Path) -> Path:
    """``commit``'s ``bot/`` package, build hook and settings, unpacked under ``into``."""
    return extract(commit, into, ("bot", "setup.py", "pyproject.toml"))


def three_builds(source: Path, into: Path) -> dict[str, Path]:
    """Plain, engine-compiled and engine+search-compiled copies of the sources under ``source``."""
    ignore = shutil.ignore_patterns("__pycache__", "build", "*.so", "*.c")
    plain = into / "plain"
    shutil.copytree(source, plain, ignore=ignore)
    both = into / "engine+search"
    shutil.copytree(source, both, ignore=ignore)
    command = [sys.executable, "setup.py", "build_ext", "--inplace"]
    env = {**os.environ, "ARGO_COMPILE": "1"}
    subprocess.run(command, cwd=both, env=env, check=True, capture_output=True)
    engine = into / "engine"
    shutil.copytree(both, engine, ignore=shutil.ignore_patterns("build", "*.c"))
    for built in (engine / "bot/ai").glob("*.so"):
        built.unlink()
    return {"plain": plain, "engine": engine, "engine+search": both}


def main() -> None:
    """Parse the arguments, then run either the driver or one worker."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="a commit whose three builds run beside this tree's")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    trees = ["this tree"] + ([args.baseline] if args.baseline else [])
    totals = {(tree, label): [0, 0.0, 0.0] for tree in trees for label in BUILDS}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="argo-ai-bench-") as tmp:
        print("compiling the engine and search with mypyc...", file=sys.stderr)
        roots = {}
        for number, tree in enumerate(trees):
            source = copy_tree(Path(tmp) / f"src{number}") if number == 0 else None
            if source is None:
                source = extract_tree(tree, Path(tmp) / f"src{number}")
            for label, root in three_builds(source, Path(tmp) / f"tree{number}").items():
                roots[(tree, label)] = root
        keys = list(roots)
        for round_no in range(args.rounds):
            shift = round_no % len(keys)
            for key in keys[shift:] + keys[:shift]:
                report = run_worker(roots[key], args)
                expected = (key[1] != "plain", key[1] == "engine+search")
                assert (report["engine"], report["search"]) == expected, (key, report)
                totals[key][0] += report["iterations"]
                totals[key][1] += report["cpu_s"]
                totals[key][2] += report["wall_s"]
    what = f"{args.positions} two-player positions x {args.iterations} iterations, {args.rounds} rounds"
    print(
        f"hard Argo bot, {what} (load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end):"
    )
    cpu = {key: n / c for key, (n, c, _) in totals.items()}
    wall = {key: n / w for key, (n, _, w) in totals.items()}
    names = {
        "plain": "all plain Python",
        "engine": "compiled engine",
        "engine+search": "compiled engine+search",
    }
    for tree in trees:
        print(f" {tree}:")
        for label in BUILDS:
            print(
                f"  {names[label]:<24} {cpu[tree, label]:>7,.0f} iterations per CPU second, "
                f"{wall[tree, label]:>7,.0f} per wall second"
            )
        for a, b in (("engine+search", "engine"), ("engine", "plain"), ("engine+search", "plain")):
            ratio_cpu = cpu[tree, a] / cpu[tree, b]
            ratio_wall = wall[tree, a] / wall[tree, b]
            print(f"  {names[a]} / {names[b]}: {ratio_cpu:.2f}x CPU, {ratio_wall:.2f}x wall")
    if args.baseline:
        base = args.baseline
        for label in BUILDS:
            gain_cpu = cpu["this tree", label] / cpu[base, label]
            gain_wall = wall["this tree", label] / wall[base, label]
            print(f" {names[label]}, this tree / {base}: {gain_cpu:.2f}x CPU, {gain_wall:.2f}x wall")


if __name__ == "__main__":
    main()
