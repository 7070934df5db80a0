"""A retired turn message keeps its own turn (SimCord, the real bot): its lines are every public
line of that turn and nothing else; one board is drawn per applying click, and a retired message
shows the board as its turn ended (the new turn message's)."""

from __future__ import annotations

import random

import pytest

import render
from bot.engine.core import format_text
from tests.driver import Driver, open_table, random_policy


async def test_a_retired_turn_message_says_its_whole_turn_and_only_it(world, simcord_bot, seeds):
    w = world
    seeds.value = 4
    await open_table(w.channel, "Argo", [w.alice, w.bob])
    actors = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(4)))
    host = simcord_bot.host
    message_of: dict[int, int] = {}
    for _ in range(60):
        table = await host.current(w.channel.id)
        if table is None or table.game.result() is not None:
            break
        message_of.setdefault(table.game.turn_marker()[0], table.record.message_id)
        if await driver.step() is None:
            break
    table = await host.latest(w.channel.id)
    names = table.names()
    lines: dict[int, list[str]] = {}
    rows = await host.store.sql(
        "SELECT turn, summary FROM events WHERE table_id = ? ORDER BY seq", (table.record.id,)
    )
    for turn, summary in rows:  # each action is logged with the turn it was taken in
        lines.setdefault(turn, []).extend(format_text(x, names) for x in summary.splitlines() if x)
    last = max(message_of)
    retired = [(turn, mid) for turn, mid in message_of.items() if turn != last and turn in lines]
    assert len(retired) >= 5
    long_turns = 0
    for turn, message_id in retired:
        content = driver.message(message_id).content
        shown = [line[2:] for line in content.splitlines() if line.startswith("• ")]
        own = lines[turn]
        assert f"turn {turn}" in content.splitlines()[0]
        assert shown == own[-len(shown) :] and set(own) <= set(shown), (turn, shown, own)
        long_turns += len(own) > 8
    assert long_turns >= 1  # turns longer than the eight lines a retired message used to keep


@pytest.mark.parametrize("game", ["Argo", "Argoat"])
async def test_each_applied_action_draws_at_most_one_board(world, simcord_bot, seeds, monkeypatch, game):
    """A click that applies an action draws exactly one board, also when it ends the turn (the
    retired message shows the new message's board); navigation clicks draw none. Actions the
    host plays right after (a player's only choice) draw at most one board each."""
    w = world
    drawn: list[int] = []
    draw = render.board_png

    def counted(view, previous=None):
        drawn.append(view.get("turn"))
        return draw(view, previous)

    monkeypatch.setattr(render, "board_png", counted)
    seeds.value = 5
    await open_table(w.channel, game, [w.alice, w.bob])
    actors = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    driver = Driver(w.env, simcord_bot, w.channel, actors, random_policy(random.Random(5)))
    host = simcord_bot.host

    async def applied() -> int:
        table = await host.latest(w.channel.id)
        rows = await host.store.sql("SELECT count(*) FROM events WHERE table_id = ?", (table.record.id,))
        return rows[0][0]

    retired = single_turn_ends = 0
    for _ in range(40):
        table = await driver.table()
        message_id, before, actions = table.record.message_id, len(drawn), await applied()
        turn = table.public_view()["turn"]
        if await driver.step() is None:
            break
        table = await driver.table()
        actions = await applied() - actions  # the click's action and any the host played after it
        boards = len(drawn) - before
        assert 1 <= boards <= actions, (game, table.record.version, actions, drawn[before:])
        if table.record.message_id != message_id and table.public_view()["turn"] != turn:
            retired += 1  # the turn passed: its message was retired
            single_turn_ends += actions == 1
            old, new = driver.message(message_id), driver.message(table.record.message_id)
            if actions == 1:  # the board as the turn ended: the new message's
                assert await old.attachments[0].read() == await new.attachments[0].read()
    assert retired >= 5 and single_turn_ends >= 3
