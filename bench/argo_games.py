"""Benchmark: random full Argo playouts per second, this engine against a baseline, side by side.

Run ``python bench/argo_games.py [--games N] [--rounds R] [--players P] [--seed S] [--baseline C]``.

Three engines play: the baseline, the engine of commit ``C`` (default bc07315, the engine before
the speed work of issue 11, plain Python), extracted with ``git archive`` into a temporary
directory; this tree's engine as plain Python; and the same source compiled with mypyc
(``ARGO_COMPILE=1``, see setup.py), built in a temporary copy. Each round plays the same ``N``
seeded games once with each engine, each in its own fresh Python process, the engines taking
turns going first. Every decision picks a random legal action (seeded; undo and cancel only
rarely, so that games end). Only finished games count; the time is the CPU time
(``time.process_time``) of the playing process, spent in the games alone.

Printed per engine: playouts per second, decisions per game, CPU time per decision (p50, p99;
a decision is finding the deciders, their legal actions and applying one), and how the random
games ended; then the ratios of playouts per second. The engines play the same seeds, but the
baseline's rules differ slightly (issue 9's Laser and Jump Room), so its games may differ.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("a", "b", "c", "d")
STEP_CAP = 10_000
"""Safety net: a game still running after this many decisions is dropped (never seen)."""


# ----- the worker: plays games with whichever engine is on its path ---------------------------


def play(seed: int, players: int) -> dict[str, Any]:
    """One random game: its CPU time, per-decision CPU times, how it ended."""
    from bot.engine.argo import ArgoGame
    from bot.engine.core import SYSTEM, TIMEOUT

    clock = time.process_time_ns
    started = clock()
    game = ArgoGame.new(PLAYERS[:players], seed, {})
    rng = random.Random(seed)
    times: list[int] = []
    for _ in range(STEP_CAP):
        if game.result() is not None:
            break
        begin = clock()
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            times.append(clock() - begin)
            continue
        who = deciders[0] if rng.random() < 0.9 else rng.choice(deciders)
        options = game.legal_actions(who)
        plain = [a for a in options if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(plain if plain and rng.random() > 0.02 else options))
        times.append(clock() - begin)
    cpu = clock() - started
    result = game.result()
    return {
        "finished": result is not None,
        "cpu_ns": cpu,
        "times_ns": times,
        "reason": game.st.end_reason,
        "aliens": result is not None and not result.winners,
    }


def worker(args: argparse.Namespace) -> None:
    """Play the games and print one JSON line of raw figures."""
    sys.path.insert(0, args.worker)
    import bot.engine.argo as argo

    assert Path(argo.__file__).resolve().is_relative_to(Path(args.worker).resolve()), argo.__file__
    compiled = not argo.__file__.endswith(".py")
    games = [play(seed, args.players) for seed in range(args.seed, args.seed + args.games)]
    print(json.dumps({"engine": str(Path(argo.__file__).parent), "compiled": compiled, "games": games}))


# ----- the driver: alternates the engines and reports -------------------------------------------


def extract(commit: str, into: Path, paths: tuple[str, ...] = ("bot",)) -> Path:
    """The ``bot/`` package of ``commit`` (or the given ``paths``) unpacked under ``into``."""
    data = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, *paths],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def copy_tree(into: Path) -> Path:
    """This tree's ``bot/`` package (sources only), its build hook and settings, copied under ``into``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    shutil.copytree(ROOT / "bot", into / "bot", ignore=ignore)
    shutil.copy2(ROOT / "setup.py", into / "setup.py")
    shutil.copy2(ROOT / "pyproject.toml", into / "pyproject.toml")  # mypy's settings, for mypyc
    return into


def compile_tree(into: Path) -> Path:
    """A copy of this tree with the Argo engine compiled by mypyc, as ``ARGO_COMPILE=1`` builds it."""
    copy_tree(into)
    env = {**os.environ, "ARGO_COMPILE": "1"}
    command = [sys.executable, "setup.py", "build_ext", "--inplace"]
    subprocess.run(command, cwd=into, env=env, check=True, capture_output=True)
    return into


def run_worker(root: Path, games: int, players: int, seed: int, compiled: bool) -> list[dict[str, Any]]:
    """Play the games in a fresh Python process with the engine found under ``root``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root)]
    command += ["--games", str(games), "--players", str(players), "--seed", str(seed)]
    env = {**os.environ, "PYTHONPATH": "", "PYTHONHASHSEED": "0"}
    cwd = tempfile.gettempdir()
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=cwd, env=env)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["compiled"] == compiled, f"{root}: expected compiled={compiled}"
    return report["games"]


def percentile(values: list[int], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def summary(label: str, games: list[dict[str, Any]]) -> float:
    """Print one engine's figures; returns its finished playouts per second of CPU."""
    done = [g for g in games if g["finished"]]
    cpu = sum(g["cpu_ns"] for g in done) / 1e9
    times = [t for g in done for t in g["times_ns"]]
    rate = len(done) / cpu if cpu else 0.0
    print(f"{label}: {len(done)}/{len(games)} games finished in {cpu:.2f} s of CPU: {rate:.1f} playouts/s")
    print(
        f"  {len(times) / max(1, len(done)):.0f} decisions per game; CPU per decision "
        f"p50 {percentile(times, 0.5) / 1e6:.3f} ms, p99 {percentile(times, 0.99) / 1e6:.3f} ms"
    )
    endings = Counter(re.sub(r"<p:[^>]+> \(\w+\)", "a player", g["reason"]) for g in done)
    aliens = sum(1 for g in done if g["aliens"])
    print(f"  Alien victories: {aliens}/{len(done)}")
    for reason, count in endings.most_common():
        print(f"    {count:4d}  {reason}")
    return rate


def main() -> None:
    """Parse the arguments, then run either the driver or one worker."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", default="bc07315", help="commit of the baseline engine")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    labels = ["baseline", "plain", "compiled"]
    results: dict[str, list[dict[str, Any]]] = {label: [] for label in labels}
    with tempfile.TemporaryDirectory(prefix="argo-bench-") as tmp:
        print("compiling this tree's engine with mypyc...", file=sys.stderr)
        roots = {
            "baseline": extract(args.baseline, Path(tmp) / "baseline"),
            "plain": copy_tree(Path(tmp) / "plain"),
            "compiled": compile_tree(Path(tmp) / "compiled"),
        }
        for round_no in range(args.rounds):
            seed = args.seed + round_no * args.games
            order = labels[round_no % 3 :] + labels[: round_no % 3]
            for label in order:
                started = time.perf_counter()
                games = run_worker(roots[label], args.games, args.players, seed, label == "compiled")
                results[label].extend(games)
                print(
                    f"round {round_no + 1}, {label}: {len(games)} games "
                    f"({time.perf_counter() - started:.1f} s wall)",
                    file=sys.stderr,
                )
    print(
        f"Random {args.players}-player Argo playouts, {args.rounds} rounds of {args.games} games "
        f"(seeds {args.seed}..{args.seed + args.rounds * args.games - 1}), CPU time of one core:"
    )
    base = summary(f"baseline engine ({args.baseline}, plain Python)", results["baseline"])
    plain = summary("this engine, plain Python", results["plain"])
    compiled = summary("this engine, compiled with mypyc (ARGO_COMPILE=1)", results["compiled"])
    if base:
        print(f"ratio, plain Python: {plain / base:.2f}x the baseline's playouts per second")
        print(f"ratio, compiled:     {compiled / base:.2f}x the baseline's playouts per second")


if __name__ == "__main__":
    main()
