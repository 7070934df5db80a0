"""Two things SimCord 3.2.1 does with timers that made whole games stop settling
(docs/testing-stalls.md), pinned here so that a SimCord release that changes them is noticed.

A plain ``asyncio.sleep`` counts as work in progress once less than the settle timeout is left of
it (SimCord's "a sleep shorter than settle_timeout runs in real time"), also the tail of a long
periodic sleep: an action then waits for it in real time, and the virtual clock jumps to its end.
The bot's periodic work therefore uses ``discord.ext.tasks.loop``, which SimCord always counts as
parked (bot/health.py's status line, the tending loop).

A short timeout that races work outside the bot's event loop does not fire while that work is
pending. SimCord moves its
virtual clock, also for a timer's real-time fallback, only once the bot has settled, and a task
waiting for a socket (a worker process's answer) has not. So ``asyncio.wait(..., timeout=0.2)``
on a read that takes 1 s returns after 1 s, with the read done, where plain asyncio returns after
0.2 s with nothing done.

The bot's board pool relies on such a race in production (a board late from an idle-class worker
goes to the backup after 0.15 s): under SimCord it cannot happen, which is why the tests run the
board workers without it (tests/conftest.py). If this test starts failing, SimCord fires such
timeouts in real time, and that workaround can be reconsidered.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import discord
import pytest
from discord import app_commands
from discord.ext import commands

WORK_S = 1.0
TIMEOUT_S = 0.2


class Lab(commands.Bot):
    """A bot with one command that races a slow answer from outside against a short timeout."""

    def __init__(self, tick: float | None = None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.tick = tick
        self.outcome: tuple[bool, float] | None = None

        @app_commands.command(name="race", description="Race an outside answer against a timeout")
        async def race(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            ours, theirs = socket.socketpair()
            threading.Thread(target=lambda: (time.sleep(WORK_S), theirs.send(b"x")), daemon=True).start()
            reader, writer = await asyncio.open_connection(sock=ours)
            reading = asyncio.ensure_future(reader.readexactly(1))
            started = time.perf_counter()
            done, _ = await asyncio.wait({reading}, timeout=TIMEOUT_S)
            self.outcome = (bool(done), time.perf_counter() - started)
            await reading
            writer.close()
            theirs.close()
            await interaction.followup.send("done")

        self.tree.add_command(race)

        @app_commands.command(name="ping", description="Answer at once")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        self.tree.add_command(ping)
        self.ticks = 0

    async def tick_every(self, seconds: float) -> None:
        """Periodic work around a plain sleep (what the bot's status line once was)."""
        while True:
            await asyncio.sleep(seconds)
            self.ticks += 1

    async def setup_hook(self) -> None:
        await self.tree.sync()
        if self.tick is not None:
            self.loop.create_task(self.tick_every(self.tick))


@pytest.fixture
def simcord_bot(request: pytest.FixtureRequest) -> Lab:
    return Lab(tick=getattr(request, "param", None))


@pytest.mark.simcord(settle_timeout=5)
@pytest.mark.parametrize("simcord_bot", [2.0], indirect=True)
async def test_a_plain_sleep_loop_holds_an_action_near_its_end_and_moves_the_virtual_clock(simcord_env):
    env = simcord_env
    guild = env.create_guild("Lab")
    channel = guild.create_text_channel("lab")
    alice = guild.add_member(env.create_user("alice"))
    bot = env.bot
    started = env.now()
    assert (await alice.slash(channel, "ping")).response.content == "pong"
    # The action waited for the 2 s sleep (less than the 5 s settle timeout) to end in real
    # time: the loop ticked and the virtual clock moved, though no time was advanced.
    assert bot.ticks >= 1 and (env.now() - started).total_seconds() >= 2.0


@pytest.mark.simcord(settle_timeout=10)
async def test_a_short_timeout_racing_work_outside_the_loop_does_not_fire_under_simcord(simcord_env):
    env = simcord_env
    guild = env.create_guild("Lab")
    channel = guild.create_text_channel("lab")
    alice = guild.add_member(env.create_user("alice"))
    result = await alice.slash(channel, "race")
    assert result.response.content == "done"
    bot = env.bot
    assert bot.outcome is not None
    timed_out = not bot.outcome[0]
    assert not timed_out, "SimCord fired the 0.2 s timeout while the outside work was pending"


async def test_the_same_race_in_plain_asyncio_times_out():
    """The control: without SimCord the 0.2 s timeout fires before the 1 s answer."""
    ours, theirs = socket.socketpair()
    threading.Thread(target=lambda: (time.sleep(WORK_S), theirs.send(b"x")), daemon=True).start()
    reader, writer = await asyncio.open_connection(sock=ours)
    reading = asyncio.ensure_future(reader.readexactly(1))
    done, _ = await asyncio.wait({reading}, timeout=TIMEOUT_S)
    assert not done
    await reading
    writer.close()
    theirs.close()
