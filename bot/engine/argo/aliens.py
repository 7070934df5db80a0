"""Aliens: moving and pushing them in the Alien phase, and their killing."""

from __future__ import annotations

from bot.engine.argo import station
from bot.engine.argo.data import (
    ALIEN_FORBIDDEN,
    TILES,
)
from bot.engine.argo.effects import Ctx, Infeasible, alien_arrives, kill_choice
from bot.engine.argo.state import State
from bot.engine.argo.text import place, who

AlienId = int


def alien_kills(ctx: Ctx) -> None:
    """Every Alien on a tile with Astronauts kills one of them (Alien phase)."""
    st = ctx.st
    aliens = st.aliens  # north first, then west first (no sort for a single Alien)
    for tile in aliens if len(aliens) < 2 else sorted(aliens, key=lambda t: (st.pos[t][1], st.pos[t][0])):
        if tile in st.aliens:
            kill_choice(ctx, tile, safe=True)


def alien_targets(st: State, tile: int, came_from: int | None = None) -> list[int]:
    """Tiles an Alien on ``tile`` may enter (connected, not Waking Room, Pod or Safe Room)."""
    return [t for t in station.linked(st, tile) if t != came_from and TILES[t].kind not in ALIEN_FORBIDDEN]


def alien_move_feasible(st: State, src: int, dst: int) -> bool:
    """True if the Alien on ``src`` can move to ``dst``: any push chain it starts can end
    (mirrors :func:`move_alien`; every Alien is pushed at most once)."""
    ids = {t: t for t in st.aliens if t != src}
    return _alien_can_enter(st, src, dst, src, ids, frozenset())


def _alien_can_enter(
    st: State, ident: AlienId, tile: int, came_from: int, ids: dict[int, AlienId], pushed: frozenset[AlienId]
) -> bool:
    other = ids.get(tile)
    if other is None:
        return True
    if other in pushed:
        return False
    placed = {**ids, tile: ident}
    return any(
        _alien_can_enter(st, other, target, tile, placed, pushed | {other})
        for target in alien_targets(st, tile, came_from)
    )


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
    if ctx.tell:
        ctx.emit(
            f"{who(st, ctx.actor)} moves the Alien from {place(st, src)} to {place(st, dst)}.",
            "alien",
            frm=src,
            to=dst,
        )
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
        placed = {**ctx.alien_ids, tile: ident}
        pushed = frozenset(ctx.alien_pushed)
        choice = ctx.choose(
            options,
            lambda: f"{who(st, ctx.actor)}: choose where the Alien in {place(st, tile)} is pushed.",
            check=lambda o: _alien_can_enter(st, other, o["to"], tile, placed, pushed),
        )
        target = choice["to"]
        if ctx.tell:
            ctx.emit(
                f"The Alien in {place(st, tile)} is pushed to {place(st, target)}.",
                "alien",
                frm=tile,
                to=target,
                pushed=True,
            )
        ctx.alien_ids[tile] = ident
        _alien_enters(ctx, other, target, came_from=tile)
        alien_arrives(ctx, tile)  # after the chain, so no Alien is ever off the board
        return
    st.aliens = tuple(sorted((*st.aliens, tile)))
    ctx.alien_ids[tile] = ident
    alien_arrives(ctx, tile)
