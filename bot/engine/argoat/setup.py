"""Setting up a new game: Reliquary, Bank, decks, starting frontiers, Bleina, first player."""

from __future__ import annotations

from itertools import permutations

from bot.engine.core import Rng

from .data import (
    BANK_SIZE,
    DARK_FORESTS,
    DIRECTIONS,
    FRAGMENT_COPIES,
    FRAGMENT_KEYS,
    FRONTIER_BY_KEY,
    ITEM_COPIES,
    ITEM_KEYS,
    START_EMERALDS,
    TOWN_KEY,
    discovery_frontiers,
    starting_frontiers,
)
from .geometry import OPPOSITE, step
from .state import State, new_seats


def starting_layouts(difficulty: str) -> list[tuple[str, ...]]:
    """Every assignment of the starting frontiers to the Town's N, E, S, W sides whose roads
    connect to the Town (a frontier needs a road on the side facing the Town)."""
    layouts = []
    for order in permutations(starting_frontiers(difficulty)):
        if all(
            OPPOSITE[side] in FRONTIER_BY_KEY[key].roads for side, key in zip(DIRECTIONS, order, strict=True)
        ):
            layouts.append(order)
    return layouts


def new_state(players: list[str], seed: int, difficulty: str) -> State:
    """A game set up as the rulebook's "Setting Up" says, every random choice from ``seed``.

    Random draws happen in this order: Darkness Deck shuffle, starting layout, Discovery Deck
    shuffle, Supply shuffle, first player.
    """
    rng = Rng(seed)
    seats = new_seats(players)
    state = State(seats=seats, difficulty=difficulty, rng=rng)
    state.reliquary = {key: FRAGMENT_COPIES for key in FRAGMENT_KEYS}
    state.darkness = list(DARK_FORESTS)
    rng.shuffle(state.darkness)
    town = (0, 0)
    state.place_frontier(town, TOWN_KEY)
    layout = rng.choice(starting_layouts(difficulty))
    for side, key in zip(DIRECTIONS, layout, strict=True):
        state.place_frontier(step(town, side), key)
    state.discovery = list(discovery_frontiers(difficulty))
    rng.shuffle(state.discovery)
    state.supply = [key for key in ITEM_KEYS for _ in range(ITEM_COPIES)]
    rng.shuffle(state.supply)
    state.bank = BANK_SIZE
    for seat in seats:
        seat.emeralds = START_EMERALDS
        state.bank -= START_EMERALDS
    state.bleinas = [town] * (len(players) // 2)
    state.active = rng.randrange(len(players))  # "Drop one of the Emeralds on the table."
    return state
