"""Every Argoat component as data: frontiers (roads, Dragon symbols, actions), Dark Forests,
Items, Fragments, the Bank, colours.

The rulebook does not print roads or say which seven frontiers bear the Dragon symbol; the
choices below are this edition's and are explained in ``docs/rules-notes.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

N, E, S, W = "N", "E", "S", "W"
DIRECTIONS: tuple[str, ...] = (N, E, S, W)
"""Compass sides of a card, in the order used everywhere (roads, menus)."""


@dataclass(frozen=True)
class Fragment:
    """One of the eight Fragments of Ancient Knowledge."""

    key: str
    name: str
    number: int

    @property
    def token(self) -> str:
        """The word used for this Fragment in action notation ("Moon")."""
        return self.key.capitalize()


FRAGMENTS: tuple[Fragment, ...] = (
    Fragment("forge", "Knowledge of the Forge", 1),
    Fragment("world", "Knowledge of the World", 2),
    Fragment("sun", "Knowledge of the Sun", 3),
    Fragment("life", "Knowledge of Life", 4),
    Fragment("spirits", "Knowledge of Spirits", 5),
    Fragment("magic", "Knowledge of Magic", 6),
    Fragment("ruler", "Knowledge of the Ruler", 7),
    Fragment("moon", "Knowledge of the Moon", 8),
)
FRAGMENT_BY_KEY: dict[str, Fragment] = {f.key: f for f in FRAGMENTS}
FRAGMENT_KEYS: tuple[str, ...] = tuple(f.key for f in FRAGMENTS)
FRAGMENT_COPIES = 5
"""Copies of each Fragment in the Reliquary at the start (40 Knowledge cards in all)."""


@dataclass(frozen=True)
class Item:
    """One of the six Item kinds: what it does (``text``, the card) and when this bot lets you
    use it (``when``, see docs/rules-notes.md "Items")."""

    key: str
    name: str
    text: str
    when: str

    @property
    def token(self) -> str:
        """The word used for this Item in action notation ("Staff")."""
        return self.key.capitalize()

    @property
    def summary(self) -> str:
        """What the Item does and when it may be used, in two short sentences or so."""
        return f"{self.text} When: {self.when}"


ITEM_RULES = (
    "Items are secret: only you see which you hold. Use them on your own turn only, as many as "
    "you like, before, between or after your moves, until you end your turn; a used Item is "
    "discarded (you may never discard one unused). An Item from a Frontier Action (Caravan, "
    "Wasteland) arrives as your turn ends, so it is first usable next turn; one received in a "
    "trade can be used at once."
)
"""When Items may be used at all (rulebook "Items", "Free Actions", Q1, Q13)."""


ITEMS: tuple[Item, ...] = (
    Item(
        "staff",
        "Staff of Guidance",
        "You may move to any Frontier in which a Bleina is present. If you did not move before "
        "using this Item, you may choose whether or not you wish to move after arriving.",
        "on your turn while a Bleina stands on another Frontier; used after moving, it ends "
        "your walk (a Bleina may still carry you one space).",
    ),
    Item(
        "book",
        "Book of Wisdom",
        "Only in the Frontier Town: take one Fragment you don't already have from the Reliquary.",
        "on your turn while you stand on the Frontier Town (with all eight Fragments it does nothing).",
    ),
    Item(
        "eye",
        "Eye of the Dark Dragon",
        "Choose a Dark Forest you have no Check Marker on. Without paying, look at its reverse "
        "side, then place one of your Check Markers on it.",
        "on your turn, wherever you are, while a face-down Dark Forest has none of your Check Markers.",
    ),
    Item(
        "wings",
        "Wings of the Holy Dragon",
        "You may move up to three spaces this turn.",
        "on your turn, once, while you may still walk and have not ridden a Bleina; after it, "
        "no Bleina ride this turn.",
    ),
    Item(
        "water",
        "Water of Life",
        "At the end of your turn, take another turn.",
        "any time on your turn; two give two extra turns.",
    ),
    Item(
        "flute",
        "Flute of Cleansing",
        "Move a Bleina from another Frontier to your current Frontier. You do not need to pay "
        "an Emerald when using a Bleina to move this turn.",
        "any time on your turn; use it before the Bleina ride it should pay for.",
    ),
)
ITEM_BY_KEY: dict[str, Item] = {i.key: i for i in ITEMS}
ITEM_KEYS: tuple[str, ...] = tuple(i.key for i in ITEMS)
ITEM_COPIES = 3
"""Copies of each Item in the Supply (18 Item cards in all)."""


@dataclass(frozen=True)
class Frontier:
    """One Frontier card: its roads (sides N/E/S/W that carry a road), Dragon symbol, action."""

    key: str
    name: str
    roads: str
    action: str
    text: str
    dragon: bool = False
    fragment: str | None = None
    start: str | None = None
    """"journeyman" or "adventurer" for the starting frontiers of that difficulty."""


# Action kinds (what `end` resolves on a frontier of that kind).
TOWN = "town"
FRAGMENT = "fragment"
CAVE = "cave"
CARAVAN = "caravan"
TEMPLE = "temple"
SNOWFIELDS = "snowfields"
FOUNTAIN = "fountain"
HILL = "hill"
WASTELAND = "wasteland"
PALACE = "palace"
TRAIL = "trail"

_FRAGMENT_TEXT = "Take the Knowledge of {} (a Fragment) from the Reliquary unless you already have it."

FRONTIERS: tuple[Frontier, ...] = (
    Frontier(
        "town",
        "Frontier Town",
        "NESW",
        TOWN,
        "Draw a Frontier from the Discovery Deck and place it (and a Dark Forest if it bears "
        "the Dragon symbol), then take one Emerald from the Bank.",
    ),
    # Journeyman starting frontiers: three roads each, each missing a different side.
    Frontier(
        "mt_aour",
        "Mt. Aour",
        "NEW",
        FRAGMENT,
        _FRAGMENT_TEXT.format("the World"),
        fragment="world",
        start="journeyman",
    ),
    Frontier(
        "valley",
        "Valley of the Holy Dragon",
        "NES",
        FRAGMENT,
        _FRAGMENT_TEXT.format("Life"),
        fragment="life",
        start="journeyman",
    ),
    Frontier(
        "hermit",
        "Hermit's Abode",
        "ESW",
        FRAGMENT,
        _FRAGMENT_TEXT.format("Magic"),
        fragment="magic",
        start="journeyman",
    ),
    Frontier(
        "tower",
        "Tower of Moonlight",
        "NSW",
        FRAGMENT,
        _FRAGMENT_TEXT.format("the Moon"),
        fragment="moon",
        start="journeyman",
    ),
    # Adventurer starting frontiers: three roads each, each missing a different side.
    Frontier("cave", "Glittering Cave", "NES", CAVE, "Take one Emerald from the Bank.", start="adventurer"),
    Frontier(
        "caravan",
        "Caravan",
        "ESW",
        CARAVAN,
        "You may pay one Emerald to draw an Item from the Supply.",
        start="adventurer",
    ),
    Frontier(
        "temple",
        "Forgotten Temple",
        "NSW",
        TEMPLE,
        "At the end of your turn, take another turn.",
        start="adventurer",
    ),
    Frontier(
        "snowfields",
        "Labous Snowfields",
        "NEW",
        SNOWFIELDS,
        "Move a Bleina of your choice from another Frontier to the Labous Snowfields.",
        start="adventurer",
    ),
    # The Discovery Deck's own frontiers; the seven Dragon frontiers are all among them.
    Frontier(
        "dunes",
        "Dir Dunes",
        "EW",
        FRAGMENT,
        _FRAGMENT_TEXT.format("the Forge"),
        dragon=True,
        fragment="forge",
    ),
    Frontier(
        "lake", "Lake Heol", "NS", FRAGMENT, _FRAGMENT_TEXT.format("the Sun"), dragon=True, fragment="sun"
    ),
    Frontier(
        "village",
        "Village of the Wind Tribe",
        "NE",
        FRAGMENT,
        _FRAGMENT_TEXT.format("Spirits"),
        dragon=True,
        fragment="spirits",
    ),
    Frontier(
        "dark_dragon",
        "Forest of the Dark Dragon",
        "NESW",
        FRAGMENT,
        _FRAGMENT_TEXT.format("the Ruler"),
        dragon=True,
        fragment="ruler",
    ),
    Frontier(
        "fountain",
        "Fountain of Desire",
        "SW",
        FOUNTAIN,
        "You may pay two Emeralds to take a Fragment you don't already have; if you do, "
        "return to the Frontier Town.",
        dragon=True,
    ),
    Frontier(
        "hill",
        "Hill of Dreams",
        "NEW",
        HILL,
        "You may pay one Emerald to draw a Frontier and resolve its action, then put it "
        "on the bottom of the Discovery Deck.",
    ),
    Frontier(
        "wasteland",
        "Wasteland",
        "ESW",
        WASTELAND,
        "If you do not have any Items, draw one from the Supply.",
        dragon=True,
    ),
    Frontier(
        "palace",
        "Jeweled Palace",
        "NS",
        PALACE,
        "Take one Emerald from the player(s) with the most Emeralds; if you have the most, "
        "take one from the Bank.",
    ),
    Frontier(
        "trail_1",
        "Unmarked Trail",
        "NESW",
        TRAIL,
        "You may move your Avatar to a different Unmarked Trail.",
        dragon=True,
    ),
    Frontier(
        "trail_2", "Unmarked Trail", "EW", TRAIL, "You may move your Avatar to a different Unmarked Trail."
    ),
    Frontier(
        "trail_3", "Unmarked Trail", "NS", TRAIL, "You may move your Avatar to a different Unmarked Trail."
    ),
)
FRONTIER_BY_KEY: dict[str, Frontier] = {f.key: f for f in FRONTIERS}
TOWN_KEY = "town"

DIFFICULTIES: tuple[str, ...] = ("journeyman", "adventurer")
DEFAULT_DIFFICULTY = "adventurer"
DEFAULT_TRADE_WAIT = 60
"""Minutes a trade offer waits for its answer by default (the ``trade_wait`` option)."""


def starting_frontiers(difficulty: str) -> tuple[str, ...]:
    """Keys of the four starting frontiers for a difficulty, in card-list order."""
    return tuple(f.key for f in FRONTIERS if f.start == difficulty)


def discovery_frontiers(difficulty: str) -> tuple[str, ...]:
    """Keys of the fifteen frontiers that form the Discovery Deck for a difficulty."""
    return tuple(f.key for f in FRONTIERS if f.key != TOWN_KEY and f.start != difficulty)


EDEN = "Eden"
HOLLOW = "Hollow"
DARK_FORESTS: tuple[str, ...] = (EDEN, HOLLOW, HOLLOW, HOLLOW)
"""The reverse sides of the four Dark Forest cards (the Darkness Deck)."""

BANK_SIZE = 25
"""Emeralds in the game; the Bank is finite (Q5: an empty Bank gives nothing)."""
START_EMERALDS = 1
MARKERS_PER_PLAYER = 4

COLOURS: tuple[str, ...] = ("Red", "Blue", "Green", "Yellow", "Purple")
"""Seat colours in seat order; a seat's letter is its colour's initial."""

MIN_PLAYERS = 2
MAX_PLAYERS = 5
