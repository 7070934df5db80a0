"""Questions about the station's layout: links between tiles, distances, legal placements.

Answers that depend on the layout alone are kept in ``st.geo`` (see State), which is replaced
whenever a tile is placed, moved or removed: they are computed once per layout, not per question.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Final

from bot.engine.argo.data import POD, TELEPORTER, TILES, TIME_MACHINE, WAKING_ROOM, WAKING_ROOM_ID
from bot.engine.argo.geometry import OPPOSITE, SIDES, Cell, E, N, S, W, distinct_rotations, neighbours, step
from bot.engine.argo.state import State

Placement = tuple[Cell, int]
"""A cell and a rotation."""
OpenCell = tuple[Cell, int, tuple[int | None, ...]]
"""An empty cell facing a Module connector, the mask of its sides facing one, its neighbours."""

_IS_POD: Final[tuple[bool, ...]] = tuple(t.kind == POD for t in TILES)
_SIDE_INDEX: Final[tuple[int, ...]] = (-1, 0, 1, -1, 2, -1, -1, -1, 3)
"""The place of a side (N, E, S or W) in SIDES."""
_BACK: Final[tuple[int, ...]] = (S, W, N, E)
"""For each side of SIDES, the side of the neighbouring tile that faces it."""


def _links_of(cells: dict[Cell, int], doors: dict[int, int], tile: int, cell: Cell) -> tuple[int, ...]:
    x, y = cell
    mask = doors[tile]
    out = []
    if mask & N and (other := cells.get((x, y - 1))) is not None and doors[other] & S:
        out.append(other)
    if mask & E and (other := cells.get((x + 1, y))) is not None and doors[other] & W:
        out.append(other)
    if mask & S and (other := cells.get((x, y + 1))) is not None and doors[other] & N:
        out.append(other)
    if mask & W and (other := cells.get((x - 1, y))) is not None and doors[other] & E:
        out.append(other)
    return tuple(out)


def links(st: State) -> dict[int, tuple[int, ...]]:
    """For every tile, the tiles joined to it by facing connectors (N, E, S, W order)."""
    found = st.geo.get("links")
    if found is None:
        cells, doors = st.cell, st.doors
        found = st.geo["links"] = {tile: _links_of(cells, doors, tile, cell) for tile, cell in st.pos.items()}
    return found


def linked(st: State, tile: int) -> tuple[int, ...]:
    """Tiles joined to ``tile`` by a pair of facing connectors, in N, E, S, W order."""
    return links(st)[tile]


def _adjacent_of(cells: dict[Cell, int], cell: Cell) -> tuple[int, ...]:
    return tuple(o for c in neighbours(cell) if (o := cells.get(c)) is not None)


def adjacent(st: State, tile: int) -> tuple[int, ...]:
    """Tiles on the four orthogonally adjacent cells, connected or not."""
    found: dict[int, tuple[int, ...]] | None = st.geo.get("adjacent")
    if found is None:
        found = st.geo["adjacent"] = {}
    near = found.get(tile)
    if near is None:  # worked out per tile: only the Laser asks
        near = found[tile] = _adjacent_of(st.cell, st.pos[tile])
    return near


def teleporters(st: State) -> tuple[int, ...]:
    """The Teleporter tiles in the station, in the order they were placed."""
    found = st.geo.get("teleporters")
    if found is None:
        found = st.geo["teleporters"] = tuple(t for t in st.pos if TILES[t].kind == TELEPORTER)
    return found


def time_machine(st: State) -> int | None:
    """The Time Machine's tile id if it lies in the station."""
    geo = st.geo
    if "time_machine" not in geo:
        geo["time_machine"] = next((t for t in st.pos if TILES[t].kind == TIME_MACHINE), None)
    found: int | None = geo["time_machine"]
    return found


def _reach(
    cells: dict[Cell, int], pos: dict[int, Cell], doors: dict[int, int], skip: int | None = None
) -> set[int]:
    """Tiles reachable from the Waking Room through connectors, never through ``skip``."""
    seen = {WAKING_ROOM_ID}
    if skip is not None:
        seen.add(skip)
    todo = [WAKING_ROOM_ID]
    while todo:
        tile = todo.pop()
        x, y = pos[tile]
        mask = doors[tile]
        if mask & N and (nb := cells.get((x, y - 1))) is not None and nb not in seen and doors[nb] & S:
            seen.add(nb)
            todo.append(nb)
        if mask & E and (nb := cells.get((x + 1, y))) is not None and nb not in seen and doors[nb] & W:
            seen.add(nb)
            todo.append(nb)
        if mask & S and (nb := cells.get((x, y + 1))) is not None and nb not in seen and doors[nb] & N:
            seen.add(nb)
            todo.append(nb)
        if mask & W and (nb := cells.get((x - 1, y))) is not None and nb not in seen and doors[nb] & E:
            seen.add(nb)
            todo.append(nb)
    if skip is not None:
        seen.discard(skip)
    return seen


def connected(st: State) -> bool:
    """True if every tile of the station can be reached from the Waking Room."""
    return len(_reach(st.cell, st.pos, st.doors)) == len(st.pos)


def distances(st: State) -> dict[int, int]:
    """Steps from the Waking Room to each Module, moving through Modules only (not Pods)."""
    found = st.geo.get("distances")
    if found is None:
        joined = links(st)
        dist = {WAKING_ROOM_ID: 0}
        queue = deque([WAKING_ROOM_ID])
        while queue:
            tile = queue.popleft()
            for other in joined[tile]:
                if other not in dist and not _IS_POD[other]:
                    dist[other] = dist[tile] + 1
                    queue.append(other)
        found = st.geo["distances"] = dist
    return found


def _open_cells(st: State) -> list[OpenCell]:
    """Empty cells facing a connector of a Module, sorted north to south then west to east, each
    with the mask of its sides facing a Module connector and its four neighbours (N, E, S, W)."""
    found = st.geo.get("open")
    if found is None:
        cells, doors = st.cell, st.doors
        spots: dict[Cell, None] = {}
        for tile, (x, y) in st.pos.items():
            if _IS_POD[tile]:
                continue
            mask = doors[tile]
            if mask & N and (x, y - 1) not in cells:
                spots[(x, y - 1)] = None
            if mask & E and (x + 1, y) not in cells:
                spots[(x + 1, y)] = None
            if mask & S and (x, y + 1) not in cells:
                spots[(x, y + 1)] = None
            if mask & W and (x - 1, y) not in cells:
                spots[(x - 1, y)] = None
        found = [(cell, *_open_entry(cells, doors, cell)) for cell in sorted(spots, key=_north_first)]
        st.geo["open"] = found
    return found


def _north_first(cell: Cell) -> tuple[int, int]:
    return (cell[1], cell[0])


def _open_entry(
    cells: dict[Cell, int], doors: dict[int, int], cell: Cell
) -> tuple[int, tuple[int | None, ...]]:
    """An empty cell's mask of sides facing a Module connector, and its neighbours (N, E, S, W)."""
    x, y = cell
    around = (cells.get((x, y - 1)), cells.get((x + 1, y)), cells.get((x, y + 1)), cells.get((x - 1, y)))
    need = 0
    for side, other, back in zip(SIDES, around, (S, W, N, E), strict=True):
        if other is not None and not _IS_POD[other] and doors[other] & back:
            need |= side
    return need, around


SHARED_LAYOUTS: Final = 128
"""How many grown layouts' caches one game's copies keep for each other (see :func:`built`)."""


def built(st: State, before: dict[Any, Any], tile: int) -> None:
    """Give ``st`` the layout cache of its station, which has just received ``tile`` on a free
    cell (``before``: the cache of the station without it).

    Copies of one game that build the same tile on the same spot of the same station (a
    search's sampled worlds do, again and again) reach the same layout, so they share its cache:
    the second to build it keeps it in ``before`` for the next ones (a layout built only once is
    not kept), at most :data:`SHARED_LAYOUTS` of them per game (the count is shared along the
    chain of caches). Otherwise the cache is carried over from ``before`` (:func:`grown`)."""
    key = (tile, st.pos[tile], st.rot[tile])
    after: dict[Any, Any] | None = before.get("after")
    if after is None:
        after = before["after"] = {}
    found = after.get(key)
    if found is not None and found is not False:
        st.geo = found
        return
    grown(st, before, tile)
    budget: list[int] | None = before.get("budget")
    if budget is None:
        budget = before["budget"] = [SHARED_LAYOUTS]
    st.geo["budget"] = budget
    if found is None:
        after[key] = False  # seen once
    elif budget[0] > 0:
        budget[0] -= 1
        after[key] = st.geo


def grown(st: State, before: dict[Any, Any], tile: int) -> None:
    """Carry the layout answers over to the station that has just received ``tile`` on a free
    cell (``before`` is the layout cache of the station without it): only what the new tile
    touches is worked out again. The answers are those a fresh computation would give."""
    geo = st.geo
    cells, doors, pos = st.cell, st.doors, st.pos
    cell = pos[tile]
    kind = TILES[tile].kind
    old_links: dict[int, tuple[int, ...]] | None = before.get("links")
    if old_links is not None:
        joined = dict(old_links)
        mine = _links_of(cells, doors, tile, cell)
        joined[tile] = mine
        for other in mine:
            joined[other] = _links_of(cells, doors, other, pos[other])
        geo["links"] = joined
    if "teleporters" in before:
        geo["teleporters"] = (*before["teleporters"], tile) if kind == TELEPORTER else before["teleporters"]
    if "time_machine" in before:
        geo["time_machine"] = tile if kind == TIME_MACHINE else before["time_machine"]
    old_distances: dict[int, int] | None = before.get("distances")
    if old_distances is not None and "links" in geo:
        geo["distances"] = (
            old_distances if kind == POD else _distances_grown(geo["links"], old_distances, tile)
        )
    old_open: list[OpenCell] | None = before.get("open")
    if old_open is not None:
        geo["open"] = _open_grown(st, old_open, tile)


def _distances_grown(joined: dict[int, tuple[int, ...]], before: dict[int, int], tile: int) -> dict[int, int]:
    """The distances from the Waking Room once Module ``tile`` has joined the station."""
    found = dict(before)
    best = -1
    for other in joined[tile]:
        if not _IS_POD[other] and other in found and (best < 0 or found[other] < best):
            best = found[other]
    if best >= 0:
        found[tile] = best + 1
        todo = [tile]
        i = 0
        while i < len(todo):  # shorter ways through the new tile, breadth first
            here = todo[i]
            i += 1
            near = found[here] + 1
            for other in joined[here]:
                if not _IS_POD[other] and found.get(other, near + 1) > near:
                    found[other] = near
                    todo.append(other)
    return found


def _open_grown(st: State, before: list[Any], tile: int) -> list[OpenCell]:
    """The open cells once ``tile`` stands on one of them (``before``: those without it): the
    cell is gone, its free neighbours gain the new tile (and a Module's doors facing them), and
    new cells open in front of a new Module's doors. Sorted north to south, then west to east.
    (The entries are handled as plain objects: compiled code would rebuild typed triples.)"""
    cells, doors = st.cell, st.doors
    cell = st.pos[tile]
    x, y = cell
    mask = doors[tile] if not _IS_POD[tile] else 0
    spots: list[Any] = [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
    olds: dict[Any, Any] = {}
    for entry in before:
        if _apart(entry[0], cell) == 1:  # a neighbour of the new tile
            olds[entry[0]] = entry
    changed: dict[Any, Any] = {}
    fresh: list[OpenCell] = []
    for i in range(4):
        spot = spots[i]
        if spot in cells:
            continue
        old = olds.get(spot)
        if old is None:
            if mask & SIDES[i]:  # a new spot in front of one of the new Module's doors
                need, around = _open_entry(cells, doors, spot)
                fresh.append((spot, need, around))
            continue
        facing = (i + 2) % 4  # the side of the spot that faces the new tile
        around = (*old[2][:facing], tile, *old[2][facing + 1 :])
        changed[spot] = (spot, old[1] | _BACK[i] if mask & SIDES[i] else old[1], around)
    fresh.sort(key=_open_north_first)
    out: list[Any] = []
    j = 0
    for entry in before:
        here = entry[0]
        while j < len(fresh) and _north_of(fresh[j][0], here):
            out.append(fresh[j])
            j += 1
        near = _apart(here, cell)
        if near == 0:
            continue
        update = changed.get(here) if near == 1 else None
        out.append(entry if update is None else update)
    out.extend(fresh[j:])
    return out


def _apart(a: Cell, b: Cell) -> int:
    """How many steps north, south, east or west lead from cell ``a`` to ``b``."""
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    return (dx if dx >= 0 else -dx) + (dy if dy >= 0 else -dy)


def _north_of(a: Cell, b: Cell) -> bool:
    """True if cell ``a`` comes before ``b`` north to south, then west to east."""
    return a[1] < b[1] or (a[1] == b[1] and a[0] < b[0])


def _open_north_first(entry: OpenCell) -> tuple[int, int]:
    return _north_first(entry[0])


def _frontier(st: State, skip: int | None = None) -> list[Cell]:
    """Empty cells facing a connector of a Module (``skip``'s cell counts as empty)."""
    free = st.pos[skip] if skip is not None else None
    found: dict[Cell, None] = {}
    for tile, cell in st.pos.items():
        if tile == skip or TILES[tile].kind == POD:
            continue
        mask = st.doors[tile]
        for side in SIDES:
            if mask & side:
                target = step(cell, side)
                if target == free or target not in st.cell:
                    found.setdefault(target, None)
    return sorted(found, key=lambda c: (c[1], c[0]))


def module_placements(st: State, tile: int) -> list[Placement]:
    """Where a new Module may be built: joined to at least one Module by facing connectors."""
    key = ("modules", TILES[tile].doors)
    found = st.geo.get(key)
    if found is None:
        rotations = distinct_rotations(TILES[tile].doors)
        found = []
        opens: list[Any] = _open_cells(st)  # objects, not pairs that compiled code would rebuild
        for entry in opens:
            need: int = entry[1]
            for rot, mask in rotations:
                if mask & need:
                    found.append((entry[0], rot))
        st.geo[key] = found
    return found


def _pod_spots(st: State, pod: int, allowed: set[int] | dict[int, int]) -> list[Placement]:
    """Cells and rotations that join ``pod``'s connector to a Module in ``allowed``."""
    out = []
    rotations = distinct_rotations(TILES[pod].doors)
    for cell in _frontier(st, skip=pod if pod in st.pos else None):
        for rot, mask in rotations:
            side = mask  # a pod has exactly one connector
            other = st.cell.get(step(cell, side))
            if other is not None and other != pod and other in allowed and st.doors[other] & OPPOSITE[side]:
                out.append((cell, rot))
    return out


def pod_placements(st: State, pod: int) -> list[Placement]:
    """Where a new Escape Pod may be built: through at least three tiles from the Waking Room."""
    if pod in st.pos:
        far = {t for t, d in distances(st).items() if d >= 3}
        return _pod_spots(st, pod, far)
    key = ("pods", TILES[pod].doors)
    found = st.geo.get(key)
    if found is None:
        dist = distances(st)
        doors = st.doors
        found = []
        rotations = distinct_rotations(TILES[pod].doors)
        opens: list[Any] = _open_cells(st)  # objects, not pairs that compiled code would rebuild
        for entry in opens:
            around: tuple[int | None, ...] = entry[2]
            for rot, side in rotations:  # a pod has exactly one connector
                other = around[_SIDE_INDEX[side]]
                if other is not None and dist.get(other, 0) >= 3 and doors[other] & OPPOSITE[side]:
                    found.append((entry[0], rot))
        st.geo[key] = found
    return found


def pod_relocations(st: State, pod: int) -> list[Placement]:
    """Where a Pilot may move her Escape Pod: next to any Module without an Alien."""
    allowed = {t for t in st.pos if TILES[t].kind != POD and t not in st.aliens}
    here = (st.pos[pod], st.rot[pod])
    return [p for p in _pod_spots(st, pod, allowed) if p != here]


def placements(st: State, tile: int) -> list[Placement]:
    """Legal building positions for a Module or an Escape Pod."""
    if TILES[tile].kind == POD:
        return pod_placements(st, tile)
    return module_placements(st, tile)


def control_moves(st: State) -> list[tuple[int, Cell, int]]:
    """Every (tile, cell, rotation) the Control Room may give a non-Pod, non-Waking Room tile.

    The tile keeps its contents; it must join a Module by facing connectors, every tile must
    stay reachable from the Waking Room, and the result must differ from the present layout.
    """
    found = st.geo.get("control")
    if found is None:
        found = st.geo["control"] = _control_moves(st)
    return found


def _parts_without(st: State, tile: int) -> dict[int, int]:
    """The connected parts of the station once ``tile`` is lifted off: part number by tile (the
    Waking Room's part is 0)."""
    joined = links(st)
    part: dict[int, int] = {tile: -1}
    number = 0
    for root in (WAKING_ROOM_ID, *st.pos):
        if root in part:
            continue
        part[root] = number
        todo = [root]
        while todo:
            for other in joined[todo.pop()]:
                if other not in part:
                    part[other] = number
                    todo.append(other)
        number += 1
    del part[tile]
    return part


def _control_moves(st: State) -> list[tuple[int, Cell, int]]:
    out: list[tuple[int, Cell, int]] = []
    cells, doors = st.cell, st.doors
    for tile in sorted(st.pos):
        kind = TILES[tile].kind
        if kind in (WAKING_ROOM, POD):
            continue
        old_cell, old_doors = st.pos[tile], st.doors[tile]
        part = _parts_without(st, tile)
        parts = max(part.values()) + 1
        rotations = distinct_rotations(TILES[tile].doors)
        if parts == 1:
            for cell, need in _open_without(st, tile):
                same = cell == old_cell
                for rot, mask in rotations:
                    if mask & need and not (same and mask == old_doors):
                        out.append((tile, cell, rot))
            continue
        # The tile holds the station together: it must link, at its new place, to every part
        # (the parts are joined through it alone). Only spots touching a cut-off part can work.
        near: dict[Cell, None] = {old_cell: None}
        for t, number in part.items():
            if number:
                for c in neighbours(st.pos[t]):
                    if c not in cells:
                        near.setdefault(c, None)
        for cell in sorted(near, key=lambda c: (c[1], c[0])):
            x, y = cell
            around = [
                cells.get(c) if c != old_cell else None
                for c in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
            ]
            same = cell == old_cell
            for rot, mask in rotations:
                if same and mask == old_doors:
                    continue
                # the parts it would join, and whether one of them is joined through a Module
                touched: set[int] = set()
                modules = False
                for i in range(4):
                    other = around[i]
                    if other is not None and mask & SIDES[i] and doors[other] & _BACK[i]:
                        touched.add(part[other])
                        modules = modules or not _IS_POD[other]
                if modules and len(touched) == parts:
                    out.append((tile, cell, rot))
    return out


def _open_without(st: State, tile: int) -> list[tuple[Cell, int]]:
    """The open cells (sorted) if ``tile`` were lifted off the station, each with the mask of its
    sides facing a connector of a Module other than ``tile`` (cells with none left out).

    The same cells and order as ``_frontier(st, skip=tile)``; a side's bit is set exactly when
    the neighbour on that side is a Module other than ``tile`` with a door facing the cell."""
    doors = st.doors
    out = []
    for cell, need, around in _open_cells(st):
        if tile in around:
            for i in range(4):
                if around[i] == tile:
                    need &= ~SIDES[i]
        if need:
            out.append((cell, need))
    x, y = st.pos[tile]
    need = 0
    for side, (dx, dy), back in zip(SIDES, ((0, -1), (1, 0), (0, 1), (-1, 0)), (S, W, N, E), strict=True):
        other = st.cell.get((x + dx, y + dy))
        if other is not None and not _IS_POD[other] and doors[other] & back:
            need |= side
    if need:
        out.append(((x, y), need))
        out.sort(key=lambda item: (item[0][1], item[0][0]))
    return out


def pods_facing(st: State, tile: int) -> tuple[int, ...]:
    """Escape Pods whose connector opens onto ``tile``."""
    found: dict[int, tuple[int, ...]] | None = st.geo.get("pods_facing")
    if found is None:
        found = st.geo["pods_facing"] = {}
    pods = found.get(tile)
    if pods is None:
        out = []
        x, y = st.pos[tile]
        cells, doors = st.cell, st.doors
        # N, E, S, W of the tile: a Pod there whose door faces back (S, W, N, E)
        if (other := cells.get((x, y - 1))) is not None and _IS_POD[other] and doors[other] & S:
            out.append(other)
        if (other := cells.get((x + 1, y))) is not None and _IS_POD[other] and doors[other] & W:
            out.append(other)
        if (other := cells.get((x, y + 1))) is not None and _IS_POD[other] and doors[other] & N:
            out.append(other)
        if (other := cells.get((x - 1, y))) is not None and _IS_POD[other] and doors[other] & E:
            out.append(other)
        pods = found[tile] = tuple(out)
    return pods
