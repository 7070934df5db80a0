"""Argo: escape the Alien-infested station. ``GAME`` is the engine class the registry finds."""

from bot.engine.argo.game import ArgoGame

GAME = ArgoGame

COMPILED: bool = not __file__.endswith(".py")
"""True when this package runs compiled by mypyc (``ARGO_COMPILE=1`` at install, see setup.py)."""

__all__ = ["COMPILED", "GAME", "ArgoGame"]
