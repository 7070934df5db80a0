"""A thread-safe memo for sprite builders: the bot draws boards in worker threads.

``functools.lru_cache`` keeps its table consistent across threads but lets two threads build the
same entry at once, and a sprite build uses Pillow's FreeType fonts: a FreeType face must not
be used from two threads at the same time (FreeType's documentation of ``FT_Face``; Pillow
issue #9497 shows the crash on free-threaded Python). All font use in ``render`` happens inside
a memoised builder, so under this lock. Every build therefore runs under one re-entrant lock
shared by all the render modules (builders call other builders, hence re-entrant); a cache hit
takes the lock only for the dictionary look-up (it waits while another thread builds), so once
``render.warm_up()`` has filled the caches two boards are drawn side by side, and their PNG
encoding (which releases the GIL) runs in parallel.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import RLock
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

BUILD_LOCK = RLock()
"""Held while any sprite, font or palette is built."""

_MEMOS: list[Callable[[], None]] = []
_BUILDS = [0]


def memo(maxsize: int = 1024) -> Callable[[F], F]:
    """Decorate a pure function of hashable arguments with a bounded, thread-safe LRU cache."""

    def wrap(fn: F) -> F:
        table: OrderedDict[Hashable, Any] = OrderedDict()

        @functools.wraps(fn)
        def cached(*args: Any, **kwargs: Any) -> Any:
            key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            with BUILD_LOCK:
                try:
                    table.move_to_end(key)
                    return table[key]
                except KeyError:
                    pass
                value = fn(*args, **kwargs)
                _BUILDS[0] += 1
                table[key] = value
                if len(table) > maxsize:
                    table.popitem(last=False)
                return value

        def clear() -> None:
            with BUILD_LOCK:
                table.clear()

        cached.cache_clear = clear  # type: ignore[attr-defined]
        cached.cache_len = lambda: len(table)  # type: ignore[attr-defined]
        _MEMOS.append(clear)
        return cached  # type: ignore[return-value]

    return wrap


def builds() -> int:
    """How many entries have been built so far, in every memo (a measure of warm-up)."""
    return _BUILDS[0]


def clear_all() -> None:
    """Empty every memo (tests use it to measure a cold start)."""
    for clear in _MEMOS:
        clear()
