"""An Argoat trade offer to a person lapses after ``trade_wait`` minutes as declined, and the
game goes on (SimCord, virtual time)."""

from __future__ import annotations

import tests.argoat.argoat_helpers as helpers
from tests.test_bot_argoat_kit import build, choose, inject, live, open_argoat, turn_message
from tests.test_bot_async import (
    advance,
    settings,  # noqa: F401  (the scheduler looks every minute: hours stay cheap)
)


async def test_an_offer_nobody_answers_lapses_after_trade_wait_and_the_turn_goes_on(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players, options="difficulty=adventurer trade_wait=30")
    assert (await live(bot, w)).game.state.trade_wait == 30
    game = build(monkeypatch, players)
    game.state.trade_wait = 30  # the built position keeps the table's option
    helpers.setup(game, str(w.alice.id), emeralds=2)
    helpers.setup(game, str(w.bob.id), emeralds=1, fragments=["moon"])
    await inject(bot, w, game, w.alice)
    for part in ("trade Blue", "trade give emerald", "trade ask fragment Moon", "trade propose"):
        await choose(w, bot, w.alice, part)
    offer = await turn_message(bot, w)
    assert "offers you a trade" in offer.content and "⏳ The wait ends <t:" in offer.content
    await advance(w.env, 28 * 60, step=600)
    table = await live(bot, w)
    assert table.game.prompt().player == str(w.bob.id) and table.game.state.trade is not None
    await advance(w.env, 3 * 60, step=60)
    table = await live(bot, w)
    assert table.game.state.trade is None and table.game.prompt().player == str(w.alice.id)
    assert table.game.state.seat(str(w.alice.id)).emeralds == 2  # nothing changed hands
    latest = await turn_message(bot, w)
    assert f"{w.bob.mention} did not answer {w.alice.mention}'s trade in time" in latest.content
    assert f"▶ {w.alice.mention}" in latest.content
    await choose(w, bot, w.alice, "move N")  # the game goes on
    assert (await live(bot, w)).game.state.seat(str(w.alice.id)).pos == (0, 1)
