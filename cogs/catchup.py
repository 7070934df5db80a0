"""What a turn message says happened: everything since the awaited player last decided (older
turns one line each when long), and the final ranking of a finished game."""

from __future__ import annotations

from bot import seats
from bot.engine.core import Result, format_text
from bot.tables import Table, TableHost

RECENT_LINES = 8
"""Lines shown when no particular player is awaited (a retired message, a wait for several)."""
BUDGET = 1300
"""Characters the catch-up may take in a turn message (Discord allows 2,000 in all)."""
TURN_LINE = 160
"""Characters of the one-line summary of an older turn."""
MEDALS = ("🥇", "🥈", "🥉")


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarise(groups: list[tuple[int | None, list[str]]], budget: int = BUDGET) -> list[str]:
    """Lines for ``(turn, lines)`` groups: all in full if they fit ``budget``, else the latest
    turn in full and each older turn as one line (the oldest left out first if still too long)."""
    if not groups:
        return []
    full: list[str] = []
    for turn, lines in groups:
        if len(groups) > 1 and turn is not None:
            full.append(f"__Turn {turn}__")
        full += [f"• {line}" for line in lines]
    if sum(len(line) + 1 for line in full) <= budget:
        return full
    *older, (last_turn, last_lines) = groups
    latest = [f"__Turn {last_turn}__" if last_turn is not None else "__Latest__"]
    latest += [f"• {line}" for line in last_lines]
    collapsed = [
        _short(
            f"• Turn {turn}: " + "; ".join(lines) if turn is not None else "• " + "; ".join(lines), TURN_LINE
        )
        for turn, lines in older
    ]
    room = budget - sum(len(line) + 1 for line in latest)
    kept: list[str] = []
    for line in reversed(collapsed):
        if room - len(line) - 1 < 60:
            break
        kept.insert(0, line)
        room -= len(line) + 1
    left_out = len(collapsed) - len(kept)
    head = [f"({left_out} earlier turns not shown: see /game log)"] if left_out else []
    while latest and sum(len(line) + 1 for line in latest) > budget:
        latest.pop(1)  # a latest turn longer than everything: keep its end
    return head + kept + latest


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
