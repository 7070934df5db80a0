"""Short constructors for the :class:`~bot.engine.core.Event` and
:class:`~bot.engine.core.Prompt` objects the Argoat engine makes on every action."""

from __future__ import annotations

from typing import Any

from bot.engine.core import Event, Prompt


def event(text: str, to: str | None = None, kind: str = "info", data: dict[str, Any] | None = None) -> Event:
    """An :class:`Event` (``data`` defaults to an empty dict)."""
    return Event(text, to, kind, {} if data is None else data)


def prompt(
    player: str | None,
    text: str,
    others: tuple[str, ...] = (),
    others_label: str = "",
    private: bool = False,
    secret_verbs: tuple[str, ...] = (),
    secret_label: str = "",
) -> Prompt:
    """A :class:`Prompt` without a timeout."""
    return Prompt(player, text, others, others_label, None, private, "", secret_verbs, secret_label)
