"""A retired turn message keeps its own turn (SimCord, the real bot): its lines are every public
line of that turn and nothing else, and its board is drawn as that turn ended."""

from __future__ import annotations

import random

from bot.engine.core import format_text
from render import argo
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


def test_a_retired_board_says_its_turn_is_over() -> None:
    from tests.render_argo.argo_games import public_views

    view = public_views(7)[40]
    live = [text for text, _ in argo.draw(view).texts]
    ended = [text for text, _ in argo.draw({**view, "turn_ended": True}).texts]
    assert any(t.endswith(" to play") for t in live) and "turn over" not in live
    assert "turn over" in ended and not any(t.endswith(" to play") for t in ended)
