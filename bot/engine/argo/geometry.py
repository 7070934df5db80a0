"""Square-grid geometry of the station: sides, rotations, neighbouring cells, cell labels.

A cell is ``(x, y)`` with x growing eastwards and y growing southwards; the Waking Room is the
cell ``(0, 0)``. Door sets are 4-bit masks of the sides N, E, S, W.
"""

from __future__ import annotations

from typing import Final

Cell = tuple[int, int]

N: Final = 1
E: Final = 2
S: Final = 4
W: Final = 8
SIDES: Final[tuple[int, ...]] = (N, E, S, W)
SIDE_LETTER: Final[dict[int, str]] = {N: "N", E: "E", S: "S", W: "W"}
SIDE_NAME: Final[dict[int, str]] = {N: "north", E: "east", S: "south", W: "west"}
DELTA: Final[dict[int, Cell]] = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
OPPOSITE: Final[dict[int, int]] = {N: S, S: N, E: W, W: E}
ORIGIN: Final[Cell] = (0, 0)


def rotate(mask: int, quarter_turns: int) -> int:
    """The door mask turned clockwise by ``quarter_turns`` quarter turns."""
    for _ in range(quarter_turns % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def distinct_rotations(mask: int) -> list[tuple[int, int]]:
    """``(rotation, door mask)`` for each rotation giving a different door set, smallest first."""
    return list(_ROTATIONS[mask])


def _distinct_rotations(mask: int) -> tuple[tuple[int, int], ...]:
    seen: dict[int, int] = {}
    for rot in range(4):
        seen.setdefault(rotate(mask, rot), rot)
    return tuple((rot, doors) for doors, rot in seen.items())


_ROTATIONS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(_distinct_rotations(m) for m in range(16))


def step(cell: Cell, side: int) -> Cell:
    """The cell next to ``cell`` on ``side``."""
    dx, dy = DELTA[side]
    return (cell[0] + dx, cell[1] + dy)


def neighbours(cell: Cell) -> list[Cell]:
    """The four orthogonally adjacent cells (N, E, S, W)."""
    x, y = cell
    return [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]


def doors_text(mask: int) -> str:
    """The door sides as letters in N, E, S, W order, e.g. ``"NES"``."""
    return "".join(SIDE_LETTER[s] for s in SIDES if mask & s)


def label(cell: Cell) -> str:
    """The name of a cell relative to the Waking Room: ``"WR"``, ``"N2"``, ``"E3"``, ``"S1W2"``."""
    x, y = cell
    if x == 0 and y == 0:
        return "WR"
    row = f"N{-y}" if y < 0 else (f"S{y}" if y > 0 else "")
    col = f"E{x}" if x > 0 else (f"W{-x}" if x < 0 else "")
    return row + col
