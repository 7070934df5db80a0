"""/game rules through the real bot (SimCord): the overview, a page per topic, autocomplete of
topics filtered by the chosen game and the typed text, and short answers for unknown topics."""

from __future__ import annotations

from bot.engine.argo import ArgoGame
from bot.engine.argo.data import MODULE_EFFECTS, TIME_MACHINE
from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import ITEM_BY_KEY


async def rules(actor, channel, **options):
    r = await actor.slash(channel, "game rules", **options)
    assert r.response.ephemeral
    assert r.response.id not in [m.id for m in channel.history()]  # nobody else sees it
    return r.response.content


async def test_the_overview_when_no_topic_is_given(world):
    w = world
    text = await rules(w.alice, w.channel, game="Argo")
    assert text == ArgoGame.help_topics()["overview"].message("Argo")
    assert text.startswith("📖 **Argo rules · Overview**") and "`time-machine`" in text and "`grunt`" in text
    text = await rules(w.alice, w.channel, game="Argoat")
    assert text.startswith("📖 **Argoat rules · Overview**") and "`eye-of-the-dark-dragon`" in text


async def test_a_page_per_topic_by_topic_or_title_in_any_case(world):
    w = world
    page = ArgoGame.help_topics()["time-machine"].message("Argo")
    assert await rules(w.alice, w.channel, game="Argo", topic="time-machine") == page
    assert await rules(w.alice, w.channel, game="Argo", topic="Time Machine") == page
    assert MODULE_EFFECTS[TIME_MACHINE] in page and "tm_wait" in page
    text = await rules(w.alice, w.channel, game="Argoat", topic="Eye of the Dark Dragon")
    assert text.startswith("📖 **Argoat rules · Eye of the Dark Dragon**")
    assert ITEM_BY_KEY["eye"].text in text
    assert len(text) <= 2000


async def test_the_game_defaults_to_the_channels_table(world):
    w = world
    await w.alice.slash(w.channel, "game new", game="Argoat")
    text = await rules(w.bob, w.channel, topic="hollow")
    assert text == ArgoatGame.help_topics()["hollow"].message("Argoat")
    choices = await w.bob.autocomplete(w.channel, "game rules", "topic", "wings")
    assert [c["value"] for c in choices] == ["wings-of-the-holy-dragon"]


async def test_unknown_and_ambiguous_topics_get_a_short_answer(world):
    w = world
    text = await rules(w.alice, w.channel, game="Argo", topic="Bleina")
    assert text == "There is no Argo rules page 'Bleina'. `/game rules game:Argo` lists every page."
    text = await rules(w.alice, w.channel, game="Argo", topic="room")
    assert text.startswith(
        "Several Argo rules pages match 'room': `waking-room`, `control-room`, `jump-room`"
    )
    assert len(text) < 300
    text = await rules(w.alice, w.channel, game="Chess", topic="lab")
    assert text.startswith("Unknown game 'Chess'. Choose one of: Argo, Argoat")
    assert "Which game?" in await rules(w.alice, w.channel, topic="lab")  # no table here


async def test_a_game_without_pages_keeps_its_summary(world):
    w = world
    text = await rules(w.alice, w.channel, game="Pebbles", topic="anything")
    assert text.startswith("**Pebbles** (2–3 players)") and "whoever takes the last pebble wins" in text


async def test_topic_autocomplete_follows_the_chosen_game_and_the_typed_text(world):
    w = world

    async def offered(game, typed):
        return await w.alice.autocomplete(w.channel, "game rules", "topic", typed, game=game)

    argo = await offered("Argo", "")
    assert len(argo) == 25 and argo[0] == {"name": "Overview (Basics)", "value": "overview"}
    assert all(len(c["name"]) <= 100 for c in argo)
    assert [c["value"] for c in await offered("Argo", "pilot")] == ["pilot"]
    rooms = ["waking-room", "control-room", "jump-room", "core-room", "safe-room"]
    assert [c["value"] for c in await offered("Argo", "room")] == rooms
    items = await offered("Argoat", "items")
    assert items[0]["value"] == "items" and {c["value"] for c in items[1:]} == {
        "staff-of-guidance",
        "book-of-wisdom",
        "eye-of-the-dark-dragon",
        "wings-of-the-holy-dragon",
        "water-of-life",
        "flute-of-cleansing",
    }
    assert await offered("Argoat", "time machine") == []  # an Argo page, not an Argoat one
    assert await offered("Chess", "") == []
