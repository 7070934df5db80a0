"""Pebbles: a tiny game implementing the engine contract, to test the host and the bot.

Players take turns removing 1..maxtake pebbles; whoever takes the last one wins. Each player
has a secret lucky number they can ``peek`` at (a private event). With ``cheer=1`` the other
players may cheer out of turn; with ``timer`` > 0 the prompt times out and the active player
takes one pebble automatically.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from bot.engine.core import (
    SYSTEM,
    Action,
    Event,
    Game,
    IllegalAction,
    OptionSpec,
    Prompt,
    Result,
    Rng,
    player_ref,
)

COLOURS = ("Red", "Blue", "Green")


class Pebbles(Game):
    """The test game (see module docstring)."""

    name = "Pebbles"
    min_players = 2
    max_players = 3
    option_specs = (
        OptionSpec("pile", "pebbles at the start", 10, minimum=2, maximum=99),
        OptionSpec("maxtake", "most pebbles one may take", 3, minimum=1, maximum=60),
        OptionSpec("timer", "seconds before a turn times out (0: never)", 0, minimum=0, maximum=3600),
        OptionSpec("cheer", "others may cheer out of turn", "no", choices=("no", "yes")),
        OptionSpec("secret", "show moves privately", "no", choices=("no", "yes")),
    )
    rules_summary = "Take 1 to maxtake pebbles; whoever takes the last pebble wins."

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    @classmethod
    def new(cls, players: Sequence[str], seed: int, options: Mapping[str, Any]) -> Self:
        rng = Rng(seed)
        return cls(
            {
                "players": list(players),
                "options": dict(options),
                "pile": int(options["pile"]),
                "turn": 1,
                "current": 0,
                "taken": {p: 0 for p in players},
                "lucky": {p: rng.randrange(100) for p in players},
                "winner": None,
                "rng": rng.state,
            }
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        return cls(dict(data))

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.data["players"])

    @property
    def active(self) -> str:
        return self.data["players"][self.data["current"]]

    def prompt(self) -> Prompt | None:
        if self.data["winner"] is not None:
            return None
        opts = self.data["options"]
        others = tuple(p for p in self.players if p != self.active) if opts["cheer"] == "yes" else ()
        return Prompt(
            player=self.active,
            text=f"take 1 to {self._most()} pebbles",
            others=others,
            others_label="Cheer" if others else "",
            timeout=int(opts["timer"]) or None,
            private=opts["secret"] == "yes",
        )

    def _most(self) -> int:
        return min(int(self.data["options"]["maxtake"]), self.data["pile"])

    def legal_actions(self, player: str) -> list[Action]:
        if self.data["winner"] is not None:
            return []
        if player == self.active:
            return [{"type": "take", "n": n} for n in range(1, self._most() + 1)] + [{"type": "peek"}]
        if player in self.players and self.data["options"]["cheer"] == "yes":
            return [{"type": "cheer"}]
        return []

    def notation(self, action: Action) -> str:
        if action["type"] == "take":
            return f"take {action['n']}"
        return str(action["type"])

    def apply(self, player: str, action: Action) -> list[Event]:
        if player == SYSTEM and action == {"type": "timeout"}:
            if self.data["winner"] is not None or not self.data["options"]["timer"]:
                raise IllegalAction("Nothing is waiting for a timeout.")
            player, action = self.active, {"type": "take", "n": 1}
        elif action not in self.legal_actions(player):
            if player != self.active:
                raise IllegalAction("It is not your turn.")
            raise IllegalAction(f"You may take 1 to {self._most()} pebbles.")
        if action["type"] == "cheer":
            return [Event(f"{player_ref(player)} cheers.", kind="cheer")]
        if action["type"] == "peek":
            return [
                Event(f"{player_ref(player)} peeked at their lucky number.", kind="peek"),
                Event(f"Your lucky number is {self.data['lucky'][player]}.", to=player, kind="peek"),
            ]
        n = action["n"]
        self.data["pile"] -= n
        self.data["taken"][player] += n
        events = [Event(f"{player_ref(player)} took {n} ({self.data['pile']} left).", kind="take")]
        if self.data["pile"] == 0:
            self.data["winner"] = player
            events.append(Event(f"{player_ref(player)} took the last pebble and wins!", kind="end"))
        else:
            self.data["current"] = (self.data["current"] + 1) % len(self.players)
            self.data["turn"] += 1
        return events

    def view(self, player: str | None) -> dict[str, Any]:
        view = {
            "game": self.name,
            "players": [
                {"id": p, "colour": COLOURS[i], "taken": self.data["taken"][p]}
                for i, p in enumerate(self.players)
            ],
            "active": None if self.data["winner"] else self.active,
            "finished": self.data["winner"] is not None,
            "turn": self.data["turn"],
            "pile": self.data["pile"],
        }
        if player in self.players:
            view["lucky"] = self.data["lucky"][player]
        return view

    def result(self) -> Result | None:
        winner = self.data["winner"]
        if winner is None:
            return None
        return Result((winner,), dict(self.data["taken"]), f"{player_ref(winner)} wins.")

    def secrets_text(self, player: str) -> str:
        return f"Your lucky number is {self.data['lucky'][player]}."
