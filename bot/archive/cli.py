"""``python -m bot ratings --rebuild [--database URL]``: derive every finished table's result again
from its log (today's rating policy: docs/archive.md), record those that are missing (games played
before the archive too) and recompute every rating ladder from the stored results, in the order the
games ended — the same numbers the bot keeps game by game."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import dotenv_values

from bot.archive import ledger
from bot.config import DEFAULT_DATABASE_PATH
from bot.engine.core import counted
from bot.engine.registry import GameRegistry, discover
from bot.store import StoreError, open_store
from bot.store.postgres import redact


def _default_database() -> str | Path:
    """The bot's database as its settings name it: DATABASE_URL, else DATABASE_PATH, else the
    default file (from the environment or ``.env``)."""
    values: dict[str, str] = {}
    if Path(".env").is_file():
        values.update({k: v for k, v in dotenv_values(".env").items() if v is not None})
    values.update(os.environ)
    url = values.get("DATABASE_URL", "").strip()
    if url:
        return url
    raw = values.get("DATABASE_PATH", "").strip()
    return Path(raw) if raw else DEFAULT_DATABASE_PATH


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


def main(argv: Sequence[str]) -> int:
    """``python -m bot ratings --rebuild``; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot ratings",
        description="Recompute every rating from the stored results (finished tables' logs).",
    )
    parser.add_argument("--rebuild", action="store_true", required=True, help="recompute every ladder")
    parser.add_argument("--database", help="sqlite:///path, a path, or postgresql://… (default: the bot's)")
    args = parser.parse_args(list(argv))
    database = args.database or _default_database()
    try:
        lines = asyncio.run(rebuild(database))
    except StoreError as exc:
        print(f"Ratings not rebuilt: {exc}", file=sys.stderr)
        return getattr(exc, "exit_status", 1)
    print("\n".join(lines) if lines else "No finished games: no ratings to rebuild.")
    print(f"Ratings rebuilt from the results in {redact(str(database))}.")
    return 0
