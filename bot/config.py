"""Settings for running the bot, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data/games.db")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A missing or invalid setting; ``str(exc)`` is one line saying what and how to fix it."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to run (see ``.env.example`` for each setting)."""

    token: str
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    def __repr__(self) -> str:  # never show the token in logs or tracebacks
        return (
            f"Settings(token='***', database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r})"
        )

    @classmethod
    def load(cls, env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        """Settings from ``env`` (default: the process environment) over the ``.env`` file."""
        values: dict[str, str] = {}
        if dotenv is not None and dotenv.is_file():
            values.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
        values.update(os.environ if env is None else env)

        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: add DISCORD_TOKEN=<your bot token> to .env "
                "or the environment (see .env.example)."
            )
        raw_path = values.get("DATABASE_PATH", "").strip()
        database_path = Path(raw_path) if raw_path else DEFAULT_DATABASE_PATH

        raw_guild = values.get("DEV_GUILD_ID", "").strip()
        dev_guild_id: int | None = None
        if raw_guild:
            if not raw_guild.isdigit():
                raise ConfigError(
                    f"DEV_GUILD_ID must be a numeric Discord server id, not {raw_guild!r} "
                    "(right-click the server with Developer Mode on → Copy Server ID)."
                )
            dev_guild_id = int(raw_guild)

        log_level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
        return cls(token, database_path, dev_guild_id, log_level)


def setup_logging(level: str) -> None:
    """Log to stdout with timestamps at ``level``."""
    logging.basicConfig(
        level=getattr(logging, level),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        handlers=[logging.StreamHandler(sys.stdout)],
        force=True,
    )
    logging.getLogger("discord.http").setLevel(max(logging.INFO, getattr(logging, level)))
