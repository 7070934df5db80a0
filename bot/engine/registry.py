"""Which games exist: every ``bot.engine`` subpackage that exposes a ``GAME`` class."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable

from bot import engine
from bot.engine.core import Game


def discover() -> list[type[Game]]:
    """Every game class shipped under ``bot.engine`` (a subpackage with a ``GAME`` attribute)."""
    found: list[type[Game]] = []
    for info in pkgutil.iter_modules(engine.__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{engine.__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, type) and issubclass(game, Game):
            found.append(game)
    return sorted(found, key=lambda g: g.name)


class GameRegistry:
    """Games by name, case-insensitive."""

    def __init__(self, games: Iterable[type[Game]]) -> None:
        self._games = {g.name.lower(): g for g in games}

    def get(self, name: str) -> type[Game] | None:
        """The game called ``name`` (any case), or None."""
        return self._games.get(name.strip().lower())

    def names(self) -> list[str]:
        """Display names of all games, sorted."""
        return sorted(g.name for g in self._games.values())
