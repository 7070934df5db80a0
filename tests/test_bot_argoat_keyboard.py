"""Argoat keyboard commands through the real bot (SimCord): /argoat use|move|trade|end."""

from __future__ import annotations

import pytest
from simcord import assert_responded

import tests.argoat.argoat_helpers as helpers
from bot.engine.core import IllegalAction
from tests.test_bot_argoat_kit import assert_refused, build, inject, live, open_argoat, seat_of, standing

NO_SOUTH = {"0,0": "town", "0,1": "temple", "1,0": "snowfields", "-1,0": "caravan"}
"""The Adventurer start without the Glittering Cave: nothing lies South of the Town."""


async def offered(actor, w, command: str, typed: str = "") -> list[str]:
    """The values autocomplete offers ``actor`` for ``/argoat <command>``."""
    return [c["value"] for c in await actor.autocomplete(w.channel, f"argoat {command}", "action", typed)]


def engine_refusal(game, player: str, text: str) -> str:
    """The engine's sentence for the typed ``text``."""
    with pytest.raises(IllegalAction) as refused:
        game.parse(player, text)
    return str(refused.value)


async def test_autocomplete_offers_only_the_users_legal_actions_and_typed_errors_are_the_engines(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    a, b, _ = (str(p.id) for p in players)
    game = build(monkeypatch, players, NO_SOUTH)
    helpers.setup(game, a, emeralds=1, items=["wings", "water"])
    helpers.setup(game, b, emeralds=1, items=["book", "eye"])
    await inject(bot, w, game, w.alice)
    game = (await live(bot, w)).game

    def legal(player: str, *verbs: str) -> list[str]:
        return [n for n in helpers.notations(game, player) if n.split()[0] in verbs]

    # Alice's turn: each command lists her legal actions of its kind, and nobody else's.
    assert await offered(w.alice, w, "use") == legal(a, "use") == ["use Wings", "use Water"]
    assert await offered(w.alice, w, "move") == legal(a, "move")
    assert "move S" not in legal(a, "move") and "move N" in legal(a, "move")
    assert await offered(w.alice, w, "move", "bleina") == [n for n in legal(a, "move") if "bleina" in n]
    assert await offered(w.alice, w, "trade") == legal(a, "trade") == ["trade Blue", "trade Green"]
    assert await offered(w.alice, w, "end") == [] == legal(a, "end", "place")  # she must move first
    for other in (w.bob, w.carol):
        for command in ("use", "move", "trade", "end"):
            assert await offered(other, w, command) == []

    # Illegal typed moves: the engine's sentence, privately, and nothing changes.
    version = (await live(bot, w)).record.version
    for command, typed, notation in (
        ("move", "S", "move S"),
        ("end", "end", "end"),
        ("use", "Book", "use Book"),
    ):
        r = await w.alice.slash(w.channel, f"argoat {command}", action=typed)
        assert_responded(r, content=engine_refusal(game, a, notation), ephemeral=True)
    assert_refused(await w.bob.slash(w.channel, "argoat use", action="Book"))
    assert (await live(bot, w)).record.version == version

    # A trade asking for one of Bob's Items: his answers name his Items, only in his list.
    for typed in ("Blue", "ask item", "propose"):
        r = await w.alice.slash(w.channel, "argoat trade", action=typed)
        assert_responded(r, content=f"Done: `trade {typed}`", ephemeral=True)
    answers = ["accept Book", "accept Eye", "decline"]
    assert await offered(w.bob, w, "trade") == legal(b, "accept", "decline") == answers
    assert await offered(w.alice, w, "trade") == ["withdraw"]
    assert await offered(w.carol, w, "trade") == []
    r = await w.bob.slash(w.channel, "argoat trade", action="decline")
    assert_responded(r, content="Done: `decline`", ephemeral=True)

    # Legal typed moves are played; the end choices then appear.
    r = await w.alice.slash(w.channel, "argoat move", action="W")
    assert_responded(r, content="Done: `move W`", ephemeral=True)
    game = (await live(bot, w)).game
    assert seat_of(game, w.alice)["at"] == "-1,0"
    assert await offered(w.alice, w, "end") == legal(a, "end") == ["end pay", "end pass"]
    r = await w.alice.slash(w.channel, "argoat end", action="pass")
    assert_responded(r, content="Done: `end pass`", ephemeral=True)
    assert (await live(bot, w)).game.prompt().player == b


async def test_a_trade_being_built_can_be_cancelled_with_argoat_trade(world, simcord_bot, seeds, monkeypatch):
    w = world
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), emeralds=1)
    await inject(simcord_bot, w, game, w.alice)
    before = standing((await live(simcord_bot, w)).game)
    for typed in ("Blue", "give emerald"):
        r = await w.alice.slash(w.channel, "argoat trade", action=typed)
        assert_responded(r, content=f"Done: `trade {typed}`", ephemeral=True)
    offered_now = await offered(w.alice, w, "trade")
    assert "trade propose" in offered_now
    r = await w.alice.slash(w.channel, "argoat trade", action="cancel")
    assert_responded(r, content="Done: `cancel`", ephemeral=True)
    game = (await live(simcord_bot, w)).game
    assert game.view(None)["trade"] is None and standing(game) == before
    assert "cancel" in offered_now and "undo" in offered_now  # autocomplete offers them too
