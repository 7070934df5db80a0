"""The record is true (issue 35), through SimCord: a forgotten person is "a former player" in
history, leaderboard, stats and replays; a seat an AI played most of is unrated for its person
(forget-me mid-game, clocks that ran out); the replay's ranking covers nothing of the board and
names its tie-breaks; a bot seat has one name in the game, the viewer and history."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.archive import ledger
from bot.store.forgetting import FORMER
from cogs import replay_job
from render.animation import Animation
from tests.test_bot_archive import finish_argo_through_discord
from tests.test_bot_async import (
    advance,
    settings,  # noqa: F401  (a fixture: the scheduler looks every minute)
)
from tests.test_bot_history import open_pebbles

pytestmark = pytest.mark.simcord(settle_timeout=20)  # bots think in real time, on a busy machine too

HOUR = 3600
UNRATED = re.compile(r"a former player \(unrated: the AI played (\d+) of (\d+) decisions\)")


def last_frame(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    image.seek(image.n_frames - 1)
    return image.convert("RGB")


def viewer_pages(viewer) -> bool:
    return any(
        c.get("label") == "▶" and not c.get("disabled")
        for row in viewer.components
        for c in row["components"]
    )


def no_pictures(monkeypatch) -> list:
    """Replays of Pebbles (a test game without a board picture) drawn as a stand-in animation;
    returns the list where the jobs the cog asked to draw are put."""
    jobs: list = []
    stand_in = replay_job.DrawnReplay(Animation(b"GIF89a", 1, 1, 720, True), 0, True)
    monkeypatch.setattr(replay_job, "draw", lambda job: jobs.append(job) or stand_in)
    return jobs


async def every_viewer_page(actor, replay) -> list[str]:
    """The text of every page of the step-through viewer of ``replay`` (opened by ``actor``)."""
    viewer = (await actor.click(replay, label="Step through")).response
    pages = [viewer.content]
    while viewer_pages(viewer):
        viewer = (await actor.click(viewer, label="▶")).response
        pages.append(viewer.content)
    return pages


async def take(w, actor, n: int = 1) -> None:
    table = await w.env.bot.host.current(w.channel.id)
    assert table is not None and table.game.prompt().player == str(actor.id)
    await actor.click(w.channel.last_message, label=f"take {n}")


async def test_a_forgotten_player_is_a_former_player_in_history_leaderboard_stats_and_replays(
    world, monkeypatch
):
    w = world
    bot = w.env.bot
    await open_pebbles(w, "pile=2 maxtake=1")
    await take(w, w.alice)
    await take(w, w.bob)  # bob takes the last pebble: he wins
    final = w.channel.last_message
    assert "Game over" in final.content
    r = await w.bob.slash(w.channel, "game forget-me", confirm=True)
    assert r.response.content.startswith("Done. You are forgotten:")

    history = (await w.carol.slash(w.channel, "game history")).response.content
    assert "🥇 a former player, 🥈 " + w.alice.mention in history, history
    assert FORMER not in history and w.bob.mention not in history
    board = (await w.alice.slash(w.channel, "game leaderboard", game="Pebbles")).response.content
    assert FORMER not in board and "a former player" not in board and w.bob.mention not in board
    assert board.splitlines()[1:] == [next(line for line in board.splitlines() if w.alice.mention in line)]
    stats = (await w.alice.slash(w.channel, "game stats")).response.content
    assert FORMER not in stats and "Games 1 · wins 0" in stats

    jobs = no_pictures(monkeypatch)
    replay = (await w.carol.click(final, label="Replay")).response
    pages = await every_viewer_page(w.carol, replay)
    assert all(FORMER not in page and w.bob.mention not in page for page in pages)
    assert "a former player" in pages[0] and any("a former player's turn" in page for page in pages)
    frames = replay_job.frames_of(
        replay_job.rebuild(bot.host.game_class("Pebbles"), jobs[0].record, jobs[0].rows),
        bot.host.game_class("Pebbles"),
        1,
        jobs[0].labels,
    )
    pictured = " ".join(" ".join(f.caption + f.ranking) for f in frames)
    assert "a former player" in pictured and FORMER not in pictured and "bob" not in pictured

    # the stored ladder keeps the anonymised entry (so alice's rating stays what it was), and the
    # rebuild gives the very same ladder
    store = bot.host.store
    live = (await ledger.ladder(store, w.guild.id, "Pebbles")).to_json()
    assert str(w.bob.id) not in repr(live) and any(p.startswith(FORMER) for p in live["ratings"])
    rebuilt = await ledger.rebuild(store, bot.registry)
    assert rebuilt[(w.guild.id, "Pebbles")].to_json() == live
    assert not w.env.errors


async def test_a_seat_the_ai_played_most_of_is_unrated_after_forget_me_mid_game(world):
    """bob asks to be forgotten after two of his six turns: the AI plays the other four and takes
    the last pebble. The win is nobody's: his seat is unrated ("a former player"), alice's rating
    counts against the AI's."""
    w = world
    bot = w.env.bot
    await open_pebbles(w, "pile=12 maxtake=1 clock=0")
    for _ in range(2):
        await take(w, w.alice)
        await take(w, w.bob)
    await w.bob.slash(w.channel, "game forget-me", confirm=True)  # an AI takes his seat
    for _ in range(4):
        await take(w, w.alice)  # and the AI answers each at once
    assert "Game over" in w.channel.last_message.content

    history = (await w.carol.slash(w.channel, "game history")).response.content
    found = UNRATED.search(history)
    assert found is not None, history
    by_ai, decisions = int(found[1]), int(found[2])
    assert by_ai >= 4 and 2 * by_ai > decisions
    assert history.index("🥇 a former player (unrated") < history.index(f"🥈 {w.alice.mention}")
    board = (await w.alice.slash(w.channel, "game leaderboard", game="Pebbles")).response.content
    assert FORMER not in board and "a former player" not in board
    ladder = await ledger.ladder(bot.host.store, w.guild.id, "Pebbles")
    assert not any(p.startswith(FORMER) for p in ladder.ratings)  # nobody got the AI's win
    alice = ladder.ratings[str(w.alice.id)]
    assert alice.games == 1 and alice.wins == 0 and alice.mu < 25  # she lost, to the AI
    assert (await ledger.rebuild(bot.host.store, bot.registry))[(w.guild.id, "Pebbles")].to_json() == (
        ladder.to_json()
    )


async def test_a_seat_the_ai_played_while_its_clock_ran_out_is_unrated(world):
    """alice never plays: each hour her clock runs out and the AI plays her turn (idle=bot), bob
    plays his at once. The game is not rated for her, whoever wins; bob's is."""
    w = world
    bot = w.env.bot
    await open_pebbles(w, "pile=6 maxtake=1 clock=1 idle=bot away_after=0")
    for _ in range(3):
        await advance(w.env, HOUR + 60, step=1800)  # the AI plays alice's turn
        await take(w, w.bob)  # bob takes the last pebble
    assert "Game over" in w.channel.last_message.content
    history = (await w.carol.slash(w.channel, "game history")).response.content
    head = f"🥇 {w.bob.mention}, 🥈 {w.alice.mention} (unrated: the AI played "
    unrated = re.search(re.escape(head) + r"(\d+) of (\d+) decisions\)", history)
    assert unrated is not None and unrated[1] == unrated[2], history  # every decision of hers
    stats = (await w.alice.slash(w.channel, "game stats")).response.content
    assert "No rating yet: 1 game finished, none rated" in stats and "unrated" in stats
    board = (await w.bob.slash(w.channel, "game leaderboard", game="Pebbles")).response.content
    assert w.alice.mention not in board and w.bob.mention in board
    ladder = await ledger.ladder(bot.host.store, w.guild.id, "Pebbles")
    assert set(ladder.ratings) == {str(w.bob.id)} and ladder.ratings[str(w.bob.id)].mu > 25


async def test_the_replays_ranking_covers_nothing_of_the_board_and_names_the_tie_breaks(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    final = await finish_argo_through_discord(w, simcord_bot, seeds)
    jobs = []
    real_draw = replay_job.draw
    monkeypatch.setattr(replay_job, "draw", lambda job: jobs.append(job) or real_draw(job))
    replay = (await w.carol.click(final, label="Replay")).response
    ranked = last_frame(await replay.attachments[0].read())

    # the same replay drawn without its ranking: the final frame's caption and board are the same
    # pixels, and the ranking is a panel of its own below them
    real_frames = replay_job.frames_of

    def unranked(*args):
        frames = real_frames(*args)
        frames[-1].ranking = []
        return frames

    monkeypatch.setattr(replay_job, "frames_of", unranked)
    plain = last_frame(real_draw(jobs[0]).animation.data)
    top = ranked.crop((0, 0, plain.width, plain.height))  # caption, board header, board
    assert top.tobytes() == plain.tobytes()
    assert ranked.width == plain.width and ranked.height > plain.height
    panel = ranked.crop((0, plain.height, ranked.width, ranked.height))
    assert len(panel.getcolors(1 << 16) or ()) > 1  # something is written there

    pages = await every_viewer_page(w.carol, replay)
    places = [line for line in pages[-1].splitlines() if re.match(r"\d\. ", line)]
    assert len(places) == 2 and all("activation" in line and "escaped" in line for line in places)


async def test_a_bot_seat_has_one_name_in_the_game_the_viewer_and_history(world, monkeypatch):
    w = world
    bot = w.env.bot
    lobby = (
        await w.alice.slash(w.channel, "game new", game="Pebbles", options="pile=6 maxtake=1 bots=2")
    ).response
    await w.alice.click(lobby, label="Start")
    for _ in range(2):
        await take(w, w.alice)  # the two bots answer at once
    final = w.channel.last_message
    assert "Game over" in final.content
    in_game = " ".join(m.content for m in w.channel.history())
    assert "Bot 2 (normal)" in in_game and "Bot 3 (normal)" in in_game

    history = (await w.carol.slash(w.channel, "game history")).response.content
    assert "Bot 2 (normal)" in history and "Bot 3 (normal)" in history
    assert "Bot (normal)" not in history
    no_pictures(monkeypatch)
    replay = (await w.carol.click(final, label="Replay")).response
    pages = await every_viewer_page(w.carol, replay)
    assert "Seats: " + ", ".join([w.alice.mention, "Bot 2 (normal)", "Bot 3 (normal)"]) in pages[0]
    assert any("Bot 2 (normal)'s turn" in p for p in pages) and any(
        "Bot 3 (normal)'s turn" in p for p in pages
    )
    assert not any("Bot (normal)" in p for p in pages)
    # the ladder rates all normal bots as one entry (docs/archive.md), named as such
    board = (await w.alice.slash(w.channel, "game leaderboard", game="Pebbles")).response.content
    assert board.count("Bots (normal)") == 1 and "Bot (normal)" not in board
    ladder = await ledger.ladder(bot.host.store, w.guild.id, "Pebbles")
    assert set(ladder.ratings) == {str(w.alice.id), "bot:normal"}
