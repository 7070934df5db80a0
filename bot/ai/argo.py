"""Argo knowledge for the search: a weighted rollout policy and an evaluation with the Aliens' threat.

Evaluation (a value in [0, 1] per seat): each player's *projected* points are their banked points,
plus the seats they hold in Escape Pods still on the station (discounted: a Pod may never leave),
plus a share of a future seat for each Astronaut still free in the station (less when an Alien is
one step away). The Aliens' projected score is the Alien track after the deaths the threatened
Astronauts make likely. Then

    value = 0.75 * P(humans beat the Aliens) * share + 0.25 * share

where ``share`` is the player's soft share of the lead (a logistic of the margin over the others)
and P(humans beat the Aliens) a logistic of the best projected player's lead over the Aliens
(near zero when the track is about to fill). The 0.25 part keeps "more points than the others"
worth something even when the Aliens look like winning. A finished game is scored the same way
with the real outcome in place of the estimate.

The rollout policy samples moves by weights: it avoids walking into Aliens and Alien moves that
kill its own people or feed a nearly full track, walks towards Escape Pods and boards them, and
likes the Warehouse, the Laser and launching its own Pods. Rollouts stop after two turns.

This module reads the Argo engine's state (``game.st``) for speed; it only ever sees the
determinised copies the search hands it.
"""

from __future__ import annotations

import math
import random
from typing import Final, cast

from bot.ai.budget import need
from bot.ai.policy import Policy, plain, register, timeout
from bot.engine.argo import station
from bot.engine.argo.data import (
    ALIEN_FORBIDDEN,
    CHIEF,
    CONTROL_ROOM,
    CORE_ROOM,
    EXPLORER,
    GRUNT,
    INFIRMARY,
    JUMP_ROOM,
    LAB,
    LASER,
    POD,
    ROBOT,
    SECURITY_CENTER,
    TEAM_SIZE,
    TILES,
    WAKING_ROOM_ID,
    WAREHOUSE,
)
from bot.engine.argo.game import ArgoGame
from bot.engine.argo.notation import notation, viewer
from bot.engine.argo.state import State
from bot.engine.core import SYSTEM, TIMEOUT, Action, Game, Result

POD_KEEP: Final = 0.75
"""Chance a seated Astronaut's Pod leaves before the end (lower once the last tile is built)."""
FREE_SEAT: Final = 1.1
"""What an Astronaut still free in the station is worth, when there are seats for everyone."""
THREAT: Final = 0.45
"""Chance an Astronaut with an Alien one step away dies before the next round."""
SHARE_SCALE: Final = 2.0
"""Points of margin that make the share of the lead ~0.73 (a logistic's scale)."""
ALIEN_SCALE: Final = 1.5
"""Points of lead over the Aliens that make P(humans beat the Aliens) ~0.73."""
SURVIVAL_WEIGHT: Final = 0.75
"""Weight of beating the Aliens (and the others) against merely having more than the others."""
CONTROL_ROOM_KEEP = 4
"""Control Room moves searched at the root: the best after one ply (see ``root_candidates``)."""
SAME_VALUE_DIGITS: Final = 6
"""Control Room moves whose one-ply values agree to this many digits count as one (the first in
legal order is searched): the evaluation cannot tell them apart, and searching several of them
only splits the visits between equals, so the most visited was a matter of the seed."""
BUILD_WIDTH: Final = 45
"""A Building phase's typical number of moves (tiles, places, turns), for sharing a turn's time."""
ACTION_WIDTH: Final = 17
"""An action's typical number of moves (Astronauts' moves, activations)."""
PUSH_WIDTH: Final = 3
"""A push's typical number of choices."""
SEAT_REACH = (0.6, 0.4)
"""Share of a free Pod seat's value (as if seated) an Astronaut one or two moves away holds when
another player also has an Astronaut in reach of that Pod."""
UNCONTESTED_REACH = (0.9, 0.75)
"""The same share when nobody else can reach the Pod in two moves: only an Alien, the Security
Center or a push can stop it (the greedy player boarded a Chief on a Pod's 5-seat two moves away
and the bot, which held it at 0.4 of the seat, did not launch the Pod from its Security Center)."""
WAREHOUSE_REACH = 0.6
"""Share of a Warehouse's points held by a player with an Astronaut on it who has not used it.
Banking it must be worth clearly more than holding it: at 0.7, with the Pod race's shares (issue
34) the gain of +0.6 point lost to other moves and a bot sat on its Warehouse for two turns in 1 of
6 normal and 1 of 6 easy seeds of ``tests/ai/test_ai_purpose.py`` (0.6: in none of the normal and
hard seeds, as before the Pod race)."""
WAREHOUSE_NEAR = 0.3
"""The same for an Astronaut next to it (the Activation takes a move first)."""


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _owner(aid: int) -> int:
    return aid // TEAM_SIZE


def _role(aid: int) -> int:
    return aid % TEAM_SIZE


def _threatened(st: State) -> set[int]:
    """Astronauts on a tile an Alien could enter next (one step from an Alien), Robots excepted."""
    found: set[int] = set()
    for alien in st.aliens:
        for tile in station.linked(st, alien):
            if TILES[tile].kind in ALIEN_FORBIDDEN:
                continue
            people = [a for a in st.occ.get(tile, ()) if _role(a) != ROBOT]
            grunts = sum(1 for a in people if _role(a) == GRUNT)
            if grunts >= 2:
                continue
            found.update(people)
    return found


_TILE_COUNT: Final = len(TILES)
_POD_SEATS: Final[tuple[tuple[int, ...], ...]] = tuple(t.seats if t.kind == POD else () for t in TILES)
"""The seat values of each tile id: empty for every tile but the Escape Pods."""


class PodReach:
    """For each tile id: steps to the nearest Escape Pod with a free seat (-1: none in reach, or
    not on the station) and that seat's value. Lists by tile id, which compiled code reads natively."""

    __slots__ = ("steps", "value")

    def __init__(self, steps: list[int], value: list[int]) -> None:
        self.steps = steps
        self.value = value


def _pod_reach(st: State) -> PodReach:
    """Breadth first from every Escape Pod on the station with a free seat."""
    steps = [-1] * _TILE_COUNT
    value = [0] * _TILE_COUNT
    queue: list[int] = []  # breadth first: a list read from the front (``start``)
    occ = st.occ
    for tile in st.pos:
        seats = _POD_SEATS[tile]
        if seats:
            taken = len(occ.get(tile, ()))
            if taken < len(seats):
                steps[tile] = 0
                value[tile] = seats[taken]
                queue.append(tile)
    joined = station.links(st)
    start = 0
    while start < len(queue):
        tile = queue[start]
        start += 1
        further = steps[tile] + 1
        seat_value = value[tile]
        for other in joined[tile]:
            if steps[other] < 0:
                steps[other] = further
                value[other] = seat_value
                queue.append(other)
    return PodReach(steps, value)


def _pod_race(st: State, free: list[int]) -> dict[int, tuple[int, int, bool, bool]]:
    """Which Astronauts still free in the station can expect a seat in an Escape Pod one or two
    moves away, and which seat: ``aid -> (moves, seat value, whether it fills the Pod, whether
    another player has an Astronaut in reach of the Pod)``. The seats go as a race would give
    them: nearer Astronauts first, and among Astronauts as near, the players in the order they
    play from now (the player to move first), each boarding at most two in a turn (two actions);
    a Pod's seats are taken lowest first. So an Astronaut the others would beat to the last
    free seat holds none of it, and boarding the lower seat of a Pod with a rival next to it
    counts the higher seat as the rival's. An Astronaut a rival who plays first can push further
    from the Pod holds no seat in it."""
    pods: list[int] = []
    for tile in st.pos:
        seats = _POD_SEATS[tile]
        if seats and len(st.occ.get(tile, ())) < len(seats):
            pods.append(tile)
    found: dict[int, tuple[int, int, bool, bool]] = {}
    if not pods:
        return found
    n = st.n
    first = st.active
    done = st.phase not in ("alien", "build", "actions") or st.actions_used >= st.actions_allowed()
    if st.finished or done:
        first = (st.active + 1) % n
    joined = station.links(st)
    pushers = _pushers(st, free, joined, first)
    claims: list[tuple[int, int, int, int, int]] = []  # (moves, turn order, not Chief, aid, pod)
    for pod in pods:
        steps = [-1] * _TILE_COUNT
        steps[pod] = 0
        queue = [pod]
        start = 0
        while start < len(queue):
            tile = queue[start]
            start += 1
            if steps[tile] >= 2 * len(SEAT_REACH):
                continue
            for other in joined[tile]:
                if steps[other] < 0:
                    steps[other] = steps[tile] + 1
                    queue.append(other)
        for aid in free:
            where = st.loc[aid]
            if where < 0 or steps[where] < 1:
                continue
            sources = pushers.get(aid)
            if sources is not None and _pushed_away(st, where, sources, joined, steps):
                continue
            moves = (steps[where] + 1) // 2 if _role(aid) == EXPLORER else steps[where]
            if moves <= len(SEAT_REACH):
                order = (_owner(aid) - first) % n
                claims.append((moves, order, 0 if _role(aid) == CHIEF else 1, aid, pod))
    claims.sort()
    owners: dict[int, set[int]] = {pod: set() for pod in pods}
    for _, _, _, aid, pod in claims:
        owners[pod].add(_owner(aid))
    taken = {pod: len(st.occ.get(pod, ())) for pod in pods}
    boarded: dict[tuple[int, int], int] = {}
    for moves, _, _, aid, pod in claims:
        seats = _POD_SEATS[pod]
        if aid in found or taken[pod] >= len(seats):
            continue
        turn = (_owner(aid), moves)
        if boarded.get(turn, 0) >= 2:
            continue
        boarded[turn] = boarded.get(turn, 0) + 1
        found[aid] = (moves, seats[taken[pod]], taken[pod] + 1 == len(seats), len(owners[pod]) > 1)
        taken[pod] += 1
    return found


def _pushers(
    st: State, free: list[int], joined: dict[int, tuple[int, ...]], first: int
) -> dict[int, list[int]]:
    """For each Astronaut a rival can push before its owner moves again, the tiles it could be
    pushed from: it stands on a full tile (the Waking Room never is), next to a tile where a
    player who moves before its owner (from ``first`` on) has an Astronaut."""
    found: dict[int, list[int]] = {}
    n = st.n
    for aid in free:
        where = st.loc[aid]
        if where < 0 or len(st.occ.get(where, ())) < TILES[where].capacity:
            continue
        mine = (_owner(aid) - first) % n
        for other in joined[where]:
            if TILES[other].kind == POD:
                continue
            if any((_owner(b) - first) % n < mine for b in st.occ.get(other, ())):
                found.setdefault(aid, []).append(other)
    return found


def _pushed_away(
    st: State, where: int, sources: list[int], joined: dict[int, tuple[int, ...]], steps: list[int]
) -> bool:
    """Whether an Astronaut on ``where`` can be pushed from one of ``sources`` further from the
    Pod whose distances are ``steps`` (or onto an Alien): a bot that walked back to a Pod's
    door was pushed out of it turn after turn (issue 34). A push into a Pod seats it."""
    for source in sources:
        for away in joined[where]:
            if away == source or TILES[away].kind == POD:
                continue
            if steps[away] < 0 or steps[away] > steps[where] or away in st.aliens:
                return True
    return False


def _warehouse_reach(st: State, points: list[float]) -> None:
    """Add to ``points`` the Warehouse Activations within reach: a Warehouse a player has not
    used yet (and not used twice) with one of their Astronauts on it, or next to it."""
    for tile in st.pos:
        if TILES[tile].kind != WAREHOUSE:
            continue
        used = st.tokens.get(tile, ())
        if len(used) >= 2:
            continue
        best: dict[int, float] = {}
        for aid in st.occ.get(tile, ()):
            seat = _owner(aid)
            gain = WAREHOUSE_REACH * (4.0 if _role(aid) == CHIEF else 2.0)
            best[seat] = max(best.get(seat, 0.0), gain)
        for other in station.linked(st, tile):
            for aid in st.occ.get(other, ()):
                seat = _owner(aid)
                best[seat] = max(best.get(seat, 0.0), WAREHOUSE_NEAR * 2.0)
        for seat, gain in best.items():
            if seat not in used:
                points[seat] += gain


def projections(st: State) -> tuple[list[float], float, bool]:
    """Projected points per seat, the Aliens' projected score, and whether the track looks full."""
    n = st.n
    points = [float(s) for s in st.scores]
    keep = POD_KEEP if st.final_turns is None else POD_KEEP * 0.5
    free_seats = 0
    for pod in st.pod_stack:
        free_seats += len(TILES[pod].seats)
    free: list[int] = []
    for tile in st.pos:
        info = TILES[tile]
        occupants = st.occ.get(tile, ())
        if info.kind == POD:
            free_seats += len(info.seats) - len(occupants)
            for seat_index, aid in enumerate(occupants):
                value = float(info.seats[seat_index] * (2 if _role(aid) == CHIEF else 1))
                points[_owner(aid)] += keep * value
        else:
            free.extend(occupants)
    threatened = _threatened(st) if st.aliens else set()
    if free:
        per = FREE_SEAT * min(1.0, free_seats / len(free))
        if st.final_turns is not None:
            per *= 0.5
        claimed = _pod_race(st, free)
        for aid in free:
            chief = _role(aid) == CHIEF
            value = per * (1.6 if chief else 1.0)
            seated = claimed.get(aid)
            if seated is not None:
                moves, seat_value, fills, contested = seated
                share = SEAT_REACH[moves - 1] if contested else UNCONTESTED_REACH[moves - 1]
                stays = 1.0 if fills else keep  # a Pod leaves as soon as it is full
                value = max(value, share * stays * seat_value * (2 if chief else 1))
            if aid in threatened:
                value *= 1.0 - THREAT
            points[_owner(aid)] += value
    _warehouse_reach(st, points)
    values = st.track_values()
    deaths = min(len(threatened), n) * THREAT
    index = st.covered() + len(st.track) + round(deaths)
    full = index >= len(values)
    alien = float(values[-1] + 4 if full else values[index])
    return points, alien, full


def _shares(points: list[float]) -> list[float]:
    """Each seat's soft share of the lead: a logistic of its margin over the best other seat."""
    shares = []
    for i, mine in enumerate(points):
        best_other = max(p for j, p in enumerate(points) if j != i)
        shares.append(_sigmoid((mine - best_other) / SHARE_SCALE))
    return shares


class ArgoPolicy(Policy):
    """Argo: weighted rollouts of two turns, scored by points, Pods and the Aliens' threat."""

    rollout_turns = 2
    rollout_steps = 40

    # ----- evaluation -------------------------------------------------------------------------

    def evaluate(self, game: Game) -> list[float]:
        """Value per seat in [0, 1]: survival against the Aliens times the share of the lead."""
        # A checked cast in compiled code (then native calls and attributes); in Python, ``cast``
        # only returns its argument (as in every method below).
        argo = cast(ArgoGame, game)
        result = argo.result()
        if result is not None:
            return self.outcome(game, result)
        st = argo.st
        points, alien, full = projections(st)
        shares = _shares(points)
        survive = _sigmoid((max(points) - alien) / ALIEN_SCALE)
        if full:
            survive *= 0.3
        return [SURVIVAL_WEIGHT * survive * s + (1 - SURVIVAL_WEIGHT) * s for s in shares]

    def outcome(self, game: Game, result: Result) -> list[float]:
        """A finished game: winners share 0.75, and everyone their share of the lead on points."""
        scores = [float(result.scores.get(p, 0)) for p in game.players]
        shares = _shares(scores)
        winners = set(result.winners)
        win = 1.0 / len(winners) if winners else 0.0
        return [
            SURVIVAL_WEIGHT * (win if p in winners else 0.0) + (1 - SURVIVAL_WEIGHT) * s
            for p, s in zip(game.players, shares, strict=True)
        ]

    # ----- the tree ---------------------------------------------------------------------------

    def candidates(self, game: Game, player: str, actions: list[Action], depth: int) -> list[Action]:
        """Undo and cancel never; below the root, no Control Room moves (hundreds of them)."""
        options = plain(actions)
        if depth > 0:
            kept = [a for a in options if not _is_control_room(a)]
            if kept:
                return kept
        return options

    def notations(self, game: Game, actions: list[Action]) -> list[str]:
        """``game.notation`` of each action, by the engine's notation function itself (one call
        per action from compiled code, instead of one through the game's method)."""
        argo = cast(ArgoGame, game)
        st = argo.st
        decider = viewer(st)
        return [notation(st, action, decider) for action in actions]

    def root_candidates(
        self, world: Game, player: str, actions: list[Action], rng: random.Random, *, short: bool = False
    ) -> list[Action]:
        """Every move but undo/cancel, except that of the Control Room's moves (often hundreds:
        each tile, place and turn) only the :data:`CONTROL_ROOM_KEEP` best after one ply are
        kept, so that the search's visits are not spread over hundreds of near-equal moves."""
        options = plain(actions)
        control = [a for a in options if _is_control_room(a)]
        if len(control) <= CONTROL_ROOM_KEEP:
            return options
        seat = world.players.index(player)
        scored = []
        seen: set[float] = set()
        for index, action in enumerate(control):
            copy = world.clone()
            copy.apply(player, action)
            value = round(self.evaluate(copy)[seat], SAME_VALUE_DIGITS)
            if value not in seen:  # the first of the moves the evaluation cannot tell apart
                seen.add(value)
                scored.append((-value, index))
        scored.sort()
        kept = {id(control[index]) for _, index in scored[:CONTROL_ROOM_KEEP]}
        return [a for a in options if not _is_control_room(a) or id(a) in kept]

    def need_after(self, world: Game, player: str) -> float:
        """What the rest of ``player``'s turn needs after this decision: the build and the actions
        still to come (a build's typical width :data:`BUILD_WIDTH`, an action's
        :data:`ACTION_WIDTH`) and a push's (:data:`PUSH_WIDTH`) at the end; a decision in
        someone else's turn (a Time Machine hold) as much as one action."""
        argo = cast(ArgoGame, world)
        st = argo.st
        if st.finished or st.players[st.active] != player:
            return need(ACTION_WIDTH)
        later = need(PUSH_WIDTH)
        actions_left = st.actions_allowed() - st.actions_used
        if st.phase in ("alien", "build"):
            later += actions_left * need(ACTION_WIDTH)
            if st.phase == "alien":
                later += need(BUILD_WIDTH)
        elif st.phase == "actions":  # this action (or a step inside it) counts only when done
            later += max(0, actions_left - 1) * need(ACTION_WIDTH)
        return later

    # ----- rollouts ---------------------------------------------------------------------------

    def rollout_start(self, game: Game) -> int:
        """The turn number when the rollout starts."""
        argo = cast(ArgoGame, game)
        return argo.st.turn

    def rollout_over(self, game: Game, start: int, steps: int) -> bool:
        """Two turns played, or the step cap reached."""
        argo = cast(ArgoGame, game)
        return steps >= self.rollout_steps or argo.st.turn - start >= self.rollout_turns

    def rollout(self, world: Game, rng: random.Random) -> list[float]:
        """:meth:`Policy.rollout` step for step, with the game known to be Argo's: compiled, its
        calls into the engine are native (``tests/ai/test_ai_choices.py`` checks both agree)."""
        argo = cast(ArgoGame, world)
        start = argo.st.turn
        steps = 0
        while not self.rollout_over(world, start, steps):
            step = _decider(argo)
            if step is None:
                break
            actor, actions = step
            if actor == SYSTEM:
                if not timeout(world):
                    break
                continue
            argo.apply(actor, self.rollout_action(world, actor, actions, rng))
            steps += 1
        return self.evaluate(world)

    def rollout_action(self, game: Game, player: str, actions: list[Action], rng: random.Random) -> Action:
        """A move drawn by the weights of :func:`weights`."""
        options = plain(actions)
        if len(options) == 1:
            return options[0]
        argo = cast(ArgoGame, game)
        st = argo.st
        seat = st.players.index(player)
        w = weights(st, seat, options)
        total: float = sum(w)
        pick = rng.random() * total
        for index in range(len(options)):  # not zip(): a generic call in compiled code
            pick -= w[index]
            if pick <= 0:
                return options[index]
        return options[-1]

    def greedy_action(self, game: Game, player: str, actions: list[Action], rng: random.Random) -> Action:
        """The heaviest move by :func:`weights` (ties: the first)."""
        options = plain(actions)
        st = cast(ArgoGame, game).st
        w = weights(st, st.players.index(player), options)
        return options[max(range(len(options)), key=w.__getitem__)]


def _decider(game: ArgoGame) -> tuple[str, list[Action]] | None:
    """``bot.ai.policy.decider`` for an Argo game (native calls when compiled)."""
    prompt = game.prompt()
    if prompt is None:
        return None
    if prompt.player is not None:
        actions = game.legal_actions(prompt.player)
        if actions:
            return prompt.player, actions
    for other in prompt.others:
        if other != prompt.player:
            actions = game.legal_actions(other)
            if actions:
                return other, actions
    return SYSTEM, [dict(TIMEOUT)]


def _is_control_room(action: Action) -> bool:
    kind: str = action["type"]
    if kind == "timemachine":
        action = action["do"]
        kind = action["type"]
    return kind == "activate" and TILES[action["module"]].kind == CONTROL_ROOM


def weights(st: State, seat: int, actions: list[Action]) -> list[float]:
    """How much a sensible player likes each action (higher is likelier in a rollout)."""
    # What several actions share is worked out at the first action that needs it.
    slots_left = -1
    aliens: set[int] | None = None
    near_alien: set[int] | None = None
    reach: PodReach | None = None
    control = -1
    pods_on_station = -1
    out: list[float] = []
    for action in actions:
        kind: str = action["type"]
        if kind == "timemachine":
            out.append(0.3 / len(actions))
        elif kind == "pass":
            out.append(1.0)
        elif kind == "move" and "alien" in action:
            if slots_left < 0:
                slots_left = len(st.track_values()) - st.covered() - len(st.track)
            out.append(_alien_move_weight(st, seat, action["to"], slots_left))
        elif kind == "kill":
            aid: int = action["astronaut"]
            if _owner(aid) == seat:
                out.append(0.05)
            else:
                out.append(2.0 if _role(aid) == CHIEF else 1.0)
        elif kind == "move" and "astronaut" in action:
            if reach is None or aliens is None or near_alien is None:
                reach = _pod_reach(st)
                aliens = set(st.aliens)
                near_alien = {t for a in aliens for t in station.linked(st, a)}
            out.append(_astronaut_move_weight(st, action, aliens, near_alien, reach))
        elif kind == "activate":
            if control < 0:
                control = sum(1 for a in actions if _is_control_room_activation(a))
            out.append(_activation_weight(st, seat, action, control))
        elif kind == "build":
            if pods_on_station < 0:
                pods_on_station = 1 if any(TILES[t].kind == POD for t in st.pos) else 0
            out.append(3.0 if TILES[action["tile"]].kind == POD and not pods_on_station else 1.0)
        else:
            out.append(1.0)  # pushes, teleports, Pilot choices after a push...
    return out


def _is_control_room_activation(action: Action) -> bool:
    return action["type"] == "activate" and TILES[action["module"]].kind == CONTROL_ROOM


def _alien_move_weight(st: State, seat: int, dest: int, slots_left: int) -> float:
    victims = [a for a in st.occ.get(dest, ()) if _role(a) != ROBOT]
    weight = 1.0
    if victims:
        grunts = sum(1 for a in victims if _role(a) == GRUNT)
        if grunts >= 2:
            weight = 1.5  # the Grunts kill the Alien: a point, nobody dies
        else:
            pool = [a for a in victims if _role(a) != GRUNT] or victims
            if all(_owner(a) == seat for a in pool):
                weight = 0.03
            elif slots_left <= 2:
                weight = 0.05
            elif slots_left <= 4:
                weight = 0.5
            else:
                weight = 1.5
    for pod in station.pods_facing(st, dest):
        people = st.occ.get(pod, ())
        if people:
            mine = sum(1 for a in people if _owner(a) == seat)
            weight *= 2.0 if mine * 2 >= len(people) else 0.5
    return weight


def _astronaut_move_weight(
    st: State,
    action: Action,
    aliens: set[int],
    near_alien: set[int],
    reach: PodReach,
) -> float:
    aid: int = action["astronaut"]
    path: list[int] = action["path"]
    dest = path[-1]
    role = _role(aid)
    info = TILES[dest]
    if info.kind == POD:
        choice = action.get("pilot")
        if choice == "relocate":
            return 0.2
        return 6.0 if choice is None or choice == "stay" else 2.0
    if dest in aliens and role != ROBOT:
        return 4.0 if role == GRUNT else 0.02
    weight = 1.0
    here = st.loc[aid]
    to_pod = reach.steps[dest]
    from_pod = reach.steps[here] if here >= 0 else -1
    if to_pod >= 0 and (from_pod < 0 or to_pod < from_pod):
        weight *= 2.5
    elif here == WAKING_ROOM_ID:
        weight *= 1.5
    if info.kind == CORE_ROOM:
        weight *= 0.3
    if dest in near_alien and role != ROBOT:
        weight *= 0.4
    return weight


def _activation_weight(st: State, seat: int, action: Action, control: int) -> float:
    kind = TILES[action["module"]].kind
    if kind == WAREHOUSE:
        return 6.0
    if kind == LASER:
        return 3.0
    if kind == SECURITY_CENTER:
        people = st.occ.get(action["pod"], ())
        mine = sum(1 for a in people if _owner(a) == seat)
        return 6.0 if mine * 2 >= len(people) else 0.2
    if kind == INFIRMARY:
        return 2.0 if _owner(action["astronaut"]) == seat else 0.3
    if kind == LAB:
        return 0.3
    if kind == JUMP_ROOM:
        return 0.6
    if kind == CONTROL_ROOM:
        return 0.5 / max(control, 1)
    return 0.5


__all__ = ["ArgoPolicy", "projections", "weights"]


register("Argo")(ArgoPolicy)  # not a decorator: mypyc cannot compile a decorated subclass
