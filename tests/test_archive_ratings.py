"""Results and ratings from the stored tables, on both backends: known outcomes give the expected
order, ties share a place, bots are rated by level, an abandoned table changes nothing, a
rebuild equals the ratings kept up to date game by game, and a late result is put in order."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.archive import ledger
from bot.archive.ratings import MODEL, Ladder, Rating, build
from bot.archive.replay import log_rows
from bot.archive.results import game_result, policy, rated_player
from bot.engine.registry import GameRegistry, discover
from bot.store import open_store
from bot.tables import TableHost
from tests.archive_games import SHORT_ARGO, play
from tests.hostplay import Clock
from tests.pebbles import Pebbles

GUILD = 1


@pytest.fixture
async def host(store_url):
    store = await open_store(store_url)
    clock = Clock()
    made = TableHost(store, GameRegistry([*discover(), Pebbles]), clock=clock, seeder=lambda: 5)
    made.clock = clock  # type: ignore[attr-defined]
    yield made
    await store.close()


async def pebbles(
    host: TableHost, channel: int, people: list[str], takes: list[int], *, bots: str = "", guild: int = GUILD
) -> int:
    """A Pebbles table in ``channel`` with ``people`` (then bots, ``bots="easy hard"``) seated in
    that order, played with ``takes`` (each seat in turn takes that many); returns its id."""
    pile = sum(takes)
    levels = bots.split()
    table = await host.open_table(
        guild_id=guild,
        channel_id=channel,
        game_name="Pebbles",
        host_id=people[0],
        options_text=f"pile={pile} maxtake=9",
        seated=people[1:],
        bots=levels,
    )
    await host.start(channel, people[0])
    order = list(table.record.seats)
    for index, n in enumerate(takes):
        seat = order[index % len(order)]
        current = await host.current(channel)
        assert current is not None
        holder = current.holder_of(seat)
        if holder.startswith("bot:"):
            await host.play_for(
                channel, table.record.id, current.record.version, seat, {"type": "take", "n": n}
            )
        else:
            await host.act(channel, holder, {"type": "take", "n": n})
    host.clock.advance(minutes=1)  # type: ignore[attr-defined]
    return table.record.id


async def sync(host: TableHost) -> int:
    return await ledger.sync(host.store, host.registry)


async def test_known_outcomes_give_the_expected_order(host):
    # ann takes the last pebble every time; bob takes more than cid: ann > bob > cid
    for channel in range(10, 15):
        await pebbles(host, channel, ["ann", "bob", "cid"], [1, 2, 1, 3])
    await sync(host)
    ladder = await ledger.ladder(host.store, GUILD, "Pebbles")
    # takes go ann 1, bob 2, cid 1, ann 3: ann took the last one (4), bob 2, cid 1
    order = [player for player, _ in ladder.top()]
    assert order == ["ann", "bob", "cid"]
    assert ladder.ratings["ann"].mu > MODEL.mu > ladder.ratings["cid"].mu
    assert ladder.ratings["ann"].games == 5 and ladder.ratings["ann"].wins == 5
    assert ladder.ratings["bob"].wins == 0
    assert ladder.count == 5


async def test_a_tie_shares_a_place_and_moves_both_alike(host):
    # ann 2, bob 2, cid takes the last 2: cid wins, ann and bob tie (same score, no detail)
    table_id = await pebbles(host, 10, ["ann", "bob", "cid"], [2, 2, 2])
    await sync(host)
    result = (await ledger.results(host.store, GUILD, "Pebbles"))[0]
    assert result.table_id == table_id
    assert {s.player: s.place for s in result.seats} == {"cid": 1, "ann": 2, "bob": 2}
    ladder = await ledger.ladder(host.store, GUILD, "Pebbles")
    assert ladder.ratings["ann"] == ladder.ratings["bob"]
    assert ladder.ratings["cid"].mu > ladder.ratings["ann"].mu
    # against an untied game the loser of the pair would have lost more
    untied = await pebbles(host, 11, ["dan", "eve", "fay"], [1, 2, 3], guild=2)
    await sync(host)
    other = await ledger.ladder(host.store, 2, "Pebbles")
    assert other.ratings["dan"].mu < ladder.ratings["ann"].mu
    assert untied


async def test_bots_are_rated_by_level_and_two_of_a_level_count_once(host):
    # ann beats two easy bots: ann takes the last pebble; the bots (2 and 1 taken) 2nd and 3rd
    await pebbles(host, 10, ["ann"], [1, 2, 1, 2], bots="easy easy")
    await pebbles(host, 11, ["ann"], [1, 3], bots="hard")  # the hard bot wins
    await sync(host)
    ladder = await ledger.ladder(host.store, GUILD, "Pebbles")
    assert set(ladder.ratings) == {"ann", "bot:easy", "bot:hard"}
    assert ladder.ratings["bot:easy"].games == 1 and ladder.ratings["bot:easy"].wins == 0
    assert ladder.ratings["bot:hard"].wins == 1
    assert ladder.ratings["bot:hard"].mu > MODEL.mu > ladder.ratings["bot:easy"].mu
    assert not ladder.ratings["bot:easy"].provisional("bot:easy")
    assert ladder.ratings["ann"].provisional("ann")  # 2 of 5 games


async def test_an_abandoned_table_changes_nothing(host):
    await pebbles(host, 10, ["ann", "bob"], [1, 2])  # bob wins
    await sync(host)
    before = (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json()
    await host.open_table(guild_id=GUILD, channel_id=11, game_name="Pebbles", host_id="ann", seated=["bob"])
    await host.start(11, "ann")
    await host.act(11, "ann", {"type": "take", "n": 3})
    await host.abandon(11, "ann", may_manage=False)
    assert await sync(host) == 0
    assert await ledger.pending(host.store) == []
    assert (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json() == before
    assert len(await ledger.results(host.store, GUILD, "Pebbles")) == 1


async def test_a_rebuild_equals_the_ratings_kept_game_by_game(host):
    games = [
        (["ann", "bob", "cid"], [1, 2, 3], ""),
        (["bob", "ann"], [2, 2, 1], ""),
        (["cid", "ann"], [1, 1], "normal"),
        (["ann", "bob", "cid"], [2, 2, 2], ""),
        (["dan", "bob"], [4, 1, 1, 1], "hard"),
        (["cid", "dan", "ann"], [3, 1, 1, 2], ""),
    ]
    for channel, (people, takes, bots) in enumerate(games, start=10):
        await pebbles(host, channel, people, takes, bots=bots)
        assert await sync(host) == 1  # live: each game rated as it ends
    live = (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json()
    assert live["count"] == len(games)
    rebuilt = await ledger.rebuild(host.store, host.registry)
    assert rebuilt[(GUILD, "Pebbles")].to_json() == live
    stored = await host.store.sql(
        "SELECT data FROM ladders WHERE guild_id = ? AND game = ?", (GUILD, "Pebbles")
    )
    assert json.loads(stored[0][0]) == live
    # a ladder built by hand in the same order gives the very same floats
    assert build(await ledger.results(host.store, GUILD, "Pebbles")).to_json() == live


async def test_a_result_recorded_late_is_rated_in_the_order_games_ended(host):
    first = await pebbles(host, 10, ["ann", "bob"], [1, 2])
    await pebbles(host, 11, ["ann", "bob"], [2, 1])
    await pebbles(host, 12, ["ann", "bob"], [1, 1, 1])
    await sync(host)
    in_order = (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json()
    # as if the first game's result had not been recorded when the later two were rated
    await host.store.sql("DELETE FROM results WHERE table_id = ?", (first,))
    await host.store.sql("DELETE FROM result_seats WHERE table_id = ?", (first,))
    await host.store.sql("DELETE FROM ladders")
    later_two = await ledger.update_ladder(host.store, GUILD, "Pebbles")
    assert later_two.count == 2 and later_two.to_json() != in_order
    # the first game is found, and the ladder is rebuilt in the order the games ended
    assert await sync(host) == 1
    assert (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json() == in_order


async def test_results_come_from_the_log_for_games_finished_before_the_archive(host):
    """A finished table has no result row until the archive sees it; its result is rebuilt from
    the log and equals what the stored snapshot says."""
    table_id = await pebbles(host, 10, ["ann", "bob", "cid"], [1, 2, 3])
    assert await ledger.pending(host.store) == [table_id]
    record = await host.store.get_table(table_id)
    assert record is not None and record.state is not None
    result = game_result(Pebbles, record, await log_rows(host.store, table_id))
    assert result is not None
    snapshot = Pebbles.from_json(record.state).result()
    assert snapshot is not None
    assert [s.seat for s in result.ranked()] == snapshot.ranked()
    await sync(host)
    assert await ledger.pending(host.store) == []


async def ai_heavy_game(host: TableHost, channel: int, ai_turns: int, *, guild: int = GUILD) -> int:
    """ann and bob play Pebbles (pile 6, one pebble a turn); the AI takes the first ``ai_turns``
    of bob's three turns for him (as for someone away or timed out: ``by`` is logged). bob's
    seat takes the last pebble and wins."""
    table = await host.open_table(
        guild_id=guild,
        channel_id=channel,
        game_name="Pebbles",
        host_id="ann",
        options_text="pile=6 maxtake=1",
        seated=["bob"],
    )
    await host.start(channel, "ann")
    for turn in range(6):
        current = await host.current(channel)
        assert current is not None and current.game is not None
        seat = current.game.prompt().player
        if seat == "bob" and turn // 2 < ai_turns:
            await host.play_for(
                channel,
                table.record.id,
                current.record.version,
                seat,
                {"type": "take", "n": 1},
                by="bot:easy",
            )
        else:
            await host.act(channel, seat, {"type": "take", "n": 1})
    host.clock.advance(minutes=1)  # type: ignore[attr-defined]
    return table.record.id


async def test_a_seat_the_ai_played_most_of_is_unrated_and_the_others_still_count(host):
    await ai_heavy_game(host, 10, ai_turns=2)  # the AI took 2 of bob's 3 decisions
    await sync(host)
    result = (await ledger.results(host.store, GUILD, "Pebbles"))[0]
    bob = next(s for s in result.seats if s.seat == "bob")
    assert (bob.player, bob.winner, bob.decisions, bob.by_ai) == ("bob", True, 3, 2)
    assert not bob.rated and bob.stand_in == "bot:easy"
    ladder = await ledger.ladder(host.store, GUILD, "Pebbles")
    assert set(ladder.ratings) == {"ann"}  # bob is not credited with the AI's win
    assert ladder.ratings["ann"].games == 1 and ladder.ratings["ann"].mu < MODEL.mu  # ann lost, to the AI
    await ai_heavy_game(host, 11, ai_turns=1)  # 1 of 3: bob played most of it himself
    await sync(host)
    ladder = await ledger.ladder(host.store, GUILD, "Pebbles")
    assert ladder.ratings["bob"].games == 1 and ladder.ratings["bob"].wins == 1
    assert ladder.ratings["ann"].games == 2
    rebuilt = await ledger.rebuild(host.store, host.registry)
    assert rebuilt[(GUILD, "Pebbles")].to_json() == ladder.to_json()  # live equals rebuilt


async def test_the_rebuild_derives_results_recorded_before_the_policy_again(host):
    """A result recorded by an earlier version (before the policy) credited the person with the
    AI's play; ``ratings --rebuild`` derives it again from the log, and the ladder follows."""
    table_id = await ai_heavy_game(host, 10, ai_turns=3)
    await sync(host)
    rows = await host.store.sql("SELECT data FROM results WHERE table_id = ?", (table_id,))
    old = json.loads(rows[0][0])
    for seat in old["seats"]:  # as the earlier version stored it: no policy fields
        for key in ("decisions", "by_ai", "rated", "stand_in"):
            seat.pop(key)
    await host.store.sql("UPDATE results SET data = ? WHERE table_id = ?", (json.dumps(old), table_id))
    await host.store.sql("DELETE FROM ladders")
    await sync(host)
    assert "bob" not in (await ledger.ladder(host.store, GUILD, "Pebbles")).ratings  # nothing changed yet
    await ledger.update_ladder(host.store, GUILD, "Pebbles")
    assert (await ledger.ladder(host.store, GUILD, "Pebbles")).ratings["bob"].wins == 1  # the old policy
    rebuilt = await ledger.rebuild(host.store, host.registry)
    assert set(rebuilt[(GUILD, "Pebbles")].ratings) == {"ann"}
    result = (await ledger.results(host.store, GUILD, "Pebbles"))[0]
    assert not next(s for s in result.seats if s.seat == "bob").rated
    assert result.finished_at == old["finished_at"]  # the ladder's order is kept


def test_the_rating_policy():
    assert policy("111", decisions=10, by_ai=5)  # half: still the person's game
    assert not policy("111", decisions=10, by_ai=6)
    assert policy("111", decisions=0, by_ai=0)
    assert policy("bot:2", decisions=10, by_ai=10)  # a bot seat is rated for its level


def test_who_a_seat_is_rated_for():
    assert rated_player("111", "111") == "111"
    assert rated_player("111", "222") == "222"  # handed to another member: they finished it
    assert rated_player("111", "bot:hard") == "111"  # an AI finished a person's seat
    assert rated_player("bot:2", "bot:easy") == "bot:easy"


async def test_the_rebuild_command_recomputes_the_same_ratings(host, store_url, tmp_path):
    await pebbles(host, 10, ["ann", "bob", "cid"], [1, 2, 3])
    await pebbles(host, 11, ["bob", "ann"], [2, 2, 1], bots="easy")
    await sync(host)
    live = (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json()
    await host.store.sql("UPDATE ladders SET data = ?", (json.dumps(Ladder().to_json()),))  # spoil it
    host._seeder = lambda: SHORT_ARGO  # an Argo game finished, not yet recorded
    await play(host, 12, "Argo", ["cid", "ann"], SHORT_ARGO)
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "ratings", "--rebuild", "--database", store_url],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == [
        f"server {GUILD}, Argo: 1 game, 2 players rated",
        f"server {GUILD}, Pebbles: 2 games, 4 players rated",
    ]
    assert (await ledger.ladder(host.store, GUILD, "Pebbles")).to_json() == live
    argo = await ledger.ladder(host.store, GUILD, "Argo")
    assert argo.count == 1 and set(argo.ratings) == {"cid", "ann"}


def test_the_leaderboard_shows_the_top_ten_and_the_callers_place_below():
    from cogs.archive import leaderboard_text

    ladder = Ladder({str(n): Rating(mu=40 - n, sigma=2.0, games=10, wins=n) for n in range(1, 13)})
    ladder.ratings["bot:hard"] = Rating(mu=39.5, sigma=2.0, games=3, wins=3)
    ladder.ratings["7"].games = 2  # a person's first games: provisional
    lines = leaderboard_text("Argo", ladder, "12").splitlines()
    assert lines[1].startswith("🥇 Bots (hard) **33.5**") and lines[2].startswith("🥈 <@1> **33.0**")
    assert (
        len([line for line in lines if line.startswith(("🥇", "🥈", "🥉")) or line[:3].strip(". ").isdigit()])
        == 11
    )
    assert "*(provisional)*" in next(line for line in lines if "<@7>" in line)
    assert lines[-2:] == ["…", "13. <@12> **22.0** (μ 28.0 ± 2.0) · 10 games, 12 wins"]
    assert "…" not in leaderboard_text("Argo", ladder, "1")


async def test_the_archive_reads_on_both_backends(host):
    """The queries behind history, stats, replay's autocomplete and open tables, on each store."""
    first = await pebbles(host, 10, ["ann", "bob"], [1, 2])
    second = await pebbles(host, 11, ["cid", "ann"], [2, 1, 1])
    await pebbles(host, 12, ["dan", "eve"], [1, 1], guild=2)
    await host.open_table(guild_id=GUILD, channel_id=13, game_name="Pebbles", host_id="fay")
    await sync(host)
    found, total = await ledger.history(host.store, GUILD)
    assert total == 2 and [f.result.table_id for f in found] == [second, first]
    assert found[0].channel_id == 11 and found[0].message_id is None
    found, total = await ledger.history(host.store, GUILD, "bob", "Pebbles")
    assert total == 1 and found[0].result.table_id == first
    found, total = await ledger.history(host.store, GUILD, limit=1, offset=1)
    assert total == 2 and [f.result.table_id for f in found] == [first]
    assert await ledger.played_games(host.store, GUILD, "ann") == ["Pebbles"]
    assert await ledger.played_games(host.store, GUILD, "dan") == []
    assert await ledger.finished_tables(host.store, GUILD) == [(second, "Pebbles"), (first, "Pebbles")]
    assert await ledger.finished_tables(host.store, GUILD, f"#{first}") == [(first, "Pebbles")]
    assert [r.channel_id for r in await ledger.open_lobbies(host.store, GUILD)] == [13]
    assert await ledger.open_lobbies(host.store, 2) == []
