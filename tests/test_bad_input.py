"""Hostile input to every option of every command (SimCord, the real bot): odd digits ("²", "٣"),
numbers too long for the database, huge texts, paths, mentions. Each gets a short private answer,
nothing is logged with a traceback, nothing fails unhandled, and the database is unchanged; every
autocomplete answers a list. Issue 39, fault 3: ``/game replay table:²`` and a 26-digit table
crashed, and so did ``/game quiet`` with a 400-digit or 6,000-letter time zone."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import simcord
from discord import AppCommandOptionType, app_commands

from tests.test_bot_play import start_game

pytestmark = pytest.mark.simcord(settle_timeout=20)

HOSTILE = (
    "²",  # a digit to str.isdigit(), not to int()
    "٣",  # an Arabic-Indic three: int() reads it
    "３",  # a full-width three
    "9" * 26,  # more than a 64-bit integer
    "9" * 400,
    "x" * 6000,  # Discord's longest option text
    "-1",
    "0",
    "../../../../etc/passwd",
    "'; DROP TABLE tables; --",
    "%_%",
    "@everyone <@&1> <#1>",
    "\u202eevil\u0000",
    "🂡" * 50,
)
"""Values no option expects."""

SHORT = 400
"""The longest answer that counts as short (a refusal is one or two sentences)."""

VALID = {
    "game": "Pebbles",
    "start": "22:00",
    "end": "07:00",
    "timezone": "Europe/Berlin",
    "action": "take 1",
    "days": 2,
}
"""Good values for the options a hostile one is sent beside (by option name)."""


Option = tuple[str, app_commands.Command, app_commands.Parameter]


def options(tree: app_commands.CommandTree) -> Iterator[Option]:
    """Every option of every slash command: ``(qualified name, command, parameter)``."""
    pending: list[app_commands.Command | app_commands.Group] = list(tree.get_commands())
    while pending:
        command = pending.pop()
        if isinstance(command, app_commands.Group):
            pending.extend(command.commands)
            continue
        for parameter in command.parameters:
            yield command.qualified_name, command, parameter


def fillers(command: app_commands.Command, skip: str, seat: str) -> dict[str, object]:
    """Good values for the command's required options other than ``skip``."""
    filled: dict[str, object] = {}
    for parameter in command.parameters:
        if parameter.name == skip or not parameter.required:
            continue
        filled[parameter.name] = seat if parameter.name == "player" else VALID[parameter.name]
    return filled


async def dump(store) -> list[object]:
    """Every row of the tables a command could change."""
    return [
        await store.sql(f"SELECT * FROM {name} ORDER BY 1")
        for name in ("tables", "events", "seat_views", "people", "results", "ladders")
    ]


def tracebacks(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_every_option_of_every_command_refuses_hostile_values_briefly_and_changes_nothing(
    world, simcord_bot, caplog
):
    w = world
    bot = simcord_bot
    turn = await start_game(w, options="pile=3 maxtake=3")
    await w.alice.click(turn, label="take 3")  # a finished table for /game replay and /game stats
    turn = await start_game(w)  # and a running one: alice decides
    seat = str(w.alice.id)
    await w.alice.slash(w.channel, "game stats")  # the archive records the finished game once
    before = await dump(bot.host.store)
    caplog.set_level(logging.INFO)

    tried = refused_by_discord = 0
    for name, command, parameter in options(bot.tree):
        if parameter.type in (AppCommandOptionType.boolean, AppCommandOptionType.user):
            continue  # Discord sends only true/false, and a member it resolved
        values: tuple[object, ...] = HOSTILE
        if parameter.type is AppCommandOptionType.integer:
            values = (0, -1, 61, 2**53)
        for value in values:
            # /game new answers from a channel without a table (else it says there is one)
            channel = w.guild.create_text_channel(f"new-{tried}") if name == "game new" else w.channel
            filled = fillers(command, parameter.name, seat)
            try:
                r = await w.alice.slash(channel, name, **filled, **{parameter.name: value})
            except simcord.OptionError as exc:  # Discord itself refuses the value (a choice, a range)
                refused_by_discord += 1
                assert parameter.choices or parameter.type is AppCommandOptionType.integer, (name, exc)
                continue
            tried += 1
            said = [m for m in [r.response, *r.followups] if m is not None]
            where = f"/{name} {parameter.name}={str(value)[:20]!r}"
            assert r.acknowledged and said, where
            assert all(m.ephemeral and len(m.content) <= SHORT for m in said), (where, said[0].content[:200])
            assert not w.env.errors, (where, w.env.errors)
            assert not tracebacks(caplog), (where, tracebacks(caplog))
        if parameter.autocomplete:
            for value in HOSTILE:
                filled = fillers(command, parameter.name, seat)
                choices = await w.alice.autocomplete(w.channel, name, parameter.name, str(value), **filled)
                assert isinstance(choices, list) and len(choices) <= 25, (name, parameter.name)
                assert not tracebacks(caplog), (name, parameter.name, tracebacks(caplog))
    assert tried > 200 and refused_by_discord < tried
    assert await dump(bot.host.store) == before
    table = await bot.host.current(w.channel.id)
    assert table.game.to_json()["pile"] == 10
