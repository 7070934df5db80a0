"""Pillow drawing of public game views. A game ``X`` is drawn by ``render.x.render_board(view)``."""

from __future__ import annotations

import importlib
from typing import Any


def board_png(view: dict[str, Any]) -> bytes | None:
    """The PNG picture of a public view, or None if this game has no renderer."""
    name = str(view.get("game", "")).lower()
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise  # the renderer exists but something it needs is missing
        return None
    return module.render_board(view)
