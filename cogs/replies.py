"""Small helpers every part of the Discord UI uses to answer users and name players, and the
answer to an error nobody expected."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import traceback
import weakref
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import discord

from bot import answering, metrics
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

DEFERRED_PRIVATELY = "deferred_privately"
"""The key of ``Interaction.extras`` set when a slow store made the bot acknowledge a command with a
private "thinking…" (see :func:`begin`): a public answer then goes to the channel."""
FILLED = "filled"
"""The key of ``Interaction.extras`` set once that private "thinking…" says what was done."""
POSTED_BELOW = "✅ Done (posted in the channel)."

NO_MENTIONS = discord.AllowedMentions.none()
MESSAGE_LIMIT = 2000

C = TypeVar("C", bound=Callable[..., Awaitable[list[Any]]])


def begin(interaction: discord.Interaction) -> None:
    """The current task handles ``interaction`` from now on: until it is acknowledged, the
    store's reads give up and its changes acknowledge it in time (``bot.answering``)."""
    deadline = asyncio.get_running_loop().time() + answering.PATIENCE
    answering.begin(answering.Pending(deadline, interaction.response.is_done, lambda: _late(interaction)))


async def _late(interaction: discord.Interaction) -> None:
    """Acknowledge ``interaction`` while a change is still being saved: a click with a silent
    deferred update, a command with a private "thinking…" (an autocomplete cannot wait)."""
    if interaction.response.is_done() or interaction.type is discord.InteractionType.autocomplete:
        return
    if interaction.type is discord.InteractionType.application_command:
        await interaction.response.defer(ephemeral=True, thinking=True)
        interaction.extras[DEFERRED_PRIVATELY] = True
    else:
        await interaction.response.defer()


async def acknowledge(
    interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False
) -> None:
    """Defer ``interaction`` (a slow step follows) unless it is acknowledged already."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)


async def update_message(interaction: discord.Interaction, **changes: Any) -> None:
    """Edit the message a component is on, through the interaction (acknowledged or not)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**changes)
    else:
        await interaction.response.edit_message(**changes)


def choices_or_nothing(suggest: C) -> C:
    """An autocomplete that answers an empty list when the store cannot answer in time."""

    @functools.wraps(suggest)
    async def suggested(*args: Any, **kwargs: Any) -> list[Any]:
        try:
            return await suggest(*args, **kwargs)
        except (StoreError, TableError) as exc:
            log.info("an autocomplete answered nothing: %s", exc)
            return []

    return suggested  # type: ignore[return-value]


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
    """Post a public message through the interaction (its response, else a followup); after a
    private "thinking…" (see :func:`begin`), in the channel, and the "thinking…" says so."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    if not interaction.response.is_done():
        await interaction.response.send_message(**kwargs)
        return await interaction.original_response()
    if interaction.extras.get(DEFERRED_PRIVATELY):
        channel = interaction.client.get_partial_messageable(interaction.channel_id or 0)
        message = await channel.send(**kwargs)
        if not interaction.extras.get(FILLED):
            interaction.extras[FILLED] = True
            await interaction.edit_original_response(content=POSTED_BELOW)
        return message
    return await interaction.followup.send(wait=True, **kwargs)


TRACEBACK_AGAIN = 3600.0
"""Seconds after which the same unexpected error is logged with its traceback again (in between,
in one line: a renderer that keeps failing does not fill the log with the same traceback)."""
_TRACED: weakref.WeakKeyDictionary[Any, dict[str, float]] = weakref.WeakKeyDictionary()
"""Per bot: when each kind of unexpected error was last logged with its traceback."""


def _one_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"


def _first_time(client: Any, error: BaseException) -> bool:
    """True if ``error`` (its type, message and where it was raised) has not been logged with its
    traceback by this bot within :data:`TRACEBACK_AGAIN` (and count it as logged now)."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    signature = f"{_one_line(error)} at {where}"
    traced = _TRACED.setdefault(client, {})
    now = time.monotonic()
    if now - traced.get(signature, -TRACEBACK_AGAIN) < TRACEBACK_AGAIN:
        return False
    if len(traced) > 256:
        traced.clear()
    traced[signature] = now
    return True


async def answer_failure(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Answer privately for an error the handler ``what`` did not expect, and log it: a store
    that cannot be reached says so; anything else says nothing changed (or that the user's move
    was made, if it was: see :data:`APPLIED`)."""
    error = getattr(error, "original", error)
    metrics.error("command" if what.startswith("/") else "component")
    if isinstance(error, StoreError) or (isinstance(error, TableError) and str(error) == STORE_DOWN):
        log.warning("%s: the game store cannot be reached: %s", what, error)
        text = STORE_DOWN
    elif isinstance(error, TableError):
        text = str(error)
    else:
        if _first_time(interaction.client, error):
            log.error("%s failed", what, exc_info=error)
        else:
            log.error("%s failed again: %s (its traceback was logged before)", what, _one_line(error))
        text = APPLIED_THEN_WRONG if interaction.extras.get(APPLIED) else SOMETHING_WRONG
    try:
        await reply(interaction, text)
    except discord.HTTPException as exc:
        log.warning("%s: could not answer the user after an error: %s", what, exc)
