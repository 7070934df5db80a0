"""Settings for running the bot, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.store.records import DEFAULT_TIMEOUT

DEFAULT_DATABASE_PATH = Path("data/games.db")
DEFAULT_TABLE_CACHE = 5000
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A missing or invalid setting; ``str(exc)`` is one line saying what and how to fix it."""


def default_ai_workers() -> int:
    """AI worker processes when AI_WORKERS is not set: one per core this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(4, cores)


@dataclass(frozen=True)
class Settings:
    """Everything the bot needs to run (see ``.env.example`` for each setting)."""

    token: str
    database_path: Path = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    table_cache: int = DEFAULT_TABLE_CACHE
    ai_workers: int = field(default_factory=default_ai_workers)
    """Processes the bots think in (0: one thread of the bot's own process)."""
    ai_budget: float | None = None
    """Seconds every bot decision may take, whatever its level (None: each level's own budget)."""
    scheduler_seconds: float = 10.0
    """How often the bot looks for due clocks, reminders and timeouts."""
    database_url: str | None = None
    """``postgresql://…`` or ``sqlite:///path`` (DATABASE_URL); None: the SQLite file at
    ``database_path``."""
    shard_count: int | None = None
    """Discord shards of the whole bot (SHARD_COUNT); None: one process, no sharding."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (SHARD_IDS; default: all of them)."""
    db_timeout: float = DEFAULT_TIMEOUT
    """Seconds a database call may wait (DB_TIMEOUT): PostgreSQL's statement timeout (a frozen
    server is given up a little later), SQLite's wait for another connection's lock."""
    metrics_port: int | None = None
    """The port of /healthz and /metrics (METRICS_PORT); None: not served."""
    metrics_host: str = "127.0.0.1"
    """The address /healthz and /metrics listen on (METRICS_HOST; 0.0.0.0 for every interface)."""
    shutdown_grace: float = 10.0
    """Seconds shutdown waits for replies in progress (SHUTDOWN_GRACE)."""

    @property
    def database(self) -> str | Path:
        """What to open: the DATABASE_URL, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> tuple[int, tuple[int, ...]] | None:
        """``(shard_count, shard_ids)`` of this process, or None when not sharded."""
        if self.shard_count is None:
            return None
        return self.shard_count, self.shard_ids or tuple(range(self.shard_count))

    def __repr__(self) -> str:  # never show the token in logs or tracebacks
        return (
            f"Settings(token='***', database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"table_cache={self.table_cache!r}, ai_workers={self.ai_workers!r}, "
            f"ai_budget={self.ai_budget!r}, scheduler_seconds={self.scheduler_seconds!r}, "
            f"database_url={_redacted(self.database_url)!r}, shard_count={self.shard_count!r}, "
            f"shard_ids={self.shard_ids!r}, db_timeout={self.db_timeout!r}, "
            f"metrics_port={self.metrics_port!r}, metrics_host={self.metrics_host!r}, "
            f"shutdown_grace={self.shutdown_grace!r})"
        )

    @classmethod
    def load(
        cls,
        env: Mapping[str, str] | None = None,
        dotenv: Path | None = Path(".env"),
        *,
        need_token: bool = True,
    ) -> Settings:
        """Settings from ``env`` (default: the process environment) over the ``.env`` file: the one
        reader of the bot's settings, for every command of ``python -m bot``. ``need_token=False``
        (the commands that never log in: ``migrate``, ``ratings``) lets DISCORD_TOKEN be unset."""
        values: dict[str, str] = {}
        if dotenv is not None and dotenv.is_file():
            values.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
        values.update(os.environ if env is None else env)

        token = values.get("DISCORD_TOKEN", "").strip()
        if not token and need_token:
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
        ai_workers = default_ai_workers()
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
        db_timeout = _seconds(values.get("DB_TIMEOUT", "").strip())
        database_url = _database_url(values.get("DATABASE_URL", "").strip())
        if database_url is not None and database_url.startswith("sqlite:///"):
            database_path = Path(database_url.removeprefix("sqlite:///"))
            database_url = None
        shard_count, shard_ids = _shards(
            values.get("SHARD_COUNT", "").strip(), values.get("SHARD_IDS", "").strip()
        )
        if (
            shard_count is not None
            and database_url is None
            and len(shard_ids or range(shard_count)) < shard_count
        ):
            raise ConfigError(
                "SHARD_IDS runs only some shards, so other processes run the rest: they must share "
                "a PostgreSQL database (set DATABASE_URL=postgresql://…; SQLite is for one process)."
            )
        metrics_port, metrics_host, shutdown_grace = _operations(values)
        return cls(
            token,
            database_path,
            dev_guild_id,
            log_level,
            table_cache,
            ai_workers=ai_workers,
            ai_budget=ai_budget,
            database_url=database_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            db_timeout=db_timeout,
            metrics_port=metrics_port,
            metrics_host=metrics_host,
            shutdown_grace=shutdown_grace,
        )


def _operations(values: Mapping[str, str]) -> tuple[int | None, str, float]:
    """METRICS_PORT, METRICS_HOST and SHUTDOWN_GRACE checked."""
    raw_port = values.get("METRICS_PORT", "").strip()
    port: int | None = None
    if raw_port:
        if not raw_port.isdigit() or not 1 <= int(raw_port) <= 65535:
            raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535, not {raw_port!r}.")
        port = int(raw_port)
    host = values.get("METRICS_HOST", "").strip() or "127.0.0.1"
    raw_grace = values.get("SHUTDOWN_GRACE", "").strip()
    grace = 10.0
    if raw_grace:
        try:
            grace = float(raw_grace)
        except ValueError:
            grace = -1.0
        if not 0 <= grace <= 300:
            raise ConfigError(f"SHUTDOWN_GRACE must be seconds from 0 to 300, not {raw_grace!r}.")
    return port, host, grace


def _redacted(url: str | None) -> str | None:
    """A database URL without its password."""
    if url is None:
        return None
    from bot.store.urls import redact

    return redact(url)


def _seconds(raw: str) -> float:
    """DB_TIMEOUT checked: seconds, more than 0 and at most 600 (empty: the default)."""
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 600:
        raise ConfigError(
            f"DB_TIMEOUT must be seconds a database call may take, more than 0 and at most 600, not {raw!r}."
        )
    return seconds


def _database_url(raw: str) -> str | None:
    """DATABASE_URL checked: ``sqlite:///path`` or ``postgresql://…``; None if empty."""
    if not raw:
        return None
    if raw.startswith("sqlite:///") and len(raw) > len("sqlite:///"):
        return raw
    if raw.startswith(("postgresql://", "postgres://")):
        try:
            parts = urlsplit(raw)
            parts.port  # noqa: B018  (raises ValueError for a port that is not a number)
        except ValueError as exc:
            raise ConfigError(f"DATABASE_URL is not a valid PostgreSQL URL: {exc}.") from None
        if parts.hostname is None and "host=" not in parts.query:
            raise ConfigError(
                "DATABASE_URL names no server: use postgresql://user:password@host:5432/dbname."
            )
        return raw
    shown = _redacted(raw) if "@" in raw else raw
    raise ConfigError(
        f"DATABASE_URL must be sqlite:///path/to/games.db or postgresql://user:password@host/dbname, "
        f"not {shown!r}."
    )


def _shards(raw_count: str, raw_ids: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS (``0-3``, ``0,2``, ``0-1,4``) checked."""
    if not raw_count:
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the number of shards of the whole bot).")
        return None, None
    if not raw_count.isdigit() or int(raw_count) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards (1 or more), not {raw_count!r}.")
    count = int(raw_count)
    if not raw_ids:
        return count, None
    ids: set[int] = set()
    for part in raw_ids.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError(f"SHARD_IDS must look like 0-3 or 0,2 (shard numbers), not {raw_ids!r}.")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ConfigError(f"SHARD_IDS has a backwards range {part!r}.")
        ids.update(range(first, last + 1))
    if max(ids) >= count:
        raise ConfigError(
            f"SHARD_IDS {raw_ids!r} names shard {max(ids)}, but SHARD_COUNT={count} has shards 0-{count - 1}."
        )
    return count, tuple(sorted(ids))


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
