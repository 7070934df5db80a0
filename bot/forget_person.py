"""``/game forget-me`` at the host: a person leaves every lobby, their seats in running games go
to the AI, and then no table names them any more: their Discord id is replaced by a pseudonym
(shown as "a former player") and their display name dropped in every table — lobbies and running
games (each under its lock) as well as finished and abandoned ones — its log and its boards, and
in the archive (see ``bot.store.forgetting``)."""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass, field

from bot.store import LOBBY, PLAYING
from bot.store.forgetting import FIND_OPEN, FORMER, find_params
from bot.tables import Outcome, Table, TableError, TableHost

log = logging.getLogger(__name__)


@dataclass
class Forgotten:
    """What was done for one person."""

    finished: int = 0
    """Finished or abandoned tables whose records and logs no longer hold their id."""
    handed: list[Outcome] = field(default_factory=list)
    """Running games whose seat an AI plays now."""
    left: list[Table] = field(default_factory=list)
    """Lobbies they left."""
    failed: list[str] = field(default_factory=list)
    """Tables that could not be changed now, with the reason."""
    rewritten: int = 0
    """Lobbies and running tables that no longer name them (they had left, or an AI plays their seat)."""


async def forget(host: TableHost, user_id: str) -> Forgotten:
    """Forget ``user_id``: leave lobbies, hand running seats to the AI, then replace the id in
    every finished or abandoned table (including lobbies that closed because they left)."""
    done = Forgotten()
    pattern = "%" + json.dumps(user_id) + "%"
    rows = await host.store.sql(
        "SELECT channel_id FROM tables WHERE status IN ('lobby', 'playing') "
        "AND (seats LIKE ? OR meta LIKE ?)",
        (pattern, pattern),
    )
    for (channel_id,) in rows:
        table = await host.current(channel_id)
        if table is None:
            continue
        table_id = table.record.id
        try:
            if table.record.status == LOBBY and user_id in table.record.seats:
                done.left.append(await host.leave(channel_id, user_id, table_id))
            elif table.record.status == PLAYING and (seat := table.seat_of(user_id)) is not None:
                done.handed.append(await host.replace(channel_id, user_id, seat, None, table_id=table_id))
        except TableError as exc:
            done.failed.append(f"table #{table_id}: {exc}")
    pseudonym = FORMER + secrets.token_hex(6)
    for table_id, channel_id in await host.store.sql(FIND_OPEN, find_params(user_id)):
        try:
            done.rewritten += await host.forget_person_at(channel_id, table_id, user_id, pseudonym)
        except TableError as exc:
            done.failed.append(f"table #{table_id}: {exc}")
    done.finished = await host.store.forget_person(user_id, pseudonym)
    log.info(
        "a person was forgotten: %d finished tables, %d open tables, %d seats to the AI, %d lobbies left",
        done.finished, done.rewritten, len(done.handed), len(done.left),
    )  # fmt: skip
    return done
