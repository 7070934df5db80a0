"""Benchmark: render cost and PNG size of Argoat maps, the project next to a naive baseline.

Run ``python bench/argoat_render.py [--runs N] [--seed S] [OUT.png]`` from the repository root.

1. A late-game 5-player map: a seeded random game played until every frontier is on the map
   (placing any that are left through the engine's own legal placements), rendered N times.
2. The whole game: the map after every action, each with the changes since the awaited
   player's last decision marked, as the bot posts them.
3. A cold start, each figure from a fresh process (``bench/render_cold.py``): the first map
   drawn with nothing built (palette included), and ``render.warm_up()``.

Timed in alternation, map by map, in CPU time (``time.process_time``), medians printed:

* ``render_board``: the project, composed straight on the fixed palette, its PNG put together
  from compressed bands of rows cached between maps (render/png_bands.py);
* ``RGB, then palette``: the way before issue 25, the same map drawn in RGB and mapped onto the
  palette before the same encode (``draw_board(..., rgb=True)``);
* ``naive``: the RGB picture saved with Pillow's defaults (``img.convert("RGB").save(buf, "PNG")``);
* the floor: one palette PNG encode of the finished picture by Pillow (``argoat.encode``, the
  same ``compress_level``), what a renderer encoding each picture afresh cannot avoid ("x floor"
  is a way's CPU time over it; ``render_board`` goes under it by not compressing again the bands
  it compressed for an earlier map);
* with ``--against DIR``: ``render_board`` of another copy of the render package (``DIR`` is
  its folder, e.g. ``git archive main render | tar -x -C /tmp/main`` gives ``/tmp/main/render``),
  loaded beside this one and timed in the same alternation, so two versions are compared in
  one process on the same maps.
"""

from __future__ import annotations

import argparse
import importlib.util
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
from bench.render_cold import cold_start
from bot.engine.argoat import GAME
from render import argoat
from render.argoat_palette import drawing_palette

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
    argoat.draw_board(view, previous, rgb=True).save(buf, "PNG")
    return buf.getvalue()


def rgb_then_palette(view: View, previous: View | None = None) -> bytes:
    """The renderer before issue 25: the map drawn in RGB, mapped onto the palette, encoded."""
    img = drawing_palette().quantize(argoat.draw_board(view, previous, rgb=True))
    return argoat.encode(img)


def floor(view: View, previous: View | None = None) -> Callable[[], bytes]:
    """The floor's work for a map: encoding the finished palette picture (drawn beforehand)."""
    img = argoat.draw_board(view, previous)
    return lambda: argoat.encode(img)


def load_other(folder: str) -> Callable[[View, View | None], bytes]:
    """``argoat.render_board`` of the render package in ``folder``, loaded as ``render_other``
    (its Argoat modules import each other relatively, so they do not mix with this copy), warmed."""
    init = Path(folder) / "__init__.py"
    spec = importlib.util.spec_from_file_location("render_other", init, submodule_search_locations=[folder])
    if spec is None or spec.loader is None:
        raise SystemExit(f"no render package in {folder}")
    package = importlib.util.module_from_spec(spec)
    sys.modules["render_other"] = package
    spec.loader.exec_module(package)
    importlib.import_module("render_other.argoat_warm").warm_up()
    return importlib.import_module("render_other.argoat").render_board  # type: ignore[no-any-return]


def cpu_ms(fn: Callable[[], bytes]) -> tuple[float, bytes]:
    started = time.process_time()
    out = fn()
    return (time.process_time() - started) * 1000, out


WAYS: dict[str, Callable[[View, View | None], bytes]] = {
    "render_board (palette PNG)": argoat.render_board,
    "RGB, then palette (before)": rgb_then_palette,
    "naive (RGB, default save)": naive,
}


def alternate(
    jobs: list[tuple[View, View | None]],
) -> tuple[dict[str, list[float]], dict[str, list[int]], list[float]]:
    """Every way's render of each map, one after the other (the first way changing from map
    to map), and the floor of each map."""
    times: dict[str, list[float]] = {name: [] for name in WAYS}
    sizes: dict[str, list[int]] = {name: [] for name in WAYS}
    floors = []
    names = list(WAYS)
    for i, (view, previous) in enumerate(jobs):  # who goes first (and builds shared sprites) rotates
        for name in names[i % len(names) :] + names[: i % len(names)]:
            way = WAYS[name]
            ms, png = cpu_ms(lambda v=view, p=previous, w=way: w(v, p))
            times[name].append(ms)
            sizes[name].append(len(png))
        floors.append(cpu_ms(floor(view, previous))[0])
    return times, sizes, floors


def report(times: dict[str, list[float]], sizes: dict[str, list[int]], floors: list[float]) -> None:
    for name in WAYS:
        print(
            f"  {name:<28} median {statistics.median(times[name]):6.1f} ms CPU   "
            f"median {statistics.median(sizes[name]) / 1024:6.1f} KB   "
            f"max {max(sizes[name]) / 1024:6.1f} KB   "
            f"{sum(times[name]) / sum(floors):4.2f}x floor"
        )
    print(f"  {'floor (palette PNG encode)':<28} median {statistics.median(floors):6.1f} ms CPU")


def main(argv: list[str] | None = None) -> None:
    """Play the game, render the maps and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", help="write the late map's PNG here")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--every", type=int, default=1, help="time every n-th map of the game")
    parser.add_argument("--against", metavar="DIR", help="also time the render package in DIR")
    args = parser.parse_args(argv)
    if args.against:
        WAYS["render_board of --against"] = load_other(args.against)
    views, view = game_views(args.seed)

    print(cold_start("argoat"))
    render.warm_up()

    argoat.render_board(view)  # the late map's cards, as a live bot has them
    img = argoat.draw_board(view)
    b = view["bounds"]
    print(
        f"late-game map: seed {args.seed}, {len(view['players'])} players, "
        f"{len(view['frontiers'])} frontiers, {len(view['forests'])} Dark Forests, "
        f"{b['max_x'] - b['min_x'] + 1}x{b['max_y'] - b['min_y'] + 1} cells, "
        f"{img.width}x{img.height} px, turn {view['turn']}, {args.runs} runs"
    )
    report(*alternate([(view, None)] * args.runs))

    jobs = with_previous(views)[:: args.every]
    times, sizes, floors = alternate(jobs)
    shapes = sorted({(lay.width, lay.height) for lay in (argoat.layout(v) for v, _ in jobs)})
    print(
        f"whole game: seed {args.seed}, {len(jobs)} maps (every {args.every}. action, changes marked), "
        f"sizes seen {', '.join(f'{w}x{h}' for w, h in shapes)}"
    )
    report(times, sizes, floors)
    project, before, plain = (sum(times[name]) / 1000 for name in list(WAYS)[:3])
    print(
        f"  total CPU: project {project:.2f} s, RGB then palette {before:.2f} s "
        f"(ratio {before / project:.2f}x), naive {plain:.2f} s (ratio {plain / project:.1f}x)"
    )
    if args.out:
        Path(args.out).write_bytes(argoat.render_board(view))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
