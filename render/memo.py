"""A thread-safe memo for sprite builders: the bot draws boards in worker threads.

``functools.lru_cache`` keeps its table consistent across threads but lets two threads build the
same entry at once, and a sprite build uses Pillow's FreeType fonts: a FreeType face must not
be used from two threads at the same time (FreeType's documentation of ``FT_Face``; Pillow
issue #9497 shows the crash on free-threaded Python). All font use in ``render`` happens inside
a memoised builder, so under this lock. Every build therefore runs under one re-entrant lock
shared by all the render modules (builders call other builders, hence re-entrant). A cache hit
takes no lock at all: it is one dictionary look-up (atomic under the GIL) and a move to the end
of the LRU order, so a hit never waits for another thread's build; a miss looks again under the
lock before building. Once ``render.warm_up()`` has filled the caches, boards drawn side by side
never meet at the lock, and their PNG encoding (which releases the GIL) runs in parallel.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import RLock
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

BUILD_LOCK = RLock()
"""Held while any sprite, font or palette is built."""

_MEMOS: list[Callable[[], None]] = []
_MISSING = object()
_BUILDS = [0]
_CLEARED = [0]


def memo(maxsize: int = 1024) -> Callable[[F], F]:
    """Decorate a pure function of hashable arguments with a bounded, thread-safe LRU cache."""

    def wrap(fn: F) -> F:
        table: OrderedDict[Hashable, Any] = OrderedDict()

        @functools.wraps(fn)
        def cached(*args: Any, **kwargs: Any) -> Any:
            key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            value = table.get(key, _MISSING)  # a hit takes no lock: one atomic look-up
            if value is not _MISSING:
                try:  # noqa: SIM105 (contextlib.suppress costs more on this hot path)
                    table.move_to_end(key)
                except KeyError:  # evicted by another thread meanwhile: still a valid value
                    pass
                return value
            with BUILD_LOCK:
                value = table.get(key, _MISSING)  # another thread may have built it meanwhile
                if value is not _MISSING:
                    return value
                value = fn(*args, **kwargs)
                _BUILDS[0] += 1
                table[key] = value
                if len(table) > maxsize:
                    table.popitem(last=False)
                return value

        def clear() -> None:
            with BUILD_LOCK:
                table.clear()

        # as lru_cache's: ``cache_clear()``, and ``cache_len()`` the entries kept (attributes a
        # function's type does not declare, hence set through its __dict__)
        vars(cached).update(cache_clear=clear, cache_len=lambda: len(table))
        _MEMOS.append(clear)
        return cast(F, cached)  # ``cached`` takes and gives what ``fn`` does (functools.wraps)

    return wrap


def on_clear_all(clear: Callable[[], None]) -> None:
    """Have :func:`clear_all` call ``clear`` too (a cache kept outside a memo)."""
    _MEMOS.append(clear)


def builds() -> int:
    """How many entries have been built so far, in every memo (a measure of warm-up)."""
    return _BUILDS[0]


def clear_all() -> None:
    """Empty every memo (tests use it to measure a cold start)."""
    for clear in _MEMOS:
        clear()
    _CLEARED[0] += 1


def clearings() -> int:
    """How many times :func:`clear_all` has run (a warm-up is void after a clearing)."""
    return _CLEARED[0]
