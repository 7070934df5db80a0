"""Soak: whole games of Argo and Argoat through SimCord with random clicks, two tables at a time,
with bot seats (so the AI and the scheduler take part), on a bot whose AI runs on a thread and on
one with the default worker pools (the AI in worker processes, the boards in worker processes, at
nice +10 under the tests: tests/conftest.py). It must finish: a game that stops settling fails the
test with a dump of every asyncio task and thread (tests/stalls.py, docs/testing-stalls.md).

Ten games of each game in all: five rounds per pool setting, each round one Argo table and one
Argoat table played side by side in two channels of the same bot (their clicks interleaved). Each
round after the first restarts the bot (a new bot object on the same database and event loop),
so its first ``/game new`` is a fresh bot's. Now and then an hour passes: the people's one-hour
clocks run out at both tables at once and the scheduler has the AI play for them (or the table
waits, with ``idle=wait``), Time Machine holds and trade offers time out. Then fresh bots, each
in a new event loop as each test has, open their first table (``SOAK_FRESH``, default 5).

Long (3-6 minutes on two cores): it runs only with ``ARGO_SOAK_TEST=1`` (``.ci/run`` does, after
the compiled test). ``SOAK_SEED`` changes the games (default: fixed), ``AI_BUDGET`` the bots'
seconds per decision (default 0.05; ``default``: each level's own), ``SOAK_ROUNDS`` the rounds per
setting (default 5), ``SOAK_SETTLE`` SimCord's settle timeout (default 120 s), ``SOAK_STEP_LIMIT``
and ``SOAK_TOTAL_LIMIT`` when the watchdog calls it a stall (300 s without progress, 1500 s in all).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.config import Settings, default_ai_workers
from bot.store import PLAYING
from tests.conftest import GAMES
from tests.driver import Driver, random_policy
from tests.stalls import Watchdog, full_dump

if os.environ.get("ARGO_SOAK_TEST") != "1":
    pytest.skip(
        "the soak test plays 20 whole games through SimCord (several minutes): set ARGO_SOAK_TEST=1 "
        "to run it (.ci/run does)",
        allow_module_level=True,
    )

# Bots think and boards are drawn in real time, on a machine other jobs share.
pytestmark = pytest.mark.simcord(settle_timeout=float(os.environ.get("SOAK_SETTLE", "120")))

SEED = int(os.environ.get("SOAK_SEED", "33"))
ROUNDS = int(os.environ.get("SOAK_ROUNDS", "5"))
_BUDGET = os.environ.get("AI_BUDGET", "0.05")
AI_BUDGET = None if _BUDGET in ("", "default") else float(_BUDGET)
"""The bots' seconds per decision (``AI_BUDGET=default``: each level's own budget)."""
SCHEDULER_SECONDS = 60.0
"""Virtual seconds between the scheduler's ticks (an hour that passes costs 60 ticks)."""
STEP_LIMIT = float(os.environ.get("SOAK_STEP_LIMIT", "300"))
"""Real seconds one step (a click and everything it sets off) may take before it counts as a stall."""
TOTAL_LIMIT = float(os.environ.get("SOAK_TOTAL_LIMIT", "1500"))
"""Real seconds a whole test (one pool setting) may take."""
MAX_STEPS = 3000
"""Steps (actions of people, hours passing) a round may take before it counts as endless."""
HOUR_CHANCE = 1 / 25
"""The chance, at each step, that an hour passes instead of a click."""
BOT_WAIT_TICKS = 30
"""Scheduler ticks a bot seat may leave its decision waiting before it counts as a stall."""

HUMANS = ("alice", "bob", "carol", "dave")


@dataclass
class Side:
    """One of the two tables of a round: its channel, its people and the driver clicking for them."""

    game: str
    channel: Any
    people: list[Any]
    driver: Driver
    steps: int = 0
    hours: int = 0
    bot_waits: int = 0
    done: bool = False
    slowest: tuple[float, str] = (0.0, "")
    """The longest step in real seconds, and what it was."""


def _options(game: str, rng: random.Random) -> str:
    """Random table options for a round (one or two bots, one-hour clocks; the AI never takes a
    seat over for good)."""
    bots = rng.choice((1, 2))
    level = rng.choice(("easy", "normal", "hard"))
    common = f"bots={bots} level={level} clock=1 away_after=0 idle={rng.choice(('bot', 'bot', 'wait'))}"
    if game == "Argo":
        extra = f"tm_wait={rng.choice((0, 30, 120))} difficulty={rng.choice(('easy', 'medium', 'hard'))}"
    else:
        extra = f"trade_wait={rng.choice((0, 30, 60))} difficulty={rng.choice(('adventurer', 'journeyman'))}"
    return f"{common} {extra}"


async def _open(env: Any, side: Side, options: str) -> None:
    host, *others = side.people
    lobby = (await host.slash(side.channel, "game new", game=side.game, options=options)).response
    assert lobby is not None, f"{side.game}: /game new was not answered"
    for person in others:
        await person.click(lobby, label="Join")
    await host.click(lobby, label="Start")


async def _table(bot: Any, side: Side) -> Any:
    return await bot.host.current(side.channel.id)


def _awaited_person(table: Any, side: Side) -> str | None:
    """The person the driver should click for now (None: nobody — the bots or the clock)."""
    game = table.game
    prompt = game.prompt()
    if prompt is None:
        return None
    if prompt.player is None:
        people = [seat for seat in prompt.others if seat in side.driver.actors]
        return people[0] if people and {"type": "pass"} in game.legal_actions(people[0]) else None
    return prompt.player if prompt.player in side.driver.actors else None


async def _step(env: Any, bot: Any, side: Side, rng: random.Random) -> None:
    """One step of one table: a person's action through clicks, or, if no person is awaited, a
    scheduler tick (a bot seat's decision should never wait for one)."""
    table = await _table(bot, side)
    if table is None or table.record.status != PLAYING or table.game is None:
        side.done = True
        return
    person = _awaited_person(table, side)
    if person is None:
        side.bot_waits += 1
        assert side.bot_waits <= BOT_WAIT_TICKS, (
            f"{side.game} table #{table.record.id}: nobody clicks for {table.game.prompt()!r} and "
            f"{BOT_WAIT_TICKS} scheduler ticks did not move it"
        )
        await env.advance_time(SCHEDULER_SECONDS)
        return
    side.bot_waits = 0
    side.steps += 1
    started = time.perf_counter()
    action = await side.driver.step()
    took = time.perf_counter() - started
    if took > side.slowest[0]:
        side.slowest = (took, f"action {side.steps}: {action}")


async def _hour(env: Any, sides: list[Side]) -> None:
    """An hour passes (in 10-minute steps): clocks run out at both tables at once."""
    for _ in range(6):
        await env.advance_time(600)
    for side in sides:
        side.hours += 1


async def _round(
    env: Any, bot: Any, sides: list[Side], rng: random.Random, dog: Watchdog, label: str
) -> None:
    for side in sides:
        options = _options(side.game, rng)
        dog.beat(f"{label}: opening {side.game} ({options})")
        await _open(env, side, options)
        print(f"{label}: {side.game} in #{side.channel.name}: {options}", flush=True)
    for count in range(MAX_STEPS):
        live = [side for side in sides if not side.done]
        if not live:
            return
        if rng.random() < HOUR_CHANCE:
            dog.beat(f"{label} step {count}: an hour passes")
            await _hour(env, live)
            continue
        for side in live:  # the two tables' clicks interleaved
            dog.beat(f"{label} step {count}: {side.game} (action {side.steps})")
            await _step(env, bot, side, rng)
    raise AssertionError(f"{label}: the games did not end within {MAX_STEPS} steps")


async def _soak(env: Any, settings: Settings, tmp_path: Path, name: str, made: list[Any]) -> None:
    rng = random.Random(f"{SEED}:{name}")
    guild = env.create_guild("Soak")
    channels = [guild.create_text_channel(f"{name}-argo"), guild.create_text_channel(f"{name}-argoat")]
    people = {who: guild.add_member(env.create_user(who)) for who in HUMANS}
    dog = Watchdog(env, STEP_LIMIT, TOTAL_LIMIT, tmp_path / "stall.txt")
    started = time.perf_counter()
    with dog.running():
        for number in range(ROUNDS):
            label = f"{name} round {number + 1}/{ROUNDS}"
            if number:  # every round on a freshly started bot, on the same database
                dog.beat(f"{label}: restarting the bot")
                previous = made[-1]
                fresh = create_bot(settings, games=GAMES, seeder=lambda: rng.randrange(2**63))
                made.append(fresh)
                await env.restart_bot(fresh)
                previous.thinker.close()  # the old bot's AI workers (the boards' are shared)
                await previous.host.close()
            bot = made[-1]
            pair = rng.sample(HUMANS, 4)
            sides = []
            for game, channel, seated in (
                ("Argo", channels[0], pair[: rng.choice((1, 2))]),
                ("Argoat", channels[1], pair[2 : 2 + rng.choice((1, 2))]),
            ):
                actors = [people[who] for who in seated]
                avoid = ("cancel", "undo") if game == "Argo" else ("cancel", "undo", "withdraw")
                policy = random_policy(random.Random(rng.randrange(2**32)), avoid=avoid)
                driver = Driver(env, bot, channel, {str(a.id): a for a in actors}, policy)
                sides.append(Side(game, channel, actors, driver))
            try:
                await _round(env, bot, sides, rng, dog, label)
            except TimeoutError as exc:  # SimCord's "did not settle": the loop runs, dump it here
                loop = asyncio.get_running_loop()
                raise AssertionError(f"{label}: {exc}\n{full_dump(loop, env, str(exc))}") from exc
            for side in sides:
                table = await bot.host.latest(side.channel.id)
                assert table.record.status == "finished", f"{label}: {side.game} ended {table.record.status}"
            summary = "; ".join(
                f"{s.game}: {s.steps} clicked actions, {s.hours} hours passed, slowest step "
                f"{s.slowest[0]:.1f} s ({s.slowest[1]})"
                for s in sides
            )
            print(f"{label}: done in {time.perf_counter() - started:.0f} s ({summary})", flush=True)
    assert not env.errors, env.errors


@pytest.fixture
def soak_settings(tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    workers = 0 if request.param == "threads" else default_ai_workers()
    return Settings(
        token="test-token",
        database_path=tmp_path / "data" / "games.db",
        ai_workers=workers,
        ai_budget=AI_BUDGET,
        scheduler_seconds=SCHEDULER_SECONDS,
    )


@pytest.fixture
def made() -> list[Any]:
    return []


@pytest.fixture
async def simcord_bot(soak_settings: Settings, made: list[Any], request: pytest.FixtureRequest):
    rng = random.Random(f"{SEED}:seeds:{request.node.name}")
    made.append(create_bot(soak_settings, games=GAMES, seeder=lambda: rng.randrange(2**63)))
    yield made[0]
    for bot in made:
        bot.thinker.close()
        if bot.host is not None:
            await bot.host.close()


@pytest.mark.parametrize("soak_settings", ["threads", "processes"], indirect=True)
async def test_whole_games_two_tables_at_a_time_finish(
    simcord_env, simcord_bot, soak_settings, made, tmp_path
):
    name = "threads" if soak_settings.ai_workers == 0 else "processes"
    await _soak(simcord_env, soak_settings, tmp_path, name, made)


FRESH = int(os.environ.get("SOAK_FRESH", "5"))
"""Fresh bots (each in its own event loop, as each test has) whose first table is opened."""


@pytest.mark.parametrize("soak_settings", ["processes"], indirect=True)
@pytest.mark.parametrize("attempt", range(FRESH))
async def test_a_fresh_bots_first_game_new_settles(
    simcord_env, simcord_bot, soak_settings, tmp_path, attempt
):
    """A bot just started with the default pools (in a new event loop, after other bots of this
    process): its very first ``/game new`` settles, and so does the start, where the bots play first
    and the first boards are drawn."""
    env = simcord_env
    guild = env.create_guild("Fresh")
    channel = guild.create_text_channel("fresh")
    alice = guild.add_member(env.create_user("alice"))
    dog = Watchdog(env, STEP_LIMIT, STEP_LIMIT, tmp_path / "stall.txt")
    with dog.running():
        try:
            dog.beat("/game new")
            lobby = (await alice.slash(channel, "game new", game="Argo", options="bots=3 tm_wait=0")).response
            assert lobby is not None and "4 seated" in lobby.content
            dog.beat("Start")
            await alice.click(lobby, label="Start")
        except TimeoutError as exc:
            raise AssertionError(f"{exc}\n{full_dump(asyncio.get_running_loop(), env, str(exc))}") from exc
    table = await simcord_bot.host.current(channel.id)
    assert table.record.status == PLAYING and table.game.prompt().player == str(alice.id)
