"""Plays games through the bot's components only, as players would, for SimCord tests.

A *policy* picks which legal action the deciding player wants; the driver then reaches it by
clicking the buttons and select options the bot offers, token by token (following pages and
skipped single-way steps), on the public turn message or in the private picker.

Options are labelled in words ("🟦 Grunt → N1 Corridor"), so the driver does not read labels:
it finds which notation token(s) each button or select option stands for from its custom id (the
path of the option in the picker's tree of the legal actions, see cogs/picker.py), as the bot
itself does when it is clicked. :func:`offered` and :func:`press` do the same for tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from simcord.results import ResponseMessage

from bot.engine.core import Action, Game
from cogs.picker import DONE, ActionTree, Step, decode_path

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
    description: str = ""  # select options only

    @property
    def pick(self) -> bool:
        """An option of a picker step (a pick button or a pick select's option)."""
        return self.custom_id.startswith(("pk:", "ps:"))

    def place(self) -> tuple[str, tuple[int, ...], int]:
        """(scope, path of the step, index of the option in it) of a pick widget."""
        parts = self.custom_id.split(":")
        path = decode_path(parts[4])
        if self.value is not None:
            return parts[1], path, int(self.value)
        return parts[1], path[:-1], path[-1]


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
                    found.append(
                        Widget(
                            option["label"],
                            data["custom_id"],
                            option["value"],
                            option.get("description") or "",
                        )
                    )
    return found


async def option_steps(
    bot: Any, channel_id: int, actor: Any, message: Any, seat: str | None = None
) -> list[tuple[Widget, Step, str]]:
    """Each pick widget of ``message`` with its picker step and the option (notation token(s), or
    DONE) it stands for: public options are the prompt player's, private ones the actor's (the
    player ``seat``, else the seat the actor holds)."""
    table = await bot.host.current(channel_id)
    game = table.game
    prompt = game.prompt()
    found = []
    trees: dict[str, ActionTree] = {}
    for widget in widgets(message):
        if not widget.pick:
            continue
        scope, path, index = widget.place()
        player = prompt.player if scope == "p" else seat or table.seat_of(str(actor.id))
        tree = trees.get(player) or trees.setdefault(player, ActionTree(game, player))
        step = tree.walk(path)
        assert isinstance(step, Step), f"{widget.custom_id} is not on a step"
        found.append((widget, step, step.options[index]))
    return found


async def offered(bot: Any, channel: Any, message: Any, actor: Any = None) -> list[str]:
    """What a message offers, as the notation token(s) of each picker option (DONE for done) and
    the label of every other button but **?**, in order (``actor``: whose private picker)."""
    picks = {
        (w.custom_id, w.value): option for w, _, option in await option_steps(bot, channel.id, actor, message)
    }
    found = []
    for widget in widgets(message):
        if widget.pick:
            found.append(picks[widget.custom_id, widget.value])
        elif not widget.custom_id.startswith("hp:"):
            found.append(widget.label)
    return found


async def press(bot: Any, channel: Any, actor: Any, message: Any, option: str) -> Any:
    """``actor`` clicks the picker option whose notation is ``option`` (or the other button
    labelled ``option``) on ``message``; returns the click's result."""
    for widget, _, chosen in await option_steps(bot, channel.id, actor, message):
        if chosen == option:
            if widget.value is not None:
                return await actor.select(message, [widget.value], custom_id=widget.custom_id)
            return await actor.click(message, custom_id=widget.custom_id)
    return await actor.click(message, label=option)


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
        await self._reach(actor, current, tokens, version, seat=player)
        return action

    async def _reach(
        self, actor: Any, message: Any, tokens: list[str], version: int, seat: str | None = None
    ) -> None:
        wanted = tuple(tokens)
        for _ in range(200):
            target: Widget | None = None
            seen = []
            for widget, step, option in await option_steps(self.bot, self.channel.id, actor, message, seat):
                seen.append(option)
                depth = len(step.tokens)
                if wanted[:depth] != step.tokens:
                    continue
                if option == DONE:
                    if depth == len(wanted):
                        target = widget
                        break
                elif wanted[depth : depth + len(option.split())] == tuple(option.split()):
                    target = widget
                    break
            if target is None:
                more = [w for w in widgets(message) if w.label == "Next ▶"]
                assert more, f"no component leads to {' '.join(tokens)!r}; offered {seen}"
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
