"""Map geometry: coordinates, sides, and the road-matching rules for placing cards.

The Town is at 0,0; x grows to the East, y grows to the North, so the map can grow in every
direction. A coordinate is written ``"x,y"`` (e.g. ``"2,-1"``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .data import DIRECTIONS

Coord = tuple[int, int]

OFFSETS: dict[str, Coord] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}


_TEXTS: dict[Coord, str] = {}
"""Text forms made so far (a map spans a few dozen cells; emptied if it ever holds
:data:`TEXTS_MAX`, so it stays bounded whatever a process plays)."""
TEXTS_MAX = 4096


def fmt(coord: Coord) -> str:
    """The text form of a coordinate: ``"x,y"``."""
    text = _TEXTS.get(coord)
    if text is None:
        if len(_TEXTS) >= TEXTS_MAX:
            _TEXTS.clear()
        text = _TEXTS[coord] = f"{coord[0]},{coord[1]}"
    return text


def shown(coord: Coord) -> str:
    """A coordinate as every Argoat text writes it: ``"(x,y)"``, in parentheses (the bare ``"x,y"``
    of :func:`fmt` is notation, for typed moves and data)."""
    return f"({fmt(coord)})"


def parse(text: str) -> Coord:
    """The coordinate written as ``"x,y"``; ValueError if it is not one."""
    x, y = text.split(",")
    return int(x), int(y)


def step(coord: Coord, side: str) -> Coord:
    """The neighbouring cell on ``side`` of ``coord``."""
    dx, dy = OFFSETS[side]
    return coord[0] + dx, coord[1] + dy


def neighbours(coord: Coord) -> Iterator[tuple[str, Coord]]:
    """Each side of ``coord`` with the cell beyond it."""
    for side in DIRECTIONS:
        yield side, step(coord, side)


_SIDES = tuple((side, OFFSETS[side][0], OFFSETS[side][1], OPPOSITE[side]) for side in DIRECTIONS)


def fits(roads: Mapping[Coord, str], cell: Coord, card_roads: str) -> bool:
    """Whether a card with ``card_roads`` may be placed on the empty ``cell``.

    Every shared edge must match (road meets road, blank meets blank: no road is cut off by a
    blank side, on either card), and at least one road must join the map.
    """
    if cell in roads:
        return False
    joined = False
    x, y = cell
    for side, dx, dy, opposite in _SIDES:
        other_roads = roads.get((x + dx, y + dy))
        if other_roads is None:
            continue
        mine = side in card_roads
        if mine != (opposite in other_roads):
            return False
        joined = joined or mine
    return joined


def frontier_spots(roads: Mapping[Coord, str], card_roads: str) -> list[Coord]:
    """Every cell where a frontier with ``card_roads`` may be placed, sorted."""
    candidates = {(x + dx, y + dy) for x, y in roads for _, dx, dy, _ in _SIDES}
    return sorted(c for c in candidates if fits(roads, c, card_roads))


SIDE_BITS: dict[str, int] = {side: 1 << i for i, side in enumerate(DIRECTIONS)}


def road_bits(card_roads: str) -> int:
    """The sides of ``card_roads`` as a bit mask (see :data:`SIDE_BITS`)."""
    bits = 0
    for side in card_roads:
        bits |= SIDE_BITS[side]
    return bits


def constraint(roads: Mapping[Coord, str], cell: Coord) -> tuple[int, int]:
    """What a card placed on the empty ``cell`` must match, as bit masks: the sides that must
    carry a road (a neighbour's road faces them) and the sides that must be blank (a
    neighbour's blank side faces them). A card with roads ``r`` fits there exactly when
    ``need`` is not 0, ``r & need == need`` and ``r & blank`` is 0 (as :func:`fits` says)."""
    need = blank = 0
    x, y = cell
    for side, dx, dy, opposite in _SIDES:
        other_roads = roads.get((x + dx, y + dy))
        if other_roads is None:
            continue
        if opposite in other_roads:
            need |= SIDE_BITS[side]
        else:
            blank |= SIDE_BITS[side]
    return need, blank


def open_cells(roads: Mapping[Coord, str]) -> dict[Coord, tuple[int, int]]:
    """Every empty cell a road leads to, with its :func:`constraint`."""
    cells = {}
    for cell in {(x + dx, y + dy) for x, y in roads for _, dx, dy, _ in _SIDES}:
        if cell not in roads:
            need, blank = constraint(roads, cell)
            if need:
                cells[cell] = (need, blank)
    return cells


def update_open_cells(cells: dict[Coord, tuple[int, int]], roads: Mapping[Coord, str], at: Coord) -> None:
    """Bring :func:`open_cells` ``cells`` up to date after a card was placed on ``at``."""
    cells.pop(at, None)
    x, y = at
    for _, dx, dy, _ in _SIDES:
        cell = (x + dx, y + dy)
        if cell in roads:
            continue
        need, blank = constraint(roads, cell)
        if need:
            cells[cell] = (need, blank)
        else:
            cells.pop(cell, None)


def forest_spots(roads: Mapping[Coord, str], parent: Coord) -> list[tuple[Coord, str]]:
    """Every cell where a Dark Forest may join the frontier at ``parent``, with its road side.

    A Dark Forest has a single road, facing its parent; its other three sides are blank.
    """
    spots: list[tuple[Coord, str]] = []
    for side, cell in neighbours(parent):
        if side not in roads[parent] or cell in roads:
            continue
        road = OPPOSITE[side]
        if fits(roads, cell, road):
            spots.append((cell, road))
    return sorted(spots)


def exits(roads: Mapping[Coord, str], coord: Coord) -> list[tuple[str, Coord]]:
    """The sides of ``coord`` along which a road leads to a placed card, with that card's cell."""
    here = roads[coord]
    x, y = coord
    return [
        (side, (x + dx, y + dy)) for side, dx, dy, _ in _SIDES if side in here and (x + dx, y + dy) in roads
    ]
