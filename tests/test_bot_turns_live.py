"""Bots' turns as they happen (SimCord): each bot's turn is on the table's message before the next
bot thinks, "thinking…" appears once people have waited for the bots, however many short
decisions that wait is made of, and due tables are tended side by side, each within its own error
boundary."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.engine.core import Action, Game
from tests.driver import Driver, random_policy
from tests.test_bot_async import (
    advance,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)
from tests.test_tending_isolation import pile, start_table, tending_errors

HOUR = 3600


def prompt_line(content: str) -> str:
    """The "▶ …" line of a turn message: whose decision it shows."""
    return next((line for line in content.splitlines() if line.startswith("▶")), "")


@pytest.mark.simcord(settle_timeout=30)
async def test_each_bot_turn_is_on_the_message_before_the_next_bot_thinks(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    seeds.value = 4
    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="bots=3 tm_wait=0")).response
    await w.alice.click(lobby, label="Start")
    asked: list[tuple[str, object, str]] = []  # (seat, turn, the message's "▶" line then)
    forced: list[str] = []  # decisions with one legal action that reached the AI
    rng = random.Random(4)

    async def quick(game: Game, seat: str, level: str, seed: int, **where: object) -> Action:
        table = await simcord_bot.host.current(w.channel.id)
        message = w.env.backend.messages[w.channel.id][table.record.message_id]
        turn, active = game.turn_marker()[:2]
        if game.prompt().player == seat == game.players[active]:  # its own turn (not a Time Machine's)
            asked.append((seat, turn, prompt_line(message.content)))
            if len(game.legal_actions(seat)) == 1:
                forced.append(game.notation(game.legal_actions(seat)[0]))
        return rng.choice([a for a in game.legal_actions(seat) if a["type"] not in ("undo", "cancel")])

    monkeypatch.setattr(simcord_bot.thinker, "choose", quick)
    policy = random_policy(random.Random(4), avoid=("cancel", "undo"))
    driver = Driver(w.env, simcord_bot, w.channel, {str(w.alice.id): w.alice}, policy)
    for _ in range(30):  # alice's first clicks: several stretches of three bot turns
        if await driver.step() is None:
            break
    table = await simcord_bot.host.latest(w.channel.id)
    names = table.names()
    firsts = [
        (seat, line)
        for i, (seat, turn, line) in enumerate(asked)
        if i == 0 or asked[i - 1][:2] != (seat, turn)
    ]
    assert len(firsts) >= 6
    # When a bot starts its turn, the message already shows that it is its turn: the turn of the
    # bot before it was shown as soon as it ended (not after all three bots were done).
    late = [(names[seat], line) for seat, line in firsts if names[seat] not in line]
    assert late == [], late
    assert forced == []  # a decision with a single legal action is taken without asking the AI


@pytest.mark.simcord(settle_timeout=1)  # the searches below wait on virtual time
async def test_thinking_shows_after_a_wait_made_of_short_decisions_once_per_wait(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    seeds.value = 3
    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="bots=1 tm_wait=0")).response
    await w.alice.click(lobby, label="Start")
    asked: list[float] = []
    rng = random.Random(3)

    async def short(game: Game, seat: str, level: str, seed: int, **where: object) -> Action:
        asked.append(asyncio.get_running_loop().time())
        await asyncio.sleep(1.2)  # each decision alone is well under the notice's 2 s
        return rng.choice([a for a in game.legal_actions(seat) if a["type"] not in ("undo", "cancel")])

    monkeypatch.setattr(simcord_bot.thinker, "choose", short)
    policy = random_policy(random.Random(3), avoid=("cancel", "undo"))
    driver = Driver(w.env, simcord_bot, w.channel, {str(w.alice.id): w.alice}, policy)
    thinking: list[str] = []
    for _ in range(40):
        table = await simcord_bot.host.current(w.channel.id)
        if table.game.prompt().player == str(w.alice.id):
            if len(asked) >= 8:
                break
            await driver.step()
            continue
        before = len(w.env.http_requests)
        await advance(w.env, 20, step=1)
        thinking += [
            r.json["content"]
            for r in w.env.http_requests[before:]
            if r.method == "PATCH"
            and isinstance(r.json, dict)
            and "is thinking…" in r.json.get("content", "")
        ]
    assert len(asked) >= 8  # the bot's turns were made of several decisions
    rows = await simcord_bot.host.store.sql(
        "SELECT DISTINCT turn FROM events WHERE table_id = 1 AND actor = 'bot:1' AND turn IS NOT NULL"
    )
    # each turn of the bot took 2.4 s or more (two decisions at least): said once per turn
    assert thinking, "the wait of several short decisions never said that the bot thinks"
    assert all(re.search(r"🤖 Bot \d \(\w+\) is thinking…$", text) for text in thinking)
    assert len(thinking) <= len(rows)


@pytest.mark.simcord(settle_timeout=20)
async def test_due_tables_are_tended_side_by_side_and_one_failing_stops_no_other(world, simcord_bot, caplog):
    w = world
    channels = [w.channel, *(w.guild.create_text_channel(f"table-{n}") for n in range(2, 5))]
    for number, channel in enumerate(channels):
        await start_table(w, channel, 20 + number)
    asked: dict[int, list[float]] = {}

    async def slow(game: Game, seat: str, level: str, seed: int, *, table: int, **where: object) -> Action:
        asked.setdefault(table, []).append(asyncio.get_running_loop().time())
        if table == 2:
            raise RuntimeError("the search of table 2 blew up")
        await asyncio.sleep(600)  # a long search, on virtual time
        return {"type": "take", "n": 1}

    simcord_bot.thinker.choose = slow  # type: ignore[method-assign]
    await advance(w.env, HOUR + 60, step=60)  # every clock ran out at the same moment
    await advance(w.env, 1200, step=300)
    firsts = {table: times[0] for table, times in asked.items()}
    assert sorted(firsts) == [1, 2, 3, 4]
    # side by side: every table's bot was asked within one scheduler round of the first, not one
    # long search after the other
    assert max(firsts.values()) - min(firsts.values()) < 60, firsts
    for number, channel in enumerate(channels):
        if number + 1 != 2:
            assert await pile(simcord_bot, channel) == 20 + number - 1  # its AI's move was played
    assert await pile(simcord_bot, channels[1]) == 21  # the failing table is unchanged …
    assert len(tending_errors(caplog, 2)) >= 1  # … logged, and it backs off alone
