"""Keyboard commands per game (/argo move, /argoat use, ...): typed moves with autocomplete.

Each command covers the legal actions whose notation starts with one of its verbs; the turn
message's components and ``/game play`` reach the same actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.picker import ActionTree
from cogs.ui import reply

if TYPE_CHECKING:
    from bot.app import TableBot

Filter = Callable[[str], bool]


def starts_with(*prefixes: str, but_not: tuple[str, ...] = ()) -> Filter:
    """A notation filter: starts with one of ``prefixes`` and with none of ``but_not``."""
    low = tuple(p.lower() for p in prefixes)
    excluded = tuple(p.lower() for p in but_not)
    return lambda n: n.lower().startswith(low) and not n.lower().startswith(excluded)


async def suggest(
    bot: TableBot, interaction: discord.Interaction, current: str, game: str, keep: Filter
) -> list[app_commands.Choice[str]]:
    """The user's legal notations at this channel's ``game`` table that ``keep`` accepts."""
    table = await bot.host.current(interaction.channel_id or 0)
    if table is None or table.game is None or table.record.game != game:
        return []
    tree = ActionTree(table.game, str(interaction.user.id))
    found = [n for n in tree.matching(current, limit=1000) if keep(n)][:25]
    return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found]


async def play(
    bot: TableBot, interaction: discord.Interaction, game: str, text: str, keep: Filter, verb: str
) -> None:
    """Perform the typed move at this channel's ``game`` table, if this command covers it."""
    if interaction.guild is None:
        await reply(interaction, "Games are played in server channels; use this command in a channel.")
        return
    table = await bot.host.current(interaction.channel_id)
    if table is None or table.game is None:
        await reply(interaction, f"There is no {game} game running in this channel.")
        return
    if table.record.game != game:
        await reply(interaction, f"This channel's table plays {table.record.game}, not {game}.")
        return
    notation = " ".join(text.split())
    if not keep(notation):
        notation = f"{verb} {notation}"
    await bot.ui.perform(interaction, table, notation, version=None)


ARGO_MOVE = starts_with("move", but_not=("move alien",))
ARGO_ALIEN = starts_with("move alien", "push alien", "kill")
ARGO_BUILD = starts_with("build")
ARGO_ACTIVATE = starts_with("activate")
ARGO_TIME_MACHINE = starts_with("timemachine", "pass")
ARGOAT_MOVE = starts_with("move", "undo")
ARGOAT_USE = starts_with("use")
ARGOAT_TRADE = starts_with("trade", "accept", "decline", "withdraw", "cancel", "undo")
ARGOAT_END = starts_with("end", "place")


class ArgoCommands(commands.Cog):
    """/argo move, activate, build, alien and timemachine."""

    argo = app_commands.Group(name="argo", description="Argo moves by typing (the buttons do the same)")

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def _moves(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argo", ARGO_MOVE)

    async def _aliens(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argo", ARGO_ALIEN)

    async def _builds(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argo", ARGO_BUILD)

    async def _activations(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argo", ARGO_ACTIVATE)

    async def _interrupts(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argo", ARGO_TIME_MACHINE)

    @argo.command(name="move", description="Move one of your Astronauts, e.g. 'move Grunt N1'")
    @app_commands.describe(action="The move (the list shows every legal one)")
    @app_commands.autocomplete(action=_moves)
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argo", action, ARGO_MOVE, "move")

    @argo.command(name="alien", description="Alien phase: move an Alien, push one, or choose whom it kills")
    @app_commands.describe(action="e.g. 'move Alien N1 N2' (the list shows every legal one)")
    @app_commands.autocomplete(action=_aliens)
    async def alien(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argo", action, ARGO_ALIEN, "move Alien")

    @argo.command(name="build", description="Add a Module or Escape Pod, e.g. 'build Lab N2 doors-NS'")
    @app_commands.describe(action="The tile, cell and doors (the list shows every legal one)")
    @app_commands.autocomplete(action=_builds)
    async def build(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argo", action, ARGO_BUILD, "build")

    @argo.command(name="activate", description="Activate a Module, e.g. 'activate Warehouse'")
    @app_commands.describe(action="The Module and its target (the list shows every legal one)")
    @app_commands.autocomplete(action=_activations)
    async def activate(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argo", action, ARGO_ACTIVATE, "activate")

    @argo.command(name="timemachine", description="Out of turn: use the Time Machine (or pass)")
    @app_commands.describe(action="e.g. 'timemachine move Blue-Pilot WR' (the list shows every legal one)")
    @app_commands.autocomplete(action=_interrupts)
    async def timemachine(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argo", action, ARGO_TIME_MACHINE, "timemachine")


class ArgoatCommands(commands.Cog):
    """/argoat move, use, trade, end and hand."""

    argoat = app_commands.Group(name="argoat", description="Argoat moves by typing (the buttons do the same)")

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def _moves(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argoat", ARGOAT_MOVE)

    async def _uses(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argoat", ARGOAT_USE)

    async def _trades(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argoat", ARGOAT_TRADE)

    async def _ends(self, i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await suggest(self.bot, i, current, "Argoat", ARGOAT_END)

    @argoat.command(name="move", description="Move your Avatar, e.g. 'move N' or 'move bleina N E'")
    @app_commands.describe(action="The move (the list shows every legal one)")
    @app_commands.autocomplete(action=_moves)
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argoat", action, ARGOAT_MOVE, "move")

    @argoat.command(name="use", description="Use one of your Items (the list shows only you your Items)")
    @app_commands.describe(action="e.g. 'use Staff 2,1'")
    @app_commands.autocomplete(action=_uses)
    async def use(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argoat", action, ARGOAT_USE, "use")

    @argoat.command(
        name="trade", description="Build, propose, answer, withdraw or cancel a trade"
    )
    @app_commands.describe(action="e.g. 'trade Blue', 'trade give emerald', 'trade propose', 'accept'")
    @app_commands.autocomplete(action=_trades)
    async def trade(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argoat", action, ARGOAT_TRADE, "trade")

    @argoat.command(name="end", description="Resolve your Frontier Action and end the turn")
    @app_commands.describe(action="e.g. 'end', 'end pay', 'place 2,-1'")
    @app_commands.autocomplete(action=_ends)
    async def end(self, interaction: discord.Interaction, action: str) -> None:
        await play(self.bot, interaction, "Argoat", action, ARGOAT_END, "end")

    @argoat.command(name="hand", description="Your Items and what you saw in Dark Forests (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.bot.ui.show_hand(interaction)
