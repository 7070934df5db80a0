"""Whole games of Argo and Argoat through SimCord with random typed moves (``/game play``): no
public message names a tile by its notation token ("Corridor-X-alien", "Control-Room",
"Pod-2/3") or an internal key, or quotes a move in backticked notation, and no button or select
option is labelled with a legal move's notation (menus use the engine's words), and no coordinate
is written the wrong way (an Argo cell in lower case, an Argoat pair outside parentheses)."""

from __future__ import annotations

import random
import re

import pytest

from bot.engine.argo.data import TILES
from bot.engine.argoat.data import FRONTIERS
from cogs.picker import split_choices
from tests.driver import open_table, widgets
from tests.test_bot_argoat_kit import public_messages
from tests.test_words_coordinates import wrong_coordinates

TOKENS = {t.token for t in TILES if "-" in t.token} | {f.key for f in FRONTIERS if "_" in f.key}
"""Argo's hyphenated notation tokens of tiles (the plain ones, "Lab", are also printed names) and
Argoat's internal frontier keys ("dark_dragon", "trail_2")."""
BACKTICKED = re.compile(r"`([^`\n]+)`")


def scan(messages, notations: set[str]) -> list[str]:
    """What the public ``messages`` show that they should not: tile tokens, backticked moves,
    labels that are notations."""
    found = []
    for msg in messages:
        text = msg.content or ""
        found += [f"token {token!r} in {text!r}" for token in TOKENS if token in text]
        found += [f"notation `{q}` in {text!r}" for q in BACKTICKED.findall(text) if q in notations]
        found += [f"coordinate {c!r} in {text!r}" for c in wrong_coordinates(text)]
        for widget in widgets(msg):
            shown = [widget.label, widget.description or ""]
            found += [f"token {token!r} on {shown!r}" for token in TOKENS for s in shown if token in s]
            found += [f"coordinate {c!r} on {shown!r}" for s in shown for c in wrong_coordinates(s)]
            if widget.label in notations:
                found.append(f"label {widget.label!r} is a notation")
    return found


async def play_typed(
    w, bot, game: str, players, seed: int, steps: int, options: str = ""
) -> tuple[int, bool, int]:
    """Play random legal actions, each typed with ``/game play``, scanning the public messages
    after each, until the game ends or ``steps`` were played: (actions played, game over,
    decisions whose public buttons were only part of the player's choices)."""
    await open_table(w.channel, game, players, options=options)
    actors = {str(p.id): p for p in players}
    rng = random.Random(seed)
    notations: set[str] = set()
    played = split = 0
    for _ in range(steps):
        table = await bot.host.current(w.channel.id)
        if table is None or table.game is None or table.game.result() is not None:
            return played, True, split
        current = table.game
        prompt = current.prompt()
        deciders = [p for p in prompt.deciders() if current.legal_actions(p)]
        if not deciders:
            break
        player = rng.choice(deciders)
        split += prompt.player is not None and split_choices(prompt, prompt.player)
        legal = current.legal_actions(player)
        for p in current.players:
            notations.update(current.notation(a) for a in current.legal_actions(p))
        keep = [a for a in legal if a["type"] not in ("undo", "cancel", "withdraw")] or legal
        keen = [a for a in keep if current.notation(a) == "end pay"]  # buy Items: secrets in hand
        typed = current.notation(rng.choice(keen or keep))
        r = await actors[player].slash(w.channel, "game play", action=typed)
        assert r.response.content == f"Done: `{typed}`", r.response.content  # (private, to the typist)
        await w.env.advance_time(11)  # the same move typed twice in 10 s is taken for a slip
        played += 1
        problems = scan(public_messages(w), notations)
        assert not problems, problems[:5]
    table = await bot.host.current(w.channel.id)
    return played, table is None or table.game is None or table.game.result() is not None, split


@pytest.mark.parametrize("seed", [3, 8])
async def test_argo_public_messages_use_words(world, simcord_bot, seeds, seed):
    seeds.value = seed
    w = world
    played, over, _ = await play_typed(w, simcord_bot, "Argo", [w.alice, w.bob], seed, 400)
    assert over and played >= 30  # a whole game


@pytest.mark.parametrize("seed", [5, 9])
async def test_argoat_public_messages_use_words(world, simcord_bot, seeds, seed):
    seeds.value = seed
    w = world
    players = [w.alice, w.bob, w.carol]
    played, _, split = await play_typed(w, simcord_bot, "Argoat", players, seed, 120, "difficulty=adventurer")
    assert played == 120  # many turns of a game (a whole one takes too long for the suite)
    assert split >= 3  # turns of a player holding an Item: public moves, private Items
