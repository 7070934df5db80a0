"""Benchmark: how often the bot notifies an absent person, and how many messages a round with bots
posts — this tree against a baseline commit, side by side, through SimCord in virtual time.

Run ``python bench/notices.py [--baseline C] [--missed N] [--rounds R]``.

* **Missed turns.** A Pebbles table of alice and bob (``clock=4 idle=bot``): alice never acts, bob
  plays at once whenever it is his turn, until the clock (or the AI) took ``N`` of alice's turns.
  Printed: the messages that pinged alice when they were posted, and the DMs she got, per missed
  turn.
* **Messages per round with bots.** A solo Argo table (alice and three bots), alice playing random
  legal moves through the components for ``R`` of her turns. Printed: channel messages posted per
  round (one turn of alice and the bots' turns after it).

Each tree runs in its own process (``--measure``, with that tree first on the path); the baseline
is checked out with ``git worktree`` into a temporary folder. Counts, not times: no load matters.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "dd565c8"
"""The commit before issues 20 and 21."""


async def missed_turns(tmp: Path, missed: int) -> dict[str, float]:
    import simcord

    from bot.app import create_bot
    from bot.config import Settings
    from tests.pebbles import Pebbles

    settings = Settings(
        token="bench", database_path=tmp / "missed.db", ai_workers=0, ai_budget=0.02, scheduler_seconds=60
    )
    bot = create_bot(settings, games=[Pebbles], seeder=lambda: 7)
    async with simcord.run(bot, check_errors=False, settle_timeout=30) as env:
        pinged: dict[int, list[int]] = {}
        commit = env.backend.commit_message

        def committed(message: Any, *args: Any, **kwargs: Any) -> Any:
            stored = commit(message, *args, **kwargs)
            pinged[stored.id] = list(stored.ping_user_ids)
            return stored

        env.backend.commit_message = committed
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
        lobby = (
            await alice.slash(
                channel, "game new", game="Pebbles", options="pile=99 maxtake=1 clock=4 idle=bot"
            )
        ).response
        await bob.click(lobby, label="Join")
        await alice.click(lobby, label="Start")
        taken = 0
        for _ in range(2000):
            table = await bot.host.current(channel.id)
            log = await bot.host.store.log(table.record.id)
            taken = sum(
                1 for e in log if e.actor == str(alice.id) and e.action.get("by", "").startswith("bot:")
            )
            if taken >= missed:
                break
            if table.game.prompt().player == str(bob.id):
                await bob.click(channel.last_message, label="take 1")
            else:
                await env.advance_time(1800)
        pings = sum(alice.id in users for users in pinged.values())
        dm = alice.user.dm_channel
        dms = len([m for m in dm.history() if m.content.startswith(("⏰", "💤"))]) if dm is not None else 0
        await bot.host.close()
    return {"missed": taken, "pings per missed turn": pings / taken, "DMs per missed turn": dms / taken}


async def messages_per_round(tmp: Path, rounds: int) -> dict[str, float]:
    import simcord

    from bot.app import create_bot
    from bot.config import Settings
    from bot.engine.registry import discover
    from tests.driver import Driver, random_policy

    settings = Settings(
        token="bench", database_path=tmp / "solo.db", ai_workers=0, ai_budget=0.02, scheduler_seconds=60
    )
    bot = create_bot(settings, games=discover(), seeder=lambda: 11)
    async with simcord.run(bot, check_errors=False, settle_timeout=60) as env:
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        lobby = (await alice.slash(channel, "game new", game="Argo", options="bots=3 tm_wait=0")).response
        await alice.click(lobby, label="Start")
        policy = random_policy(random.Random(11), avoid=("cancel", "undo"))
        driver = Driver(env, bot, channel, {str(alice.id): alice}, policy)
        turns = 0
        while turns < rounds:
            table = await bot.host.current(channel.id)
            if table is None:
                break
            before = table.game.turn_marker()[0]
            if await driver.step() is None:
                break
            after = await bot.host.current(channel.id)
            if after is None or after.game.turn_marker()[0] != before:
                turns += 1
        posted = [m for m in env.backend.messages[channel.id].values() if not m.is_ephemeral]
        await bot.host.close()
    return {"rounds": turns, "messages per round": len(posted) / max(turns, 1)}


def measure(missed: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        first = asyncio.run(missed_turns(tmp, missed))
        second = asyncio.run(messages_per_round(tmp, rounds))
    return {**first, **second}


def run_tree(tree: Path, missed: int, rounds: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "notices.py"),
            "--measure",
            "--missed",
            str(missed),
            "--rounds",
            str(rounds),
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default=BASELINE)
    parser.add_argument("--missed", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        sys.path.insert(0, os.getcwd())
        print(json.dumps(measure(args.missed, args.rounds)))
        return
    with tempfile.TemporaryDirectory() as folder:
        old_tree = Path(folder) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(old_tree), args.baseline],
            check=True,
        )
        try:
            old = run_tree(old_tree, args.missed, args.rounds)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old_tree)], check=False
            )
    new = run_tree(ROOT, args.missed, args.rounds)
    print(f"{'':28} {'baseline ' + args.baseline:>20} {'this tree':>12}")
    for key in new:
        print(f"{key:28} {old.get(key, float('nan')):>20.2f} {new[key]:>12.2f}")


if __name__ == "__main__":
    main()
