"""Small helpers every part of the Discord UI uses to answer users and name players, and the
answer to an error nobody expected."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord

from bot.store import StoreError
from bot.tables import STORE_DOWN, Table, TableError

log = logging.getLogger(__name__)

SOMETHING_WRONG = "Something went wrong on my side — nothing changed. Please try again in a moment."
APPLIED_THEN_WRONG = (
    "Something went wrong on my side after your move was made: it counts, and the table's message "
    "will be posted again shortly."
)
APPLIED = "applied"
"""The key of ``Interaction.extras`` a handler sets once its action was saved (see
:func:`answer_failure`)."""

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


async def answer_failure(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Answer privately for an error the handler ``what`` did not expect, and log it: a store
    that cannot be reached says so; anything else says nothing changed (or that the user's move
    was made, if it was: see :data:`APPLIED`)."""
    error = getattr(error, "original", error)
    if isinstance(error, StoreError) or (isinstance(error, TableError) and str(error) == STORE_DOWN):
        log.warning("%s: the game store cannot be reached: %s", what, error)
        text = STORE_DOWN
    elif isinstance(error, TableError):
        text = str(error)
    else:
        log.error("%s failed", what, exc_info=error)
        text = APPLIED_THEN_WRONG if interaction.extras.get(APPLIED) else SOMETHING_WRONG
    try:
        await reply(interaction, text)
    except discord.HTTPException as exc:
        log.warning("%s: could not answer the user after an error: %s", what, exc)
