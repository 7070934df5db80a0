"""/game forget-me (SimCord): on a finished table the person's id is gone from the record, the
log and the boards ("a former player" instead), on a running table an AI takes their seat; and the
store part on both backends."""

from __future__ import annotations

import pytest

from bot.store import open_store
from bot.store.forgetting import FORMER
from tests.test_bot_play import start_game


async def every_row(store, table_id: int) -> str:
    """Everything the database keeps about a table, as one text."""
    rows = [
        await store.sql(f"SELECT * FROM {name} WHERE {key} = ?", (table_id,))
        for name, key in (("tables", "id"), ("events", "table_id"), ("seat_views", "table_id"))
    ]
    return repr(rows)


async def test_forget_me_on_a_finished_and_a_running_table(world, simcord_bot):
    w = world
    store = simcord_bot.host.store
    bob = str(w.bob.id)
    turn = await start_game(w, options="pile=3 maxtake=3")  # alice and bob; alice wins at once
    await w.alice.click(turn, label="take 3")
    other = w.guild.create_text_channel("other")
    lobby = (await w.bob.slash(other, "game new", game="Pebbles")).response  # bob's running game
    await w.carol.click(lobby, label="Join")
    await w.bob.click(lobby, label="Start")
    running = await simcord_bot.host.current(other.id)
    assert running.record.status == "playing" and running.seat_of(bob) is not None
    before = await every_row(store, 1)

    r = await w.bob.slash(w.channel, "game forget-me")  # without confirm: what it would do
    assert r.response.ephemeral and "confirm:True" in r.response.content
    assert await every_row(store, 1) == before

    r = await w.bob.slash(w.channel, "game forget-me", confirm=True)
    said = r.response.content
    assert r.response.ephemeral and said.startswith("Done. You are forgotten:"), said
    assert "1 finished game(s)" in said
    assert f"1 running game(s): an AI plays your seat now (#{running.record.id})" in said

    finished = await every_row(store, 1)
    assert bob not in finished and str(w.alice.id) in finished and FORMER in finished
    log = (await w.alice.slash(w.channel, "game log")).response.content
    assert w.bob.mention not in log and w.alice.mention in log
    board = (await w.carol.slash(w.channel, "game board")).response.content
    assert "a former player" in board and w.bob.mention not in board

    now = await simcord_bot.host.current(other.id)
    seat = now.seat_of(bob)
    assert seat is None and now.record.status == "playing"
    holders = [now.holder_of(s) for s in now.record.seats]
    assert holders[0].startswith("bot:") and holders[1] == str(w.carol.id)
    assert any("Bot 1" in m.content for m in other.history()[-3:])  # the table shows the AI
    assert not w.env.errors

    with pytest.raises(Exception, match="append-only"):  # the log is append-only again
        await store.sql("UPDATE events SET summary = 'x' WHERE table_id = 1")


async def test_the_store_forgets_a_person_on_both_backends(store_url):
    store = await open_store(store_url)
    try:
        finished = await store.create_table(
            guild_id=1, channel_id=10, game="Pebbles", host_id="111", seats=("111", "222"),
            options={"pile": 3}, seed=1, now=_now(),
        )  # fmt: skip
        state = '{"players": ["111", "222"]}'  # (played and finished by the host elsewhere)
        await store.sql("UPDATE tables SET status = 'finished', state = ? WHERE id = ?", (state, finished.id))
        running = await store.create_table(
            guild_id=1, channel_id=11, game="Pebbles", host_id="111", seats=("111", "333"),
            options={}, seed=2, now=_now(),
        )  # fmt: skip
        await store.sql("INSERT INTO people (user_id, prefs) VALUES ('111', '{}'), ('222', '{}')")
        assert await store.forget_person("111", "former:abc") == 1
        assert await store.sql("SELECT user_id FROM people") == [("222",)]  # their quiet hours go
        text = repr(await store.sql("SELECT host_id, seats, state FROM tables WHERE id = ?", (finished.id,)))
        assert "111" not in text and "former:abc" in text and "222" in text
        actors = await store.sql("SELECT actor, action FROM events WHERE table_id = ?", (finished.id,))
        assert actors and "111" not in repr(actors)
        kept = repr(await store.sql("SELECT host_id, seats FROM tables WHERE id = ?", (running.id,)))
        assert "111" in kept  # open tables are the host's business (their seats go to the AI)
        with pytest.raises(Exception, match="append-only"):
            await store.sql("DELETE FROM events WHERE table_id = ?", (finished.id,))
        assert await store.forget_person("111", "former:def") == 0  # nothing left to forget
    finally:
        await store.close()


def _now():
    from datetime import UTC, datetime

    return datetime(2026, 1, 1, tzinfo=UTC)
