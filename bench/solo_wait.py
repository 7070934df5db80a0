"""Benchmark: how long a person playing alone against three bots waits between their turns, through
the real bot (SimCord) and its real scheduler, this tree against a baseline, side by side.

Run ``python bench/solo_wait.py [--game Argo|Argoat] [--level hard] [--turns 8] [--baseline C]
[--repeats 1] [--seed 11]``.

A table of alice and three bots at ``--level`` (``bots=3``), the bot built as ``python -m bot``
builds it (its default AI workers and board workers, no ``AI_BUDGET``), on a SQLite file; alice
plays random legal moves through the turn message's components (``tests/driver.py``) for
``--turns`` of her turns. Every change to a channel message (a message posted, or edited) is
timed in real time as the simulated Discord receives it. For each of alice's turns but the last:

* **wait**: from her click that ended her turn to the message that asks her to play again (a new
  turn message that pings her);
* **bot turn**: the time between two edits of the bots' message that show a bot's turn (the
  first from the bots' message being posted): one bot's turn as the person sees it;
* **first change**: from that click to the first change that shows something the bots did or are
  doing (an edit of the bots' message: a bot's turn, or "is thinking…"; or alice's next turn
  message if nothing came before it). The retired message and the bots' new message that her own
  click posts show only her move, and do not count.

Printed per tree: the median and the largest wait and first change over all of alice's turns,
the number of turns, and the load average before and after (wall times on a shared machine are
noisy; run it on a quiet one). The trees take turns going first between repeats; each runs in a
fresh process with that tree first on the path (the baseline is checked out with ``git worktree``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "a608666"
"""main before issue 33: a budget per decision (hard 1.5 s), tables tended one after another."""


async def solo(tmp: Path, game: str, level: str, turns: int, seed: int) -> dict[str, Any]:
    """Play ``turns`` of alice's turns against three bots; returns her waits and first changes."""
    import simcord

    from bot.app import create_bot
    from bot.config import Settings
    from bot.engine.registry import discover
    from tests.driver import Driver, random_policy

    settings = Settings(token="bench", database_path=tmp / "solo.db")
    bot = create_bot(settings, games=discover(), seeder=lambda: seed)
    changes: list[tuple[float, str, int, list[int], str]] = []  # (time, kind, message, pings, text)
    clicks: list[float] = []
    # Longer than a round of the baseline's bots (up to 40 s), and far below the 600 s sleep of its
    # status line, which SimCord counts as work once less than this is left of it
    # (docs/testing-stalls.md): virtual time only moves by the bots' short real-time waits here.
    async with simcord.run(bot, check_errors=False, settle_timeout=90) as env:
        backend = env.backend
        commit, edit = backend.commit_message, backend.edit_message

        def committed(message: Any, *args: Any, **kwargs: Any) -> Any:
            stored = commit(message, *args, **kwargs)
            if not stored.is_ephemeral:
                changes.append(
                    (time.perf_counter(), "post", stored.id, list(stored.ping_user_ids), stored.content)
                )
            return stored

        def edited(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
            stored = edit(channel_id, message_id, fields)
            if not stored.is_ephemeral:
                changes.append((time.perf_counter(), "edit", stored.id, [], stored.content))
            return stored

        backend.commit_message = committed  # type: ignore[method-assign]
        backend.edit_message = edited  # type: ignore[method-assign]
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        for name in ("click", "select"):
            real = getattr(alice, name)

            async def timed(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
                clicks.append(time.perf_counter())
                return await _real(*args, **kwargs)

            setattr(alice, name, timed)
        options = f"bots=3 level={level}" + (" tm_wait=0" if game == "Argo" else "")
        lobby = (await alice.slash(channel, "game new", game=game, options=options)).response
        await alice.click(lobby, label="Start")
        driver = Driver(env, bot, channel, {str(alice.id): alice}, random_policy(random.Random(seed)))
        ended: list[float] = []  # the clicks that ended alice's turns
        while len(ended) < turns:
            table = await bot.host.current(channel.id)
            if table is None or table.game is None or table.game.result() is not None:
                break
            before = table.game.turn_marker()[0]
            if await driver.step() is None:
                break
            after = await bot.host.current(channel.id)
            if after is None or after.game is None or after.game.turn_marker()[0] != before:
                ended.append(clicks[-1])
        await bot.host.close()
    waits, firsts, bot_turns = [], [], []
    for start in ended:
        later = [c for c in changes if c[0] > start]
        asked = next((c for c in later if c[1] == "post" and alice.id in c[3]), None)
        if asked is None:
            continue  # the game ended
        bots_message = next((c[2] for c in later if c[1] == "post"), None)
        own = next((c for c in later if c[1] == "post"), None)
        shown = [
            c
            for c in later
            if c[0] <= asked[0]
            and (c is asked or (c[1] == "edit" and c[2] == bots_message and own and c[0] > own[0]))
        ]
        waits.append(asked[0] - start)
        firsts.append(shown[0][0] - start if shown else asked[0] - start)
        turn_ends = [c[0] for c in shown if c[1] == "edit" and "is thinking…" not in c[4]]
        marks = [own[0] if own else start, *turn_ends]
        bot_turns += [b - a for a, b in itertools.pairwise(marks)]
    return {"waits": waits, "firsts": firsts, "bot_turns": bot_turns}


def load() -> str:
    """The load average now (1, 5, 15 minutes)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_tree(tree: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Measure one tree in its own process."""
    command = [
        sys.executable,
        str(ROOT / "bench" / "solo_wait.py"),
        "--measure",
        "--game",
        args.game,
        "--level",
        args.level,
        "--turns",
        str(args.turns),
        "--seed",
        str(args.seed),
    ]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="Argo", choices=("Argo", "Argoat"))
    parser.add_argument("--level", default="hard")
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--baseline", default=BASELINE, help="a commit, or 'none' to time this tree only")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        sys.path.insert(0, os.getcwd())
        with tempfile.TemporaryDirectory() as folder:
            print(json.dumps(asyncio.run(solo(Path(folder), args.game, args.level, args.turns, args.seed))))
        return
    print(f"load average at the start: {load()}")
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        trees = {"this tree": ROOT}
        if args.baseline != "none":
            old = Path(folder) / "baseline"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(old), args.baseline],
                check=True,
            )
            trees = {f"baseline {args.baseline}": old, **trees}
        try:
            for repeat in range(args.repeats):
                order = list(trees.items())
                if repeat % 2:
                    order.reverse()
                for name, tree in order:
                    found = run_tree(tree, args)
                    slot = results.setdefault(name, {"waits": [], "firsts": [], "bot_turns": []})
                    for key in slot:
                        slot[key] += found.get(key, [])
                    print(f"  {name}: {len(found['waits'])} turns measured (load {load()})", flush=True)
        finally:
            if args.baseline != "none":
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=False
                )
    print(f"\n{args.game}, alice against 3 {args.level} bots, {args.turns} of her turns x {args.repeats}")
    print(
        f"{'tree':24} {'turns':>5} {'wait median':>12} {'wait max':>9} {'first median':>13} {'first max':>10}"
        f" {'bot turn median':>16}"
    )
    for name, found in results.items():
        waits, firsts, turns = found["waits"], found["firsts"], found["bot_turns"]
        if not waits:
            print(f"{name:24} no turn measured")
            continue
        print(
            f"{name:24} {len(waits):>5} {statistics.median(waits):>11.2f}s {max(waits):>8.2f}s "
            f"{statistics.median(firsts):>12.2f}s {max(firsts):>9.2f}s "
            f"{statistics.median(turns) if turns else float('nan'):>15.2f}s"
        )
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
