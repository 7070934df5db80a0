"""One-ply greedy players: the yardstick of ``bench/ai_strength.py`` (not a level of the bot).

A greedy player tries each of its legal moves once on a determinised copy of what it sees
(``game.determinize(player, rng)``, never the real game) and plays the one whose resulting
position scores best by a simple heuristic of its own, written apart from the search's
evaluation (``argo.py``, ``argoat_eval.py``):

* Argo: banked points against the best opponent's, the seats its Astronauts hold in Pods, a
  little for each Astronaut still free (less next to an Alien, more near a free Pod seat), and
  a heavy penalty when the Aliens outscore everyone;
* Argoat: ten per Fragment, two per Emerald (up to four), one per Item, four for knowing where
  Eden is and one per known Hollow, minus the road steps to the nearest missing Fragment's
  Frontier (with all eight, to the nearest forest that may hide Eden).

A finished game scores ±1000. It never starts a trade (it accepts an offer that raises its
score), never takes an optional out-of-turn chance, and passes when the game waits for it.
"""

from __future__ import annotations

import random
from collections import deque
from typing import cast

from bot.ai.policy import plain
from bot.engine.argo import station
from bot.engine.argo.data import CHIEF, POD, ROBOT, TEAM_SIZE, TILES
from bot.engine.argo.game import ArgoGame
from bot.engine.argo.state import State as ArgoState
from bot.engine.argoat.data import EDEN, FRAGMENT_KEYS, FRONTIER_BY_KEY
from bot.engine.argoat.game import ArgoatGame
from bot.engine.argoat.state import Seat
from bot.engine.argoat.state import State as ArgoatState
from bot.engine.core import Action, Game, IllegalAction

WIN = 1000.0
SKIP = frozenset({"undo", "cancel", "trade", "withdraw", "timemachine"})


def greedy_action(game: Game, player: str, seed: int = 0) -> Action | None:
    """The greedy player's move, or None when it lets an optional chance go."""
    prompt = game.prompt()
    legal = game.legal_actions(player)
    if prompt is None or not legal:
        return None
    if prompt.player != player:
        return next((a for a in legal if a.get("type") == "pass"), None)
    options = [a for a in legal if a.get("type") not in SKIP] or plain(legal)
    if len(options) == 1:
        return options[0]
    world = game.determinize(player, random.Random(f"greedy:{seed}"))
    best, best_score = options[0], -float("inf")
    for action in options:
        copy = world.clone()
        try:
            copy.apply(player, action)
        except IllegalAction:
            continue
        score = score_position(copy, player)
        if score > best_score:
            best, best_score = action, score
    return best


def score_position(game: Game, player: str) -> float:
    """The greedy heuristic of ``player``'s position (higher is better)."""
    result = game.result()
    if result is not None:
        return WIN if player in result.winners else -WIN
    if type(game).name == "Argo":
        return _argo_score(cast(ArgoGame, game).st, game.players.index(player))
    if type(game).name == "Argoat":
        state = cast(ArgoatGame, game).state
        return _argoat_score(state, state.seat(player))
    return 0.0


# ----- Argo -------------------------------------------------------------------------------------


def _argo_score(st: ArgoState, seat: int) -> float:
    points = [float(p) for p in st.scores]
    free_seats: set[int] = set()
    for tile in st.pos:
        info = TILES[tile]
        occupants = st.occ.get(tile, ())
        if info.kind == POD:
            if len(occupants) < len(info.seats):
                free_seats.add(tile)
            for index, aid in enumerate(occupants):
                double = 2 if aid % TEAM_SIZE == CHIEF else 1
                points[aid // TEAM_SIZE] += 0.8 * info.seats[index] * double
    pod_steps = _steps_to(st, free_seats)
    near_alien = {t for alien in st.aliens for t in station.linked(st, alien)}
    mine = 0.0
    for tile in st.pos:
        if TILES[tile].kind == POD:
            continue
        for aid in st.occ.get(tile, ()):
            if aid // TEAM_SIZE != seat:
                continue
            value = 0.6 + 0.3 / (1 + pod_steps.get(tile, 9))
            if tile in near_alien and aid % TEAM_SIZE != ROBOT:
                value -= 0.4
            mine += value
    best_other = max(p for i, p in enumerate(points) if i != seat)
    score = points[seat] - best_other + mine
    alien = st.alien_score()
    if alien is not None and alien > max(points):
        score -= 5.0
    return score


def _steps_to(st: ArgoState, targets: set[int]) -> dict[int, int]:
    steps = {t: 0 for t in targets}
    queue = deque(targets)
    while queue:
        tile = queue.popleft()
        for other in station.linked(st, tile):
            if other not in steps:
                steps[other] = steps[tile] + 1
                queue.append(other)
    return steps


# ----- Argoat -----------------------------------------------------------------------------------


def _argoat_score(state: ArgoatState, me: Seat) -> float:
    eden = None
    hollows = 0
    for at, forest in state.forests.items():
        if forest.flipped or at in me.peeks:
            if forest.content == EDEN:
                eden = at
            else:
                hollows += 1
    score = 10.0 * len(me.fragments) + 2.0 * min(me.emeralds, 4) + 1.0 * len(me.items)
    score += 4.0 if eden is not None else float(hollows)
    targets: set[tuple[int, int]] = set()
    if len(me.fragments) >= len(FRAGMENT_KEYS):
        if eden is not None:
            targets.add(eden)
        else:
            targets.update(
                at for at, f in state.forests.items() if not f.flipped and at not in me.peeks
            )
    else:
        for at, key in state.frontiers.items():
            fragment = FRONTIER_BY_KEY[key].fragment
            if fragment is not None and fragment not in me.fragments:
                targets.add(at)
    if not targets:
        targets.add(state.town)
    return score - _road_steps(state, me.pos, targets)


def _road_steps(state: ArgoatState, start: tuple[int, int], targets: set[tuple[int, int]]) -> float:
    seen = {start}
    frontier = [start]
    steps = 0
    while frontier and steps < 20:
        if any(at in targets for at in frontier):
            return float(steps)
        following = []
        for at in frontier:
            for _, other in state.exits(at):
                if other not in seen:
                    seen.add(other)
                    following.append(other)
        frontier = following
        steps += 1
    return 20.0


__all__ = ["greedy_action", "score_position"]
