"""Argoat secrets through the real bot (SimCord): peeks by DM, closed DMs, and a leak scan."""

from __future__ import annotations

import logging
import random
import re
from collections import Counter

from simcord import assert_responded

import tests.argoat.argoat_helpers as helpers
from bot.engine.argoat.data import ITEMS
from tests.driver import Driver
from tests.test_bot_argoat_kit import (
    FOREST_MAP,
    build,
    choose,
    dm_news,
    dms,
    forest_leaks,
    held_items,
    inject,
    item_leaks,
    live,
    message,
    message_text,
    open_argoat,
    options,
    pick,
    pinged,
    public_messages,
    turn_message,
)

ITEM_BY_NAME = {item.name: item.key for item in ITEMS}


def closed_dms(w, actor) -> None:
    """Every DM the bot sends ``actor`` fails as with closed DMs (403, code 50007)."""
    w.env.inject_error(
        "POST",
        f"/channels/{actor.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


async def eye_game(w, bot, seeds, monkeypatch, content: str = "Hollow"):
    """Alice (active) holds the Eye of the Dark Dragon; a face-down Dark Forest lies at 0,3."""
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players, FOREST_MAP, forests=[("0,3", "S", content)])
    helpers.setup(game, str(w.alice.id), items=["eye"])
    return await inject(bot, w, game, w.alice)


async def test_a_peek_with_the_eye_arrives_by_dm_naming_server_channel_and_game(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    await eye_game(w, simcord_bot, seeds, monkeypatch)
    await choose(w, simcord_bot, w.alice, "use Eye 0,3")
    assert dm_news(w, w.alice) == [["The Dark Forest (0,3) hides Hollow."]]
    assert dm_news(w, w.bob) == dm_news(w, w.carol) == []
    last = w.channel.last_message.content
    assert "uses the Eye of the Dark Dragon" in last and "explored the Dark Forest (0,3)" in last
    game = (await live(simcord_bot, w)).game
    for msg in public_messages(w):
        assert forest_leaks(message_text(msg), game) == []


async def test_closed_dms_tell_the_player_to_use_hand_and_the_game_goes_on(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    bot = simcord_bot
    turn = await eye_game(w, bot, seeds, monkeypatch)
    closed_dms(w, w.alice)
    r = await w.alice.click(turn, label="Use an Item")  # moves stay on the public message
    picker = r.response
    assert (await options(bot, w, picker, w.alice)) == [
        "use Eye 0,3"
    ]  # the Item and its target in one option
    result = await pick(bot, w, w.alice, picker, "use Eye 0,3")
    assert picker.content == "Done: `use Eye 0,3`"
    notices = [f for f in result.followups if "couldn't send you a DM" in f.content]
    assert len(notices) == 1 and notices[0].ephemeral
    assert re.search(r"/(game|argoat) hand", notices[0].content)
    assert "Hollow" not in notices[0].content and "0,3" not in notices[0].content
    assert dms(w.alice) == []
    game = (await live(bot, w)).game
    for msg in public_messages(w):
        assert forest_leaks(message_text(msg), game) == []
        assert "couldn't send" not in msg.content  # the user who clicked was told privately

    r = await w.alice.slash(w.channel, "argoat hand")
    assert_responded(r, ephemeral=True)
    assert "0,3: Hollow" in r.response.content
    assert r.response.id not in [m.id for m in w.channel.history(viewer=w.bob)]
    r = await w.alice.slash(w.channel, "game hand")
    assert r.response.ephemeral and "0,3: Hollow" in r.response.content
    r = await w.bob.slash(w.channel, "argoat hand")
    assert "Hollow" not in r.response.content and r.response.ephemeral

    # The game goes on: Alice moves from the public message and ends her turn; Bob plays next.
    await pick(bot, w, w.alice, await turn_message(bot, w), "move S")  # the Glittering Cave
    await choose(w, bot, w.alice, "end")
    table = await live(bot, w)
    assert table.game.prompt().player == str(w.bob.id)
    assert f"▶ {w.bob.mention}" in w.channel.last_message.content
    assert list(w.env.errors) == []


async def test_closed_dms_of_a_player_who_did_not_click_give_a_channel_notice(
    world, simcord_bot, seeds, monkeypatch
):
    """Bob accepts a trade that lets Alice look into his Dark Forest; Alice's DMs are closed."""
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    a, b, _ = (str(p.id) for p in players)
    game = build(monkeypatch, players, FOREST_MAP, forests=[("0,3", "S", "Eden")])
    helpers.setup(game, a, emeralds=1)
    helpers.marker(game, "0,3", b)
    await inject(bot, w, game, w.alice)
    closed_dms(w, w.alice)
    for part in ("trade Blue", "trade give emerald", "trade ask explore 0,3", "trade propose"):
        await choose(w, bot, w.alice, part)
    offer = await turn_message(bot, w)
    await pick(bot, w, w.bob, offer, "accept")
    notices = [m for m in public_messages(w) if "couldn't send you a DM" in m.content]
    assert len(notices) == 1
    notice = notices[0]
    assert notice.content.startswith(f"{w.alice.mention}:") and pinged(w, notice) == [w.alice.id]
    assert re.search(r"/(game|argoat) hand", notice.content)
    assert "Eden" not in notice.content and "0,3" not in notice.content
    game = (await live(bot, w)).game
    assert game.view(None)["forests"][0]["markers"] == ["Blue", "Red"]
    for msg in public_messages(w):
        assert forest_leaks(message_text(msg), game) == []
    r = await w.alice.slash(w.channel, "argoat hand")
    assert r.response.ephemeral and "0,3: Eden" in r.response.content
    assert dms(w.bob) == []
    assert game.prompt().player == a  # the game goes on


async def test_closed_dms_of_the_player_clicking_the_public_turn_message_are_told_privately(
    world, simcord_bot, seeds, monkeypatch
):
    """Bob accepts, on the public turn message, a trade giving him an Item; his DMs are closed."""
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    game = build(monkeypatch, players)
    helpers.setup(game, str(w.alice.id), items=["wings"])
    helpers.setup(game, str(w.bob.id), emeralds=1)
    await inject(bot, w, game, w.alice)
    closed_dms(w, w.bob)
    for part in ("trade Blue", "trade give item Wings", "trade ask emerald", "trade propose"):
        await choose(w, bot, w.alice, part)
    offer = await turn_message(bot, w)
    result = await pick(bot, w, w.bob, offer, "accept")
    notices = [f for f in result.followups if "couldn't send you a DM" in f.content]
    assert len(notices) == 1 and notices[0].ephemeral
    assert re.search(r"/(game|argoat) hand", notices[0].content) and "Wings" not in notices[0].content
    assert not [m for m in public_messages(w) if "couldn't send" in m.content]
    game = (await live(bot, w)).game
    for msg in public_messages(w):
        assert item_leaks(message_text(msg), {"wings"}) == []
    r = await w.bob.slash(w.channel, "argoat hand")
    assert r.response.ephemeral and "Wings of the Holy Dragon" in r.response.content
    assert dms(w.bob) == [] and game.prompt().player == str(w.alice.id)


def lively(rng: random.Random):
    """A random policy that likes trading and using Items (never cancels or undoes)."""

    def choose_action(game, player, actions):
        pool = [a for a in actions if a["type"] not in ("cancel", "undo")] or actions
        eager = [a for a in pool if a["type"] in ("use", "trade", "accept", "propose")]
        if eager and rng.random() < 0.35:
            return rng.choice(eager)
        return rng.choice(pool)

    return choose_action


class Watched:
    """An actor whose every click and selection is followed by a scan for leaked secrets."""

    def __init__(self, actor, scan):
        self._actor, self._scan = actor, scan

    async def click(self, *args, **kwargs):
        result = await self._actor.click(*args, **kwargs)
        await self._scan()
        return result

    async def select(self, *args, **kwargs):
        result = await self._actor.select(*args, **kwargs)
        await self._scan()
        return result


DM_ITEM = re.compile(r"(?:You drew|you received) (.+?)\.$")
DM_PEEK = re.compile(r"The Dark Forest \((-?\d+),(-?\d+)\) hides (Eden|Hollow)\.")


async def test_a_played_game_never_shows_a_secret_in_public_messages_or_logs(
    world, simcord_bot, seeds, monkeypatch, caplog
):
    caplog.set_level(logging.INFO)
    w = world
    bot = simcord_bot
    players = [w.alice, w.bob, w.carol]
    await open_argoat(w, seeds, players)
    a, b, c = (str(p.id) for p in players)
    game = build(monkeypatch, players, FOREST_MAP, forests=[("0,3", "S", "Eden")])
    helpers.setup(game, a, emeralds=2, items=["staff", "eye"])
    helpers.setup(game, b, emeralds=2, items=["book", "water"])
    helpers.setup(game, c, emeralds=2, items=["flute", "wings"])
    await inject(bot, w, game, w.alice)

    seen: dict[int, str] = {}
    dm_seen: dict[str, int] = {}
    stats: Counter[str] = Counter()
    hands_before: dict[str, set[str]] = {}

    async def scan() -> None:
        """Called after every click: check what changed in the channel and in the DMs."""
        game = (await live(bot, w)).game
        held = held_items(game)
        hands = {pid: set(game.view(pid)["you"]["items"]) for pid in game.players}
        for message_id, raw in w.env.backend.messages[w.channel.id].items():
            msg = message(w, message_id)
            text = message_text(msg)
            if seen.get(message_id) == text:
                continue
            seen[message_id] = text
            assert forest_leaks(text, game) == [], text
            if msg.ephemeral:  # shown to one player: it may name that player's Items only
                viewer = next(pid for pid in game.players if raw.visible_to(int(pid)))
                own = hands[viewer] | hands_before.get(viewer, set())
                others = {item.key for item in ITEMS} - own
                assert item_leaks(text, others) == [], (viewer, text)
                stats["private texts"] += 1
                continue
            stats["public texts"] += 1
            if held:
                stats["texts checked while Items are held"] += 1
            if "traded with" in text:
                stats["texts with a trade"] += 1
            assert item_leaks(text, held) == [], text
        hands_before.clear()
        hands_before.update(hands)
        for actor in players:
            pid = str(actor.id)
            got = dms(actor)
            for dm in got[dm_seen.get(pid, 0) :]:
                stats["dms"] += 1
                for line in dm.splitlines()[1:]:
                    if DM_ITEM.search(line):
                        stats["item dms"] += 1
                        names = [name for name in ITEM_BY_NAME if name in line]
                        assert names, line
                        for name in names:
                            assert ITEM_BY_NAME[name] in hands[pid], (pid, line)
                    elif found := DM_PEEK.search(line):
                        stats["peek dms"] += 1
                        peek = {"at": f"{found.group(1)},{found.group(2)}", "content": found.group(3)}
                        assert peek in game.view(pid)["you"]["peeks"], (pid, line)
            dm_seen[pid] = len(got)

    watched = {str(p.id): Watched(p, scan) for p in players}
    driver = Driver(w.env, bot, w.channel, watched, lively(random.Random(12)))
    kinds: Counter[str] = Counter()
    for _ in range(110):
        action = await driver.step()
        if action is None:
            break
        kinds[action["type"]] += 1
    # The scan saw trades, Items used and private news (else it proved nothing).
    assert kinds["accept"] >= 3 and kinds["use"] >= 3 and kinds["place"] >= 1, kinds
    assert stats["item dms"] >= 3 and stats["peek dms"] >= 2, stats
    assert stats["texts checked while Items are held"] >= 100 and stats["texts with a trade"], stats
    assert stats["private texts"] >= 50, stats
    final = (await live(bot, w)).game
    records = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert records, "no log record was captured"
    for record in records:
        text = record.getMessage()
        assert item_leaks(text, {item.key for item in ITEMS}) == [], text
        assert forest_leaks(text, final) == [], text
    # The public history kept by the bot (/game log) names no secret either.
    held = held_items(final)
    history = (await w.carol.slash(w.channel, "game log")).response.content
    assert history.startswith(("•", "…"))  # the latest lines (the oldest are cut)
    assert item_leaks(history, held) == [] and forest_leaks(history, final) == []
