"""The turn message's questions about the log (what happened since a seat last decided, whether an
AI played for it, what a turn did, the latest lines, the board the seat last saw) are answered from
the table's chronicle in memory (bot/chronicle.py) exactly as the store's SQL answers them from the
log: compared after every action of whole games with people, bots, AIs playing for absent people,
only choices, hand-overs and reloads, on SQLite and on PostgreSQL; and across two processes sharing
a PostgreSQL database."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot import seats
from bot.chronicle import Chronicle
from bot.deadlines import ONLY_CHOICE
from bot.engine.registry import GameRegistry, discover
from bot.store import PostgresStore, open_store
from bot.table import turn_of
from bot.tables import OutOfDate, Table, TableError, TableHost
from tests.hostplay import Clock
from tests.pebbles import Pebbles

REGISTRY = GameRegistry([*discover(), Pebbles])


def grouped(rows: list[tuple[int, int | None, str]]) -> list[tuple[int | None, list[str]]]:
    """The store's ``since`` rows as ``(turn, lines)`` per turn (what a turn message summarises)."""
    groups: list[tuple[int | None, list[str]]] = []
    for _, turn, summary in rows:
        lines = [line for line in summary.splitlines() if line]
        if groups and groups[-1][0] == turn:
            groups[-1][1].extend(lines)
        else:
            groups.append((turn, lines))
    return groups


async def compare(host: TableHost, table: Table, seen: Counter[str], *, every_turn: bool) -> None:
    """Every question about the log, answered by the host and by the store, for every seat."""
    store, record = host.store, table.record
    turn = turn_of(table.game) if table.game is not None else None
    for seat in record.seats:
        since = await store.since(record.id, seat, turn)
        assert await host.since_last_decision(table, seat) == grouped(since)
        played = await store.played_for(record.id, seat, turn)
        assert await host.played_for(table, seat) == played
        board = await store.previous_view(record.id, seat, turn)
        assert await host.previous_view(table, seat) == board
        seen["since rows"] += len(since)
        seen["played for"] += played
        seen["boards"] += board is not None
        if every_turn and turn is not None:  # other turns than the current one
            chronicle = await host.chronicle(table)
            for other in (None, turn - 1, turn + 1):
                assert chronicle.since(seat, other, record.version) == await store.since(
                    record.id, seat, other
                )
                assert chronicle.played_for(seat, other, record.version) == await store.played_for(
                    record.id, seat, other
                )
                assert chronicle.previous_view(seat, other) == await store.previous_view(
                    record.id, seat, other
                )
    if turn is not None:
        for other in (turn, turn - 1):
            lines = await store.turn_summaries(record.id, other, record.version)
            assert await host.turn_summaries(table, other) == lines
            seen["turn lines"] += len(lines)
    for limit in (8, 20):
        lines = await store.recent_summaries(record.id, limit, upto=record.version)
        assert await host.history(record.channel_id, limit, upto=table) == lines


async def play_and_compare(
    host: TableHost, channel: int, game: str, seed: int, steps: int, options: str = ""
) -> Counter[str]:
    """A table of two people and a bot, played with random legal actions: people decide, an AI
    plays for a person now and then, an only choice is played for them, a seat is handed over
    once, the host reloads the table now and then; compared with the store after every action."""
    rng = random.Random(seed)
    host_id, other, newcomer = f"{channel}a", f"{channel}b", f"{channel}c"
    await host.open_table(
        guild_id=1, channel_id=channel, game_name=game, host_id=host_id, options_text=options
    )
    await host.join(channel, other)
    await host.add_bot(channel, host_id, "easy")
    outcome = await host.start(channel, host_id)
    seen: Counter[str] = Counter()
    await compare(host, outcome.table, seen, every_turn=True)
    for step in range(steps):
        table = await host.latest(channel)
        assert table is not None
        game_now = table.game
        if game_now is None or game_now.result() is not None:
            break
        prompt = game_now.prompt()
        assert prompt is not None
        deciders = [p for p in prompt.deciders() if game_now.legal_actions(p)]
        seat = rng.choice(deciders)
        legal = game_now.legal_actions(seat)
        action = rng.choice([a for a in legal if a["type"] not in ("cancel", "undo", "withdraw")] or legal)
        holder = table.holder_of(seat)
        record = table.record
        try:
            if step == steps // 3:
                await host.replace(channel, host_id, other, newcomer)  # a hand-over is logged too
                seen["hand-over"] += 1
            elif seats.is_bot(holder):
                await host.play_for(channel, record.id, record.version, seat, action)
                seen["bot"] += 1
            elif rng.random() < 0.2:
                await host.play_for(channel, record.id, record.version, seat, action, by="bot:normal")
                seen["AI for a person"] += 1
            elif rng.random() < 0.1:
                await host.play_for(channel, record.id, record.version, seat, action, by=ONLY_CHOICE)
                seen["only choice"] += 1
            else:
                await host.act(channel, holder, action, version=record.version)
                seen["in person"] += 1
        except TableError:
            continue
        if rng.random() < 0.05:
            host.forget(channel)  # reloaded: its chronicle is read from the store
            seen["reload"] += 1
        table = await host.latest(channel)
        assert table is not None
        await compare(host, table, seen, every_turn=step % 4 == 0)
    return seen


@pytest.mark.parametrize(
    ("game", "seed", "steps", "options"),
    [("Argo", 3, 170, ""), ("Argoat", 4, 260, ""), ("Pebbles", 5, 60, "pile=99 cheer=yes")],
)
async def test_the_chronicle_answers_as_the_store_does(store_url, game, seed, steps, options):
    host = TableHost(await open_store(store_url), REGISTRY, clock=Clock(), seeder=lambda: 7)
    try:
        seen = await play_and_compare(host, 9, game, seed, steps, options)
    finally:
        await host.close()
    # Every kind of question was asked with something to answer, not only empty logs.
    assert seen["since rows"] > 50 and seen["boards"] > 10 and seen["turn lines"] > 10, seen
    assert seen["in person"] > 10 and seen["bot"] > 5 and seen["hand-over"] == 1, seen
    assert seen["played for"] > 0 and seen["AI for a person"] > 0 and seen["reload"] > 0, seen


async def test_a_restarted_host_reads_the_chronicle_once_and_extends_it(tmp_path):
    path = tmp_path / "games.db"
    first = TableHost(await open_store(path), REGISTRY, clock=Clock(), seeder=lambda: 7)
    await play_and_compare(first, 4, "Argo", 8, 30)
    await first.close()
    host = TableHost(await open_store(path), REGISTRY, clock=Clock(), seeder=lambda: 7)  # a restart
    try:
        table = await host.current(4)
        assert table is not None and table.chronicle is None
        chronicle = await host.chronicle(table)
        assert chronicle.upto == table.record.version and (await host.current(4)).chronicle is chronicle
        seat = table.game.prompt().player
        outcome = await host.act(4, table.holder_of(seat), table.game.legal_actions(seat)[0])
        assert outcome.table.chronicle is chronicle and chronicle.upto == outcome.table.record.version
        await compare(host, outcome.table, Counter(), every_turn=True)
    finally:
        await host.close()


async def test_compressed_rows_answer_as_the_latest_rows_do(tmp_path):
    # Built with 3 rows kept as they are, nearly the whole log is in the compressed block.
    host = TableHost(await open_store(tmp_path / "games.db"), REGISTRY, clock=Clock(), seeder=lambda: 7)
    try:
        await play_and_compare(host, 6, "Argoat", 6, 120)
        table = await host.latest(6)
        rows, views = await host.store.chronicle_rows(table.record.id, table.record.version)
        small = Chronicle.from_store(rows, views, table.record.version, hot=3)
        whole = Chronicle.from_store(rows, views, table.record.version, hot=10_000)
        assert small._cold is not None and whole._cold is None
        turns = {row[1] for row in rows if row[1] is not None}
        for upto in range(1, table.record.version + 1, 7):
            for seat in table.record.seats:
                for turn in (None, *sorted(turns)[::5]):
                    assert small.since(seat, turn, upto) == whole.since(seat, turn, upto)
                    assert small.played_for(seat, turn, upto) == whole.played_for(seat, turn, upto)
            for turn in sorted(turns):
                assert small.turn_summaries(turn, upto) == whole.turn_summaries(turn, upto)
            assert small.recent(8, upto) == whole.recent(8, upto)
        assert whole.since(table.record.seats[-1], None, table.record.version)  # a bot's: the whole log
    finally:
        await host.close()


async def test_another_process_s_change_is_read_into_the_chronicle(pg_url):
    clock = Clock()
    one = TableHost(await PostgresStore.open(pg_url), REGISTRY, clock=clock, seeder=lambda: 7)
    two = TableHost(await PostgresStore.open(pg_url), REGISTRY, clock=clock, seeder=lambda: 7)
    try:
        await play_and_compare(one, 5, "Argo", 9, 12)
        stale = await two.current(5)  # two caches the table and builds its chronicle
        known = await two.chronicle(stale)
        table = await one.current(5)
        seat = table.game.prompt().player
        await one.act(5, table.holder_of(seat), table.game.legal_actions(seat)[0])  # behind two's back
        # A click in two finds its copy without asking the store (it is stale)...
        assert await two.current(5, check=False) is stale
        seat = stale.game.prompt().player
        drawn = stale.game.legal_actions(seat)[0]  # a choice drawn for that copy's board
        with pytest.raises(OutOfDate):  # ... is out of date under the table's lock,
            await two.act(5, stale.holder_of(seat), drawn, version=stale.record.version)
        # ... and a click drawn for the stored board is applied to it, its chronicle read again.
        now = await one.current(5)
        seat = now.game.prompt().player
        outcome = await two.act(
            5, now.holder_of(seat), now.game.legal_actions(seat)[0], version=now.record.version
        )
        chronicle = await two.chronicle(outcome.table)
        assert chronicle is not known and chronicle.upto == outcome.table.record.version
        await compare(two, outcome.table, Counter(), every_turn=True)
        assert known.upto == stale.record.version  # the stale copy's chronicle was never extended
    finally:
        await one.close()
        await two.close()
