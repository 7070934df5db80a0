"""Menu options in words: the label and description each picker option shows.

The engine says what an option means (``Game.choice_words``); this module fits the words to
Discord's limits and names players by seat colour (a label cannot show a mention). The raw
notation stays for typing (``/game play``) and for logs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from bot.engine.core import Game, format_text
from cogs.picker import DONE

BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
"""Discord's limits: button label, select option label and select option description."""

DONE_WORDS = "Stop here, with what is chosen so far."

Words = Callable[[tuple[str, ...], str], tuple[str, str]]
"""(tokens chosen so far, option) -> (label, description)."""

_JOINERS = {"\u200d", "\ufe0f", "\ufe0e"}


def fit(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis, never leaving half an
    emoji (a dangling joiner or variation selector) or a combining mark without its letter."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    while cut and (cut[-1] in _JOINERS or unicodedata.combining(cut[-1])):
        cut = cut[:-1]
    return cut.rstrip() + "…"


def raw_words(tokens: tuple[str, ...], option: str) -> tuple[str, str]:
    """The option as its notation token(s), no description (when no game is at hand)."""
    return option, ""


def colour_names(view: dict[str, Any]) -> dict[str, str]:
    """Each player named by seat colour, from a public view ("Blue")."""
    return {p["id"]: str(p.get("colour") or p["id"]) for p in view.get("players", []) if "id" in p}


def words_for(game: Game, player: str, names: dict[str, str]) -> Words:
    """The words of ``player``'s options in ``game`` now, players named by ``names``."""

    def words(tokens: tuple[str, ...], option: str) -> tuple[str, str]:
        if option == DONE:
            return DONE, DONE_WORDS
        label, description = game.choice_words(player, tuple(tokens), tuple(option.split()))
        label = fit(format_text(label, names), OPTION_LABEL) or option
        return label, fit(format_text(description, names), OPTION_DESCRIPTION)

    return words


def choosing(words: Words, tokens: tuple[str, ...]) -> str:
    """The line saying what has been chosen so far, in words: "Choosing: **🚶 Move …**" (the
    notation stays out of sight, as on the buttons)."""
    so_far, _ = words((), " ".join(tokens))
    return f"Choosing: **{so_far} …**"
