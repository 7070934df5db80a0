"""Whole games of Argo and Argoat scanned for coordinates written the wrong way (issue 35): every
text a player can read — public and private events, prompts, every menu option's label and
description, the final result and its tie-break details, the rules pages — never writes an Argo
cell in lower case ("w2", "n1e3": cells are "W2", "N1E3") nor an Argoat coordinate as a bare pair
("from 0,0 to 1,0": a text writes "(1,0)", with the card's name where there is one). Notation (what
is typed, "place 2,1") is not text and is not scanned."""

from __future__ import annotations

import random
import re
from collections import Counter

from bot.engine.argo import ArgoGame
from bot.engine.argoat import ArgoatGame
from bot.engine.core import SYSTEM, TIMEOUT, Game
from cogs.picker import DONE
from tests.test_choice_words import every_step

LOWER_CELL = re.compile(r"(?<![A-Za-z0-9_:-])[nsew][0-9]+(?:[nsew][0-9]+)*(?![A-Za-z0-9])")
"""An Argo cell label in lower case ("w2", "s2w3"): cells are written "W2", "S2W3"."""
BARE_PAIR = re.compile(r"(?<![(\d,.-])-?\d+,-?\d+(?![\d)])")
"""A coordinate pair not in parentheses ("0,0"); texts write "(0,0)"."""
CODE = re.compile(r"`[^`\n]*`")
"""Notation quoted in a text (`place 2,1`): what to type, not words."""


def wrong_coordinates(text: str) -> list[str]:
    """Coordinates in ``text`` written the wrong way (notation in backticks aside)."""
    text = CODE.sub("", text)
    return LOWER_CELL.findall(text) + BARE_PAIR.findall(text)


def test_the_scan_finds_what_it_looks_for() -> None:
    assert wrong_coordinates("The escape pod 3/4 at w2 takes off.") == ["w2"]
    assert wrong_coordinates("<p:1> calls a Bleina from 0,0 to 1,-1.") == ["0,0", "1,-1"]
    assert wrong_coordinates("The Escape Pod 3/4 at S2W3 takes off (Aliens: 4, 5).") == []
    assert wrong_coordinates("Lake Heol (1,0), the Dark Forest (-2,1); type `place 2,1`") == []


class Seen:
    """Every text met, with where it came from, and the problems found in them."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []
        self.kinds: Counter[str] = Counter()

    def check(self, where: str, text: str) -> None:
        if wrong_coordinates(text):
            self.problems.append((where, text))

    def events(self, events) -> None:
        for event in events:
            self.kinds[event.kind] += 1
            self.check(f"event {event.kind}", event.text)

    def decision(self, game: Game, players: list[str], menus: bool) -> None:
        prompt = game.prompt()
        if prompt is None:
            return
        self.check("prompt", prompt.text)
        self.check("prompt", prompt.others_label)
        if not menus:
            return
        for player in players:
            if not game.legal_actions(player):
                continue
            for step in every_step(game, player):
                for option in step.options:
                    if option != DONE:
                        label, description = game.choice_words(player, step.tokens, tuple(option.split()))
                        self.check("label", label)
                        self.check("description", description)


def scoring_first(game: Game, player: str, legal: list, rng: random.Random) -> dict:
    """A random action of ``player``, one that seats or launches an Astronaut when there is one (so
    that Escape Pods take off: random play rarely launches them)."""
    plain = [a for a in legal if a["type"] not in ("undo", "cancel", "withdraw")] or legal
    if isinstance(game, ArgoGame):
        scoring = []
        for action in plain:
            if action["type"] in ("move", "push", "activate"):
                trial = game.clone()
                if any(e.kind in ("seat", "launch") for e in trial.apply(player, action)):
                    scoring.append(action)
        if scoring:
            return rng.choice(scoring)
    return rng.choice(plain)


def play(cls: type[Game], players: int, seed: int, seen: Seen) -> None:
    seats = [f"p{i}" for i in range(players)]
    game = cls.new(seats, seed, {})
    rng = random.Random(seed)
    for step in range(5000):
        result = game.result()
        if result is not None:
            seen.check("result", result.text)
            for detail in result.details.values():
                seen.check("tie-break", detail)
            return
        seen.decision(game, seats, menus=step % 4 == 0)
        prompt = game.prompt()
        assert prompt is not None
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            seen.events(game.apply(SYSTEM, TIMEOUT))
            continue
        who = deciders[0] if rng.random() < 0.85 else rng.choice(deciders)
        seen.events(game.apply(who, scoring_first(game, who, game.legal_actions(who), rng)))
    raise AssertionError(f"{cls.name} seed {seed} did not end")


def test_no_argo_text_writes_a_cell_in_lower_case() -> None:
    seen = Seen()
    for players, seed in [(2, 0), (3, 1), (4, 2), (2, 3), (3, 4), (4, 5)]:
        play(ArgoGame, players, seed, seen)
    for page in ArgoGame.help_topics().values():
        seen.check(f"rules {page.title}", page.text)
    assert seen.kinds["launch"] >= 3 and seen.kinds["move"] > 100, seen.kinds  # the scan saw Pods take off
    assert not seen.problems, seen.problems[:5]


def test_no_argoat_text_writes_a_bare_coordinate_pair() -> None:
    seen = Seen()
    for players, seed in [(2, 1), (3, 2), (4, 3), (5, 4), (3, 5)]:
        play(ArgoatGame, players, seed, seen)
    for page in ArgoatGame.help_topics().values():
        seen.check(f"rules {page.title}", page.text)
    # what the old texts wrote bare: placing frontiers and forests, looking into forests, Bleinas
    for kind in ("place", "forest", "explore", "peek", "bleina_called"):
        assert seen.kinds[kind] > 0, (kind, seen.kinds)
    assert not seen.problems, seen.problems[:5]
