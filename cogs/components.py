"""Buttons and selects that survive restarts: their custom ids carry table id, version and path."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.core import Prompt, whole_number
from bot.store import TableRecord
from cogs.labels import BUTTON_LABEL, OPTION_DESCRIPTION, OPTION_LABEL, Words, fit, raw_words
from cogs.picker import DONE, StalePath, Step, decode_path, encode_path
from cogs.replies import answer_failure, begin

if TYPE_CHECKING:
    from cogs.ui import TableUI

PUBLIC, PRIVATE = "p", "e"
"""Picker scopes: on the public turn message (for the prompt's player) or ephemeral (clicker)."""

BUTTONS_UP_TO = 10
LOBBY_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "addbot": ("Add bot", discord.ButtonStyle.secondary),
    "removebot": ("Remove bot", discord.ButtonStyle.secondary),
}


def _ui(interaction: discord.Interaction) -> TableUI:
    return interaction.client.ui  # type: ignore[attr-defined]


MALFORMED: tuple[int, ...] = (999_999,)
"""The path given to a component whose id the bot never made: it leads nowhere (out of date)."""


def table_number(text: str) -> int:
    """A table id or version read from a custom id; one no table can have (a crafted id with too
    many digits for the database) reads as 0, which matches no table."""
    return whole_number(text, 0) or 0


def _path(text: str) -> tuple[int, ...]:
    try:
        return decode_path(text)
    except StalePath:
        return MALFORMED


FIELDS: dict[str, Callable[[str], Any]] = {
    "table": table_number,
    "ver": table_number,
    "path": _path,
    "page": int,
}
"""How a custom id's named parts are read (any other part stays text)."""


class BotItem:
    """What every component of the bot shares: it is rebuilt from its custom id alone (the
    template's named parts, in order, are the constructor's arguments, read by :data:`FIELDS`);
    its work counts as a handler in flight (shutdown waits for it); and an error nobody expected
    is answered privately instead of leaving the user with "This interaction failed" (see
    ``cogs.replies.answer_failure``). Subclasses implement :meth:`pressed`."""

    __discord_ui_compiled_template__: re.Pattern[str]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Any:
        names = cls.__discord_ui_compiled_template__.groupindex
        return cls(*(FIELDS.get(name, str)(match[name]) for name in sorted(names, key=names.__getitem__)))

    async def pressed(self, interaction: discord.Interaction) -> None:
        """Handle a click or selection (each component says how)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        begin(interaction)  # answered in time whatever the store does (bot.answering)
        async with interaction.client.working():  # type: ignore[attr-defined]
            try:
                await self.pressed(interaction)
            except Exception as exc:
                await answer_failure(interaction, exc, type(self).__name__)


class LobbyButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lobby:(?P<action>join|leave|start|addbot|removebot):(?P<table>\d+)",
):
    """Join / Leave / Start / Add bot / Remove bot on a lobby message."""

    def __init__(self, action: str, table_id: int) -> None:
        label, style = LOBBY_BUTTONS[action]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                row=0 if action in ("join", "leave", "start") else 1,
                custom_id=f"lobby:{action}:{table_id}",
            )
        )
        self.action = action
        self.table_id = table_id

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).lobby.clicked(interaction, self.action, self.table_id)


class AbandonButton(
    BotItem, discord.ui.DynamicItem[discord.ui.Button], template=r"abandon:(?P<answer>yes|no):(?P<table>\d+)"
):
    """The confirmation buttons of /game abandon."""

    def __init__(self, answer: str, table_id: int) -> None:
        label, style = (
            ("Abandon the game", discord.ButtonStyle.danger)
            if answer == "yes"
            else ("Keep playing", discord.ButtonStyle.secondary)
        )
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"abandon:{answer}:{table_id}")
        )
        self.answer = answer
        self.table_id = table_id

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).lobby.abandon_answer(interaction, self.answer == "yes", self.table_id)


TABLE_BUTTONS = {
    "quiet": ("Don't ask me this turn", discord.ButtonStyle.secondary),
    "quiet-game": ("Don't ask me again this game", discord.ButtonStyle.secondary),
    "back": ("I'm back", discord.ButtonStyle.success),
    "rematch": ("Rematch", discord.ButtonStyle.success),
    "leave-yes": ("Leave: an AI takes my seat", discord.ButtonStyle.danger),
    "leave-no": ("Stay", discord.ButtonStyle.secondary),
}


class TableButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tb:(?P<action>quiet-game|quiet|back|rematch|leave-yes|leave-no):(?P<table>\d+)",
):
    """Table-level buttons: "don't ask me this turn", Rematch, and the in-game leave confirmation."""

    def __init__(self, action: str, table_id: int, row: int = 4) -> None:
        label, style = TABLE_BUTTONS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, row=row, custom_id=f"tb:{action}:{table_id}")
        )
        self.action = action
        self.table_id = table_id

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).seats.button(interaction, self.action, self.table_id)


def _style(token: str) -> discord.ButtonStyle:
    if token == "cancel":
        return discord.ButtonStyle.danger
    if token == DONE:
        return discord.ButtonStyle.success
    if token in ("undo", "pass"):
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


class PickButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pk:(?P<scope>[pe]):(?P<table>\d+):(?P<ver>\d+):(?P<path>[\d.]*)",
):
    """One option of a picker step, as a button; its path ends with the option's index.

    ``label`` is the option in words; ``option`` its notation token(s), which set the style."""

    def __init__(
        self,
        scope: str,
        table_id: int,
        version: int,
        path: tuple[int, ...],
        label: str = "?",
        row: int = 0,
        option: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=fit(label, BUTTON_LABEL) or "?",
                style=_style(label if option is None else option),
                row=row,
                custom_id=f"pk:{scope}:{table_id}:{version}:{encode_path(path)}",
            )
        )
        self.scope, self.table_id, self.version, self.path = scope, table_id, version, path

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).play.picked(
            interaction, scope=self.scope, table_id=self.table_id, version=self.version, path=self.path
        )


class PickSelect(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ps:(?P<scope>[pe]):(?P<table>\d+):(?P<ver>\d+):(?P<path>[\d.]*)",
):
    """The options of a large picker step as a select menu; values are option indexes."""

    def __init__(
        self,
        scope: str,
        table_id: int,
        version: int,
        path: tuple[int, ...],
        options: list[tuple[int, str, str]] | None = None,
        placeholder: str = "Choose…",
    ) -> None:
        """``options``: (index, label, description) of each option shown."""
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder,
                row=0,
                options=[
                    discord.SelectOption(
                        label=fit(label, OPTION_LABEL) or "?",
                        value=str(i),
                        description=fit(description, OPTION_DESCRIPTION) or None,
                    )
                    for i, label, description in options or []
                ]
                or [discord.SelectOption(label="?", value="0")],
                custom_id=f"ps:{scope}:{table_id}:{version}:{encode_path(path)}",
            )
        )
        self.scope, self.table_id, self.version, self.path = scope, table_id, version, path

    async def pressed(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        index = whole_number(value, 0)
        if index is None:
            index = MALFORMED[0]
        await _ui(interaction).play.picked(
            interaction,
            scope=self.scope,
            table_id=self.table_id,
            version=self.version,
            path=(*self.path, index),
        )


class NavButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pn:(?P<scope>[pe]):(?P<table>\d+):(?P<ver>\d+):(?P<path>[\d.]*):(?P<page>\d+)",
):
    """Back / previous page / next page in a picker."""

    def __init__(
        self, scope: str, table_id: int, version: int, path: tuple[int, ...], page: int, label: str = "?"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                row=3,
                custom_id=f"pn:{scope}:{table_id}:{version}:{encode_path(path)}:{page}",
            )
        )
        self.scope, self.table_id, self.version, self.path, self.page = scope, table_id, version, path, page

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).play.picked(
            interaction,
            scope=self.scope,
            table_id=self.table_id,
            version=self.version,
            path=self.path,
            page=self.page,
        )


class ChoicesButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pc:(?P<table>\d+):(?P<ver>\d+):(?P<kind>[om])",
):
    """Opens a private picker: for out-of-turn players (o) or for the player's secret choices (m)."""

    def __init__(self, table_id: int, version: int, kind: str, label: str = "Show my choices") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                row=4,
                style=discord.ButtonStyle.success if kind == "m" else discord.ButtonStyle.secondary,
                custom_id=f"pc:{table_id}:{version}:{kind}",
            )
        )
        self.table_id, self.version, self.kind = table_id, version, kind

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).play.open_private_picker(
            interaction, self.table_id, self.version, out_of_turn=self.kind == "o"
        )


class HelpButton(
    BotItem,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"hp:(?P<scope>[pe]):(?P<table>\d+):(?P<ver>\d+):(?P<path>[\d.]*)",
):
    """The **?** of a turn message (scope p) or a private picker (e): explains, privately, the
    decision and every option of the step at ``path``."""

    def __init__(self, scope: str, table_id: int, version: int, path: tuple[int, ...] = ()) -> None:
        super().__init__(
            discord.ui.Button(
                label="?",
                style=discord.ButtonStyle.secondary,
                row=4,
                custom_id=f"hp:{scope}:{table_id}:{version}:{encode_path(path)}",
            )
        )
        self.scope, self.table_id, self.version, self.path = scope, table_id, version, path

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _ui(interaction).help.pressed(
            interaction, scope=self.scope, table_id=self.table_id, version=self.version, path=self.path
        )


ALL_ITEMS = (
    LobbyButton,
    AbandonButton,
    TableButton,
    PickButton,
    PickSelect,
    NavButton,
    ChoicesButton,
    HelpButton,
)
"""Every dynamic item class, for ``bot.add_dynamic_items``."""


def lobby_view(table_id: int, *, has_bots: bool = False) -> discord.ui.View:
    """Join / Leave / Start / Add bot (and Remove bot when a bot is seated) buttons."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave", "start", "addbot"):
        view.add_item(LobbyButton(action, table_id))
    if has_bots:
        view.add_item(LobbyButton("removebot", table_id))
    return view


def leave_view(table_id: int) -> discord.ui.View:
    """The confirmation of leaving a running game."""
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton("leave-yes", table_id, row=0))
    view.add_item(TableButton("leave-no", table_id, row=0))
    return view


def rematch_view(table_id: int) -> discord.ui.View:
    """The Rematch button of a finished game, with Replay and Stats beside it."""
    from cogs.archive import final_buttons

    view = discord.ui.View(timeout=None)
    view.add_item(TableButton("rematch", table_id, row=0))
    for item in final_buttons(table_id):
        view.add_item(item)
    return view


def abandon_view(table_id: int) -> discord.ui.View:
    """Confirm / keep buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(AbandonButton("yes", table_id))
    view.add_item(AbandonButton("no", table_id))
    return view


def _add_step(
    view: discord.ui.View, scope: str, record: TableRecord, step: Step, page: int, words: Words = raw_words
) -> None:
    """The options of ``step`` (buttons, or a select with pages), in ``words``, then Back.
    Rows used: 0–1 (buttons or the select) and 3 (Back, pages); row 4 is left for the rest."""
    table_id, version = record.id, record.version
    if len(step.options) <= BUTTONS_UP_TO:
        for index, option in enumerate(step.options):
            label, _ = words(step.tokens, option)
            path = (*step.path, index)
            view.add_item(PickButton(scope, table_id, version, path, label, row=index // 5, option=option))
    else:
        page = min(max(page, 0), step.pages - 1)
        start, shown = step.page(page)
        placeholder = "Choose…" if step.pages == 1 else f"Choose… (page {page + 1} of {step.pages})"
        view.add_item(
            PickSelect(
                scope,
                table_id,
                version,
                step.path,
                [(start + i, *words(step.tokens, option)) for i, option in enumerate(shown)],
                placeholder,
            )
        )
        if page > 0:
            view.add_item(NavButton(scope, table_id, version, step.path, page - 1, "◀ Previous"))
        if page < step.pages - 1:
            view.add_item(NavButton(scope, table_id, version, step.path, page + 1, "Next ▶"))
    if step.path:
        view.add_item(NavButton(scope, table_id, version, step.path[:-1], 0, "↩ Back"))


def turn_view(
    record: TableRecord, prompt: Prompt, step: Step | None, page: int, words: Words = raw_words
) -> discord.ui.View:
    """Components of the public turn message for this prompt: the step's options in ``words``
    (rows 0–3), then on row 4 the private-picker buttons, "don't ask me" (this turn, this game)
    and **?** (at most 5)."""
    view = discord.ui.View(timeout=None)
    split = prompt.private and bool(prompt.secret_verbs)
    if step is not None and (split or not prompt.private):  # a split prompt's public choices
        _add_step(view, PUBLIC, record, step, page, words)
    if prompt.private and prompt.player is not None:  # shown whatever is usable: see Prompt
        label = prompt.secret_label if split and prompt.secret_label else "Show my choices"
        view.add_item(ChoicesButton(record.id, record.version, "m", label))
    if prompt.others:
        view.add_item(ChoicesButton(record.id, record.version, "o", prompt.others_label or "Act out of turn"))
        if prompt.player is None and prompt.timeout:  # a timed wait for the others' answers
            view.add_item(TableButton("quiet", record.id))
            view.add_item(TableButton("quiet-game", record.id))
    if record.meta.away:
        view.add_item(TableButton("back", record.id))
    path = step.path if step is not None and (split or not prompt.private) else ()
    view.add_item(HelpButton(PUBLIC, record.id, record.version, path))
    return view


def private_view(record: TableRecord, step: Step, page: int, words: Words = raw_words) -> discord.ui.View:
    """Components of an ephemeral picker for one player (with its own **?** on row 4)."""
    view = discord.ui.View(timeout=None)
    _add_step(view, PRIVATE, record, step, page, words)
    view.add_item(HelpButton(PRIVATE, record.id, record.version, step.path))
    return view
