"""Single-observer Information Set Monte Carlo Tree Search over the engine contract.

Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2).
One tree is grown for the searching player's information set. Every iteration:

1. *determinise*: ``game.determinize(player, rng)`` gives a copy in which everything the player
   cannot see is redrawn; the iteration plays on that copy only;
2. *select*: from the root, while every legal move of the copy already has a child, pick the child
   maximising the UCB1 value of the player to move, with the child's *availability* count (how
   often it was legal when its parent was visited) in place of the parent's visit count;
3. *expand* one untried legal move;
4. *roll out* with the game's policy for a bounded number of decisions, then score the position
   with the policy's evaluation (a value in [0, 1] per seat);
5. *back up* the score vector: each node keeps a sum per seat, and each player to move maximises
   their own (max^n for more than two players).

Edges are keyed by (actor, action notation), unique among the legal actions of a moment, so the
same move in different determinisations shares one edge. Nothing here knows any game's rules.
"""

from __future__ import annotations

import _random
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from bot.ai.policy import Policy, decider, timeout
from bot.engine.core import SYSTEM, Action, Game

WAIT: Final = "(wait)"
"""The root's pseudo-move for an optional out-of-turn chance: do nothing, let the game go on."""

Key = tuple[str, str]

DECIDED_CHECK: Final = 4
"""How often (in iterations) :meth:`ISMCTS.run` asks whether the search is decided."""
EARLY_FACTOR: Final = 0.5
"""Against a deadline, the search counts as decided when the runner-up could not catch up even
with this share of the iterations left (UCB gives it far fewer than all of them): Baier &
Winands' early stop with a parameter (2016)."""


class Node:
    """One edge of the tree with the node it leads to: visits, availability, score sums per seat."""

    __slots__ = ("avail", "children", "sums", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.avail = 0.0
        """Times this edge was legal when its parent was visited (a float: it only feeds a log)."""
        self.sums = [0.0] * seats


@dataclass
class SearchResult:
    """What a search found: the chosen action (None: wait), iterations run, root statistics."""

    action: Action | None
    iterations: int
    visits: dict[str, int]
    """Root visits per notation (``(wait)`` for waiting)."""
    values: dict[str, float]
    """Root mean score of the searching player per notation."""
    decided: bool = False
    """True when the search stopped early because its choice could no longer change."""


class ISMCTS:
    """One search for ``player`` in ``game``; :meth:`run` grows the tree, then picks the most
    visited root move among ``root_actions`` (plus waiting when ``allow_wait``)."""

    def __init__(
        self,
        game: Game,
        player: str,
        policy: Policy,
        rng: random.Random,
        root_actions: list[Action],
        *,
        allow_wait: bool = False,
        exploration: float = 0.7,
    ) -> None:
        self.game = game
        self.player = player
        self.policy = policy
        self.rng = rng
        self.seats = {p: i for i, p in enumerate(game.players)}
        self.n = len(game.players)
        self.root = Node(self.n)
        self.root_keys: dict[Key, Action | None] = {(player, game.notation(a)): a for a in root_actions}
        if allow_wait:
            self.root_keys[(player, WAIT)] = None
        self.root_key_list: list[Key] = list(self.root_keys)
        """The root's moves in every world: the player's own legal actions depend only on what
        they see, so they are the same in every determinisation (chosen once, not per world)."""
        self.root_moves: list[Action | None] = list(self.root_keys.values())
        self.allow_wait = allow_wait
        self.c = exploration
        self.iterations = 0
        self.stopped_early = False
        """Whether :meth:`run` stopped because the search was decided (see :meth:`decided`)."""
        self.draws = Draws(_random.Random(0))
        """The worlds' random source, seeded anew for each world (one generator, not one per
        world: its 2.5 KB state is not allocated and cleared every iteration)."""

    def run(
        self, iterations: int | None = None, deadline: float | None = None, *, stop_when_decided: bool = True
    ) -> SearchResult:
        """Iterate ``iterations`` times, or until ``time.perf_counter()`` passes ``deadline``
        (wall-clock seconds: the answer comes on time however busy the machine is), or both,
        whichever comes first. Either way it stops as soon as the search is decided: when the
        most visited root move leads the next by more visits than the iterations left could give
        it (with a deadline, as many as the rate so far fits in the time left). With
        ``iterations`` that never changes the answer, only saves the iterations that could not.
        ``stop_when_decided=False`` runs them all (tests compare the two)."""
        if iterations is None and deadline is None:
            raise ValueError("give iterations or a deadline")
        clock: Callable[[], float] = time.perf_counter
        started = clock()
        check = DECIDED_CHECK
        while True:
            done = self.iterations
            if iterations is not None and done >= iterations:
                break
            now = 0.0
            if deadline is not None and done > 0:
                now = clock()
                if now >= deadline:
                    break
            if stop_when_decided and done >= check:
                check = done + DECIDED_CHECK
                left = math.inf if iterations is None else float(iterations - done)
                if deadline is not None:
                    left = min(left, (deadline - now) * done / max(now - started, 1e-9))
                if self.decided(left * (1.0 if deadline is None else EARLY_FACTOR)):
                    self.stopped_early = True
                    break
            self._iterate()
            self.iterations += 1
        return self._result()

    def decided(self, left: float) -> bool:
        """True when no root move can overtake the most visited one in ``left`` more iterations
        (its lead in visits is larger than that)."""
        first = second = 0
        children = self.root.children
        for key in self.root_key_list:
            child = children.get(key)
            visits = 0 if child is None else child.visits
            if visits > first:
                first, second = visits, first
            elif visits > second:
                second = visits
        return first - second > left

    # ----- one iteration ----------------------------------------------------------------------

    def _iterate(self) -> None:
        # The C generator itself, seeded as ``random.Random(seed)`` is, without random.py's
        # Python-level __init__ and seed (see tests/ai/test_ai_choices.py).
        draws = self.draws
        draws.rng.seed(self.rng.getrandbits(64))
        world = self.game.determinize(self.player, draws)
        node = self.root
        path = [node]
        depth = 0
        keys: list[Key]
        moves: list[Action | None]
        while True:
            if depth == 0:
                actor = self.player
                keys = self.root_key_list
                moves = self.root_moves
            else:
                step = decider(world)
                if step is None:
                    break
                actor, actions = step
                if actor == SYSTEM:
                    if not timeout(world):
                        break
                    continue
                options = self.policy.candidates(world, actor, actions, depth)
                texts = self.policy.notations(world, options)
                keys = []
                moves = []
                for index in range(len(options)):
                    keys.append((actor, texts[index]))
                    moves.append(options[index])
            if not keys:
                break
            children = node.children
            untried: list[int] = []
            for index, key in enumerate(keys):
                child = children.get(key)
                if child is None:
                    untried.append(index)
                else:
                    child.avail += 1.0
            if untried:
                index = untried[below(self.rng, len(untried))]
                child = children[keys[index]] = Node(self.n)
                child.avail = 1.0
                self._play(world, actor, moves[index])
                path.append(child)
                break
            index = self._select(children, keys, self.seats.get(actor, 0))
            node = children[keys[index]]
            self._play(world, actor, moves[index])
            path.append(node)
            depth += 1
        values = self.policy.rollout(world, self.rng)
        for visited in path:
            visited.visits += 1
            sums = visited.sums
            for i, v in enumerate(values):
                sums[i] += v

    @staticmethod
    def _play(world: Game, actor: str, action: Action | None) -> None:
        if action is not None:  # None is waiting: the game goes on without this player
            world.apply(actor, action)

    def _select(self, children: dict[Key, Node], keys: list[Key], seat: int) -> int:
        """The index in ``keys`` of the child with the best UCB1 value for ``seat`` (first on ties)."""
        best_index = -1
        best = -math.inf
        c = self.c
        for index, key in enumerate(keys):
            child = children[key]
            visits = float(child.visits)
            score = child.sums[seat] / visits + c * math.sqrt(math.log(child.avail) / visits)
            if score > best:
                best, best_index = score, index
        assert best_index >= 0
        return best_index

    # ----- the answer -------------------------------------------------------------------------

    def _result(self) -> SearchResult:
        seat = self.seats[self.player]
        best_key: Key | None = None
        best = (-1, -math.inf)
        visits: dict[str, int] = {}
        values: dict[str, float] = {}
        for key in self.root_keys:  # legal order: ties go to the first
            child = self.root.children.get(key)
            if child is None or child.visits == 0:
                continue
            mean = child.sums[seat] / child.visits
            visits[key[1]] = child.visits
            values[key[1]] = mean
            if (child.visits, mean) > best:
                best, best_key = (child.visits, mean), key
        if best_key is None:  # no iteration reached a root move (cannot happen with >= 1 iteration)
            best_key = next(iter(self.root_keys))
        return SearchResult(self.root_keys[best_key], self.iterations, visits, values, self.stopped_early)


def below(rng: _random.Random, n: int) -> int:
    """The number ``rng.randrange(n)`` would give (``n`` >= 1), drawn the same way (rejection
    sampling on ``getrandbits``) without the pure-Python layers of ``random.py``."""
    bits = n.bit_length()
    drawn: int = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


class Draws:
    """A ``RandomSource`` for ``determinize``: ``randrange`` and ``shuffle`` give exactly the numbers
    and orders of the same methods of ``rng``, in compiled code when the search is compiled."""

    def __init__(self, rng: _random.Random) -> None:
        self.rng = rng

    def randrange(self, n: int, /) -> int:
        """``rng.randrange(n)``."""
        if n <= 0:
            raise ValueError(f"empty range for randrange({n})")
        return below(self.rng, n)

    def shuffle(self, items: list[Any], /) -> None:
        """``rng.shuffle(items)``: Fisher-Yates from the end, as ``random.Random`` does it."""
        rng = self.rng
        for i in range(len(items) - 1, 0, -1):
            j = below(rng, i + 1)
            items[i], items[j] = items[j], items[i]
