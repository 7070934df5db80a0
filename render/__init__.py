"""Pillow drawing of public game views. A game ``X`` is drawn by ``render.x.render_board(view)``.

``board_png(view, previous)`` is the picture the bot posts; ``warm_up()`` builds the palettes,
fonts and sprite caches ahead of the first board. Sprite caches are safe to share between
threads (render/memo.py), so boards may be drawn in worker threads, two at once.
Layout, sizes and change marks: docs/boards.md.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

GAMES = ("argo", "argoat")
"""The games with a renderer (module ``render.<name>``)."""


def _renderer(view: dict[str, Any]) -> ModuleType | None:
    name = str(view.get("game", "")).lower()
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise  # the renderer exists but something it needs is missing
        return None


def board_png(view: dict[str, Any], previous: dict[str, Any] | None = None) -> bytes | None:
    """The PNG picture of a public view, or None if this game has no renderer.

    ``previous`` is an earlier public view of the same game (the board at the awaited player's
    last decision): what changed since then is marked on the picture. ``None`` marks nothing.
    """
    module = _renderer(view)
    if module is None:
        return None
    return module.render_board(view, previous)


def board_images(view: dict[str, Any], previous: dict[str, Any] | None = None) -> list[tuple[str, bytes]]:
    """The pictures to attach for a view, as ``(filename, png)``: one board, ``board.png``
    (docs/boards.md says why it is one image and not two); empty if the game has no renderer."""
    png = board_png(view, previous)
    return [("board.png", png)] if png else []


_warmed: int | None = None
"""The :func:`memo.clearings` count when the caches were last warmed (None: never)."""


def warm_up() -> float:
    """Build every palette, font and the sprites an ordinary board uses, so the first board
    drawn after start-up is as fast as the next ones. Returns the seconds it took (CPU time).
    Safe to call more than once and from any thread (later calls do nothing until
    :func:`memo.clear_all` empties the caches)."""
    import time

    from render import memo

    global _warmed
    if _warmed == memo.clearings():
        return 0.0
    started = time.process_time()
    for name in GAMES:
        importlib.import_module(f"{__name__}.{name}_warm").warm_up()
    _warmed = memo.clearings()
    return time.process_time() - started
