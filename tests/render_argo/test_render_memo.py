"""The sprite memo (render/memo.py): a cache hit never waits for the build lock; a miss builds
once under it, also when threads ask for the same entry at once."""

from __future__ import annotations

import threading

from render.memo import BUILD_LOCK, memo


def test_a_cache_hit_does_not_wait_for_a_build_in_another_thread():
    @memo(4)
    def square(n: int) -> int:
        return n * n

    assert square(3) == 9
    held, release = threading.Event(), threading.Event()

    def build_elsewhere() -> None:
        with BUILD_LOCK:  # another thread building a sprite
            held.set()
            release.wait(30)

    builder = threading.Thread(target=build_elsewhere)
    builder.start()
    held.wait()
    try:
        hits: list[int] = []
        reader = threading.Thread(target=lambda: hits.append(square(3)))
        reader.start()
        reader.join(5)  # a hit that took the lock would wait until the build ends
        assert hits == [9]
        misses: list[int] = []
        missing = threading.Thread(target=lambda: misses.append(square(4)))
        missing.start()
        missing.join(0.2)
        assert misses == []  # a miss builds under the lock: it waits
    finally:
        release.set()
        builder.join()
    missing.join(5)
    assert misses == [16]


def test_threads_asking_for_one_missing_entry_build_it_once():
    built: list[int] = []
    start = threading.Barrier(4)

    @memo(4)
    def slow(n: int) -> list[int]:
        built.append(n)
        return [n]

    results: list[list[int]] = []

    def ask() -> None:
        start.wait()
        results.append(slow(7))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert built == [7] and len(results) == 4 and all(r is results[0] for r in results)
