"""Settings for running the bot, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_PATH = Path("data/games.db")
DEFAULT_TABLE_CACHE = 5000
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
    table_cache: int = DEFAULT_TABLE_CACHE
    ai_workers: int = 1
    """Processes the bots think in (0: one thread of the bot's own process)."""
    ai_budget: float | None = None
    """Seconds every bot decision may take, whatever its level (None: each level's own budget)."""
    scheduler_seconds: float = 10.0
    """How often the bot looks for due clocks, reminders and timeouts."""

    def __repr__(self) -> str:  # never show the token in logs or tracebacks
        return (
            f"Settings(token='***', database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"table_cache={self.table_cache!r}, ai_workers={self.ai_workers!r}, "
            f"ai_budget={self.ai_budget!r}, scheduler_seconds={self.scheduler_seconds!r})"
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
        raw_cache = values.get("TABLE_CACHE", "").strip()
        table_cache = DEFAULT_TABLE_CACHE
        if raw_cache:
            if not raw_cache.isdigit() or int(raw_cache) < 1:
                raise ConfigError(
                    f"TABLE_CACHE must be a whole number of tables (1 or more), not {raw_cache!r}."
                )
            table_cache = int(raw_cache)
        raw_workers = values.get("AI_WORKERS", "").strip()
        ai_workers = 1
        if raw_workers:
            if not raw_workers.isdigit() or int(raw_workers) > 64:
                raise ConfigError(
                    f"AI_WORKERS must be a whole number of processes from 0 to 64, not {raw_workers!r}."
                )
            ai_workers = int(raw_workers)
        raw_budget = values.get("AI_BUDGET", "").strip()
        ai_budget: float | None = None
        if raw_budget:
            try:
                ai_budget = float(raw_budget)
            except ValueError:
                ai_budget = -1.0
            if not 0 < ai_budget <= 60:
                raise ConfigError(
                    "AI_BUDGET must be seconds per bot decision, more than 0 and at most 60, "
                    f"not {raw_budget!r}."
                )
        return cls(
            token,
            database_path,
            dev_guild_id,
            log_level,
            table_cache,
            ai_workers=ai_workers,
            ai_budget=ai_budget,
        )


QUIET_AT_DEBUG = ("discord.http", "discord.gateway", "discord.webhook", "discord.state")
"""Loggers whose DEBUG output carries payloads (message texts, hands sent by DM, interaction
tokens, SQL parameters): they never log below INFO."""

_TOKEN_FIELD = re.compile(r"""(["']?token["']?\s*[:=]\s*["']?)[^"'\s,}]+""", re.IGNORECASE)


class Redact(logging.Filter):
    """Removes the bot token and any ``token=…``/``"token": "…"`` value from every log line."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        self._secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = _TOKEN_FIELD.sub(r"\1***", text)
        for secret in self._secrets:
            clean = clean.replace(secret, "***")
        if clean != text:
            record.msg, record.args = clean, None
        return True


def setup_logging(level: str, secrets: tuple[str, ...] = ()) -> None:
    """Log to stdout with timestamps at ``level``; ``secrets`` (the token) never appear."""
    handler = logging.StreamHandler(sys.stdout)
    handler.addFilter(Redact(secrets))
    logging.basicConfig(
        level=getattr(logging, level),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        handlers=[handler],
        force=True,
    )
    for name in QUIET_AT_DEBUG:
        logging.getLogger(name).setLevel(max(logging.INFO, getattr(logging, level)))
