"""Module Activation: who may activate what, and every Module's effect."""

from __future__ import annotations

from bot.engine.argo import station
from bot.engine.argo.data import (
    ACTIVATABLE,
    ALIEN_FORBIDDEN,
    CHIEF,
    CONTROL_ROOM,
    CORE_ROOM,
    INFIRMARY,
    JUMP_ROOM,
    LAB,
    LASER,
    NO_ROBOT,
    NOT_ROOMS,
    ROBOT,
    SECURITY_CENTER,
    TILES,
    WAKING_ROOM_ID,
    WAREHOUSE,
)
from bot.engine.argo.effects import (
    Ctx,
    Infeasible,
    alien_arrives,
    kill_alien,
    kill_astronaut,
    kill_choice,
    launch,
    leave,
    put,
)
from bot.engine.argo.geometry import label
from bot.engine.argo.movement import can_enter, do_move, movable, moves_for, push_out
from bot.engine.argo.state import State
from bot.engine.argo.text import astro, owner, place, role, who
from bot.engine.core import Action


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


def lab_targets(st: State) -> list[tuple[int, int]]:
    """(Astronaut, Alien tile) pairs the Lab may swap."""
    people = [
        a
        for t in st.pos
        for a in st.occ.get(t, ())
        if role(a) != ROBOT and TILES[t].kind not in ALIEN_FORBIDDEN and t not in st.aliens
    ]
    return [(a, alien) for a in sorted(people) for alien in st.aliens]


def lab_feasible(st: State, aid: int, alien: int) -> bool:
    """True if the Lab swap of ``aid`` with the Alien on ``alien`` can be completed: as in the
    effect, the Alien is on the Astronaut's tile when he arrives, and he pushes if it is full."""
    home = st.loc[aid]
    trial = st.copy()
    trial.occ[home] = tuple(a for a in st.occ[home] if a != aid)
    trial.aliens = tuple(sorted((*(t for t in st.aliens if t != alien), home)))
    return can_enter(trial, aid, alien, None, "lab", {})


def laser_targets(st: State, seat: int) -> list[int]:
    """Rooms with an Alien orthogonally next to a tile holding one of ``seat``'s Astronauts.

    Corridors are not Rooms: an Alien there cannot be shot (a Teleporter is a Room)."""
    mine = {st.loc[a] for a in st.team(seat) if st.loc[a] >= 0}
    found = set()
    for tile in mine:
        for other in station.adjacent(st, tile):
            if other in st.aliens and TILES[other].kind not in NOT_ROOMS:
                found.add(other)
    return sorted(found, key=lambda t: (st.pos[t][1], st.pos[t][0]))


def activate(ctx: Ctx, action: Action) -> None:
    """Place the actor's token on the Module and apply its effect."""
    st = ctx.st
    module = action["module"]
    kind = TILES[module].kind
    st.own_tokens()
    st.tokens[module] = (*st.tokens.get(module, ()), ctx.actor)
    st.activations[ctx.actor] += 1
    if kind == WAREHOUSE:
        chief = any(owner(a) == ctx.actor and role(a) == CHIEF for a in st.occ.get(module, ()))
        points = 4 if chief else 2
        data = ctx.score(ctx.actor, points)
        if ctx.tell:
            ctx.emit(
                f"{who(st, ctx.actor)} activates {place(st, module)}"
                f"{' with the Chief' if chief else ''} and scores {points}.",
                "activate",
                module=module,
                **data,
            )
        return
    if ctx.tell:
        ctx.emit(f"{who(st, ctx.actor)} activates {place(st, module)}.", "activate", module=module)
    if kind == SECURITY_CENTER:
        launch(ctx, action["pod"], "on the Security Center's order")
    elif kind == INFIRMARY:
        aid = action["astronaut"]
        st.own_track()
        index = st.track.index(aid)
        last = st.track.pop()
        if index < len(st.track):
            st.track[index] = last
        put(st, aid, WAKING_ROOM_ID)
        if ctx.tell:
            ctx.emit(
                f"{astro(st, aid)} is healed and wakes up in the Waking Room. The Aliens' "
                f"score is now {st.alien_score()}.",
                "revive",
                astronaut=aid,
            )
    elif kind == LASER:
        kill_alien(ctx, action["alien"], "is shot by the Laser")
    elif kind == LAB:
        _lab(ctx, action["astronaut"], action["alien"])
    elif kind == JUMP_ROOM:
        _jump(ctx, action["astronaut"])
    elif kind == CONTROL_ROOM:
        tile = action["tile"]
        old = place(st, tile) if ctx.tell else ""
        st.place(tile, (action["cell"][0], action["cell"][1]), action["rot"])
        if ctx.tell:
            ctx.emit(
                f"{old[0].upper()}{old[1:]} is moved to {label(st.pos[tile])} with everything in it.",
                "control",
                tile=tile,
                cell=list(action["cell"]),
                rot=action["rot"],
            )


def _lab(ctx: Ctx, aid: int, alien: int) -> None:
    st = ctx.st
    home = st.loc[aid]
    leave(st, aid)
    put(st, aid, alien)
    st.aliens = tuple(sorted((*(t for t in st.aliens if t != alien), home)))
    if ctx.tell:
        ctx.emit(
            f"{astro(st, aid)} in {place(st, home)} swaps places with the Alien in {place(st, alien)}.",
            "swap",
            astronaut=aid,
            frm=home,
            to=alien,
        )
    # The Astronaut arrives first (pushing if the tile is full, never teleported), then the
    # Alien, who kills at once; the state stays whole if the game ends on the way.
    if len(st.occ[alien]) > TILES[alien].capacity:
        ctx.pushed = set()
        push_out(ctx, alien, aid, None)
    alien_arrives(ctx, home)
    kill_choice(ctx, home, safe=False)


def _jump(ctx: Ctx, aid: int) -> None:
    """Two Moves of the activator, both part of the effect: the second is skipped (``pass``, taken
    without asking) only when no second Move exists or the first left him dead or seated."""
    st = ctx.st
    for number in ("first", "second"):
        if not movable(st, aid):
            return
        options = moves_for(st, aid)
        if not options:
            if number == "first":
                raise Infeasible()
            options = [{"type": "pass"}]
        choice = ctx.choose(
            options,
            f"{who(st, ctx.actor)}: choose the {number} move of {astro(st, aid)} (Jump Room)."
            if ctx.tell
            else "",
            checked=True,
        )
        if choice["type"] == "pass":
            if ctx.tell:
                ctx.emit(f"{astro(st, aid)} has no second move to make.", "move", astronaut=aid)
            return
        do_move(ctx, choice)


def core_room_deaths(ctx: Ctx) -> None:
    """The actor's Astronauts in the Core Room since the start of the turn die."""
    st = ctx.st
    for aid in st.core_start:
        tile = st.loc[aid]
        if tile >= 0 and TILES[tile].kind == CORE_ROOM:
            kill_astronaut(ctx, aid, "dies of radiation in the Core Room")


def time_machine_tile(st: State) -> int | None:
    """The Time Machine's tile id if it lies in the station."""
    return station.time_machine(st)
