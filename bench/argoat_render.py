"""Benchmark: render cost and PNG size of Argoat maps, the project next to a naive baseline.

Run ``python bench/argoat_render.py [--runs N] [--seed S] [OUT.png]`` from the repository root.

1. A late-game 5-player map: a seeded random game played until every frontier is on the map
   (placing any that are left through the engine's own legal placements), rendered N times.
2. The whole game: the map after every action, each with the changes since the awaited
   player's last decision marked, as the bot posts them.
3. A cold start: the first map drawn with empty caches, and ``render.warm_up()``.

The baseline is the naive save of the same picture: ``img.convert("RGB").save(buf, "PNG")``
(Pillow's defaults). Project and baseline are timed in alternation, map by map, in CPU time
(``time.process_time``); medians are printed.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render
from bot.engine.argoat import GAME
from render import argoat, memo

PLAYERS = ["1", "2", "3", "4", "5"]
SKIP = frozenset({"undo", "cancel", "withdraw", "decline"})
FRONTIERS = 20
View = dict[str, Any]


def game_views(seed: int, extra_steps: int = 200, cap: int = 20000) -> tuple[list[View], View]:
    """Every public view of a 5-player game, and a late one with all frontiers placed.

    Random legal play; when the Town's action is due the placement is always taken, so the map
    fills. The late view is taken ``extra_steps`` actions after the map is full (the Avatars
    have spread out); the game is then played on to its end.
    """
    options = {spec.name: spec.default for spec in GAME.option_specs}
    game = GAME.new(PLAYERS, seed, options)
    rng = random.Random(seed)
    views = [game.view(None)]
    late: View | None = None
    after = 0
    for _ in range(cap):
        prompt = game.prompt()
        if prompt is None:
            break
        view = views[-1]
        if len(view["frontiers"]) == FRONTIERS and view["phase"] == "turn":
            after += 1
            if after == extra_steps or late is None:
                late = view
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        placing = [a for a in legal if a["type"] == "place"]
        choices = placing or [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
        views.append(game.view(None))
    if late is None:
        raise SystemExit(f"seed {seed}: the map never filled; try another seed")
    return views, late


def with_previous(views: list[View]) -> list[tuple[View, View | None]]:
    """Each map with the map at its awaited player's last decision (None the first time)."""
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


def naive(view: View, previous: View | None = None) -> bytes:
    """The same picture saved the naive way: RGB, Pillow's default PNG settings."""
    buf = io.BytesIO()
    argoat.draw_board(view, previous).convert("RGB").save(buf, "PNG")
    return buf.getvalue()


def cpu_ms(fn: Callable[[], bytes]) -> tuple[float, bytes]:
    started = time.process_time()
    out = fn()
    return (time.process_time() - started) * 1000, out


def alternate(jobs: list[tuple[View, View | None]]) -> tuple[list[float], list[float], list[int], list[int]]:
    """Project and naive renders of each map, one after the other."""
    times, naive_times, sizes, naive_sizes = [], [], [], []
    for view, previous in jobs:
        ms, png = cpu_ms(lambda v=view, p=previous: argoat.render_board(v, p))
        nms, npng = cpu_ms(lambda v=view, p=previous: naive(v, p))
        times.append(ms)
        naive_times.append(nms)
        sizes.append(len(png))
        naive_sizes.append(len(npng))
    return times, naive_times, sizes, naive_sizes


def report(label: str, times: list[float], sizes: list[int]) -> None:
    print(
        f"  {label:<28} median {statistics.median(times):6.1f} ms CPU   "
        f"median {statistics.median(sizes) / 1024:6.1f} KB   max {max(sizes) / 1024:6.1f} KB"
    )


def main(argv: list[str] | None = None) -> None:
    """Play the game, render the maps and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", help="write the late map's PNG here")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--every", type=int, default=1, help="time every n-th map of the game")
    args = parser.parse_args(argv)
    views, view = game_views(args.seed)

    memo.clear_all()
    cold_ms, _ = cpu_ms(lambda: argoat.render_board(views[0]))
    memo.clear_all()
    warm_s = render.warm_up()
    first_ms, _ = cpu_ms(lambda: argoat.render_board(views[0]))
    print(
        f"cold start: first map {cold_ms:.0f} ms CPU with empty caches (palette included); "
        f"render.warm_up() {warm_s * 1000:.0f} ms, then the first map {first_ms:.0f} ms"
    )

    argoat.render_board(view)  # the late map's cards, as a live bot has them
    img = argoat.draw_board(view)
    b = view["bounds"]
    print(
        f"late-game map: seed {args.seed}, {len(view['players'])} players, "
        f"{len(view['frontiers'])} frontiers, {len(view['forests'])} Dark Forests, "
        f"{b['max_x'] - b['min_x'] + 1}x{b['max_y'] - b['min_y'] + 1} cells, "
        f"{img.width}x{img.height} px, turn {view['turn']}, {args.runs} runs"
    )
    times, naive_times, sizes, naive_sizes = alternate([(view, None)] * args.runs)
    report("render_board (palette PNG)", times, sizes)
    report("naive (RGB, default save)", naive_times, naive_sizes)

    jobs = with_previous(views)[:: args.every]
    times, naive_times, sizes, naive_sizes = alternate(jobs)
    shapes = sorted({(lay.width, lay.height) for lay in (argoat.layout(v) for v, _ in jobs)})
    print(
        f"whole game: seed {args.seed}, {len(jobs)} maps (every {args.every}. action, changes marked), "
        f"sizes seen {', '.join(f'{w}x{h}' for w, h in shapes)}"
    )
    report("render_board (palette PNG)", times, sizes)
    report("naive (RGB, default save)", naive_times, naive_sizes)
    print(
        f"  total CPU: project {sum(times) / 1000:.2f} s, naive {sum(naive_times) / 1000:.2f} s "
        f"(ratio {sum(naive_times) / sum(times):.1f}x)"
    )
    if args.out:
        Path(args.out).write_bytes(argoat.render_board(view))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
