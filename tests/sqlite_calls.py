"""The round trips a SQLite store makes to its database, observed on a real database file: every
call of the store runs as one job on its own database thread (see bot/store/sqlite.py), so the
jobs handed to that thread are the round trips from the event loop; SQLite's own trace callback
(``set_trace_callback``) records the SQL each job ran. Used by the statement-count tests and
bench/store_load.py, as tests/pg_statements.py is for PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any


class _Counted(Executor):
    """The store's database thread, with every job it is given recorded first."""

    def __init__(self, inner: Executor, calls: SqliteCalls) -> None:
        self._inner = inner
        self._calls = calls

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def job() -> Any:
            self._calls.trips.append([])  # a new round trip; its SQL follows (same thread, in order)
            return fn(*args, **kwargs)

        return self._inner.submit(job)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait, cancel_futures=cancel_futures)


class SqliteCalls:
    """The round trips of a ``SqliteStore`` (each the list of SQL statements it ran), from
    :meth:`install` on; :meth:`mark` starts a count."""

    def __init__(self) -> None:
        self.trips: list[list[str]] = []
        self._at = 0

    @classmethod
    async def install(cls, store: Any) -> SqliteCalls:
        """Observe ``store`` (an open ``SqliteStore``) from now on."""
        calls = cls()

        def trace(conn: Any) -> None:
            conn.set_trace_callback(calls._statement)

        await store._run(trace)  # on the database thread, between two jobs
        store._thread = _Counted(store._thread, calls)
        return calls

    def _statement(self, sql: str) -> None:
        if self.trips:
            self.trips[-1].append(sql)

    def mark(self) -> None:
        """Count from now on."""
        self._at = len(self.trips)

    def since_mark(self) -> list[list[str]]:
        """The round trips since :meth:`mark`, each with its SQL, in order."""
        return [list(trip) for trip in self.trips[self._at :]]
