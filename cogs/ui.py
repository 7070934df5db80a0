"""The bot's Discord UI, one part per job: lobby, turn messages, play, private information, seats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.help_button import HelpAnswers
from cogs.lobby_message import LobbyUI
from cogs.play_ui import PlayUI
from cogs.private import PrivateInfo
from cogs.seating import SeatsUI
from cogs.turns import TurnMessages

if TYPE_CHECKING:
    from bot.app import TableBot


class TableUI:
    """Holds the parts of the UI; cogs and components reach them as ``bot.ui.<part>``."""

    def __init__(self, bot: TableBot) -> None:
        self.lobby = LobbyUI(bot)
        """Lobby messages and buttons, start, abandon."""
        self.turns = TurnMessages(bot)
        """Turn messages: building, posting, editing, outcomes."""
        self.play = PlayUI(bot)
        """Pickers and applying actions."""
        self.private = PrivateInfo(bot)
        """DMs and /game hand."""
        self.seats = SeatsUI(bot)
        """Hand-overs, leaving a game, pause, /game turns, rematch, "don't ask me"."""
        self.help = HelpAnswers(bot)
        """The **?** button: what the decision and each option mean."""
