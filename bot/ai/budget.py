"""A bot's thinking time for a whole turn, shared among the turn's decisions by need.

A level gives a bot a *turn budget*: wall-clock seconds for everything it decides in one turn
(Argo: the Alien, the build, two actions and their pushes; Argoat: its steps, trades and Frontier
Action). Each decision takes a share of what is left of it (:func:`allotment`): its own need (how
wide its root is) against the need the game expects of the rest of the turn. A decision with one
legal action takes nothing; a search that is decided early (its best move cannot be overtaken in
the time left) stops and leaves the rest to the decisions after it. The host keeps what each bot
seat has spent this turn in a :class:`TurnLedger`. See docs/ai.md, "Time".
"""

from __future__ import annotations

import math
from collections.abc import Hashable

FLOOR_SHARE = 0.05
"""A decision searches at least this share of the level's turn budget, even when the turn's
budget is spent (a long turn still gets sensible moves, just quick ones)."""


def need(options: int) -> float:
    """How much a decision with ``options`` root moves needs, relative to other decisions: the
    square root of its width (a 45-way build needs about three times a 5-way push)."""
    return math.sqrt(max(1, options))


def allotment(turn_left_s: float, now: float, later: float, turn_budget_s: float) -> float:
    """The seconds a decision of need ``now`` may search when ``turn_left_s`` of the turn's budget
    is left and the rest of the turn is expected to need ``later``: its share of what is left,
    and at least :data:`FLOOR_SHARE` of the whole turn's budget."""
    share = now / (now + later) if now + later > 0 else 1.0
    return max(turn_left_s * share, FLOOR_SHARE * turn_budget_s)


class TurnLedger:
    """What each bot seat of each table has spent of its turn budget in the turn it is in.

    Keyed by the table and the seat; a seat's entry is for one turn (``turn``: the game's turn
    number) and starts afresh when the turn changes."""

    def __init__(self) -> None:
        self._spent: dict[tuple[Hashable, str], tuple[Hashable, float]] = {}

    def spent(self, table: Hashable, seat: str, turn: Hashable) -> float:
        """Seconds ``seat`` has spent deciding in ``turn`` at ``table`` so far."""
        entry = self._spent.get((table, seat))
        return entry[1] if entry is not None and entry[0] == turn else 0.0

    def left(self, table: Hashable, seat: str, turn: Hashable, budget_s: float) -> float:
        """What is left of a turn budget of ``budget_s`` (never below 0)."""
        return max(0.0, budget_s - self.spent(table, seat, turn))

    def spend(self, table: Hashable, seat: str, turn: Hashable, seconds: float) -> None:
        """Count ``seconds`` of deciding against ``seat``'s ``turn``."""
        self._spent[(table, seat)] = (turn, self.spent(table, seat, turn) + max(0.0, seconds))

    def forget(self, table: Hashable) -> None:
        """Drop every entry of ``table`` (it finished, or left this process's memory)."""
        for key in [k for k in self._spent if k[0] == table]:
            del self._spent[key]
