"""Argo: escape the Alien-infested station. ``GAME`` is the engine class the registry finds."""

from bot.engine.argo.game import ArgoGame

GAME = ArgoGame

__all__ = ["GAME", "ArgoGame"]
