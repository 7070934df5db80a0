"""The catch-up text of a turn message: complete when it fits, else older turns one line each."""

from __future__ import annotations

from cogs.catchup import BUDGET, TURN_LINE, summarise


def turns(count: int, lines: int = 7, width: int = 60) -> list[tuple[int | None, list[str]]]:
    return [(t, [f"turn {t} event {i} " + "x" * width for i in range(lines)]) for t in range(1, count + 1)]


def test_a_short_history_is_shown_in_full_with_its_turns():
    groups = [(4, ["Blue moves"]), (5, ["Yellow builds", "Yellow moves"])]
    assert summarise(groups) == [
        "__Turn 4__",
        "• Blue moves",
        "__Turn 5__",
        "• Yellow builds",
        "• Yellow moves",
    ]


def test_a_long_history_collapses_older_turns_to_one_line_each_and_keeps_the_latest_in_full():
    groups = turns(4)
    lines = summarise(groups)
    assert sum(len(line) + 1 for line in lines) <= BUDGET
    latest = lines[lines.index("__Turn 4__") :]
    assert latest[1:] == [f"• {line}" for line in groups[-1][1]]  # the latest turn, complete
    older = lines[: lines.index("__Turn 4__")]
    assert [line.split(":")[0] for line in older] == ["• Turn 1", "• Turn 2", "• Turn 3"]
    assert all(len(line) <= TURN_LINE for line in older)


def test_a_very_long_history_says_how_many_turns_it_leaves_out():
    lines = summarise(turns(40))
    assert lines[0].startswith("(") and "earlier turns not shown: see /game log" in lines[0]
    left_out = int(lines[0][1:].split()[0])
    shown = [line for line in lines if line.startswith("• Turn ")]
    assert left_out + len(shown) == 39 and shown[-1].startswith("• Turn 39:")
    assert sum(len(line) + 1 for line in lines) <= BUDGET
