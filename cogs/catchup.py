"""What a turn message says happened: everything since the awaited player's own last decision
(when long, the last two turns in full and each older turn on one line), and the final ranking of
a finished game."""

from __future__ import annotations

from bot import seats
from bot.engine.core import Result, format_text
from bot.tables import Table, TableHost

RECENT_LINES = 8
"""Lines shown when no particular player is awaited (a retired message, a wait for several)."""
BUDGET = 1500
"""Characters the catch-up may take in a turn message (Discord allows 2,000 in all; the header,
the prompt and the deadline take the rest)."""
TURN_LINE = 200
"""Characters of the one-line summary of an older turn (whole events only, see `_turn_line`)."""
MEDALS = ("🥇", "🥈", "🥉")


def _sentence(line: str) -> str:
    """An event line ending as a sentence, so that lines can be joined with a space."""
    line = line.rstrip()
    return line if line.endswith((".", "!", "?", "…")) else line + "."


def _turn_line(turn: int | None, lines: list[str], width: int = TURN_LINE) -> str:
    """An older turn on one line: its events as sentences, whole ones only; those that do not
    fit in ``width`` characters are counted, never cut in the middle."""
    head = f"• Turn {turn}: " if turn is not None else "• "
    text = head + _sentence(lines[0]) if lines else head.rstrip(": ")
    for shown, line in enumerate(lines[1:], start=1):
        more = f" (+{len(lines) - shown} more)"
        longer = f"{text} {_sentence(line)}"
        rest = f" (+{len(lines) - shown - 1} more)" if shown < len(lines) - 1 else ""
        if len(longer) + len(rest) > width:
            return text + more
        text = longer
    return text


def _in_full(groups: list[tuple[int | None, list[str]]], headed: bool) -> list[str]:
    lines: list[str] = []
    for turn, events in groups:
        if headed:
            lines.append(f"__Turn {turn}__" if turn is not None else "__Latest__")
        lines += [f"• {line}" for line in events]
    return lines


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def summarise(groups: list[tuple[int | None, list[str]]], budget: int = BUDGET) -> list[str]:
    """Lines for ``(turn, lines)`` groups: all in full if they fit ``budget``; else the last two
    turns in full and each older turn as one line (shorter lines first, and only if even those do
    not fit, the oldest turns left out, said so)."""
    if not groups:
        return []
    full = _in_full(groups, headed=len(groups) > 1)
    if _size(full) <= budget:
        return full
    for whole in (2, 1):
        older, recent = groups[:-whole], groups[-whole:]
        latest = _in_full(recent, headed=True)
        if _size(latest) <= budget * 4 // 5 or whole == 1:  # room left for the older turns' lines
            break
    while latest and _size(latest) > budget:
        latest.pop(1)  # a latest turn longer than everything: keep its end
    room = budget - _size(latest)
    for width in (TURN_LINE, 120, 70):
        collapsed = [_turn_line(turn, lines, width) for turn, lines in older]
        if _size(collapsed) <= room:
            return collapsed + latest
    room -= 45  # the line that says how many turns are left out
    kept: list[str] = []
    for line in reversed(collapsed):
        if len(line) + 1 > room:
            break
        kept.insert(0, line)
        room -= len(line) + 1
    left_out = len(collapsed) - len(kept)
    return [f"({left_out} earlier turns not shown: see /game log)", *kept, *latest]


async def catch_up_lines(host: TableHost, table: Table, seat: str | None) -> list[str]:
    """What the turn message shows before its prompt (see the module docstring)."""
    names = table.names()
    if seat is None:
        lines = await host.history(table.record.channel_id, limit=RECENT_LINES, upto=table)
        return [f"• {format_text(line, names)}" for line in lines]
    groups = await host.since_last_decision(table, seat)
    named = [(turn, [format_text(line, names) for line in lines]) for turn, lines in groups]
    body = summarise(named)
    if not body:
        return []
    if not seats.is_bot(table.holder_of(seat)) and await host.played_for(table, seat):
        return [f"{names.get(seat, seat)}, while you were away the AI played for you:", *body]
    return [f"Since {names.get(seat, seat)} last decided:", *body]


async def turn_lines(host: TableHost, table: Table, turn: int | None) -> list[str]:
    """What a retired turn message says: every public line of its own turn ``turn`` (up to the
    table's version), or the latest lines when the turn is not known."""
    if turn is None:
        return await catch_up_lines(host, table, None)
    names = table.names()
    lines = await host.turn_summaries(table, turn)
    body = [f"• {format_text(line, names)}" for line in lines]
    while body and sum(len(line) + 1 for line in body) > BUDGET:
        body.pop(0)  # a turn longer than a message: keep its end
    return body


def final_lines(table: Table, result: Result) -> list[str]:
    """The end of a game: how it ended, every player ranked with their score and tie-breaks."""
    names = table.names()
    game = table.game
    label = getattr(game, "score_label", "points")
    label_one = getattr(game, "score_label_one", "point")
    lines = [f"🏁 **Game over.** {format_text(result.text, names)}"]
    previous: tuple[int, str] | None = None
    place = 0
    for index, player in enumerate(result.ranked(), start=1):
        score = result.scores.get(player, 0)
        detail = result.details.get(player, "")
        key = (score, detail, player in result.winners)
        if previous != key[:2] or index == 1:
            place = index
        previous = key[:2]
        medal = MEDALS[place - 1] if place <= len(MEDALS) and result.winners else f"{place}."
        extra = f" ({detail})" if detail else ""
        winner = " — winner" if player in result.winners else ""
        unit = label_one if score == 1 else label
        lines.append(f"{medal} {names.get(player, player)}: {score} {unit}{extra}{winner}")
    lines.append("Press **Rematch** to play again with the same seats and options.")
    return lines
