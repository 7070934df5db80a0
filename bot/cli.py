"""``python -m bot``: one command line for the bot and its operator's jobs.

``run`` (the default) runs the bot; ``sync`` logs in, syncs the slash commands and exits;
``migrate --to postgresql://…`` copies the SQLite database into PostgreSQL; ``ratings --rebuild``
recomputes every rating. Every command reads its settings through the one loader
(:meth:`bot.config.Settings.load`: the environment over ``.env``), imports what it needs only once
chosen (``--help`` and ``--version`` load neither discord.py nor a database driver), works on a
plain install with SQLite, and names the extra it lacks otherwise (exit status 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from bot.config import ConfigError, Settings
from bot.store import MissingExtra

MIGRATE_NEEDS_POSTGRES = (
    "python -m bot migrate writes to PostgreSQL, which needs the asyncpg driver: install the postgres "
    'extra (pip install "argo-table-bot[postgres]", or pip install -e ".[postgres]" in a checkout)'
)

DISTRIBUTION = "argo-table-bot"

EPILOG = """settings come from the environment, then from .env in the working directory (see
.env.example and the README's Settings); DATABASE_URL, else DATABASE_PATH, names the database of
every command. Exit status: 0 done, 1 a database or Discord that cannot be reached, 2 a setting,
an argument or a missing extra."""


def version() -> str:
    """The installed distribution's name and version (``unknown`` when run from a bare checkout)."""
    try:
        number = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        number = "unknown"
    return f"{DISTRIBUTION} {number}"


def parser() -> argparse.ArgumentParser:
    """The whole command line: the top-level options and one subparser per command."""
    top = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Argo & Argoat Discord bot, or one of its operator's jobs.",
        epilog=EPILOG,
    )
    top.add_argument("--version", action="version", version=version())
    commands = top.add_subparsers(dest="command", metavar="COMMAND", title="commands (default: run)")
    commands.add_parser("run", help="run the bot until stopped (Ctrl-C or SIGTERM)", epilog=EPILOG)
    commands.add_parser(
        "sync", help="log in, sync the slash commands with Discord even if unchanged, and exit", epilog=EPILOG
    )
    migrate = commands.add_parser(
        "migrate",
        help="copy the SQLite database into an empty PostgreSQL database and verify it",
        description="Copy the bot's SQLite database into an empty PostgreSQL database and verify it "
        "(needs the postgres extra). Stop the bot first.",
        epilog=EPILOG,
    )
    migrate.add_argument("--to", required=True, help="postgresql://user:password@host:5432/dbname")
    migrate.add_argument(
        "--from",
        dest="source",
        type=Path,
        help="the SQLite file (default: DATABASE_URL=sqlite:///… or DATABASE_PATH, else data/games.db)",
    )
    ratings = commands.add_parser(
        "ratings",
        help="recompute every rating from the stored results",
        description="Recompute every rating from the stored results (finished tables' logs).",
        epilog=EPILOG,
    )
    ratings.add_argument("--rebuild", action="store_true", required=True, help="recompute every ladder")
    ratings.add_argument(
        "--database", help="sqlite:///path, a path, or postgresql://… (default: the bot's settings)"
    )
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments), run the chosen command and return its
    exit status (``--help``, ``--version`` and bad arguments exit through argparse)."""
    args = parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    command = args.command or "run"
    try:
        settings = Settings.load(need_token=command in ("run", "sync"))
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if command == "migrate":
        try:
            from bot import migrate
        except MissingExtra:
            print(MIGRATE_NEEDS_POSTGRES, file=sys.stderr)
            return 2
        return migrate.command(args.to, args.source or settings.database_path)
    if command == "ratings":
        from bot.archive import rebuild

        return rebuild.command(args.database or settings.database)
    from bot import running

    return running.main(settings, only_sync=command == "sync")
