"""The table host: lobbies, seats and their holders, and applying actions under a per-channel lock,
persisted with the table's deadlines. One job a module: ``bot.table`` (what it hands out),
``bot.locks``, ``bot.host_core`` (cache, saving, reading, bookkeeping), ``bot.lobby``, ``bot.play``,
``bot.handovers`` (seats during a game), ``bot.deadlines`` and ``bot.tending`` (time)."""

from __future__ import annotations

from bot.deadlines import ONLY_CHOICE, only_choice
from bot.handovers import HandOvers
from bot.lobby import Lobby, split_settings
from bot.locks import ChannelLock
from bot.play import TYPED_REPEAT_SECONDS, Play, Typed
from bot.table import NOT_SAVED, STORE_DOWN, ChangedSince, Outcome, OutOfDate, Table, TableError


class TableHost(Lobby, Play, HandOvers):
    """Owns every table: its lobby, its play, who holds its seats, its deadlines (see the module
    docstring for where each part lives)."""


__all__ = [
    "NOT_SAVED",
    "ONLY_CHOICE",
    "STORE_DOWN",
    "TYPED_REPEAT_SECONDS",
    "ChangedSince",
    "ChannelLock",
    "OutOfDate",
    "Outcome",
    "Table",
    "TableError",
    "TableHost",
    "Typed",
    "only_choice",
    "split_settings",
]
