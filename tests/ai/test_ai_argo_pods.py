"""Argo: the evaluation races for Escape Pod seats (issue 34).

Until issue 34 every free Astronaut one or two moves from a free Pod seat was projected a share of
that seat on its own: two rivals next to the last seat both held it, and an Astronaut at a Pod's
door held it even when a rival who plays first could push it away. The greedy player took the
seat the bot's Robot had left it (a Chief on the 5-seat, 10 points: seed 1006, hard at 3,300
iterations, turns 20-25), and pushed the bot's Pilot out of the Pod's door turn after turn.
Now the seats go as a race gives them (``bot.ai.argo._pod_race``)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.ai.argo import projections
from bot.engine.argo import ArgoGame
from bot.engine.argo.data import CHIEF, TEAM_SIZE
from tests.argo.argo_board import setup

POSITIONS = Path(__file__).parent / "positions"

STATION = {
    "N1": "Corridor-I NS",
    "N2": "Lab NES",
    "N3": "Corridor-I NS",
    "N2E1": "Pod-3/5 W",
}


def test_the_last_free_seat_goes_to_whoever_plays_first():
    """Both players have an Astronaut in the Lab next to a Pod whose 3-seat Blue's Robot holds:
    the 5-seat is projected to the player who moves first, and only to them."""
    people = {"Blue-Robot": "N2E1", "Blue-Grunt": "N2", "Yellow-Grunt": "N2"}
    blue_first = setup(STATION, astronauts=people, active="Blue", turn=5)
    yellow_first = setup(STATION, astronauts=people, active="Yellow", turn=6)
    blue_a, yellow_a = projections(blue_first.st)[0]
    blue_b, yellow_b = projections(yellow_first.st)[0]
    seat = 0.6 * 0.75 * 5  # one move from the seat, the Pod kept with 0.75
    assert blue_a - blue_b > seat - 1.2, (blue_a, blue_b)  # less a free Astronaut's share
    assert yellow_b - yellow_a > seat - 1.2, (yellow_a, yellow_b)


def test_an_astronaut_a_rival_pushes_away_first_holds_no_seat():
    """Saved from that game after the bot's turn 24: its Pilot stands on the corridor at the door
    of the Pod (3/5) whose 3-seat its Robot holds, and the greedy player's Chief, next to that
    corridor, plays first. The Chief is projected the 5-seat, the Pilot none of it; with the
    Chief in the Waking Room the Pilot holds the seat again."""
    game = ArgoGame.from_json(json.loads((POSITIONS / "argo_pod_door.json").read_text()))
    st = game.st
    assert st.players[st.active] == "bot:1"
    chief = 1 * TEAM_SIZE + CHIEF
    door = st.loc[chief]
    blue = projections(st)[0][0]
    away = ArgoGame.from_json(json.loads((POSITIONS / "argo_pod_door.json").read_text()))
    away.st.occ[door] = tuple(a for a in away.st.occ[door] if a != chief)
    away.st.occ[0] = (*away.st.occ.get(0, ()), chief)
    away.st.loc[chief] = 0
    blue_away = projections(away.st)[0][0]
    assert blue_away - blue > 0.6 * 0.75 * 5 - 1.2, (blue, blue_away)
