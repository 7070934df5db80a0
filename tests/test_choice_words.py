"""Menu options in plain words (Game.choice_words) over random games of Argo and Argoat.

Every option of every step a player is offered (the picker's tree of notation tokens, walked to
the end) gets a label that is not its notation, fits Discord's limits and differs from the other
labels of its step, and a description that fits too. Argoat's words never name a secret: no Item
on a public menu, nothing a face-down Dark Forest hides.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.argo import ArgoGame
from bot.engine.argo import words as argo_words
from bot.engine.argo.data import MODULE_EFFECTS, SECURITY_CENTER
from bot.engine.argoat import ArgoatGame
from bot.engine.argoat import words as argoat_words
from bot.engine.argoat.data import ITEMS
from bot.engine.core import SYSTEM, TIMEOUT, Game
from cogs.picker import DONE, ActionTree, Step

LABEL_MAX, DESCRIPTION_MAX = 80, 100
ITEM_WORDS = [item.name for item in ITEMS]


def every_step(game: Game, player: str) -> list[Step]:
    """Every step of ``player``'s choice now (the whole tree of the picker)."""
    tree = ActionTree(game, player)
    if not tree:
        return []
    steps, paths = [], [()]
    while paths:
        path = paths.pop()
        reached = tree.walk(path)
        if not isinstance(reached, Step):
            continue
        steps.append(reached)
        paths.extend((*path, i) for i, option in enumerate(reached.options) if option != DONE)
    return steps


def check_player(game: Game, player: str, seen: Counter, *, secret_free: bool) -> None:
    """Every option of every step of ``player`` now is in words that fit; ``secret_free``: the
    words may appear on a public message, so they name no Item."""
    tokens_now = {t for a in game.legal_actions(player) for t in game.notation(a).split()}
    for step in every_step(game, player):
        labels = []
        for option in step.options:
            if option == DONE:
                continue
            label, description = game.choice_words(player, step.tokens, tuple(option.split()))
            assert label and label != option and label not in tokens_now, (step.tokens, option, label)
            assert len(label) <= LABEL_MAX and len(description) <= DESCRIPTION_MAX, (label, description)
            assert "\n" not in label + description
            if secret_free:
                assert not any(name in label + description for name in ITEM_WORDS), (label, description)
            labels.append(label)
            seen[(step.tokens[:1] or (option,))[0], len(step.tokens)] += 1
        assert len(set(labels)) == len(labels), (step.tokens, step.options, labels)
    # one option may hold several tokens (a piece and its destination merged into one choice):
    # its words are those of its last token reached one at a time
    for action in game.legal_actions(player):
        tokens = tuple(game.notation(action).split())
        if len(tokens) >= 3:
            merged = game.choice_words(player, tokens[:1], tokens[1:])
            assert merged == game.choice_words(player, tokens[:-1], tokens[-1:]), tokens


def argo_parts_align(game: ArgoGame, player: str, kinds: Counter) -> None:
    for action in game.legal_actions(player):
        parts = argo_words.parts(game.st, action)
        assert len(parts) == len(game.notation(action).split()), (game.notation(action), parts)
        kinds.update(kind if kind != "verb" else f"verb:{value}" for kind, value in parts)


ARGO_KINDS = {
    "verb:move",
    "verb:build",
    "verb:activate",
    "verb:undo",
    "verb:cancel",
    "verb:push",
    "alien",
    "alien_at",
    "alien_to",
    "astro",
    "path",
    "build_tile",
    "build_cell",
    "build_doors",
    "module",
    "push_to",
}
"""Token kinds every long random Argo game meets (the rarer ones have tests of their own)."""


def play_argo(n: int, seed: int, wait: int, kinds: Counter) -> None:
    """A random Argo game, every option of every decider checked at every other decision."""
    game = ArgoGame.new([f"p{i}" for i in range(n)], seed, {"tm_wait": wait})
    rng = random.Random(seed)
    seen: Counter = Counter()
    for step in range(3000):
        if game.result() is not None:
            break
        prompt = game.prompt()
        deciders = [p for p in prompt.deciders() if game.legal_actions(p)]
        if not deciders:
            game.apply(SYSTEM, TIMEOUT)
            continue
        if step % 2 == 0:
            for player in deciders:
                check_player(game, player, seen, secret_free=True)
                argo_parts_align(game, player, kinds)
        who = deciders[0] if rng.random() < 0.85 else rng.choice(deciders)
        options = game.legal_actions(who)
        plain = [a for a in options if a["type"] not in ("undo", "cancel")]
        game.apply(who, rng.choice(plain if plain and rng.random() > 0.1 else options))
    assert game.result() is not None and seen


def test_every_argo_option_is_in_words_that_fit() -> None:
    kinds: Counter = Counter()
    for n, seed, wait in [(2, 1, 0), (3, 2, 5), (4, 3, 0), (2, 4, 5), (3, 5, 0)]:
        play_argo(n, seed, wait, kinds)
    assert set(kinds) >= ARGO_KINDS, ARGO_KINDS - set(kinds)


def argoat_leaks(game: ArgoatGame, text: str) -> list[str]:
    """What ``text`` tells of a face-down Dark Forest."""
    flipped = {f.content for f in game.state.forests.values() if f.flipped}
    return [word for word in ("Eden", "Hollow") if word in text and word not in flipped]


@pytest.mark.parametrize(
    ("n", "seed", "difficulty"),
    [(2, 11, "adventurer"), (3, 12, "journeyman"), (4, 13, "adventurer"), (5, 14, "journeyman")],
)
def test_every_argoat_option_is_in_words_that_fit_and_keep_secrets(
    n: int, seed: int, difficulty: str
) -> None:
    game = ArgoatGame.new([f"p{i}" for i in range(n)], seed, {"difficulty": difficulty})
    rng = random.Random(seed)
    seen: Counter = Counter()
    kinds: Counter = Counter()
    for _ in range(500):
        prompt = game.prompt()
        if prompt is None:
            break
        for player in prompt.deciders():
            public = player == prompt.player and not prompt.private
            check_player(game, player, seen, secret_free=public)
            for action in game.legal_actions(player):
                parts = argoat_words.parts(action)
                assert len(parts) == len(game.notation(action).split())
                kinds.update(kind if kind != "verb" else f"verb:{value}" for kind, value in parts)
                tokens = tuple(game.notation(action).split())
                for cut in range(1, len(tokens) + 1):
                    label, description = game.choice_words(player, tokens[: cut - 1], tokens[cut - 1 : cut])
                    assert argoat_leaks(game, label + description) == [], (label, description)
        player = rng.choice(prompt.deciders())
        legal = game.legal_actions(player)
        keep = [a for a in legal if a["type"] not in ("undo", "cancel", "withdraw")]
        game.apply(player, rng.choice(keep if keep and rng.random() > 0.05 else legal))
    assert {"verb:move", "verb:end", "verb:place", "dir", "choice", "at"} <= set(kinds)
    assert seen


def test_argoat_trade_and_item_words() -> None:
    """The words of a whole trade, and of Items, in a game built for it."""
    import tests.argoat.argoat_helpers as helpers

    cards = {**helpers.BASE, "0,2": "lake"}
    game = helpers.scenario(cards, n=3, forests=[("0,3", "S", "Eden")], active="ann")
    helpers.setup(game, "ann", emeralds=2, fragments=["sun"], items=["staff", "eye"])
    helpers.setup(game, "bob", emeralds=1, fragments=["moon"], items=["book"])
    helpers.marker(game, "0,3", "bob")
    helpers.bleinas(game, "1,0")

    def words(text: str) -> tuple[str, str]:
        tokens = tuple(text.split())
        return game.choice_words("ann", tokens[:-1], tokens[-1:])

    staff = next(i.text for i in ITEMS if i.key == "staff")
    assert words("use Staff") == ("✨ Use the Staff of Guidance", argoat_words.fit(staff, 100))
    assert words("use Staff 1,0")[0].startswith("✨ Staff: go to the Bleina on ")
    assert words("use Eye 0,3") == (
        "✨ Eye: look into the Dark Forest (0,3)",
        "No payment. Check Markers there: Blue.",
    )
    helpers.act(game, "ann", "trade Blue")
    assert game.choice_words("ann", ("trade",), ("give",))[0] == "You give…"
    assert words("trade give emerald") == ("Give 1 Emerald", "You have 2 Emeralds.")
    assert words("trade ask item") == (
        "Ask for 1 of their Items (they choose)",
        "They hold 1 Item and choose which to hand over.",
    )
    assert words("trade give fragment Sun")[0] == "Give a copy of the Knowledge of the Sun"
    assert words("trade give item Eye")[0] == "Give your Eye of the Dark Dragon"
    for part in ("trade give item Eye", "trade ask emerald"):
        helpers.act(game, "ann", part)
    label, description = game.choice_words("ann", ("trade",), ("propose",))
    assert label == "📨 Propose the trade"
    assert "Eye of the Dark Dragon" in description  # Ann's own Item, in her own private picker
    helpers.act(game, "ann", "trade propose")
    label, description = game.choice_words("bob", (), ("accept",))
    assert label == "✅ Accept the trade" and "1 Item" in description and "Eye" not in description


def test_argo_words_of_decisions_random_games_rarely_reach() -> None:
    """Whom an Alien kills, the Pilot's announced choice, a launch, a push and a build."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "argo"))
    from argo_board import play, setup

    def words(game: ArgoGame, colour: str, text: str) -> tuple[str, str]:
        player = game.players[["Blue", "Yellow", "Red", "Green"].index(colour)]
        tokens = tuple(text.split())
        assert text in [game.notation(a) for a in game.legal_actions(player)] or any(
            game.notation(a).startswith(text + " ") for a in game.legal_actions(player)
        ), text
        return game.choice_words(player, tokens[:-1], tokens[-1:])

    base = {"N1": "Corridor-T NES", "N2": "Corridor-I NS", "N1E1": "Corridor-L SW", "E1": "Corridor-L NW"}
    game = setup(
        base,
        players=3,
        phase="alien",
        aliens=["N1"],
        astronauts={"Yellow-Pilot": "N2", "Red-Chief": "N2"},
    )
    assert words(game, "Blue", "move Alien N1 N2") == (
        "👾 Move the Alien on N1 to N2 Corridor",
        "It meets 🟨 Yellow Pilot, 🟥 Red Chief.",
    )
    play(game, "Blue", "move Alien N1 N2")
    assert words(game, "Blue", "kill Red-Chief") == (
        "👾 The Alien kills 🟥 Red Chief",
        "🟥 Red Chief goes to the Alien track: 2 points for you.",
    )

    game = setup(base, astronauts={"Blue-Grunt": "N2", "Yellow-Chief": "N1", "Yellow-Pilot": "N1E1"})
    assert words(game, "Blue", "move Grunt N1")[0] == "🟦 Grunt → N1 Corridor"
    play(game, "Blue", "move Grunt N1")
    assert words(game, "Blue", "push Yellow-Chief")[0] == "Push 🟨 Yellow Chief out"
    assert words(game, "Blue", "push Yellow-Chief N1E1")[0] == "Push 🟨 Yellow Chief to N1E1 Corridor"

    pods = {"N1": "Corridor-I NS", "N2": "Corridor-I NS", "N3": "Corridor-I NS", "N4": "Pod-2/4 S"}
    game = setup(pods, astronauts={"Blue-Pilot": "N3"})
    assert words(game, "Blue", "move Pilot N4")[0] == "🟦 Pilot → N4 Escape Pod 2/4"
    assert words(game, "Blue", "move Pilot N4 leave") == (
        "🟦 Pilot → N4 Escape Pod 2/4, she leaves alone",
        "The Pod takes off at once with her alone: 2 points.",
    )
    assert words(game, "Blue", "move Pilot N4 stay")[0] == "🟦 Pilot → N4 Escape Pod 2/4, she stays aboard"

    station = {"N1": "Security-Center ES", "N1E1": "Pod-2/4 W"}
    game = setup(station, turn=4, astronauts={"Blue-Grunt": "N1", "Yellow-Chief": "N1E1"})
    assert words(game, "Blue", "activate Security-Center") == (
        "⚙ Activate Security Center (N1)",
        MODULE_EFFECTS[SECURITY_CENTER],
    )
    assert words(game, "Blue", "activate Security-Center N1E1") == (
        "⚙ Security Center: launch N1E1 Escape Pod 2/4",
        "Aboard: 🟨 Yellow Chief (2). It takes off at once.",
    )

    game = setup(base, phase="build", display=["Lab", "Warehouse", "Laser"])
    label, description = words(game, "Blue", "build Lab")
    assert label == "🧱 Build Lab" and "swap an Astronaut" in description
    doors = next(
        game.notation(a).split()[-1]
        for a in game.legal_actions(game.players[0])
        if game.notation(a).startswith("build Lab N3 ")
    )
    label, description = words(game, "Blue", f"build Lab N3 {doors}")
    assert label.startswith("🧱 Build Lab at N3, doors ") and "–" in label
    assert description == "Connects to N2 Corridor."
