"""Menu choices in plain words: the label and one-line description of each option a player is
offered, built from the tokens of the notation (see docs/argo-notation.md) and the public state.

A notation is split into *parts*, one per token (the verb, the piece, the path, the door set...).
The label of an option is the phrase for everything chosen up to and including it ("🟦 Grunt →
N1 Core Room"), so it reads well on its own, whether the option is one token or several; the
description says something about its last part (a tile's effect, who is there, a price).
Argo has no secret information, so everything here is public.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from bot.engine.argo.data import (
    COLOURS,
    CORRIDOR,
    GRUNT,
    JUMP_ROOM,
    MODULE_EFFECTS,
    POD,
    ROBOT,
    ROLE_ABILITIES,
    ROLES,
    TELEPORTER,
    TILES,
    UNLIMITED,
    WAKING_ROOM,
)
from bot.engine.argo.geometry import SIDES, Cell, label, rotate, step
from bot.engine.argo.state import State
from bot.engine.argo.text import CORRIDOR_SHAPES, owner, role
from bot.engine.core import Action

if TYPE_CHECKING:
    from bot.engine.argo.game import ArgoGame

LABEL_MAX: Final = 80
DESCRIPTION_MAX: Final = 100

COLOUR_EMOJI: Final[dict[str, str]] = {"Blue": "🟦", "Yellow": "🟨", "Red": "🟥", "Green": "🟩"}
"""The colour squares shown with each team's pieces (one code point each)."""
ALIEN: Final = "👾"
SIDE_WORD: Final = {1: "N", 2: "E", 4: "S", 8: "W"}

Part = tuple[str, Any]
"""One token's meaning: (kind, value), e.g. ("astro", 7) or ("path", (3, 12))."""


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (never inside a code point)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ----- naming pieces and places ----------------------------------------------------------------


def piece(aid: int, me: int | None) -> str:
    """An Astronaut in words with the team's colour square: "🟦 Grunt" for the player's own,
    "🟨 Yellow Pilot" for another team's."""
    colour = COLOURS[owner(aid)]
    name = ROLES[role(aid)]
    if owner(aid) == me:
        return f"{COLOUR_EMOJI[colour]} {name}"
    return f"{COLOUR_EMOJI[colour]} {colour} {name}"


def tile_name(tile: int, shape: bool = False) -> str:
    """What a tile is called: "Core Room", "Corridor", "Escape Pod 2/4"; with ``shape``, a
    corridor's shape and Alien symbol too ("T Corridor 👾"), telling apart the tiles on offer."""
    info = TILES[tile]
    if info.kind == POD:
        return f"Escape Pod {info.seats[0]}/{info.seats[1]}"
    if shape and info.kind == CORRIDOR:
        form = info.token.split("-")[1]
        return f"{CORRIDOR_SHAPES[form]} Corridor" + (f" {ALIEN}" if info.alien else "")
    return info.name


def place(st: State, tile: int) -> str:
    """A placed tile by cell and name: "W1 Core Room", "Waking Room"."""
    if TILES[tile].kind == WAKING_ROOM:
        return "Waking Room"
    cell = st.pos.get(tile)
    where = label(cell) if cell is not None else "?"
    return f"{where} {tile_name(tile)}"


def doors_words(mask: int) -> str:
    """A door set in words: "N–E–S"."""
    return "–".join(SIDE_WORD[s] for s in SIDES if mask & s)


def kind_text(tile: int, st: State | None = None) -> str:
    """What a tile does, in one line (Escape Pods with their seat values; a Teleporter as it works
    under the table's ``deep_space`` option when ``st`` is given)."""
    info = TILES[tile]
    if info.kind == POD:
        seats = " and ".join(str(v) for v in info.seats)
        return f"Seats worth {seats}. {MODULE_EFFECTS[POD].removeprefix('Seats for 2. ')}"
    if info.kind == TELEPORTER and st is not None and st.deep_space:
        return DEEP_SPACE_TELEPORTER
    return MODULE_EFFECTS[info.kind]


DEEP_SPACE_TELEPORTER: Final = (
    "Entering sends the Astronaut to the other Teleporter; with only one in play he is killed."
)
"""The Teleporter's line under the option ``deep_space=on`` (no way to the Waking Room)."""


def who_is_there(st: State, tile: int, me: int | None) -> str:
    """The pieces on a tile: "👾 Alien, 🟦 Grunt, 🟨 Yellow Pilot" (empty text if nobody)."""
    people = [piece(a, me) for a in st.occ.get(tile, ())]
    if tile in st.aliens:
        people.insert(0, f"{ALIEN} Alien")
    return ", ".join(people)


def tile_note(st: State, tile: int, me: int | None, mover: int | None = None, how: str = "") -> str:
    """A destination described: who is there (and what a full tile means for ``mover`` entering
    by ``how``: "move", "push", "teleport"; none for a target that nobody enters), then what it
    does."""
    info = TILES[tile]
    there = who_is_there(st, tile, me)
    bits = []
    if there:
        full = info.capacity < UNLIMITED and len(st.occ.get(tile, ())) >= info.capacity
        bits.append(f"Here: {there}{_full_note(st, tile, mover, how) if full else ''}.")
    if info.kind != CORRIDOR or not bits:
        bits.append(kind_text(tile, st))
    return " ".join(bits)


def _full_note(st: State, tile: int, mover: int | None, how: str) -> str:
    """What entering the full ``tile`` leads to: a push, unless the mover never stays there."""
    if not how:
        return " (full)"
    if how != "teleport" and TILES[tile].kind == TELEPORTER:
        return " (no push: he is teleported on)"
    if tile in st.aliens:
        if mover is None:
            return " (full)"
        if role(mover) not in (GRUNT, ROBOT):
            return " (no push: the Alien kills him)"
    return " (full: a push follows)"


def neighbours_note(st: State, cell: Cell, doors: int | None = None, skip: int | None = None) -> str:
    """The tiles next to an empty cell (those a door set connects to, when ``doors`` is given)."""
    names = []
    for side in SIDES:
        tile = st.cell.get(step(cell, side))
        if tile is None or tile == skip:
            continue
        if doors is not None:
            back = {1: 4, 2: 8, 4: 1, 8: 2}[side]
            if not doors & side or not st.doors[tile] & back:
                continue
        names.append(place(st, tile))
    if not names:
        return ""
    return ("Connects to " if doors is not None else "Next to ") + ", ".join(names) + "."


# ----- notation tokens as parts ----------------------------------------------------------------


def parts(st: State, action: Action) -> list[Part]:
    """The meaning of each token of ``action``'s notation, in order (one part per token)."""
    kind = action["type"]
    if kind in ("cancel", "undo", "pass"):
        return [("verb", kind)]
    if kind == "timemachine":
        return [("verb", "timemachine"), *parts(st, action["do"])]
    if kind == "move" and "alien" in action:
        return [("verb", "move"), ("alien", None), ("alien_at", action["alien"]), ("alien_to", action["to"])]
    if kind == "move":
        path = tuple(action["path"])
        return [("verb", "move"), ("astro", action["astronaut"]), ("path", path), *_pilot(action, path[-1])]
    if kind == "push" and "alien" in action:
        return [("verb", "push"), ("alien", None), ("alien_push", action["to"])]
    if kind == "push":
        return [
            ("verb", "push"),
            ("astro", action["astronaut"]),
            ("push_to", action["to"]),
            *_pilot(action, action["to"]),
        ]
    if kind == "kill":
        return [("verb", "kill"), ("victim", action["astronaut"])]
    if kind == "teleport":
        return [("verb", "teleport"), ("teleport_to", action["to"])]
    if kind == "build":
        cell = (action["cell"][0], action["cell"][1])
        tile = action["tile"]
        return [
            ("verb", "build"),
            ("build_tile", tile),
            ("build_cell", cell),
            ("build_doors", (tile, cell, rotate(TILES[tile].doors, action["rot"]))),
        ]
    if kind == "activate":
        return [("verb", "activate"), ("module", action["module"]), *_activation(action)]
    return [("verb", kind)]


def _pilot(action: Action, pod: int) -> list[Part]:
    choice = action.get("pilot")
    if choice is None:
        return []
    if choice != "relocate":
        return [("pilot", (choice, pod))]
    cell = (action["cell"][0], action["cell"][1])
    return [
        ("pilot", ("relocate", pod)),
        ("pod_cell", (pod, cell)),
        ("pod_doors", (pod, cell, rotate(TILES[pod].doors, action["rot"]))),
    ]


def _activation(action: Action) -> list[Part]:
    if "tile" in action:  # Control Room
        tile = action["tile"]
        cell = (action["cell"][0], action["cell"][1])
        return [
            ("cr_tile", tile),
            ("cr_cell", (tile, cell)),
            ("cr_doors", (tile, cell, rotate(TILES[tile].doors, action["rot"]))),
        ]
    if "pod" in action:
        return [("launch", action["pod"])]
    if "astronaut" in action and "alien" in action:
        return [("lab_astro", action["astronaut"]), ("lab_alien", (action["astronaut"], action["alien"]))]
    if "alien" in action:
        return [("laser", action["alien"])]
    if "astronaut" in action:
        kind = TILES[action["module"]].kind
        return [("jump" if kind == JUMP_ROOM else "heal", action["astronaut"])]
    return []


# ----- phrases ---------------------------------------------------------------------------------


class _Speaker:
    """Words for one player at one moment (``me``: that player's seat)."""

    def __init__(self, game: ArgoGame, me: int | None) -> None:
        self.st = game.st
        self.me = me

    def _jump_room(self) -> bool:
        p = self.st.pending
        if p is None:
            return False
        root = p["root"]
        if root.get("type") == "timemachine":
            root = root["do"]
        kind: str | None = root.get("type")
        return kind == "activate" and TILES[root.get("module", 0)].kind == JUMP_ROOM

    def phrase(self, ps: list[Part], action: Action) -> str:
        """The label for the parts chosen so far (a whole phrase)."""
        head = ps[0][1]
        if head == "timemachine":
            if len(ps) == 1:
                return "⏳ Time Machine: act out of turn"
            inner = action["do"]
            return "⏳ Time Machine: " + self.phrase(ps[1:], inner)
        method: Callable[[list[Part], Action], str] | None = getattr(self, f"_say_{head}", None)
        return method(ps, action) if method else head.capitalize()

    def _say_cancel(self, ps: list[Part], action: Action) -> str:
        return "✖ Cancel this action"

    def _say_undo(self, ps: list[Part], action: Action) -> str:
        return "↶ Undo your last action"

    def _say_pass(self, ps: list[Part], action: Action) -> str:
        return "Pass: no Time Machine now"

    def _say_move(self, ps: list[Part], action: Action) -> str:
        st, me = self.st, self.me
        if "alien" in action:
            if len(ps) <= 2:
                return f"{ALIEN} Move an Alien"
            src = place(st, action["alien"])
            if len(ps) == 3:
                return f"{ALIEN} Move the Alien on {src}"
            return f"{ALIEN} Move the Alien on {label(st.pos[action['alien']])} to {place(st, action['to'])}"
        lead = "Jump Room move: " if self._jump_room() else ""
        if len(ps) == 1:
            return f"{lead}Move an Astronaut" if lead else "🚶 Move an Astronaut"
        who = piece(action["astronaut"], me)
        if len(ps) == 2:
            return f"{lead}Move {who} ({place(st, st.loc[action['astronaut']])})"
        path = " → ".join(label(st.pos[t]) for t in action["path"][:-1])
        path = f"{path} → " if path else ""
        text = f"{lead}{who} → {path}{place(st, action['path'][-1])}"
        return text + self._pilot_words(ps[3:])

    def _pilot_words(self, ps: list[Part]) -> str:
        if not ps:
            return ""
        choice = ps[0][1][0]
        if choice == "stay":
            return ", she stays aboard"
        if choice == "leave":
            return ", she leaves alone"
        if len(ps) == 1:
            return ", she moves the Pod"
        cell = ps[1][1][1]
        if len(ps) == 2:
            return f", Pod to {label(cell)}"
        return f", Pod to {label(cell)}, doors {doors_words(ps[2][1][2])}"

    def _say_push(self, ps: list[Part], action: Action) -> str:
        st, me = self.st, self.me
        if "alien" in action:
            if len(ps) <= 2:
                return f"{ALIEN} Push the Alien out"
            return f"{ALIEN} Push the Alien to {place(st, action['to'])}"
        if len(ps) == 1:
            return "Push someone out"
        who = piece(action["astronaut"], me)
        if len(ps) == 2:
            return f"Push {who} out"
        return f"Push {who} to {place(st, action['to'])}" + self._pilot_words(ps[3:])

    def _say_kill(self, ps: list[Part], action: Action) -> str:
        if len(ps) == 1:
            return f"{ALIEN} Choose whom the Alien kills"
        return f"{ALIEN} The Alien kills {piece(action['astronaut'], self.me)}"

    def _say_teleport(self, ps: list[Part], action: Action) -> str:
        if len(ps) == 1:
            return "🌀 Teleport: choose where to"
        return f"🌀 Teleport to {place(self.st, action['to'])}"

    def _say_build(self, ps: list[Part], action: Action) -> str:
        if len(ps) == 1:
            return "🧱 Build a tile"
        name = tile_name(action["tile"], shape=True)
        if len(ps) == 2:
            return f"🧱 Build {name}"
        cell = label(ps[2][1])
        if len(ps) == 3:
            return f"🧱 Build {name} at {cell}"
        return f"🧱 Build {name} at {cell}, doors {doors_words(ps[3][1][2])}"

    def _say_activate(self, ps: list[Part], action: Action) -> str:
        st, me = self.st, self.me
        if len(ps) == 1:
            return "⚙ Activate a Module"
        module = action["module"]
        name = TILES[module].name
        if len(ps) == 2:
            return f"⚙ Activate {name} ({label(st.pos[module])})"
        kind, value = ps[2]
        rest = ps[3:]
        name = f"⚙ {name}"
        if kind == "cr_tile":
            what = place(st, value)
            if not rest:
                return f"{name}: move {what}"
            cell = label(rest[0][1][1])
            if len(rest) == 1:
                return f"{name}: {what} → {cell}"
            return f"{name}: {what} → {cell}, doors {doors_words(rest[1][1][2])}"
        if kind == "launch":
            return f"{name}: launch {place(st, value)}"
        if kind == "lab_astro":
            who = piece(value, me)
            if not rest:
                return f"{name}: swap {who} with an Alien"
            return f"{name}: swap {who} with the Alien on {place(st, rest[0][1][1])}"
        if kind == "laser":
            return f"{name}: kill the Alien on {place(st, value)}"
        if kind == "heal":
            return f"{name}: bring back {piece(value, me)}"
        if kind == "jump":
            return f"{name}: {piece(value, me)} moves twice"
        return name

    def note(self, ps: list[Part], action: Action) -> str:
        """The description of the last part chosen."""
        st, me = self.st, self.me
        kind, value = ps[-1]
        if kind == "verb":
            return self._verb_note(value, action)
        if kind == "alien":
            return "Aliens kill whoever they meet but Robots (a Grunt may kill them)."
        if kind == "astro":
            return ROLE_ABILITIES[ROLES[role(value)]]
        inner = action["do"] if action["type"] == "timemachine" else action
        if kind == "path":
            return tile_note(st, value[-1], me, inner["astronaut"], "move")
        if kind == "push_to":
            return tile_note(st, value, me, inner["astronaut"], "push")
        if kind == "teleport_to":
            return tile_note(st, value, me, None, "teleport")
        if kind == "pilot":
            return self._pilot_note(*value)
        if kind in ("pod_cell", "build_cell", "cr_cell"):
            tile, cell = (None, value) if kind == "build_cell" else value
            return neighbours_note(st, cell, skip=tile) or f"The tile goes to {label(cell)}."
        if kind in ("pod_doors", "build_doors", "cr_doors"):
            tile, cell, doors = value
            skip = tile if kind != "build_doors" else None
            return neighbours_note(st, cell, doors, skip=skip) or f"Doors {doors_words(doors)}."
        if kind == "alien_at":
            there = who_is_there(st, value, me)
            return f"With it: {there.removeprefix(f'{ALIEN} Alien, ')}." if ", " in there else "Alone there."
        if kind in ("alien_to", "alien_push"):
            people = [piece(a, me) for a in st.occ.get(value, ())]
            met = f"It meets {', '.join(people)}." if people else "Nobody is there."
            return f"{met} Another Alien there is pushed on." if value in st.aliens else met
        if kind == "victim":
            points = 2 if ROLES[role(value)] == "Chief" else 1
            own = owner(value) == st.active
            score = "no points (your own)" if own else f"{points} point{'s' if points > 1 else ''} for you"
            return f"{piece(value, me)} goes to the Alien track: {score}."
        if kind == "build_tile":
            return self._tile_offer(value)
        if kind == "module":
            return self._module_note(value)
        if kind == "cr_tile":
            there = who_is_there(st, value, me)
            return f"Moves with it: {there}." if there else "Moves an empty tile."
        if kind == "launch":
            return self._pod_note(value)
        if kind in ("lab_astro", "heal", "jump"):
            return f"{ROLE_ABILITIES[ROLES[role(value)]]}"
        if kind == "lab_alien":
            there = who_is_there(st, value[1], me).removeprefix(f"{ALIEN} Alien").strip(", ")
            with_whom = f" ({piece(value[0], me)} joins {there})" if there else ""
            return f"The Alien goes to {place(st, st.loc[value[0]])}{with_whom}."
        if kind == "laser":
            return tile_note(st, value, me)
        return ""

    def _verb_note(self, verb: str, action: Action) -> str:
        if verb == "move":
            if "alien" in action:
                return "Alien phase: move one Alien to a neighbouring tile; it kills who it meets."
            if self._jump_room():
                return "One of the Jump Room's two Moves."
            return "Move one of your Astronauts one tile (the Explorer up to two)."
        return {
            "push": "The tile is full: choose who is pushed out, and where to.",
            "kill": "The Alien kills one of the Astronauts on its tile: you choose which.",
            "teleport": "Choose where the teleported Astronaut arrives.",
            "build": "Add a face-up Module or the top Escape Pod to the station.",
            "activate": "Use the effect of a Module where one of your Astronauts stands.",
            "timemachine": "Interrupt: Move one of your Astronauts or Activate another Module now.",
            "pass": "Let the turn go on without using the Time Machine now.",
            "cancel": "Drop the unfinished action: nothing has changed yet.",
            "undo": "Take back your last action of this turn.",
        }.get(verb, "")

    def _pilot_note(self, choice: str, pod: int) -> str:
        seats = TILES[pod].seats
        if choice == "stay":
            return "She takes the lowest seat; the Pod leaves when it is full."
        if choice == "leave":
            points = f"{seats[0]} point{'s' if seats[0] != 1 else ''}"
            return f"The Pod takes off at once with her alone: {points}."
        return "She connects the Pod elsewhere (not next to an Alien) and stays aboard."

    def _tile_offer(self, tile: int) -> str:
        info = TILES[tile]
        if info.kind == POD:
            seats = " and ".join(str(v) for v in info.seats)
            return f"Seats worth {seats}; a Move from the Waking Room to it passes 3+ other tiles."
        room = "" if info.kind == CORRIDOR else f"Room for {info.capacity}. "
        alien = f"{ALIEN} Brings an Alien. " if info.alien else ""
        return f"{alien}{room}{kind_text(tile, self.st)}"

    def _module_note(self, module: int) -> str:
        used = self.st.tokens.get(module, ())
        text = kind_text(module, self.st)
        if used:
            text += f" Used by {', '.join(COLOURS[s] for s in used)}."
        return text

    def _pod_note(self, pod: int) -> str:
        seats = TILES[pod].seats
        aboard = [f"{piece(a, self.me)} ({seats[i]})" for i, a in enumerate(self.st.occ.get(pod, ()))]
        return f"Aboard: {', '.join(aboard)}. It takes off at once." if aboard else "It takes off at once."


# ----- the engine hook -------------------------------------------------------------------------


def _index(game: ArgoGame, player: str) -> dict[tuple[str, ...], Action]:
    """The first legal action of ``player`` under every token prefix (cached with the state)."""
    key = ("words", player)
    cache = game._cache
    index = cache.get(key)
    if index is None:
        index = {}
        for action in game.legal_actions(player):
            tokens = tuple(game.notation(action).split())
            for depth in range(1, len(tokens) + 1):
                index.setdefault(tokens[:depth], action)
        cache[key] = index
    return index


def choice_words(
    game: ArgoGame, player: str, tokens: tuple[str, ...], option: tuple[str, ...]
) -> tuple[str, str]:
    """The label and description of choosing ``option`` after ``tokens`` (see Game.choice_words)."""
    chosen = (*tokens, *option)
    action = _index(game, player).get(chosen)
    if action is None or not option:
        return fit(" ".join(option), LABEL_MAX), ""
    me = game._seat(player)
    speaker = _Speaker(game, me)
    ps = parts(game.st, action)[: len(chosen)]
    return fit(speaker.phrase(ps, action), LABEL_MAX), fit(speaker.note(ps, action), DESCRIPTION_MAX)
