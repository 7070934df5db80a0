"""Cold start of the renderers, each figure from a fresh Python process.

Run ``python bench/render_cold.py [argo|argoat] [--runs 3]``; ``bench/argo_render.py`` and
``bench/argoat_render.py`` print the same figures. A process that has already drawn (or even
just used Pillow) has loaded fonts, plugins and code a real bot has not at its first board, so
every figure here comes from a new process (``python bench/render_cold.py GAME --child MODE``):

* ``cold``: the first board of a new game with nothing built yet (fonts, sprites, palette);
* ``warm``: ``render.warm_up()`` (what the bot's board workers do as they start), then that
  first board.

Only the drawing is timed (CPU time of the process, ``time.process_time``); importing the
modules and making the game come before. Medians of ``--runs`` processes are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"argo": 4, "argoat": 5}


def child(game: str, mode: str) -> dict[str, float]:
    """Runs in the fresh process: time the first board (after ``warm_up()`` in mode ``warm``)."""
    sys.path.insert(0, str(ROOT))
    import render
    from bot.engine.registry import GameRegistry, discover

    cls = GameRegistry(discover()).get(game.capitalize())
    assert cls is not None
    options = {spec.name: spec.default for spec in cls.option_specs}
    view = cls.new([str(i + 1) for i in range(PLAYERS[game])], 1, options).view(None)
    out: dict[str, float] = {}
    if mode == "warm":
        started = time.process_time()
        render.warm_up()
        out["warm_up_ms"] = (time.process_time() - started) * 1000
    started = time.process_time()
    png = render.board_png(view)
    out["first_board_ms"] = (time.process_time() - started) * 1000
    assert png
    return out


def fresh(game: str, mode: str) -> dict[str, float]:
    """One figure from a new process."""
    done = subprocess.run(
        [sys.executable, __file__, game, "--child", mode],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def cold_start(game: str, runs: int = 3) -> str:
    """The cold-start line of a render bench: medians over ``runs`` fresh processes each."""
    cold = [fresh(game, "cold")["first_board_ms"] for _ in range(runs)]
    warm = [fresh(game, "warm") for _ in range(runs)]
    med = statistics.median
    return (
        f"cold start (fresh processes, median of {runs}): first board {med(cold):.0f} ms CPU with "
        f"nothing built; render.warm_up() {med(w['warm_up_ms'] for w in warm):.0f} ms, then the first "
        f"board {med(w['first_board_ms'] for w in warm):.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", choices=("cold", "warm"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.game, args.child)))
    else:
        print(cold_start(args.game, args.runs))


if __name__ == "__main__":
    main()
