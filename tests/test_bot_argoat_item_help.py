"""Argoat Items explained where a player meets them (SimCord): the DM of a drawn Item and
/game hand say what each Item does and when it may be used."""

from __future__ import annotations

import tests.argoat.argoat_helpers as helpers
from bot.engine.argoat.data import ITEM_BY_KEY, ITEM_RULES
from tests.test_bot_argoat_kit import build, choose, dm_news, inject, open_argoat


async def test_a_drawn_item_arrives_by_dm_with_what_it_does_and_when(world, simcord_bot, seeds, monkeypatch):
    w = world
    players = [w.alice, w.bob]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), emeralds=1)
    helpers.stack(game, supply=["eye"])
    await inject(simcord_bot, w, game, w.alice)
    await choose(w, simcord_bot, w.alice, "move W")  # the Caravan
    await choose(w, simcord_bot, w.alice, "end pay")
    eye = ITEM_BY_KEY["eye"]
    assert dm_news(w, w.alice) == [[f"You drew the Eye of the Dark Dragon. {eye.summary}"]]
    line = dm_news(w, w.alice)[0][0]
    assert "look at its reverse side" in line and "When: on your turn" in line
    assert dm_news(w, w.bob) == []
    assert eye.text not in w.channel.last_message.content  # the public message names no Item


async def test_hand_lists_each_item_with_its_effect_and_when_to_use_it(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    players = [w.alice, w.bob]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), items=["wings", "book", "wings"])
    await inject(simcord_bot, w, game, w.alice)
    r = await w.alice.slash(w.channel, "game hand")
    assert r.response.ephemeral
    text = r.response.content
    wings, book = ITEM_BY_KEY["wings"], ITEM_BY_KEY["book"]
    assert f"• **Wings of the Holy Dragon** ×2: {wings.summary}" in text
    assert f"• **Book of Wisdom**: {book.summary}" in text
    assert (
        "Only in the Frontier Town" in text
        and "When: on your turn while you stand on the Frontier Town" in text
    )
    assert ITEM_RULES in text and "Dark Forests you have looked into: none yet." in text
    r = await w.bob.slash(w.channel, "game hand")
    assert r.response.ephemeral and r.response.content.startswith("Dark Forests you have looked into")
    assert "Your Items: none." in r.response.content and "Wings" not in r.response.content
