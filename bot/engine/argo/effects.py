"""Resolving actions: the context of one resolution and the effects every rule shares
(deaths, kills, launches, the end of the game).

An action is resolved on a copy of the state. When the rules hand the acting player a decision
(whom to push, where to teleport, whom an Alien kills...) the resolution asks
:meth:`Ctx.choose`; the answer comes from the choices already made, or the resolution stops with
:class:`NeedDecision`. Re-running with one more choice continues, so a multi-step action is a
root action plus its choices, and cancelling it is forgetting them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.engine.argo import station
from bot.engine.argo.data import (
    CHIEF,
    GRUNT,
    POD,
    ROBOT,
    TILES,
)
from bot.engine.argo.state import ESCAPED, TRACK, State
from bot.engine.argo.text import astro, owner, place, place_first, role, who
from bot.engine.core import Action, Event


class NeedDecision(Exception):
    """The resolution needs a decision that has not been made yet."""

    def __init__(
        self,
        options: list[Action],
        text: str,
        safe: bool,
        checked: bool,
        feasible: list[Action] | None = None,
    ) -> None:
        super().__init__(text)
        self.options = options
        self.text = text
        self.safe = safe
        """Every option leads equally to a complete resolution (no need to test them all)."""
        self.checked = checked
        """The options were already tested for a complete resolution."""
        self.feasible = feasible
        """When known, the options (in order) after which the resolution can be completed, found
        by a cheap test of the rest of a push chain or teleport instead of running it."""


class Infeasible(Exception):
    """This line of choices cannot be completed (e.g. a push into a dead end)."""


class GameOver(Exception):
    """The game ended in the middle of a resolution; the state says how."""


class Ctx:
    """One resolution in progress: the scratch state, the actor, the choices, the events."""

    __slots__ = (
        "actor",
        "alien_ids",
        "alien_pushed",
        "choices",
        "events",
        "i",
        "pushed",
        "revealed",
        "st",
        "tell",
        "tm",
    )

    def __init__(self, st: State, actor: int, choices: list[Action], tm: bool, tell: bool = True) -> None:
        self.st = st
        self.actor = actor
        self.choices = choices
        self.i = 0
        self.events: list[Event] = []
        self.pushed: set[int] = set()
        self.alien_ids: dict[int, int] = {}
        self.alien_pushed: set[int] = set()
        self.revealed = False
        self.tm = tm
        self.tell = tell
        """Whether events are recorded (``emit`` is only called when it is: their texts are
        not even put together for a search's copy of the game, which nobody reads)."""

    def choose(
        self,
        options: list[Action],
        text: str | Callable[[], str],
        safe: bool = False,
        checked: bool = False,
        check: Callable[[Action], bool] | None = None,
    ) -> Action:
        """The next decision among ``options`` (a single option is taken without asking).

        ``text`` may be given as a function, called only when the decision must be asked;
        ``check`` (optional) tells whether the resolution can be completed after an option."""
        if not options:
            raise Infeasible()
        if len(options) == 1:
            return options[0]
        if self.i < len(self.choices):
            choice = self.choices[self.i]
            self.i += 1
            return choice
        if not isinstance(text, str):
            text = text() if self.tell else ""
        feasible = None if check is None else [o for o in options if check(o)]
        raise NeedDecision(options, text, safe, checked, feasible)

    def emit(self, text: str, kind: str, **data: Any) -> None:
        """Record a public event."""
        self.events.append(Event(text, None, kind, data))

    def score(self, seat: int, points: int) -> dict[str, Any]:
        """Give points to a seat; the dict goes into the event's data."""
        self.st.scores[seat] += points
        return {"scorer": self.st.players[seat], "points": points}


def leave(st: State, aid: int) -> None:
    """Take an Astronaut off his tile (his location is set by the caller)."""
    tile = st.loc[aid]
    st.occ[tile] = tuple(a for a in st.occ[tile] if a != aid)


def put(st: State, aid: int, tile: int) -> None:
    """Place an Astronaut on a tile."""
    st.occ[tile] = (*st.occ.get(tile, ()), aid)
    st.loc[aid] = tile


def _end_game(ctx: Ctx, reason: str, aliens_win: bool = False) -> None:
    st = ctx.st
    st.finished = True
    st.alien_victory = aliens_win
    st.end_reason = reason
    st.phase = "ended"
    st.pending = None
    st.window = None
    st.hold = None
    if ctx.tell:
        ctx.emit(f"The game ends: {reason}", "end", reason=reason, aliens_win=aliens_win)
    raise GameOver()


def kill_astronaut(ctx: Ctx, aid: int, how: str) -> None:
    """``aid`` dies (``how`` completes "<Astronaut> ..."); points to the actor unless his own."""
    st = ctx.st
    tile = st.loc[aid]
    if tile >= 0:
        leave(st, aid)
    st.loc[aid] = TRACK
    st.own_track()
    st.track.append(aid)
    data: dict[str, Any] = {"victim": aid, "tile": tile}
    points = 0
    if owner(aid) != ctx.actor:
        points = 2 if role(aid) == CHIEF else 1
        data.update(ctx.score(ctx.actor, points))
    score = st.alien_score()
    if ctx.tell:
        text = f"{astro(st, aid)} {how}."
        if points:
            text += f" {who(st, ctx.actor)} scores {points}."
        if score is not None:
            text += f" The Aliens' score is now {score}."
        else:
            text += " Every slot of the Alien track now holds a dead Astronaut: the track is full."
        ctx.emit(text, "kill", **data)
    if score is None:
        _end_game(ctx, "the Alien track is full. The Aliens win!", aliens_win=True)


def kill_alien(ctx: Ctx, tile: int, how: str) -> None:
    """The Alien on ``tile`` dies (``how`` completes "The Alien in X ..."); actor scores 1."""
    st = ctx.st
    st.aliens = tuple(t for t in st.aliens if t != tile)
    data = ctx.score(ctx.actor, 1)
    if ctx.tell:
        ctx.emit(
            f"The Alien in {place(st, tile)} {how}. {who(st, ctx.actor)} scores 1.",
            "kill",
            victim="alien",
            tile=tile,
            **data,
        )


def launch(ctx: Ctx, pod: int, why: str) -> None:
    """The Escape Pod leaves with its occupants, who score their seat values (Chiefs double)."""
    st = ctx.st
    seats = TILES[pod].seats
    occupants = st.occ.get(pod, ())
    st.own_escapes()
    if ctx.tell:
        text = f"{place_first(st, pod)} takes off {why}."
        ctx.emit(text, "launch", pod=pod, occupants=list(occupants))
    for seat_index, aid in enumerate(occupants):
        points = seats[seat_index] * (2 if role(aid) == CHIEF else 1)
        st.loc[aid] = ESCAPED
        st.escaped[owner(aid)] += 1
        data = ctx.score(owner(aid), points)
        if ctx.tell:
            ctx.emit(f"{astro(st, aid)} escapes and scores {points}.", "score", astronaut=aid, **data)
    st.launched.append([pod, list(occupants)])
    st.remove(pod)
    if not st.pod_stack and not any(TILES[t].kind == POD for t in st.pos):
        _end_game(ctx, "every Escape Pod has left the station.")


def alien_arrives(ctx: Ctx, tile: int) -> None:
    """An Alien has entered ``tile``: occupied Pods opening onto it take off."""
    st = ctx.st
    for pod in station.pods_facing(st, tile):
        if st.occ.get(pod):
            launch(ctx, pod, f"because an Alien entered {place(st, tile)}")


def kill_choice(ctx: Ctx, tile: int, safe: bool) -> None:
    """The Alien on ``tile`` kills one Astronaut there, by the Grunt and Robot rules."""
    st = ctx.st
    victims = [a for a in st.occ.get(tile, ()) if role(a) != ROBOT]
    if not victims:
        return
    grunts = [a for a in victims if role(a) == GRUNT]
    if len(grunts) >= 2:
        kill_alien(ctx, tile, "is killed by the two Grunts there")
        return
    pool = [a for a in victims if role(a) != GRUNT] or grunts
    options = [{"type": "kill", "astronaut": a} for a in pool]
    choice = ctx.choose(
        options, lambda: f"{who(st, ctx.actor)}: choose whom the Alien in {place(st, tile)} kills.", safe
    )
    kill_astronaut(ctx, choice["astronaut"], f"is killed by the Alien in {place(st, tile)}")
