"""Every turn of a person opens with a message that notifies them (SimCord): games of two people and
two bots, played through the components, counting each decision of a person that opened (someone
else acted since their last click) on a message that did not ping them; and the bots' turns in
between share one message."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot import seats
from tests.driver import Driver, random_policy
from tests.test_bot_async import settings  # noqa: F401  (a fixture: the scheduler looks every minute)
from tests.test_bot_bots import fixed_search  # noqa: F401  (a fixture)


def record_pings(env, monkeypatch) -> dict[int, list[int]]:
    """Who each message notified when it was posted (SimCord works out a message's pings again
    at each edit; an edit notifies nobody on Discord)."""
    pinged: dict[int, list[int]] = {}
    backend = env.backend
    commit = backend.commit_message

    def committed(message, *args, **kwargs):
        stored = commit(message, *args, **kwargs)
        pinged[stored.id] = list(stored.ping_user_ids)
        return stored

    monkeypatch.setattr(backend, "commit_message", committed)
    return pinged


class Watched(Driver):
    """A driver that, before each click, checks that a person whose decision just opened (the
    last logged action is not their own click) was notified by the message showing it."""

    unpinged: list[str]
    opened: int
    pinged_at_creation: dict[int, list[int]]

    async def step(self):
        table = await self.table()
        if table is not None and table.game is not None and table.game.result() is None:
            player = table.game.prompt().player
            if player is not None and not seats.is_bot(table.holder_of(player)):
                rows = await self.bot.host.store.sql(
                    "SELECT actor, action FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                    (table.record.id,),
                )
                actor, action = rows[0]
                if actor != player or '"by"' in action:
                    self.opened += 1
                    stored = self.env.backend.messages[self.channel.id][table.record.message_id]
                    if int(table.holder_of(player)) not in self.pinged_at_creation.get(stored.id, ()):
                        self.unpinged.append(stored.content[:300])
        return await super().step()


@pytest.mark.usefixtures("fixed_search")
@pytest.mark.simcord(settle_timeout=60)  # bots think between clicks, on a busy machine too
@pytest.mark.parametrize(("game", "seed"), [("Argo", 11), ("Argoat", 5)])
async def test_no_turn_of_a_person_opens_without_a_ping(
    world,
    simcord_bot,
    seeds,
    monkeypatch,
    game,
    seed,
):
    w = world
    seeds.value = seed
    pinged = record_pings(w.env, monkeypatch)
    lobby = (await w.alice.slash(w.channel, "game new", game=game, options="bots=2")).response
    await w.bob.click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")
    policy = random_policy(random.Random(seed), avoid=("cancel", "undo", "withdraw", "trade"))
    actors = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    driver = Watched(w.env, simcord_bot, w.channel, actors, policy)
    driver.unpinged, driver.opened = [], 0
    driver.pinged_at_creation = pinged
    for _ in range(80):  # the first 80 clicks of people
        if await driver.step() is None:
            break
    assert driver.opened >= 15
    assert driver.unpinged == [], "\n\n".join(driver.unpinged)
    # consecutive bot turns share one message: one per stretch of bot turns, not one per bot turn
    table = await simcord_bot.host.latest(w.channel.id)
    rows = await simcord_bot.host.store.sql(
        "SELECT turn, actor FROM events WHERE table_id = ? AND turn IS NOT NULL ORDER BY seq",
        (table.record.id,),
    )
    by_bots: dict[int, bool] = {}
    for turn, actor in rows:
        by_bots[turn] = by_bots.get(turn, True) and actor.startswith("bot:")
    order = sorted(by_bots)
    stretches = sum(1 for i, t in enumerate(order) if by_bots[t] and (i == 0 or not by_bots[order[i - 1]]))
    people_turns = sum(1 for t in order if not by_bots[t])
    boards = [m for m in w.env.backend.messages[w.channel.id].values() if m.attachments]
    assert stretches < sum(by_bots.values())  # some bot turns did follow each other
    # a bot's trade offer to a person opens a message of its own, pinging them for the answer,
    # and the bot's turn then goes on in a message after it
    acts = await simcord_bot.host.store.sql(
        "SELECT actor, action FROM events WHERE table_id = ? ORDER BY seq", (table.record.id,)
    )
    offers = [json.loads(a) for actor, a in acts if actor.startswith("bot:") and '"trade"' in a]
    to_people = sum(1 for a in offers if a.get("type") == "trade" and not a["with"].startswith("bot:"))
    assert len(boards) <= people_turns + stretches + 2 * to_people + 2


@pytest.mark.simcord(settle_timeout=1)  # the 2 s notice and the 2.5 s search wait on virtual time
async def test_a_bot_that_thinks_long_is_said_to_be_thinking(world, simcord_bot, monkeypatch):
    w = world
    lobby = (await w.alice.slash(w.channel, "game new", game="Pebbles", options="bots=1")).response
    await w.alice.click(lobby, label="Start")

    async def slow(*args, **kwargs):
        await asyncio.sleep(2.5)  # a long search (on virtual time), then a legal move
        return {"type": "take", "n": 1}

    monkeypatch.setattr(simcord_bot.thinker, "choose", slow)
    await w.alice.click(w.channel.last_message, label="take 1")
    await w.env.advance_time(3)
    edits = [
        r.json.get("content", "")
        for r in w.env.http_requests
        if r.method == "PATCH" and isinstance(r.json, dict) and r.json.get("content")
    ]
    assert any(text.endswith("🤖 Bot 2 (normal) is thinking…") for text in edits)
    table = await simcord_bot.host.current(w.channel.id)
    assert table.game.prompt().player == str(w.alice.id)  # the bot did move afterwards
    assert "is thinking" not in w.channel.last_message.content
