"""Argoat through the real bot (SimCord): a restart mid-turn and mid-trade keeps everything working."""

from __future__ import annotations

import pytest

import tests.argoat.argoat_helpers as helpers
from bot.engine.argoat.data import ITEM_BY_KEY
from tests.test_bot_argoat_kit import (
    assert_refused,
    build,
    choose,
    dm_news,
    hand,
    inject,
    live,
    open_argoat,
    options,
    pick,
    seat_of,
    standing,
    turn_message,
)

DIRECTIONS = ("N", "E", "S", "W")


async def test_a_restart_keeps_the_turn_message_working(world, simcord_bot, seeds, make_bot):
    """The turn message offers whole moves ("move N": the steps fit one menu); drawn by the old
    bot, it still works after a restart."""
    w = world
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players, seed=1)
    table = await live(simcord_bot, w)
    by_id = {str(p.id): p for p in players}
    active = by_id[table.game.prompt().player]
    other = next(p for p in players if p is not active)
    turn = await turn_message(simcord_bot, w)
    moves = [label for label in (await options(simcord_bot, w, turn)) if label.split()[:1] == ["move"]]
    assert moves and all(label.split()[-1] in DIRECTIONS for label in moves)

    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()

    assert_refused(await pick(new_bot, w, other, turn, moves[0]), active.mention)
    await pick(new_bot, w, active, turn, moves[0])
    game = (await live(new_bot, w)).game
    at = seat_of(game, active)["at"]
    assert at != "0,0" and game.view(None)["movement"]["moved"]
    assert f"({at})" in turn.content and "Choosing" not in turn.content


async def test_a_restart_keeps_an_open_private_picker_working(
    world, simcord_bot, seeds, make_bot, monkeypatch
):
    w = world
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), items=["water"])
    turn = await inject(simcord_bot, w, game, w.alice)
    await pick(simcord_bot, w, w.alice, turn, "trade Blue")  # public: it names no Item
    draft = await turn_message(simcord_bot, w)
    picker = (await pick(simcord_bot, w, w.alice, draft, "Show my choices")).response
    assert "trade give item Water" in (await options(simcord_bot, w, picker, w.alice))

    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()

    await pick(new_bot, w, w.alice, picker, "trade give item Water")
    assert picker.content.startswith("Done: `trade give item Water`")
    game = (await live(new_bot, w)).game
    trade = game.view(None)["trade"]
    assert trade["to"] == str(w.bob.id) and trade["stage"] == "draft"
    assert "trade propose" in (await options(new_bot, w, picker, w.alice)) and "cancel" in (
        await options(new_bot, w, picker, w.alice)
    )  # it went on
    await pick(new_bot, w, w.alice, picker, "trade propose")
    assert (await live(new_bot, w)).game.view(None)["trade"]["stage"] != "draft"


@pytest.mark.parametrize("answer", ["accept", "withdraw"])
async def test_a_restart_with_a_pending_proposal_keeps_it_answerable(
    world, simcord_bot, seeds, make_bot, monkeypatch, answer
):
    w = world
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    a, b, _ = (str(p.id) for p in players)
    game = build(monkeypatch, players)
    helpers.setup(game, a, emeralds=1, items=["staff"])
    helpers.setup(game, b, emeralds=1)
    await inject(simcord_bot, w, game, w.alice)
    before = standing((await live(simcord_bot, w)).game)
    for typed in ("Blue", "give item Staff", "ask emerald", "propose"):
        r = await w.alice.slash(w.channel, "argoat trade", action=typed)
        assert r.response.ephemeral and r.response.content.startswith("Done: `trade ")
    offer = await turn_message(simcord_bot, w)
    assert await options(simcord_bot, w, offer) == ["accept", "decline", "Withdraw"]

    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()

    assert_refused(await pick(new_bot, w, w.carol, offer, "accept"), w.bob.mention)
    if answer == "accept":
        await pick(new_bot, w, w.bob, offer, "accept")
        game = (await live(new_bot, w)).game
        assert hand(game, w.bob) == ["staff"] and hand(game, w.alice) == []
        assert (seat_of(game, w.alice)["emeralds"], seat_of(game, w.bob)["emeralds"]) == (2, 0)
        assert dm_news(w, w.bob) == [
            [
                "In the trade you received the Staff of Guidance.",
                f"Staff of Guidance: {ITEM_BY_KEY['staff'].summary}",
            ]
        ]
    else:
        await choose(w, new_bot, w.alice, "withdraw")
        game = (await live(new_bot, w)).game
        assert standing(game) == before
        assert dm_news(w, w.bob) == []
    assert game.prompt().player == a and game.view(None)["trade"] is None
    assert f"▶ {w.alice.mention}" in w.channel.last_message.content
