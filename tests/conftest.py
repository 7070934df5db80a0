"""Shared fixtures: a bot built through create_bot on a temporary database, and a small world."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from bot.app import create_bot
from bot.config import Settings
from bot.engine.registry import discover
from cogs.boards import BOARDS
from tests import pg, stalls
from tests.discord_api.contract import SPEC_COMMIT, contract
from tests.pebbles import Pebbles

GAMES = [*discover(), Pebbles]
#: Request bodies checked against Discord's contract, per (method, path template), in this process.
CONTRACT_TOTALS = pytest.StashKey[Counter[tuple[str, str]]]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "discord_contract(False): do not check this SimCord test's request bodies against Discord's "
        "OpenAPI description (for a test that sends a body Discord rejects on purpose)",
    )
    config.stash[CONTRACT_TOTALS] = Counter()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Discord's contract (tests/discord_api): after a SimCord test passes, every request body the
    bot sent (``env.http_requests``) must be one Discord accepts, or the test fails naming the route,
    the field and the limit."""
    result = yield
    env = getattr(item, "funcargs", {}).get("simcord_env")
    marker = item.get_closest_marker("discord_contract")
    if env is None or (marker is not None and marker.args and not marker.args[0]):
        return result
    checker = contract()
    before = checker.validated.copy()
    violations = checker.check_log(env.http_requests)
    item.config.stash[CONTRACT_TOTALS].update(checker.validated - before)
    if violations:
        shown = "\n".join(f"  {v}" for v in violations[:20])
        more = f"\n  … and {len(violations) - 20} more" if len(violations) > 20 else ""
        pytest.fail(
            f"{len(violations)} request bod{'y' if len(violations) == 1 else 'ies'} Discord would reject "
            f"(its OpenAPI description, tests/discord_api):\n{shown}{more}",
            pytrace=False,
        )
    return result


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After a stall (tests/stalls.py), make sure the run ends even if a thread of the stalled bot
    never does. A pytest-xdist worker hands its contract counts to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        totals = session.config.stash[CONTRACT_TOTALS]
        workeroutput["discord_contract"] = [[m, t, n] for (m, t), n in totals.items()]
    stalls.exit_if_stuck(int(exitstatus))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """pytest-xdist's controller adds up the workers' contract counts."""
    for method, template, count in getattr(node, "workeroutput", {}).get("discord_contract", []):
        node.config.stash[CONTRACT_TOTALS][(method, template)] += count


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """How many request bodies the run checked against Discord's contract, per route."""
    totals = config.stash.get(CONTRACT_TOTALS, Counter())
    if not totals or hasattr(config, "workerinput"):
        return
    terminalreporter.write_line(
        f"Discord contract: {sum(totals.values())} request bodies checked on {len(totals)} routes "
        f"(discord-api-spec {SPEC_COMMIT[:10]})"
    )
    if config.getoption("verbose") > 0:
        for (method, template), count in sorted(totals.items(), key=lambda kv: -kv[1]):
            terminalreporter.write_line(f"  {count:7d}  {method} {template}")

# The same examples on every run, so that CI passes or fails exactly as a local run did.
# (Engine authors ran many more random games by hand; see the rules tests.)
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None)
hypothesis_settings.load_profile("repeatable")

# The bots' board workers (a bot whose AI runs in processes) run at nice +10 in the tests, not in
# Linux's idle class with a backup worker. SimCord settles only when every piece of the bot's work
# is done, also a board an idle-class worker still draws after the backup drew it, and its virtual
# clock cannot fire the 0.15 s timeout that sends a late board to the backup while the board is
# being drawn: on a busy host a starved idle-class worker then held a click for tens of seconds,
# and the test stopped settling (docs/testing-stalls.md). The idle class and the backup are tested
# without SimCord (tests/test_board_workers.py). TEST_BOARD_PRIORITY=idle brings them back.
BOARDS.priority = os.environ.get("TEST_BOARD_PRIORITY", "nice")


def _serve() -> Iterator[pg.Server]:
    try:
        server = pg.start()
    except pg.NoServer as exc:
        pytest.fail(f"these tests need a PostgreSQL server, and none could be started: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL server for the whole session (see tests/pg.py). If none can be started,
    every test that needs it fails with the reason; none is skipped."""
    yield from _serve()


@pytest.fixture(scope="module")
def own_server():
    """A PostgreSQL server of the test module's own, so that stopping or freezing it disturbs no
    other test (fails, never skips, like ``pg_server``)."""
    yield from _serve()


@pytest.fixture
def pg_url(pg_server) -> str:
    """The URL of a fresh, empty database on the session's server."""
    return pg_server.database()


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request, tmp_path: Path) -> str:
    """Where a store lives, once per backend: a SQLite file path, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "data" / "games.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        token="test-token", database_path=tmp_path / "data" / "games.db", ai_workers=0, ai_budget=0.05
    )


class Seeds:
    """The seed of the next table a test bot opens: fixed when ``value`` is set, else random."""

    def __init__(self) -> None:
        self.value: int | None = None

    def __call__(self) -> int:
        return self.value if self.value is not None else random.randrange(2**63)


@pytest.fixture
def seeds() -> Seeds:
    return Seeds()


@pytest.fixture
async def make_bot(settings: Settings, seeds: Seeds):
    """Builds fresh bots on the same database (for restarts); closes their databases at the end."""
    made = []

    def make():
        made.append(create_bot(settings, games=GAMES, seeder=seeds))
        return made[-1]

    yield make
    for bot in made:  # simcord never calls bot.close(); free the database threads ourselves
        if bot.host is not None:
            await bot.host.close()


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@dataclass
class World:
    env: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object
    dave: object


@pytest.fixture
def world(simcord_env) -> World:
    env = simcord_env
    guild = env.create_guild("Lab")
    channel = guild.create_text_channel("games")
    users = [guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol", "dave")]
    return World(env, guild, channel, *users)
