"""How the archive names who played — one name for each seat, the same as during the game.

A seat's holder is named as ``bot.seats.name_of`` names it on the turn messages: a person by a
mention (or, in a picture, by the display name they had), a bot by its seat and level ("Bot 3
(easy)"), and someone who used ``/game forget-me`` as "a former player" — never by the pseudonym
that replaced their id. Only the rating ladder has entries that are not seats: all the bots of one
level are one entry there ("Bots (easy)": one AI at that level plays them all; docs/archive.md),
and former players' entries are never shown (:func:`listed`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot import seats
from bot.store.forgetting import FORMER, FORMER_NAME


def is_former(holder: str) -> bool:
    """True for the pseudonym of someone forgotten (``/game forget-me``)."""
    return holder.startswith(FORMER)


def mention(holder: str) -> str:
    """A person as archive texts write them: a mention (shown, never pinging)."""
    return f"<@{holder}>"


def bot_name(number: int, holder: str) -> str:
    """A bot seat: "Bot 3 (easy)" (its number at the table, its level)."""
    return f"Bot {number} ({seats.level_of(holder)})"


def holder_name(holder: str, number: int, person: Callable[[str], str] = mention) -> str:
    """Who held seat number ``number`` (1 for the first seat) as the game named them: a bot by seat
    and level, a forgotten person as "a former player", anyone else by ``person`` (a mention for a
    text, a display name for a picture)."""
    if seats.is_bot(holder):
        return bot_name(number, holder)
    if is_former(holder):
        return FORMER_NAME
    return person(holder)


def seat_number(seat_ids: tuple[str, ...] | list[str], seat: str) -> int:
    """The seat's number at its table (1 for the first seat; 0 if it is not one of them)."""
    return list(seat_ids).index(seat) + 1 if seat in seat_ids else 0


def picture_name(labels: Mapping[str, str]) -> Callable[[str], str]:
    """``person`` for :func:`holder_name` in a picture: the display name the cog found for them
    ("a player" if none)."""
    return lambda holder: labels.get(holder, "a player")


def entry_name(player: str) -> str:
    """A rating ladder's entry as the leaderboard and stats name it: a person by mention, all the
    bots of a level as one entry ("Bots (easy)"), a forgotten person as "a former player"."""
    if seats.is_bot(player):
        return f"Bots ({seats.level_of(player)})"
    if is_former(player):
        return FORMER_NAME
    return mention(player)


def listed(player: str) -> bool:
    """True if the leaderboard shows this entry: not for a forgotten person (their entry stays
    under its pseudonym so that nobody else's rating changes, but it names nobody any more)."""
    return not is_former(player)
