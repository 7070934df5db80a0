"""Benchmark: render time and PNG size of a late-game Argoat map.

Run ``python bench/argoat_render.py [--runs N] [--seed S] [OUT.png]`` from the repository root.
It plays a seeded random 5-player game until every frontier is on the map (placing any that
are left through the engine's own legal placements), renders that public view N times and
prints the median time and the PNG size, next to the naive baseline: the same picture saved
with Pillow's default RGB PNG settings (``img.convert("RGB").save(buf, "PNG")``).
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

from bot.engine.argoat import GAME
from render import argoat

PLAYERS = ["1", "2", "3", "4", "5"]
SKIP = frozenset({"undo", "cancel", "withdraw", "decline"})
FRONTIERS = 20


def late_game_view(seed: int, extra_steps: int = 200, cap: int = 20000) -> dict[str, Any]:
    """The public view of a 5-player game with all frontiers placed, still being played.

    Random legal play until the Discovery Deck is empty; when the Town's action is due the
    placement is always taken, so the map fills. Then ``extra_steps`` more actions are played
    (stopping before the game ends) so the Avatars have spread out.
    """
    options = {spec.name: spec.default for spec in GAME.option_specs}
    game = GAME.new(PLAYERS, seed, options)
    rng = random.Random(seed)
    last: dict[str, Any] | None = None
    after = 0
    for _ in range(cap):
        prompt = game.prompt()
        if prompt is None:
            break
        view = game.view(None)
        full = len(view["frontiers"]) == FRONTIERS and view["phase"] == "turn"
        if full:
            last = view
            after += 1
            if after > extra_steps:
                break
        deciders = prompt.deciders()
        player = rng.choice(deciders)
        legal = game.legal_actions(player)
        placing = [a for a in legal if a["type"] == "place"]
        choices = placing or [a for a in legal if a["type"] not in SKIP] or legal
        game.apply(player, rng.choice(choices))
    if last is None:
        raise SystemExit(f"seed {seed}: the map never filled; try another seed")
    return last


def _median_ms(fn: Callable[[], bytes], runs: int) -> tuple[float, bytes]:
    times = []
    out = b""
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, out


def _naive(view: dict[str, Any]) -> bytes:
    img = argoat.draw_board(view)
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "PNG")
    return buf.getvalue()


def main(argv: list[str] | None = None) -> None:
    """Render the late-game map and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", help="write the PNG here")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    view = late_game_view(args.seed)
    img = argoat.draw_board(view)
    argoat.render_board(view)  # warm the sprite caches and the palette, as a live bot is
    b = view["bounds"]
    print(
        f"late-game map: seed {args.seed}, {len(view['players'])} players, "
        f"{len(view['frontiers'])} frontiers, {len(view['forests'])} Dark Forests, "
        f"{b['max_x'] - b['min_x'] + 1}x{b['max_y'] - b['min_y'] + 1} cells, "
        f"{img.width}x{img.height} px, turn {view['turn']}"
    )
    ms, png = _median_ms(lambda: argoat.render_board(view), args.runs)
    draw_ms, _ = _median_ms(lambda: argoat.draw_board(view).tobytes()[:0], args.runs)
    naive_ms, naive = _median_ms(lambda: _naive(view), max(5, args.runs // 5))
    print(
        f"render_board (palette PNG):  median {ms:6.1f} ms, {len(png) / 1024:6.1f} KB "
        f"(of which drawing {draw_ms:.1f} ms)"
    )
    print(
        f"naive (default RGB PNG save): median {naive_ms:6.1f} ms, "
        f"{len(naive) / 1024:6.1f} KB (same drawing, then img.convert('RGB').save(buf, 'PNG'))"
    )
    print("target: <= 25 ms and <= 300 KB")
    if args.out:
        Path(args.out).write_bytes(png)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
