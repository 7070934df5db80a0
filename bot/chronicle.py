"""A table's log as its turn message reads it, kept in memory with the live table.

The turn message says what happened since the awaited seat last decided, whether an AI played for
that seat meanwhile, what the retired message's turn did, and marks on the board what changed since
the seat's last decision. All of that is a view over the event log and the seats' last boards
(``seat_views``), which the store keeps; the :class:`Chronicle` is the same log and boards in
memory, extended by every save this process makes, so that presenting a click reads nothing.
It answers exactly as the store's SQL over the log does (``bot/store/reads.py``: ``since``,
``played_for``, ``turn_summaries``, ``recent_summaries``, ``previous_view``; tested side by side
in tests/test_chronicle.py).

It holds the whole log of the table (from its first row to ``upto``): the latest rows as they are,
older ones compressed in one block (a long Argoat game's log is about 100 KB of text, some 15 KB
compressed), and each seat's two last boards compressed (an Argo board is about 18 KB of JSON,
3 KB compressed). A chronicle is built from the store when a table is loaded without one (at
start, after an eviction, after another process changed the table: ``TableHistory.chronicle``).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator
from typing import Any

OWN = 1
"""A row that is its actor's own decision: not one the host or an AI took for the seat (the
logged action has no ``"by"``)."""
AI_FOR = 2
"""A row that an AI took for the seat (``"by": "bot:…"``)."""

HOT_ROWS = 32
"""Rows kept uncompressed at least (at most twice as many): the last turns, which nearly every
question is about; older rows are compressed together."""

Entry = tuple[int, "int | None", str, int, str]
"""One log row: (seq, turn, actor, flags, summary)."""


def flags_of(action_text: str) -> int:
    """How a log row counts for catch-up, from its action as stored (JSON text): the same tests
    as the store's SQL (``NOT LIKE '%"by": %'``, ``LIKE '%"by": "bot:%'``)."""
    flags = 0 if '"by": ' in action_text else OWN
    if '"by": "bot:' in action_text:
        flags |= AI_FOR
    return flags


def _pack(value: Any) -> bytes:
    return zlib.compress(json.dumps(value).encode(), 1)


def _unpack(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))


def _board(blob: bytes) -> dict[str, Any]:
    view = _unpack(blob)
    assert isinstance(view, dict)
    return view


class Chronicle:
    """A table's whole log (seq, turn, actor, how it counts, public summary) up to version
    ``upto``, and each seat's last two boards; see the module docstring."""

    def __init__(
        self, rows: Iterable[Entry], views: dict[str, list[Any]], upto: int, *, hot: int = HOT_ROWS
    ) -> None:
        self._hot_rows = hot
        self._hot: list[Entry] = []
        self._cold: bytes | None = None
        self._views = views
        """seat -> [latest turn, latest board (compressed JSON), prior turn, prior board]."""
        self.upto = upto
        entries = list(rows)
        if len(entries) >= 2 * hot:  # all but the last ``hot`` rows compressed at once
            self._cold = _pack([list(e) for e in entries[:-hot]])
            entries = entries[-hot:]
        self._hot = entries

    @classmethod
    def from_store(
        cls,
        rows: Iterable[tuple[Any, ...]],
        views: Iterable[tuple[Any, ...]],
        upto: int,
        *,
        hot: int = HOT_ROWS,
    ) -> Chronicle:
        """Built from the store's rows (``TableReads.chronicle_rows``): log rows
        ``(seq, turn, actor, action JSON, summary)`` up to version ``upto``, and seat views
        ``(seat, latest_turn, latest JSON, prior_turn, prior JSON)``; ``hot``: rows kept
        uncompressed at least (see :data:`HOT_ROWS`)."""
        entries = sorted(
            (seq, turn, actor, flags_of(action), summary) for seq, turn, actor, action, summary in rows
        )
        boards = {
            seat: [
                latest_turn,
                zlib.compress(latest.encode(), 1),
                prior_turn,
                zlib.compress(prior.encode(), 1) if prior is not None else None,
            ]
            for seat, latest_turn, latest, prior_turn, prior in views
        }
        return cls(entries, boards, upto, hot=hot)

    @classmethod
    def opened(cls, host_id: str, action: dict[str, Any]) -> Chronicle:
        """The chronicle of a table just opened: the one row the store logs with it (version 1,
        ``action`` by its host; see ``create_table``)."""
        return cls([(1, None, host_id, flags_of(json.dumps(action)), "")], {}, 1)

    # -- growing --------------------------------------------------------------------------------

    def add(
        self,
        seq: int,
        *,
        turn: int | None,
        actor: str,
        action_text: str,
        summary: str,
        seat_view: tuple[str, int | None, dict[str, Any]] | None = None,
    ) -> None:
        """The row a save logged at version ``seq`` (the next one), and the seat's board it kept
        (the store's rule: it becomes the latest; the latest of an earlier turn becomes the prior)."""
        assert seq == self.upto + 1, (seq, self.upto)
        self._append((seq, turn, actor, flags_of(action_text), summary))
        self.upto = seq
        if seat_view is not None:
            seat, seat_turn, view = seat_view
            board = _pack(view)
            kept = self._views.get(seat)
            if kept is None:
                self._views[seat] = [seat_turn, board, None, None]
            elif kept[0] == seat_turn:
                kept[1] = board
            else:
                self._views[seat] = [seat_turn, board, kept[0], kept[1]]

    def _append(self, row: Entry) -> None:
        self._hot.append(row)
        if len(self._hot) >= 2 * self._hot_rows:
            older = _unpack(self._cold) if self._cold is not None else []
            self._cold = _pack(older + [list(e) for e in self._hot[: self._hot_rows]])
            del self._hot[: self._hot_rows]

    # -- reading --------------------------------------------------------------------------------

    def _newest_first(self, upto: int) -> Iterator[Entry]:
        """Every row up to version ``upto``, newest first (the compressed rows only if reached)."""
        for row in reversed(self._hot):
            if row[0] <= upto:
                yield row
        if self._cold is not None:
            for cold in reversed(_unpack(self._cold)):
                if cold[0] <= upto:
                    yield (cold[0], cold[1], cold[2], cold[3], cold[4])

    def _after_own_decision(self, seat: str, turn: int | None, upto: int) -> list[Entry]:
        """The rows after ``seat``'s own last decision (in a turn before ``turn`` if that is not
        None; rows without a turn count in any turn), up to ``upto``, oldest first; every row if
        it has none."""
        found: list[Entry] = []
        for row in self._newest_first(upto):
            if row[2] == seat and row[3] & OWN and (turn is None or row[1] is None or row[1] < turn):
                break
            found.append(row)
        found.reverse()
        return found

    def since(self, seat: str, turn: int | None, upto: int) -> list[tuple[int, int | None, str]]:
        """``(seq, turn, summary)`` of every row with a public summary after ``seat``'s own last
        decision (see ``TableReads.since``), as the log stood at version ``upto``."""
        return [(r[0], r[1], r[4]) for r in self._after_own_decision(seat, turn, upto) if r[4]]

    def played_for(self, seat: str, turn: int | None, upto: int) -> int:
        """How many rows an AI took for ``seat`` since its own last decision (see
        ``TableReads.played_for``), as the log stood at version ``upto``."""
        return sum(1 for r in self._after_own_decision(seat, turn, upto) if r[2] == seat and r[3] & AI_FOR)

    def turn_summaries(self, turn: int, upto: int) -> list[str]:
        """The public lines of every row of game turn ``turn`` up to version ``upto``, oldest
        first (see ``TableReads.turn_summaries``)."""
        rows: list[Entry] = []
        for row in self._newest_first(upto):
            if row[1] is not None and row[1] < turn:
                break  # turns only grow along the log: nothing older is of this turn
            if row[1] == turn and row[4]:
                rows.append(row)
        return [line for row in reversed(rows) for line in row[4].splitlines() if line]

    def recent(self, limit: int, upto: int) -> list[str]:
        """The last ``limit`` public summary lines up to version ``upto``, oldest first (see
        ``TableReads.recent_summaries``)."""
        rows: list[Entry] = []
        for row in self._newest_first(upto):
            if len(rows) == limit:
                break
            if row[4]:
                rows.append(row)
        lines = [line for row in reversed(rows) for line in row[4].splitlines() if line]
        return lines[-limit:]

    def previous_view(self, seat: str, turn: int | None) -> dict[str, Any] | None:
        """The public view right after ``seat``'s last decision in a turn before ``turn`` (see
        ``TableReads.previous_view``), or None."""
        kept = self._views.get(seat)
        if kept is None:
            return None
        latest_turn, latest, _, prior = kept
        if turn is None or latest_turn is None or latest_turn < turn:
            return _board(latest)
        return _board(prior) if prior is not None else None
