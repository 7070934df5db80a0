"""Argoat trades through the real bot (SimCord): built, proposed, answered, and their secrets."""

from __future__ import annotations

import tests.argoat.argoat_helpers as helpers
from bot.engine.argoat.data import ITEM_BY_KEY
from tests.driver import widgets
from tests.test_bot_argoat_kit import (
    FOREST_MAP,
    assert_refused,
    build,
    choose,
    dm_news,
    forest_leaks,
    hand,
    inject,
    item_leaks,
    labels,
    live,
    message_text,
    open_argoat,
    options,
    pick,
    pinged,
    public_messages,
    seat_of,
    standing,
    turn_message,
)


async def test_a_trade_built_in_the_private_picker_accepted_with_secrets_by_dm(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    a, b, _ = (str(p.id) for p in players)
    game = build(monkeypatch, players, FOREST_MAP, forests=[("0,3", "S", "Eden")])
    helpers.setup(game, a, emeralds=2, fragments=["sun"], items=["staff"])
    helpers.setup(game, b, emeralds=1, fragments=["moon"], items=["book"])
    helpers.marker(game, "0,3", a)
    turn = await inject(bot, w, game, w.alice)

    # Alice holds an Item: she moves and trades from the public message; only using an Item
    # is private ("Use an Item", shown whatever her Items can do, names none of them).
    public = labels(turn)
    # (in words, as for anyone: the public part of her choices names no Item either)
    assert "Use an Item" in public
    assert "🤝 Trade with 🟦 Blue" in public and "🤝 Trade with 🟩 Green" in public
    assert [label for label in public if label.startswith("🚶 Walk ")]  # a plain move: public
    assert not [label for label in public if label.startswith("use")]
    assert item_leaks(message_text(turn), {"staff", "book"}) == []
    version = (await live(bot, w)).record.version
    assert_refused(await pick(bot, w, w.carol, turn, "Use an Item"))
    r = await pick(bot, w, w.alice, turn, "Use an Item")
    assert r.response.ephemeral and r.response.id not in [m.id for m in w.channel.history(viewer=w.bob)]
    assert r.response.content == "Nothing under **Use an Item** can be chosen right now."  # no Bleina
    assert (await live(bot, w)).record.version == version
    r = await pick(bot, w, w.alice, turn, "trade Blue")
    assert (await live(bot, w)).record.version == version + 1

    # The draft names Alice's Items: private. It opens for her at once (an ephemeral followup of
    # her click), and the picker goes on from one part to the next.
    current = await turn_message(bot, w)
    assert labels(current) == ["Show my choices"], "the draft's options name Alice's Items"
    [picker] = [f for f in r.followups if f.components]
    assert picker.ephemeral and picker.id not in [m.id for m in w.channel.history(viewer=w.bob)]
    assert "trade give item Staff" in await options(bot, w, picker, w.alice)
    await pick(bot, w, w.alice, picker, "trade give fragment Sun")
    assert picker.content.startswith("Done: `trade give fragment Sun`\nOnly you see this.")
    following = await options(bot, w, picker, w.alice)
    assert "trade give explore 0,3" in following and "trade give fragment Sun" not in following
    await pick(bot, w, w.alice, picker, "trade give explore 0,3")
    for part in ("trade give item Staff", "trade ask emerald", "trade ask item"):
        await choose(w, bot, w.alice, part)
        current = await turn_message(bot, w)
        assert labels(current) == ["Show my choices"], "the draft's options name Alice's Items"
    await choose(w, bot, w.alice, "trade propose")

    # Bob is mentioned (and only he is notified); his answers name his Items: private too.
    offer = await turn_message(bot, w)
    assert offer.id != turn.id
    assert f"▶ {w.bob.mention}, {w.alice.mention} offers you a trade" in offer.content
    assert pinged(w, offer) == [w.bob.id]
    assert labels(offer) == ["Show my choices", "Withdraw"]
    version = (await live(bot, w)).record.version
    for actor, label in ((w.carol, "Show my choices"), (w.alice, "Show my choices"), (w.carol, "Withdraw")):
        assert_refused(await actor.click(offer, label=label))
    assert_refused(await w.bob.click(offer, label="Withdraw"), start="That button is for the other players")
    assert (await live(bot, w)).record.version == version
    r = await w.bob.click(offer, label="Show my choices")
    assert r.response.ephemeral and (await options(bot, w, r.response, w.bob)) == ["accept Book", "decline"]
    assert r.response.id not in [m.id for m in w.channel.history(viewer=w.alice)]
    await pick(bot, w, w.bob, r.response, "accept Book")
    assert r.response.content == "Done: `accept Book`"

    # The public state changed...
    game = (await live(bot, w)).game
    alice, bob = seat_of(game, w.alice), seat_of(game, w.bob)
    assert (alice["emeralds"], bob["emeralds"]) == (3, 0)
    assert alice["fragments"] == ["sun"] and bob["fragments"] == ["sun", "moon"]
    assert (alice["items"], bob["items"]) == (1, 1)
    assert game.view(None)["forests"][0]["markers"] == ["Red", "Blue"]
    assert hand(game, w.alice) == ["book"] and hand(game, w.bob) == ["staff"]
    assert f"{w.alice.mention} traded with {w.bob.mention}" in w.channel.last_message.content
    # ...the secrets went by DM to their owners only...
    assert dm_news(w, w.alice) == [
        ["In the trade you received the Book of Wisdom.", f"Book of Wisdom: {ITEM_BY_KEY['book'].summary}"]
    ]
    assert dm_news(w, w.bob) == [
        [
            "The Dark Forest (0,3) hides Eden.",
            "In the trade you received the Staff of Guidance.",
            f"Staff of Guidance: {ITEM_BY_KEY['staff'].summary}",
        ]
    ]
    assert dm_news(w, w.carol) == []
    # ...and never appeared in any public message.
    for msg in public_messages(w):
        text = message_text(msg)
        assert item_leaks(text, {"staff", "book"}) == [], text
        assert forest_leaks(text, game) == [], text


async def test_a_declined_and_a_withdrawn_trade_change_nothing(world, simcord_bot, seeds, monkeypatch):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    a, b, _ = (str(p.id) for p in players)
    game = build(monkeypatch, players, FOREST_MAP, forests=[("0,3", "S", "Hollow")])
    helpers.setup(game, a, emeralds=2, fragments=["sun"])
    helpers.setup(game, b, emeralds=1, fragments=["moon"], items=["book"])
    helpers.marker(game, "0,3", b)
    await inject(bot, w, game, w.alice)
    before = standing((await live(bot, w)).game)
    terms = (
        "trade give emerald",
        "trade give fragment Sun",
        "trade ask fragment Moon",
        "trade ask explore 0,3",
    )

    # Declined: Bob's Accept / Decline are on the public message, for him alone.
    for part in ("trade Blue", *terms, "trade propose"):
        await choose(w, bot, w.alice, part)
    offer = await turn_message(bot, w)
    assert await options(bot, w, offer) == ["accept", "decline", "Withdraw"] and pinged(w, offer) == [
        w.bob.id
    ]
    version = (await live(bot, w)).record.version
    assert_refused(await pick(bot, w, w.carol, offer, "accept"), w.bob.mention)
    assert_refused(await pick(bot, w, w.carol, offer, "decline"), w.bob.mention)
    assert_refused(await pick(bot, w, w.alice, offer, "accept"), w.bob.mention, "Withdraw")
    assert (await live(bot, w)).record.version == version
    await pick(bot, w, w.bob, offer, "decline")
    game = (await live(bot, w)).game
    assert game.prompt().player == a and game.view(None)["trade"] is None
    assert standing(game) == before
    assert f"{w.bob.mention} declines" in w.channel.last_message.content

    # Withdrawn: the proposer's out-of-turn button opens a private picker.
    for part in ("trade Blue", *terms, "trade propose"):
        await choose(w, bot, w.alice, part)
    offer = await turn_message(bot, w)
    r = await w.alice.click(offer, label="Withdraw")
    assert r.response.ephemeral and await options(bot, w, r.response, w.alice) == ["withdraw"]
    await pick(bot, w, w.alice, r.response, "withdraw")
    game = (await live(bot, w)).game
    assert game.prompt().player == a and game.view(None)["trade"] is None
    assert standing(game) == before
    assert f"{w.alice.mention} withdraws the trade" in w.channel.last_message.content
    assert dm_news(w, w.alice) == dm_news(w, w.bob) == dm_news(w, w.carol) == []
    # The turn goes on.
    await choose(w, bot, w.alice, "move N")
    assert seat_of((await live(bot, w)).game, w.alice)["at"] == "0,1"


async def test_an_answer_from_a_picker_opened_before_a_withdrawal_is_refused(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), emeralds=1)
    helpers.setup(game, str(w.bob.id), items=["eye", "flute"])
    await inject(bot, w, game, w.alice)
    for part in ("trade Blue", "trade give emerald", "trade ask item", "trade propose"):
        await choose(w, bot, w.alice, part)
    offer = await turn_message(bot, w)
    bob_picker = (await w.bob.click(offer, label="Show my choices")).response
    assert (await options(bot, w, bob_picker, w.bob)) == ["accept Eye", "accept Flute", "decline"]
    eye = widgets(bob_picker)[0]
    before = standing((await live(bot, w)).game)
    await choose(w, bot, w.alice, "withdraw")
    after = standing((await live(bot, w)).game)
    assert after == before

    r = await w.bob.click(bob_picker, custom_id=eye.custom_id)  # out of date now
    assert r.response is not None and r.response.ephemeral
    assert r.response.content.startswith("That board is out of date")
    game = (await live(bot, w)).game
    assert standing(game) == before and game.view(None)["trade"] is None
    assert hand(game, w.bob) == ["eye", "flute"] and hand(game, w.alice) == []
    assert item_leaks(r.response.content, {"eye", "flute"}) == []
