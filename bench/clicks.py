"""Benchmark: clicks per Argo turn, per Argoat turn and per Argoat trade, old picker against new.

Run ``python bench/clicks.py [--games N] [--seed S] [--players P] [--baseline C]``.

Random games (seeded; the policy of the SimCord driver: a random legal action, never ``undo``
or ``cancel`` when something else is legal) are played once; at every decision both pickers
are asked how many clicks the chosen action takes, so both count the very same games:

* **new** — this branch: steps merged while they fit one select, a decision with a single choice
  taken by the host (0 clicks), Argoat Item holders move from the public turn message (only
  ``use`` opens the private picker), the private picker going on while the next decision is
  private as a whole (the parts of a trade).
* **old** — the picker of commit ``C`` (default 0500a6f, before issue 13), read with ``git
  show``: one step per token (single ways skipped), every decision clicked, "Show my choices"
  for every decision of an Item holder and every trade part.

The count is the one :class:`tests.driver.Driver` makes through SimCord (one per click or
selection, "Next ▶" included); ``tests/test_clicks.py`` checks that they agree on a real game.
A turn counts every click of its players (a trade's answer included); a trade counts from its
start (``trade Blue``) to the partner's answer. Printed: median and p95 per kind, side by side.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.engine.core import SYSTEM, TIMEOUT, Action, Game  # noqa: E402
from bot.tables import only_choice  # noqa: E402
from cogs.picker import PAGE_SIZE, choice_tree, clicks_to, is_secret, split_choices  # noqa: E402

STEP_CAP = 6000
PLAYERS = ("1001", "1002", "1003", "1004", "1005")


def old_picker(commit: str) -> types.ModuleType:
    """The ``cogs/picker.py`` of ``commit`` as a module."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{commit}:cogs/picker.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType("old_picker")
    sys.modules["old_picker"] = module  # dataclasses look their module up
    exec(compile(source, f"{commit}:cogs/picker.py", "exec"), module.__dict__)
    return module


def old_clicks(module: types.ModuleType, game: Game, player: str, action: Action) -> int:
    """Clicks the old picker needs for ``action``: "Show my choices" on a private prompt, then
    one per step (plus "Next ▶" on long selects)."""
    tree = module.ActionTree(game, player)
    prompt = game.prompt()
    opens = 1 if prompt is not None and prompt.private else 0

    def search(path: tuple[int, ...]) -> int | None:
        reached = tree.walk(path)
        if not isinstance(reached, module.Step):
            return 0 if reached == action else None
        for index in range(len(reached.options)):
            below = search((*path, index))
            if below is not None:
                pages = index // PAGE_SIZE if len(reached.options) > PAGE_SIZE else 0
                return 1 + pages + below
        return None

    found = search(())
    assert found is not None, game.notation(action)
    return opens + found


def driver_policy(rng: random.Random) -> Callable[[Game, str, list[Action]], Action]:
    """The SimCord driver's random policy (tests/driver.py ``random_policy``)."""

    def choose(game: Game, player: str, actions: list[Action]) -> Action:
        preferred = [a for a in actions if game.notation(a).split()[0] not in ("cancel", "undo")]
        return rng.choice(preferred or actions)

    return choose


@dataclass
class Counts:
    """Clicks per turn and per trade of one picker."""

    turns: list[int] = field(default_factory=list)
    trades: list[tuple[int, int]] = field(default_factory=list)  # (parts, clicks)


@dataclass
class Tally:
    """Counting for both pickers while a game is played."""

    old: Counts = field(default_factory=Counts)
    new: Counts = field(default_factory=Counts)
    turn: list[int] = field(default_factory=lambda: [0, 0])
    trade: list[int] | None = None
    parts: int = 0
    picker_open: str | None = None

    def add(self, old: int, new: int) -> None:
        self.turn[0] += old
        self.turn[1] += new
        if self.trade is not None:
            self.trade[0] += old
            self.trade[1] += new

    def end_turn(self) -> None:
        self.old.turns.append(self.turn[0])
        self.new.turns.append(self.turn[1])
        self.turn = [0, 0]


def new_clicks(game: Game, player: str, action: Action, tally: Tally) -> int:
    """Clicks the new picker needs for ``action`` (see the module docstring)."""
    prompt = game.prompt()
    notation = game.notation(action)
    private = bool(prompt is not None and prompt.private)
    if split_choices(prompt, player):
        private = is_secret(prompt, notation)
    opens = 1 if private and tally.picker_open != player else 0
    tree = choice_tree(game, player, private=private)
    assert tree is not None
    return opens + clicks_to(tree, action)


def play(game: Game, seed: int, module: types.ModuleType, tally: Tally) -> bool:
    """Play one random game, counting; True if it finished."""
    policy = driver_policy(random.Random(seed))
    marker = game.turn_marker()
    for _ in range(STEP_CAP):
        if game.result() is not None:
            break
        if game.turn_marker() != marker:
            tally.end_turn()
            marker = game.turn_marker()
        prompt = game.prompt()
        player = prompt.player
        if player is None:  # a timed wait: the host's timeout answers it
            game.apply(SYSTEM, dict(TIMEOUT))
            tally.picker_open = None
            continue
        single = only_choice(game, player)
        action = single if single is not None else policy(game, player, game.legal_actions(player))
        kind = action["type"]
        if kind == "trade" and tally.trade is None:
            tally.trade, tally.parts = [0, 0], 0
        old = old_clicks(module, game, player, action)
        new = 0 if single is not None else new_clicks(game, player, action, tally)
        tally.add(old, new)
        private = prompt.private and not (
            split_choices(prompt, player) and not is_secret(prompt, game.notation(action))
        )
        game.apply(player, action)
        following = game.prompt()
        still = (
            following is not None
            and following.player == player
            and following.private
            and not split_choices(following, player)
        )
        tally.picker_open = player if single is None and private and still else None
        if kind == "trade_part":
            tally.parts += 1
        elif kind in ("accept", "decline", "withdraw") and tally.trade is not None:
            tally.old.trades.append((tally.parts, tally.trade[0]))
            tally.new.trades.append((tally.parts, tally.trade[1]))
            tally.trade = None
        elif kind == "cancel":
            tally.trade = None
    finished = game.result() is not None
    if finished:
        tally.end_turn()
    return finished


def percentile(values: list[int], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def measure(name: str, games: int, seed: int, players: int, baseline: str) -> dict[str, Tally]:
    """Play ``games`` games of ``name`` and count clicks with both pickers."""
    from bot.engine.argo import ArgoGame
    from bot.engine.argoat import ArgoatGame

    module = old_picker(baseline)
    tally = Tally()
    finished = 0
    for number in range(seed, seed + games):
        cls = ArgoGame if name == "Argo" else ArgoatGame
        options: dict[str, Any] = {} if name == "Argo" else {"difficulty": "journeyman"}
        game = cls.new(PLAYERS[:players], number, options)
        finished += play(game, number, module, tally)
    print(f"{name}: {games} games (seeds {seed}–{seed + games - 1}, {players} players), {finished} finished")
    return {name: tally}


def line(label: str, old: list[int], new: list[int]) -> str:
    if not old:
        return f"  {label:<28} (none)"
    return (
        f"  {label:<28} n={len(old):<5} old median {statistics.median(old):>5.1f}  p95 {percentile(old, 0.95):>4.0f}"
        f"   new median {statistics.median(new):>5.1f}  p95 {percentile(new, 0.95):>4.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--baseline", default="0500a6f")
    args = parser.parse_args()
    for name in ("Argo", "Argoat"):
        tally = measure(name, args.games, args.seed, args.players, args.baseline)[name]
        print(line(f"clicks per {name} turn", tally.old.turns, tally.new.turns))
        if name == "Argoat":
            two_old = [c for p, c in tally.old.trades if p == 2]
            two_new = [c for p, c in tally.new.trades if p == 2]
            print(line("clicks per trade (2 parts)", two_old, two_new))
            print(
                line(
                    "clicks per trade (any)",
                    [c for _, c in tally.old.trades],
                    [c for _, c in tally.new.trades],
                )
            )


if __name__ == "__main__":
    main()
