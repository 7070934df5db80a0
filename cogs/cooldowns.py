"""Cooldowns on the commands that post in the channel (``/game new``, ``/game board``) and on
Rematch, so that a stuck key or an impatient player cannot flood a channel; the answer is
friendly and private, and says when to try again.

The buckets belong to the bot (``TableBot.cooldowns``), not to the command objects, so that each
bot has its own; the clock is ``time.monotonic``.
"""

from __future__ import annotations

import time

import discord
from discord import app_commands

from cogs.replies import reply

RATES: dict[str, tuple[int, float]] = {
    "new": (3, 60.0),  # /game new: 3 per 60 s per person in a channel (a refused one counts too)
    "board": (4, 30.0),  # /game board: 4 per 30 s per person in a channel
    "rematch": (2, 30.0),  # Rematch: 2 presses per 30 s per person per finished table
}


class Cooldowns:
    """Token buckets per (what, where, who), with discord.py's own ``app_commands.Cooldown``."""

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, int, int], app_commands.Cooldown] = {}

    def retry_after(self, what: str, where: int, who: int) -> float | None:
        """Count one use; the seconds to wait if it is one too many, else None."""
        now = time.monotonic()
        if len(self._buckets) > 10_000:  # forget the people whose buckets are full again
            self._buckets = {k: b for k, b in self._buckets.items() if b.get_tokens(now) < b.rate}
        bucket = self._buckets.setdefault((what, where, who), app_commands.Cooldown(*RATES[what]))
        return bucket.update_rate_limit(now)


def wait_text(retry_after: float) -> str:
    """The friendly refusal."""
    return f"Easy there: that was a lot at once. Try again in {max(1, round(retry_after))} s."


async def refused(interaction: discord.Interaction, buckets: Cooldowns, what: str, where: int | None) -> bool:
    """True, after telling the person privately when to try again, if this use is one too many."""
    wait = buckets.retry_after(what, where or 0, interaction.user.id)
    if wait is None:
        return False
    await reply(interaction, wait_text(wait))
    return True
