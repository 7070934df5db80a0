"""The rules: what an action does to the state, and which actions can be carried out.

An action is resolved on a copy of the state by :func:`run`. When the rules hand the acting
player a decision (whom to push, where to teleport, whom an Alien kills...) the resolution asks
:meth:`Ctx.choose`; the answer comes from the list of choices already made, or the run stops
with :class:`NeedDecision`. Re-running with one more choice continues, so a multi-step action
is just a root action plus its choices, and cancelling it is forgetting them.
"""

from __future__ import annotations

import contextlib
from typing import Any

from bot.engine.argo import station
from bot.engine.argo.data import (
    ACTIVATABLE,
    ALIEN_FORBIDDEN,
    CHIEF,
    CONTROL_ROOM,
    CORE_ROOM,
    EXPLORER,
    GRUNT,
    INFIRMARY,
    JUMP_ROOM,
    LAB,
    LASER,
    MAX_ALIENS,
    NO_ROBOT,
    PILOT,
    POD,
    ROBOT,
    SECURITY_CENTER,
    TELEPORTER,
    TILES,
    TIME_MACHINE,
    WAKING_ROOM_ID,
    WAREHOUSE,
)
from bot.engine.argo.geometry import label
from bot.engine.argo.state import ESCAPED, TRACK, State
from bot.engine.argo.text import astro, owner, place, role, who
from bot.engine.core import Action, Event

AlienId = int


class NeedDecision(Exception):
    """The resolution needs a decision that has not been made yet."""

    def __init__(self, options: list[Action], text: str, safe: bool, checked: bool) -> None:
        super().__init__(text)
        self.options = options
        self.text = text
        self.safe = safe
        """Every option leads equally to a complete resolution (no need to test them all)."""
        self.checked = checked
        """The options were already tested for a complete resolution."""


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
        "tm",
    )

    def __init__(self, st: State, actor: int, choices: list[Action], tm: bool) -> None:
        self.st = st
        self.actor = actor
        self.choices = choices
        self.i = 0
        self.events: list[Event] = []
        self.pushed: set[int] = set()
        self.alien_ids: dict[int, AlienId] = {}
        self.alien_pushed: set[AlienId] = set()
        self.revealed = False
        self.tm = tm

    def choose(
        self, options: list[Action], text: str, safe: bool = False, checked: bool = False
    ) -> Action:
        """The next decision among ``options`` (a single option is taken without asking)."""
        if not options:
            raise Infeasible()
        if len(options) == 1:
            return options[0]
        if self.i < len(self.choices):
            choice = self.choices[self.i]
            self.i += 1
            return choice
        raise NeedDecision(options, text, safe, checked)

    def emit(self, text: str, kind: str, **data: Any) -> None:
        """Record a public event."""
        self.events.append(Event(text, None, kind, data))

    def score(self, seat: int, points: int) -> dict[str, Any]:
        """Give points to a seat; the dict goes into the event's data."""
        self.st.scores[seat] += points
        return {"scorer": self.st.players[seat], "points": points}


# ----- small state edits ---------------------------------------------------------------------


def _leave(st: State, aid: int) -> None:
    tile = st.loc[aid]
    st.occ[tile] = tuple(a for a in st.occ[tile] if a != aid)


def _put(st: State, aid: int, tile: int) -> None:
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
    ctx.emit(f"The game ends: {reason}", "end", reason=reason, aliens_win=aliens_win)
    raise GameOver()


# ----- deaths, kills, launches ---------------------------------------------------------------


def kill_astronaut(ctx: Ctx, aid: int, how: str) -> None:
    """``aid`` dies (``how`` completes "<Astronaut> ..."); points to the actor unless his own."""
    st = ctx.st
    tile = st.loc[aid]
    if tile >= 0:
        _leave(st, aid)
    st.loc[aid] = TRACK
    st.track.append(aid)
    data: dict[str, Any] = {"victim": aid, "tile": tile}
    text = f"{astro(st, aid)} {how}."
    if owner(aid) != ctx.actor:
        points = 2 if role(aid) == CHIEF else 1
        data.update(ctx.score(ctx.actor, points))
        text += f" {who(st, ctx.actor)} scores {points}."
    score = st.alien_score()
    text += " The Aliens' score is now " + (f"{score}." if score is not None else "full.")
    ctx.emit(text, "kill", **data)
    if score is None:
        _end_game(ctx, "the Alien track is full. The Aliens win!", aliens_win=True)


def kill_alien(ctx: Ctx, tile: int, how: str) -> None:
    """The Alien on ``tile`` dies (``how`` completes "The Alien in X ..."); actor scores 1."""
    st = ctx.st
    st.aliens = tuple(t for t in st.aliens if t != tile)
    data = ctx.score(ctx.actor, 1)
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
    ctx.emit(f"{place(st, pod).capitalize()} takes off {why}.", "launch", pod=pod,
             occupants=list(occupants))
    for seat_index, aid in enumerate(occupants):
        points = seats[seat_index] * (2 if role(aid) == CHIEF else 1)
        st.loc[aid] = ESCAPED
        st.escaped[owner(aid)] += 1
        data = ctx.score(owner(aid), points)
        ctx.emit(f"{astro(st, aid)} escapes and scores {points}.", "score", astronaut=aid, **data)
    st.launched.append([pod, list(occupants)])
    st.remove(pod)
    if not st.pod_stack and not any(TILES[t].kind == POD for t in st.pos):
        _end_game(ctx, "every Escape Pod has left the station.")


def _alien_arrives(ctx: Ctx, tile: int) -> None:
    """An Alien has entered ``tile``: occupied Pods opening onto it take off."""
    st = ctx.st
    for pod in station.pods_facing(st, tile):
        if st.occ.get(pod):
            launch(ctx, pod, f"because an Alien entered {place(st, tile)}")


def _kill_choice(ctx: Ctx, tile: int, safe: bool) -> None:
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
        options, f"{who(st, ctx.actor)}: choose whom the Alien in {place(st, tile)} kills.", safe
    )
    kill_astronaut(ctx, choice["astronaut"], f"is killed by the Alien in {place(st, tile)}")


def alien_kills(ctx: Ctx) -> None:
    """Every Alien on a tile with Astronauts kills one of them (Alien phase)."""
    st = ctx.st
    for tile in sorted(st.aliens, key=lambda t: (st.pos[t][1], st.pos[t][0])):
        if tile in st.aliens:
            _kill_choice(ctx, tile, safe=True)


# ----- Astronaut movement --------------------------------------------------------------------


def teleport_targets(st: State, tile: int) -> list[int]:
    """Where an Astronaut entering Teleporter ``tile`` may go (empty: lost in deep space)."""
    others = [t for t in st.pos if TILES[t].kind == TELEPORTER and t != tile]
    if st.deep_space:
        return others
    return [*others, WAKING_ROOM_ID]


def pilot_variants(st: State, base: Action, aid: int, target: int) -> list[Action]:
    """``base`` (a move or push) with the Pilot's announced choice when she enters an empty Pod."""
    if role(aid) != PILOT or TILES[target].kind != POD or st.occ.get(target):
        return [base]
    out = [{**base, "pilot": "stay"}, {**base, "pilot": "leave"}]
    for cell, rot in station.pod_relocations(st, target):
        out.append({**base, "pilot": "relocate", "cell": [cell[0], cell[1]], "rot": rot})
    return out


def enter(
    ctx: Ctx, aid: int, tile: int, came_from: int | None, how: str, choice: Action | None = None
) -> None:
    """``aid`` (already off his old tile) enters ``tile`` by ``how`` (move/push/teleport/lab)."""
    st = ctx.st
    kind = TILES[tile].kind
    if kind == TELEPORTER and how in ("move", "push"):
        targets = teleport_targets(st, tile)
        if not targets:
            _put(st, aid, tile)
            kill_astronaut(ctx, aid, f"enters {place(st, tile)} and is lost in deep space")
            return
        options = [{"type": "teleport", "to": t} for t in targets]
        chosen = ctx.choose(options, f"{who(st, ctx.actor)}: choose where {astro(st, aid)} "
                            "is teleported.")["to"]
        ctx.emit(f"{astro(st, aid)} is teleported from {place(st, tile)} to "
                 f"{place(st, chosen)}.", "teleport", astronaut=aid, frm=tile, to=chosen)
        enter(ctx, aid, chosen, came_from=tile, how="teleport")
        return
    _put(st, aid, tile)
    if tile in st.aliens and role(aid) != ROBOT:
        if role(aid) == GRUNT:
            kill_alien(ctx, tile, f"is killed by {astro(st, aid)}")
        else:
            kill_astronaut(ctx, aid, f"meets the Alien in {place(st, tile)} and is killed")
            return
    if kind == POD:
        seat = len(st.occ[tile]) - 1
        ctx.emit(f"{astro(st, aid)} takes the {TILES[tile].seats[seat]}-point seat of "
                 f"{place(st, tile)}.", "seat", astronaut=aid, pod=tile, seat=seat)
        if len(st.occ[tile]) >= TILES[tile].capacity:
            launch(ctx, tile, "full")
            return
        if role(aid) == PILOT and seat == 0 and choice is not None:
            decision = choice.get("pilot", "stay")
            if decision == "leave":
                ctx.emit(f"{astro(st, aid)} chooses to leave alone.", "pilot", choice="leave")
                launch(ctx, tile, f"with {astro(st, aid)} alone")
            elif decision == "relocate":
                cell = (choice["cell"][0], choice["cell"][1])
                st.place(tile, cell, choice["rot"])
                ctx.emit(f"{astro(st, aid)} flies the Escape Pod to {label(cell)}.", "pilot",
                         choice="relocate", pod=tile, cell=list(cell))
            else:
                ctx.emit(f"{astro(st, aid)} chooses to stay aboard.", "pilot", choice="stay")
        return
    if len(st.occ[tile]) > TILES[tile].capacity:
        push_out(ctx, tile, aid, came_from)


def push_out(ctx: Ctx, tile: int, entrant: int, came_from: int | None) -> None:
    """``tile`` is over capacity: the actor pushes someone out (never back to ``came_from``)."""
    st = ctx.st
    movers = [a for a in st.occ[tile] if a != entrant and a not in ctx.pushed]
    targets = [t for t in station.linked(st, tile) if t != came_from]
    options: list[Action] = []
    for a in movers:
        for t in targets:
            options.extend(pilot_variants(st, {"type": "push", "astronaut": a, "to": t}, a, t))
    choice = ctx.choose(options, f"{who(st, ctx.actor)}: {place(st, tile)} is full: choose who "
                        "is pushed out, and where.")
    aid, target = choice["astronaut"], choice["to"]
    ctx.pushed.add(aid)
    _leave(st, aid)
    ctx.emit(f"{astro(st, aid)} is pushed from {place(st, tile)} to {place(st, target)}.",
             "push", astronaut=aid, frm=tile, to=target)
    enter(ctx, aid, target, came_from=tile, how="push", choice=choice)


def move_paths(st: State, aid: int) -> list[list[int]]:
    """Tile paths a Move may take: one step, or up to two for the Explorer.

    The Explorer's first step must be a tile she can walk through: not a Teleporter, a Pod or
    a tile with an Alien (those end her Move), and she does not return to her start.
    """
    start = st.loc[aid]
    out = []
    for first in station.linked(st, start):
        out.append([first])
        if (
            role(aid) == EXPLORER
            and TILES[first].kind not in (TELEPORTER, POD)
            and first not in st.aliens
        ):
            for second in station.linked(st, first):
                if second != start:
                    out.append([first, second])
    return out


def can_enter(
    st: State,
    aid: int,
    tile: int,
    came_from: int | None,
    how: str,
    occ: dict[int, tuple[int, ...]],
    dead_aliens: frozenset[int] = frozenset(),
    pushed: frozenset[int] = frozenset(),
) -> bool:
    """True if ``aid`` entering ``tile`` can be resolved (mirrors :func:`enter`, no copy).

    ``occ`` overrides the occupants of tiles changed so far along the chain.
    """
    kind = TILES[tile].kind
    if kind == TELEPORTER and how in ("move", "push"):
        targets = teleport_targets(st, tile)
        return not targets or any(
            can_enter(st, aid, t, tile, "teleport", occ, dead_aliens, pushed) for t in targets
        )
    here = (*occ.get(tile, st.occ.get(tile, ())), aid)
    if tile in st.aliens and tile not in dead_aliens and role(aid) != ROBOT:
        if role(aid) != GRUNT:
            return True
        dead_aliens = dead_aliens | {tile}
    if kind == POD or len(here) <= TILES[tile].capacity:
        return True
    targets = [t for t in station.linked(st, tile) if t != came_from]
    for other in here:
        if other == aid or other in pushed:
            continue
        changed = {**occ, tile: tuple(a for a in here if a != other)}
        for target in targets:
            if can_enter(st, other, target, tile, "push", changed, dead_aliens,
                         pushed | {other}):
                return True
    return False


def move_feasible(st: State, aid: int, path: list[int]) -> bool:
    """True if a Move of ``aid`` along ``path`` can be completed."""
    start = st.loc[aid]
    occ = {start: tuple(a for a in st.occ[start] if a != aid)}
    came_from = path[-2] if len(path) > 1 else start
    return can_enter(st, aid, path[-1], came_from, "move", occ)


def movable(st: State, aid: int) -> bool:
    """True if the Astronaut stands on a Module (not dead, escaped or seated in a Pod)."""
    tile = st.loc[aid]
    return tile >= 0 and TILES[tile].kind != POD


def moves_for(st: State, aid: int) -> list[Action]:
    """Every complete Move action of one Astronaut."""
    out: list[Action] = []
    if not movable(st, aid):
        return out
    for path in move_paths(st, aid):
        if move_feasible(st, aid, path):
            base: Action = {"type": "move", "astronaut": aid, "path": path}
            out.extend(pilot_variants(st, base, aid, path[-1]))
    return out


def do_move(ctx: Ctx, action: Action) -> None:
    """Carry out one Move of an Astronaut along its path."""
    st = ctx.st
    aid, path = action["astronaut"], action["path"]
    start = st.loc[aid]
    ctx.pushed = set()  # "pushed at most once" holds within one chain
    _leave(st, aid)
    route = " via ".join(place(st, t) for t in reversed(path))
    ctx.emit(f"{astro(st, aid)} moves from {place(st, start)} to {route}.", "move",
             astronaut=aid, frm=start, path=list(path))
    enter(ctx, aid, path[-1], came_from=path[-2] if len(path) > 1 else start, how="move",
          choice=action)


# ----- Aliens --------------------------------------------------------------------------------


def alien_targets(st: State, tile: int, came_from: int | None = None) -> list[int]:
    """Tiles an Alien on ``tile`` may enter (connected, not Waking Room, Pod or Safe Room)."""
    return [
        t for t in station.linked(st, tile)
        if t != came_from and TILES[t].kind not in ALIEN_FORBIDDEN
    ]


def alien_moves(st: State) -> list[Action]:
    """Every complete Alien move of the Alien phase."""
    out: list[Action] = []
    for src in sorted(st.aliens, key=lambda t: (st.pos[t][1], st.pos[t][0])):
        for dst in alien_targets(st, src):
            action = {"type": "move", "alien": src, "to": dst}
            if dst not in st.aliens or feasible(st, st.active, action):
                out.append(action)
    return out


def _alien_id(ctx: Ctx, tile: int) -> AlienId:
    if not ctx.alien_ids:
        ctx.alien_ids = {t: t for t in ctx.st.aliens}
    return ctx.alien_ids[tile]


def move_alien(ctx: Ctx, src: int, dst: int) -> None:
    """Move the Alien on ``src`` to ``dst``, pushing any Alien there (Alien phase)."""
    st = ctx.st
    ident = _alien_id(ctx, src)
    st.aliens = tuple(t for t in st.aliens if t != src)
    del ctx.alien_ids[src]
    ctx.emit(f"{who(st, ctx.actor)} moves the Alien from {place(st, src)} to {place(st, dst)}.",
             "alien", frm=src, to=dst)
    _alien_enters(ctx, ident, dst, came_from=src)


def _alien_enters(ctx: Ctx, ident: AlienId, tile: int, came_from: int) -> None:
    """Alien ``ident`` enters ``tile``; an Alien already there is pushed on (each only once)."""
    st = ctx.st
    if tile in st.aliens:
        other = _alien_id(ctx, tile)
        if other in ctx.alien_pushed:
            raise Infeasible()
        ctx.alien_pushed.add(other)
        options = [{"type": "push", "alien": 1, "to": t} for t in alien_targets(st, tile, came_from)]
        choice = ctx.choose(options, f"{who(st, ctx.actor)}: choose where the Alien in "
                            f"{place(st, tile)} is pushed.")
        target = choice["to"]
        ctx.emit(f"The Alien in {place(st, tile)} is pushed to {place(st, target)}.", "alien",
                 frm=tile, to=target, pushed=True)
        ctx.alien_ids[tile] = ident
        _alien_arrives(ctx, tile)
        _alien_enters(ctx, other, target, came_from=tile)
        return
    st.aliens = tuple(sorted((*st.aliens, tile)))
    ctx.alien_ids[tile] = ident
    _alien_arrives(ctx, tile)


# ----- Building ------------------------------------------------------------------------------


def supply_left(st: State) -> bool:
    """True while a face-up Module or an Escape Pod remains to be built."""
    return bool(st.display or st.pod_stack)


def build_options(st: State) -> list[Action]:
    """Every legal build: a face-up Module or the top Escape Pod, placed and rotated."""
    out: list[Action] = []
    seen: set[str] = set()
    candidates = list(st.display)
    if st.pod_stack:
        candidates.append(st.pod_stack[0])
    for tile in candidates:
        token = TILES[tile].token
        if token in seen:
            continue
        seen.add(token)
        for cell, rot in station.placements(st, tile):
            out.append({"type": "build", "tile": tile, "cell": [cell[0], cell[1]], "rot": rot})
    return out


def build(ctx: Ctx, action: Action) -> None:
    """Add a tile to the station, refill the display, bring an Alien if the tile shows one."""
    st = ctx.st
    tile = action["tile"]
    cell = (action["cell"][0], action["cell"][1])
    st.place(tile, cell, action["rot"])
    info = TILES[tile]
    if info.kind == POD:
        st.pod_stack.remove(tile)
    else:
        index = st.display.index(tile)
        if st.stack:
            st.display[index] = st.stack.pop(0)
            ctx.revealed = True
        else:
            st.display.pop(index)
    ctx.emit(f"{who(st, ctx.actor)} builds {place(st, tile)}.", "build", tile=tile,
             cell=list(cell), rot=action["rot"])
    if ctx.revealed:
        ctx.emit(f"{TILES[st.display[index]].name} ({TILES[st.display[index]].token}) is turned "
                 "face up.", "reveal", tile=st.display[index], barrier=True)
    if info.alien and len(st.aliens) < MAX_ALIENS:
        st.aliens = tuple(sorted((*st.aliens, tile)))
        ctx.emit(f"An Alien appears in {place(st, tile)}.", "alien", to=tile, new=True)
    st.phase = "actions"
    if not supply_left(st) and st.final_turns is None:
        st.final_turns = st.n + 1
        ctx.emit("That was the last tile: this turn ends, then everyone plays one more turn.",
                 "final")


# ----- Module Activation ---------------------------------------------------------------------


def can_activate(st: State, seat: int, module: int) -> list[int]:
    """The Astronauts of ``seat`` who may Activate ``module`` now (empty if none may)."""
    kind = TILES[module].kind
    if kind not in ACTIVATABLE:
        return []
    used = st.tokens.get(module, ())
    if len(used) >= 2 or seat in used:
        return []
    here = [a for a in st.occ.get(module, ()) if owner(a) == seat]
    if kind in NO_ROBOT:
        here = [a for a in here if role(a) != ROBOT]
    return here


def _lab_targets(st: State) -> list[tuple[int, int]]:
    people = [
        a for t in st.pos for a in st.occ.get(t, ())
        if role(a) != ROBOT
        and TILES[t].kind not in ALIEN_FORBIDDEN
        and t not in st.aliens
    ]
    return [(a, alien) for a in sorted(people) for alien in st.aliens]


def _laser_targets(st: State, seat: int) -> list[int]:
    mine = {st.loc[a] for a in st.team(seat) if st.loc[a] >= 0}
    found = set()
    for tile in mine:
        for other in station.adjacent(st, tile):
            if other in st.aliens:
                found.add(other)
    return sorted(found, key=lambda t: (st.pos[t][1], st.pos[t][0]))


def activation_options(st: State, seat: int) -> list[Action]:
    """Every complete Activation ``seat`` could make now (ignoring whose turn it is)."""
    out: list[Action] = []
    modules = sorted({st.loc[a] for a in st.team(seat) if st.loc[a] >= 0})
    for module in modules:
        activators = can_activate(st, seat, module)
        if not activators:
            continue
        kind = TILES[module].kind
        base: Action = {"type": "activate", "module": module}
        if kind == TIME_MACHINE:
            continue
        if kind == WAREHOUSE:
            out.append(base)
        elif kind == SECURITY_CENTER:
            for pod in sorted(st.pos):
                if TILES[pod].kind == POD and st.occ.get(pod):
                    out.append({**base, "pod": pod})
        elif kind == INFIRMARY:
            for aid in sorted(set(st.track)):
                out.append({**base, "astronaut": aid})
        elif kind == LASER:
            for alien in _laser_targets(st, seat):
                out.append({**base, "alien": alien})
        elif kind == LAB:
            for aid, alien in _lab_targets(st):
                action = {**base, "astronaut": aid, "alien": alien}
                full = len(st.occ.get(alien, ())) >= TILES[alien].capacity
                if not full or feasible(st, seat, action):
                    out.append(action)
        elif kind == JUMP_ROOM:
            for aid in activators:
                if moves_for(st, aid):
                    out.append({**base, "astronaut": aid})
        elif kind == CONTROL_ROOM:
            for tile, cell, rot in station.control_moves(st):
                out.append({**base, "tile": tile, "cell": [cell[0], cell[1]], "rot": rot})
    return out


def activate(ctx: Ctx, action: Action) -> None:
    """Place the actor's token on the Module and apply its effect."""
    st = ctx.st
    module = action["module"]
    kind = TILES[module].kind
    st.tokens[module] = (*st.tokens.get(module, ()), ctx.actor)
    st.activations[ctx.actor] += 1
    if kind == WAREHOUSE:
        chief = any(owner(a) == ctx.actor and role(a) == CHIEF for a in st.occ.get(module, ()))
        points = 4 if chief else 2
        data = ctx.score(ctx.actor, points)
        ctx.emit(f"{who(st, ctx.actor)} activates {place(st, module)}"
                 f"{' with the Chief' if chief else ''} and scores {points}.", "activate",
                 module=module, **data)
        return
    ctx.emit(f"{who(st, ctx.actor)} activates {place(st, module)}.", "activate", module=module)
    if kind == SECURITY_CENTER:
        launch(ctx, action["pod"], "on the Security Center's order")
    elif kind == INFIRMARY:
        aid = action["astronaut"]
        index = st.track.index(aid)
        last = st.track.pop()
        if index < len(st.track):
            st.track[index] = last
        _put(st, aid, WAKING_ROOM_ID)
        ctx.emit(f"{astro(st, aid)} is healed and wakes up in the Waking Room. The Aliens' "
                 f"score is now {st.alien_score()}.", "revive", astronaut=aid)
    elif kind == LASER:
        kill_alien(ctx, action["alien"], "is shot by the Laser")
    elif kind == LAB:
        _lab(ctx, action["astronaut"], action["alien"])
    elif kind == JUMP_ROOM:
        _jump(ctx, action["astronaut"])
    elif kind == CONTROL_ROOM:
        tile = action["tile"]
        old = place(st, tile)
        st.place(tile, (action["cell"][0], action["cell"][1]), action["rot"])
        ctx.emit(f"{old[0].upper()}{old[1:]} is moved to {label(st.pos[tile])} with everything "
                 "in it.", "control", tile=tile, cell=list(action["cell"]), rot=action["rot"])


def _lab(ctx: Ctx, aid: int, alien: int) -> None:
    st = ctx.st
    home = st.loc[aid]
    _leave(st, aid)
    st.aliens = tuple(sorted((*(t for t in st.aliens if t != alien), home)))
    ctx.emit(f"{astro(st, aid)} in {place(st, home)} swaps places with the Alien in "
             f"{place(st, alien)}.", "swap", astronaut=aid, frm=home, to=alien)
    _alien_arrives(ctx, home)
    _kill_choice(ctx, home, safe=False)
    enter(ctx, aid, alien, came_from=None, how="lab")


def _jump(ctx: Ctx, aid: int) -> None:
    st = ctx.st
    for number in ("first", "second"):
        if not movable(st, aid):
            return
        options = moves_for(st, aid)
        if number == "second":
            options.append({"type": "pass"})
        elif not options:
            raise Infeasible()
        choice = ctx.choose(options, f"{who(st, ctx.actor)}: choose the {number} move of "
                            f"{astro(st, aid)} (Jump Room).", checked=True)
        if choice["type"] == "pass":
            ctx.emit(f"{astro(st, aid)} makes no second jump.", "move", astronaut=aid)
            return
        do_move(ctx, choice)


# ----- Core Room -----------------------------------------------------------------------------


def core_room_deaths(ctx: Ctx) -> None:
    """The actor's Astronauts in the Core Room since the start of the turn die."""
    st = ctx.st
    for aid in st.core_start:
        tile = st.loc[aid]
        if tile >= 0 and TILES[tile].kind == CORE_ROOM:
            kill_astronaut(ctx, aid, "dies of radiation in the Core Room")


# ----- running actions -----------------------------------------------------------------------


def time_machine_tile(st: State) -> int | None:
    """The Time Machine's tile id if it lies in the station."""
    for t in st.pos:
        if TILES[t].kind == TIME_MACHINE:
            return t
    return None


def time_machine_options(st: State, seat: int) -> list[Action]:
    """The interrupts ``seat`` may make with the Time Machine now (ignoring timing)."""
    tm = time_machine_tile(st)
    if tm is None or not can_activate(st, seat, tm):
        return []
    out: list[Action] = []
    for aid in st.team(seat):
        for move in moves_for(st, aid):
            out.append({"type": "timemachine", "do": move})
    for act in activation_options(st, seat):
        out.append({"type": "timemachine", "do": act})
    return out


def dispatch(ctx: Ctx, root: Action) -> None:
    """Apply a root action on the context's state."""
    st = ctx.st
    kind = root["type"]
    if kind == "move" and "alien" in root:
        move_alien(ctx, root["alien"], root["to"])
        alien_kills(ctx)
        st.phase = "build"
    elif kind == "kills":
        alien_kills(ctx)
        st.phase = "build"
    elif kind == "build":
        build(ctx, root)
    elif kind == "move":
        do_move(ctx, root)
        st.actions_used += 1
        st.moved = (*st.moved, root["astronaut"])
    elif kind == "activate":
        activate(ctx, root)
        st.actions_used += 1
    elif kind == "timemachine":
        tm = time_machine_tile(st)
        assert tm is not None
        st.tokens[tm] = (*st.tokens.get(tm, ()), ctx.actor)
        st.activations[ctx.actor] += 1
        ctx.emit(f"{who(st, ctx.actor)} activates {place(st, tm)} and acts out of turn.",
                 "timemachine", module=tm)
        inner = root["do"]
        if inner["type"] == "move":
            do_move(ctx, inner)
        else:
            activate(ctx, inner)
    elif kind == "endturn":
        core_room_deaths(ctx)
    else:  # pragma: no cover - guarded by legal_actions
        raise ValueError(f"unknown action {kind}")


def run(st: State, actor: int, root: Action, choices: list[Action], tm: bool = False) -> Ctx:
    """Resolve ``root`` with ``choices`` on a copy of ``st``.

    Raises NeedDecision when a further choice is needed and Infeasible when this line of
    choices cannot be completed.
    """
    ctx = Ctx(st.copy(), actor, choices, tm)
    with contextlib.suppress(GameOver):
        dispatch(ctx, root)
    return ctx


def feasible(st: State, actor: int, root: Action, choices: list[Action] | None = None) -> bool:
    """True if some line of further choices completes ``root`` after ``choices``."""
    made = list(choices or [])
    try:
        run(st, actor, root, made)
    except Infeasible:
        return False
    except NeedDecision as need:
        if need.safe or need.checked:
            return feasible(st, actor, root, [*made, need.options[0]])
        return any(feasible(st, actor, root, [*made, o]) for o in need.options)
    return True
