"""DATABASE_URL, SHARD_COUNT and SHARD_IDS: reading and checking them, what ``python -m bot`` does
with a PostgreSQL database it cannot use, and the sharded bot."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.app import ShardedTableBot, TableBot, create_bot
from bot.config import DEFAULT_DATABASE_PATH, ConfigError, Settings
from tests.conftest import GAMES
from tests.test_faults import one_error_line, run_bot

PG = "postgresql://bot:pw@db.example:5432/games"


def load(**values: str) -> Settings:
    return Settings.load({"DISCORD_TOKEN": "abc", **values}, dotenv=None)


def test_database_defaults_to_the_sqlite_file_and_takes_urls():
    assert load().database == DEFAULT_DATABASE_PATH and load().database_url is None
    s = load(DATABASE_URL="sqlite:///var/games.db")
    assert s.database == Path("var/games.db") and s.database_path == Path("var/games.db")
    assert load(DATABASE_URL="sqlite:////abs/games.db").database == Path("/abs/games.db")
    assert load(DATABASE_URL=PG, DATABASE_PATH="ignored.db").database == PG
    assert "pw" not in repr(load(DATABASE_URL=PG)) and "bot:***@db.example" in repr(load(DATABASE_URL=PG))


def test_shards():
    assert load().shards is None
    assert load(SHARD_COUNT="2").shards == (2, (0, 1))
    assert load(SHARD_COUNT="8", SHARD_IDS="0-3", DATABASE_URL=PG).shards == (8, (0, 1, 2, 3))
    assert load(SHARD_COUNT="4", SHARD_IDS="0,2", DATABASE_URL=PG).shards == (4, (0, 2))
    assert load(SHARD_COUNT="6", SHARD_IDS="4-5, 0", DATABASE_URL=PG).shards == (6, (0, 4, 5))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must be sqlite:///path"),
        ({"DATABASE_URL": "sqlite:///"}, "DATABASE_URL must be"),
        ({"DATABASE_URL": "postgresql://h:port/db"}, "not a valid PostgreSQL URL"),
        ({"DATABASE_URL": "postgresql:///db"}, "names no server"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-x", "DATABASE_URL": PG}, "SHARD_IDS must look like"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1", "DATABASE_URL": PG}, "backwards range"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-4", "DATABASE_URL": PG}, "names shard 4"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}, "must share a PostgreSQL database"),
    ],
)
def test_bad_deploy_settings_are_explained(env, message):
    with pytest.raises(ConfigError, match=message) as caught:
        load(**env)
    assert "\n" not in str(caught.value)


def test_a_password_in_a_bad_url_is_not_repeated():
    with pytest.raises(ConfigError) as caught:
        load(DATABASE_URL="mysql://root:hunter2@h/db")
    assert "hunter2" not in str(caught.value)


def test_sharded_settings_make_an_autosharded_bot_with_those_shards():
    plain = create_bot(Settings(token="t"), games=GAMES)
    assert type(plain) is TableBot and not isinstance(plain, commands.AutoShardedBot)
    bot = create_bot(load(SHARD_COUNT="4", SHARD_IDS="1,3", DATABASE_URL=PG), games=GAMES)
    assert isinstance(bot, ShardedTableBot) and isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]


def test_an_unreachable_postgres_server_exits_with_one_line_and_status_1(tmp_path):
    done = run_bot(tmp_path, DATABASE_URL="postgresql://bot:s3cret@127.0.0.1:1/games")
    assert done.returncode == 1
    line = one_error_line(done)
    assert "cannot be reached" in line and "s3cret" not in done.stdout + done.stderr


def test_a_missing_postgres_database_exits_with_one_line_and_status_2(tmp_path, pg_server):
    done = run_bot(tmp_path, DATABASE_URL=pg_server.url("no_such_db"))
    assert done.returncode == 2
    assert 'database "no_such_db" does not exist' in one_error_line(done)


def test_a_bad_database_url_is_a_configuration_error(tmp_path):
    done = run_bot(tmp_path, DATABASE_URL="mongodb://x")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DATABASE_URL must be" in lines[0]
