"""Benchmark: clicks per Argo turn, per Argoat turn and per Argoat trade, old picker against new.

Run ``python bench/clicks.py [--games N] [--seed S] [--players P] [--baseline C]``.

Random games (seeded; the policy of the SimCord driver: a random legal action, never ``undo``
or ``cancel`` when something else is legal) are played once; at every decision both pickers
are asked how many clicks the chosen action takes, so both count the very same games:

* **new** — this branch: steps merged while they fit one select, a decision with a single choice
  taken by the host (0 clicks), Argoat Item holders move from the public turn message (only
  ``use`` opens the private picker), a private picker opened by the click (or going on) when
  the next decision is private as a whole (the parts of a trade after ``trade Blue``).
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
BASELINE = "0500a6f"
"""The commit before issue 13's picker."""
OPTIONS: dict[str, dict[str, Any]] = {"Argo": {}, "Argoat": {"difficulty": "journeyman"}}
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


def old_clicks(
    module: types.ModuleType, game: Game, player: str, action: Action, *, out_of_turn: bool = False
) -> int:
    """Clicks the old picker needs for ``action``: "Show my choices" on a private prompt, then
    one per step (plus "Next ▶" on long selects). ``out_of_turn``: the opening is counted by
    the caller."""
    tree = module.ActionTree(game, player)
    prompt = game.prompt()
    opens = 1 if prompt is not None and prompt.private and not out_of_turn else 0

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


PASS: Action = {"type": "pass"}


def play(
    game: Game, seed: int, module: types.ModuleType | None, tally: Tally, max_decisions: int | None = None
) -> bool:
    """Play one random game, counting; True if it finished. ``max_decisions``: stop after that
    many decisions a player clicks (as the driver's steps)."""
    policy = driver_policy(random.Random(seed))
    marker = game.turn_marker()
    decisions = 0
    for _ in range(STEP_CAP):
        if game.result() is not None or (max_decisions is not None and decisions >= max_decisions):
            break
        if game.turn_marker() != marker:
            tally.end_turn()
            marker = game.turn_marker()
        prompt = game.prompt()
        player = prompt.player
        if player is None:  # a timed wait: the first awaited player passes (as the driver does)
            waiting = [seat for seat in prompt.others if PASS in game.legal_actions(seat)]
            if not waiting:
                game.apply(SYSTEM, dict(TIMEOUT))
                continue
            seat = waiting[0]
            tree = choice_tree(game, seat, private=True)
            assert tree is not None
            old = 1 + old_clicks(module, game, seat, PASS, out_of_turn=True) if module else 0
            tally.add(old, 1 + clicks_to(tree, PASS))
            game.apply(seat, dict(PASS))
            tally.picker_open = None
            decisions += 1
            continue
        single = only_choice(game, player)
        action = single if single is not None else policy(game, player, game.legal_actions(player))
        decisions += single is None
        kind = action["type"]
        if kind == "trade" and tally.trade is None:
            tally.trade, tally.parts = [0, 0], 0
        old = old_clicks(module, game, player, action) if module else 0
        new = 0 if single is not None else new_clicks(game, player, action, tally)
        tally.add(old, new)
        game.apply(player, action)
        following = game.prompt()
        still = (
            following is not None
            and following.player == player
            and following.private
            and not split_choices(following, player)
        )
        tally.picker_open = player if single is None and still else None
        if kind == "trade_part":
            tally.parts += 1
        elif kind in ("accept", "decline", "withdraw") and tally.trade is not None:
            tally.old.trades.append((tally.parts, tally.trade[0]))
            tally.new.trades.append((tally.parts, tally.trade[1]))
            tally.trade = None
        elif kind == "cancel":
            tally.trade = None
    finished = game.result() is not None
    tally.end_turn()
    return finished


def percentile(values: list[int], q: float) -> float:
    """The q-quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def count(
    name: str,
    seeds: range,
    players: tuple[str, ...],
    options: dict[str, Any] | None = None,
    *,
    baseline: str | None = BASELINE,
    max_decisions: int | None = None,
) -> tuple[Tally, int]:
    """Play one random game of ``name`` per seed, counting clicks with both pickers (the old
    one only with a ``baseline`` commit; it needs the git history); the tally and how many games
    finished."""
    from bot.engine.argo import ArgoGame
    from bot.engine.argoat import ArgoatGame

    module = old_picker(baseline) if baseline else None
    cls = ArgoGame if name == "Argo" else ArgoatGame
    tally = Tally()
    finished = 0
    for number in seeds:
        game = cls.new(list(players), number, dict(options or {}))
        finished += play(game, number, module, tally, max_decisions)
    return tally, finished


def line(label: str, old: list[int], new: list[int]) -> str:
    """One printed row: median and p95 of both pickers."""
    if not old:
        return f"  {label:<28} (none)"
    before = f"old median {statistics.median(old):>5.1f}  p95 {percentile(old, 0.95):>4.0f}"
    after = f"new median {statistics.median(new):>5.1f}  p95 {percentile(new, 0.95):>4.0f}"
    return f"  {label:<28} n={len(old):<6} {before}   {after}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--baseline", default=BASELINE)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    for name in ("Argo", "Argoat"):
        tally, finished = count(name, seeds, PLAYERS[: args.players], OPTIONS[name], baseline=args.baseline)
        print(
            f"{name}: {args.games} games (seeds {seeds.start}–{seeds.stop - 1}, {args.players} players), "
            f"{finished} finished; options {OPTIONS[name] or 'default'}"
        )
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
