"""Small helpers every part of the Discord UI uses to answer users and name players."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.tables import Table

NO_MENTIONS = discord.AllowedMentions.none()
MESSAGE_LIMIT = 2000


def names_for(table: Table) -> dict[str, str]:
    """How to name each seated player in a message: their mention."""
    return {pid: f"<@{pid}>" for pid in table.record.seats}


def trim(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to fit a Discord message (``limit`` characters)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pinging(players: Iterable[str]) -> discord.AllowedMentions:
    """Allowed mentions that notify exactly these players (Discord user ids as strings)."""
    users = [discord.Object(int(p)) for p in players if p.isdigit()]
    return discord.AllowedMentions(users=users, everyone=False, roles=False)


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer the user privately (ephemeral), whether or not the interaction was answered yet."""
    text = trim(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs)


async def send_public(interaction: discord.Interaction, **kwargs: Any) -> discord.Message:
    """Post a public message through the interaction (its response, else a followup)."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    if not interaction.response.is_done():
        await interaction.response.send_message(**kwargs)
        return await interaction.original_response()
    return await interaction.followup.send(wait=True, **kwargs)
