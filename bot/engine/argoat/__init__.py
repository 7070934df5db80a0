"""Argoat: a pure, deterministic rules engine (frontiers, Bleina, Items, trades, Dark Forests).

The registry finds the game through :data:`GAME`.
"""

from __future__ import annotations

from .game import ArgoatGame

GAME = ArgoatGame

__all__ = ["GAME", "ArgoatGame"]
