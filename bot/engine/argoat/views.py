"""Views: the JSON-safe picture of a game for renderers and cogs (schema in docs/argoat-view.md).

The public view holds no secret: no deck order or size (Q6: only whether a deck is empty), no
face-down forest's content, no Item kind a player holds, no peek. A player's view adds only that
player's Items and peeks.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .data import FRAGMENT_BY_KEY, FRONTIER_BY_KEY, ITEM_BY_KEY, ITEM_KEYS
from .geometry import Coord, fmt, forest_spots
from .state import OVER, PLACE_FOREST, PLACE_FRONTIER, State
from .trades import GIVE, ITEM, describe, public_data

if TYPE_CHECKING:
    from .game import ArgoatGame


def _cell(at: Coord) -> dict[str, Any]:
    return {"at": fmt(at), "x": at[0], "y": at[1]}


def _players(state: State) -> list[dict[str, Any]]:
    return [
        {
            "id": seat.id,
            "seat": index,
            "colour": seat.colour,
            "letter": seat.letter,
            **_cell(seat.pos),
            "emeralds": seat.emeralds,
            "fragments": list(seat.fragments),
            "fragment_count": len(seat.fragments),
            "items": len(seat.items),
            "markers_left": state.markers_left(seat.id),
            "active": index == state.active and state.phase != OVER,
        }
        for index, seat in enumerate(state.seats)
    ]


def _face(key: str) -> dict[str, Any]:
    """The printed face of frontier card ``key``."""
    frontier = FRONTIER_BY_KEY[key]
    return {
        "key": frontier.key,
        "name": frontier.name,
        "roads": list(frontier.roads),
        "dragon": frontier.dragon,
        "fragment": frontier.fragment,
        "action": frontier.text,
    }


def _frontiers(state: State) -> list[dict[str, Any]]:
    return [{**_cell(at), **_face(state.frontiers[at])} for at in sorted(state.frontiers)]


def _placement_cells(state: State) -> list[str]:
    """Where the pending placement (the drawn frontier, or its Dark Forest) may go."""
    if state.phase == PLACE_FRONTIER and state.drawn is not None:
        return [fmt(at) for at in state.frontier_spots(FRONTIER_BY_KEY[state.drawn].roads)]
    if state.phase == PLACE_FOREST and state.placed is not None:
        return [fmt(at) for at, _ in forest_spots(state.roads, state.placed)]
    return []


def _forests(state: State) -> list[dict[str, Any]]:
    colour = {seat.id: seat.colour for seat in state.seats}
    forests = []
    for at in sorted(state.forests):
        forest = state.forests[at]
        entry: dict[str, Any] = {
            **_cell(at),
            "roads": [forest.road],
            "flipped": forest.flipped,
            "markers": [colour[p] for p in forest.markers],
        }
        if forest.flipped:
            entry["content"] = forest.content
        forests.append(entry)
    return forests


def _bounds(state: State) -> dict[str, int]:
    cells = list(state.roads)
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)}


def _trade(state: State) -> dict[str, Any] | None:
    if state.trade is None:
        return None
    proposer = state.current.id
    partner, parts = state.trade
    return {
        "from": proposer,
        "to": partner,
        "stage": "offer" if state.phase == "offer" else "draft",
        "terms": describe(proposer, partner, parts),
        **public_data(parts),
    }


def build_view(game: ArgoatGame, player: str | None) -> dict[str, Any]:
    """The view of ``game`` for ``player`` (None: the public view)."""
    state = game.state
    prompt = game.prompt()
    finished = state.phase == OVER
    view: dict[str, Any] = {
        "game": game.name,
        "difficulty": state.difficulty,
        "players": _players(state),
        "active": None if finished else state.current.id,
        "finished": finished,
        "winner": None if state.winner is None else state.seats[state.winner].id,
        "turn": state.turn,
        "phase": state.phase,
        "prompt": None
        if prompt is None
        else {
            "player": prompt.player,
            "text": prompt.text,
            "others": list(prompt.others),
            "others_label": prompt.others_label,
            "private": prompt.private,
        },
        "frontiers": _frontiers(state),
        "forests": _forests(state),
        "bleinas": [fmt(b) for b in state.bleinas],
        "decks_empty": {  # Q6: whether a deck is empty shows at the table, its size does not
            "discovery": not state.discovery,
            "supply": not state.supply,
            "darkness": not state.darkness,
        },
        "bank": state.bank,
        "reliquary": dict(state.reliquary),
        "discard": {
            k: n for k, n in sorted(Counter(state.used_items).items(), key=lambda kv: ITEM_KEYS.index(kv[0]))
        },
        "movement": {
            "moved": state.move.moved,
            "steps": state.move.steps,
            "max_steps": state.move.max_steps,
            "bleina_used": state.move.bleina_used,
            "wings": state.move.wings,
            "free_bleina": state.move.free_bleina,
        },
        "extra_turns": state.extra_turns,
        "trade": _trade(state),
        "drawn": state.drawn,
        "drawn_card": None if state.drawn is None else _face(state.drawn),
        "placement_cells": _placement_cells(state),
        "forest_for": fmt(state.placed) if state.phase == PLACE_FOREST and state.placed is not None else None,
        "bounds": _bounds(state),
    }
    if player is not None and player in game.players:
        seat = state.seat(player)
        you: dict[str, Any] = {
            "id": seat.id,
            "items": list(seat.items),
            "item_names": [ITEM_BY_KEY[k].name for k in seat.items],
            "peeks": [{"at": fmt(at), "content": state.forests[at].content} for at in seat.peeks],
            "fragment_names": [FRAGMENT_BY_KEY[f].name for f in seat.fragments],
        }
        if state.trade is not None and state.current.id == player:
            you["trade_items"] = [p[2] for p in state.trade[1] if p[0] == GIVE and p[1] == ITEM]
            you["trade_terms"] = describe(player, state.trade[0], state.trade[1], names=True)
        view["you"] = you
    return view
