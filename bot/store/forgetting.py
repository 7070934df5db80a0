"""``/game forget-me`` in the database: a person's Discord id replaced by a pseudonym in every
finished or abandoned table — its record, its event log and its seats' boards — with the same
SQL on both backends (each backend lifts the event log's append-only guard for this one
transaction only)."""

from __future__ import annotations

import json
from typing import Any

FORMER = "former:"
"""Prefix of the pseudonyms that replace forgotten people (shown as "a former player")."""

FORMER_NAME = "a former player"

FIND = (
    "SELECT id FROM tables WHERE status IN ('finished', 'abandoned') "
    "AND (host_id = ? OR seats LIKE ? OR meta LIKE ?) ORDER BY id"
)
"""The finished and abandoned tables that name the person."""


FORGET_PREFERENCES = "DELETE FROM people WHERE user_id = ?"
"""The person's own settings (quiet hours) go entirely."""


def find_params(user_id: str) -> tuple[str, str, str]:
    """The parameters of :data:`FIND`."""
    pattern = "%" + json.dumps(user_id) + "%"
    return user_id, pattern, pattern


def statements(user_id: str, pseudonym: str, table_ids: list[int]) -> list[tuple[str, tuple[Any, ...]]]:
    """The updates that replace ``user_id`` by ``pseudonym`` in the tables ``table_ids``: as a JSON
    string in every JSON column, as the actor of log rows, and in log summaries (a ``<p:…>`` seat
    reference keeps pointing at the seat; a mention becomes "a former player")."""
    old, new = json.dumps(user_id), json.dumps(pseudonym)
    marks = ", ".join("?" * len(table_ids))
    ids = tuple(table_ids)
    json_columns = ("seats", "options", "state", "meta", "awaiting")
    mentions = (f"<p:{user_id}>", f"<p:{pseudonym}>", f"<@{user_id}>", FORMER_NAME)
    return [
        (
            "UPDATE tables SET host_id = CASE WHEN host_id = ? THEN ? ELSE host_id END, "
            + ", ".join(f"{c} = REPLACE({c}, ?, ?)" for c in json_columns)
            + f" WHERE id IN ({marks})",
            (user_id, pseudonym, *(old, new) * len(json_columns), *ids),
        ),
        (
            "UPDATE events SET actor = CASE WHEN actor = ? THEN ? ELSE actor END, "
            "action = REPLACE(action, ?, ?), summary = REPLACE(REPLACE(summary, ?, ?), ?, ?) "
            f"WHERE table_id IN ({marks})",
            (user_id, pseudonym, old, new, *mentions, *ids),
        ),
        (
            "UPDATE seat_views SET seat = CASE WHEN seat = ? THEN ? ELSE seat END, "
            f"latest = REPLACE(latest, ?, ?), prior = REPLACE(prior, ?, ?) WHERE table_id IN ({marks})",
            (user_id, pseudonym, old, new, old, new, *ids),
        ),
        # the archive's results and ladders (derived data: see bot/archive)
        (
            "UPDATE result_seats SET seat = CASE WHEN seat = ? THEN ? ELSE seat END, "
            f"player = CASE WHEN player = ? THEN ? ELSE player END WHERE table_id IN ({marks})",
            (user_id, pseudonym, user_id, pseudonym, *ids),
        ),
        (f"UPDATE results SET data = REPLACE(data, ?, ?) WHERE table_id IN ({marks})", (old, new, *ids)),
        ("UPDATE ladders SET data = REPLACE(data, ?, ?)", (old, new)),
    ]
