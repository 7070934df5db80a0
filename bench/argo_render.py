"""Benchmark: render a late-game 4-player Argo board.

Run ``python bench/argo_render.py [out.png] [runs] [seed]`` from the repository root. Builds a
late-game board (a full or nearly full station) by seeded random play, renders it ``runs`` times
(after one warm-up render that fills the sprite caches) and prints the median time and PNG size,
and the same figures for Pillow's default RGB PNG save of the same image, the naive baseline.
Writes the board to ``out.png`` when given.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.argo import GAME
from bot.engine.core import SYSTEM, TIMEOUT
from render.argo import draw_board, render_board


def late_view(seed: int, players: int = 4) -> dict[str, Any]:
    """The public view with the most tiles (latest first) seen in a seeded random game."""
    game = GAME.new([str(i + 1) for i in range(players)], seed, {})
    rng = random.Random(seed)
    best = game.view(None)
    for _ in range(20000):
        if game.result() is not None:
            break
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            continue
        who = deciders[0]
        options = game.legal_actions(who)
        plain = [a for a in options if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(plain or options))
        view = game.view(None)
        if len(view["tiles"]) >= len(best["tiles"]) and not view["finished"]:
            best = view
    return best


def _median_ms(fn: Any, runs: int) -> tuple[float, Any]:
    times = []
    out = None
    for _ in range(runs):
        started = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), out


def main() -> None:
    """Build the board, time both encodings and print the figures."""
    out = sys.argv[1] if len(sys.argv) > 1 else None
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    view = late_view(seed)
    render_board(view)  # warm the sprite caches
    ms, png = _median_ms(lambda: render_board(view), runs)
    img = draw_board(view)

    def naive() -> bytes:
        buf = io.BytesIO()
        draw_board(view).convert("RGB").save(buf, "PNG")
        return buf.getvalue()

    def naive_save() -> None:
        img.convert("RGB").save(io.BytesIO(), "PNG")

    naive_ms, naive_png = _median_ms(naive, max(5, runs // 3))
    draw_ms, _ = _median_ms(lambda: draw_board(view), runs)
    save_ms, _ = _median_ms(naive_save, max(5, runs // 3))
    print(
        f"late-game board: seed {seed}, {len(view['players'])} players, {len(view['tiles'])} tiles, "
        f"stack {view['stack_size']}, {img.width}x{img.height} px, {runs} runs"
    )
    print(f"render_board (palette PNG)     median {ms:6.1f} ms  {len(png) / 1024:6.1f} KB")
    print(f"naive: default RGB PNG save    median {naive_ms:6.1f} ms  {len(naive_png) / 1024:6.1f} KB")
    print(f"  of which: drawing {draw_ms:.1f} ms; RGB convert + default save {save_ms:.1f} ms")
    if out:
        Path(out).write_bytes(png)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
