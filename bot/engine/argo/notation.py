"""Short text forms of actions: space-separated tokens, verb first, coarse to fine.

See docs/argo-notation.md. Cells are named relative to the Waking Room ("N2E1"), Astronauts
by role for the deciding player's own pieces in his own turn and "Colour-Role" otherwise.
"""

from __future__ import annotations

from typing import Final

from bot.engine.argo.data import COLOURS, ROLES, TEAM_SIZE, TILES
from bot.engine.argo.geometry import Cell, doors_text, label, rotate
from bot.engine.argo.state import State
from bot.engine.argo.text import owner, role
from bot.engine.core import Action

_COLOURED: Final[tuple[str, ...]] = tuple(
    f"{COLOURS[owner(aid)]}-{ROLES[role(aid)]}" for aid in range(len(COLOURS) * TEAM_SIZE)
)
"""``Colour-Role`` of every Astronaut id."""
_DOORS: Final[tuple[str, ...]] = tuple("doors-" + doors_text(mask) for mask in range(16))
"""The doors token of every door mask."""
_MEMO_SIZE: Final = 2048
"""Build notations remembered per layout at most (a layout offers a few hundred builds)."""
_LABELS: Final[dict[Cell, str]] = {}
"""Cell names already worked out (a station spans a few dozen cells)."""


def piece(aid: int, decider: int | None) -> str:
    """An Astronaut token: bare role for the decider's own pieces, else ``Colour-Role``."""
    if decider is not None and owner(aid) == decider:
        return ROLES[role(aid)]
    return _COLOURED[aid]


def _label(cell: Cell) -> str:
    """``label(cell)``, remembered."""
    found = _LABELS.get(cell)
    if found is None:
        found = _LABELS[cell] = label(cell)
    return found


def _at(st: State, tile: int) -> str:
    cell = st.pos.get(tile)
    return _label(cell) if cell is not None else f"tile{tile}"


def _cell(action: Action) -> str:
    """The label of the action's ``cell`` (a pair, given as a list or a tuple)."""
    cell = action["cell"]
    return _label((cell[0], cell[1]))


def _doors(tile: int, rot: int) -> str:
    return _DOORS[rotate(TILES[tile].doors, rot)]


def viewer(st: State) -> int | None:
    """The seat whose own pieces notations name by bare role: the deciding seat, None while a
    Time Machine interrupt is being decided (everything coloured)."""
    pending = st.pending
    if pending is not None:
        seat: int | None = None if pending["tm"] else pending["seat"]
        return seat
    return st.active


def notation(st: State, action: Action, decider: int | None) -> str:
    """The notation of ``action`` as seen by the deciding seat (None: everything coloured)."""
    kind: str = action["type"]
    if kind in ("cancel", "undo", "pass"):
        return kind
    if kind == "timemachine":
        return "timemachine " + notation(st, action["do"], None)
    if kind == "move" and "alien" in action:
        return f"move Alien {_at(st, action['alien'])} {_at(st, action['to'])}"
    if kind == "move":
        tiles: list[int] = action["path"]
        path = ">".join([_at(st, t) for t in tiles])
        return f"move {piece(action['astronaut'], decider)} {path}{_pilot_suffix(st, action)}"
    if kind == "push" and "alien" in action:
        return f"push Alien {_at(st, action['to'])}"
    if kind == "push":
        return (
            f"push {piece(action['astronaut'], decider)} {_at(st, action['to'])}{_pilot_suffix(st, action)}"
        )
    if kind == "kill":
        return f"kill {piece(action['astronaut'], decider)}"
    if kind == "teleport":
        return f"teleport {_at(st, action['to'])}"
    if kind == "build":
        return _build(st, action)
    if kind == "activate":
        return _activate(st, action, decider)
    return kind


def _build(st: State, action: Action) -> str:
    """A build's notation, which depends on the action alone: remembered per layout for the
    action objects asked about (``building.build_options`` shares its lists between copies)."""
    memo: dict[int, tuple[Action, str]] | None = st.geo.get("build_notation")
    if memo is None:
        memo = st.geo["build_notation"] = {}
    found = memo.get(id(action))
    if found is not None and found[0] is action:
        return found[1]
    tile = action["tile"]
    text = f"build {TILES[tile].token} {_cell(action)} {_doors(tile, action['rot'])}"
    if len(memo) < _MEMO_SIZE:
        memo[id(action)] = (action, text)  # the entry keeps the action alive: its id stays its own
    return text


def _pilot_suffix(st: State, action: Action) -> str:
    choice = action.get("pilot")
    if choice is None:
        return ""
    if choice == "relocate":
        pod = action["path"][-1] if "path" in action else action["to"]
        return f" relocate {_cell(action)} {_doors(pod, action['rot'])}"
    return f" {choice}"


def _activate(st: State, action: Action, decider: int | None) -> str:
    module = action["module"]
    head = f"activate {TILES[module].token}"
    if "tile" in action:  # Control Room
        tile = action["tile"]
        return f"{head} {_at(st, tile)} {_cell(action)} {_doors(tile, action['rot'])}"
    if "pod" in action:
        return f"{head} {_at(st, action['pod'])}"
    if "astronaut" in action and "alien" in action:
        return f"{head} {piece(action['astronaut'], decider)} {_at(st, action['alien'])}"
    if "alien" in action:
        return f"{head} {_at(st, action['alien'])}"
    if "astronaut" in action:
        return f"{head} {piece(action['astronaut'], decider)}"
    return head
