"""The whole mutable state of an Argoat game, and its exact JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from bot.engine.core import Rng

from .data import (
    COLOURS,
    DIRECTIONS,
    FRAGMENT_KEYS,
    FRONTIER_BY_KEY,
    ITEM_KEYS,
    MARKERS_PER_PLAYER,
    TOWN_KEY,
    TRAIL,
)
from .geometry import OPPOSITE, Coord, exits, open_cells, road_bits, update_open_cells

Action = dict[str, Any]

MOVES: dict[str, Action] = {side: {"type": "move", "dir": side} for side in DIRECTIONS}
"""The one-space moves, shared by every game (actions are never changed once made)."""
RIDES: dict[str, Action] = {
    path: {"type": "bleina", "path": list(path)}
    for path in [*DIRECTIONS, *(a + b for a in DIRECTIONS for b in DIRECTIONS)]
}
"""The Bleina rides by their sides (``"N"``, ``"NE"``), shared like :data:`MOVES`."""

TURN = "turn"
"""Phase: the active player moves, uses Items, trades, and finally ends the turn."""
DRAFT = "draft"
"""Phase: the active player is building a trade proposal, one part at a time."""
OFFER = "offer"
"""Phase: a proposal waits for the other player's answer (or the proposer's withdrawal)."""
PLACE_FRONTIER = "place_frontier"
"""Phase: the Town's action drew a frontier; the active player chooses where it goes."""
PLACE_FOREST = "place_forest"
"""Phase: a Dragon frontier was placed; the active player chooses where its Dark Forest goes."""
DREAM = "dream"
"""Phase: the Hill of Dreams drew a frontier whose action needs the active player's choice."""
OVER = "over"
"""Phase: someone flipped Eden; the game has ended."""


@dataclass
class Seat:
    """One player's pieces: Avatar position, Emeralds, Fragments, Items, peeks."""

    id: str
    colour: str
    pos: Coord = (0, 0)
    emeralds: int = 0
    fragments: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    peeks: list[Coord] = field(default_factory=list)
    """Dark Forests this player has looked at, in the order they looked."""

    @property
    def letter(self) -> str:
        """The seat's letter (its colour's initial)."""
        return self.colour[0]

    def add_fragment(self, key: str) -> None:
        """Take a Fragment (kept in card-list order)."""
        self.fragments.append(key)
        self.fragments.sort(key=FRAGMENT_KEYS.index)

    def add_item(self, key: str) -> None:
        """Take an Item (kept in card-list order, so the hand's order reveals nothing)."""
        self.items.append(key)
        self.items.sort(key=ITEM_KEYS.index)


@dataclass
class Forest:
    """A Dark Forest on the map."""

    at: Coord
    road: str
    """The one side carrying a road (towards the Dragon frontier that brought it)."""
    content: str
    """"Eden" or "Hollow": secret until flipped."""
    flipped: bool = False
    markers: list[str] = field(default_factory=list)
    """Ids of the players with a Check Marker here, in the order they were placed."""


@dataclass
class Movement:
    """What the active player has done with their movement this turn."""

    steps: int = 0
    """Ordinary spaces moved (not Bleina, not teleports)."""
    max_steps: int = 1
    """Ordinary spaces allowed this turn (3 with the Wings of the Holy Dragon)."""
    moved: bool = False
    """The mandatory move is done (Q4), or was made optional by a Staff of Guidance."""
    over: bool = False
    """No more ordinary movement (a Staff of Guidance was used after moving)."""
    bleina_used: bool = False
    wings: bool = False
    free_bleina: bool = False
    """A Flute of Cleansing was used: Bleina movement costs nothing this turn."""

    def values(self) -> tuple[Any, ...]:
        """The fields in order (``Movement(*values)`` makes an equal record)."""
        return (
            self.steps,
            self.max_steps,
            self.moved,
            self.over,
            self.bleina_used,
            self.wings,
            self.free_bleina,
        )


Snapshot = tuple[Coord, int, int, tuple[Coord, ...], tuple[Any, ...]]
"""An undo point (:meth:`State.movement_snapshot`): Avatar cell, Emeralds, Bank, Bleina
cells, and the :class:`Movement` fields in order."""


@dataclass
class State:
    """Everything about one game; :class:`ArgoatGame` wraps it with the engine contract."""

    seats: list[Seat]
    difficulty: str
    rng: Rng
    trade_wait: int = 60
    """Minutes a trade offer waits for its answer before it lapses as declined (0: no limit)."""
    frontiers: dict[Coord, str] = field(default_factory=dict)
    """Frontier key of each placed frontier card."""
    forests: dict[Coord, Forest] = field(default_factory=dict)
    discovery: list[str] = field(default_factory=list)
    """The Discovery Deck, top first (secret order)."""
    supply: list[str] = field(default_factory=list)
    """The Supply of Items, top first (secret order)."""
    darkness: list[str] = field(default_factory=list)
    """The Darkness Deck, top first (secret contents)."""
    bank: int = 0
    reliquary: dict[str, int] = field(default_factory=dict)
    bleinas: list[Coord] = field(default_factory=list)
    used_items: list[str] = field(default_factory=list)
    """Items played so far (public: a used Item is shown), in the order they were used."""
    active: int = 0
    turn: int = 1
    extra_turns: int = 0
    phase: str = TURN
    move: Movement = field(default_factory=Movement)
    start: Coord | None = None
    """Where the active player's Avatar stood when the turn began, recorded by their first
    movement action (None until then; also None in games saved before it was recorded, and
    then Q4's "end elsewhere" is not enforced for the rest of that turn)."""
    trade: list[Any] | None = None
    """The trade being built or offered: ``[partner_id, ((side, what, which), ...)]`` (the
    parts are an immutable tuple, replaced as parts are added or taken back)."""
    offered: list[str] = field(default_factory=list)
    """The partners the active player has proposed a trade to this turn (public)."""
    drawn: str | None = None
    """The frontier drawn by the Town or the Hill of Dreams and not yet put away."""
    placed: Coord | None = None
    """Where the drawn Dragon frontier was placed (its Dark Forest goes next to it)."""
    winner: int | None = None
    known_items: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """What each player knows another still holds: ``observer → holder → Item keys`` (sorted
    in card-list order, only non-empty entries). A lower bound kept up to date from what the
    observer saw: Items they handed over in a trade, minus what the holder may have played or
    passed on since (see :mod:`.knowledge`)."""
    undo: list[Snapshot] = field(default_factory=list)
    """Movement snapshots to go back to, newest last; emptied at every barrier."""
    roads: dict[Coord, str] = field(default_factory=dict)
    """Derived: the road sides of every card on the map (frontiers and forests)."""
    _exits: dict[Coord, list[tuple[str, Coord]]] = field(default_factory=dict, repr=False)
    _spots: dict[str, list[Coord]] = field(default_factory=dict, repr=False)
    _moves: dict[Coord, tuple[list[Action], list[Action]]] = field(default_factory=dict, repr=False)
    _rides: dict[Coord, tuple[list[Action], list[Action]]] = field(default_factory=dict, repr=False)
    _trails: list[Coord] | None = field(default=None, repr=False)
    _open: dict[Coord, tuple[int, int]] | None = field(default=None, repr=False)
    """Derived: the empty cells a road leads to, with what a card there must match."""

    def __post_init__(self) -> None:
        self.rebuild_roads()

    def rebuild_roads(self) -> None:
        """Recompute :attr:`roads` from the placed frontiers and forests."""
        roads = {at: FRONTIER_BY_KEY[key].roads for at, key in self.frontiers.items()}
        roads.update({at: f.road for at, f in self.forests.items()})
        self.roads = roads
        self._map_changed()

    def _map_changed(self, at: Coord | None = None) -> None:
        """Forget what is derived from the map's roads (``at``: the one card just placed, which
        changes only the exits of its neighbours and the moves from cells near it)."""
        self._spots = {}
        self._trails = None
        if at is None or self._open is None:
            self._exits = {}
            self._moves = {}
            self._rides = {}
            self._open = None
            return
        update_open_cells(self._open, self.roads, at)
        x, y = at
        for cell in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
            self._exits.pop(cell, None)
        # moves from the card's neighbours change, two-space rides from up to two steps away
        self._moves = {
            cell: moves for cell, moves in self._moves.items() if abs(cell[0] - x) + abs(cell[1] - y) > 1
        }
        self._rides = {
            cell: rides for cell, rides in self._rides.items() if abs(cell[0] - x) + abs(cell[1] - y) > 2
        }

    def place_frontier(self, at: Coord, key: str) -> None:
        """Put a frontier card on the map."""
        self.frontiers[at] = key
        self.roads[at] = FRONTIER_BY_KEY[key].roads
        self._map_changed(at)

    def place_forest(self, forest: Forest) -> None:
        """Put a Dark Forest card on the map."""
        self.forests[forest.at] = forest
        self.roads[forest.at] = forest.road
        self._map_changed(forest.at)

    def frontier_spots(self, card_roads: str) -> list[Coord]:
        """Every cell where a frontier with roads ``card_roads`` may be placed now, sorted."""
        found = self._spots.get(card_roads)
        if found is None:
            if self._open is None:
                self._open = open_cells(self.roads)
            bits = road_bits(card_roads)
            found = self._spots[card_roads] = sorted(
                cell for cell, (need, blank) in self._open.items() if bits & need == need and not bits & blank
            )
        return found

    def trails(self) -> list[Coord]:
        """The cells of the Unmarked Trails on the map, sorted (a shared list)."""
        if self._trails is None:
            self._trails = sorted(
                at for at, key in self.frontiers.items() if FRONTIER_BY_KEY[key].action == TRAIL
            )
        return self._trails

    def exits(self, at: Coord) -> list[tuple[str, Coord]]:
        """The sides of ``at`` whose road leads to a placed card, with that card's cell."""
        found = self._exits.get(at)
        if found is None:
            found = self._exits[at] = exits(self.roads, at)
        return found

    def move_lists(self, at: Coord) -> tuple[list[Action], list[Action]]:
        """The movement actions from ``at``: one-space moves and one-space Bleina rides, along
        the roads. Shared lists of shared actions: do not change them."""
        found = self._moves.get(at)
        if found is None:
            first = self.exits(at)
            found = self._moves[at] = ([MOVES[side] for side, _ in first], [RIDES[side] for side, _ in first])
        return found

    def long_rides(self, at: Coord, onward: bool = False) -> list[Action]:
        """The two-space Bleina rides from ``at`` (shared, like :meth:`move_lists`); with
        ``onward``, only those that do not come back to ``at``."""
        found = self._rides.get(at)
        if found is None:
            rides = [RIDES[side + side2] for side, cell in self.exits(at) for side2, _ in self.exits(cell)]
            found = self._rides[at] = (rides, [r for r in rides if r["path"][1] != OPPOSITE[r["path"][0]]])
        return found[1] if onward else found[0]

    # -- lookups -------------------------------------------------------------------------

    @property
    def current(self) -> Seat:
        """The active player's seat."""
        return self.seats[self.active]

    def seat(self, player: str) -> Seat:
        """The seat of ``player`` (KeyError if not playing)."""
        for seat in self.seats:
            if seat.id == player:
                return seat
        raise KeyError(player)

    def markers_left(self, player: str) -> int:
        """Check Markers ``player`` has not placed yet."""
        left = MARKERS_PER_PLAYER
        for forest in self.forests.values():
            if player in forest.markers:
                left -= 1
        return left

    def kind_at(self, at: Coord) -> str:
        """The frontier key at ``at``, or "forest" for a Dark Forest."""
        return "forest" if at in self.forests else self.frontiers[at]

    def turn_start(self) -> Coord | None:
        """The cell where the active player's turn began (see :attr:`start`; None: unknown)."""
        if not self.move.moved:
            return self.seats[self.active].pos
        return self.start

    @property
    def town(self) -> Coord:
        """Where the Frontier Town is (always 0,0)."""
        return (0, 0)

    # -- undo ----------------------------------------------------------------------------

    def movement_snapshot(self) -> Snapshot:
        """What a move or Bleina ride can change: the active Avatar's cell and Emeralds, the
        Bank, the Bleina, the turn's movement record (a cheap tuple; JSON in :meth:`to_json`)."""
        seat = self.seats[self.active]
        m = self.move
        return (
            seat.pos,
            seat.emeralds,
            self.bank,
            tuple(self.bleinas),
            (m.steps, m.max_steps, m.moved, m.over, m.bleina_used, m.wings, m.free_bleina),
        )

    def restore_movement(self, snapshot: Snapshot) -> None:
        """Go back to a :meth:`movement_snapshot` (only moves were made since)."""
        seat = self.seats[self.active]
        seat.pos, seat.emeralds, self.bank, bleinas, move = snapshot
        self.bleinas = list(bleinas)
        self.move = Movement(*move)

    # -- copies --------------------------------------------------------------------------

    def copy(self) -> State:
        """An independent copy: changing one never changes the other. The derived map data is
        copied shallowly (its values are never changed in place, only replaced)."""
        new = object.__new__(State)
        new.seats = [
            Seat(s.id, s.colour, s.pos, s.emeralds, list(s.fragments), list(s.items), list(s.peeks))
            for s in self.seats
        ]
        new.difficulty = self.difficulty
        new.trade_wait = self.trade_wait
        new.rng = Rng(self.rng.state)
        new.frontiers = dict(self.frontiers)
        new.forests = {
            at: Forest(f.at, f.road, f.content, f.flipped, list(f.markers)) for at, f in self.forests.items()
        }
        new.discovery = list(self.discovery)
        new.supply = list(self.supply)
        new.darkness = list(self.darkness)
        new.bank = self.bank
        new.reliquary = dict(self.reliquary)
        new.bleinas = list(self.bleinas)
        new.used_items = list(self.used_items)
        new.active = self.active
        new.turn = self.turn
        new.extra_turns = self.extra_turns
        new.phase = self.phase
        new.move = Movement(*self.move.values())
        new.start = self.start
        new.trade = None if self.trade is None else [self.trade[0], self.trade[1]]
        new.offered = list(self.offered)
        new.drawn = self.drawn
        new.placed = self.placed
        new.winner = self.winner
        new.known_items = {
            observer: {holder: list(keys) for holder, keys in known.items()}
            for observer, known in self.known_items.items()
        }
        new.undo = list(self.undo)  # snapshots are immutable tuples
        new.roads = dict(self.roads)
        new._exits = dict(self._exits)
        new._spots = dict(self._spots)
        new._moves = dict(self._moves)
        new._rides = dict(self._rides)
        new._trails = self._trails
        new._open = None if self._open is None else dict(self._open)
        return new

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-safe data, undo snapshots included."""
        data: dict[str, Any] = {
            "difficulty": self.difficulty,
            "trade_wait": self.trade_wait,
            "rng": self.rng.state,
            "seats": [
                {
                    "id": s.id,
                    "colour": s.colour,
                    "pos": list(s.pos),
                    "emeralds": s.emeralds,
                    "fragments": list(s.fragments),
                    "items": list(s.items),
                    "peeks": [list(p) for p in s.peeks],
                }
                for s in self.seats
            ],
            "frontiers": [[at[0], at[1], key] for at, key in self.frontiers.items()],
            "forests": [
                {
                    "at": list(f.at),
                    "road": f.road,
                    "content": f.content,
                    "flipped": f.flipped,
                    "markers": list(f.markers),
                }
                for f in self.forests.values()
            ],
            "discovery": list(self.discovery),
            "supply": list(self.supply),
            "darkness": list(self.darkness),
            "bank": self.bank,
            "reliquary": dict(self.reliquary),
            "bleinas": [list(b) for b in self.bleinas],
            "used_items": list(self.used_items),
            "active": self.active,
            "turn": self.turn,
            "extra_turns": self.extra_turns,
            "phase": self.phase,
            "move": dict(zip(_MOVEMENT_FIELDS, self.move.values(), strict=True)),
            "start": None if self.start is None else list(self.start),
            "trade": None if self.trade is None else [self.trade[0], [list(part) for part in self.trade[1]]],
            "offered": list(self.offered),
            "drawn": self.drawn,
            "placed": None if self.placed is None else list(self.placed),
            "winner": self.winner,
            "known_items": {
                observer: {holder: list(keys) for holder, keys in known.items()}
                for observer, known in self.known_items.items()
            },
            "undo": [_snapshot_json(u) for u in self.undo],
        }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        """The state stored by :meth:`to_json`."""
        state = cls(
            seats=[
                Seat(
                    id=s["id"],
                    colour=s["colour"],
                    pos=(s["pos"][0], s["pos"][1]),
                    emeralds=s["emeralds"],
                    fragments=list(s["fragments"]),
                    items=list(s["items"]),
                    peeks=[(p[0], p[1]) for p in s["peeks"]],
                )
                for s in data["seats"]
            ],
            difficulty=data["difficulty"],
            trade_wait=data.get("trade_wait", 60),
            rng=Rng(data["rng"]),
            frontiers={(x, y): key for x, y, key in data["frontiers"]},
            forests={
                (f["at"][0], f["at"][1]): Forest(
                    at=(f["at"][0], f["at"][1]),
                    road=f["road"],
                    content=f["content"],
                    flipped=f["flipped"],
                    markers=list(f["markers"]),
                )
                for f in data["forests"]
            },
            discovery=list(data["discovery"]),
            supply=list(data["supply"]),
            darkness=list(data["darkness"]),
            bank=data["bank"],
            reliquary=dict(data["reliquary"]),
            bleinas=[(b[0], b[1]) for b in data["bleinas"]],
            used_items=list(data["used_items"]),
            active=data["active"],
            turn=data["turn"],
            extra_turns=data["extra_turns"],
            phase=data["phase"],
            move=Movement(**data["move"]),
            start=None if data.get("start") is None else (data["start"][0], data["start"][1]),
            trade=None
            if data["trade"] is None
            else [data["trade"][0], tuple(tuple(part) for part in data["trade"][1])],
            offered=list(data.get("offered", [])),
            drawn=data["drawn"],
            placed=None if data["placed"] is None else (data["placed"][0], data["placed"][1]),
            winner=data["winner"],
            known_items={
                observer: {holder: list(keys) for holder, keys in known.items()}
                for observer, known in data.get("known_items", {}).items()
            },
            undo=[_snapshot_from_json(u) for u in data["undo"]],
        )
        return state


_MOVEMENT_FIELDS = tuple(f.name for f in fields(Movement))


def _snapshot_json(snapshot: Snapshot) -> dict[str, Any]:
    pos, emeralds, bank, bleinas, move = snapshot
    return {
        "pos": list(pos),
        "emeralds": emeralds,
        "bank": bank,
        "bleinas": [list(b) for b in bleinas],
        "move": dict(zip(_MOVEMENT_FIELDS, move, strict=True)),
    }


def _snapshot_from_json(data: dict[str, Any]) -> Snapshot:
    return (
        (data["pos"][0], data["pos"][1]),
        data["emeralds"],
        data["bank"],
        tuple((b[0], b[1]) for b in data["bleinas"]),
        tuple(data["move"][name] for name in _MOVEMENT_FIELDS),
    )


def new_seats(players: list[str]) -> list[Seat]:
    """A seat for each player, coloured in seat order, on the Town."""
    return [Seat(id=p, colour=COLOURS[i]) for i, p in enumerate(players)]


__all__ = [
    "DRAFT",
    "DREAM",
    "OFFER",
    "OVER",
    "PLACE_FOREST",
    "PLACE_FRONTIER",
    "TOWN_KEY",
    "TURN",
    "Forest",
    "Movement",
    "Seat",
    "State",
    "new_seats",
]
