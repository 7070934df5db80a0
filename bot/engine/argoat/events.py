"""Making :class:`~bot.engine.core.Event` objects quickly.

An Argoat action reports one to five events, and a frozen dataclass's ``__init__`` (one
``object.__setattr__`` per field) is a noticeable part of the cost of a whole action. When
``Event`` is the plain frozen dataclass this module expects (fields ``text``, ``to``, ``kind``,
``data``; no slots, no ``__post_init__``), :func:`event` fills the instance's ``__dict__``
directly, which gives an equal object; otherwise it simply calls ``Event``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from bot.engine.core import Event

_FIELDS = ("text", "to", "kind", "data")


def _checked(text: str, to: str | None = None, kind: str = "info",
             data: dict[str, Any] | None = None) -> Event:
    return Event(text, to, kind, {} if data is None else data)


_new = object.__new__


def _direct(text: str, to: str | None = None, kind: str = "info",
            data: dict[str, Any] | None = None) -> Event:
    made = _new(Event)
    slots = made.__dict__
    slots["text"] = text
    slots["to"] = to
    slots["kind"] = kind
    slots["data"] = {} if data is None else data
    return made


def _direct_works() -> bool:
    """Whether :func:`_direct` builds exactly what ``Event(...)`` builds."""
    if tuple(f.name for f in fields(Event)) != _FIELDS or hasattr(Event, "__post_init__"):
        return False
    if "__slots__" in vars(Event):
        return False
    try:
        made = _direct("t", "p", "k", {"a": 1})
    except (AttributeError, TypeError):  # pragma: no cover - a different Event
        return False
    return made == Event("t", "p", "k", {"a": 1}) and vars(made) == vars(
        Event("t", "p", "k", {"a": 1}))


event = _direct if _direct_works() else _checked
"""``event(text, to=None, kind="info", data=None)``: an :class:`Event`, as ``Event(...)``."""
