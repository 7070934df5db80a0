"""``/game forget-me``: what it does, asked to confirm, then done and reported (see bot.forget_person)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot import forget_person
from bot.store import LOBBY
from cogs.replies import acknowledge, reply, trim

if TYPE_CHECKING:
    from bot.app import TableBot

EXPLAINED = (
    "**/game forget-me** removes you from this bot's records:\n"
    "• your seats in running games are handed to an AI, which plays them to the end;\n"
    "• you leave every lobby you sit in;\n"
    "• then no table keeps your Discord id or your name: in every game, finished or not, you are "
    "“a former player” in the table's record, its log, its boards, history and replays (the games "
    "and their scores stay, without you; your rating is kept under no name, only so that the "
    "others' ratings stay as they were, and is never shown), and your settings (quiet hours) are "
    "deleted.\n"
    "Messages already posted in channels belong to Discord and stay as they are. This cannot be "
    "undone. To go ahead: `/game forget-me confirm:True`."
)


async def forget_me(bot: TableBot, interaction: discord.Interaction, confirm: bool) -> None:
    """Explain, or (confirmed) forget the person and tell them what was done."""
    if not confirm:
        await reply(interaction, EXPLAINED)
        return
    await acknowledge(interaction, ephemeral=True, thinking=True)
    done = await forget_person.forget(bot.host, str(interaction.user.id))
    for outcome in done.handed:
        await bot.ui.turns.show_outcome(outcome)
        bot.scheduler.kick(outcome.table)
    for table in done.left:
        if table.record.status == LOBBY:
            await bot.ui.turns.edit_table_message(table, **bot.ui.lobby.payload(table))
        else:  # no person was left: the lobby closed
            await bot.ui.turns.strip_components(table)
    lines = [
        "Done. You are forgotten:",
        f"• {done.finished} finished game(s) now name “a former player” instead of you;",
        f"• {len(done.handed)} running game(s): an AI plays your seat now"
        + (" (" + ", ".join(f"#{o.table.record.id}" for o in done.handed) + ")" if done.handed else "")
        + ";",
        f"• {len(done.left)} lobby(ies) left;",
        f"• {done.rewritten} lobby(ies) or running game(s) no longer name you.",
    ]
    if done.failed:
        lines.append("Not changed now (try again in a moment): " + "; ".join(done.failed))
    lines.append("Messages already posted in channels stay; you can delete your own.")
    await reply(interaction, trim("\n".join(lines)))
