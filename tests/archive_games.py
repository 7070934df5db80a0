"""Seeded games played through the table host for the archive tests: random legal moves by
every seat (no undo, cancel or withdraw), to the end or for a number of actions."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.engine.core import Game
from bot.tables import TableHost

SKIP = frozenset({"undo", "cancel", "withdraw"})

SHORT_ARGO = 4
"""Seed of a two-player Argo game that random play ends in 11 turns (the Aliens win)."""
SHORT_ARGOAT = 117
"""Seed of a two-player Argoat game that random play ends in 64 turns (with SHORT_ARGOAT_OPTIONS)."""
SHORT_ARGOAT_OPTIONS = "difficulty=journeyman"


async def play(
    host: TableHost,
    channel: int,
    game: str,
    players: list[str],
    seed: int,
    *,
    guild: int = 1,
    actions: int | None = None,
    stop_before_end: bool = False,
    options: str = "",
    until: Callable[[Game], bool] | None = None,
) -> int:
    """Open, start and play a table of ``game`` in ``channel`` (the host's seeder must give
    ``seed``); returns its id. ``actions``: stop after that many; ``stop_before_end``: stop at
    the last action before the game would end (so that a test can play it through Discord);
    ``until``: stop once it says yes of the game."""
    table = await host.open_table(
        guild_id=guild,
        channel_id=channel,
        game_name=game,
        host_id=players[0],
        seated=players[1:],
        options_text=options,
    )
    await host.start(channel, players[0])
    rng = random.Random(seed)
    done = 0
    while actions is None or done < actions:
        current = await host.current(channel)
        if current is None or current.game is None or current.game.result() is not None:
            break
        live = current.game
        if until is not None and until(live):
            break
        prompt = live.prompt()
        assert prompt is not None
        seat = next(p for p in prompt.deciders() if live.legal_actions(p))
        legal = live.legal_actions(seat)
        action = rng.choice([a for a in legal if a["type"] not in SKIP] or legal)
        if stop_before_end:
            trial = live.clone()
            trial.apply(seat, action)
            if trial.result() is not None:
                break
        await host.act(channel, current.holder_of(seat), action, version=current.record.version)
        done += 1
    return table.record.id
