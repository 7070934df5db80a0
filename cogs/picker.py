"""Choosing an action step by step from the tokens of its notation (no Discord objects here).

The legal actions of a player form a tree of notation tokens ("move" → "Grunt" → "C4").
A position in that tree is a *path*: the index of the option chosen at each step. Paths are
stable for one state version, so components can carry them in their custom ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine.core import Action, Game

DONE = "✔ done"
"""The option that stops at the tokens chosen so far, when they already form an action."""

PAGE_SIZE = 25


class StalePath(Exception):
    """A path that does not lead anywhere among the current legal actions."""


@dataclass(frozen=True)
class Step:
    """A point in the choice: tokens chosen so far and the options for the next token."""

    path: tuple[int, ...]
    tokens: tuple[str, ...]
    options: tuple[str, ...]

    def page(self, number: int) -> tuple[int, list[str]]:
        """The first index and the options shown on page ``number`` of a select menu."""
        start = number * PAGE_SIZE
        return start, list(self.options[start : start + PAGE_SIZE])

    @property
    def pages(self) -> int:
        """How many select pages the options fill."""
        return max(1, -(-len(self.options) // PAGE_SIZE))


class ActionTree:
    """The legal actions of one player at one moment, arranged by notation tokens."""

    def __init__(self, game: Game, player: str) -> None:
        self._entries: list[tuple[tuple[str, ...], Action]] = [
            (tuple(game.notation(action).split()), action) for action in game.legal_actions(player)
        ]
        self._complete = {tokens: action for tokens, action in self._entries}

    def __bool__(self) -> bool:
        return bool(self._entries)

    def _options(self, tokens: tuple[str, ...]) -> tuple[str, ...]:
        depth = len(tokens)
        seen: dict[str, None] = {}
        for entry, _ in self._entries:
            if len(entry) > depth and entry[:depth] == tokens:
                seen.setdefault(entry[depth], None)
        nexts = tuple(seen)
        if tokens in self._complete and nexts:
            return (DONE, *nexts)
        return nexts

    def _descend(self, tokens: tuple[str, ...]) -> tuple[str, ...]:
        """Skip steps with a single way on that is not itself a complete action."""
        while True:
            options = self._options(tokens)
            if len(options) != 1 or options[0] == DONE:
                return tokens
            following = (*tokens, options[0])
            if following in self._complete:
                return tokens
            tokens = following

    def walk(self, path: Sequence[int]) -> Step | Action:
        """Follow ``path``: the Step reached, or the action it completes. StalePath if invalid."""
        tokens = self._descend(())
        for depth, index in enumerate(path):
            options = self._options(tokens)
            if not 0 <= index < len(options):
                raise StalePath()
            chosen = options[index]
            if chosen == DONE:
                if depth != len(path) - 1:
                    raise StalePath()
                return self._complete[tokens]
            tokens = (*tokens, chosen)
            if tokens in self._complete and not self._options(tokens):
                if depth != len(path) - 1:
                    raise StalePath()
                return self._complete[tokens]
            tokens = self._descend(tokens)
        if not self._options(tokens):
            raise StalePath()
        return Step(tuple(path), tokens, self._options(tokens))

    def matching(self, text: str, limit: int = 25) -> list[str]:
        """Notations for autocomplete: those starting with ``text`` first, then those containing
        every word of it, each group in legal order."""
        typed = " ".join(text.lower().split())
        words = typed.split()
        notations = [" ".join(tokens) for tokens, _ in self._entries]
        starting = [n for n in notations if n.lower().startswith(typed)]
        containing = [n for n in notations if n not in starting and all(word in n.lower() for word in words)]
        return (starting + containing)[:limit]


def encode_path(path: Sequence[int]) -> str:
    """A path as it appears in a custom id ("3.0.12"; empty for the root)."""
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> tuple[int, ...]:
    """The path written by :func:`encode_path`; StalePath if ``text`` is not one."""
    try:
        return tuple(int(part) for part in text.split(".")) if text else ()
    except ValueError:
        raise StalePath() from None
