"""Seats changing hands through SimCord: everyone concerned is told by seat colour (the channel,
the new holder, the former holder), seats are offered by colour and the name their holder had
when they took them, and a former holder sees nothing of the seat any more."""

from __future__ import annotations

from tests.test_bot_argoat_kit import dms, live
from tests.test_bot_argoat_secrets import eye_game
from tests.test_bot_async import stored
from tests.test_bot_play import start_game


def notified(w, text: str) -> set[int]:
    """Who the channel message containing ``text`` really notified."""
    [found] = [m for m in stored(w.env, w.channel) if text in m.content]
    return set(found.ping_user_ids)


async def test_a_hand_over_tells_the_channel_the_new_and_the_former_holder_by_seat_colour(world):
    w = world
    await start_game(w, players=("alice", "bob", "carol"))
    await w.alice.slash(w.channel, "game replace", player=str(w.bob.id), member=w.dave)
    line = f"🔄 The 🟦 Blue seat (was {w.bob.mention}) is now played by {w.dave.mention}."
    assert notified(w, line) == {w.bob.id, w.dave.id}
    [told] = [text for text in dms(w.bob) if "is now played by" in text]
    assert "Your seat 🟦 Blue at **Pebbles** table #1" in told and f"<#{w.channel.id}>" in told
    assert f"now played by {w.dave.mention}" in told and "https://discord.com/channels/" in told
    [welcome] = [text for text in dms(w.dave) if "You now play" in text]
    assert "You now play the 🟦 Blue seat" in welcome and "lucky number" in welcome  # its secrets
    assert not [text for text in dms(w.carol) if "seat" in text]


async def test_leaving_a_running_game_names_the_seat_and_its_new_ai_player(world):
    w = world
    await start_game(w, options="pile=30")
    r = await w.bob.slash(w.channel, "game leave")
    await w.bob.click(r.response, label="Leave: an AI takes my seat")
    line = f"🔄 The 🟦 Blue seat (was {w.bob.mention}) is now played by Bot 2 (normal)."
    assert notified(w, line) == {w.bob.id}
    assert any("Your seat 🟦 Blue" in text and "Bot 2 (normal)" in text for text in dms(w.bob))


async def test_seats_are_offered_by_colour_and_the_name_kept_when_their_holder_took_them(world):
    w = world
    lobby = (await w.alice.slash(w.channel, "game new", game="Pebbles", options="bots=1")).response
    await w.bob.click(lobby, label="Join")
    await w.alice.click(lobby, label="Start")
    choices = await w.alice.autocomplete(w.channel, "game replace", "player", "")
    assert [c["name"] for c in choices] == [
        "🟥 Red seat: alice",
        "🟦 Blue seat: Bot 2 (normal)",
        "🟩 Green seat: bob",
    ]
    await w.alice.slash(w.channel, "game replace", player=str(w.bob.id), member=w.dave)
    choices = await w.alice.autocomplete(w.channel, "game replace", "player", "gre")
    assert [(c["name"], c["value"]) for c in choices] == [("🟩 Green seat: dave", str(w.bob.id))]


async def test_a_former_holder_sees_nothing_of_the_seat_in_autocompletes(
    world, simcord_bot, seeds, monkeypatch
):
    w = world
    await eye_game(w, simcord_bot, seeds, monkeypatch)  # alice (Red) holds the Eye
    assert await w.alice.autocomplete(w.channel, "argoat use", "action", "")
    assert await w.alice.autocomplete(w.channel, "argoat move", "action", "")
    await w.alice.slash(w.channel, "game replace", player=str(w.alice.id), member=w.dave)
    assert (await live(simcord_bot, w)).seat_of(str(w.alice.id)) is None
    for command in ("argoat use", "argoat move", "argoat trade", "argoat end", "game play"):
        assert await w.alice.autocomplete(w.channel, command, "action", "") == [], command
    used = await w.dave.autocomplete(w.channel, "argoat use", "action", "")
    assert any(c["value"].startswith("use Eye") for c in used)
    r = await w.alice.slash(w.channel, "game hand")
    assert "not playing" in r.response.content and "Eye" not in r.response.content
