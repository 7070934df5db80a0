"""Bots at the table through SimCord: seating them in the lobby, solo tables played to the end
through components, a bot answering a trade, a restart while a bot is due to move, and one
decision made in a real worker process."""

from __future__ import annotations

import asyncio
import os
import random
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import bot.ai
import tests.argoat.argoat_helpers as helpers
from bot import workers as workers_server
from bot.config import Settings
from cogs.boards import BOARDS
from tests.driver import Driver, random_policy
from tests.test_bot_argoat_kit import choose, inject, labels, live, public_messages, seat_of

pytestmark = pytest.mark.simcord(settle_timeout=20)  # bots think in real time, on a busy machine too

HOUR = 3600
SCHEDULER_SECONDS = 60
SEARCH_ITERATIONS = 60
"""About what a 0.05 s budget buys here."""


@pytest.fixture
def workers() -> int:
    """AI worker processes of the test bot (0: a thread); a test may parametrize it."""
    return 0


@pytest.fixture
def settings(tmp_path: Path, workers: int) -> Settings:
    return Settings(
        token="test-token",
        database_path=tmp_path / "data" / "games.db",
        ai_workers=workers,
        ai_budget=0.05,
        scheduler_seconds=SCHEDULER_SECONDS,
    )


async def events(bot, table_id: int = 1) -> list[tuple[int, str, int | None, str]]:
    """The table's log rows as (seq, seat that acted, turn, public summary)."""
    rows = await bot.host.store.sql(
        "SELECT seq, actor, turn, summary FROM events WHERE table_id = ? ORDER BY seq", (table_id,)
    )
    return [tuple(row) for row in rows]


@pytest.fixture
def fixed_search(monkeypatch):
    """Bots search a fixed number of iterations instead of a time budget: a seed then gives the
    same whole game on every run, however busy the machine is."""
    real = bot.ai.choose_action

    def choose(game, player, *, level="normal", seed=0, **limits):
        return real(game, player, level=level, seed=seed, iterations=SEARCH_ITERATIONS)

    monkeypatch.setattr(bot.ai, "choose_action", choose)  # the Thinker looks it up at each call


# -- the lobby ------------------------------------------------------------------------------------


async def test_add_bot_and_remove_bot_by_button_and_command_host_only_until_full(world, simcord_bot):
    w = world
    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="level=easy")).response
    assert labels(lobby) == ["Join", "Leave", "Start", "Add bot"]
    await w.alice.click(lobby, label="Add bot")  # at the table's level
    assert "2. Bot 2 (easy)" in lobby.content and "2 seated" in lobby.content
    assert labels(lobby) == ["Join", "Leave", "Start", "Add bot", "Remove bot"]
    r = await w.alice.slash(w.channel, "game addbot", level="hard")
    assert (
        not r.response.ephemeral and "seated a bot at the **Argo** table #1 (3 seated)" in r.response.content
    )
    assert "3. Bot 3 (hard)" in lobby.content  # the lobby message follows
    table = await live(simcord_bot, w)
    assert table.record.seats == (str(w.alice.id), "bot:1", "bot:2")
    assert table.record.meta.holders == {"bot:1": "bot:easy", "bot:2": "bot:hard"}

    # only the host may seat or remove bots
    for denied in (
        await w.bob.click(lobby, label="Add bot"),
        await w.bob.click(lobby, label="Remove bot"),
        await w.bob.slash(w.channel, "game addbot"),
        await w.bob.slash(w.channel, "game removebot"),
    ):
        assert denied.response.ephemeral and denied.response.content.startswith("Only the host"), denied
    assert (await live(simcord_bot, w)).record.seats == table.record.seats

    # a full table refuses another bot
    await w.bob.click(lobby, label="Join")
    for full in (await w.alice.click(lobby, label="Add bot"), await w.alice.slash(w.channel, "game addbot")):
        assert full.response.ephemeral and full.response.content == "The table is full (4 of 4 seats)."
    assert len((await live(simcord_bot, w)).record.seats) == 4

    # the last bot seated leaves first; without bots there is nothing to remove
    r = await w.alice.slash(w.channel, "game removebot")
    assert "took a bot off the **Argo** table #1 (3 seated)" in r.response.content
    assert "Bot 3 (hard)" not in lobby.content and "2. Bot 2 (easy)" in lobby.content
    await w.alice.click(lobby, label="Remove bot")
    assert (await live(simcord_bot, w)).record.seats == (str(w.alice.id), str(w.bob.id))
    assert labels(lobby) == ["Join", "Leave", "Start", "Add bot"]
    r = await w.alice.slash(w.channel, "game removebot")
    assert r.response.ephemeral and r.response.content == "There is no bot at this table."


async def test_game_new_seats_bots_at_once_and_one_person_with_bots_can_start(world, simcord_bot, seeds):
    w = world
    seeds.value = 21
    r = await w.alice.slash(w.channel, "game new", game="Argo", options="bots=4")
    assert r.response.ephemeral and "seats at most 4 players, you included" in r.response.content
    assert await simcord_bot.host.store.tables() == []

    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="bots=3 level=hard")).response
    assert "4 seated" in lobby.content
    assert all(f"{n}. Bot {n} (hard)" in lobby.content for n in (2, 3, 4))
    assert "bots=" not in lobby.content  # seating bots is not an option of the game
    r = await w.bob.click(lobby, label="Join")
    assert r.response.ephemeral and "The table is full" in r.response.content

    await w.alice.click(lobby, label="Start")
    assert lobby.content == (
        f"**Argo** table #1 has started with {w.alice.mention}, Bot 2 (hard), Bot 3 (hard), Bot 4 (hard)."
    )
    table = await live(simcord_bot, w)
    assert table.record.status == "playing"
    # whoever plays first, the bots play by themselves until the person is awaited
    assert table.game.prompt().player == str(w.alice.id)
    assert f"▶ {w.alice.mention}" in w.channel.last_message.content
    assert w.channel.last_message.attachments  # the board


# -- solo tables played to the end ------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "bots", "seed", "options"),
    [
        ("Argo", 1, 3, "tm_wait=0"),
        ("Argo", 3, 4, "tm_wait=0"),
        ("Argoat", 2, 5, "difficulty=journeyman"),
    ],
)
async def test_a_solo_table_is_played_to_the_end_and_every_bot_turn_is_shown(
    world, simcord_bot, seeds, fixed_search, game, bots, seed, options
):
    w = world
    seeds.value = seed
    lobby = (await w.alice.slash(w.channel, "game new", game=game, options=f"bots={bots} {options}")).response
    await w.alice.click(lobby, label="Start")
    policy = random_policy(random.Random(seed), avoid=("cancel", "undo", "withdraw", "decline", "trade"))
    driver = Driver(w.env, simcord_bot, w.channel, {str(w.alice.id): w.alice}, policy)
    actions = await driver.play_to_end(max_actions=2000)  # alice's clicks; the bots play by themselves
    assert actions > 5

    table = await simcord_bot.host.latest(w.channel.id)
    assert table.record.status == "finished"
    names = table.names()
    bot_seats = [s for s in table.record.seats if s.startswith("bot:")]
    assert len(bot_seats) == bots
    final = w.channel.last_message
    assert "Game over" in final.content and labels(final) == ["Rematch", "Replay", "Stats"]
    ranking = [line for line in final.content.splitlines() if re.match(r"^(🥇|🥈|🥉|\d+\.) ", line)]
    assert len(ranking) == bots + 1  # everyone ranked, bots like people
    for name in names.values():
        assert sum(f" {name}: " in line for line in ranking) == 1, name
    assert set(w.env.backend.messages[w.channel.id][final.id].ping_user_ids) == {w.alice.id}

    # the bots' turns between two of alice's share one message, edited as they play (alice's
    # next turn message catches up on them: see test_bot_history)
    rows = await events(simcord_bot, table.record.id)
    bot_turns = sorted({turn for _, actor, turn, _ in rows if actor in bot_seats and turn is not None})
    assert len(bot_turns) >= 3
    messages = public_messages(w)
    alice_turns = {turn for _, actor, turn, _ in rows if actor == str(w.alice.id) and turn is not None}
    boards = [m for m in messages if m.attachments]
    if bots >= 2:  # bot turns follow each other: fewer messages than turns
        assert len(boards) < len(alice_turns) + len(bot_turns)
    # and every turn message but the last lost its components once its turn was over
    assert [m.id for m in messages if m.components] == [final.id]


# -- trades ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mine", "theirs", "parts", "answer"),
    [
        (["sun", "moon"], [], ("give fragment Sun", "give fragment Moon"), "accept"),
        ([], ["sun", "moon"], ("ask fragment Sun", "ask fragment Moon"), "decline"),
    ],
)
async def test_a_bot_answers_a_trade_by_itself_and_the_turn_goes_on(
    world, simcord_bot, seeds, monkeypatch, mine, theirs, parts, answer
):
    w = world
    bot = simcord_bot
    seeds.value = 1
    lobby = (
        await w.alice.slash(w.channel, "game new", game="Argoat", options="bots=2 difficulty=adventurer")
    ).response
    await w.alice.click(lobby, label="Start")
    alice = str(w.alice.id)
    monkeypatch.setattr(helpers, "PLAYERS", (alice, "bot:1", "bot:2"))
    game = helpers.scenario(dict(helpers.BASE), n=3, active=alice)
    helpers.setup(game, alice, emeralds=1, fragments=mine)
    helpers.setup(game, "bot:1", emeralds=1, fragments=theirs)
    await inject(bot, w, game, w.alice)

    for part in ("trade Blue", *(f"trade {p}" for p in parts)):
        await choose(w, bot, w.alice, part)
    before = await events(bot)
    await choose(w, bot, w.alice, "trade propose")

    # the offer was shown to the channel, then the bot answered it by itself
    rows = await events(bot)
    assert [row[1] for row in rows[len(before) :]] == [alice, "bot:1"]  # the offer, the answer
    log = await bot.host.store.log(1)
    assert log[-1].action["type"] == answer and log[-1].actor == "bot:1"
    offered = f"{w.alice.mention} offers Bot 2 (normal) a trade: "
    answered = (
        f"{w.alice.mention} traded with Bot 2 (normal): " if answer == "accept" else "Bot 2 (normal) declines"
    )
    contents = [m.content for m in public_messages(w)]
    # the offer had its own turn message (the bot decided next), then the answer was shown
    assert any(offered in c and answered not in c for c in contents)
    game = (await live(bot, w)).game
    latest = w.channel.last_message.content
    fragments = {p["id"]: p["fragments"] for p in game.view(None)["players"]}
    # Fragments are shared copies: the giver keeps theirs, the partner gets one if they accept
    assert fragments[alice] == mine
    assert fragments["bot:1"] == (["sun", "moon"] if answer == "accept" else theirs)
    assert game.prompt().player == alice and game.view(None)["trade"] is None
    assert answered in latest and f"▶ {w.alice.mention}" in latest

    await choose(w, bot, w.alice, "move N")  # alice's turn goes on
    assert seat_of((await live(bot, w)).game, w.alice)["at"] == "0,1"


# -- a restart while a bot is due to move -------------------------------------------------------


async def test_a_restart_while_a_bot_is_thinking_plays_its_move_once_afterwards(world, simcord_bot, make_bot):
    w = world
    lobby = (await w.alice.slash(w.channel, "game new", game="Pebbles", options="bots=1 pile=20")).response
    await w.alice.click(lobby, label="Start")

    thinking = []

    async def slow(game, seat, level, seed, **where):  # the old bot's search is still running at the restart
        thinking.append(seat)
        await asyncio.sleep(2 * HOUR)
        raise AssertionError("the old bot's search should have been stopped by the restart")

    simcord_bot.thinker.choose = slow
    turn = w.channel.last_message
    await w.alice.click(turn, label="take 2")
    table = await live(simcord_bot, w)
    assert thinking == ["bot:1"] and table.game.prompt().player == "bot:1"
    assert table.record.deadline is not None and table.record.deadline <= w.env.now()  # due now
    assert [row[1] for row in await events(simcord_bot)][-1] == str(w.alice.id)

    new_bot = make_bot()
    await w.env.restart_bot(new_bot)
    await simcord_bot.close()
    await w.env.advance_time(SCHEDULER_SECONDS)  # at the latest, the scheduler's next look
    table = await live(new_bot, w)
    log = await new_bot.host.store.log(1)
    moves = [e.action["type"] for e in log if e.actor == "bot:1"]
    assert [m for m in moves if m != "peek"] == ["take"] and log[-1].action["type"] == "take"  # once
    assert table.game.prompt().player == str(w.alice.id) and 15 <= table.game.to_json()["pile"] <= 17
    assert f"▶ {w.alice.mention}" in w.channel.last_message.content
    assert "Bot 2 (normal)" in w.channel.last_message.content  # its move was shown

    for _ in range(6):  # nothing more happens later, and the old search is gone
        await w.env.advance_time(HOUR / 2)
    assert await new_bot.host.store.log(1) == log
    assert thinking == ["bot:1"]


# -- the worker-process path ----------------------------------------------------------------------


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@pytest.mark.simcord(settle_timeout=60)
@pytest.mark.parametrize("workers", [1])
async def test_a_bot_decides_in_a_worker_process(world, simcord_bot, seeds, workers):
    w = world
    seeds.value = 3
    # No worker is started before a bot has to move (the worker server warms meanwhile).
    assert simcord_bot.thinker.worker_pids() == []
    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="bots=1 tm_wait=0")).response
    try:
        await w.alice.click(lobby, label="Start")
        driver = Driver(
            w.env, simcord_bot, w.channel, {str(w.alice.id): w.alice}, random_policy(random.Random(3))
        )
        for _ in range(30):  # alice plays until the bot has played (at once if it plays first)
            if any(row[1] == "bot:1" for row in await events(simcord_bot)):
                break
            await driver.step()
        assert any(row[1] == "bot:1" for row in await events(simcord_bot))
        pool = simcord_bot.thinker._pool
        assert isinstance(pool, ProcessPoolExecutor)
        # One worker, forked from the bot's worker server (where it found the AI warm).
        [worker] = simcord_bot.thinker.worker_pids()
        server = workers_server.server_pid()
        assert worker != os.getpid() and parent_of(worker) == server and parent_of(server) == os.getpid()
        assert simcord_bot.thinker.pools_started == 1
        table = await live(simcord_bot, w)
        assert table.game.prompt().player == str(w.alice.id)
        assert "Bot 2 (normal)" in w.channel.last_message.content
        # While a bot searches, boards go to the backup board worker at once.
        assert not BOARDS.hurry()
        searching = asyncio.ensure_future(simcord_bot.thinker.choose(table.game, str(w.alice.id), "easy", 1))
        await asyncio.sleep(0)
        assert BOARDS.hurry()
        await searching
        assert not BOARDS.hurry()
    finally:
        simcord_bot.thinker.close()
