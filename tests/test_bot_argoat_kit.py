"""Shared helpers for the Argoat SimCord tests (this module holds no test of its own).

Games are opened in a channel through the real bot, then replaced by an exact situation built
with the engine test helpers (``tests/argoat/argoat_helpers.py``) for the seated users' ids.
"""

from __future__ import annotations

import json
import re
from typing import Any

import tests.argoat.argoat_helpers as helpers
from bot.engine.argoat import ArgoatGame
from bot.engine.argoat.data import ITEMS
from tests.driver import Driver, offered, open_table, press, put_game, widgets

FOREST_MAP = {**helpers.BASE, "0,2": "lake"}
"""The Adventurer start with Lake Heol north of the Temple; its Dark Forest goes at 0,3."""
ITEM_WORDS = {item.key: (item.name, item.token) for item in ITEMS}


async def open_argoat(w, seeds, players, *, seed: int = 1, options: str = "difficulty=adventurer"):
    """Open, fill and start an Argoat table in the world's channel (``players[0]`` hosts)."""
    seeds.value = seed
    await open_table(w.channel, "Argoat", players, options=options)


def build(monkeypatch, players, cards: dict[str, str] | None = None, *, forests=(), active=None):
    """An exact Argoat situation for the seated users (``helpers.scenario`` with their ids)."""
    ids = tuple(str(p.id) for p in players)
    monkeypatch.setattr(helpers, "PLAYERS", ids)
    return helpers.scenario(dict(cards or helpers.BASE), n=len(ids), forests=forests, active=active or ids[0])


async def inject(bot, w, game: ArgoatGame, actor):
    """Make ``game`` the channel's running game and post its turn message (via /game board)."""
    await put_game(bot, w.channel.id, game)
    return (await actor.slash(w.channel, "game board")).response


async def live(bot, w):
    """The channel's table as the bot holds it now."""
    return await bot.host.current(w.channel.id)


def message(w, message_id: int):
    """A channel message, read live."""
    return Driver(w.env, None, w.channel, {}, None).message(message_id)


async def turn_message(bot, w):
    """The message that shows the table now, read live."""
    return message(w, (await live(bot, w)).record.message_id)


def labels(msg) -> list[str]:
    """Button labels and select option labels of a message (the words a player reads), but
    the **?** button."""
    return [widget.label for widget in widgets(msg) if not widget.custom_id.startswith("hp:")]


async def options(bot, w, msg, actor=None) -> list[str]:
    """What a message offers: the notation of each picker option (of ``actor``'s private picker,
    or of the public turn message) and the label of every other button but **?**."""
    return await offered(bot, w.channel, msg, actor)


async def pick(bot, w, actor, msg, option: str):
    """``actor`` clicks the picker option whose notation is ``option`` (or the button labelled
    ``option``) on ``msg``."""
    return await press(bot, w.channel, actor, msg, option)


async def choose(w, bot, actor, notation: str) -> None:
    """``actor`` reaches ``notation`` through the current turn message's components, opening
    the private picker ("Show my choices", "Use an Item" or the out-of-turn button) when the bot
    asks for it."""
    driver = Driver(w.env, bot, w.channel, {}, None)
    table = await live(bot, w)
    seat = table.seat_of(str(actor.id))
    await driver.take(seat, table.game.parse(seat, notation), actor)
    assert (await live(bot, w)).record.version != table.record.version, f"{notation!r} not applied"


def standing(game: ArgoatGame) -> dict[str, Any]:
    """Everything every player knows (public view and each private view), apart from the
    prompt and the trade under way: what a declined or withdrawn trade must leave unchanged."""
    views = {"public": game.view(None), **{pid: game.view(pid) for pid in game.players}}
    for view in views.values():
        for key in ("prompt", "phase", "trade"):
            view.pop(key, None)
        if "you" in view:
            view["you"].pop("trade_items", None)
            view["you"].pop("trade_terms", None)
    return json.loads(json.dumps(views, sort_keys=True))


def seat_of(game: ArgoatGame, actor) -> dict[str, Any]:
    """The actor's entry in the public view's players."""
    return next(p for p in game.view(None)["players"] if p["id"] == str(actor.id))


def hand(game: ArgoatGame, actor) -> list[str]:
    """The Item keys the actor holds (from their private view)."""
    return list(game.view(str(actor.id))["you"]["items"])


def held_items(game: ArgoatGame) -> set[str]:
    """Every Item kind some player holds now."""
    return {k for pid in game.players for k in game.view(pid)["you"]["items"]}


def assert_refused(result, *mentions: str, start: str = "It is not your decision") -> None:
    """The click or command was refused with a private sentence (naming ``mentions``)."""
    assert result.response is not None and result.response.ephemeral
    text = result.response.content
    assert text.startswith(start), text
    for mention in mentions:
        assert mention in text, text


def public_messages(w) -> list[Any]:
    """Every channel message anyone can see (no ephemeral one), read live."""
    stored = w.env.backend.messages.get(w.channel.id, {})
    found = [message(w, mid) for mid in stored]
    return [m for m in found if not m.ephemeral]


def message_text(msg) -> str:
    """Everything readable in a message except attachments: content, embeds, component labels
    and select option descriptions."""
    parts = [msg.content or ""]
    parts += [json.dumps(e.to_dict()) for e in msg.embeds]
    parts += labels(msg)
    parts += [widget.description for widget in widgets(msg) if widget.description]
    return "\n".join(parts)


def pinged(w, msg) -> list[int]:
    """The users a channel message actually notified."""
    return list(w.env.backend.messages[w.channel.id][msg.id].ping_user_ids)


def dms(actor) -> list[str]:
    """Contents of the bot's DMs to ``actor``, oldest first."""
    return [m.content for m in actor.user.dm_channel.history()]


def dm_news(w, actor) -> list[list[str]]:
    """The news lines of each DM to ``actor`` (oldest first), after checking that each DM
    names the game, the table, the channel and the server it belongs to."""
    news = []
    for text in dms(actor):
        header, *lines = text.splitlines()
        assert "Argoat" in header and "#1" in header, header
        assert f"<#{w.channel.id}>" in header and w.guild.name in header, header
        news.append([line.removeprefix("• ") for line in lines])
    return news


_USES = re.compile(
    r"uses the (" + "|".join(re.escape(name) for name, _ in ITEM_WORDS.values()) + r")"
    r"|The Book of Wisdom has no effect"
)


def item_leaks(text: str, held: set[str]) -> list[str]:
    """Mentions of the Item kinds in ``held`` in ``text``, ignoring Items being played (public)."""
    text = _USES.sub("", text)
    found = []
    for key in held:
        name, token = ITEM_WORDS[key]
        if name in text or re.search(rf"\b{token}\b", text):
            found.append(key)
    return found


def forest_leaks(text: str, game: ArgoatGame) -> list[str]:
    """Lines of ``text`` that tell what a face-down Dark Forest hides."""
    flipped = {f["at"] for f in game.view(None)["forests"] if f["flipped"]}
    leaks = []
    for line in text.splitlines():
        if "hides" in line:
            leaks.append(line)
            continue
        if ("Eden" in line or "Hollow" in line) and not (
            "found Eden" in line or any(f"({cell}): it is" in line for cell in flipped)
        ):
            leaks.append(line)
    return leaks
