"""A store whose calls hang, for SimCord tests: each round trip to the database (the store's
``_roundtrip``, below the bot's own time limits) waits until the test releases it, or waits on a
real PostgreSQL server the test froze. SimCord is told that such a wait is external input
(``env.external_wait``), so that the rest of the bot, its timers included, runs on meanwhile."""

from __future__ import annotations

import asyncio
from typing import Any

from simcord import SetupError

REASON = "a database round trip (the test holds or freezes the database)"


class Gate:
    """Holds every database round trip of a store until :meth:`release` (a hanging dependency)."""

    def __init__(self, env: Any, store: Any, monkeypatch: Any) -> None:
        self.env = env
        self.opened = asyncio.Event()
        self.held = 0
        """Round trips waiting at the gate now."""
        self.passed = 0
        """Round trips that went through after it opened."""
        roundtrip = store._roundtrip

        async def held(*args: Any) -> Any:
            if not self.opened.is_set():
                self.held += 1
                try:
                    await env.external_wait(self.opened.wait(), reason=REASON)
                finally:
                    self.held -= 1
            self.passed += 1
            return await roundtrip(*args)

        monkeypatch.setattr(store, "_roundtrip", held)

    def release(self) -> None:
        """Let every held round trip (and every later one) through."""
        self.opened.set()


def declare_round_trips(env: Any, store: Any, monkeypatch: Any) -> None:
    """Tell SimCord that the store's round trips wait on an outside server (a frozen one may
    answer much later), where the bot's task is its own (a health request's may not be)."""
    roundtrip = store._roundtrip

    async def declared(*args: Any) -> Any:
        try:
            return await env.external_wait(roundtrip(*args), reason=REASON)
        except SetupError:  # not bot-owned work, or inside another declared wait
            return await roundtrip(*args)

    monkeypatch.setattr(store, "_roundtrip", declared)


def latest_interaction(env: Any) -> Any:
    """SimCord's record of the interaction created last (whether answered, how, with what)."""
    return env.backend.interactions[max(env.backend.interactions)]
