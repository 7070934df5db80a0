"""Keyboard commands per game (/argo move, /argoat use, ...): typed moves with autocomplete.

Each command covers the legal actions whose notation starts with one of its verbs; the turn
message's components and ``/game play`` reach the same actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.picker import ActionTree
from cogs.replies import choices_or_nothing, reply

if TYPE_CHECKING:
    from bot.app import TableBot


@dataclass(frozen=True)
class Shortcut:
    """One typed-move command: which notations it covers and the verb it adds when omitted."""

    name: str
    description: str
    example: str
    prefixes: tuple[str, ...]
    excluded: tuple[str, ...] = ()

    def covers(self, notation: str) -> bool:
        """True if ``notation`` is one of this command's moves."""
        low = notation.lower()
        return low.startswith(self.prefixes) and not low.startswith(self.excluded)

    def complete(self, typed: str) -> str:
        """The notation meant by ``typed``: as written, or with the command's verb in front."""
        text = " ".join(typed.split())
        return text if self.covers(text) else f"{self.prefixes[0]} {text}"


ARGO = (
    Shortcut("move", "Move one of your Astronauts", "move Grunt N1", ("move",), ("move alien",)),
    Shortcut("alien", "Alien phase: move an Alien, push one, or choose whom it kills", "move Alien N1 N2",
             ("move alien", "push alien", "kill")),
    Shortcut("build", "Add a Module or Escape Pod", "build Lab N2 doors-NS", ("build",)),
    Shortcut("activate", "Activate a Module", "activate Warehouse", ("activate",)),
    Shortcut("timemachine", "Out of turn: use the Time Machine (or pass)", "timemachine move Blue-Pilot WR",
             ("timemachine", "pass")),
)  # fmt: skip
ARGOAT = (
    Shortcut("move", "Move your Avatar (or undo)", "move N", ("move", "undo")),
    Shortcut("use", "Use one of your Items (only you see the list)", "use Staff 2,1", ("use",)),
    Shortcut("trade", "Build, propose, answer, withdraw or cancel a trade", "trade give emerald",
             ("trade", "accept", "decline", "withdraw", "cancel", "undo")),
    Shortcut("end", "Resolve your Frontier Action and end the turn", "end pay", ("end", "place")),
)  # fmt: skip


async def _current_game_table(bot: TableBot, interaction: discord.Interaction[TableBot], game: str):
    table = await bot.host.current(interaction.channel_id or 0)
    if table is None or table.game is None or table.record.game != game:
        return None
    return table


def shortcut_command(game: str, shortcut: Shortcut) -> app_commands.Command:
    """The slash command for one shortcut of ``game``, with autocomplete of the legal moves."""

    async def callback(interaction: discord.Interaction[TableBot], action: str) -> None:
        bot = interaction.client
        async with bot.working():
            if interaction.guild is None:
                await reply(
                    interaction, "Games are played in server channels; use this command in a channel."
                )
                return
            table = await bot.host.current(interaction.channel_id or 0)
            if table is None or table.game is None:
                await reply(interaction, f"There is no {game} game running in this channel.")
            elif table.record.game != game:
                await reply(interaction, f"This channel's table plays {table.record.game}, not {game}.")
            else:
                await bot.ui.play.perform(interaction, table, shortcut.complete(action), version=None)

    @choices_or_nothing
    async def suggest(
        interaction: discord.Interaction[TableBot], current: str
    ) -> list[app_commands.Choice[str]]:
        table = await _current_game_table(interaction.client, interaction, game)
        seat = table.seat_of(str(interaction.user.id)) if table is not None else None
        if table is None or seat is None:  # a former holder sees nothing of the seat
            return []
        tree = ActionTree(table.game, seat)
        found = [n for n in tree.matching(current, limit=1000) if shortcut.covers(n)][:25]
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in found]

    described = app_commands.describe(action=f"e.g. '{shortcut.example}' (the list shows every legal one)")
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=shortcut.name, description=shortcut.description, callback=described(callback)
    )
    command.autocomplete("action")(suggest)
    return command


async def _hand(interaction: discord.Interaction[TableBot]) -> None:
    async with interaction.client.working():
        await interaction.client.ui.private.show_hand(interaction)


def shortcut_groups() -> list[app_commands.Group]:
    """The /argo and /argoat command groups."""
    argo = app_commands.Group(name="argo", description="Argo moves by typing (the buttons do the same)")
    for shortcut in ARGO:
        argo.add_command(shortcut_command("Argo", shortcut))
    argoat = app_commands.Group(name="argoat", description="Argoat moves by typing (the buttons do the same)")
    for shortcut in ARGOAT:
        argoat.add_command(shortcut_command("Argoat", shortcut))
    argoat.add_command(
        app_commands.Command(
            name="hand",
            description="Your Items and what you saw in Dark Forests (only you see it)",
            callback=_hand,
        )
    )
    return [argo, argoat]
