"""The pages of ``/game rules game:Argo``: plain data, written for this bot from the rulebook
and docs/rules-notes.md. Tile facts (capacity, doors, Alien symbols, seats) and the one-line
effects come from data.py; this module adds the details and the bot's words."""

from __future__ import annotations

from collections import Counter
from typing import Final

from bot.engine.argo.data import (
    ALIEN_FORBIDDEN,
    ALIEN_TRACKS,
    CONTROL_ROOM,
    CORE_ROOM,
    CORRIDOR,
    DIFFICULTIES,
    INFIRMARY,
    JUMP_ROOM,
    LAB,
    LASER,
    MAX_ALIENS,
    MODULE_EFFECTS,
    POD,
    ROLE_ABILITIES,
    SAFE_ROOM,
    SECURITY_CENTER,
    TELEPORTER,
    TILES,
    TIME_MACHINE,
    UNLIMITED,
    WAKING_ROOM,
    WAREHOUSE,
)
from bot.engine.argo.geometry import E, N, S, W
from bot.engine.core import HelpPage

BASICS: Final = "Basics"
MODULES: Final = "Modules"
ASTRONAUTS: Final = "Astronauts"


def _doors(mask: int) -> str:
    return "".join(side for bit, side in ((N, "N"), (E, "E"), (S, "S"), (W, "W")) if mask & bit)


def _tile_facts(kind: str) -> str:
    """Capacity, doors and Alien symbol of the tile(s) of ``kind``, from data.py."""
    tiles = [t for t in TILES if t.kind == kind]
    tile = tiles[0]
    held = (
        "no limit" if tile.capacity >= UNLIMITED else f"{tile.capacity} Astronaut" + "s" * (tile.capacity > 1)
    )
    alien = "brings an Alien when built" if tile.alien else "no Alien symbol"
    extra = "never an Alien" if kind in ALIEN_FORBIDDEN else "+1 Alien"
    count = f"{len(tiles)} tiles" if len(tiles) > 1 else "1 tile"
    doors = f"doors {_doors(tile.doors)}" + ("" if kind == WAKING_ROOM else " (any turn)")
    return f"*{count} · holds {held} ({extra}) · {doors} · {alien}*"


def _module(kind: str, details: str, how: str = "") -> str:
    parts = [f"**{MODULE_EFFECTS[kind]}**", _tile_facts(kind), details]
    if how:
        parts.append(f"In the bot: {how}")
    return "\n".join(parts)


def _activation_rule() -> str:
    return (
        "Activating is one of your two actions: you need one of your Astronauts on the Module, "
        "you place one of your tokens there, each player may Activate a Module once, and after "
        "two tokens (two different players) it is spent."
    )


def _corridors() -> str:
    shapes = Counter(t.token for t in TILES if t.kind == CORRIDOR)
    plain = {k: v for k, v in shapes.items() if not k.endswith("-alien")}
    alien = {k.removesuffix("-alien"): v for k, v in shapes.items() if k.endswith("-alien")}
    names = {"Corridor-I": "I straight", "Corridor-L": "L bend", "Corridor-T": "T", "Corridor-X": "X cross",
             "Corridor-end": "dead end"}  # fmt: skip
    rows = [
        f"• {names[k]} (`{k}`): {plain.get(k, 0)} plain, {alien.get(k, 0)} with an Alien symbol"
        for k in names
    ]
    return "\n".join(
        [
            f"**{MODULE_EFFECTS[CORRIDOR]}**",
            *rows,
            f"A tile with the symbol (`-alien` in its name) brings an Alien when built, while fewer "
            f"than {MAX_ALIENS} are out. The four corridors around the Waking Room at the start never "
            "have one. Dead ends and the one-door Warehouse are where pushes get stuck.",
        ]
    )


def _pods() -> str:
    pods = [t for t in TILES if t.kind == POD]
    rows = ", ".join(
        f"`{t.token}`" + (" (3+ players)" if t.min_players > 2 else "")
        for t in sorted(pods, key=lambda t: t.id)
    )
    return "\n".join(
        [
            f"**{MODULE_EFFECTS[POD]}**",
            f"Pods: {rows}; built from a face-up stack, lowest values on top.",
            "• Build one (instead of a Module) where a Move from the Waking Room to it must pass "
            "through at least three other tiles (Modules, along doors). One door; Aliens never enter "
            "a Pod.",
            "• An Astronaut entering sits on the lowest free seat and never moves again. When the "
            "second seat fills the Pod takes off: each passenger scores his seat (a Chief double).",
            "• It also takes off as soon as an Alien enters the tile its door opens onto, if "
            "anyone sits in it; the Security Center launches one too. An empty Pod never leaves.",
            "• Pods still docked at the end are lost with the station: no points.",
            "See also: `pilot`.",
        ]
    )


def _track() -> str:
    rows = "\n".join(
        f"• {n} players: " + " ".join(str(v) for v in values) for n, values in sorted(ALIEN_TRACKS.items())
    )
    covers = ", ".join(f"{name} covers {n}" for name, n in DIFFICULTIES.items())
    return (
        "Every dead Astronaut goes on the next free slot of the Alien track. The Aliens' score is "
        "the value of the first slot that is neither covered nor filled.\n"
        f"Slot values:\n{rows}\n"
        f"The difficulty token covers the first slots ({covers}). When every slot holds a body the "
        "game ends at once: the Aliens win. The Infirmary takes a body back off the track."
    )


def build_pages() -> dict[str, HelpPage]:
    """Every Argo rules page by topic, in overview order."""
    pages: dict[str, HelpPage] = {}

    def add(topic: str, title: str, group: str, text: str) -> None:
        pages[topic] = HelpPage(title, text, group)

    add(
        "turn",
        "Turn structure",
        BASICS,
        "Each turn has three phases, all mandatory (a phase with nothing legal is skipped):\n"
        "1. **Alien phase** — if any Alien is in the station, move one of them to a connected tile; "
        "then every Alien sharing a tile with Astronauts kills one (see `aliens`). When no Alien "
        "can move, the Aliens still kill.\n"
        "2. **Building phase** — add one of the three face-up Modules or the top Escape Pod to the "
        "station (see `building`).\n"
        "3. **Actions** — two actions: Move two different Astronauts, or Move one and Activate a "
        "Module (either order), or Activate two different Modules. The same Astronaut never gets "
        "two Move actions.\n"
        "In each player's **first turn** there is one action only, and it is a Move.\n"
        "In the bot: the turn message shows whose turn it is and what to decide; pick with its "
        "buttons and menus, or type with `/game play` (autocomplete lists your legal moves, e.g. "
        "`move Grunt N1`). `undo` takes back your own actions of this turn; `cancel` drops an "
        "unfinished multi-step action.",
    )
    add(
        "movement",
        "Moving and pushing",
        BASICS,
        "A Move takes an Astronaut to a tile **connected** to his: both tiles need a door on the "
        "shared side. Corridors hold 1 Astronaut, Rooms 1 or 2, the Waking Room any number; each "
        "tile also holds one Alien.\n"
        "**Pushing**: entering a full tile, you push one Astronaut there to another connected tile "
        "(never back to where you came from). That can push another in turn: a chain. You make "
        "every choice of the chain and earn every point. Each Astronaut is pushed at most once per "
        "chain; if a push has nowhere to go, the Move is not allowed (no pushing in a dead end). "
        "Astronauts can be pushed into the Waking Room and into Escape Pods.\n"
        "Entering (by Move, push or teleport) a tile with an Alien kills the Astronaut (a Grunt "
        "kills the Alien instead; a Robot is never killed, the Alien ignores him); you score 1 "
        "(2 for a Chief), never for your own.\n"
        "Board and notation: cells are named from the Waking Room `WR`: `N1` is just north, "
        "`S2W1` two south and one west. `push Yellow-Chief N2` answers a push.",
    )
    add(
        "aliens",
        "Aliens",
        BASICS,
        "Aliens belong to nobody: every player moves one of them in his Alien phase.\n"
        "• One Alien per tile; an Alien entering a tile with another pushes it on, like Astronauts.\n"
        "• Aliens never enter the Waking Room, an Escape Pod or the Safe Room, and Teleporters "
        "ignore them.\n"
        "• After the Alien move, **every** Alien on a tile with Astronauts kills one, chosen by "
        "the active player (`kill Yellow-Pilot`), moved or not. Robots are never killed. With a "
        "Chief, Explorer or Pilot there, a Grunt is spared; an Alien on a tile with two Grunts "
        "dies instead.\n"
        "• The active player scores 1 per kill (2 for a Chief), never for his own Astronauts; "
        "each body goes on the Alien track and raises the Aliens' score (see `alien-track`).\n"
        f"• Building a tile with an Alien symbol adds an Alien there while fewer than {MAX_ALIENS} "
        "are out. An Alien entering the tile in front of an occupied Escape Pod launches it.\n"
        "The rulebook: they kill, they are many, they can win against all players, and they have "
        "very bad breath.",
    )
    add(
        "building",
        "Building",
        BASICS,
        "Take one of the three face-up Modules, or the top Escape Pod, and add it to the station:\n"
        "• at least one of its doors must face a door of the station (other sides may be dead "
        "ends), and every tile must stay reachable;\n"
        "• a Module must join another Module, not only an Escape Pod;\n"
        "• an Escape Pod must be placed so that a Move from the Waking Room to it passes through at "
        "least three other tiles (a Pod next to `N3` is fine, on `N3` it is not).\n"
        "A Module taken from the display is replaced from the face-down stack. A tile with an "
        "Alien symbol brings an Alien. When nothing is left to build (or nothing fits) the phase "
        "is skipped, and the last round begins (see `scoring`).\n"
        "In the bot: choose the tile, the cell, then the doors, e.g. `build Lab N4 doors-NES` "
        "(the door set after turning the tile).",
    )
    add(
        "scoring",
        "Scoring and the end",
        BASICS,
        "Points come during the game: seat values of Escape Pods that take off (a Chief double), "
        "1 per other player's Astronaut killed in your turn or interrupt (2 per Chief; none for "
        "your own), 1 per Alien killed, and the Warehouse. No bonus at the end.\n"
        "**The game ends** when:\n"
        "• every Escape Pod has left (4 Pods with 2 players, 6 with 3–4) — at once;\n"
        "• the last tile is built — that turn ends, then every player plays one more turn;\n"
        "• a player starts his turn with no Astronaut he could move (all dead, escaped or "
        "seated) — at once;\n"
        "• the Alien track is full — at once, the Aliens win.\n"
        "Pods still docked are lost. **The Aliens win** if their score is higher than the best "
        "player's: everybody loses. Otherwise the highest score wins; ties go to the player with "
        "more Activations, then more escaped Astronauts, then the victory is shared.",
    )
    add("alien-track", "The Alien track and difficulty", BASICS, _track())
    add(
        "options",
        "Table options",
        BASICS,
        "Set when opening the table: `/game new game:Argo options:difficulty=hard tm_wait=30`.\n"
        f"• `difficulty` = {' / '.join(DIFFICULTIES)} (default medium): how many Alien track slots "
        "are covered, so how much killing the table can afford (see `alien-track`).\n"
        "• `deep_space` = off / on: the meaner Teleporter rule (see `teleporters`).\n"
        "• `tm_wait` = minutes each Time Machine moment is held for interrupts, 0–1440 (default "
        "120); see `time-machine`.",
    )

    add(
        "waking-room",
        "Waking Room",
        MODULES,
        _module(
            WAKING_ROOM,
            "Every team starts here (cell `WR`). It has a door on each side and four corridors "
            "without an Alien symbol around it at the start. It can never be moved (Control "
            "Room) and Aliens can never be moved, pushed or swapped into it. Teleporters and the "
            "Infirmary send Astronauts here.",
        ),
    )
    add("corridors", "Corridors", MODULES, _corridors())
    add(
        "teleporters",
        "Teleporters",
        MODULES,
        _module(
            TELEPORTER,
            "An Astronaut who enters by a Move or a push is at once teleported, before meeting any "
            "Alien there, to another Teleporter or the Waking Room (the active player chooses: "
            "`teleport WR`). Arriving he may push, kill or be killed as usual, and is never "
            "teleported again on arrival. Leaving does nothing, Aliens are never teleported, and "
            "a Lab swap onto one does not teleport. A Robot is teleported like anyone.\n"
            "Option `deep_space=on`: with only one Teleporter in play, entering it kills the "
            "Astronaut (the pusher scores 1, 2 for a Chief, unless it was his own); with two, "
            "it leads only to the other one.",
        ),
    )
    add(
        "lab",
        "Lab",
        MODULES,
        _module(
            LAB,
            "Swap any Astronaut but a Robot — yours or another's — standing on a Module without "
            "an Alien (not the Waking Room, an Escape Pod or the Safe Room) with any Alien. The "
            "Astronaut arrives on the Alien's old tile first (pushing if it is full; he is not "
            "teleported); then the Alien, on its new tile, kills at once as in the Alien phase "
            "and you score as usual. A Robot can neither Activate the Lab nor be swapped.\n"
            + _activation_rule(),
            "`activate Lab Yellow-Pilot N3` (the Astronaut, then the Alien's cell).",
        ),
    )
    add(
        "control-room",
        "Control Room",
        MODULES,
        _module(
            CONTROL_ROOM,
            "Take any tile but an Escape Pod or the Waking Room (the Control Room itself too), "
            "with everything on it, and put it somewhere else and/or turn it. The new layout must "
            "differ, join a Module door to door, and keep every tile reachable. Moving a tile is "
            "not entering: nobody is killed or teleported and no Pod takes off. The 3-tile Pod "
            "distance only applies to building.\n" + _activation_rule(),
            "`activate Control-Room E1 W1 doors-EW` (the tile, its new cell, its doors).",
        ),
    )
    add(
        "jump-room",
        "Jump Room",
        MODULES,
        _module(
            JUMP_ROOM,
            "The Astronaut who Activates it moves twice, one Move after the other, and both count "
            "as a single action; an Explorer moves twice up to two tiles (up to 4 in all). The "
            "second Move is part of the effect: you must make one, unless none exists or the "
            "first left him dead or seated in a Pod (the bot then skips it and says so). A Move "
            "action earlier in the turn does not stop him from jumping.\n" + _activation_rule(),
            "`activate Jump-Room Explorer`, then two `move` steps.",
        ),
    )
    add(
        "time-machine",
        "Time Machine",
        MODULES,
        _module(
            TIME_MACHINE,
            "Never on your own turn. During another player's turn — at its **start** (until he "
            "commits his Alien move, or his build when there is no Alien) or **between his two "
            "actions** — you may use it if one of your Astronauts (a Robot too) is on it, you "
            "have not used it yet and a token slot is free. You make one Move of any of your "
            "Astronauts, or Activate another Module where you have one. It costs nobody an "
            "action, puts your token on the Time Machine, and you score what it earns. An "
            "unfinished multi-step action of the active player (a push chain, a teleport, a Jump) "
            "is cancelled; he then chooses anew.\n"
            "**In this bot (`tm_wait`)**: with `tm_wait`=N minutes (default 120) each moment is "
            "**held**: the active player waits until every eligible player has passed or N "
            "minutes have gone by. Eligible players are mentioned once per turn and get a **Time "
            "Machine** button; **Don't ask me this turn** passes every later moment of the turn "
            "for you; bots answer at once. With `tm_wait=0` nobody waits: you can interrupt only "
            "between the active player's clicks.",
            "`timemachine move Yellow-Pilot WR`, `timemachine activate Warehouse`, or `pass` "
            "(also `/argo timemachine`).",
        ),
    )
    add(
        "laser",
        "Laser",
        MODULES,
        _module(
            LASER,
            "The target must be an Alien in a **Room** (a Teleporter too, but not a Corridor) on a cell "
            "orthogonally next to a tile holding any of your Astronauts — walls and doors do not "
            "matter, the same tile does not count. A Robot cannot Activate the Laser. You score 1 "
            "for the Alien.\n" + _activation_rule(),
            "`activate Laser N2E1` (the Alien's cell).",
        ),
    )
    add(
        "infirmary",
        "Infirmary",
        MODULES,
        _module(
            INFIRMARY,
            "Choose any Astronaut on the Alien track, of any player, and put him back in the "
            "Waking Room. The bodies close up from the left, so the Aliens' score drops by one "
            "slot.\n" + _activation_rule(),
            "`activate Infirmary Yellow-Grunt`.",
        ),
    )
    add(
        "warehouse",
        "Warehouse",
        MODULES,
        _module(
            WAREHOUSE,
            "The only Module whose effect a Chief doubles: with your Chief on it you score 4 "
            "(the bot always uses him). Its single door makes it a dead end.\n" + _activation_rule(),
            "`activate Warehouse`.",
        ),
    )
    add(
        "security-center",
        "Security Center",
        MODULES,
        _module(
            SECURITY_CENTER,
            "The Pod takes off at once and its passengers score their seats (a Chief double).\n"
            + _activation_rule(),
            "`activate Security-Center N4` (the Pod's cell).",
        ),
    )
    add(
        "core-room",
        "Core Room",
        MODULES,
        _module(
            CORE_ROOM,
            "Radiation: at the end of your turn, your Astronauts that were already in the Core "
            "Room when your turn began die (arriving this turn is safe, staying is not). Nobody "
            "scores for them, but the bodies feed the Aliens. It works by itself and cannot be "
            "Activated.",
        ),
    )
    add(
        "safe-room",
        "Safe Room",
        MODULES,
        _module(
            SAFE_ROOM,
            "No Alien may move, be pushed, be placed or be swapped (Lab) into it, so Astronauts "
            "there are safe from Aliens. It works by itself and cannot be Activated.",
        ),
    )
    add("escape-pods", "Escape Pods", MODULES, _pods())

    add(
        "explorer",
        "Explorer",
        ASTRONAUTS,
        f"**{ROLE_ABILITIES['Explorer']}**\n"
        "She finishes the Move before anything else (no Move one, Activate, Move one more). The "
        "first tile is only passed through: she pushes nobody there. Entering a Teleporter, an "
        "Escape Pod or a tile with an Alien ends her Move on that tile. With the Jump Room she "
        "makes two such Moves. In the bot: `move Explorer N1>N2` (through N1 to N2).",
    )
    add(
        "pilot",
        "Pilot",
        ASTRONAUTS,
        f"**{ROLE_ABILITIES['Pilot']}**\n"
        "When she enters an **empty** Escape Pod (moving or pushed) the active player announces "
        "one choice, final:\n"
        "• `stay` — sit and wait, like anyone;\n"
        "• `leave` — take off alone at once, scoring the lowest seat;\n"
        "• `relocate` — move the Pod to any other place where its door faces a Module door, "
        "even nearer than 3 tiles, but never facing a Module with an Alien.\n"
        "Entering an occupied Pod simply fills it. In the bot: `move Pilot S4 leave`, "
        "`move Pilot S4 relocate E2 doors-W`.",
    )
    add(
        "robot",
        "Robot",
        ASTRONAUTS,
        f"**{ROLE_ABILITIES['Robot']}**\n"
        "Aliens never kill a Robot, he never kills Aliens, and the Lab cannot swap him. For "
        "everything else he is an Astronaut: he takes space, pushes, is pushed and teleported, "
        "escapes in Pods, can stand on the Time Machine, and counts for the Laser's neighbour.",
    )
    add(
        "grunt",
        "Grunt",
        ASTRONAUTS,
        f"**{ROLE_ABILITIES['Grunt']}**\n"
        "• A Grunt moved, pushed or teleported onto an Alien kills it; the active player scores "
        "1, whoever owns the Grunt.\n"
        "• An Alien on his tile must kill a Chief, Explorer or Pilot if one is there (even the "
        "active player's own); it kills the Grunt only if he is the only non-Robot Astronaut.\n"
        "• An Alien on a tile with two Grunts is killed by them; the active player scores 1.",
    )
    add(
        "chief",
        "Chief",
        ASTRONAUTS,
        f"**{ROLE_ABILITIES['Chief']}**\n"
        "Killing another player's Chief scores 2; a Chief who escapes scores twice his seat "
        "value. He does not double Module effects, except the Warehouse (4 points).",
    )

    groups: dict[str, list[str]] = {}
    for topic, page in pages.items():
        groups.setdefault(page.group, []).append(f"`{topic}`")
    listing = "\n".join(f"**{group}:** " + ", ".join(topics) for group, topics in groups.items())
    overview = HelpPage(
        "Overview",
        "You lead a team of five Astronauts (Grunt, Robot, Explorer, Pilot, Chief) out of an "
        "Alien-infested station. Each turn: move an Alien (it kills), build a tile, then take two "
        "actions (Move Astronauts, Activate Modules). Score by escaping in Escape Pods and by "
        "killing with the Aliens — but every death feeds the Aliens, and if they end with more "
        "points than the best player, everybody loses.\n"
        f"2–4 players. Pages (`/game rules game:Argo topic:<page>`):\n{listing}",
        BASICS,
    )
    return {"overview": overview, **pages}


PAGES: Final[dict[str, HelpPage]] = build_pages()
"""Every Argo rules page by topic; ``"overview"`` first."""
