"""``python -m bot ratings --rebuild [--database URL]``: derive every finished table's result again
from its log (today's rating policy: docs/archive.md), record those that are missing (games played
before the archive too) and recompute every rating ladder from the stored results, in the order the
games ended — the same numbers the bot keeps game by game. ``bot.cli`` parses the command line and
names the database (the settings' own, unless ``--database`` says otherwise)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.archive import ledger
from bot.engine.core import counted
from bot.engine.registry import GameRegistry, discover
from bot.store import StoreError, open_store
from bot.store.urls import redact


async def rebuild(database: str | Path) -> list[str]:
    """Rebuild every ladder of ``database``; one line per ladder for the report."""
    store = await open_store(database)
    try:
        built = await ledger.rebuild(store, GameRegistry(discover()))
    finally:
        await store.close()
    lines = []
    for (guild, game), ladder in sorted(built.items()):
        games = counted(ladder.count, "game")
        lines.append(f"server {guild}, {game}: {games}, {counted(len(ladder.ratings), 'player')} rated")
    return lines


def command(database: str | Path) -> int:
    """Rebuild the ratings of ``database`` and print what was done; returns the exit status."""
    try:
        lines = asyncio.run(rebuild(database))
    except StoreError as exc:
        print(f"Ratings not rebuilt: {exc}", file=sys.stderr)
        return getattr(exc, "exit_status", 1)
    print("\n".join(lines) if lines else "No finished games: no ratings to rebuild.")
    print(f"Ratings rebuilt from the results in {redact(str(database))}.")
    return 0
