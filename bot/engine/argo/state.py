"""The whole mutable state of one Argo game, with a fast copy and an exact JSON form."""

from __future__ import annotations

from typing import Any, Final

from bot.engine.argo.data import ALIEN_TRACKS, DIFFICULTIES, TEAM_SIZE, TILES
from bot.engine.argo.geometry import Cell, rotate

TRACK: Final = -1
"""Location of an Astronaut lying on the Alien score track."""
ESCAPED: Final = -2
"""Location of an Astronaut who left the station in an Escape Pod."""

_COPIED: Final = (
    "pos",
    "rot",
    "doors",
    "cell",
    "occ",
    "tokens",
)
_LISTS: Final = (
    "loc",
    "track",
    "scores",
    "activations",
    "escaped",
    "display",
    "stack",
    "pod_stack",
    "launched",
)
_PLAIN: Final = (
    "players",
    "difficulty",
    "deep_space",
    "tm_wait",
    "rng",
    "aliens",
    "turn",
    "active",
    "phase",
    "actions_used",
    "moved",
    "core_start",
    "final_turns",
    "finished",
    "alien_victory",
    "end_reason",
    "first_player",
    "window",
    "hold",
    "pending",
    "undo_base",
    "undo_log",
)


# Groups of containers that copies share until one side writes (see State.copy).
LAYOUT: Final = 1
TOKENS: Final = 2
TRACK_BIT: Final = 4
ESCAPES: Final = 8
SUPPLY: Final = 16
OWN_ALL: Final = LAYOUT | TOKENS | TRACK_BIT | ESCAPES | SUPPLY


class State:
    """Board, pieces, supply, scores and turn bookkeeping. Copy with :meth:`copy`.

    ``geo`` holds what is derived from the layout alone (links between tiles, building spots...,
    see station.py). It is never serialised, is shared by copies, and is replaced by a fresh dict
    whenever a tile is placed, moved or removed, so it always describes its state's layout."""

    __slots__ = (*_COPIED, *_LISTS, *_PLAIN, "geo", "owned")

    players: tuple[str, ...]
    difficulty: str
    deep_space: bool
    tm_wait: int
    rng: int
    pos: dict[int, Cell]
    rot: dict[int, int]
    doors: dict[int, int]
    cell: dict[Cell, int]
    occ: dict[int, tuple[int, ...]]
    loc: list[int]
    aliens: tuple[int, ...]
    track: list[int]
    tokens: dict[int, tuple[int, ...]]
    scores: list[int]
    activations: list[int]
    escaped: list[int]
    display: list[int]
    stack: list[int]
    pod_stack: list[int]
    launched: list[list[Any]]
    turn: int
    active: int
    first_player: int
    phase: str
    actions_used: int
    moved: tuple[int, ...]
    core_start: tuple[int, ...]
    final_turns: int | None
    finished: bool
    alien_victory: bool
    end_reason: str
    window: str | None
    hold: list[int] | None
    pending: dict[str, Any] | None
    undo_base: dict[str, Any] | State | None
    """The state at the last undo barrier: its JSON (as loaded), or a private copy that nothing
    changes, turned into the same JSON only by :meth:`to_json`."""
    undo_log: list[list[Any]]
    geo: dict[Any, Any]

    owned: int
    """Which groups of containers this state may change in place (bits LAYOUT, TOKENS...)."""

    def copy(self) -> State:
        """An independent copy.

        Occupants, locations and scores, which nearly every action changes, are copied at once.
        The other containers (layout, tokens and Activations, the Alien track, escapes, the tile
        supply) are shared by both states until one of them writes: every in-place change goes
        through an ``own_*`` method, which copies the group first if it is shared. Values held in
        containers (tuples, action dicts, the inner lists of ``launched``, the undo snapshot) are
        never changed in place, so sharing them is safe."""
        new = State()
        self.owned = new.owned = 0
        new.pos = self.pos
        new.rot = self.rot
        new.doors = self.doors
        new.cell = self.cell
        new.occ = self.occ.copy()
        new.tokens = self.tokens
        new.loc = self.loc.copy()
        new.track = self.track
        new.scores = self.scores.copy()
        new.activations = self.activations
        new.escaped = self.escaped
        new.display = self.display
        new.stack = self.stack
        new.pod_stack = self.pod_stack
        new.launched = self.launched
        new.players = self.players
        new.difficulty = self.difficulty
        new.deep_space = self.deep_space
        new.tm_wait = self.tm_wait
        new.rng = self.rng
        new.aliens = self.aliens
        new.turn = self.turn
        new.active = self.active
        new.phase = self.phase
        new.actions_used = self.actions_used
        new.moved = self.moved
        new.core_start = self.core_start
        new.final_turns = self.final_turns
        new.finished = self.finished
        new.alien_victory = self.alien_victory
        new.end_reason = self.end_reason
        new.first_player = self.first_player
        new.window = self.window
        new.hold = self.hold
        new.pending = self.pending
        new.undo_base = self.undo_base
        new.undo_log = self.undo_log
        new.geo = self.geo
        return new

    def own_layout(self) -> None:
        """Make ``pos``, ``rot``, ``doors`` and ``cell`` this state's own before a change."""
        if not self.owned & LAYOUT:
            self.pos = self.pos.copy()
            self.rot = self.rot.copy()
            self.doors = self.doors.copy()
            self.cell = self.cell.copy()
            self.owned |= LAYOUT

    def own_tokens(self) -> None:
        """Make ``tokens`` and ``activations`` this state's own before a change."""
        if not self.owned & TOKENS:
            self.tokens = self.tokens.copy()
            self.activations = self.activations.copy()
            self.owned |= TOKENS

    def own_track(self) -> None:
        """Make ``track`` this state's own before a change."""
        if not self.owned & TRACK_BIT:
            self.track = self.track.copy()
            self.owned |= TRACK_BIT

    def own_escapes(self) -> None:
        """Make ``escaped`` and ``launched`` this state's own before a change."""
        if not self.owned & ESCAPES:
            self.escaped = self.escaped.copy()
            self.launched = self.launched.copy()
            self.owned |= ESCAPES

    def own_supply(self) -> None:
        """Make ``display``, ``stack`` and ``pod_stack`` this state's own before a change."""
        if not self.owned & SUPPLY:
            self.display = self.display.copy()
            self.stack = self.stack.copy()
            self.pod_stack = self.pod_stack.copy()
            self.owned |= SUPPLY

    # ----- simple queries -------------------------------------------------------------------

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    def kind(self, tile: int) -> str:
        """The kind of a tile id."""
        return TILES[tile].kind

    def capacity(self, tile: int) -> int:
        """How many Astronauts a tile holds."""
        return TILES[tile].capacity

    def at(self, cell: Cell) -> int | None:
        """The tile id on a cell, or None."""
        return self.cell.get(cell)

    def placed(self, tile: int) -> bool:
        """True if the tile lies in the station."""
        return tile in self.pos

    def place(self, tile: int, cell: Cell, rot: int) -> None:
        """Put (or move) a tile on a cell with a rotation."""
        self.own_layout()
        old = self.pos.get(tile)
        if old is not None and self.cell.get(old) == tile:
            del self.cell[old]
        self.geo = {}
        self.pos[tile] = cell
        self.rot[tile] = rot
        self.doors[tile] = rotate(TILES[tile].doors, rot)
        self.cell[cell] = tile

    def remove(self, tile: int) -> None:
        """Take a tile out of the station."""
        self.own_layout()
        cell = self.pos.pop(tile)
        self.geo = {}
        del self.rot[tile], self.doors[tile]
        if self.cell.get(cell) == tile:
            del self.cell[cell]
        self.occ.pop(tile, None)
        if tile in self.tokens:
            self.own_tokens()
            del self.tokens[tile]

    def team(self, seat: int) -> range:
        """The Astronaut ids of a seat."""
        return range(seat * TEAM_SIZE, seat * TEAM_SIZE + TEAM_SIZE)

    def track_values(self) -> tuple[int, ...]:
        """The numbers printed on this game's Alien track."""
        return ALIEN_TRACKS[self.n]

    def covered(self) -> int:
        """How many slots the difficulty token hides."""
        return DIFFICULTIES[self.difficulty]

    def alien_score(self) -> int | None:
        """The number on the first visible free slot of the Alien track, None when full."""
        values = self.track_values()
        index = self.covered() + len(self.track)
        return values[index] if index < len(values) else None

    def actions_allowed(self) -> int:
        """Actions the active player has this turn (one in the first round)."""
        return 1 if self.turn < self.n else 2

    # ----- JSON -----------------------------------------------------------------------------

    def to_json(self, with_undo: bool = True) -> dict[str, Any]:
        """The state as a JSON-safe dict; ``with_undo=False`` leaves out the undo snapshot."""
        data: dict[str, Any] = {
            "players": list(self.players),
            "difficulty": self.difficulty,
            "deep_space": self.deep_space,
            "tm_wait": self.tm_wait,
            "rng": self.rng,
            "tiles": [[t, c[0], c[1], self.rot[t]] for t, c in self.pos.items()],
            "occ": [[t, list(a)] for t, a in self.occ.items()],
            "loc": list(self.loc),
            "aliens": list(self.aliens),
            "track": list(self.track),
            "tokens": [[t, list(s)] for t, s in self.tokens.items()],
            "scores": list(self.scores),
            "activations": list(self.activations),
            "escaped": list(self.escaped),
            "display": list(self.display),
            "stack": list(self.stack),
            "pod_stack": list(self.pod_stack),
            "launched": [[p, list(a)] for p, a in self.launched],
            "turn": self.turn,
            "active": self.active,
            "first_player": self.first_player,
            "phase": self.phase,
            "actions_used": self.actions_used,
            "moved": list(self.moved),
            "core_start": list(self.core_start),
            "final_turns": self.final_turns,
            "finished": self.finished,
            "alien_victory": self.alien_victory,
            "end_reason": self.end_reason,
            "window": self.window,
            "hold": None if self.hold is None else list(self.hold),
            "pending": self.pending,
        }
        if with_undo:
            base = self.undo_base
            data["undo_base"] = base.to_json(with_undo=False) if isinstance(base, State) else base
            data["undo_log"] = self.undo_log
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """The state stored by :meth:`to_json`."""
        st = cls()
        st.owned = OWN_ALL
        st.players = tuple(data["players"])
        st.difficulty = data["difficulty"]
        st.deep_space = bool(data["deep_space"])
        st.tm_wait = int(data["tm_wait"])
        st.rng = int(data["rng"])
        st.pos, st.rot, st.doors, st.cell = {}, {}, {}, {}
        for t, x, y, r in data["tiles"]:
            st.place(int(t), (int(x), int(y)), int(r))
        st.occ = {int(t): tuple(a) for t, a in data["occ"]}
        st.loc = list(data["loc"])
        st.aliens = tuple(data["aliens"])
        st.track = list(data["track"])
        st.tokens = {int(t): tuple(s) for t, s in data["tokens"]}
        st.scores = list(data["scores"])
        st.activations = list(data["activations"])
        st.escaped = list(data["escaped"])
        st.display = list(data["display"])
        st.stack = list(data["stack"])
        st.pod_stack = list(data["pod_stack"])
        st.launched = [[p, list(a)] for p, a in data["launched"]]
        st.turn = int(data["turn"])
        st.active = int(data["active"])
        st.first_player = int(data["first_player"])
        st.phase = data["phase"]
        st.actions_used = int(data["actions_used"])
        st.moved = tuple(data["moved"])
        st.core_start = tuple(data["core_start"])
        st.final_turns = data["final_turns"]
        st.finished = bool(data["finished"])
        st.alien_victory = bool(data["alien_victory"])
        st.end_reason = data["end_reason"]
        st.window = data["window"]
        st.hold = None if data["hold"] is None else list(data["hold"])
        st.pending = data["pending"]
        st.undo_base = data.get("undo_base")
        st.undo_log = data.get("undo_log") or []
        return st
