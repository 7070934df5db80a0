"""Shared fixtures: a bot built through create_bot on a temporary database, and a small world."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Settings
from tests.pebbles import Pebbles

GAMES = [Pebbles]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(token="test-token", database_path=tmp_path / "data" / "games.db")


@pytest.fixture
def make_bot(settings: Settings):
    """Builds a fresh bot on the same database (for restarts)."""
    return lambda: create_bot(settings, games=GAMES)


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
