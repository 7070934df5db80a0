"""The statements a PostgreSQL database runs, read from the server's own log: the database is set
to ``log_statement = all`` (for its new sessions only), and every statement the server receives
(a simple query, or an execute of the extended protocol) is one line of the log. The test server
of tests/pg.py logs to ``<folder>/log``; used by the statement-count tests and bench/store_load.py."""

from __future__ import annotations

import re
from pathlib import Path

import asyncpg

_ENTRY = re.compile(r"^\S+ \S+ \S+ \[(\d+)\] LOG:  (?:statement|execute [^:]+): (.*)$")
"""A statement's first log line (the default ``log_line_prefix``, ``%m [%p] ``); its SQL may go on
over the next lines, which have no prefix."""
_PREFIXED = re.compile(r"^\S+ \S+ \S+ \[\d+\] ")


async def log_statements(admin_url: str, database_url: str) -> None:
    """Make the server log every statement of the database's sessions opened from now on."""
    name = database_url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"ALTER DATABASE \"{name}\" SET log_statement = 'all'")
    finally:
        await conn.close()


class StatementLog:
    """The statements logged in the server log ``path`` after a mark (see :meth:`mark`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._at = 0

    def mark(self) -> None:
        """Count from now on."""
        self._at = self.path.stat().st_size

    def since_mark(self) -> list[tuple[int, str]]:
        """``(backend pid, SQL)`` of every statement logged since :meth:`mark`, in log order."""
        with self.path.open("rb") as log:
            log.seek(self._at)
            text = log.read().decode("utf-8", "replace")
        found: list[tuple[int, str]] = []
        inside = False
        for line in text.splitlines():
            entry = _ENTRY.match(line)
            if entry is not None:
                found.append((int(entry.group(1)), entry.group(2)))
                inside = True
            elif _PREFIXED.match(line):
                inside = False  # another message (a DETAIL line, an error)
            elif inside:
                pid, sql = found[-1]
                found[-1] = (pid, f"{sql}\n{line}")
        return found
