"""Positions for the AI tests: seeded random play through the engine contract, and a toy game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.engine.core import SYSTEM, TIMEOUT, Action, Event, Game, IllegalAction, Prompt, Result


def step_randomly(game: Game, rng: random.Random) -> bool:
    """One random legal action by a random decider (timeouts when nobody can act); False at the end."""
    prompt = game.prompt()
    if prompt is None:
        return False
    deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
    if not deciders:
        game.apply(SYSTEM, dict(TIMEOUT))
        return True
    player = deciders[0] if rng.random() < 0.9 else rng.choice(deciders)
    legal = game.legal_actions(player)
    plain = [a for a in legal if a["type"] not in ("undo", "cancel")]
    game.apply(player, rng.choice(plain or legal))
    return True


def positions(cls: type[Game], players: int, seed: int, count: int, every: int, **options: Any) -> list[Game]:
    """``count`` positions of one seeded random game, ``every`` actions apart (fewer if it ends)."""
    game = cls.new([f"p{i}" for i in range(players)], seed, options)
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        for _ in range(every):
            if not step_randomly(game, rng):
                return found
        if game.result() is None:
            found.append(game.clone())
    return found


class HiddenNim(Game):
    """A toy game with no policy of its own: take 1–3 of the pile, taking the last one wins.

    Each player holds a secret card that changes nothing; ``determinize`` redraws the others'."""

    name = "HiddenNim"
    min_players = 2
    max_players = 3

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    @classmethod
    def new(cls, players: Sequence[str], seed: int, options: Mapping[str, Any]) -> Self:
        rng = random.Random(seed)
        return cls(
            {
                "players": list(players),
                "pile": int(options.get("pile", 10)),
                "current": 0,
                "cards": {p: rng.randrange(100) for p in players},
                "winner": None,
            }
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls({**data, "players": list(data["players"]), "cards": dict(data["cards"])})

    def to_json(self) -> dict[str, Any]:
        return {**self.data, "players": list(self.data["players"]), "cards": dict(self.data["cards"])}

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.data["players"])

    def prompt(self) -> Prompt | None:
        if self.data["winner"] is not None:
            return None
        return Prompt(self.players[self.data["current"]], "take 1 to 3")

    def legal_actions(self, player: str) -> list[Action]:
        prompt = self.prompt()
        if prompt is None or prompt.player != player:
            return []
        return [{"type": "take", "n": n} for n in range(1, min(3, self.data["pile"]) + 1)]

    def apply(self, player: str, action: Action) -> list[Event]:
        if action not in self.legal_actions(player):
            raise IllegalAction("not now")
        self.data["pile"] -= action["n"]
        if self.data["pile"] == 0:
            self.data["winner"] = player
        else:
            self.data["current"] = (self.data["current"] + 1) % len(self.players)
        return [Event(f"{player} takes {action['n']}")]

    def view(self, player: str | None) -> dict[str, Any]:
        view: dict[str, Any] = {"game": self.name, "pile": self.data["pile"], "winner": self.data["winner"]}
        if player in self.data["cards"]:
            view["card"] = self.data["cards"][player]
        return view

    def result(self) -> Result | None:
        winner = self.data["winner"]
        if winner is None:
            return None
        return Result((winner,), {p: int(p == winner) for p in self.players}, f"{winner} wins")

    def notation(self, action: Action) -> str:
        return f"take {action['n']}"

    def determinize(self, player: str, rng: Any) -> Self:
        copy = self.clone()
        for p in copy.players:
            if p != player:
                copy.data["cards"][p] = rng.randrange(100)
        return copy
