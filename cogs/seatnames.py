"""Seats in words: a seat by its colour ("🟦 Blue") and its holder by the name they had when they
took it (Discord's member list is not available without the members intent)."""

from __future__ import annotations

import discord

from bot import seats
from bot.tables import Table

SQUARES = {
    "Red": "🟥",
    "Blue": "🟦",
    "Green": "🟩",
    "Yellow": "🟨",
    "Purple": "🟪",
    "Orange": "🟧",
    "Brown": "🟫",
    "Black": "⬛",
    "White": "⬜",
}
"""A coloured square for each seat colour a game may use."""


def seat_colour(table: Table, seat: str) -> str:
    """The seat by its colour in the game's public view ("🟦 Blue"), else by number ("Seat 2")."""
    if table.game is not None:
        for player in table.public_view().get("players", []):
            if player.get("id") == seat and player.get("colour"):
                colour = str(player["colour"])
                square = SQUARES.get(colour)
                return f"{square} {colour}" if square else colour
    number = table.record.seats.index(seat) + 1 if seat in table.record.seats else 0
    return f"Seat {number}"


def holder_label(table: Table, seat: str, guild: discord.Guild | None = None) -> str:
    """The seat's holder in plain words (no mention): the display name kept when they took the
    seat, "Bot 2 (normal)" for a bot."""
    holder = table.holder_of(seat)
    if seats.is_bot(holder):
        return seats.name_of(table.record, seat)
    kept = seats.display_name(table.record, holder)
    if kept:
        return kept
    member = guild.get_member(int(holder)) if guild is not None and holder.isdigit() else None
    return member.display_name if member is not None else f"player {holder}"


def seat_choice(table: Table, seat: str, guild: discord.Guild | None = None) -> str:
    """How a seat is offered in a list: "🟦 Blue seat: alice"."""
    return f"{seat_colour(table, seat)} seat: {holder_label(table, seat, guild)}"
