"""The archive through SimCord: Replay and Stats on a final message, /game replay (also during a
game), the private step-through viewer, /game stats, leaderboard, history (paged) and open."""

from __future__ import annotations

import io
import random

from PIL import Image

from cogs import replay_job
from render.animation import Animation
from tests.archive_games import SHORT_ARGO, SKIP, play
from tests.test_bot_argoat_kit import forest_leaks, held_items, item_leaks
from tests.test_bot_lobby import labels


def ids(*members) -> list[str]:
    return [str(m.id) for m in members]


def gif_frame_count(data: bytes) -> int:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return image.n_frames


async def finish_argo_through_discord(w, bot, seeds):
    """An Argo game of alice and bob played by the host up to its last action, which alice or
    bob plays with /game play; returns the final message."""
    seeds.value = SHORT_ARGO
    await play(
        bot.host,
        w.channel.id,
        "Argo",
        ids(w.alice, w.bob),
        SHORT_ARGO,
        guild=w.guild.id,
        stop_before_end=True,
    )
    table = await bot.host.current(w.channel.id)
    game = table.game
    rng = random.Random(0)
    prompt = game.prompt()
    seat = next(p for p in prompt.deciders() if game.legal_actions(p))
    finishing = [a for a in game.legal_actions(seat) if a["type"] not in SKIP and _ends(game, seat, a)]
    action = rng.choice(finishing)
    actor = w.alice if seat == str(w.alice.id) else w.bob
    r = await actor.slash(w.channel, "game play", action=game.notation(action))
    assert not r.response.content.startswith("'"), r.response.content
    final = w.channel.last_message
    assert "Game over" in final.content
    return final


def _ends(game, seat, action) -> bool:
    trial = game.clone()
    trial.apply(seat, action)
    return trial.result() is not None


async def pebbles_game(w, bot, channel, first, second, takes):
    """A Pebbles table in ``channel`` of the world's guild, played by the host."""
    host = bot.host
    await host.open_table(
        guild_id=w.guild.id,
        channel_id=channel.id,
        game_name="Pebbles",
        host_id=str(first.id),
        seated=[str(second.id)],
        options_text=f"pile={sum(takes)} maxtake=9",
    )
    await host.start(channel.id, str(first.id))
    order = [first, second]
    for index, n in enumerate(takes):
        await host.act(channel.id, str(order[index % 2].id), {"type": "take", "n": n})


async def test_the_final_message_offers_replay_and_stats(world, simcord_bot, seeds):
    w = world
    final = await finish_argo_through_discord(w, simcord_bot, seeds)
    assert labels(final) == ["Rematch", "Replay", "Stats"]
    # rated as the game ended, before anyone asked
    store = simcord_bot.host.store
    assert await store.sql("SELECT table_id FROM results") == [(1,)]
    assert await store.sql("SELECT applied FROM ladders WHERE game = 'Argo'") == [(1,)]
    turns = simcord_bot.host.game_class("Argo").from_json((await simcord_bot.host.store.get_table(1)).state)
    r = await w.carol.click(final, label="Replay")  # anyone may watch it
    message = r.response
    assert not message.ephemeral
    assert "table #1" in message.content and "11 turns" in message.content
    assert [a.filename for a in message.attachments] == ["replay.gif"]
    data = await message.attachments[0].read()
    assert gif_frame_count(data) == turns.turn_marker()[0] + 1
    assert labels(message) == ["Step through"]
    # a "drawing" message answered at once, and was then edited into the replay
    first = [e.json for e in w.env.http_requests if e.path.endswith("/callback") and e.json.get("type") == 4]
    assert "Drawing the replay of **Argo** table #1" in first[-1]["data"]["content"]
    r = await w.alice.click(final, label="Stats")
    assert r.response.ephemeral
    text = r.response.content
    assert "**Argo**" in text and "Games 1" in text and "provisional (1 of 5 games)" in text
    assert "table #1" in text


async def test_a_replay_during_a_game_stops_at_the_current_turn(world, simcord_bot, seeds):
    w = world
    seeds.value = SHORT_ARGO
    await play(
        simcord_bot.host, w.channel.id, "Argo", ids(w.alice, w.bob), SHORT_ARGO, guild=w.guild.id, actions=12
    )
    table = await simcord_bot.host.current(w.channel.id)
    now = table.game.turn_marker()[0]
    r = await w.dave.slash(w.channel, "game replay")  # a spectator
    assert "still running" in r.response.content
    data = await r.response.attachments[0].read()
    frames = gif_frame_count(data)
    assert frames - 1 in (now, now - 1)  # up to the turn being played (or the last one done)
    # nothing was added to the game by watching it
    assert (await simcord_bot.host.current(w.channel.id)).record.version == table.record.version


async def test_the_viewer_pages_forward_and_back_privately(world, simcord_bot, seeds, monkeypatch):
    w = world
    await finish_argo_through_discord(w, simcord_bot, seeds)
    drawings = []
    real_draw = replay_job.draw
    monkeypatch.setattr(replay_job, "draw", lambda job: drawings.append(job.record.id) or real_draw(job))
    replay = (await w.bob.slash(w.channel, "game replay", table="1")).response
    again = (await w.carol.slash(w.channel, "game replay", table="1")).response
    assert drawings == [1]  # the same replay is drawn once
    assert await again.attachments[0].read() == await replay.attachments[0].read()
    public_ids = {m.id for m in w.channel.history()}
    r = await w.bob.click(replay, label="Step through")
    viewer = r.response
    assert viewer.ephemeral and viewer.id not in public_ids
    assert "the start (step 1 of 12)" in viewer.content
    assert [a.filename for a in viewer.attachments] == ["board.png"]
    r = await w.bob.click(viewer, label="▶")
    assert "turn 1 (step 2 of 12)" in r.response.content and "'s turn:" in r.response.content
    r = await w.bob.click(viewer, label="▶")
    assert "turn 2 (step 3 of 12)" in r.response.content
    r = await w.bob.click(viewer, label="◀")
    assert "turn 1 (step 2 of 12)" in r.response.content
    r = await w.bob.click(viewer, label="⏭")
    assert "turn 11 (step 12 of 12)" in r.response.content and "🏁" in r.response.content
    r = await w.bob.select(viewer, ["5"])
    assert "turn 5 (step 6 of 12)" in r.response.content
    assert {m.id for m in w.channel.history()} == public_ids  # paging posted nothing


async def test_stats_leaderboard_and_history(world, simcord_bot):
    w = world
    games = w.guild.create_text_channel("pebbles")
    for n in range(10):  # bob wins 7, alice 3
        channel = w.guild.create_text_channel(f"p{n}") if n else games
        if n < 7:
            await pebbles_game(w, simcord_bot, channel, w.alice, w.bob, [1, 2])  # bob takes the last
        else:
            await pebbles_game(w, simcord_bot, channel, w.alice, w.bob, [2, 1, 1])  # alice wins
    r = await w.bob.slash(w.channel, "game stats")
    text = r.response.content
    assert r.response.ephemeral and "**Pebbles**" in text
    assert "Games 10 · wins 7 (70 %) · best finish 1st" in text
    assert "provisional" not in text and text.count("table #") == 5
    r = await w.carol.slash(w.channel, "game stats", member=w.alice)
    assert "Games 10 · wins 3 (30 %)" in r.response.content
    r = await w.carol.slash(w.channel, "game stats")
    assert "has not finished a game on this server yet" in r.response.content
    r = await w.carol.slash(w.channel, "game leaderboard", game="Pebbles")
    board = r.response.content.splitlines()
    assert board[1].startswith(f"🥇 {w.bob.mention}") and board[2].startswith(f"🥈 {w.alice.mention}")
    r = await w.carol.slash(w.channel, "game history")
    first = r.response
    assert "page 1 of 2" in first.content and first.content.count("• **#") == 8
    assert first.content.splitlines()[1].startswith("• **#10 Pebbles**")  # newest first
    r = await w.carol.click(first, label="Older ▶")
    assert "page 2 of 2" in r.response.content and "• **#1 Pebbles**" in r.response.content
    r = await w.carol.click(r.response, label="◀ Newer")
    assert "page 1 of 2" in r.response.content
    choices = await w.carol.autocomplete(w.channel, "game replay", "table", "")
    assert [c["value"] for c in choices] == [str(n) for n in range(10, 0, -1)]
    assert choices[0]["name"] == "#10 Pebbles"
    assert [c["value"] for c in await w.carol.autocomplete(w.channel, "game replay", "table", "1")] == [
        "10",
        "1",
    ]
    r = await w.carol.slash(w.channel, "game history", member=w.carol)
    assert "No finished tables" in r.response.content


async def test_open_lists_lobbies_waiting_for_players_unless_unlisted(world, simcord_bot):
    w = world
    other = w.guild.create_text_channel("more")
    hidden = w.guild.create_text_channel("quiet")
    await w.alice.slash(w.channel, "game new", game="Argo", options="difficulty=hard")
    await w.bob.slash(other, "game new", game="Argoat")
    await w.carol.slash(hidden, "game new", game="Argo", options="listed=off")
    r = await w.dave.slash(w.channel, "game open")
    assert r.response.ephemeral
    head, argo, argoat = r.response.content.splitlines()
    assert head == "🪑 Tables waiting for players:"
    assert argo.startswith(f"• **#1 Argo** in <#{w.channel.id}> · 1 of 4 seats taken, 3 free")
    assert "difficulty=hard" in argo
    assert argoat.startswith(f"• **#2 Argoat** in <#{other.id}> · 1 of 5 seats taken, 4 free")
    await w.bob.slash(w.channel, "game join")
    r = await w.dave.slash(w.channel, "game open")
    assert "**#1 Argo** in" in r.response.content and "2 of 4 seats taken, 2 free" in r.response.content
    assert "#3" not in r.response.content


async def test_open_leaves_out_full_lobbies(world, simcord_bot):
    """A lobby whose seats are all taken waits for its host to start, not for players."""
    w = world
    full = w.guild.create_text_channel("full")
    lobby = (await w.alice.slash(full, "game new", game="Pebbles")).response  # 3 seats at most
    await w.bob.click(lobby, label="Join")
    await w.carol.click(lobby, label="Join")
    await w.dave.slash(w.channel, "game new", game="Pebbles")
    r = await w.dave.slash(w.channel, "game open")
    lines = r.response.content.splitlines()
    assert lines[1:] and all("#1 Pebbles" not in line for line in lines), lines
    assert len(lines) == 2 and lines[1].startswith(f"• **#2 Pebbles** in <#{w.channel.id}> · 1 of 3 seats")
    await w.carol.click(lobby, label="Leave")  # a seat is free again: listed again
    r = await w.dave.slash(w.channel, "game open")
    assert "**#1 Pebbles**" in r.response.content and "2 of 3 seats taken, 1 free" in r.response.content


async def test_bad_input_gets_a_short_answer(world, simcord_bot):
    w = world
    r = await w.alice.slash(w.channel, "game replay")
    assert r.response.ephemeral and "No game has been finished in this channel" in r.response.content
    r = await w.alice.slash(w.channel, "game replay", table="abc")
    assert r.response.ephemeral and "by its number" in r.response.content
    r = await w.alice.slash(w.channel, "game replay", table="99")
    assert r.response.ephemeral and "no table #99 on this server" in r.response.content
    r = await w.alice.slash(w.channel, "game stats", game="Chess")
    assert r.response.ephemeral and "Unknown game" in r.response.content


async def test_no_viewer_page_of_a_running_argoat_game_tells_a_secret(world, simcord_bot, seeds, monkeypatch):
    """Every page of the step-through viewer (a spectator's) against the Items held and the Dark
    Forests still face down at the moment it is read: the same text scans as the turn messages."""
    w = world
    seeds.value = 1

    def secretive(game) -> bool:  # some turns in, Items in hand, Dark Forests face down
        hidden = [f for f in game.view(None)["forests"] if not f["flipped"]]
        return game.turn_marker()[0] > 6 and bool(held_items(game)) and bool(hidden)

    await play(
        simcord_bot.host, w.channel.id, "Argoat", ids(w.alice, w.bob), 1, guild=w.guild.id, until=secretive
    )
    game = (await simcord_bot.host.current(w.channel.id)).game
    held = held_items(game)
    assert held, "the position should have Items in hand"
    # only the viewer is read here (the GIF's frames are checked in test_archive_replay.py)
    stand_in = Animation(b"GIF89a", 1, 1, 720, True)
    monkeypatch.setattr(replay_job, "draw", lambda job: replay_job.DrawnReplay(stand_in, 0, False))
    replay = (await w.dave.slash(w.channel, "game replay")).response
    viewer = (await w.dave.click(replay, label="Step through")).response
    pages = 1
    text = viewer.content

    def can_go_on(message) -> bool:
        return any(
            c.get("label") == "▶" and not c.get("disabled")
            for r in message.components
            for c in r["components"]
        )

    while can_go_on(viewer):
        assert item_leaks(text, held) == [] and forest_leaks(text, game) == [], text
        viewer = (await w.dave.click(viewer, label="▶")).response
        text = viewer.content
        pages += 1
    assert item_leaks(text, held) == [] and forest_leaks(text, game) == []
    assert pages > 6 and "still running" in text
