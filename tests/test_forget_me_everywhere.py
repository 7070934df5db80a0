"""``/game forget-me confirm:True`` leaves no name and no id of the person anywhere in the database
(SimCord, the real bot; SQLite and a real PostgreSQL; issue 39, fault 5): the whole database is
dumped and searched for their id, their mention and their display name, after they finished,
abandoned, left and hosted tables, played in a running game and set quiet hours. The tables that
were still open go on: the AI plays their seat, the host role has passed on."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.config import Settings
from bot.store.forgetting import FORMER
from tests.test_bot_async import advance

pytestmark = pytest.mark.simcord(settle_timeout=20)

NAME = "Quentin_Forgetful"
"""The display name of the person who asks to be forgotten (ASCII, so that JSON text shows it as is)."""


@pytest.fixture(params=["sqlite", "postgres"])
def settings(settings: Settings, request) -> Settings:
    if request.param == "sqlite":
        return dataclasses.replace(settings, scheduler_seconds=60)
    pg_url = request.getfixturevalue("pg_url")
    return dataclasses.replace(settings, database_url=pg_url, scheduler_seconds=60)


async def whole_database(store) -> str:
    """Every row of every table of the database, as one text."""
    if store.shared:
        names = await store.sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
        )
    else:
        names = await store.sql("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
    assert {"tables", "events", "seat_views", "people", "results", "ladders"} <= {n for (n,) in names}
    dumped = []
    for (name,) in names:
        dumped.append(f"{name}: {await store.sql(f'SELECT * FROM {name}')!r}")
    return "\n".join(dumped)


def traces(text: str, user_id: str) -> list[str]:
    """Where ``text`` still names the person: their id, their mention, their display name."""
    found = []
    for needle in (user_id, f"<@{user_id}>", NAME, json.dumps(NAME)[1:-1]):
        at = text.find(needle)
        if at >= 0:
            found.append(text[max(0, at - 120) : at + 60])
    return found


async def test_forget_me_leaves_no_name_or_id_anywhere_in_the_database(world, simcord_bot):
    w = world
    bot, env, guild = simcord_bot, world.env, world.guild
    q = guild.add_member(env.create_user(NAME))
    quentin = str(q.id)
    channels = {name: guild.create_text_channel(name) for name in "abcdef"}

    async def lobby(channel, opener, options="", *joiners):
        kwargs = {"options": options} if options else {}
        message = (await opener.slash(channel, "game new", game="Pebbles", **kwargs)).response
        for joiner in joiners:
            await joiner.click(message, label="Join")
        return message

    # a: quentin hosts, plays and wins a finished game (its result goes to the archive)
    message = await lobby(channels["a"], q, "pile=3 maxtake=3", w.bob)
    await q.click(message, label="Start")
    await q.click(channels["a"].last_message, label="take 3")
    await q.slash(channels["a"], "game stats")
    await q.slash(channels["a"], "game quiet", start="22:00", end="07:00", timezone="Europe/Berlin")
    # b: a lobby quentin joined and left; it stays open
    message = await lobby(channels["b"], w.bob, "", q, w.carol)
    await q.click(message, label="Leave")
    # c: a lobby quentin opened and abandoned
    await lobby(channels["c"], q, "", w.bob)
    confirm = await q.slash(channels["c"], "game abandon")
    await q.click(confirm.response, label="Abandon the game")
    # d: a running game quentin plays in (bob hosts): quentin has decided, by a click and by typing
    message = await lobby(channels["d"], w.bob, "pile=30 cheer=yes", q, w.carol)
    await w.bob.click(message, label="Start")
    await w.bob.click(channels["d"].last_message, label="take 1")
    await q.click(channels["d"].last_message, label="peek")
    await q.slash(channels["d"], "game play", action="take 1")
    # e: a lobby quentin hosts and sits in when asking
    await lobby(channels["e"], q, "", w.bob)
    # f: a running game quentin hosts, at their turn
    message = await lobby(channels["f"], q, "pile=30", w.carol)
    await q.click(message, label="Start")
    assert len(traces(await whole_database(bot.host.store), quentin)) == 4  # id, mention, name (twice)

    r = await q.slash(channels["a"], "game forget-me", confirm=True)
    said = r.response.content
    assert r.response.ephemeral and said.startswith("Done. You are forgotten:"), said
    assert "2 running game(s)" in said and "1 lobby(ies) left" in said, said
    await advance(env, 60)  # the AI plays quentin's former seat at f

    dump = await whole_database(bot.host.store)
    assert not traces(dump, quentin), traces(dump, quentin)
    assert FORMER in dump

    # the open tables go on without them
    b = await bot.host.current(channels["b"].id)
    assert b.record.seats == (str(w.bob.id), str(w.carol.id)) and b.record.host_id == str(w.bob.id)
    e = await bot.host.current(channels["e"].id)
    assert e.record.seats == (str(w.bob.id),) and e.record.host_id == str(w.bob.id)
    f = await bot.host.current(channels["f"].id)
    assert f.record.host_id == str(w.carol.id) and f.record.seats[0].startswith(FORMER)
    assert f.game.to_json()["pile"] < 30 and f.game.prompt().player == str(w.carol.id)  # the AI played
    d = await bot.host.current(channels["d"].id)
    assert d.game.prompt().player == str(w.carol.id)
    await w.carol.click(channels["d"].last_message, label="take 1")
    await w.bob.click(channels["d"].last_message, label="take 1")
    await advance(env, 60)
    d = await bot.host.current(channels["d"].id)
    assert d.game.prompt().player == str(w.carol.id) and d.game.to_json()["pile"] < 26  # the AI played
    log = (await w.carol.slash(channels["d"], "game log")).response.content
    assert "a former player" in log and q.mention not in log
    assert not traces(await whole_database(bot.host.store), quentin)
    assert not env.errors
