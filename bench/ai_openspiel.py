"""Benchmark: OpenSpiel's Python ISMCTS against bot.ai's ISMCTS on the same Argo positions.

Not part of the project's dependencies: run it in a throwaway virtualenv,

    python3 -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open_spiel
    /tmp/osvenv/bin/python bench/ai_openspiel.py [opening-actions ...]

Argo is wrapped as a pyspiel Python game (actions numbered by their notation order, the
information state string is the player's view as JSON, cloning is ``ArgoGame.clone``), and both
searches use the same engine, the same ``determinize`` (via ``ISMCTSBot.set_resampler``), and
the same two-turn rollout policy and evaluation of ``bot/ai/argo.py``. Only the framework
differs. Prints CPU milliseconds per iteration of each, for a few positions of one seeded game.
"""

from __future__ import annotations

import copy
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from bot.ai.argo import ArgoPolicy
from bot.ai.policy import plain
from bot.ai.search import ISMCTS, decider
from bot.engine.argo import ArgoGame
from bot.engine.core import SYSTEM, TIMEOUT

POLICY = ArgoPolicy()
SIMULATIONS = 200
GAME_TYPE = pyspiel.GameType(
    short_name="python_argo_bench",
    long_name="Argo (bench wrapper)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
)
GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=4096,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=0.0,
    max_utility=1.0,
    utility_sum=None,
    max_game_length=5000,
)
START: list[ArgoGame] = []


class WrappedGame(pyspiel.Game):
    """Argo as a pyspiel game starting from ``START[0]``."""

    def __init__(self, params: Any = None) -> None:
        super().__init__(GAME_TYPE, GAME_INFO, params or {})

    def new_initial_state(self) -> WrappedState:
        return WrappedState(self, START[0].clone())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer()


class Observer:
    """The information state string: everything the player sees (their view, as JSON)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: WrappedState, player: int) -> None:
        pass

    def string_from(self, state: WrappedState, player: int) -> str:
        return json.dumps(state.engine.view(state.engine.players[player]), sort_keys=True)


class WrappedState(pyspiel.State):
    """One Argo game; system timeouts are applied at once (pyspiel has one player to move)."""

    def __init__(self, game: pyspiel.Game, engine: ArgoGame) -> None:
        super().__init__(game)
        self.engine = engine
        self._settle()

    def _settle(self) -> None:
        while self.engine.result() is None:
            step = decider(self.engine)
            if step is None or step[0] != SYSTEM:
                return
            self.engine.apply(SYSTEM, dict(TIMEOUT))

    def _options(self) -> tuple[str, list[dict[str, Any]]]:
        step = decider(self.engine)
        assert step is not None
        actor, actions = step
        return actor, sorted(plain(actions), key=self.engine.notation)

    def current_player(self) -> int:
        if self.engine.result() is not None:
            return pyspiel.PlayerId.TERMINAL
        return self.engine.players.index(self._options()[0])

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self._options()[1])))

    def _apply_action(self, action: int) -> None:
        actor, options = self._options()
        self.engine.apply(actor, options[action])
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.notation(self._options()[1][action])

    def is_terminal(self) -> bool:
        return self.engine.result() is not None

    def returns(self) -> list[float]:
        return POLICY.evaluate(self.engine)

    def __deepcopy__(self, memo: Any) -> WrappedState:
        return WrappedState(self.get_game(), self.engine.clone())

    def __str__(self) -> str:
        return "argo"


class Evaluator:
    """bot.ai.argo's rollout (two turns, weighted moves) and evaluation."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: WrappedState) -> np.ndarray:
        world = state.engine.clone()
        start = POLICY.rollout_start(world)
        steps = 0
        while not POLICY.rollout_over(world, start, steps):
            step = decider(world)
            if step is None:
                break
            actor, actions = step
            if actor == SYSTEM:
                world.apply(SYSTEM, dict(TIMEOUT))
                continue
            world.apply(actor, POLICY.rollout_action(world, actor, actions, self.rng))
            steps += 1
        return np.array(POLICY.evaluate(world))

    def prior(self, state: WrappedState) -> list[tuple[int, float]]:
        n = len(state.legal_actions())
        return [(a, 1.0 / n) for a in range(n)]


def measure(opening: int) -> None:
    """Both searches on the position after ``opening`` random actions of seed 5."""
    game = ArgoGame.new(["a", "b"], 5, {})
    rng = random.Random(0)
    for _ in range(opening):
        player = game.prompt().player
        game.apply(player, rng.choice(plain(game.legal_actions(player))))
    START[:] = [game]
    player = game.prompt().player
    options = plain(game.legal_actions(player))
    print(f"after {opening} actions: {game.prompt().text} ({len(options)} options)")

    wrapped = pyspiel.load_game("python_argo_bench")
    state = wrapped.new_initial_state()
    bot = ismcts.ISMCTSBot(
        wrapped,
        Evaluator(random.Random(1)),
        uct_c=0.7,
        max_simulations=SIMULATIONS,
        random_state=np.random.RandomState(1),
        allow_inconsistent_action_sets=True,
    )
    draws = random.Random(2)
    bot.set_resampler(
        lambda st, p: WrappedState(
            wrapped, st.engine.determinize(st.engine.players[p], random.Random(draws.getrandbits(64)))
        )
    )
    started = time.process_time()
    bot.step(state)
    theirs = (time.process_time() - started) / SIMULATIONS
    started = time.process_time()
    for _ in range(100):
        Observer().string_from(state, 0)
    key = (time.process_time() - started) / 100
    started = time.process_time()
    for _ in range(100):
        copy.deepcopy(state)
    clone = (time.process_time() - started) / 100

    search = ISMCTS(game, player, POLICY, random.Random(1), options)
    started = time.process_time()
    search.run(iterations=SIMULATIONS)
    ours = (time.process_time() - started) / SIMULATIONS
    print(
        f"  OpenSpiel ISMCTSBot {theirs * 1000:5.1f} ms per iteration "
        f"(information state string {key * 1000:.2f} ms, state clone {clone * 1000:.2f} ms)"
    )
    print(f"  bot.ai ISMCTS       {ours * 1000:5.1f} ms per iteration: {theirs / ours:.1f}x faster")


def main() -> None:
    """Measure a few positions (opening lengths from the command line)."""
    pyspiel.register_game(GAME_TYPE, WrappedGame)
    openings = [int(a) for a in sys.argv[1:]] or [9, 16, 23]
    for opening in openings:
        measure(opening)


if __name__ == "__main__":
    main()
