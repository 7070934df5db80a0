"""The **?** button: a private answer saying what is being decided and what every option does.

On the public turn message it explains the step that message shows (the deciding player's
options, in the same words as the buttons), unless the decision is private, in which case only
the decider is shown their options. In a private picker it explains the presser's own step. A
player who may act out of turn also sees their own out-of-turn options. A press on an
out-of-date message is answered like every stale component: "out of date", and the board now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.core import Game, format_text
from bot.tables import Table
from cogs import components as comp
from cogs import labels
from cogs.picker import DONE, StalePath, Step, choice_tree, split_choices
from cogs.replies import MESSAGE_LIMIT, reply

if TYPE_CHECKING:
    from bot.app import TableBot

MAX_MESSAGES = 5
"""At most this many private messages answer one press (a long step is split across them)."""


def option_lines(step: Step, words: labels.Words) -> list[str]:
    """One line per option of ``step``: its label, its description, and the notation to type."""
    lines = []
    for option in step.options:
        label, description = words(step.tokens, option)
        typed = " ".join(step.tokens) if option == DONE else " ".join((*step.tokens, option))
        about = f" — {description}" if description else ""
        lines.append(f"• **{label}**{about} · `{typed}`")
    return lines


def step_lines(game: Game, table: Table, player: str, step: Step) -> list[str]:
    """What ``player`` has chosen so far at ``step``, and every option offered there."""
    words = labels.words_for(game, player, labels.colour_names(table.public_view()))
    lines = []
    if step.tokens:
        so_far, _ = words((), " ".join(step.tokens))
        lines.append(f"Chosen so far: **{so_far}** (`{' '.join(step.tokens)}`)")
    count = len(step.options)
    lines.append(f"The {count} option{'s' if count != 1 else ''} offered:")
    return lines + option_lines(step, words)


def pack(lines: list[str], limit: int = MESSAGE_LIMIT, most: int = MAX_MESSAGES) -> list[str]:
    """``lines`` gathered into at most ``most`` messages of at most ``limit`` characters; what
    does not fit is summed up in a last line."""
    messages: list[str] = []
    current = ""
    for index, line in enumerate(lines):
        line = labels.fit(line, limit - 40)
        if len(current) + len(line) + 1 > limit:
            if len(messages) == most - 1:
                left = len(lines) - index
                current += f"\n… and {left} more line{'s' if left != 1 else ''}."
                break
            messages.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    messages.append(current)
    return messages


class HelpAnswers:
    """Answers presses of the **?** button."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def pressed(
        self,
        interaction: discord.Interaction,
        *,
        scope: str,
        table_id: int,
        version: int,
        path: tuple[int, ...],
    ) -> None:
        """Explain the decision and the options of the step at ``path``, privately."""
        turns = self.bot.ui.turns
        table = await turns.drawn_table(interaction, table_id, version)
        if table is None:
            return
        game = table.live
        prompt = game.prompt()
        if prompt is None:
            await reply(interaction, "The game is over.")
            return
        names = table.names()
        seat = table.seat_of(str(interaction.user.id))
        lines = [f"**What is being decided:** {format_text(prompt.text, names)}"]
        if scope == comp.PUBLIC:
            decider = prompt.player
            split = decider is not None and split_choices(prompt, decider)
            if decider is not None and prompt.private and not split and seat != decider:
                who = names.get(decider, decider)
                lines.append(f"{who}'s choices are private: only they can see them (**Show my choices**).")
            elif decider is not None:
                if seat != decider:
                    lines.append(f"These are {names.get(decider, decider)}'s choices.")
                if split:
                    button = prompt.secret_label or "Show my choices"
                    lines.append(f"Secret choices (press **{button}**) are chosen privately.")
                # a private prompt's own choices are in the private picker, opened from here
                reached = self._step(game, decider, path, private=prompt.private and not split)
                if reached is None:
                    await turns.show_out_of_date(interaction, "That choice is no longer available.")
                    return
                lines += step_lines(game, table, decider, reached)
            if seat is not None and seat != decider and seat in prompt.others:
                own = self._step(game, seat, (), private=True)
                if own is not None:
                    button = prompt.others_label or "Act out of turn"
                    lines.append(f"\n**You may act now too** (press **{button}**):")
                    lines += step_lines(game, table, seat, own)
        else:
            if seat is None or seat not in prompt.deciders():
                await reply(interaction, "It is not your decision right now.")
                return
            reached = self._step(game, seat, path, private=True)
            if reached is None:
                await turns.show_out_of_date(interaction, "That choice is no longer available.")
                return
            lines += step_lines(game, table, seat, reached)
        lines.append("Type any choice with `/game play`, or click it.")
        for text in pack(lines):
            await reply(interaction, text)

    @staticmethod
    def _step(game: Game, player: str, path: tuple[int, ...], *, private: bool) -> Step | None:
        """The step of ``player``'s choice at ``path`` on the public turn message or in their
        private picker (the same trees the picker walks); None if it leads nowhere now."""
        tree = choice_tree(game, player, private=private)
        if not tree:
            return None
        try:
            reached = tree.walk(path)
        except StalePath:
            return None
        return reached if isinstance(reached, Step) else None
