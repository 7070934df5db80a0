"""The archive in the store: recording finished tables' results, keeping each server's ladders up
to date, and the reads behind /game stats, leaderboard, history and open.

Everything here is derived from ``tables`` and ``events`` and can be rebuilt (``python -m bot
ratings --rebuild``). Each write is one statement, safe to repeat and safe when two processes
do it at once: a result is written once (its seats first, the result row last, so a result row
means a complete result), and a ladder is only ever replaced by one that has applied at least
as many results (ladders are a deterministic function of the results, in their order).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from typing import Any

from bot.archive.ratings import Ladder, build
from bot.archive.replay import log_rows
from bot.archive.results import GameResult, game_result
from bot.engine.registry import GameRegistry
from bot.store import FINISHED, AnyStore, StoreError, TableRecord

log = logging.getLogger(__name__)


async def pending(store: AnyStore) -> list[int]:
    """Finished tables whose result is not recorded yet, oldest first."""
    rows = await store.sql(
        "SELECT id FROM tables WHERE status = 'finished' "
        "AND NOT EXISTS (SELECT 1 FROM results WHERE results.table_id = tables.id) ORDER BY id"
    )
    return [int(r[0]) for r in rows]


async def record_result(
    store: AnyStore, registry: GameRegistry, record: TableRecord, *, again: bool = False
) -> GameResult | None:
    """Compute and store the result of a finished table (from its log); None if it has none.
    ``again``: derive it anew and replace the stored one (``ratings --rebuild``: results recorded
    by an earlier version follow today's policy); it keeps the stored end time, the ladder's order."""
    game_cls = registry.get(record.game)
    if game_cls is None or record.status != FINISHED:
        return None
    rows = await log_rows(store, record.id)
    result = game_result(game_cls, record, rows)
    if result is None:
        return None
    if again:
        stored = await store.sql("SELECT finished_at FROM results WHERE table_id = ?", (record.id,))
        if stored:
            result = replace(result, finished_at=str(stored[0][0]))
    marks = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * len(result.seats))
    params: list[Any] = []
    for s in result.seats:
        params += [result.table_id, s.seat, result.guild_id, result.game, s.player, s.place, int(s.winner)]
        params.append(result.finished_at)
    seats_then = (
        "DO UPDATE SET player = excluded.player, place = excluded.place, winner = excluded.winner"
        if again
        else "DO NOTHING"
    )
    await store.sql(
        "INSERT INTO result_seats (table_id, seat, guild_id, game, player, place, winner, finished_at) "
        f"VALUES {marks} ON CONFLICT (table_id, seat) {seats_then}",
        tuple(params),
    )
    result_then = "DO UPDATE SET data = excluded.data" if again else "DO NOTHING"
    await store.sql(
        "INSERT INTO results (table_id, guild_id, game, finished_at, data) VALUES (?, ?, ?, ?, ?) "
        f"ON CONFLICT (table_id) {result_then}",
        (result.table_id, result.guild_id, result.game, result.finished_at, json.dumps(result.to_json())),
    )
    return result


async def results(store: AnyStore, guild_id: int, game: str) -> list[GameResult]:
    """Every recorded result of one ladder, in the order the games ended."""
    rows = await store.sql(
        "SELECT data FROM results WHERE guild_id = ? AND game = ? ORDER BY finished_at, table_id",
        (guild_id, game),
    )
    return [GameResult.from_json(json.loads(r[0])) for r in rows]


async def ladder(store: AnyStore, guild_id: int, game: str) -> Ladder:
    """The stored ladder of a server's game (empty if none yet)."""
    rows = await store.sql("SELECT data FROM ladders WHERE guild_id = ? AND game = ?", (guild_id, game))
    return Ladder.from_json(json.loads(rows[0][0])) if rows else Ladder()


async def _save_ladder(
    store: AnyStore, guild_id: int, game: str, value: Ladder, *, force: bool = False
) -> None:
    guard = "" if force else " WHERE ladders.applied <= excluded.applied"
    await store.sql(
        "INSERT INTO ladders (guild_id, game, applied, data) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (guild_id, game) DO UPDATE SET applied = excluded.applied, data = excluded.data" + guard,
        (guild_id, game, value.count, json.dumps(value.to_json())),
    )


async def update_ladder(store: AnyStore, guild_id: int, game: str) -> Ladder:
    """Bring one ladder up to date: apply the results after the last one applied, in order; if a
    result arrived out of order (recorded late), rebuild the ladder from all its results."""
    current = await ladder(store, guild_id, game)
    found = await results(store, guild_id, game)
    done = [r for r in found if current.through is not None and r.order <= current.through]
    if len(done) != current.count:
        current = build(found)
    else:
        for result in found[len(done) :]:
            current.apply(result)
    if current.count:
        await _save_ladder(store, guild_id, game, current)
    return current


async def sync(store: AnyStore, registry: GameRegistry) -> int:
    """Record every finished table not yet recorded and update the ladders they belong to;
    returns how many results were recorded."""
    touched: set[tuple[int, str]] = set()
    recorded = 0
    for table_id in await pending(store):
        record = await store.get_table(table_id)
        if record is None:
            continue
        try:
            result = await record_result(store, registry, record)
        except Exception:  # a table that cannot be replayed must not stop the others
            log.exception("table #%s: its result could not be recorded", table_id)
            continue
        if result is not None:
            recorded += 1
            touched.add((result.guild_id, result.game))
    for guild_id, game in sorted(touched):
        await update_ladder(store, guild_id, game)
    return recorded


async def rederive(store: AnyStore, registry: GameRegistry) -> int:
    """Derive every recorded result again from its table's log (today's rating policy, today's
    names), replacing the stored one; returns how many were replaced. A table whose log cannot be
    replayed keeps the result it had."""
    rows = await store.sql("SELECT table_id FROM results ORDER BY table_id")
    done = 0
    for (table_id,) in rows:
        record = await store.get_table(int(table_id))
        if record is None:
            continue
        try:
            result = await record_result(store, registry, record, again=True)
        except StoreError:
            raise
        except Exception:  # a table that cannot be replayed must not stop the others
            log.exception("table #%s: its result could not be derived again (kept as stored)", table_id)
            continue
        done += result is not None
    return done


async def rebuild(store: AnyStore, registry: GameRegistry) -> dict[tuple[int, str], Ladder]:
    """Derive every result again from the logs (and record the missing ones), then recompute
    every ladder from scratch and store it."""
    await rederive(store, registry)
    await sync(store, registry)
    rows = await store.sql("SELECT DISTINCT guild_id, game FROM results ORDER BY guild_id, game")
    built = {}
    for guild_id, game in rows:
        value = build(await results(store, int(guild_id), str(game)))
        await _save_ladder(store, int(guild_id), str(game), value, force=True)
        built[(int(guild_id), str(game))] = value
    return built


# -- reads for the commands -------------------------------------------------------------------


@dataclass(frozen=True)
class Finished:
    """A finished table as history lists it: its result and where its final message is."""

    result: GameResult
    channel_id: int
    message_id: int | None


async def history(
    store: AnyStore,
    guild_id: int,
    player: str | None = None,
    game: str | None = None,
    limit: int = 10,
    offset: int = 0,
) -> tuple[list[Finished], int]:
    """Finished tables of a server (of one player, of one game if given), newest first, one page;
    and how many there are in all."""
    where = "r.guild_id = ?"
    params: tuple[Any, ...] = (guild_id,)
    if game is not None:
        where += " AND r.game = ?"
        params += (game,)
    if player is not None:
        where += " AND EXISTS (SELECT 1 FROM result_seats s WHERE s.table_id = r.table_id AND s.player = ?)"
        params += (player,)
    total = await store.sql(f"SELECT COUNT(*) FROM results r WHERE {where}", params)
    rows = await store.sql(
        f"SELECT r.data, t.channel_id, t.message_id FROM results r JOIN tables t ON t.id = r.table_id "
        f"WHERE {where} ORDER BY r.finished_at DESC, r.table_id DESC LIMIT ? OFFSET ?",
        (*params, limit, offset),
    )
    found = [Finished(GameResult.from_json(json.loads(d)), int(c), m) for d, c, m in rows]
    return found, int(total[0][0]) if total else 0


async def played_games(store: AnyStore, guild_id: int, player: str) -> list[str]:
    """The games ``player`` has finished on this server, most played first."""
    rows = await store.sql(
        "SELECT game, COUNT(*) FROM result_seats WHERE guild_id = ? AND player = ? GROUP BY game "
        "ORDER BY COUNT(*) DESC, game",
        (guild_id, player),
    )
    return [str(r[0]) for r in rows]


async def open_lobbies(store: AnyStore, guild_id: int) -> list[TableRecord]:
    """The server's lobbies (tables waiting for players), oldest first."""
    return await store.lobbies(guild_id)


async def finished_tables(
    store: AnyStore, guild_id: int, typed: str = "", limit: int = 25
) -> list[tuple[int, str]]:
    """``(table id, game)`` of the server's most recent finished tables whose id or game starts
    with ``typed`` (for autocomplete)."""
    rows = await store.sql(
        "SELECT id, game FROM tables WHERE guild_id = ? AND status = 'finished' ORDER BY id DESC LIMIT 200",
        (guild_id,),
    )
    text = typed.strip().lstrip("#").lower()
    return [
        (int(i), str(g))
        for i, g in rows
        if not text or str(i).startswith(text) or str(g).lower().startswith(text)
    ][:limit]
