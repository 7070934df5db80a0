"""Astronaut movement: entering tiles, pushing, Teleporters, the Explorer's paths, the Pilot."""

from __future__ import annotations

from typing import Any, Final

from bot.engine.argo import station
from bot.engine.argo.data import (
    EXPLORER,
    GRUNT,
    PILOT,
    POD,
    ROBOT,
    TEAM_SIZE,
    TELEPORTER,
    TILES,
    WAKING_ROOM_ID,
)
from bot.engine.argo.effects import Ctx, kill_alien, kill_astronaut, launch, leave, put
from bot.engine.argo.geometry import label
from bot.engine.argo.state import State
from bot.engine.argo.text import astro, place, role, who
from bot.engine.core import Action


def teleport_targets(st: State, tile: int) -> list[int]:
    """Where an Astronaut entering Teleporter ``tile`` may go (empty: lost in deep space)."""
    others = [t for t in station.teleporters(st) if t != tile]
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
            put(st, aid, tile)
            kill_astronaut(ctx, aid, f"enters {place(st, tile)} and is lost in deep space")
            return
        options = [{"type": "teleport", "to": t} for t in targets]
        pushed = frozenset(ctx.pushed)
        chosen = ctx.choose(
            options,
            lambda: f"{who(st, ctx.actor)}: choose where {astro(st, aid)} is teleported.",
            check=lambda o: can_enter(st, aid, o["to"], tile, "teleport", {}, frozenset(), pushed),
        )["to"]
        if ctx.tell:
            ctx.emit(
                f"{astro(st, aid)} is teleported from {place(st, tile)} to {place(st, chosen)}.",
                "teleport",
                astronaut=aid,
                frm=tile,
                to=chosen,
            )
        enter(ctx, aid, chosen, came_from=tile, how="teleport")
        return
    put(st, aid, tile)
    if tile in st.aliens and role(aid) != ROBOT:
        if role(aid) == GRUNT:
            kill_alien(ctx, tile, f"is killed by {astro(st, aid)}")
        else:
            kill_astronaut(ctx, aid, f"meets the Alien in {place(st, tile)} and is killed")
            return
    if kind == POD:
        seat = len(st.occ[tile]) - 1
        if ctx.tell:
            ctx.emit(
                f"{astro(st, aid)} takes the {TILES[tile].seats[seat]}-point seat of {place(st, tile)}.",
                "seat",
                astronaut=aid,
                pod=tile,
                seat=seat,
            )
        if len(st.occ[tile]) >= TILES[tile].capacity:
            launch(ctx, tile, "full")
            return
        if role(aid) == PILOT and seat == 0 and choice is not None:
            decision = choice.get("pilot", "stay")
            if decision == "leave":
                if ctx.tell:
                    ctx.emit(f"{astro(st, aid)} chooses to leave alone.", "pilot", choice="leave")
                launch(ctx, tile, f"with {astro(st, aid)} alone")
            elif decision == "relocate":
                cell = (choice["cell"][0], choice["cell"][1])
                st.place(tile, cell, choice["rot"])
                if ctx.tell:
                    ctx.emit(
                        f"{astro(st, aid)} flies the Escape Pod to {label(cell)}.",
                        "pilot",
                        choice="relocate",
                        pod=tile,
                        cell=list(cell),
                    )
            elif ctx.tell:
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
    pushed = frozenset(ctx.pushed)

    def completes(option: Action) -> bool:
        out = option["astronaut"]
        rest = {tile: tuple(a for a in st.occ[tile] if a != out)}
        return can_enter(st, out, option["to"], tile, "push", rest, frozenset(), pushed | {out})

    choice = ctx.choose(
        options,
        lambda: f"{who(st, ctx.actor)}: {place(st, tile)} is full: choose who is pushed out, and where.",
        check=completes,
    )
    aid, target = choice["astronaut"], choice["to"]
    ctx.pushed.add(aid)
    leave(st, aid)
    if ctx.tell:
        ctx.emit(
            f"{astro(st, aid)} is pushed from {place(st, tile)} to {place(st, target)}.",
            "push",
            astronaut=aid,
            frm=tile,
            to=target,
        )
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
        if role(aid) == EXPLORER and TILES[first].kind not in (TELEPORTER, POD) and first not in st.aliens:
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
    if _IS_TELEPORTER[tile] and (how == "move" or how == "push"):  # teleported at once
        targets = teleport_targets(st, tile)
        return not targets or any(
            can_enter(st, aid, t, tile, "teleport", occ, dead_aliens, pushed) for t in targets
        )
    now = occ.get(tile)
    if now is None:
        now = st.occ.get(tile, ())
    kind = aid % TEAM_SIZE
    if kind != ROBOT and tile in st.aliens and tile not in dead_aliens:
        if kind != GRUNT:
            return True
        dead_aliens = dead_aliens | {tile}
    if _IS_POD[tile] or len(now) < _CAPACITY[tile]:
        return True
    # The tile overflows: someone already there (never ``aid``, who has just come in) is pushed
    # on, not back to ``came_from``. First the pushes that end at once (as the recursive call
    # would find), then the others.
    joined = station.links(st)[tile]
    aliens, rooms = st.aliens, st.occ
    for other in now:
        if other == aid or other in pushed:
            continue
        eaten = other % TEAM_SIZE not in (ROBOT, GRUNT)  # dies on entering an Alien's tile
        for target in joined:
            if target == came_from or _IS_TELEPORTER[target]:
                continue
            if (
                (eaten and target in aliens and target not in dead_aliens)
                or _IS_POD[target]
                or len(occ[target] if target in occ else rooms.get(target, ())) < _CAPACITY[target]
            ):
                return True
    for other in now:
        if other == aid or other in pushed:
            continue
        left = [a for a in now if a != other]
        left.append(aid)
        changed = {**occ, tile: tuple(left)}
        also = pushed | {other}
        for target in joined:
            if target != came_from and can_enter(st, other, target, tile, "push", changed, dead_aliens, also):
                return True
    return False


def move_feasible(st: State, aid: int, path: list[int]) -> bool:
    """True if a Move of ``aid`` along ``path`` can be completed."""
    start = st.loc[aid]
    # The Waking Room never overflows, so who is left in it never matters.
    occ = {} if start == WAKING_ROOM_ID else {start: tuple(a for a in st.occ[start] if a != aid)}
    came_from = path[-2] if len(path) > 1 else start
    return can_enter(st, aid, path[-1], came_from, "move", occ)


def movable(st: State, aid: int) -> bool:
    """True if the Astronaut stands on a Module (not dead, escaped or seated in a Pod)."""
    tile = st.loc[aid]
    return tile >= 0 and not _IS_POD[tile]


_IS_POD: Final[tuple[bool, ...]] = tuple(t.kind == POD for t in TILES)
_IS_TELEPORTER: Final[tuple[bool, ...]] = tuple(t.kind == TELEPORTER for t in TILES)
_WALK_THROUGH: Final[tuple[bool, ...]] = tuple(t.kind not in (TELEPORTER, POD) for t in TILES)
_CAPACITY: Final[tuple[int, ...]] = tuple(t.capacity for t in TILES)
_KIND_CLASS: Final[tuple[int, ...]] = tuple(r if r in (ROBOT, GRUNT) else -1 for r in range(TEAM_SIZE))
"""What can_enter tells apart in an Astronaut: Robot, Grunt, or any other."""


def moves_for(st: State, aid: int, memo: dict[Any, bool] | None = None) -> list[Action]:
    """Every complete Move action of one Astronaut (paths in :func:`move_paths` order).

    ``memo`` (optional, for one state only) keeps the answers of the push-chain tests: two
    Astronauts of the same kind (Robot, Grunt, any other) on the same tile, moving the same way,
    get the same answer (swapping the two maps one chain onto the other)."""
    start = st.loc[aid]
    if start < 0 or _IS_POD[start]:
        return []
    joined = station.links(st)
    kind = aid % TEAM_SIZE
    out: list[Action] = []
    for first in joined[start]:
        _add_move(st, aid, kind, start, [first], memo, out)
        if kind == EXPLORER and _WALK_THROUGH[first] and first not in st.aliens:
            for second in joined[first]:
                if second != start:
                    _add_move(st, aid, kind, start, [first, second], memo, out)
    return out


def _add_move(
    st: State,
    aid: int,
    kind: int,
    start: int,
    path: list[int],
    memo: dict[Any, bool] | None,
    out: list[Action],
) -> None:
    """Add the Move of ``aid`` along ``path`` to ``out`` if it can be completed (see moves_for)."""
    target = path[-1]
    # The usual cases, decided as can_enter would decide them; the rest goes to it.
    fine = not _IS_TELEPORTER[target] and (
        (kind != ROBOT and kind != GRUNT and target in st.aliens)  # killed on entry
        or _IS_POD[target]
        or len(st.occ.get(target, ())) < _CAPACITY[target]  # room without a push
    )
    if not fine:
        if memo is None:
            fine = move_feasible(st, aid, path)
        else:
            key = (start, target, path[0] if len(path) > 1 else start, _KIND_CLASS[kind])
            known = memo.get(key)
            if known is None:
                known = memo[key] = move_feasible(st, aid, path)
            fine = known
    if fine:
        base: Action = {"type": "move", "astronaut": aid, "path": path}
        if kind == PILOT and _IS_POD[target] and not st.occ.get(target):
            out.extend(pilot_variants(st, base, aid, target))
        else:
            out.append(base)


def do_move(ctx: Ctx, action: Action) -> None:
    """Carry out one Move of an Astronaut along its path."""
    st = ctx.st
    aid: int = action["astronaut"]
    path: list[int] = action["path"]
    start = st.loc[aid]
    ctx.pushed = set()  # "pushed at most once" holds within one chain
    leave(st, aid)
    if ctx.tell:
        route = " via ".join(place(st, t) for t in reversed(path))
        ctx.emit(
            f"{astro(st, aid)} moves from {place(st, start)} to {route}.",
            "move",
            astronaut=aid,
            frm=start,
            path=list(path),
        )
    enter(ctx, aid, path[-1], came_from=path[-2] if len(path) > 1 else start, how="move", choice=action)
