"""Plays games through the bot's components only, as players would, for SimCord tests.

A *policy* picks which legal action the deciding player wants; the driver then reaches it by
clicking the buttons and select options the bot offers, token by token (following pages and
skipped single-way steps), on the public turn message or in the private picker.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from simcord.results import ResponseMessage

from bot.engine.core import Action, Game
from cogs.picker import DONE

Policy = Callable[[Game, str, list[Action]], Action]
NAVIGATION = ("↩ Back", "◀ Previous", "Next ▶")


def random_policy(rng: random.Random, avoid: tuple[str, ...] = ("cancel", "undo")) -> Policy:
    """Pick a random legal action, never one whose verb is in ``avoid`` if anything else exists."""

    def choose(game: Game, player: str, actions: list[Action]) -> Action:
        preferred = [a for a in actions if game.notation(a).split()[0] not in avoid]
        return rng.choice(preferred or actions)

    return choose


@dataclass
class Widget:
    """One clickable thing on a message: a button, or one option of a select."""

    label: str
    custom_id: str
    value: str | None = None  # set for select options


def widgets(message: Any) -> list[Widget]:
    """Buttons and select options of a simcord ResponseMessage or a discord.Message."""
    found: list[Widget] = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for c in children:
            data = c if isinstance(c, dict) else c.to_dict()
            if data.get("type") == 2 and data.get("label"):
                found.append(Widget(data["label"], data["custom_id"]))
            elif data.get("type") == 3:
                for option in data.get("options", []):
                    found.append(Widget(option["label"], data["custom_id"], option["value"]))
    return found


@dataclass
class Driver:
    """Drives one channel's table of a SimCord world through its components."""

    env: Any
    bot: Any
    channel: Any
    actors: dict[str, Any]  # player id -> MemberActor
    policy: Policy
    clicks: int = 0
    turn_messages: list[int] = field(default_factory=list)

    async def table(self):
        return await self.bot.host.current(self.channel.id)

    def message(self, message_id: int):
        """A channel message, read live (``channel.history()`` would rebuild every message)."""
        return ResponseMessage(self.env, self.env.backend.messages[self.channel.id][message_id])

    async def step(self) -> Action | None:
        """Let the current decider take one action through components; returns it (None if over)."""
        table = await self.table()
        if table is None or table.game is None or table.game.result() is not None:
            return None
        game = table.game
        prompt = game.prompt()
        player = prompt.player
        assert player is not None, "the driver only plays the main decider"
        action = self.policy(game, player, game.legal_actions(player))
        tokens = game.notation(action).split()
        actor = self.actors[player]
        version = table.record.version
        if table.record.message_id not in self.turn_messages:
            self.turn_messages.append(table.record.message_id)
        current = self.message(table.record.message_id)
        if prompt.private:
            opened = await actor.click(current, label="Show my choices")
            self.clicks += 1
            current = opened.response
        await self._reach(actor, current, tokens, version)
        return action

    async def _reach(self, actor: Any, message: Any, tokens: list[str], version: int) -> None:
        done = 0  # tokens already chosen
        for _ in range(200):
            options = [w for w in widgets(message) if w.label not in NAVIGATION]
            labels = [w.label for w in options]
            target: Widget | None = None
            if done == len(tokens) and DONE in labels:
                target = options[labels.index(DONE)]
            else:
                for j in range(done, len(tokens)):
                    if tokens[j] in labels:
                        target = options[labels.index(tokens[j])]
                        done = j + 1
                        break
            if target is None:
                more = [w for w in widgets(message) if w.label == "Next ▶"]
                assert more, f"no component leads to {' '.join(tokens)!r}; offered {labels}"
                result = await actor.click(message, custom_id=more[0].custom_id)
            elif target.value is not None:
                result = await actor.select(message, [target.value], custom_id=target.custom_id)
            else:
                result = await actor.click(message, custom_id=target.custom_id)
            self.clicks += 1
            table = await self.table()
            if table is None or table.record.version != version:
                return
            assert result.response is not None, "the bot did not answer a click"
            message = result.response
        raise AssertionError(f"could not reach {' '.join(tokens)!r}")

    async def choose(self, notation: str) -> None:
        """Have the current decider take the legal action written ``notation``, by clicking."""
        wanted = notation.split()
        previous = self.policy

        def exactly(game: Game, player: str, actions: list[Action]) -> Action:
            matches = [a for a in actions if game.notation(a).split() == wanted]
            assert matches, f"{notation!r} is not legal; legal: {[game.notation(a) for a in actions]}"
            return matches[0]

        self.policy = exactly
        try:
            await self.step()
        finally:
            self.policy = previous

    async def play_to_end(self, max_actions: int = 5000) -> int:
        """Play until the game ends; returns the number of actions taken."""
        for count in range(max_actions):
            if await self.step() is None:
                return count
        raise AssertionError(f"the game did not end within {max_actions} actions")


async def open_table(channel: Any, game: str, players: list[Any], *, options: str = "") -> None:
    """Open a ``game`` table in ``channel`` (``players[0]`` hosts), seat the others, start it."""
    extra = {"options": options} if options else {}
    lobby = (await players[0].slash(channel, "game new", game=game, **extra)).response
    for actor in players[1:]:
        await actor.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")


async def put_game(bot: Any, channel_id: int, game: Game) -> None:
    """Make ``game`` (a position built for a test) the channel's running game, stored like any
    state of the table; post it with ``/game board`` afterwards."""
    table = await bot.host.current(channel_id)
    record = bot.host.schedule(table.record.evolve(state=game.to_json()), game)
    await bot.host.store.save(
        record, actor="test", action={"type": "test-setup"}, summary="", now=discord.utils.utcnow()
    )
    bot.host._cache.pop(channel_id, None)  # reload from the store, as after a restart
