"""The Building phase: what may be built, and building it."""

from __future__ import annotations

from bot.engine.argo import station
from bot.engine.argo.data import (
    MAX_ALIENS,
    POD,
    TILES,
)
from bot.engine.argo.effects import Ctx
from bot.engine.argo.state import State
from bot.engine.argo.text import place, printed_name, who
from bot.engine.core import Action


def supply_left(st: State) -> bool:
    """True while a face-up Module or an Escape Pod remains to be built."""
    return bool(st.display or st.pod_stack)


def build_options(st: State) -> list[Action]:
    """Every legal build: a face-up Module or the top Escape Pod, placed and rotated.

    The list depends only on the layout and on the tiles on offer, so it is kept in ``st.geo``
    per offer (copies of a state share it: a search's sampled worlds build the same list once).
    Callers must not change it."""
    candidates = (*st.display, st.pod_stack[0]) if st.pod_stack else tuple(st.display)
    key = ("build", candidates)
    found: list[Action] | None = st.geo.get(key)
    if found is None:
        found = st.geo[key] = _build_options(st, candidates)
    return found


def _build_options(st: State, candidates: tuple[int, ...]) -> list[Action]:
    out: list[Action] = []
    seen: set[str] = set()
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
    before = st.geo
    st.place(tile, cell, action["rot"])
    station.built(st, before, tile)
    info = TILES[tile]
    st.own_supply()
    if info.kind == POD:
        st.pod_stack.remove(tile)
    else:
        index = st.display.index(tile)
        if st.stack:
            st.display[index] = st.stack.pop(0)
            ctx.revealed = True
        else:
            st.display.pop(index)
    if ctx.tell:
        ctx.emit(
            f"{who(st, ctx.actor)} builds {place(st, tile)}.",
            "build",
            tile=tile,
            cell=list(cell),
            rot=action["rot"],
        )
    if ctx.revealed and ctx.tell:
        ctx.emit(
            f"{printed_name(st.display[index])} is turned face up.",
            "reveal",
            tile=st.display[index],
            barrier=True,
        )
    if info.alien and len(st.aliens) < MAX_ALIENS:
        st.aliens = tuple(sorted((*st.aliens, tile)))
        if ctx.tell:
            ctx.emit(f"An Alien appears in {place(st, tile)}.", "alien", to=tile, new=True)
    st.phase = "actions"
    if not supply_left(st) and st.final_turns is None:
        st.final_turns = st.n + 1
        if ctx.tell:
            ctx.emit("That was the last tile: this turn ends, then everyone plays one more turn.", "final")
