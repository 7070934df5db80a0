"""Database URLs: telling PostgreSQL from SQLite, and showing a URL without its password."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def is_postgres(url_or_path: str | Path) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return isinstance(url_or_path, str) and url_or_path.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password (for logs and error messages)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://…"
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))
