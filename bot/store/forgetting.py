"""``/game forget-me`` in the database: a person's Discord id replaced by a pseudonym, and their
display name dropped, everywhere the database keeps them — every table's record (host, seats,
options, the game's state, the host's bookkeeping with its kept names), its event log (actor,
action, summary), its seats' boards, the archive's results and rating ladders — and their own
settings deleted.

One algorithm for both backends: :func:`steps` yields each SQL statement to run and receives its
rows (each backend drives it on its own connection, in one transaction, and lifts the event log's
append-only guard for that transaction only). Values are rewritten as JSON structures, not as
text: an id as a whole value or a key, inside a text (``<p:ID>`` keeps pointing at the seat under
its new name, ``<@ID>`` becomes "a former player"), and the person's entry of every ``names`` map
(their display name) removed."""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Sequence
from dataclasses import replace
from typing import Any

from bot.table_meta import TableMeta

FORMER = "former:"
"""Prefix of the pseudonyms that replace forgotten people (shown as "a former player")."""

FORMER_NAME = "a former player"

NAMES = "names"
"""The key of display names (user id → name) in any stored JSON the scrubber rewrites (a table's
meta keeps them there, see ``bot.table_meta``)."""

FIND = (
    "SELECT id FROM tables WHERE status IN ('finished', 'abandoned') AND ("
    "host_id = ? OR seats LIKE ? OR meta LIKE ? OR state LIKE ? "
    "OR id IN (SELECT table_id FROM events WHERE actor = ? OR action LIKE ? OR summary LIKE ?) "
    "OR id IN (SELECT table_id FROM seat_views WHERE seat = ? OR latest LIKE ? OR prior LIKE ?)"
    ") ORDER BY id"
)
"""The finished and abandoned tables that name the person anywhere (see :func:`find_params`)."""

FIND_OPEN = FIND.replace("status IN ('finished', 'abandoned')", "status IN ('lobby', 'playing')").replace(
    "SELECT id FROM", "SELECT id, channel_id FROM"
)
"""The lobbies and running tables that name the person anywhere: ``(id, channel_id)``."""

FORGET_PREFERENCES = "DELETE FROM people WHERE user_id = ?"
"""The person's own settings (quiet hours) go entirely."""

Step = tuple[str, tuple[Any, ...]]
"""One SQL statement (``?`` placeholders) and its parameters."""


def find_params(user_id: str) -> tuple[str, ...]:
    """The parameters of :data:`FIND` and :data:`FIND_OPEN`."""
    quoted = "%" + json.dumps(user_id) + "%"
    bare = "%" + user_id + "%"
    return user_id, quoted, quoted, quoted, user_id, bare, bare, user_id, bare, bare


class Scrubber:
    """Rewrites values so that they no longer name ``user_id`` (see the module docstring)."""

    def __init__(self, user_id: str, pseudonym: str) -> None:
        self.user_id = user_id
        self.pseudonym = pseudonym
        self._bare = re.compile(rf"(?<![0-9]){re.escape(user_id)}(?![0-9])")

    def text(self, text: str) -> str:
        """``text`` with every mention, seat reference and bare occurrence of the id replaced."""
        if text == self.user_id:
            return self.pseudonym
        if self.user_id not in text:
            return text
        for mention in (f"<@{self.user_id}>", f"<@!{self.user_id}>"):
            text = text.replace(mention, FORMER_NAME)
        text = text.replace(f"<p:{self.user_id}>", f"<p:{self.pseudonym}>")
        return self._bare.sub(self.pseudonym, text)

    def value(self, value: Any) -> Any:
        """A JSON value with the person replaced throughout (their display names dropped)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            found = {}
            for key, item in value.items():
                if key == NAMES and isinstance(item, dict):
                    item = {p: n for p, n in item.items() if p != self.user_id and not p.startswith(FORMER)}
                found[self.text(key)] = self.value(item)
            return found
        return value

    def json(self, text: str | None) -> str | None:
        """A JSON column's text rewritten (None stays None)."""
        if text is None:
            return None
        return json.dumps(self.value(json.loads(text)))


def _marks(ids: Sequence[Any]) -> str:
    return ", ".join("?" * len(ids))


def steps(
    user_id: str, pseudonym: str, table_ids: Sequence[int], hosts: dict[int, str] | None = None
) -> Generator[Step, list[tuple[Any, ...]], None]:
    """The statements that rewrite the tables ``table_ids`` (their records, logs and boards, and
    their archived results) and every rating ladder so that they no longer name ``user_id``; each
    ``yield`` is a statement, answered with its rows. ``hosts``: a new host for a table the person
    hosted (else the pseudonym). A rewritten table's ``rev`` moves on, so that a process holding a
    copy of it reads it again."""
    scrub = Scrubber(user_id, pseudonym)
    hosts = hosts or {}
    if table_ids:
        ids = tuple(table_ids)
        wanted = "id, host_id, seats, options, state, meta, awaiting"
        rows = yield (f"SELECT {wanted} FROM tables WHERE id IN ({_marks(ids)})", ids)
        for table_id, host_id, *columns in rows:
            host = hosts.get(table_id, scrub.text(host_id)) if host_id == user_id else host_id
            seats, options, state, meta, awaiting = (scrub.json(c) for c in columns)
            yield (
                "UPDATE tables SET host_id = ?, seats = ?, options = ?, state = ?, meta = ?, awaiting = ?, "
                "rev = rev + 1 WHERE id = ?",
                (host, seats, options, state, meta, awaiting, table_id),
            )
        rows = yield (
            f"SELECT table_id, seq, actor, action, summary FROM events WHERE table_id IN ({_marks(ids)})",
            ids,
        )
        for table_id, seq, actor, action, summary in rows:
            new = (scrub.text(actor), scrub.json(action), scrub.text(summary))
            if new != (actor, action, summary):
                yield (
                    "UPDATE events SET actor = ?, action = ?, summary = ? WHERE table_id = ? AND seq = ?",
                    (*new, table_id, seq),
                )
        rows = yield (
            f"SELECT table_id, seat, latest, prior FROM seat_views WHERE table_id IN ({_marks(ids)})",
            ids,
        )
        for table_id, seat, latest, prior in rows:
            view = (scrub.text(seat), scrub.json(latest), scrub.json(prior))
            if view != (seat, latest, prior):
                yield (
                    "UPDATE seat_views SET seat = ?, latest = ?, prior = ? WHERE table_id = ? AND seat = ?",
                    (*view, table_id, seat),
                )
        # the archive's results (derived data: see bot/archive)
        rows = yield (f"SELECT table_id, data FROM results WHERE table_id IN ({_marks(ids)})", ids)
        for table_id, data in rows:
            yield ("UPDATE results SET data = ? WHERE table_id = ?", (scrub.json(data), table_id))
        rows = yield (
            f"SELECT table_id, seat, player FROM result_seats WHERE table_id IN ({_marks(ids)})",
            ids,
        )
        for table_id, seat, player in rows:
            if (scrub.text(seat), scrub.text(player)) != (seat, player):
                yield (
                    "UPDATE result_seats SET seat = ?, player = ? WHERE table_id = ? AND seat = ?",
                    (scrub.text(seat), scrub.text(player), table_id, seat),
                )
    rows = yield ("SELECT guild_id, game, data FROM ladders WHERE data LIKE ?", ("%" + user_id + "%",))
    for guild_id, game, data in rows:
        yield (
            "UPDATE ladders SET data = ? WHERE guild_id = ? AND game = ?",
            (scrub.json(data), guild_id, game),
        )


def drop_former_names(meta: str) -> str | None:
    """``meta`` without display names kept under pseudonyms, or None if it keeps none."""
    value = TableMeta.loads(meta)
    if not any(p.startswith(FORMER) for p in value.names):
        return None
    return replace(value, names={p: n for p, n in value.names.items() if not p.startswith(FORMER)}).dumps()


def forgetting(user_id: str, pseudonym: str) -> Generator[Step, list[tuple[Any, ...]], int]:
    """Every statement of ``/game forget-me`` in the database for the finished and abandoned
    tables (the open ones are rewritten by the host under their locks: :func:`steps`), the
    person's settings, the rating ladders, and display names an earlier version kept under
    pseudonyms; returns how many tables now name the person no more."""
    yield (FORGET_PREFERENCES, (user_id,))
    rows = yield (FIND, find_params(user_id))
    ids = [row[0] for row in rows]
    yield from steps(user_id, pseudonym, ids)
    rows = yield (
        "SELECT id, meta FROM tables WHERE status IN ('finished', 'abandoned') AND meta LIKE ?",
        ('%"former:%',),
    )
    for table_id, meta in rows:
        cleaned = drop_former_names(meta)
        if cleaned is not None:
            yield ("UPDATE tables SET meta = ?, rev = rev + 1 WHERE id = ?", (cleaned, table_id))
    return len(ids)
