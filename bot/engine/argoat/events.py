"""Making :class:`~bot.engine.core.Event` and :class:`~bot.engine.core.Prompt` objects quickly.

An Argoat action reports one to five events and is followed by a new prompt, and a frozen
dataclass's ``__init__`` (one ``object.__setattr__`` per field) is a noticeable part of the
cost of a whole action. When a class is the plain frozen dataclass this module expects (the
same fields in the same order, no slots, no ``__post_init__``), :func:`event` and
:func:`prompt` fill the new instance's ``__dict__`` directly, which gives an object equal to
the one the class would make; otherwise they simply call the class.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from bot.engine.core import Event, Prompt

_new = object.__new__


def _plain(cls: type, names: tuple[str, ...]) -> bool:
    """Whether ``cls`` is a frozen dataclass with exactly these fields, no slots and no
    ``__post_init__``: then an instance is its ``__dict__`` and nothing else."""
    return (tuple(f.name for f in fields(cls)) == names and "__slots__" not in vars(cls)
            and not hasattr(cls, "__post_init__"))


def _event_direct(text: str, to: str | None = None, kind: str = "info",
                  data: dict[str, Any] | None = None) -> Event:
    made = _new(Event)
    slots = made.__dict__
    slots["text"] = text
    slots["to"] = to
    slots["kind"] = kind
    slots["data"] = {} if data is None else data
    return made


def _event_checked(text: str, to: str | None = None, kind: str = "info",
                   data: dict[str, Any] | None = None) -> Event:
    return Event(text, to, kind, {} if data is None else data)


def _prompt_direct(player: str | None, text: str, others: tuple[str, ...] = (),
                   others_label: str = "", private: bool = False) -> Prompt:
    made = _new(Prompt)
    slots = made.__dict__
    slots["player"] = player
    slots["text"] = text
    slots["others"] = others
    slots["others_label"] = others_label
    slots["timeout"] = None
    slots["private"] = private
    return made


def _prompt_checked(player: str | None, text: str, others: tuple[str, ...] = (),
                    others_label: str = "", private: bool = False) -> Prompt:
    return Prompt(player, text, others=others, others_label=others_label, private=private)


def _same(made: Any, plain: Any) -> bool:
    return made == plain and vars(made) == vars(plain)


_EVENTS_DIRECT = _plain(Event, ("text", "to", "kind", "data")) and _same(
    _event_direct("t", "p", "k", {"a": 1}), Event("t", "p", "k", {"a": 1}))
_PROMPTS_DIRECT = _plain(
    Prompt, ("player", "text", "others", "others_label", "timeout", "private")) and _same(
    _prompt_direct("p", "t", ("o",), "l", True),
    Prompt("p", "t", others=("o",), others_label="l", private=True))

event = _event_direct if _EVENTS_DIRECT else _event_checked
"""``event(text, to=None, kind="info", data=None)``: an :class:`Event`, as ``Event(...)``."""
prompt = _prompt_direct if _PROMPTS_DIRECT else _prompt_checked
"""``prompt(player, text, others=(), others_label="", private=False)``: a :class:`Prompt`
without a timeout, as ``Prompt(...)``."""
