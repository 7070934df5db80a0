"""Action notation: space-separated tokens, verb first, then coarse to fine.

Verbs (first tokens): ``move``, ``use``, ``trade``, ``end``, ``place``, ``accept``,
``decline``, ``withdraw``, ``cancel``, ``undo``. See ``docs/argoat-notation.md``.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core import Action

from .data import FRAGMENT_BY_KEY, ITEM_BY_KEY

VERBS: tuple[str, ...] = (
    "move",
    "use",
    "trade",
    "end",
    "place",
    "accept",
    "decline",
    "withdraw",
    "cancel",
    "undo",
)


def word(value: str) -> str:
    """The token for an Item key, a Fragment key, or anything else unchanged."""
    if value in ITEM_BY_KEY:
        return ITEM_BY_KEY[value].token
    if value in FRAGMENT_BY_KEY:
        return FRAGMENT_BY_KEY[value].token
    return value


def notation(action: Action, colour_of: Callable[[str], str]) -> str:
    """The notation of ``action``; ``colour_of`` names a player by seat colour."""
    kind: str = action["type"]
    if kind == "move":
        return f"move {action['dir']}"
    if kind == "bleina":
        return "move bleina " + " ".join(action["path"])
    if kind == "use":
        target = action.get("target")
        text = f"use {word(action['item'])}"
        return text if target is None else f"{text} {word(target)}"
    if kind == "trade":
        return f"trade {colour_of(action['with'])}"
    if kind == "trade_part":
        text = f"trade {action['side']} {action['what']}"
        which = action.get("which")
        return text if which is None else f"{text} {word(which)}"
    if kind == "propose":
        return "trade propose"
    if kind == "accept":
        return " ".join(["accept", *(word(k) for k in action.get("items", []))])
    if kind == "end":
        choice = action.get("choice")
        return "end" if choice is None else f"end {word(choice)}"
    if kind == "place":
        return f"place {action['at']}"
    if kind in ("decline", "withdraw", "cancel", "undo"):
        return kind
    raise ValueError(f"unknown action type {kind!r}")
