"""/livez, /readyz (and /healthz), /metrics and the status line of the running bot (SimCord, login
faked), through real HTTP requests to the port METRICS_PORT names."""

from __future__ import annotations

import collections
import dataclasses
import logging
import re
import socket
from pathlib import Path

import aiohttp
import pytest

from bot import health, metrics
from bot.config import Settings

SCHEDULER_SECONDS = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def settings(tmp_path: Path, request) -> Settings:
    """The bot's settings; ``param``: a shard count (default: not sharded)."""
    made = Settings(
        token="test-token",
        database_path=tmp_path / "data" / "games.db",
        ai_workers=0,
        ai_budget=0.05,
        scheduler_seconds=SCHEDULER_SECONDS,
        metrics_port=_free_port(),
    )
    count, ids = getattr(request, "param", (None, None))
    return dataclasses.replace(made, shard_count=count, shard_ids=ids)


async def get(bot, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{bot.settings.metrics_port}{path}") as response,
    ):
        return response.status, await response.text()


def sample(text: str, name: str, labels: str = "") -> float:
    """One sample's value in a Prometheus text exposition (0 when absent)."""
    pattern = re.escape(name + (f"{{{labels}}}" if labels else "")) + r" ([0-9.e+-]+)$"
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def test_healthz_is_ok_and_metrics_count_what_the_bot_did(world, simcord_bot, seeds):
    w = world
    seeds.value = 21
    status, text = await get(simcord_bot, "/healthz")
    assert status == 200 and text.startswith("ok: gateway connected, database answers, tending ticked"), text
    status, before = await get(simcord_bot, "/metrics")
    assert status == 200

    # A solo Argo table: one person and one bot; the turn message carries a board, and the bot moves.
    lobby = (await w.alice.slash(w.channel, "game new", game="Argo", options="bots=1")).response
    await w.alice.click(lobby, label="Start")
    for _ in range(3):  # let the bot make its decisions when it is its turn
        await w.env.advance_time(SCHEDULER_SECONDS)

    status, after = await get(simcord_bot, "/metrics")
    assert status == 200
    grew = lambda name, labels="": sample(after, name, labels) - sample(before, name, labels)  # noqa: E731
    assert grew("argo_interactions_total", 'kind="application_command"') >= 1
    assert grew("argo_interactions_total", 'kind="component"') >= 1
    assert grew("argo_board_seconds_count") >= 1 and grew("argo_board_seconds_sum") > 0
    assert sample(after, "argo_open_tables", 'shard="0"') == 1  # an unsharded bot is shard 0
    assert 'argo_overdue_deadlines{shard="0"} 0.0' in after
    assert sample(after, "argo_ai_queue_depth") == 0
    assert sample(after, "argo_tending_last_tick_timestamp_seconds") > 1.7e9
    # Seed 21: the bot builds first. Every move is one action; the bot's are one decision each
    # (a move with only one choice is made for the player without asking anyone).
    log = await simcord_bot.host.store.log(1)
    moves = [e for e in log if e.action.get("type") not in ("open", "start")]
    decided = [e for e in moves if e.action.get("by") == "bot:normal"]
    assert decided, [(e.actor, e.action) for e in log]
    assert grew("argo_actions_total", 'game="Argo"') == len(moves)
    assert grew("argo_ai_decision_seconds_count") == len(decided)
    assert "# HELP argo_errors_total" in after


async def test_healthz_says_503_when_the_tending_loop_stops_ticking(world, simcord_bot):
    assert (await get(simcord_bot, "/healthz"))[0] == 200
    simcord_bot.get_cog("GameCog").tend_tables.cancel()
    await world.env.advance_time(3 * SCHEDULER_SECONDS + 1)
    status, text = await get(simcord_bot, "/healthz")
    assert status == 503
    assert text.startswith("unhealthy: the tending loop last ticked 3") and "(limit 30 s)" in text, text


async def test_readyz_says_503_once_the_background_check_finds_the_database_failing(
    world, simcord_bot, monkeypatch
):
    async def failing(query, params=()):
        raise OSError("disk I/O error")

    monkeypatch.setattr(simcord_bot.host.store, "sql", failing)
    await world.env.advance_time(health.REFRESH_SECONDS)  # the next background check
    for path in ("/readyz", "/healthz"):
        status, text = await get(simcord_bot, path)
        assert status == 503 and text == "unhealthy: the database does not answer: disk I/O error\n"
    assert (await get(simcord_bot, "/metrics"))[0] == 200  # the figures are still served
    status, text = await get(simcord_bot, "/livez")  # the process and its loop are fine
    assert status == 200 and text.startswith("alive: up "), text


async def test_livez_and_readyz_answer_apart(world, simcord_bot):
    status, text = await get(simcord_bot, "/livez")
    assert status == 200 and re.fullmatch(r"alive: up \d+ s, event loop lag \d+ ms\n", text), text
    status, text = await get(simcord_bot, "/readyz")
    assert status == 200 and text.startswith("ok: gateway connected, database answers"), text
    assert (await get(simcord_bot, "/healthz")) == (status, text)  # an alias of readiness


async def test_probes_and_scrapes_never_query_the_database(world, simcord_bot, monkeypatch):
    """Every figure a request shows comes from the background refresh: 30 probes and scrapes ask
    the database nothing, and a table opened meanwhile shows once the next refresh ran."""
    store, asked = simcord_bot.host.store, []
    for name in ("sql", "due_tables"):
        call = getattr(store, name)

        async def counted(*args, _call=call, _name=name, **kwargs):
            asked.append(_name)
            return await _call(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    await world.alice.slash(world.channel, "game new", game="Pebbles")
    asked.clear()
    for _ in range(10):
        for path in ("/readyz", "/healthz", "/metrics"):
            assert (await get(simcord_bot, path))[0] == 200
    assert asked == []
    _, text = await get(simcord_bot, "/metrics")
    assert sample(text, "argo_open_tables", 'shard="0"') == 0  # as the last refresh found it
    await world.env.advance_time(health.REFRESH_SECONDS)
    assert asked  # the refresh asked
    _, text = await get(simcord_bot, "/metrics")
    assert sample(text, "argo_open_tables", 'shard="0"') == 1


async def test_readyz_says_503_when_the_database_figures_grow_old(world, simcord_bot):
    simcord_bot.health.refresh_loop.cancel()
    limit = health.TICKS_MISSED * health.REFRESH_SECONDS + health.DATABASE_TIMEOUT
    await world.env.advance_time(limit + 1)
    status, text = await get(simcord_bot, "/readyz")
    assert status == 503 and text.startswith(
        f"unhealthy: the database was last checked {limit + 1:.0f} s ago"
    )


async def test_metrics_include_the_process_and_platform_collectors(world, simcord_bot):
    _, text = await get(simcord_bot, "/metrics")
    assert sample(text, "process_resident_memory_bytes") > 0
    assert sample(text, "process_start_time_seconds") > 1.7e9
    assert "process_cpu_seconds_total " in text and "process_open_fds " in text
    assert re.search(r'^python_info\{implementation="\w+",.*\} 1\.0$', text, re.MULTILINE), text
    assert "python_gc_collections_total" in text


@pytest.mark.parametrize("settings", [(2, None)], indirect=True)
async def test_open_tables_are_labelled_by_shard_and_sum_to_the_tables(world, simcord_bot):
    """Each table counts once, under its server's shard; a process reports only its own shards, so
    a sum over every process counts each table once (it counted every table in every process)."""
    env = world.env
    guilds = [world.guild]
    hosts = [(world.alice, world.channel)]
    erin = env.create_user("erin")
    for name in ("Second", "Third", "Fourth"):
        await env.advance_time(0.001)  # a server id carries its creation's millisecond: its shard
        guild = env.create_guild(name)
        hosts.append((guild.add_member(erin), guild.create_text_channel("games")))
        guilds.append(guild)
    await env.advance_time(1)  # the new servers reach their shards
    for member, channel in hosts:
        await member.slash(channel, "game new", game="Pebbles")
    await env.advance_time(health.REFRESH_SECONDS)
    _, text = await get(simcord_bot, "/metrics")
    expected = collections.Counter((g.id >> 22) % 2 for g in guilds)
    assert expected[0] and expected[1], expected  # tables on both shards
    for shard in (0, 1):
        assert sample(text, "argo_open_tables", f'shard="{shard}"') == expected[shard], text
    found = re.findall(r'^argo_open_tables\{shard="(\d+)"\} ([0-9.]+)$', text, re.MULTILINE)
    assert sum(float(v) for _, v in found) == len(hosts)


async def test_a_status_line_every_ten_minutes(world, simcord_bot, caplog):
    w = world
    await w.alice.slash(w.channel, "game new", game="Pebbles")
    with caplog.at_level(logging.INFO, logger="bot.health"):
        await w.env.advance_time(health.STATUS_SECONDS)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("status:")]
    assert len(lines) == 1, lines
    assert re.fullmatch(
        r"status: gateway connected \(\d+ ms\), database ok; 1 open tables, 0 overdue; "
        r"tending ticked \d+ s ago; "
        r"since the last status: \d+ interactions, \d+ errors, \d+ actions, \d+ boards \(avg .+\), "
        r"\d+ AI decisions \(avg .+\); AI queue 0",
        lines[0],
    ), lines[0]


def test_errors_logged_by_discord_py_are_counted_by_kind():
    metrics.CountLoggedErrors.install()
    before = metrics.total(metrics.ERRORS)
    logging.getLogger("discord.ui.view").error("Ignoring exception in view")
    logging.getLogger("discord.ui.view").warning("not an error")
    assert metrics.total(metrics.ERRORS) == before + 1


@pytest.fixture
def short_status(monkeypatch) -> float:
    """A status line every 20 s instead of every 10 minutes (read when the bot starts)."""
    monkeypatch.setattr(health, "STATUS_SECONDS", 20.0)
    return health.STATUS_SECONDS


@pytest.mark.simcord(settle_timeout=30)
async def test_the_status_line_keeps_virtual_time_and_never_holds_an_action(
    short_status, world, simcord_bot, caplog
):
    """The status line runs on the bot's clock only: no line before its interval has passed on
    that clock, one line when it has. A loop around ``asyncio.sleep`` instead counted for SimCord
    as work in progress once less than the settle timeout was left of its sleep: an action then
    waited for the sleep to end in real time, the virtual clock jumped to the sleep's end and the
    line was logged although no time had been advanced (docs/testing-stalls.md)."""
    w = world
    with caplog.at_level(logging.INFO, logger="bot.health"):
        await w.alice.slash(w.channel, "game new", game="Pebbles")
        await w.alice.slash(w.channel, "game board")
        assert w.env.now().timestamp() - 1767225600 < short_status  # 2026-01-01T00:00:00Z
        assert not [r for r in caplog.records if r.getMessage().startswith("status:")]
        await w.env.advance_time(short_status)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("status:")]
    assert len(lines) == 1, lines


@pytest.mark.parametrize("settings", [(2, (1,))], indirect=True)
async def test_a_process_running_some_shards_counts_only_their_tables(world, simcord_bot):
    """Another process runs shard 0 (on one shared database): this one counts only shard 1, so the
    two processes' sums add up to every table once."""
    host = simcord_bot.host
    for guild_id, channel_id in ((0 << 22, 11), (1 << 22, 12), (3 << 22, 13), (4 << 22, 14), (None, 15)):
        await host.open_table(guild_id=guild_id, channel_id=channel_id, game_name="Pebbles", host_id="7")
    await world.env.advance_time(health.REFRESH_SECONDS)
    _, text = await get(simcord_bot, "/metrics")
    found = dict(re.findall(r'^argo_open_tables\{shard="(\d+)"\} ([0-9.]+)$', text, re.MULTILINE))
    assert found == {"1": "2.0"}, found  # 1 << 22 and 3 << 22; 0, 4 << 22 and no server are shard 0
