"""The JSON view of a game for renderers and cogs (schema in docs/argo-view.md)."""

from __future__ import annotations

from typing import Any

from bot.engine.argo.data import (
    ACTIVATABLE,
    COLOURS,
    NO_ROBOT,
    POD,
    ROLES,
    TILES,
    UNLIMITED,
    TileType,
)
from bot.engine.argo.geometry import SIDE_LETTER, SIDES, doors_text, label
from bot.engine.argo.state import ESCAPED, TRACK, State
from bot.engine.argo.text import astro_key, owner, role
from bot.engine.core import Prompt, Result


def _doors(mask: int) -> dict[str, bool]:
    return {SIDE_LETTER[s]: bool(mask & s) for s in SIDES}


def tile_type_view(info: TileType) -> dict[str, Any]:
    """What is printed on a tile, independent of where it lies."""
    out: dict[str, Any] = {
        "id": info.id,
        "kind": info.kind,
        "name": info.name,
        "token": info.token,
        "capacity": None if info.capacity >= UNLIMITED else info.capacity,
        "doors": _doors(info.doors),
        "doors_text": doors_text(info.doors),
        "alien_symbol": info.alien,
        "activatable": info.kind in ACTIVATABLE,
        "no_robot": info.kind in NO_ROBOT,
    }
    if info.kind == POD:
        out["seats"] = list(info.seats)
        out["min_players"] = info.min_players
    return out


def _astronaut(st: State, aid: int) -> dict[str, Any]:
    tile = st.loc[aid]
    out: dict[str, Any] = {
        "id": astro_key(aid),
        "owner": st.players[owner(aid)],
        "colour": COLOURS[owner(aid)],
        "role": ROLES[role(aid)],
        "status": "station",
        "tile": None,
        "cell": None,
        "coord": None,
        "seat": None,
        "seat_value": None,
    }
    if tile == TRACK:
        out["status"] = "dead"
    elif tile == ESCAPED:
        out["status"] = "escaped"
    else:
        cell = st.pos[tile]
        out.update(tile=tile, cell=list(cell), coord=label(cell))
        if TILES[tile].kind == POD:
            seat = st.occ[tile].index(aid)
            out.update(status="pod", seat=seat, seat_value=TILES[tile].seats[seat])
    return out


def build_view(st: State, prompt: Prompt | None, result: Result | None) -> dict[str, Any]:
    """The whole public state: board, pieces, supply, tracks, turn and prompt."""
    tiles = []
    for tile, cell in st.pos.items():
        info = TILES[tile]
        entry = tile_type_view(info)
        entry.update(
            cell=list(cell),
            coord=label(cell),
            rotation=st.rot[tile],
            doors=_doors(st.doors[tile]),
            doors_text=doors_text(st.doors[tile]),
            tokens=[COLOURS[s] for s in st.tokens.get(tile, ())],
            occupants=[astro_key(a) for a in st.occ.get(tile, ())],
            alien=tile in st.aliens,
        )
        tiles.append(entry)
    cells = list(st.pos.values())
    values = st.track_values()
    covered = st.covered()
    slots = []
    for i, value in enumerate(values):
        body = st.track[i - covered] if covered <= i < covered + len(st.track) else None
        slots.append(
            {
                "value": value,
                "covered": i < covered,
                "astronaut": astro_key(body) if body is not None else None,
            }
        )
    players = []
    for seat, pid in enumerate(st.players):
        team = [_astronaut(st, a) for a in st.team(seat)]
        players.append(
            {
                "id": pid,
                "seat": seat,
                "colour": COLOURS[seat],
                "score": st.scores[seat],
                "activations": st.activations[seat],
                "escaped": st.escaped[seat],
                "dead": sum(1 for a in team if a["status"] == "dead"),
                "seated": sum(1 for a in team if a["status"] == "pod"),
                "first_player": seat == st.first_player,
            }
        )
    pods_stack = [tile_type_view(TILES[p]) for p in st.pod_stack]
    view: dict[str, Any] = {
        "game": "Argo",
        "players": players,
        "active": None if st.finished else st.players[st.active],
        "active_colour": None if st.finished else COLOURS[st.active],
        "finished": st.finished,
        "turn": st.turn + 1,
        "first_round": st.turn < st.n,
        "phase": st.phase,
        "actions_used": st.actions_used,
        "actions_allowed": st.actions_allowed(),
        "final_turns_left": st.final_turns,
        "options": {
            "difficulty": st.difficulty,
            "deep_space": "on" if st.deep_space else "off",
            "tm_wait": st.tm_wait,
        },
        "bounds": {
            "min_x": min(c[0] for c in cells),
            "max_x": max(c[0] for c in cells),
            "min_y": min(c[1] for c in cells),
            "max_y": max(c[1] for c in cells),
        },
        "tiles": tiles,
        "astronauts": [_astronaut(st, a) for a in range(len(st.loc))],
        "aliens": [{"tile": t, "cell": list(st.pos[t]), "coord": label(st.pos[t])} for t in st.aliens],
        "display": [tile_type_view(TILES[t]) for t in st.display],
        "stack_size": len(st.stack),
        "pods": {
            "stack": pods_stack,
            "next": pods_stack[0] if pods_stack else None,
            "on_station": [t for t in st.pos if TILES[t].kind == POD],
            "launched": [
                {"pod": tile_type_view(TILES[p]), "occupants": [astro_key(a) for a in occ]}
                for p, occ in st.launched
            ],
        },
        "alien_track": {
            "values": list(values),
            "covered": covered,
            "slots": slots,
            "score": st.alien_score(),
            "full": st.alien_score() is None,
        },
        "time_machine": {
            "moment": st.window,
            "holding": st.hold is not None,
        },
        "prompt": None
        if prompt is None
        else {
            "player": prompt.player,
            "text": prompt.text,
            "others": list(prompt.others),
            "others_label": prompt.others_label,
            "timeout": prompt.timeout,
            "kind": _prompt_kind(st),
        },
        "end_reason": st.end_reason or None,
        "alien_victory": bool(result is not None and not result.winners),
        "result": None if result is None else result.to_json(),
    }
    return view


def _prompt_kind(st: State) -> str:
    if st.finished:
        return "none"
    if st.pending is not None:
        if st.pending["tm"]:
            return "time_machine"
        return "decision"
    if st.hold is not None:
        return "time_machine_wait"
    return st.phase
