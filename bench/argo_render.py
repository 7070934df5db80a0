"""Benchmark: render cost and PNG size of Argo boards, the project next to a naive baseline.

Run ``python bench/argo_render.py [out.png] [runs] [seed]`` from the repository root.

1. A late-game 4-player board (the fullest station of a seeded random game), rendered ``runs``
   times after one warm render.
2. A whole seeded random game: the board after every action, each with the changes since the
   awaited player's last decision marked, as the bot posts them.
3. A cold start, each figure from a fresh process (``bench/render_cold.py``): the first board
   drawn with nothing built, and ``render.warm_up()``.

The baseline is the naive save of the same picture: ``img.convert("RGB").save(buf, "PNG")``
(Pillow's defaults). The floor is what no renderer of this picture can avoid: one palette PNG
encode of the finished picture (``compress_level`` as the renderer's); "x floor" is the
render's CPU time over it. Project, baseline and floor are timed in alternation, board by
board, in CPU time (``time.process_time``); medians are printed. Writes the late board to
``out.png`` when given.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render
from bench.render_cold import cold_start
from bot.engine.argo import GAME
from bot.engine.core import SYSTEM, TIMEOUT
from render.argo import COMPRESS_LEVEL, draw_board, layout, render_board

View = dict[str, Any]


def game_views(seed: int, players: int = 4) -> list[View]:
    """The public view before the first action and after every action of a seeded random game."""
    game = GAME.new([str(i + 1) for i in range(players)], seed, {})
    rng = random.Random(seed)
    views = [game.view(None)]
    for _ in range(20000):
        if game.result() is not None:
            break
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
        else:
            who = deciders[0]
            options = game.legal_actions(who)
            plain = [a for a in options if a["type"] not in ("undo", "cancel")]
            game.apply(who, rng.choice(plain or options))
        views.append(game.view(None))
    return views


def with_previous(views: list[View]) -> list[tuple[View, View | None]]:
    """Each board with the board at its awaited player's last decision (None the first time)."""
    last: dict[str, View] = {}
    out: list[tuple[View, View | None]] = []
    current = None
    for view in views:
        player = view.get("active")
        if player != current and current is not None and out:
            last[current] = out[-1][0]
        out.append((view, last.get(player) if player else None))
        current = player
    return out


def late_view(views: list[View]) -> View:
    running = [v for v in views if not v["finished"]]
    most = max(len(v["tiles"]) for v in running)
    return [v for v in running if len(v["tiles"]) == most][-1]


def naive(view: View, previous: View | None = None) -> bytes:
    """The same picture saved the naive way: RGB, Pillow's default PNG settings."""
    buf = io.BytesIO()
    draw_board(view, previous).convert("RGB").save(buf, "PNG")
    return buf.getvalue()


def cpu_ms(fn: Callable[[], bytes]) -> tuple[float, bytes]:
    started = time.process_time()
    out = fn()
    return (time.process_time() - started) * 1000, out


def floor(view: View, previous: View | None = None) -> Callable[[], bytes]:
    """The floor's work for a board: encoding the finished palette picture (drawn beforehand)."""
    img = draw_board(view, previous)

    def encode() -> bytes:
        buf = io.BytesIO()
        img.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
        return buf.getvalue()

    return encode


def alternate(jobs: list[tuple[View, View | None]]) -> tuple[list[float], list[float], list[int], list[int]]:
    """Project and naive renders of each board, one after the other (and the floor's encode,
    kept in ``FLOOR``)."""
    times, naive_times, sizes, naive_sizes = [], [], [], []
    FLOOR.clear()
    for view, previous in jobs:
        ms, png = cpu_ms(lambda v=view, p=previous: render_board(v, p))
        nms, npng = cpu_ms(lambda v=view, p=previous: naive(v, p))
        FLOOR.append(cpu_ms(floor(view, previous))[0])
        times.append(ms)
        naive_times.append(nms)
        sizes.append(len(png))
        naive_sizes.append(len(npng))
    return times, naive_times, sizes, naive_sizes


FLOOR: list[float] = []
"""CPU ms of the floor of each board of the last :func:`alternate`."""


def report(label: str, times: list[float], sizes: list[int]) -> None:
    print(
        f"  {label:<28} median {statistics.median(times):6.1f} ms CPU   "
        f"median {statistics.median(sizes) / 1024:6.1f} KB   max {max(sizes) / 1024:6.1f} KB   "
        f"{sum(times) / sum(FLOOR):4.2f}x floor"
    )


def report_floor() -> None:
    print(f"  {'floor (palette PNG encode)':<28} median {statistics.median(FLOOR):6.1f} ms CPU")


def main() -> None:
    """Play the games, time both encodings and print the figures."""
    out = sys.argv[1] if len(sys.argv) > 1 else None
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    views = game_views(seed)
    view = late_view(views)

    print(cold_start("argo"))
    render.warm_up()

    render_board(view)
    img = draw_board(view)
    times, naive_times, sizes, naive_sizes = alternate([(view, None)] * runs)
    print(
        f"late-game board: seed {seed}, {len(view['players'])} players, {len(view['tiles'])} tiles, "
        f"{img.width}x{img.height} px, {runs} runs"
    )
    report("render_board (palette PNG)", times, sizes)
    report("naive (RGB, default save)", naive_times, naive_sizes)
    report_floor()

    jobs = with_previous(views)
    times, naive_times, sizes, naive_sizes = alternate(jobs)
    shapes = sorted({(lay.width, lay.height) for lay in (layout(v) for v, _ in jobs)})
    print(
        f"whole game: seed {seed}, {len(jobs)} boards (one per action, changes marked), "
        f"sizes seen {', '.join(f'{w}x{h}' for w, h in shapes)}"
    )
    report("render_board (palette PNG)", times, sizes)
    report("naive (RGB, default save)", naive_times, naive_sizes)
    report_floor()
    print(
        f"  total CPU: project {sum(times) / 1000:.2f} s, naive {sum(naive_times) / 1000:.2f} s "
        f"(ratio {sum(naive_times) / sum(times):.1f}x)"
    )
    if out:
        Path(out).write_bytes(render_board(view))
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
