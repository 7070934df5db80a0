"""Plays games through the bot's components only, as players would, for SimCord tests.

A *policy* picks which legal action the deciding player wants; the driver then reaches it by
clicking the buttons and select options the bot offers, step by step along the picker's path of
option indexes (following pages), on the public turn message or in the private picker. Clicks are
counted per turn and per trade (``Driver.counts``), the figures ``bench/clicks.py`` reports.

Options are labelled in words ("🟦 Grunt → N1 Corridor"), so the driver does not read labels: it
finds which notation token(s) each button or select option stands for from its custom id (the path
of the option in the picker's tree of the legal actions, see cogs/picker.py), as the bot itself
does when it is clicked. :func:`offered` and :func:`press` do the same for tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from simcord.results import ResponseMessage

from bot.engine.core import Action, Game
from bot.tables import only_choice
from cogs.picker import Step, choice_tree, decode_path, encode_path, is_secret, split_choices

Policy = Callable[[Game, str, list[Action]], Action]
NAVIGATION = ("↩ Back", "◀ Previous", "Next ▶")
PASS: Action = {"type": "pass"}


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
    trees: dict[tuple[str, str], Any] = {}
    for widget in widgets(message):
        if not widget.pick:
            continue
        scope, path, index = widget.place()
        player = prompt.player if scope == "p" else seat or table.seat_of(str(actor.id))
        key = (player, scope)
        if key not in trees:
            trees[key] = choice_tree(game, player, private=scope == "e")
        tree = trees[key]
        assert tree is not None, f"{widget.custom_id}: no picker of {player} here"
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
class Clicks:
    """Clicks and selections counted per turn and per trade (see :meth:`Driver.step`)."""

    per_turn: list[int] = field(default_factory=list)
    """Clicks of every finished turn, in order."""
    per_trade: list[tuple[int, int]] = field(default_factory=list)
    """(parts, clicks) of every answered trade: from its start to the partner's answer."""
    turn: int = 0
    """Clicks of the turn under way."""
    trade: int | None = None
    """Clicks of the trade under way (None when no trade is being built or offered)."""


@dataclass
class Driver:
    """Drives one channel's table of a SimCord world through its components.

    Components are found by their custom ids (the picker's path of option indexes), never by
    their labels, so the driver does not depend on how options are worded. ``clicks`` counts
    every click and selection; ``counts`` splits them by turn and by trade; ``single_waits``
    counts decisions that waited for a click although they had only one choice.
    """

    env: Any
    bot: Any
    channel: Any
    actors: dict[str, Any]  # player id -> MemberActor
    policy: Policy
    clicks: int = 0
    turn_messages: list[int] = field(default_factory=list)
    counts: Clicks = field(default_factory=Clicks)
    single_waits: int = 0
    _picker: tuple[str, Any] | None = None  # (player, private picker still open for them)
    _parts: int = 0  # parts of the trade being built
    _last: Any = None  # the answer to the last click
    _turn: Any = None

    async def table(self):
        return await self.bot.host.current(self.channel.id)

    def message(self, message_id: int):
        """A channel message, read live (``channel.history()`` would rebuild every message)."""
        return ResponseMessage(self.env, self.env.backend.messages[self.channel.id][message_id])

    async def _click(self, actor: Any, message: Any, widget: Widget) -> Any:
        if widget.value is not None:
            result = await actor.select(message, [widget.value], custom_id=widget.custom_id)
        else:
            result = await actor.click(message, custom_id=widget.custom_id)
        self.clicks += 1
        self.counts.turn += 1
        if self.counts.trade is not None:
            self.counts.trade += 1
        return result

    async def step(self) -> Action | None:
        """Let the current decider take one action through components; returns it (None if over)."""
        table = await self.table()
        if table is None or table.game is None or table.game.result() is not None:
            return None
        game = table.game
        prompt = game.prompt()
        player = prompt.player
        if player is None:  # a timed wait (a Time Machine chance): the awaited players pass
            waiting = [seat for seat in prompt.others if PASS in game.legal_actions(seat)]
            assert waiting, f"nobody to answer the wait: {prompt.text}"
            await self.take(waiting[0], dict(PASS))
            return dict(PASS)
        if only_choice(game, player) is not None:
            self.single_waits += 1
        action = self.policy(game, player, game.legal_actions(player))
        await self.take(player, action)
        return action

    async def take(self, player: str, action: Action, actor: Any = None) -> None:
        """``player`` (the main decider, or a player acting out of turn; ``actor`` clicks for
        them, by default their actor) takes ``action`` through the components, opening a private
        picker when the bot asks for one."""
        actor = actor if actor is not None else self.actors[player]
        table = await self.table()
        game, record = table.game, table.record
        prompt = game.prompt()
        turn = game.turn_marker()
        if self._turn != turn:
            if self._turn is not None:
                self.counts.per_turn.append(self.counts.turn)
            self.counts.turn, self._turn = 0, turn
        if action["type"] == "trade" and self.counts.trade is None:
            self.counts.trade = 0
        if record.message_id not in self.turn_messages:
            self.turn_messages.append(record.message_id)
        version = record.version
        notation = game.notation(action)
        private = player != prompt.player or prompt.private
        if split_choices(prompt, player):
            private = is_secret(prompt, notation)
        message = self.message(record.message_id)
        if private:
            picker = self._picker
            if picker is not None and picker[0] == player and _drawn_for(picker[1], record.id, version):
                message = picker[1]
            else:
                kind = "o" if player != prompt.player else "m"
                button = next(
                    w for w in widgets(message) if w.custom_id == f"pc:{record.id}:{version}:{kind}"
                )
                message = (await self._click(actor, message, button)).response
        self._picker = None
        tree = choice_tree(game, player, private=private)
        assert tree is not None, f"{notation!r}: no picker offers it"
        message = await self._reach(actor, message, tree.path_to(action), "e" if private else "p", record)
        kind = action["type"]
        if kind == "trade_part":
            self._parts += 1
        elif kind in ("accept", "decline", "withdraw") and self.counts.trade is not None:
            self.counts.per_trade.append((self._parts, self.counts.trade))
            self.counts.trade, self._parts = None, 0
        elif kind == "cancel" or (kind == "undo" and self._parts == 0):
            self.counts.trade, self._parts = None, 0
        elif kind == "undo" and self.counts.trade is not None:
            self._parts -= 1
        if private and message is not None and _drawn_for(message, record.id, version + 1):
            self._picker = (player, message)  # the picker went on with the next decision
        elif not private and self._last is not None:  # a click that opened a private picker
            opened = [f for f in self._last.followups if _drawn_for(f, record.id, version + 1)]
            if opened:
                self._picker = (player, opened[0])

    async def _reach(self, actor: Any, message: Any, path: tuple[int, ...], scope: str, record: Any) -> Any:
        """Click along ``path`` in the picker of ``scope`` on ``message``; the last answer."""
        prefix = f"{record.id}:{record.version}:"
        result = None
        for depth, index in enumerate(path):
            here = encode_path(path[:depth])
            button = f"pk:{scope}:{prefix}{encode_path((*path[:depth], index))}"
            select = f"ps:{scope}:{prefix}{here}"
            for _ in range(50):
                found = [w for w in widgets(message) if w.custom_id == button]
                found += [w for w in widgets(message) if w.custom_id == select and w.value == str(index)]
                if found:
                    break
                pages = f"pn:{scope}:{prefix}{here}:"  # ◀ Previous / Next ▶ of this step
                more = [w for w in widgets(message) if w.custom_id.startswith(pages)]
                more.sort(key=lambda w: int(w.custom_id.rsplit(":", 1)[1]))
                assert more, f"no component leads on along {path} at {here!r}"
                message = (await self._click(actor, message, more[-1])).response  # Next ▶
            result = self._last = await self._click(actor, message, found[0])
            if depth < len(path) - 1:
                assert result.response is not None, "the bot did not answer a click"
                message = result.response
        table = await self.table()
        assert table is None or table.record.version != record.version, f"path {path} was not applied"
        return result.response if result is not None else None

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
                if self._turn is not None:
                    self.counts.per_turn.append(self.counts.turn)
                    self._turn = None
                return count
        raise AssertionError(f"the game did not end within {max_actions} actions")


def _drawn_for(message: Any, table_id: int, version: int) -> bool:
    """Whether ``message`` shows picker components drawn for that table version."""
    mark = f":{table_id}:{version}:"
    return any(w.custom_id[2:].startswith(f":e{mark}") for w in widgets(message))


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
