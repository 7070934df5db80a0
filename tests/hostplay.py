"""Playing tables through the table host with random legal actions (migration and process tests)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.tables import TableError, TableHost


async def posted(host: TableHost) -> None:
    """Every table's message now shows the table as it is, as the bot's presenter (or, after a
    restart, its repair loop) posts it: a test that drives the host without Discord says so, since
    a clock whose person was never told waits (issue 39; see ``bot.clocks``)."""
    await host.store.sql("UPDATE tables SET shown_version = version WHERE shown_version < version")


class Clock:
    """A settable clock for hosts (starts 2026-01-01 UTC)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


async def open_game(
    host: TableHost, channel: int, game: str, *, guild: int | None = 1, options: str = ""
) -> None:
    """A two-player table of ``game`` in ``channel``, started (players ``<channel>a``/``b``)."""
    await host.open_table(
        guild_id=guild, channel_id=channel, game_name=game, host_id=f"{channel}a", options_text=options
    )
    await host.join(channel, f"{channel}b")
    await host.start(channel, f"{channel}a")


async def play(host: TableHost, channel: int, rng: random.Random, steps: int | None = None) -> int:
    """Random legal actions (no undo/cancel) until the game ends or ``steps`` were applied."""
    done = 0
    while steps is None or done < steps:
        table = await host.current(channel)
        if table is None or table.game is None or table.game.result() is not None:
            return done
        prompt = table.game.prompt()
        assert prompt is not None
        seat = next(p for p in prompt.deciders() if table.game.legal_actions(p))
        legal = table.game.legal_actions(seat)
        action = rng.choice([a for a in legal if a["type"] not in ("undo", "cancel")] or legal)
        try:
            await host.act(channel, seat, action, version=table.record.version)
        except TableError:
            continue
        done += 1
    return done
