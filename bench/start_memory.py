"""Benchmark: how long the bot takes from process start to ready, and how much memory it and all
its worker processes hold once idle; this tree against a baseline and against a yardstick, side
by side in one run.

Run ``python bench/start_memory.py [--repeats 5] [--baseline main] [--quick]``.

Each measurement is a fresh Python process started the way ``python -m bot`` starts (the same
imports, settings from the environment with the defaults, ``AI_WORKERS`` unset, a new SQLite
database in a temporary folder, logging set up), which builds the bot with ``bot.app.create_bot``
and runs its ``setup_hook`` (what ``bot.start`` runs after logging in): the store, the cogs, the
worker processes, everything up to the "ready to host" log line. Discord's part is left out: no
login and no gateway (there is no Discord here), and the command sync's HTTP call is a no-op.

* **start to ready**: wall seconds from starting the process to its "ready" line (read by this
  driver from the process's output);
* **idle**: then the driver waits until the process and all its descendants are idle (their CPU
  time grows by under 2 % of a core for 2 s and no process comes or goes; at most 60 s) and sums
  ``Pss`` from ``/proc/<pid>/smaps_rollup`` over the bot's process and every descendant (worker
  processes, multiprocessing's server and resource tracker); ``Pss_Anon`` beside it (the share of
  pages that are not files: less moved by other programs mapping the same Python and libraries);
* **first use**: then the bot draws the first board of a new Argo game through its board pool and
  its AI makes one ``easy`` decision, each timed against the same made again right after (the
  first pays for starting a worker, if it must); and the memory once idle again.

Three kinds of process take turns (the order rotates between repeats): the yardstick ``python -c
"import discord, PIL.Image"`` (measured the same way: to its "ready" line, then its PSS), the
baseline (``bot/``, ``cogs/`` and ``render/`` of commit ``--baseline``, extracted with ``git
archive``), and this tree (the same three folders, copied; plain Python, no compiled engine in
either). Printed: medians (min-max) over the repeats, each also as a multiple of the yardstick's
median from the same run, and the machine's load average at the start and at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from argo_games import ROOT, extract

BASELINE = "main"
YARDSTICK = "import discord, PIL.Image"
IDLE_CPU = 0.02
"""Share of one core under which the process tree counts as idle."""
IDLE_FOR = 2.0
IDLE_LIMIT = 60.0

BOT = r"""
import asyncio, json, os, sys, time
import bot.cli, bot.running  # the imports of python -m bot (run)
from bot.app import create_bot
from bot.config import Settings, setup_logging
from bot.store import open_store


async def main():
    settings = Settings.load()
    setup_logging(settings.log_level, secrets=(settings.token,))
    store = await open_store(settings.database, timeout=settings.db_timeout)
    bot = create_bot(settings, store=store)

    async def no_sync(*args, **kwargs):  # no Discord here
        return []

    bot.tree.sync = no_sync
    loop = asyncio.get_running_loop()
    async with bot:
        await bot.setup_hook()  # what bot.start runs once logged in, up to "ready to host"
        print("READY", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)  # the driver measured idle memory
        from bot.engine.argo import ArgoGame
        from cogs.boards import BOARDS

        game = ArgoGame.new(("a", "b"), 5, {})
        seat = game.prompt().player
        times = {}
        for name in ("board", "board2"):
            started = time.perf_counter()
            await BOARDS.png(game.view(None))
            times[name] = time.perf_counter() - started
        for name in ("decision", "decision2"):
            started = time.perf_counter()
            await bot.thinker.choose(game, seat, "easy", 1)
            times[name] = time.perf_counter() - started
        print("USED " + json.dumps(times), flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)
        await bot.close_tables()


if __name__ == "__main__":
    asyncio.run(main())
"""

YARD = f"""
import sys
{YARDSTICK}
print("READY", flush=True)
sys.stdin.readline()
"""


# ----- one process: its tree, CPU and memory from /proc ----------------------------------------


def tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (children of every thread: workers may be started from
    any thread)."""
    found = [pid]
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks:
        try:
            children = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
        for child in children:
            found += tree(int(child))
    return found


def cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by these processes."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def memory(pids: list[int]) -> dict[str, float]:
    """Summed ``Pss`` and ``Pss_Anon`` (MB) of these processes."""
    pss = anon = 0
    for pid in pids:
        try:
            lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            name, _, rest = line.partition(":")
            if name == "Pss":
                pss += int(rest.split()[0])
            elif name == "Pss_Anon":
                anon += int(rest.split()[0])
    return {"pss": pss / 1024, "anon": anon / 1024}


def wait_idle(pid: int) -> float:
    """Seconds until the tree of ``pid`` is idle (see the module's docstring); the limit if never."""
    began = time.monotonic()
    history: list[tuple[float, float, frozenset[int]]] = []
    while time.monotonic() - began < IDLE_LIMIT:
        pids = tree(pid)
        now = time.monotonic()
        history.append((now, cpu(pids), frozenset(pids)))
        old = [h for h in history if now - h[0] >= IDLE_FOR]
        if old:
            then, used, seen = old[-1]
            if (history[-1][1] - used) / (now - then) < IDLE_CPU and all(h[2] == seen for h in history[-8:]):
                return now - began
        time.sleep(0.25)
    return IDLE_LIMIT


def read_until(process: subprocess.Popen[str], marker: str) -> str:
    """The first line of the process's output that starts with ``marker``."""
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith(marker):
            return line[len(marker) :].strip()
    raise RuntimeError(f"the process ended before {marker!r}: exit status {process.wait()}")


def measure(root: Path | None, folder: Path) -> dict[str, Any]:
    """One fresh process: the bot under ``root`` (None: the yardstick)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root) if root else ""}
    for name in ("AI_WORKERS", "AI_BUDGET", "DATABASE_URL", "METRICS_PORT", "SHARD_COUNT", "SHARD_IDS"):
        env.pop(name, None)
    env.update(DISCORD_TOKEN="bench-token", DATABASE_PATH=str(folder / "games.db"), LOG_LEVEL="WARNING")
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-c", YARD if root is None else BOT],
        cwd=root or folder, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdin is not None
    try:
        read_until(process, "READY")
        result: dict[str, Any] = {"ready": time.monotonic() - started, "cpu_ready": cpu(tree(process.pid))}
        result["to_idle"] = wait_idle(process.pid)
        pids = tree(process.pid)
        result.update(memory(pids), processes=len(pids), cpu_idle=cpu(pids))
        process.stdin.write("\n")
        process.stdin.flush()
        if root is not None:
            result["used"] = json.loads(read_until(process, "USED "))
            wait_idle(process.pid)
            pids = tree(process.pid)
            after = memory(pids)
            result.update(pss_used=after["pss"], anon_used=after["anon"], processes_used=len(pids))
            process.stdin.write("\n")
            process.stdin.flush()
        process.wait(60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return result


# ----- the driver ------------------------------------------------------------------------------


def copy_sources(into: Path) -> Path:
    """This tree's ``bot/``, ``cogs/`` and ``render/`` (sources only) copied under ``into``."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    for name in ("bot", "cogs", "render"):
        shutil.copytree(ROOT / name, into / name, ignore=ignore)
    return into


def spread(values: list[float], fmt: str) -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def report(label: str, runs: list[dict[str, Any]], yard: dict[str, float]) -> None:
    ready = [r["ready"] for r in runs]
    pss = [r["pss"] for r in runs]
    anon = [r["anon"] for r in runs]
    print(f"{label}:")
    print(
        f"  start to ready {spread(ready, '.2f')} s = {statistics.median(ready) / yard['ready']:.1f}x the "
        f"yardstick; CPU of the process tree at ready {spread([r['cpu_ready'] for r in runs], '.2f')} s"
    )
    print(
        f"  idle after {spread([r['to_idle'] for r in runs], '.1f')} s: PSS {spread(pss, '.1f')} MB = "
        f"{statistics.median(pss) / yard['pss']:.2f}x the yardstick (anonymous {spread(anon, '.1f')} MB = "
        f"{statistics.median(anon) / yard['anon']:.2f}x), {runs[0]['processes']} process(es), "
        f"CPU until idle {spread([r['cpu_idle'] for r in runs], '.2f')} s"
    )
    if "used" in runs[0]:
        used = {k: [r["used"][k] * 1000 for r in runs] for k in runs[0]["used"]}
        print(
            f"  first board {spread(used['board'], '.0f')} ms, the next {spread(used['board2'], '.0f')} ms; "
            f"first easy decision {spread(used['decision'], '.0f')} ms, the next "
            f"{spread(used['decision2'], '.0f')} ms"
        )
        print(
            f"  idle after that: PSS {spread([r['pss_used'] for r in runs], '.1f')} MB (anonymous "
            f"{spread([r['anon_used'] for r in runs], '.1f')} MB), {runs[0]['processes_used']} process(es)"
        )


def main() -> None:
    """Parse the arguments, measure the three kinds of process in turn, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--quick", action="store_true", help="2 repeats")
    args = parser.parse_args()
    repeats = 2 if args.quick else args.repeats
    command = ["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline]
    commit = subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()
    began = time.monotonic()
    load = os.getloadavg()
    kinds = ["yardstick", "baseline", "tree"]
    runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="start-memory-") as tmp:
        roots: dict[str, Path | None] = {
            "yardstick": None,
            "baseline": extract(commit, Path(tmp) / "baseline", ("bot", "cogs", "render")),
            "tree": copy_sources(Path(tmp) / "tree"),
        }
        for repeat in range(repeats):
            order = kinds[repeat % 3 :] + kinds[: repeat % 3]
            for kind in order:
                folder = Path(tempfile.mkdtemp(dir=tmp))
                runs[kind].append(measure(roots[kind], folder))
                print(f"repeat {repeat + 1}: {kind} done", file=sys.stderr)
    end = os.getloadavg()
    yard = {k: statistics.median(r[k] for r in runs["yardstick"]) for k in ("ready", "pss", "anon")}
    print(
        f"bench/start_memory.py: {repeats} repeat(s), {os.cpu_count()} cores; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start, {end[0]:.2f} {end[1]:.2f} {end[2]:.2f} "
        f"at the end; default settings (AI_WORKERS unset: {min(4, len(os.sched_getaffinity(0)))} here)"
    )
    yardstick = runs["yardstick"]
    print(
        f'yardstick `python -c "{YARDSTICK}"`: to its ready line '
        f"{spread([r['ready'] for r in yardstick], '.3f')} s, "
        f"PSS {spread([r['pss'] for r in yardstick], '.1f')} MB (anonymous "
        f"{spread([r['anon'] for r in yardstick], '.1f')} MB)"
    )
    report(f"baseline {commit} ({args.baseline})", runs["baseline"], yard)
    report("this tree", runs["tree"], yard)
    print(f"({time.monotonic() - began:.0f} s)")


if __name__ == "__main__":
    main()
