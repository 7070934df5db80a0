"""Benchmark part: the database work of whole clicks through the real bot (SimCord), this tree against
a baseline commit, side by side in one run. Counts, not times: no load matters.

Run ``python bench/whole_clicks.py [--clicks 30] [--baseline a608666]``, or as part of
``bench/store_load.py`` (its ``--clicks``).

For each tree, store (a SQLite file; a PostgreSQL database whose server logs every statement) and
game (Argo, Argoat), a two-player table is played with random legal actions through the turn
message's components, as players click. For every click that applies an action, from the click to
the edited or newly posted turn message and the writes after it, the bot's database work is
counted: PostgreSQL statements from the server's log, SQLite round trips from the store's database
thread (tests/click_counts.py). Printed per kind of click: one that keeps the turn (the message is
edited in place), one that ends it (a new turn message), and any other (the decision passed to the
other player within the turn, or the host played on after the click, e.g. an only choice, whose
work is counted with the click): mean and most per click.

Each tree runs in its own process with that tree's ``bot/``, ``cogs/`` and ``render/`` first on the
path (the baseline's extracted with ``git archive``); the counting helpers are this tree's
``tests/``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "a608666"
"""The commit before the turn message was read from memory (issue 33): 8 and 9 statements, 5 and 6
SQLite round trips per click."""
GAMES = ("Argo", "Argoat")
AVOID = ("cancel", "undo", "withdraw", "decline", "trade")


async def count(where: str, server_log: str | None, game: str, seed: int, clicks: int) -> dict[str, Any]:
    """Play ``clicks`` applying clicks at a new table on the store ``where``; the database work of
    each, by kind."""
    import simcord

    import bot
    from bot.app import create_bot
    from bot.config import Settings
    from bot.engine.registry import discover
    from tests.click_counts import Counter, Counting
    from tests.driver import open_table, random_policy

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            token="bench",
            database_path=Path(folder) / "clicks.db",
            database_url=where if server_log is not None else None,
            ai_workers=0,
            ai_budget=0.02,
        )
        made = create_bot(settings, games=discover(), seeder=lambda: seed)
        found: dict[str, list[int]] = {"keep": [], "end": [], "other": []}
        async with simcord.run(made, check_errors=False, settle_timeout=60) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
            await open_table(channel, game, [alice, bob])
            counter = await Counter.of(made, Path(server_log) if server_log is not None else None)
            policy = random_policy(random.Random(seed), AVOID)
            actors = {str(alice.id): alice, str(bob.id): bob}
            driver = Counting(env, made, channel, actors, policy, counter=counter)
            for _ in range(4):  # past the first turns
                await driver.step()
            while sum(len(v) for v in found.values()) < clicks:
                before = await made.host.current(channel.id)
                if before is None or before.game.prompt() is None:
                    break  # the game is over
                if before.game.prompt().player is None:  # a wait for several players: not counted
                    await driver.step()
                    continue
                version, message, turn = (
                    before.record.version,
                    before.record.message_id,
                    before.game.turn_marker()[0],
                )
                await driver.step()
                after = await made.host.latest(channel.id)
                assert after is not None and after.record.version > version
                if after.record.version > version + 1:
                    kind = "other"  # the host played on after it (e.g. someone's only choice)
                elif after.game.turn_marker()[0] != turn or after.game.result() is not None:
                    kind = "end"
                elif after.record.message_id == message:
                    kind = "keep"
                else:
                    kind = "other"
                found[kind].append(len(driver.last))
            await made.host.close()
    return {"bot": str(Path(bot.__file__).parent), **found}


def _measure(tree: Path, where: str, server_log: str | None, game: str, seed: int, clicks: int) -> dict:
    """:func:`count` in a process of its own with ``tree``'s code first on the path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tree), str(ROOT)))}
    args = ["--measure", where, server_log or "", game, str(seed), str(clicks)]
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree} ({game}): {done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bot"] == str(tree / "bot"), (result["bot"], tree)
    return result


def baseline_tree(commit: str, folder: Path) -> Path:
    """The baseline commit's ``bot/``, ``cogs/`` and ``render/`` extracted into ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "bot", "cogs", "render"], capture_output=True, check=True
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def compare(server: Any, clicks: int, baseline: str, seed: int = 5) -> None:
    """Count whole clicks on each store and game with this tree and ``baseline`` (on the running
    PostgreSQL test ``server``, see tests/pg.py) and print them side by side."""
    from tests.pg_statements import log_statements

    rows: dict[tuple[str, str, str], dict[str, list[int]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        trees = {"base": baseline_tree(baseline, Path(folder) / "baseline"), "this": ROOT}
        for game in GAMES:
            for store in ("sqlite", "postgres"):
                for code, tree in trees.items():
                    where, server_log = "sqlite", None
                    if store == "postgres":
                        where = server.database()
                        asyncio.run(log_statements(server.admin_url, where))
                        server_log = str(server.folder / "log")
                    rows[(game, store, code)] = _measure(tree, where, server_log, game, seed, clicks)
    print(
        f"Whole clicks through the bot (SimCord), {clicks} applying clicks a table after its first "
        f"turns; baseline = {baseline}. Per click: PostgreSQL statements, SQLite round trips "
        "(mean / most, and how many clicks of that kind)"
    )
    print(f"  {'':7s} {'':9s} {'':4s} {'keeps the turn':>16s} {'ends the turn':>16s} {'other':>16s}")
    for (game, store, code), found in rows.items():
        cells = []
        for kind in ("keep", "end", "other"):
            counts = found[kind]
            cells.append(
                f"{statistics.mean(counts):5.2f} / {max(counts):2d} ({len(counts):2d})"
                if counts
                else f"{'-':>16s}"
            )
        print(f"  {game:7s} {store:9s} {code:4s} " + " ".join(f"{c:>16s}" for c in cells))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--measure":
        where, server_log, game, seed, clicks = sys.argv[2:7]
        print(json.dumps(asyncio.run(count(where, server_log or None, game, int(seed), int(clicks)))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30, help="applying clicks counted per table")
    parser.add_argument("--baseline", default=BASELINE)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests import pg

    server = pg.start()
    try:
        compare(server, args.clicks, args.baseline)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
